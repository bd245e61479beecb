//! The notice for the learner: why a command was refused, or what was opened (worded in
//! `classroom::wording`).

use super::command::*;
use crate::classroom::number_fields::FieldNote;
use crate::classroom::saved_run::{LoadError, Origin};
use crate::engine::*;

/// The last notice for the learner: why something was refused, or what was opened (worded in
/// `wording.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Refused {
        action: String,
        action_zh: String,
        error: ActionError,
    },
    AtFirstStep,
    NothingToPlay,
    /// Reveal was asked for with this many records still unmarked.
    MarkEveryRecord(usize),
    /// Reveal was asked for before a guess for this checkpoint (completes or fails).
    PredictCheckpoint(u64),
    /// Next was asked for on a drawing step before a consistent cut was checked.
    DrawConsistentCut,
    Config(ScenarioError),
    LoadFailed {
        origin: Origin,
        error: LoadError,
        /// Why, in English and in Chinese, worded where the run is read (the sharing part of the
        /// page), so the first screen holds none of the load errors' words.
        why: Box<[String; 2]>,
    },
    Opened(Origin),
    /// What a part of the page did, worded there (English, Chinese), so the first screen holds
    /// none of its words: a lesson file or link opened its lesson; a restore into a changed
    /// program started a new job.
    Done(Box<[String; 2]>),
    LessonError(String),
    /// Acting at an earlier step dropped these steps; Undo brings them back.
    Forked(Steps),
    /// Undo brought these steps back, the playhead at `at`, and set `set_aside` steps aside.
    Undone {
        back: Steps,
        at: usize,
        set_aside: usize,
    },
    /// Redo put these steps back, the playhead at `at`, and set `set_aside` steps aside.
    Redone {
        back: Steps,
        at: usize,
        set_aside: usize,
    },
    NothingToUndo,
    NothingToRedo,
    /// A Settings field clamped or refused a value.
    Setting(FieldNote),
    /// A part of the page (the lessons, saved runs) could not be fetched.
    PartUnavailable,
    /// Run to the end stopped at its step cap with work still to do.
    Unfinished(Unfinished),
}

impl Notice {
    /// A run that could not be opened from `origin`, and why.
    pub fn load_failed(origin: Origin, error: LoadError) -> Notice {
        let why = Box::new([error.message(Lang::En), error.message(Lang::Zh)]);
        Notice::LoadFailed { origin, error, why }
    }

    pub fn is_error(&self) -> bool {
        match self {
            Notice::Opened(_) | Notice::Done(_) | Notice::Forked(_) | Notice::Undone { .. } | Notice::Redone { .. } => {
                false
            }
            Notice::Setting(note) => note.is_refusal(),
            _ => true,
        }
    }
}
