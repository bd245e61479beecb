//! A learner's session: the run being watched (a [`Timeline`](crate::engine::Timeline) of one configuration), the recent
//! narration, the lesson being followed, and the notice for the last refused command. The UI
//! turns clicks and keys into [`Command`]s and draws the session; nothing here knows of the
//! browser, so it is tested natively. A session also saves to and loads from a [`SavedRun`](crate::classroom::saved_run::SavedRun):
//! loading checks everything before the current run is replaced, so a bad link, file or stored
//! entry names its problem and loses nothing.
//!
//! Acting at an earlier step forks the run: the later steps are dropped. Before that, the
//! session says which steps would go ([`Session::fork_preview`]); after it, [`Command::Undo`]
//! (Ctrl+Z) brings the dropped steps back exactly, and [`Command::Redo`] puts back what the undo
//! set aside. The forks are kept as a stack (the latest [`MAX_FORKS_KEPT`]), so several undos walk
//! back through several forks; a new fork clears what could be redone.

mod command;
mod fork;
mod handle;
mod notice;
mod saving;
mod state;
#[cfg(test)]
mod tests;

pub use command::{Command, Steps};
pub use notice::Notice;
pub use saving::open_run;
pub use state::{Session, StepLog};

/// How many recent steps the narration keeps.
pub const NARRATION_STEPS: usize = 40;

/// How many forks can be undone (and undos redone); older ones are forgotten.
pub const MAX_FORKS_KEPT: usize = 32;
