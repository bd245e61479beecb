//! Why Spark Streaming refuses an action: a receiver on a socket stores what arrives by itself,
//! so nobody reads for it. Carried by `ActionError::Mechanism` (the catalogue's
//! `MechanismRefusal::Spark`), and worded here in English and Chinese, beside the check in
//! [`super::micro_batches`] that makes it.

use crate::engine::core::lang::{say, Lang};

/// One of Spark Streaming's refusals. Names are resolved when it is made, as in every
/// `ActionError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SparkRefusal {
    /// A receiver on a socket stores what arrives by itself.
    ReceiverListens { task: String },
}

impl SparkRefusal {
    /// Why the action was refused, in one clause.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            SparkRefusal::ReceiverListens { task } => say!(
                lang,
                "{task}'s receiver stores what arrives on its socket by itself, as each record arrives (wait)",
                "{task} 的接收器会在每条记录到达 socket 时自行存储（等待）"
            ),
        }
    }
}
