//! Export to PyFlink: a scenario becomes one Python file that builds the same job on a real Apache
//! Flink (PyFlink 2.3's DataStream API, a local mini-cluster), runs it, and prints each record's
//! count in state and in the output in the runner's JSON shape, so a run shown in the browser can
//! be checked against Flink itself (`scripts/groundtruth.sh`).
//!
//! What it follows, piece by piece:
//! - the input: `NumberSequenceSource`, a replayable source whose split position is checkpointed,
//!   mapped to the scenario's records (one number per record; a partitioned source's
//!   partitions are the source's splits);
//! - the operators: `map`, `filter`, and a `KeyedProcessFunction` with a `ValueState` for keyed
//!   count and sum, on `key_by` of the pinned key that puts each key on the simulator's subtask
//!   (`crate::engine::exports::pyflink_placement`); edges as `forward`, `partition_custom` (hash, by the
//!   simulator's subtask of each key), `rebalance`, `broadcast`, and `union` where an operator
//!   has several inputs;
//! - the sinks: a plain Python sink that appends at once (duplicates on replay), an idempotent
//!   one (a row per record), and `FileSink` for two-phase commit, whose part files are committed
//!   when the checkpoint completes (`OnCheckpointRollingPolicy`);
//! - `CheckpointingMode` (`EXACTLY_ONCE` for aligned and unaligned barriers, `AT_LEAST_ONCE` for
//!   barriers without alignment), `execution.checkpointing.*` (interval, unaligned, alignment
//!   timeout, max concurrent, retained, tolerable failures, externalized retention), no
//!   checkpointing for strategy `none`, and the fixed-delay restart strategy with
//!   `jobmanager.execution.failover-strategy`;
//! - the crash: an operator that raises once, the first time it sees the crash record (or a later
//!   one) after a completed checkpoint (or before any), remembered in a marker file so that the
//!   restarted attempt passes. The record, the side of the checkpoint and whether records took
//!   effect at the crash point in between are read off the simulator's run of the scenario.
//!
//! Simulator steps have no wall-clock meaning: the export paces each source at
//! [`PACE_MS`] per record and counts [`STEP_MS`] per step for the checkpoint interval. The
//! Python runtime every export shares is `pyflink_runtime.py`, beside this folder. Pure: no I/O,
//! usable from the page (wasm) as from the runner.
//!
//! `limits.rs` holds the export's limits and its refusals ([`ExportError`]); `plan.rs` reads the
//! scenario and its simulated run into an [`ExportPlan`] (the job, Flink's configuration, the
//! expected counts, the crash), and `python.rs` writes the plan as Python.

mod limits;
mod plan;
mod python;

use crate::engine::runs::scenario::Scenario;

pub use limits::{ExportError, BUNDLE_SIZE, BY_HAND_INTERVAL_MS, INTERVAL_MS, PACE_MS, STEP_MS};
pub use plan::{partitions, plan, CrashPlan, ExportPlan};
use python::write_python;

/// Writes the scenario as one PyFlink program (see the module's note).
///
/// ```
/// use barrierscope::engine::{export_pyflink, Scenario, Settings, Strategy};
///
/// let sc = Scenario::builtin("line-sink", Settings::new(Strategy::Aligned), 1);
/// let py = export_pyflink(&sc).unwrap();
/// assert!(py.contains("\"execution.checkpointing.mode\": \"EXACTLY_ONCE\""));
/// let timers = Scenario::builtin("line", Settings::new(Strategy::Timers), 1);
/// assert!(export_pyflink(&timers).unwrap_err().to_string().contains("per-task timer"));
/// ```
pub fn export_pyflink(scenario: &Scenario) -> Result<String, ExportError> {
    let plan = plan(scenario)?;
    Ok(write_python(scenario, &plan))
}
