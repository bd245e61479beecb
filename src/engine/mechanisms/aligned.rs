//! Aligned checkpoints: barrier alignment, after Flink's `SingleCheckpointBarrierHandler` in its
//! aligned states (`WaitingForFirstBarrier`, `CollectingBarriers`). When barrier n arrives on one
//! input of a task with several, that input is blocked: records behind the barrier belong after
//! the checkpoint and wait in the channel. When barrier n has arrived on every input, the task
//! snapshots, forwards the barrier, acknowledges, and unblocks its inputs. The snapshot then
//! reflects exactly the records before barrier n on every input: a consistent cut with no channel
//! state, so exactly-once. The price is the alignment: blocked inputs stall the task and, through
//! backpressure, its upstream.
//!
//! With an alignment timeout (`execution.checkpointing.aligned-checkpoint-timeout`), a task still
//! aligning when the timeout passes switches to an unaligned snapshot (see
//! [`super::unaligned::alignment_timed_out`]).

use super::barriers::{snapshot_and_forward, unblock_inputs, Alignment};
use super::{unaligned, Arrival, Mechanism};
use crate::engine::action::{Event, SnapshotKind};
use crate::engine::dataflow::record::Record;
use crate::engine::ids::{ChannelId, CheckpointId, TaskId};
use crate::engine::sim::Sim;

/// Barrier alignment (strategy `aligned`).
pub struct AlignedBarriers;

impl Mechanism for AlignedBarriers {
    fn on_record(&self, sim: &mut Sim, c: ChannelId, seq: u64, rec: Record, out: &mut Vec<Event>) {
        // After an alignment timeout the task records in-flight input as an unaligned one does.
        unaligned::record_in_flight(sim, c, seq, rec, out);
    }
    fn on_barrier(&self, sim: &mut Sim, at: Arrival, id: CheckpointId, out: &mut Vec<Event>) {
        collect_barrier(sim, at, id, false, out);
    }
    fn on_abort(&self, sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
        abort_alignment(sim, t, id, out);
    }
    fn on_tick(&self, sim: &mut Sim, out: &mut Vec<Event>) {
        let Some(limit) = sim.settings.alignment_timeout else { return };
        let tick = sim.tick;
        for t in 0..sim.live.tasks.len() {
            let late = sim.live.tasks[t]
                .alignment
                .as_ref()
                .is_some_and(|a| a.unaligned.is_none() && tick - a.started >= limit);
            if late {
                unaligned::alignment_timed_out(sim, TaskId(t as u16), out);
            }
        }
    }
}

/// The barrier-collecting state machine that aligned and unaligned checkpoints share. Barrier
/// n+1 before n is complete gives n up at this task. The first barrier starts the alignment (and,
/// `unaligned_at_first`, takes the snapshot at once); each later one marks its input; the last one
/// ends it: an aligned task snapshots, forwards and unblocks, an unaligned one acknowledges the
/// snapshot it took at the first barrier with the in-flight records it recorded since.
pub(super) fn collect_barrier(
    sim: &mut Sim,
    at: Arrival,
    id: CheckpointId,
    unaligned_at_first: bool,
    out: &mut Vec<Event>,
) {
    let Arrival { task: t, channel: c, input } = at;
    let n = sim.live.tasks[t.index()].in_pos.len();
    if let Some(al) = &sim.live.tasks[t.index()].alignment {
        if al.checkpoint < id {
            // Barrier n+1 before n completed: n is subsumed at this task.
            let old = al.checkpoint;
            abort_alignment(sim, t, old, out);
        }
    }
    if sim.live.tasks[t.index()].alignment.as_ref().is_some_and(|a| a.checkpoint > id) {
        out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id });
        return;
    }
    let first = sim.live.tasks[t.index()].alignment.is_none();
    let mark = out.len();
    if first {
        let unaligned = if unaligned_at_first {
            Some(Box::new(snapshot_and_forward(sim, t, id, SnapshotKind::Unaligned, out)))
        } else {
            None
        };
        sim.live.tasks[t.index()].alignment =
            Some(Alignment { checkpoint: id, started: sim.tick, received: vec![false; n], unaligned });
    }
    let al = sim.live.tasks[t.index()].alignment.as_mut().expect("just set");
    al.received[input] = true;
    let waiting = al.waiting();
    let collecting = al.unaligned.is_some();
    // Events in causal order: the barrier arrives, then (unaligned) the snapshot it caused.
    let at = if first && collecting { mark } else { out.len() };
    out.insert(at, Event::BarrierReceived { task: t, channel: c, checkpoint: id, first, waiting });
    if waiting > 0 {
        if !collecting {
            sim.live.channels[c.index()].blocked = true;
            out.push(Event::ChannelBlocked { channel: c, checkpoint: id });
        }
        return;
    }
    let al = sim.live.tasks[t.index()].alignment.take().expect("aligning");
    sim.live.tasks[t.index()].last_checkpoint = Some(id);
    let snap = match al.unaligned {
        Some(snap) => *snap,
        None => {
            unblock_inputs(sim, t, out);
            snapshot_and_forward(sim, t, id, SnapshotKind::Aligned, out)
        }
    };
    sim.acknowledge(t, id, snap, out);
}

/// The task gives up checkpoint `id` (aborted, or subsumed by a newer barrier) and releases its
/// inputs.
pub(super) fn abort_alignment(sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
    let task = &mut sim.live.tasks[t.index()];
    if task.alignment.as_ref().is_some_and(|a| a.checkpoint == id) {
        task.alignment = None;
        task.last_checkpoint = task.last_checkpoint.max(Some(id));
        out.push(Event::AlignmentAborted { task: t, checkpoint: id });
        unblock_inputs(sim, t, out);
    }
}
