//! What every checkpoint-barrier handler shares, after Flink's `CheckpointBarrierHandler` and
//! the Chandy-Lamport marker rule: the coordinator starts a checkpoint at the sources, which
//! snapshot their offsets and emit barrier n into every output; a task that has seen the barrier
//! on every input snapshots and forwards it. Here: starting at the sources, taking a task's
//! snapshot and forwarding the barrier (or, for a checkpoint already aborted, a cancel marker
//! instead, `SubtaskCheckpointCoordinatorImpl.checkpointState`), the gate every barrier passes
//! before its handler sees it (barriers of a checkpoint the task is past are ignored), unblocking
//! inputs, and declining a checkpoint with a cancel marker
//! (`SubtaskCheckpointCoordinatorImpl.abortCheckpointOnBarrier`).

use crate::engine::core::action::{AbortReason, Event, SnapshotKind};
use crate::engine::core::dataflow::record::{Barrier, Item};
use crate::engine::core::ids::{ChannelId, CheckpointId, TaskId};
use crate::engine::core::seam::Arrival;
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;

/// Snapshot, then forward the barrier. An unaligned barrier goes at the head of each output
/// queue, and the snapshot stores the records it overtook.
pub fn snapshot_and_forward(
    sim: &mut Sim,
    t: TaskId,
    barrier: Barrier,
    kind: SnapshotKind,
    out: &mut Vec<Event>,
) -> TaskSnapshot {
    let id = barrier.checkpoint;
    let mut snap = sim.take_snapshot(t, Some(id), out);
    emit_barrier(sim, t, barrier, if barrier.unaligned { Some(&mut snap) } else { None }, out);
    out.push(Event::SnapshotTaken { task: t, checkpoint: Some(id), kind });
    snap
}

/// Puts `barrier` on every output channel. Unaligned: at the head of the queue (behind earlier
/// barriers only), storing the records it overtakes in `snap` as in-flight data; a cancel marker,
/// an ordinary event, is overtaken too.
fn emit_barrier(sim: &mut Sim, t: TaskId, barrier: Barrier, mut snap: Option<&mut TaskSnapshot>, out: &mut Vec<Event>) {
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
                q.insert(pos, Item::Barrier(barrier));
            }
            None => q.push_back(Item::Barrier(barrier)),
        }
    }
    out.push(Event::BarrierEmitted { task: t, checkpoint: barrier.checkpoint, overtook, unaligned: barrier.unaligned });
}

/// Lets every blocked input of task `t` flow again.
pub fn unblock_inputs(sim: &mut Sim, t: TaskId, out: &mut Vec<Event>) {
    for &c in &sim.graph.clone().task(t).inputs {
        if std::mem::take(&mut sim.live.channels[c.index()].blocked) {
            out.push(Event::ChannelUnblocked { channel: c });
        }
    }
}

/// Task `t` declines checkpoint `id`, after Flink's
/// `SubtaskCheckpointCoordinatorImpl.abortCheckpointOnBarrier`: it tells the CheckpointCoordinator
/// (which aborts the checkpoint at once if it is still pending, `receiveDeclineMessage`), then
/// puts a cancel marker for it on every output, behind the records there, so that downstream
/// tasks need not wait for its barrier from this task. The task is then past `id`.
pub fn decline_and_cancel(sim: &mut Sim, t: TaskId, id: CheckpointId, reason: AbortReason, out: &mut Vec<Event>) {
    let task = &mut sim.live.tasks[t.index()];
    task.last_checkpoint = task.last_checkpoint.max(Some(id));
    task.aborted.retain(|a| Some(*a) > task.last_checkpoint);
    sim.decline(t, id, reason, out);
    send_cancel_marker(sim, t, id, out);
}

/// Was checkpoint `id` aborted before task `t` started it? Then the task's handler, about to
/// start it, takes no snapshot and sends a cancel marker on instead of the barrier (Flink's
/// `checkpointState` after `checkAndClearAbortedStatus`).
pub fn skipped_as_aborted(sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) -> bool {
    if !sim.live.tasks[t.index()].aborted.remove(&id) {
        return false;
    }
    out.push(Event::SnapshotSkipped { task: t, checkpoint: id });
    send_cancel_marker(sim, t, id, out);
    true
}

/// Task `t` noted the CheckpointCoordinator's abort of checkpoint `id` it has not started (Flink's
/// `notifyCheckpointAborted` recording `abortedCheckpointIds`).
pub fn note_aborted(sim: &mut Sim, t: TaskId, id: CheckpointId) {
    let task = &mut sim.live.tasks[t.index()];
    task.aborted.retain(|a| Some(*a) > task.last_checkpoint);
    if Some(id) > task.last_checkpoint {
        task.aborted.insert(id);
    }
}

/// Puts a cancel marker for `id` on every output of task `t`, behind the records there.
fn send_cancel_marker(sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
    let outputs = sim.graph.task(t).out_channels.clone();
    if outputs.is_empty() {
        return;
    }
    for c in outputs {
        sim.live.channels[c.index()].queue.push_back(Item::Cancel(id));
    }
    out.push(Event::CancelMarkerSent { task: t, checkpoint: id });
}

