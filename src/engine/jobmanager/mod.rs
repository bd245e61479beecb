//! The JobManager: its CheckpointCoordinator, the checkpoints it keeps, where they are stored,
//! the statistics its web UI shows, and its own failure.
//!
//! - [`coordinator`]: Flink's `CheckpointCoordinator`: triggers, acknowledgements, completion,
//!   timeouts and aborts; [`checkpoint`]: a pending checkpoint and its notifications.
//! - [`storage`]: checkpoint storage, the completed checkpoints kept; [`savepoint_kinds`]: what a
//!   savepoint is, as data.
//! - [`stats`]: the Checkpoints tab's figures and the failovers.
//! - [`high_availability`], [`master_failover`]: the JobManagers, a standby's election, a job
//!   resubmitted without HA.

pub mod checkpoint;
pub mod coordinator;
pub mod high_availability;
pub mod master_failover;
pub mod savepoint_kinds;
pub mod stats;
pub mod storage;
