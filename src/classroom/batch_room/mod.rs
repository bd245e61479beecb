//! The Batch room's session (issue 23's room: Hadoop re-runs the failed task, Spark recomputes from
//! lineage): the batch run on screen, Play, the lesson's place and the last notice, changed only by
//! [`BatchCommand`]s, as the main screen's [`Session`](crate::classroom::Session) is by its
//! commands. It knows nothing of the browser, so it is tested natively (`tests.rs`, against the
//! failure-free run and a replay of the history); the room in `app/rooms/batch/` draws it and
//! sends it commands.
//!
//! One concept a file: `command` (what the learner asks), `lesson` (the lesson's place), `notice`
//! (what the room tells the learner, worded), `session` (the session and what it holds) and
//! `handle` (how each command changes it).

mod command;
mod handle;
mod lesson;
mod notice;
mod session;
#[cfg(test)]
mod tests;

pub use command::BatchCommand;
pub use lesson::LessonAt;
pub use notice::BatchNotice;
pub use session::{BatchSession, DEFAULT_JOB, SPEEDS};
