//! What the learner asks of a session: a [`Command`] (a click or a key, turned into data so a
//! session can be tested without a browser), and [`Steps`], a stretch of the history a notice names.

use serde::{Deserialize, Serialize};

use crate::classroom::number_fields::SettingField;
use crate::classroom::progress::CutAttempt;
use crate::classroom::run_config::RunConfig;
use crate::engine::*;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Apply an action at the current step (forking if it is earlier than the end).
    Act(Action),
    /// Bring back the steps the latest fork dropped, with the playhead where it was then; the
    /// steps since the fork are set aside for [`Command::Redo`].
    Undo,
    /// Put back the steps the latest undo set aside.
    Redo,
    /// Play: move on one step (through the history, or a new seeded step at the end).
    Tick,
    /// Run to the end at once: to the end of the history, then every record through and a final
    /// checkpoint where the strategy takes them ([`Sim::run_to_end`], the script word `end`). Each
    /// step is recorded in the timeline like any other.
    ToEnd,
    Back,
    Forward,
    Seek(usize),
    Reset,
    Configure(RunConfig),
    /// A number typed into a Settings field (None: the browser could not read a number). Out of
    /// range, it is clamped and the notice says so; no whole number, it is refused and nothing
    /// changes; a value that leaves the configuration as it is keeps the run.
    EditSetting(SettingField, Option<String>),
    /// Select a checkpoint in the Checkpoints tab and move to its trigger.
    SelectCheckpoint(CheckpointId),
    Dismiss,
    StartLesson(usize),
    LessonNext,
    LessonPrev,
    /// Drop the learner's own moves and go back to where the lesson stands.
    LessonResume,
    LessonExit,
    /// Mark a record's predicted fate on a predict step.
    Predict(String, Verdict),
    /// On a checkpoint's prediction: the learner guesses it completes (true) or fails (false).
    PredictCheckpoint(bool),
    /// On a lesson step where the learner draws cuts: a cut checked after its prediction (sent
    /// by the space-time room, which classifies it). Refused on any other step, and for a cut
    /// already checked.
    CheckCut(CutAttempt),
}

/// Some steps of the history, numbered from 1: the `steps` steps after step `after`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Steps {
    pub after: usize,
    pub steps: usize,
}

impl Steps {
    pub fn first(&self) -> usize {
        self.after + 1
    }
    pub fn last(&self) -> usize {
        self.after + self.steps
    }
}
