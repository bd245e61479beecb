//! Side by side's session (issues 13 and 29: one job, one input, one crash, up to three runs from
//! seven presets on one clock, and the lesson "Three ways to survive a crash"), changed only by
//! [`CompareCommand`]s, as the main screen's [`Session`](crate::classroom::Session) is by its
//! commands. It knows nothing of the browser, so it is tested natively (`tests.rs`: the room's
//! clock against the comparison replayed from its file, as `barrierscope compare` replays it); the
//! room in `app/rooms/compare/` draws it and sends it commands.
//!
//! One concept a file: `command` (what the learner asks), `notice` (what the room says, worded),
//! `session` (the session and what it holds), `clock` (ticks, going back, X and R), `form` (the
//! comparison's job, input, runs and crash) and `handle` (how each command changes it, and the
//! lesson's steps).

mod clock;
mod command;
mod form;
mod handle;
mod notice;
mod session;
#[cfg(test)]
mod tests;

pub use command::CompareCommand;
pub use form::{place_of, place_value, preset_index};
pub use notice::CompareNotice;
pub use session::{CompareSession, SPEEDS};
