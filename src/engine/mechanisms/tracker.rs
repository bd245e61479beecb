//! At-least-once checkpoints, after Flink's `CheckpointBarrierTracker`. The task blocks nothing:
//! it counts barrier n as it arrives on each input and keeps processing records from every input
//! meanwhile. When barrier n has arrived on all inputs, it snapshots, forwards and acknowledges.
//! Records that overtook a slow barrier are then in the snapshot's state and will be replayed
//! after a restore as well: duplicated in state, never lost. No alignment, no stored channels.

use super::barriers::snapshot_and_forward;
use super::{Arrival, Mechanism};
use crate::engine::action::{Event, SnapshotKind};
use crate::engine::ids::{CheckpointId, TaskId};
use crate::engine::sim::Sim;

/// The barrier tracker (strategy `at-least-once`).
pub struct BarrierTracker;

impl Mechanism for BarrierTracker {
    fn on_barrier(&self, sim: &mut Sim, at: Arrival, id: CheckpointId, out: &mut Vec<Event>) {
        let (t, c) = (at.task, at.channel);
        let n = sim.live.tasks[t.index()].in_pos.len();
        let task = &mut sim.live.tasks[t.index()];
        if task.tracker.range(id..).any(|(k, _)| *k > id) {
            out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id });
            return;
        }
        let older: Vec<CheckpointId> = task.tracker.range(..id).map(|(k, _)| *k).collect();
        for o in older {
            task.tracker.remove(&o);
            out.push(Event::AlignmentAborted { task: t, checkpoint: o });
        }
        let count = task.tracker.entry(id).or_insert(0);
        *count += 1;
        let (first, seen) = (*count == 1, *count);
        out.push(Event::BarrierReceived { task: t, channel: c, checkpoint: id, first, waiting: n as u16 - seen });
        if seen as usize == n {
            sim.live.tasks[t.index()].tracker.remove(&id);
            sim.live.tasks[t.index()].last_checkpoint = Some(id);
            let snap = snapshot_and_forward(sim, t, id, SnapshotKind::Tracker, out);
            sim.acknowledge(t, id, snap, out);
        }
    }
    fn on_abort(&self, sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
        if sim.live.tasks[t.index()].tracker.remove(&id).is_some() {
            out.push(Event::AlignmentAborted { task: t, checkpoint: id });
        }
    }
}
