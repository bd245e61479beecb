//! Upkeep: what a mechanism that keeps books of its own pays, step by step, to survive failure,
//! and what it still holds. Flink's checkpoints are the coordinator's, and the cost table meters
//! them from the core's events (barriers, acknowledgements, completed snapshots). Storm's acker
//! and Spark Streaming's driver keep books the core knows nothing of: the acker's table and its
//! messages, the driver's write-ahead log, block reports and checkpoints. Each such mechanism
//! writes an [`Upkeep`] in its own folder, which the catalogue maps its strategy to
//! (`Strategy::upkeep`): it meters a step into the cost table's
//! parts ([`Bytes`], [`Messages`]), says what it holds, and says whether its books are settled.
//!
//! The side-by-side comparison (`crate::engine::comparison`) reads these through the catalogue,
//! so that it names no mechanism.

use serde::{Deserialize, Serialize};

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::{RecordId, TaskId};
use crate::engine::core::sim::Sim;

/// Bytes stored for fault tolerance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bytes {
    /// Written to durable storage over the run: the sum of the five parts below.
    pub written: u64,
    /// Flink: every acknowledged snapshot of every checkpoint.
    pub checkpoints: u64,
    /// Spark Streaming: the write-ahead log (16 bytes a record).
    pub write_ahead_log: u64,
    /// Spark Streaming: the state RDD at each state checkpoint.
    pub state_checkpoints: u64,
    /// Spark Streaming: each metadata checkpoint written.
    pub metadata_checkpoints: u64,
    /// Storm's spouts and Spark's reliable receivers: 8 bytes per commit of a source's offset.
    pub offset_commits: u64,
    /// The most held at any one step: durable storage (retained checkpoints; the log's blocks not
    /// yet cleaned up, the latest state and metadata checkpoints; the committed offsets) and
    /// Storm's acker table in memory.
    pub peak_held: u64,
    /// Storm: the acker table at its largest (20 bytes a pending tree), in memory.
    pub acker_table_peak: u64,
}

/// Control messages: what the job sends only to survive failure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Messages {
    pub total: u64,
    /// On the data channels: checkpoint barriers (one per output channel of the task that emits
    /// them).
    pub barriers: u64,
    /// On the data channels: cancel markers.
    pub cancel_markers: u64,
    /// Flink: to and from the CheckpointCoordinator: triggers (one per source), acknowledgements,
    /// declines, completion notifications.
    pub coordinator: u64,
    /// Storm: `__ack_init` and `__ack_ack` to the acker, and its answers to the spouts.
    pub acker: u64,
    /// Spark Streaming: block reports to the driver, each batch job's start and completion.
    pub driver: u64,
}

impl Bytes {
    /// Written to durable storage over the run: the five parts' sum.
    pub fn sum_of_written(&self) -> u64 {
        self.checkpoints
            + self.write_ahead_log
            + self.state_checkpoints
            + self.metadata_checkpoints
            + self.offset_commits
    }
}

impl Messages {
    /// Every control message: the parts' sum.
    pub fn sum_of_parts(&self) -> u64 {
        self.barriers + self.cancel_markers + self.coordinator + self.acker + self.driver
    }
}

/// The books of one run's upkeep, as the cost table keeps them: the parts the mechanism's
/// [`Upkeep::observe`] adds to, and what it tells the table about the step it metered.
#[derive(Clone, Debug, Default)]
pub struct UpkeepMeter {
    pub bytes: Bytes,
    pub messages: Messages,
    /// Records that took effect, this step, by a read of the mechanism's own (a Spark receiver
    /// storing a block): the table counts a read after the crash that repeats one before it.
    pub reads: Vec<(TaskId, RecordId)>,
    /// A batch's output was committed this step: readers see its rows from now on.
    pub output_committed: bool,
    /// A write the mechanism owes at its next step (Spark's checkpoint writer records a batch's
    /// completion a step after the batch).
    pub due: bool,
    /// What the mechanism holds after the step, beyond the coordinator's storage and the committed
    /// offsets, which the table sizes itself: durable logs and checkpoints, and tables in memory.
    pub held: u64,
}

/// What a mechanism with books of its own tells the cost table and the lockstep.
pub struct Upkeep {
    /// Meters one step, which gave `events`; `sim` is the run after it. Adds to the meter's parts
    /// and sets its `reads`, `output_committed`, `due` and `held` for this step.
    pub observe: fn(&mut UpkeepMeter, &Sim, &[Event]),
    /// Are its books settled: nothing on its way to or from its bookkeeper, nothing pending or to
    /// retry, no batch waiting? (The lockstep ends a run only then.)
    pub settled: fn(&Sim) -> bool,
    /// Does it wait for a timeout that only time brings (a Storm spout's pending tuples)?
    pub awaits_timeout: fn(&Sim) -> bool,
}

/// A state saved whole, sized as a snapshot is: every task's state but the sources' (a source
/// resumes from the offset it acknowledged, not from the saved state).
pub fn state_bytes(sim: &Sim, states: &[OpState]) -> u64 {
    states
        .iter()
        .enumerate()
        .filter(|(t, _)| sim.graph.tasks[*t].kind != OperatorKind::Source)
        .map(|(_, s)| s.size())
        .sum()
}
