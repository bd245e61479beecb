//! The CheckpointCoordinator, after Flink's class of that name in the JobManager. It triggers a
//! checkpoint (`triggerCheckpoint`: the mechanism starts it at the sources), collects one
//! acknowledgement per task (`receiveAcknowledgeMessage`), completes the checkpoint when every task
//! has acknowledged (`completePendingCheckpoint`: stored, the oldest beyond num-retained dropped,
//! older pending ones subsumed, tasks notified), and aborts it on timeout, when a task declines it
//! (`receiveDeclineMessage`), or on a task's or the JobManager's failure
//! (`abortPendingCheckpoints`). The pending checkpoints live in the JobManager's memory and die
//! with it; the checkpoint id counter (`CheckpointIDCounter`, kept in ZooKeeper or Kubernetes in
//! an HA setup) survives, so ids keep rising after failover.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::engine::action::{AbortReason, Event};
use crate::engine::ids::{CheckpointId, TaskId};
use crate::engine::sim::Sim;
use crate::engine::snapshot::TaskSnapshot;
use crate::engine::stats::{CheckpointRecord, CheckpointStatus, SubtaskStats};
use crate::engine::storage::CompletedCheckpoint;

/// A checkpoint triggered and not yet completed or aborted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingCheckpoint {
    pub id: CheckpointId,
    pub trigger_tick: u64,
    pub snapshots: Vec<Option<TaskSnapshot>>,
    pub acked: u16,
}

/// The coordinator's volatile state: lost with the JobManager.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coordinator {
    pub pending: Vec<PendingCheckpoint>,
    pub aborted: BTreeSet<CheckpointId>,
    /// Stop-the-world in progress: (checkpoint, trigger step).
    pub stop_the_world: Option<(CheckpointId, u64)>,
}

/// The checkpoint id counter: durable, so ids keep rising across failover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointIdCounter(pub u64);

impl Default for CheckpointIdCounter {
    fn default() -> CheckpointIdCounter {
        CheckpointIdCounter(1)
    }
}

impl CheckpointIdCounter {
    /// Flink's `CheckpointIDCounter.getAndIncrement`.
    pub fn get_and_increment(&mut self) -> CheckpointId {
        self.0 += 1;
        CheckpointId(self.0 - 1)
    }
}

impl Sim {
    /// `triggerCheckpoint`: refused past max-concurrent-checkpoints or during stop-the-world;
    /// otherwise a new pending checkpoint, started by the mechanism.
    pub(crate) fn trigger(&mut self, out: &mut Vec<Event>) {
        let c = &self.live.coordinator;
        let pending = c.pending.len() as u32;
        if pending >= self.settings.max_concurrent_checkpoints || c.stop_the_world.is_some() {
            out.push(Event::CheckpointRefused { pending });
            return;
        }
        let id = self.durable.checkpoint_ids.get_and_increment();
        let n = self.live.tasks.len();
        self.live.coordinator.pending.push(PendingCheckpoint {
            id,
            trigger_tick: self.tick,
            snapshots: vec![None; n],
            acked: 0,
        });
        self.stats.history.push(CheckpointRecord {
            id,
            status: CheckpointStatus::InProgress,
            acked: 0,
            total: n as u16,
            trigger_tick: self.tick,
            latest_ack: None,
            end_tick: None,
            state_size: 0,
            in_flight: 0,
            stall: None,
            subtasks: vec![SubtaskStats::default(); n],
        });
        out.push(Event::CheckpointTriggered { checkpoint: id });
        self.mechanism().on_trigger(self, id, out);
    }

    /// `receiveAcknowledgeMessage`: task `t` stored its snapshot for checkpoint `id`. An
    /// acknowledgement for a checkpoint no longer pending is discarded.
    pub(crate) fn acknowledge(&mut self, t: TaskId, id: CheckpointId, snap: TaskSnapshot, out: &mut Vec<Event>) {
        let unaligned = !snap.in_flight.is_empty() || self.mechanism().stores_in_flight();
        let Some(p) = self.live.coordinator.pending.iter_mut().find(|p| p.id == id) else {
            out.push(Event::AckDiscarded { task: t, checkpoint: id });
            return;
        };
        let (size, in_flight) = (snap.size(), snap.in_flight.len() as u32);
        p.snapshots[t.index()] = Some(snap);
        p.acked += 1;
        let (acked, total) = (p.acked, p.snapshots.len() as u16);
        if let Some(r) = self.stats.get_mut(id) {
            r.acked = acked;
            r.latest_ack = Some(self.tick);
            r.state_size += size;
            r.in_flight += in_flight;
            let s = &mut r.subtasks[t.index()];
            s.ack_tick = Some(self.tick);
            s.state_size = size;
            s.in_flight = in_flight;
            s.unaligned |= unaligned;
        }
        out.push(Event::Acknowledged { task: t, checkpoint: id, acked, total });
        self.recompute_retention();
        if acked == total {
            self.complete(id, out);
        }
    }

