//! A run that stops at a step cap. `end` (run to the end) runs until nothing is left to do, but at
//! most a budget of steps (the runner's 2,000,000, the page's saved-run limit). A run that still
//! has work when the budget is spent never finished: its verdicts are those of a run cut short,
//! and the runner and the page say so, with the cause where one can be named.
//!
//! The cause named here is Storm's: a message timeout shorter than a tuple tree takes to complete
//! makes the run replay without end (`mechanisms/storm/endless_replay.rs`, which watches the
//! trees). [`EndWatch`] watches a run to the end step by step and tells this apart from a run
//! that was merely still busy.

use serde::{Deserialize, Serialize};

use crate::engine::core::action::Event;
use crate::engine::core::lang::{say, Lang};
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::storm::endless_replay::{EndlessReplay, TreeWatch};

/// Why a run never finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "cause")]
pub enum Cause {
    /// Storm: tuple trees kept timing out (its folder's [`EndlessReplay`]).
    TreesTimeOut(EndlessReplay),
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

/// Watches a run to the end: the steps taken, and what its mechanism's watch needs (Storm's
/// trees).
#[derive(Clone, Debug, Default)]
pub struct EndWatch {
    steps: usize,
    trees: TreeWatch,
}

impl EndWatch {
    /// One step of the run, with its events.
    pub fn observe(&mut self, events: &[Event]) {
        self.steps += 1;
        for e in events {
            self.trees.observe(self.steps, e);
        }
    }

    /// After the run: did it stop at `budget` steps with work still to do, and why?
    pub fn unfinished(&self, sim: &Sim, budget: usize) -> Option<Unfinished> {
        if self.steps < budget || !sim.has_work() {
            return None;
        }
        let cause = self.trees.endless(sim, self.steps).map_or(Cause::StillWorking, Cause::TreesTimeOut);
        Some(Unfinished { steps: self.steps, cause })
    }
}

impl Unfinished {
    /// What the runner prints and the page shows.
    pub fn message(&self, lang: Lang) -> String {
        let steps = self.steps;
        let why = match self.cause {
            Cause::TreesTimeOut(endless) => endless.message(lang),
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
        assert!(matches!(u.cause, Cause::TreesTimeOut(EndlessReplay { timeout: 4, timeouts: 1.., .. })), "{u:?}");
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
