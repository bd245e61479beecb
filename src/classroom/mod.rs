//! The classroom: a layer on top of the engine for a learner. It holds the guided lessons, the
//! learner's session (the run being watched, its narration, the lesson being followed) and the
//! saved-run format behind share links, exported files and the browser's storage. It knows
//! nothing of the browser, so it is tested natively; the UI draws it and sends it commands.
//!
//! One concept a file, each using only the engine and the files before it: `run_config` (what
//! defines a run), `lessons` (the lesson model, script lines, scoring), `lesson_file` (the
//! lesson-file format), `curriculum` (the built-in lessons, files under `lessons/`; `catalogue`
//! lists them for the menu), `lesson_check` (playing a lesson through and checking its claims), `progress` (where a learner stands in a lesson),
//! `program_change` (a restore into a changed program, as a session and a saved run keep it),
//! `program_edit` (the edits of a program between stop and restore),
//! `saved_run` (the saved-run format), `saved_comparison` and `compare_lesson` (the side-by-side
//! room's saved comparison and its lesson), `number_fields` (the Settings panel's number fields:
//! ranges, clamping, refusals), `legend` (the marks a strategy draws, which the legend explains),
//! `session` (the session and its commands), `room_session` (what a room's own session is to the
//! page) with `unread` (text that never reached a room), `batch_room` and `compare_room` (the Batch
//! room's and Side by side's sessions),
//! `wording` (the layer's English and Chinese words) and `quiz` (the quiz room's questions, drawn
//! from the engine and graded by it).

pub mod announcement;
pub mod batch_room;
pub mod catalogue;
pub mod compare_lesson;
pub mod compare_room;
pub mod curriculum;
pub mod legend;
pub mod lesson_check;
pub mod lesson_file;
pub mod lessons;
pub mod program_change;
/// Moved to the engine, where a scenario's restore into a changed program applies it.
pub use crate::engine::program::program_edit;
pub mod number_fields;
pub mod progress;
pub mod quiz;
pub mod room_session;
pub mod run_config;
pub mod saved_comparison;
pub mod saved_run;
pub mod session;
pub mod unread;
pub mod wording;

pub use catalogue::{Entry, CATALOGUE};
pub use curriculum::builtins;
pub use legend::{marks, Mark};
pub use lesson_file::{is_lesson_file, LessonError};
pub use lessons::{checkpoint_outcome, parse_line, play_lines, score, Judge, Lesson, OnDiagram, Step, Text};
pub use number_fields::{edit_field, FieldNote, SettingField};
pub use progress::{actions_for, next_guess, run_for, CutAttempt, LessonRun, Progress};
pub use run_config::{RunConfig, MAX_GENERATED};
pub use saved_run::{
    from_base64url, from_fragment, to_base64url, to_fragment, LoadError, Origin, SavedLesson, SavedRun,
    MAX_SAVED_ACTIONS, MAX_SAVED_BYTES, SAVED_VERSION,
};
pub use session::{open_run, Command, Notice, Session, StepLog, Steps, MAX_FORKS_KEPT, NARRATION_STEPS};
pub use wording::{crash_words, step_title};