impl Sim {
    /// `triggerCheckpoint` at each source: the source snapshots its offset, emits the barrier and
    /// acknowledges. The barrier carries the trigger's step (the trigger reaches the sources in the
    /// step it happens) and its options (`CheckpointOptions.forConfig`): a checkpoint's is, per the
    /// mechanism, unaligned, or aligned and timeoutable under an alignment timeout; a savepoint's
    /// is always aligned, without a timeout.
    pub(crate) fn start_at_sources(&mut self, id: CheckpointId, out: &mut Vec<Event>) {
        let savepoint = self.live.coordinator.pending.iter().any(|p| p.id == id && p.savepoint.is_some());
        let unaligned = !savepoint && self.mechanism().barrier_handler().is_some_and(|b| b.unaligned_at_sources(self));
        let timeoutable = !savepoint && !unaligned && self.settings.alignment_timeout.is_some();
        let barrier = Barrier { checkpoint: id, timestamp: self.tick, unaligned, timeoutable };
        let sources: Vec<TaskId> = self.graph.sources().collect();
        for s in sources {
            self.note_barrier(s, id);
            if let Some(r) = self.stats.get_mut(id).filter(|_| barrier.unaligned) {
                r.subtasks[s.index()].unaligned = true;
            }
            self.live.tasks[s.index()].last_checkpoint = Some(id);
            let snap = snapshot_and_forward(self, s, barrier, SnapshotKind::Source, out);
            self.acknowledge(s, id, snap, out);
        }
    }

    /// Task `t`'s barrier handler accepted a barrier of checkpoint `id`: its start delay and
    /// alignment so far. Called by the handler once it has decided, so a barrier it ignores (of a
    /// checkpoint it no longer tracks) extends nothing.
    pub(crate) fn note_barrier(&mut self, t: TaskId, id: CheckpointId) {
        let tick = self.tick;
        if let Some(r) = self.stats.get_mut(id) {
            let s = &mut r.subtasks[t.index()];
            if s.first_barrier.is_none() {
                s.first_barrier = Some(tick);
                s.start_delay = Some(tick - r.trigger_tick);
            }
            s.last_barrier = Some(tick);
            s.alignment = Some(tick - s.first_barrier.unwrap_or(tick));
        }
    }

    /// A barrier reached task `t`. A barrier of a checkpoint the task has already snapshotted or
    /// given up is ignored; any other goes to the mechanism. The task knows only what it was told:
    /// the barrier of a checkpoint the coordinator has aborted still goes to the handler.
    pub(crate) fn barrier_arrived(
        &mut self,
        t: TaskId,
        c: ChannelId,
        input: usize,
        barrier: Barrier,
        out: &mut Vec<Event>,
    ) {
        let id = barrier.checkpoint;
        if self.live.tasks[t.index()].last_checkpoint >= Some(id) {
            out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id });
            return;
        }
        match self.mechanism().barrier_handler() {
            Some(handler) => handler.on_barrier(self, Arrival { task: t, channel: c, input }, barrier, out),
            // A mechanism without a barrier handler ignores every barrier that reaches it.
            None => out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id }),
        }
    }

    /// A cancel marker reached task `t`: the mechanism decides whether it still matters.
    pub(crate) fn cancel_arrived(
        &mut self,
        t: TaskId,
        c: ChannelId,
        input: usize,
        id: CheckpointId,
        out: &mut Vec<Event>,
    ) {
        let at = Arrival { task: t, channel: c, input };
        match self.mechanism().barrier_handler() {
            Some(handler) => handler.on_cancel(self, at, id, out),
            // Without a barrier handler, a marker is dropped.
            None => out.push(Event::CancelMarkerReceived { task: t, channel: c, checkpoint: id, fresh: false }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Action, CheckpointId, Event, Item, Scenario, Settings, Strategy};

    /// A barrier its handler ignores leaves no trace in the statistics: here Left never carries
    /// barrier 1 (as behind an upstream task that skipped it), so Count counts barrier 2 first
    /// and barrier 1 from Right can no longer complete anything.
    #[test]
    fn an_ignored_barrier_counts_nowhere_in_the_statistics() {
        for strategy in [Strategy::AtLeastOnce, Strategy::Aligned, Strategy::Unaligned] {
            let mut sim = Scenario::builtin("two-inputs", Settings::new(strategy), 1).sim().unwrap();
            // Two checkpoints in flight (past the one-at-a-time rule of unaligned checkpoints).
            std::rc::Rc::make_mut(&mut sim.settings).max_concurrent_checkpoints = 2;
            sim.step(Action::Checkpoint).unwrap();
            sim.step(Action::Checkpoint).unwrap();
            let (left, right) =
                (sim.graph.channel_by_name("Left->Count").unwrap(), sim.graph.channel_by_name("Right->Count").unwrap());
            let count = sim.graph.task_by_name("Count").unwrap();
            sim.live.channels[left.index()]
                .queue
                .retain(|i| !matches!(i, Item::Barrier(b) if b.checkpoint == CheckpointId(1)));
            sim.step(Action::Deliver { channel: left }).unwrap();
            let ev = sim.step(Action::Deliver { channel: right }).unwrap();
            assert_eq!(
                ev,
                vec![Event::BarrierIgnored { task: count, channel: right, checkpoint: CheckpointId(1) }],
                "{strategy:?}"
            );
            let st = sim.stats.history[0].subtasks[count.index()];
            assert_eq!((st.first_barrier, st.start_delay, st.alignment), (None, None, None), "{strategy:?}");
        }
    }
}
