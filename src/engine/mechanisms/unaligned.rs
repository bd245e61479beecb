//! Unaligned checkpoints, after Flink's FLIP-76 and `SingleCheckpointBarrierHandler` in its
//! unaligned states. The first barrier to arrive at a task overtakes: the task snapshots at once,
//! puts the barrier at the head of each output queue (storing the output records it jumped over),
//! and from then on records every input record that arrives on an input whose barrier has not
//! come yet. Those records, and the overtaken ones, are the channel state of Chandy and Lamport's
//! snapshot; they are stored with the checkpoint and replayed first on restore. No input ever
//! blocks, so checkpoints finish quickly under backpressure; the price is storing in-flight data.
//!
//! Also here: the alignment timeout's switch. A task aligning past
//! `aligned-checkpoint-timeout` snapshots unaligned from that moment.

use super::aligned::{abort_alignment, collect_barrier};
use super::barriers::{snapshot_and_forward, unblock_inputs};
use super::{Arrival, Mechanism};
use crate::engine::action::{Event, SnapshotKind};
use crate::engine::dataflow::record::Record;
use crate::engine::ids::{ChannelId, CheckpointId, TaskId};
use crate::engine::sim::Sim;

/// Unaligned checkpoints (strategy `unaligned`).
pub struct UnalignedBarriers;

impl Mechanism for UnalignedBarriers {
    fn on_record(&self, sim: &mut Sim, c: ChannelId, seq: u64, rec: Record, out: &mut Vec<Event>) {
        record_in_flight(sim, c, seq, rec, out);
    }
    fn on_barrier(&self, sim: &mut Sim, at: Arrival, id: CheckpointId, out: &mut Vec<Event>) {
        collect_barrier(sim, at, id, true, out);
    }
    fn on_abort(&self, sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
        abort_alignment(sim, t, id, out);
    }
    fn stores_in_flight(&self) -> bool {
        true
    }
}

/// A task that snapshotted before all its barriers came stores each record arriving on an input
/// still waiting for its barrier: it was sent before the checkpoint and received after.
pub(super) fn record_in_flight(sim: &mut Sim, c: ChannelId, seq: u64, rec: Record, out: &mut Vec<Event>) {
    let info = sim.graph.channel(c);
    let (t, input) = (info.to, info.input_index);
    if let Some(al) = &mut sim.live.tasks[t.index()].alignment {
        if let Some(snap) = &mut al.unaligned {
            if !al.received[input] {
                snap.in_flight.push((c, seq, rec));
                out.push(Event::InFlightRecorded { task: t, channel: c, record: rec.id });
            }
        }
    }
}

/// Aligned checkpoint past its alignment timeout: switch to unaligned at this task.
pub(super) fn alignment_timed_out(sim: &mut Sim, t: TaskId, out: &mut Vec<Event>) {
    let id = sim.live.tasks[t.index()].alignment.as_ref().expect("aligning").checkpoint;
    out.push(Event::AlignmentTimedOut { task: t, checkpoint: id });
    if let Some(r) = sim.stats.get_mut(id) {
        r.subtasks[t.index()].unaligned = true;
    }
    let snap = snapshot_and_forward(sim, t, id, SnapshotKind::Unaligned, out);
    // Records queued behind barriers on the blocked channels are post-checkpoint; the
    // channels still waiting for their barrier are recorded from now on.
    unblock_inputs(sim, t, out);
    sim.live.tasks[t.index()].alignment.as_mut().expect("aligning").unaligned = Some(Box::new(snap));
}
