//! What a savepoint is, as data: its type (Flink's `SavepointType`), a completed savepoint in the
//! user's directory, and how a job that no longer runs ended. What the JobManager does with them
//! is in `mod.rs`.

use serde::{Deserialize, Serialize};

use crate::engine::jobmanager::storage::CompletedCheckpoint;

/// Flink's `SavepointType`: the kind of savepoint a pending checkpoint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SavepointType {
    /// `flink savepoint`: the job runs on.
    Savepoint,
    /// `flink stop`: synchronous; the job finishes once it has completed and been notified.
    Suspend,
}

/// A completed savepoint, in the user's savepoint directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Savepoint {
    /// The final savepoint of a stop with savepoint.
    pub stop: bool,
    pub checkpoint: CompletedCheckpoint,
}

/// How a job that no longer runs ended (Flink's globally terminal job states).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JobEnd {
    /// Stopped with a savepoint: `FINISHED`.
    Finished,
    /// Cancelled by the user: `CANCELED`.
    Canceled,
}
