//! The classroom: a layer on top of the engine for a learner. It holds the guided lessons, the
//! learner's session (the run being watched, its narration, the lesson being followed) and the
//! saved-run format behind share links, exported files and the browser's storage. It knows
//! nothing of the browser, so it is tested natively; the UI draws it and sends it commands.

pub mod curriculum;
pub mod lessons;
pub mod progress;
pub mod run_config;
pub mod saved_run;
pub mod session;

pub use curriculum::LESSONS;
pub use lessons::{parse_line, play_lines, score, Judge, Lesson, Step, Text};
pub use progress::{actions_for, Progress};
pub use run_config::{RunConfig, MAX_GENERATED};
pub use saved_run::{
    from_base64url, from_fragment, to_base64url, to_fragment, LoadError, Origin, SavedLesson, SavedRun,
    MAX_SAVED_ACTIONS, MAX_SAVED_BYTES, SAVED_VERSION,
};
pub use session::{step_title, Command, Notice, Session, StepLog, NARRATION_STEPS};