    /// `completePendingCheckpoint`: store it, drop the oldest beyond num-retained, subsume older
    /// pending checkpoints, and notify the tasks (`notifyCheckpointComplete`).
    fn complete(&mut self, id: CheckpointId, out: &mut Vec<Event>) {
        let i = self.live.coordinator.pending.iter().position(|p| p.id == id).expect("pending");
        let p = self.live.coordinator.pending.remove(i);
        let cp = CompletedCheckpoint {
            id,
            trigger_tick: p.trigger_tick,
            completed_tick: self.tick,
            snapshots: p.snapshots.into_iter().map(|s| s.expect("fully acknowledged")).collect(),
        };
        self.durable.storage.retain_completed(cp, self.settings.num_retained as usize);
        let tick = self.tick;
        if let Some(r) = self.stats.get_mut(id) {
            r.status = CheckpointStatus::Completed;
            r.end_tick = Some(tick);
        }
        out.push(Event::CheckpointCompleted { checkpoint: id, duration: tick - p.trigger_tick });
        let older: Vec<CheckpointId> =
            self.live.coordinator.pending.iter().filter(|p| p.id < id).map(|p| p.id).collect();
        for o in older {
            self.abort(o, AbortReason::Subsumed, out);
        }
        self.notify_complete(id, out);
        self.recompute_retention();
    }

    /// `receiveDeclineMessage`: task `t` declined checkpoint `id` for `reason`. A pending
    /// checkpoint is aborted at once with the task's reason; a decline for a checkpoint no longer
    /// pending (another task declined it first, or it completed or expired) changes nothing.
    pub(crate) fn decline(&mut self, t: TaskId, id: CheckpointId, reason: AbortReason, out: &mut Vec<Event>) {
        let pending = self.live.coordinator.pending.iter().any(|p| p.id == id);
        out.push(Event::CheckpointDeclined { task: t, checkpoint: id, reason, pending });
        self.abort(id, reason, out);
    }

    /// Aborts a pending checkpoint and tells every task (`notifyCheckpointAborted`).
    pub(crate) fn abort(&mut self, id: CheckpointId, reason: AbortReason, out: &mut Vec<Event>) {
        let c = &mut self.live.coordinator;
        let Some(i) = c.pending.iter().position(|p| p.id == id) else { return };
        c.pending.remove(i);
        c.aborted.insert(id);
        self.record_abort(id, reason, out);
        if self.down.is_none() {
            let mechanism = self.mechanism();
            for t in 0..self.live.tasks.len() {
                mechanism.on_abort(self, TaskId(t as u16), id, out);
            }
        }
        let stop_the_world = self.live.coordinator.stop_the_world;
        self.end_stop_the_world(stop_the_world, id, out);
        self.recompute_retention();
    }

    /// The checkpoint's row in the statistics says it failed, and why.
    pub(crate) fn record_abort(&mut self, id: CheckpointId, reason: AbortReason, out: &mut Vec<Event>) {
        let tick = self.tick;
        if let Some(r) = self.stats.get_mut(id) {
            r.status = CheckpointStatus::Failed(reason);
            r.end_tick = Some(tick);
        }
        out.push(Event::CheckpointAborted { checkpoint: id, reason });
    }

    /// A stop-the-world checkpoint that ends without completing lets the sources go again.
    pub(crate) fn end_stop_the_world(
        &mut self,
        stop_the_world: Option<(CheckpointId, u64)>,
        id: CheckpointId,
        out: &mut Vec<Event>,
    ) {
        if let Some((sid, t0)) = stop_the_world {
            if sid == id {
                self.live.coordinator.stop_the_world = None;
                out.push(Event::SourcesResumed { checkpoint: id, stall: self.tick - t0 });
            }
        }
    }

    /// What the coordinator does as the clock ticks: the periodic trigger
    /// (execution.checkpointing.interval) and expiring checkpoints past their timeout.
    pub(crate) fn coordinator_tick(&mut self, out: &mut Vec<Event>) {
        let tick = self.tick;
        if let Some(every) = self.settings.checkpoint_interval {
            if (tick + 1) % every == 0 {
                self.trigger(out);
            }
        }
        let timeout = self.settings.checkpoint_timeout;
        let expired: Vec<CheckpointId> =
            self.live.coordinator.pending.iter().filter(|p| tick - p.trigger_tick >= timeout).map(|p| p.id).collect();
        for id in expired {
            self.abort(id, AbortReason::Expired, out);
        }
    }
}
