//! Counterexamples: for each bad outcome some schedule reaches (a record lost, or duplicated, in
//! operator state or in what a reader sees of the sinks), the shortest schedule that reaches it,
//! as TLC prints the shortest trace that breaks an invariant. A counterexample is a plain list of
//! [`Action`]s: it replays on the canvas with the usual controls, and it is written out as a
//! scenario file whose script is that list, which `barrierscope run` plays to the same verdict
//! (DSLabs and P replay their traces the same way).

use serde::{Deserialize, Serialize};

use super::explanation::Story;
pub use super::outcome::{BadOutcome, Judged};
use crate::engine::core::action::Action;
use crate::engine::core::ids::RecordId;
use crate::engine::core::sim::Sim;
use crate::engine::runs::scenario::Scenario;
use crate::engine::runs::script::ScriptAction;

/// The shortest schedule to one bad outcome, what it does to which records, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    pub bad: BadOutcome,
    /// The actions from the initial state, in order.
    pub schedule: Vec<Action>,
    /// The records with this verdict at the end of the schedule.
    pub records: Vec<RecordId>,
    /// How many schedules end with this outcome (this one among them).
    pub schedules: u128,
    /// The facts behind the outcome, drawn from the schedule's events, and its decisive steps.
    pub story: Story,
}

impl Counterexample {
    /// Replays `schedule` from `initial` and draws its story.
    pub(crate) fn build(initial: &Sim, schedule: Vec<Action>, bad: BadOutcome, schedules: u128) -> Counterexample {
        let story = Story::of(initial, &schedule, bad);
        Counterexample { bad, records: story.records.clone(), schedule, schedules, story }
    }

    /// The counterexample as a scenario file: `base`'s job, input, settings and seed (the
    /// scenario the exploration started from, at its beginning), and the schedule as its script.
    pub fn scenario(&self, base: &Scenario, initial: &Sim, description: String) -> Scenario {
        let g = &initial.graph;
        let mut sc = base.clone();
        sc.explore = None;
        sc.name = format!(
            "{}: the shortest schedule where {} ({} steps)",
            if base.name.is_empty() { "Explorer" } else { base.name.as_str() },
            match self.bad.judged {
                Judged::Complete => "a record is incomplete".to_string(),
                Judged::Order => "a record is out of order".to_string(),
                j => format!("{} {}", j.id(), self.bad.verdict.id()),
            },
            self.schedule.len()
        );
        sc.description = description;
        sc.actions = self.schedule.iter().map(|a| ScriptAction::of(g, *a)).collect();
        sc
    }
}
