//! Decisive steps on the timeline: a counterexample the schedule explorer opened on the canvas
//! keeps, while it is the run on screen, its decisive steps (the saves, sends, receipts, crash and
//! restore its explanation turns on) marked ◆ along the timeline, each a button that moves the
//! playhead there, and its explanation under the toolbar (drawn by `decisive_view.rs`). Only words
//! and step numbers reach the main screen: the explorer's engine stays in its room's part
//! (`rooms::explorer`).

use crate::engine::Action;

/// One marked step: numbered from 1, as the timeline shows its effect at position n.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub step: usize,
    pub en: String,
    pub zh: String,
}

/// A counterexample's decisive steps and its explanation, in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    pub steps: Vec<Mark>,
    pub why_en: String,
    pub why_zh: String,
    /// The run they belong to: the counterexample's schedule.
    pub schedule: Vec<Action>,
}

impl Marks {
    /// Whether they still belong to the run on screen: its first steps are the counterexample's.
    pub fn fit(&self, actions: &[Action]) -> bool {
        actions.starts_with(&self.schedule)
    }
}
