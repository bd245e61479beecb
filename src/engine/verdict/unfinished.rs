//! A run that stops at a step cap. `end` (run to the end) runs until nothing is left to do, but at
//! most a budget of steps (the runner's 2,000,000, the page's saved-run limit). A run that still
//! has work when the budget is spent never finished: its verdicts are those of a run cut short,
//! and the runner and the page say so, with the cause where one can be named.
//!
//! The cause named here is a mechanism's loop, as the catalogue's `EndlessWatch` tells it (under
//! Storm's acker a message timeout shorter than a tuple tree takes to complete makes the run replay
//! without end: `mechanisms/storm/endless_replay.rs`). [`EndWatch`] watches a run to the end step
//! by step and tells this apart from a run that was merely still busy.

use serde::{Deserialize, Serialize};

use crate::engine::core::action::Event;
use crate::engine::core::lang::{say, Lang};
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::catalogue::endless::{Endless, EndlessWatch};

/// Why a run never finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "cause")]
pub enum Cause {
    /// A mechanism's loop, in its words (Storm: tuple trees kept timing out). Its name in a saved
    /// run stays the one it was first written with.
    #[serde(rename = "trees-time-out")]
    Endless(Endless),
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

/// Watches a run to the end: the steps taken, and what its mechanism's watch needs.
#[derive(Clone, Debug, Default)]
pub struct EndWatch {
    steps: usize,
    endless: EndlessWatch,
}

impl EndWatch {
    /// One step of the run, with its events.
    pub fn observe(&mut self, events: &[Event]) {
        self.steps += 1;
        for e in events {
            self.endless.observe(self.steps, e);
        }
    }

    /// After the run: did it stop at `budget` steps with work still to do, and why?
    pub fn unfinished(&self, sim: &Sim, budget: usize) -> Option<Unfinished> {
        if self.steps < budget || !sim.has_work() {
            return None;
        }
        let cause = self.endless.endless(sim, self.steps).map_or(Cause::StillWorking, Cause::Endless);
        Some(Unfinished { steps: self.steps, cause })
    }
}

impl Unfinished {
    /// What the runner prints and the page shows.
    pub fn message(&self, lang: Lang) -> String {
        let steps = self.steps;
        let why = match self.cause {
            Cause::Endless(endless) => endless.message(lang),
            Cause::StillWorking => String::new(),
        };
        say!(
            lang,
            "The run did not finish: it stopped at the cap of {steps} steps with work still to do, so its verdicts are those of an unfinished run.{why}",
            "运行没有结束：它在 {steps} 步的上限处停下，仍有工作没做完，所以这些判定属于一次未完成的运行。{why}"
        )
    }
}
