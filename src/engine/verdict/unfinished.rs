//! A run that stops at a step cap. `end` (run to the end) runs until nothing is left to do, but at
//! most a budget of steps (the runner's 2,000,000, the page's saved-run limit). A run that still
//! has work when the budget is spent never finished: its verdicts are those of a run cut short,
//! and the runner and the page say so, with the cause where one can be named.
//!
//! The cause named here: under Storm's acker, a message timeout shorter than a tuple tree takes
//! to complete. Every tree then times out before its last ack, the spout fails the tuple and
//! emits it again as a new tree (`SpoutExecutor`'s pending `RotatingMap`, `KafkaSpout`'s retry),
//! which times out in turn: the run replays without end. [`EndWatch`] watches a run to the end
//! step by step and tells this apart from a run that was merely still busy.

use serde::{Deserialize, Serialize};

use crate::engine::core::action::Event;
use crate::engine::core::lang::{say, Lang};
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::storm::events::StormEvent;

/// Why a run never finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "cause")]
pub enum Cause {
    /// Storm: tuple trees kept timing out (`timeouts` since the last one completed, or since
    /// the start if none did) with `message-timeout` `timeout` steps.
    TreesTimeOut { timeout: u64, timeouts: u64, completed: u64 },
    /// Work was still left, for no cause named here.
    StillWorking,
}

/// A run that stopped at its cap of `steps` steps with work still to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unfinished {
    pub steps: usize,
    #[serde(flatten)]
    pub cause: Cause,
}

/// Watches a run to the end: the steps taken, and Storm's tree completions and timeouts.
#[derive(Clone, Debug, Default)]
pub struct EndWatch {
    steps: usize,
    completed: u64,
    last_completion: Option<usize>,
    timeouts_since: u64,
}

impl EndWatch {
    /// One step of the run, with its events.
    pub fn observe(&mut self, events: &[Event]) {
        self.steps += 1;
        for e in events {
            match e {
                Event::Storm(StormEvent::TreeCompleted { .. }) => {
                    self.completed += 1;
                    self.last_completion = Some(self.steps);
                    self.timeouts_since = 0;
                }
                Event::Storm(StormEvent::TupleTimedOut { .. }) => self.timeouts_since += 1,
                _ => {}
            }
        }
    }

    /// After the run: did it stop at `budget` steps with work still to do, and why? Trees time
    /// out without end when timeouts came since the last completion and that completion (if
    /// any) lies in the first half of the run.
    pub fn unfinished(&self, sim: &Sim, budget: usize) -> Option<Unfinished> {
        if self.steps < budget || !sim.has_work() {
            return None;
        }
        let stalled = self.last_completion.is_none_or(|c| c <= self.steps / 2);
        let cause = if sim.hooks.follows_records && self.timeouts_since > 0 && stalled {
            Cause::TreesTimeOut {
                timeout: sim.settings.message_timeout,
                timeouts: self.timeouts_since,
                completed: self.completed,
            }
        } else {
            Cause::StillWorking
        };
        Some(Unfinished { steps: self.steps, cause })
    }
}

impl Unfinished {
    /// What the runner prints and the page shows.
    pub fn message(&self, lang: Lang) -> String {
        let steps = self.steps;
        let why = match self.cause {
            Cause::TreesTimeOut { timeout, timeouts, completed } => say!(
                lang,
                " Every tree times out before it can complete: with message-timeout {timeout} steps a tree's tuples and acks take longer than the timeout, so the spout fails each tuple and emits it again as a new tree, which times out in turn ({timeouts} timeouts since the last tree completed; {completed} completed in all). A longer message-timeout lets the trees complete.",
                "每棵树都在完成之前超时：message-timeout 为 {timeout} 步，一棵树的元组和确认要花的时间比超时还长，于是 spout 让每个元组失败，再把它作为一棵新树发出，新树又会超时（自上一棵树完成以来超时 {timeouts} 次；总共完成 {completed} 棵）。把 message-timeout 调长，树才能完成。"
            ),
            Cause::StillWorking => String::new(),
        };
        say!(
            lang,
            "The run did not finish: it stopped at the cap of {steps} steps with work still to do, so its verdicts are those of an unfinished run.{why}",
            "运行没有结束：它在 {steps} 步的上限处停下，仍有工作没做完，所以这些判定属于一次未完成的运行。{why}"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Scenario, Settings, Strategy};

    fn storm(timeout: u64) -> Sim {
        let mut s = Settings::new(Strategy::StormAcker);
        s.message_timeout = timeout;
        Scenario::builtin("line-sink", s, 1).sim().unwrap()
    }

    /// Issue 26, 7: `storm-acker` with `message-timeout: 4` replays without end; a run to the end
    /// stops at its cap and says why. Model: the failure-free run with the default timeout
    /// finishes far below the same cap, and says nothing.
    #[test]
    fn a_run_that_stops_at_its_cap_says_so_and_names_the_timeout() {
        const CAP: usize = 20_000;
        let mut short = storm(4);
        let mut watch = EndWatch::default();
        short.run_to_end_each(CAP, &mut |_, ev| watch.observe(ev));
        let u = watch.unfinished(&short, CAP).expect("stopped at the cap");
        assert_eq!(u.steps, CAP);
        assert!(matches!(u.cause, Cause::TreesTimeOut { timeout: 4, timeouts: 1.., .. }), "{u:?}");
        for lang in [Lang::En, Lang::Zh] {
            assert!(u.message(lang).contains("4"), "{}", u.message(lang));
        }
        assert!(
            u.message(Lang::En).contains("did not finish")
                && u.message(Lang::En).contains("times out before it can complete")
        );
        let mut fine = storm(100);
        let mut watch = EndWatch::default();
        let taken = fine.run_to_end_each(CAP, &mut |_, ev| watch.observe(ev));
        assert!(taken < CAP / 10, "{taken}");
        assert_eq!(watch.unfinished(&fine, CAP), None);
    }
}
