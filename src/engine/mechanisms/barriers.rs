//! What every checkpoint-barrier handler shares, after Flink's `CheckpointBarrierHandler` and
//! the Chandy-Lamport marker rule: the coordinator starts a checkpoint at the sources, which
//! snapshot their offsets and emit barrier n into every output; a task that has seen the barrier
//! on every input snapshots and forwards it. Here: starting at the sources, taking a task's
//! snapshot and forwarding the barrier, the gate every barrier passes before its handler sees it
//! (stale barriers are ignored), and unblocking inputs.

use serde::{Deserialize, Serialize};

use crate::engine::action::{Event, SnapshotKind};
use crate::engine::dataflow::record::Item;
use crate::engine::ids::{ChannelId, CheckpointId, TaskId};
use crate::engine::sim::Sim;
use crate::engine::snapshot::TaskSnapshot;

/// A task's progress through one checkpoint's barriers (aligned or unaligned).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alignment {
    pub checkpoint: CheckpointId,
    pub started: u64,
    /// Per input: has its barrier arrived?
    pub received: Vec<bool>,
    /// Unaligned (or timed out): the snapshot already taken, collecting in-flight input records
    /// until every barrier is in.
    pub unaligned: Option<Box<TaskSnapshot>>,
}

impl Alignment {
    pub fn waiting(&self) -> u16 {
        self.received.iter().filter(|r| !**r).count() as u16
    }
}

/// `triggerCheckpoint` at each source: the source snapshots its offset, emits the barrier and
/// acknowledges.
pub fn start_at_sources(sim: &mut Sim, id: CheckpointId, out: &mut Vec<Event>) {
    let sources: Vec<TaskId> = sim.graph.sources().collect();
    for s in sources {
        sim.note_barrier(s, id);
        sim.live.tasks[s.index()].last_checkpoint = Some(id);
        let snap = snapshot_and_forward(sim, s, id, SnapshotKind::Source, out);
        sim.acknowledge(s, id, snap, out);
    }
}

/// Snapshot, then forward the barrier. An unaligned snapshot (and an unaligned checkpoint's
/// source) puts the barrier at the head of each output queue and stores the records it overtook.
pub fn snapshot_and_forward(
    sim: &mut Sim,
    t: TaskId,
    id: CheckpointId,
    kind: SnapshotKind,
    out: &mut Vec<Event>,
) -> TaskSnapshot {
    let mut snap = sim.take_snapshot(t, Some(id), out);
    let overtake =
        kind == SnapshotKind::Unaligned || (kind == SnapshotKind::Source && sim.mechanism().stores_in_flight());
    emit_barrier(sim, t, id, if overtake { Some(&mut snap) } else { None }, out);
    out.push(Event::SnapshotTaken { task: t, checkpoint: Some(id), kind });
    snap
}

/// Puts barrier `id` on every output channel. Unaligned: at the head of the queue (behind
/// earlier barriers only), storing the records it overtakes in `snap` as in-flight data.
fn emit_barrier(sim: &mut Sim, t: TaskId, id: CheckpointId, mut snap: Option<&mut TaskSnapshot>, out: &mut Vec<Event>) {
    let mut overtook = 0u32;
    for &c in &sim.graph.clone().task(t).out_channels {
        let q = &mut sim.live.channels[c.index()].queue;
        match snap.as_deref_mut() {
            Some(s) => {
                let pos = q.iter().rposition(|i| matches!(i, Item::Barrier(_))).map_or(0, |p| p + 1);
                for it in q.iter().skip(pos) {
                    if let Item::Record { seq, rec } = it {
                        s.in_flight.push((c, *seq, *rec));
                        overtook += 1;
                    }
                }
                q.insert(pos, Item::Barrier(id));
            }
            None => q.push_back(Item::Barrier(id)),
        }
    }
    out.push(Event::BarrierEmitted { task: t, checkpoint: id, overtook });
}

/// Lets every blocked input of task `t` flow again.
pub fn unblock_inputs(sim: &mut Sim, t: TaskId, out: &mut Vec<Event>) {
    for &c in &sim.graph.clone().task(t).inputs {
        if std::mem::take(&mut sim.live.channels[c.index()].blocked) {
            out.push(Event::ChannelUnblocked { channel: c });
        }
    }
}

impl Sim {
    /// A barrier reached task `t`. A barrier of an aborted checkpoint, or of one the task has
    /// already snapshotted or given up, is ignored; any other goes to the mechanism.
    pub(crate) fn barrier_arrived(
        &mut self,
        t: TaskId,
        c: ChannelId,
        input: usize,
        id: CheckpointId,
        out: &mut Vec<Event>,
    ) {
        let task = &self.live.tasks[t.index()];
        if self.live.coordinator.aborted.contains(&id) || task.last_checkpoint >= Some(id) {
            out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id });
            return;
        }
        self.note_barrier(t, id);
        self.mechanism().on_barrier(self, super::Arrival { task: t, channel: c, input }, id, out);
    }
}
