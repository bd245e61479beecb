//! Upkeep: what a mechanism that keeps books of its own pays, step by step, to survive failure,
//! and what it still holds. Flink's checkpoints are the coordinator's, and the cost table meters
//! them from the core's events (barriers, acknowledgements, completed snapshots). Storm's acker
//! and Spark Streaming's driver keep books the core knows nothing of: the acker's table and its
//! messages, the driver's write-ahead log, block reports and checkpoints. Each such mechanism
//! writes an [`Upkeep`] in its own folder, which the catalogue maps its strategy to
//! (`Strategy::upkeep`): it meters a step into the cost table's
//! parts ([`Bytes`], [`Messages`], the catalogue's columns of what each mechanism pays), says what
//! it holds, and says whether its books are settled.
//!
//! The side-by-side comparison (`crate::engine::comparison`) reads these through the catalogue,
//! so that it names no mechanism.

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::{RecordId, TaskId};
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::catalogue::costs::{Bytes, Messages};

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
