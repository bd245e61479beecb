//! A run that replays without end under Storm's acker: a message timeout shorter than a tuple
//! tree takes to complete. Every tree then times out before its last ack, the spout fails the
//! tuple and emits it again as a new tree (`SpoutExecutor`'s pending `RotatingMap`, `KafkaSpout`'s
//! retry), which times out in turn. [`TreeWatch`] follows the trees' completions and timeouts step
//! by step, so that a run stopped at its step cap (`verdict/unfinished.rs`) can tell this apart
//! from a run that was merely still busy, and say it ([`EndlessReplay::message`]).

use crate::engine::mechanisms::catalogue::carried::MechanismEvent;
use serde::{Deserialize, Serialize};

use super::events::StormEvent;
use crate::engine::core::action::Event;
use crate::engine::core::lang::{say, Lang};
use crate::engine::core::sim::Sim;

/// Tuple trees kept timing out: `timeouts` since the last one completed (or since the start if
/// none did), with `message-timeout` `timeout` steps; `completed` trees in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndlessReplay {
    pub timeout: u64,
    pub timeouts: u64,
    pub completed: u64,
}

/// Storm's tree completions and timeouts, as a run goes.
#[derive(Clone, Debug, Default)]
pub struct TreeWatch {
    completed: u64,
    last_completion: Option<usize>,
    timeouts_since: u64,
}

impl TreeWatch {
    /// An event of step `step` (counted from 1).
    pub fn observe(&mut self, step: usize, e: &Event) {
        match e {
            Event::Mechanism(MechanismEvent::Storm(StormEvent::TreeCompleted { .. })) => {
                self.completed += 1;
                self.last_completion = Some(step);
                self.timeouts_since = 0;
            }
            Event::Mechanism(MechanismEvent::Storm(StormEvent::TupleTimedOut { .. })) => self.timeouts_since += 1,
            _ => {}
        }
    }

    /// After `steps` steps of `sim`: do its trees time out without end? They do when timeouts
    /// came since the last completion and that completion (if any) lies in the first half of the
    /// run.
    pub fn endless(&self, sim: &Sim, steps: usize) -> Option<EndlessReplay> {
        let stalled = self.last_completion.is_none_or(|c| c <= steps / 2);
        (sim.hooks.follows_records && self.timeouts_since > 0 && stalled).then_some(EndlessReplay {
            timeout: sim.settings.mechanism.storm.message_timeout,
            timeouts: self.timeouts_since,
            completed: self.completed,
        })
    }
}

impl EndlessReplay {
    /// Why the run did not finish, as a sentence that follows the runner's and the page's
    /// "The run did not finish" (it starts with a space).
    pub fn message(&self, lang: Lang) -> String {
        let EndlessReplay { timeout, timeouts, completed } = *self;
        say!(
            lang,
            " Every tree times out before it can complete: with message-timeout {timeout} steps a tree's tuples and acks take longer than the timeout, so the spout fails each tuple and emits it again as a new tree, which times out in turn ({timeouts} timeouts since the last tree completed; {completed} completed in all). A longer message-timeout lets the trees complete.",
            "每棵树都在完成之前超时：message-timeout 为 {timeout} 步，一棵树的元组和确认要花的时间比超时还长，于是 spout 让每个元组失败，再把它作为一棵新树发出，新树又会超时（自上一棵树完成以来超时 {timeouts} 次；总共完成 {completed} 棵）。把 message-timeout 调长，树才能完成。"
        )
    }
}
