//! The program across a restore: savepoints, and what may change between the job that took one
//! and the job restored from it.
//!
//! - [`savepoint`]: savepoints, stop with savepoint, cancel, resume (and [`savepoint_wording`]).
//! - [`operator_id`]: how state finds its operator in a changed program (Flink's `uid`).
//! - [`rescale`]: keyed state redistributed by key group at a new parallelism (the key groups are
//!   the dataflow's, `core/dataflow/key_groups.rs`).
//! - [`program_edit`]: the edits the savepoint room offers; [`scenario_restore`]: a restore into a
//!   changed program in a scenario file.

pub mod operator_id;
pub mod program_edit;
pub mod rescale;
pub mod savepoint;
pub mod savepoint_wording;
pub mod scenario_restore;
