//! A run that replays without end, as a mechanism can tell it. A run stopped at its step cap
//! (`verdict/unfinished.rs`) either was merely still busy or was caught in a loop its mechanism
//! can name: under Storm's acker, a message timeout shorter than a tuple tree takes to complete
//! (`storm/endless_replay.rs`). [`EndlessWatch`] follows a run for every mechanism that has such
//! a loop, and [`Endless`] is the cause it names, one variant per mechanism, in its words.

use serde::{Deserialize, Serialize};

use crate::engine::core::action::Event;
use crate::engine::core::lang::Lang;
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::storm::endless_replay::{EndlessReplay, TreeWatch};

/// Why a run replays without end, as the mechanism names it. In a saved run it is the mechanism's
/// own value (untagged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Endless {
    /// Storm: tuple trees kept timing out.
    Storm(EndlessReplay),
}

impl Endless {
    /// Why the run did not finish, as a sentence that follows "The run did not finish" (it starts
    /// with a space).
    pub fn message(&self, lang: Lang) -> String {
        match self {
            Endless::Storm(e) => e.message(lang),
        }
    }
}

/// What every mechanism with a loop of its own watches as a run goes (Storm's trees).
#[derive(Clone, Debug, Default)]
pub struct EndlessWatch {
    trees: TreeWatch,
}

impl EndlessWatch {
    /// An event of step `step` (counted from 1).
    pub fn observe(&mut self, step: usize, e: &Event) {
        self.trees.observe(step, e);
    }

    /// After `steps` steps of `sim`: does it replay without end, and why?
    pub fn endless(&self, sim: &Sim, steps: usize) -> Option<Endless> {
        self.trees.endless(sim, steps).map(Endless::Storm)
    }
}
