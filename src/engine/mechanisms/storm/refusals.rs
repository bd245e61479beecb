//! Why Storm's acker refuses an action: Nimbus is down already, no message is on its way to or
//! from the acker, or there is no acker at all. Carried by `ActionError::Mechanism` (the
//! catalogue's `MechanismRefusal::Storm`), and worded here in English and Chinese, beside the
//! checks in [`super::acker`] that make them.

use crate::engine::core::lang::{say, Lang};
use crate::engine::settings::strategy::Strategy;

/// One of Storm's refusals. Names are resolved when it is made, as in every `ActionError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StormRefusal {
    /// Nimbus is already down.
    NimbusDown,
    /// Nothing from this task is on its way to the acker.
    NoAckMessage { task: String },
    /// No answer from the acker is on its way to this task.
    NoAckerAnswer { task: String },
    /// There is no acker: another strategy, or ackers 0.
    NoAcker { strategy: Strategy },
}

impl StormRefusal {
    /// Why the action was refused, in one clause.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            StormRefusal::NimbusDown => lang.t("Nimbus is already down", "Nimbus 已经停了").into(),
            StormRefusal::NoAckMessage { task } => {
                say!(lang, "no message from {task} is on its way to the acker", "没有从 {task} 发往 acker 的消息")
            }
            StormRefusal::NoAckerAnswer { task } => {
                say!(lang, "no answer from the acker is on its way to {task}", "没有 acker 发往 {task} 的答复")
            }
            StormRefusal::NoAcker { strategy } => {
                let name = strategy.in_sentence(lang);
                say!(lang, "there is no acker with {name} (or with ackers 0)", "“{name}”没有 acker（或 acker 数为 0）")
            }
        }
    }
}
