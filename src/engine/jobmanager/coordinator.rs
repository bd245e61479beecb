//! The CheckpointCoordinator, after Flink's class of that name in the JobManager. It triggers a
//! checkpoint (`triggerCheckpoint`: the mechanism starts it at the sources; it fails while a task
//! is not running, `NOT_ALL_REQUIRED_TASKS_RUNNING`), collects one acknowledgement per task
//! (`receiveAcknowledgeMessage`), completes the checkpoint when every task has acknowledged
//! (`completePendingCheckpoint`: stored, the oldest beyond num-retained dropped, older pending ones
//! subsumed), and aborts it on timeout, when a task declines it (`receiveDeclineMessage`), or on
//! a task's or the JobManager's failure (`abortPendingCheckpoints`). A trigger while
//! max-concurrent-checkpoints are pending is queued (`CheckpointRequestDecider
//! .chooseRequestToExecute`) and runs in the step a pending checkpoint ends
//! (`executeQueuedRequest`); a crash drops the queue with the pending checkpoints.
//!
//! Completion and commit are two steps. `completePendingCheckpoint` ends with
//! `sendAcknowledgeMessages`: one `notifyCheckpointComplete` RPC per task, which reaches the task
//! later, on its own. Here the notification to each two-phase-commit sink waits in the live part
//! of the run until it is delivered ([`crate::engine::Action::Notify`]); a crash drops it, and the
//! restore's `recoverAndCommit` commits what it would have committed. (Flink notifies every task;
//! only a two-phase-commit sink acts on it here, so only its notification is a step.)
//!
//! Every failed checkpoint goes to the `CheckpointFailureManager`: the failures it counts (here,
//! expiry) in a row, past `tolerable-failed-checkpoints`, fail the job over as a whole
//! (`failGlobal`); a completed checkpoint resets the count (`handleCheckpointSuccess`).
//!
//! The pending checkpoints, the notifications on their way and the failure count live in the
//! JobManager's memory. Pending checkpoints and notifications are lost with any crash; the failure
//! count outlives a task failover and is lost with the JobManager. The checkpoint id counter
//! (`CheckpointIDCounter`, kept in ZooKeeper or Kubernetes in an HA setup) survives, so ids keep
//! rising after failover.

use crate::engine::core::action::{AbortReason, Action, CrashScope, Event, Guarantee};
use crate::engine::core::dataflow::task::TaskStatus;
use crate::engine::core::ids::{CheckpointId, TaskId};
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::jobmanager::checkpoint::{FailureCounter, PendingCheckpoint};
use crate::engine::jobmanager::savepoint_kinds::SavepointType;
use crate::engine::jobmanager::stats::{CheckpointRecord, CheckpointStatus, SubtaskStats};
use crate::engine::jobmanager::storage::CompletedCheckpoint;
use crate::engine::settings::Strategy;

impl Sim {
    /// `triggerCheckpoint`: fails while a task is down (a failed region not yet restored), which
    /// the statistics count as a failed checkpoint without a row (`CheckpointFailureManager`'s
    /// `updateStatsAfterCheckpointFailed`; its failure count ignores it);
    /// queued past max-concurrent-checkpoints (`CheckpointRequestDecider`: at most
    /// [`MAX_QUEUED_REQUESTS`], beyond which a request is refused, `TOO_MANY_CHECKPOINT_REQUESTS`);
    /// refused while the mechanism refuses triggers (stop-the-world, while its sources are
    /// paused); otherwise a new pending checkpoint, started by the mechanism.
    pub(crate) fn trigger(&mut self, out: &mut Vec<Event>) {
        self.trigger_as(None, out)
    }

    /// [`Sim::trigger`] for a checkpoint or (`savepoint`) a savepoint, which is forced:
    /// max-concurrent-checkpoints neither queues nor refuses it.
    pub(crate) fn trigger_as(&mut self, savepoint: Option<SavepointType>, out: &mut Vec<Event>) {
        if let Some(t) = self.live.tasks.iter().position(|t| t.status != TaskStatus::Running) {
            out.push(Event::TriggerFailed { task: TaskId(t as u16) });
            self.stats.failed_triggers += 1;
            return;
        }
        let c = &self.live.coordinator;
        let pending = c.pending.len() as u32;
        let forced = savepoint.is_some();
        let full = !forced && pending >= self.settings.max_concurrent_checkpoints;
        if (full && c.queued >= MAX_QUEUED_REQUESTS) || self.mechanism_refuses_trigger() {
            out.push(Event::CheckpointRefused { pending });
            return;
        }
        if full {
            let c = &mut self.live.coordinator;
            c.queued += 1;
            out.push(Event::CheckpointQueued { pending, queued: c.queued });
            return;
        }
        let id = self.durable.checkpoint_ids.get_and_increment();
        let n = self.live.tasks.len();
        self.live.coordinator.pending.push(PendingCheckpoint {
            id,
            trigger_tick: self.tick,
            snapshots: vec![None; n],
            acked: 0,
            savepoint,
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
            savepoint,
        });
        out.push(Event::CheckpointTriggered { checkpoint: id });
        self.mechanism().on_trigger(self, id, out);
    }

    /// `receiveAcknowledgeMessage`: task `t` stored its snapshot for checkpoint `id`. An
    /// acknowledgement for a checkpoint no longer pending is discarded.
    pub(crate) fn acknowledge(&mut self, t: TaskId, id: CheckpointId, snap: TaskSnapshot, out: &mut Vec<Event>) {
        let stores_in_flight = self.stores_in_flight();
        let Some(p) = self.live.coordinator.pending.iter_mut().find(|p| p.id == id) else {
            out.push(Event::AckDiscarded { task: t, checkpoint: id });
            return;
        };
        // Taken unaligned: it holds channel state, or the strategy is unaligned and this is no
        // savepoint (savepoints are always aligned).
        let unaligned = !snap.in_flight.is_empty() || (stores_in_flight && p.savepoint.is_none());
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
        self.retain_for_acknowledged(t, id);
        if acked == total {
            self.complete(id, out);
        }
    }

    /// `completePendingCheckpoint`: store it, drop the oldest beyond num-retained, subsume older
    /// pending checkpoints, reset the failure count, and send each two-phase-commit sink its
    /// `notifyCheckpointComplete` (`sendAcknowledgeMessages`), delivered later by
    /// [`crate::engine::Action::Notify`].
    fn complete(&mut self, id: CheckpointId, out: &mut Vec<Event>) {
        let i = self.live.coordinator.pending.iter().position(|p| p.id == id).expect("pending");
        let p = self.live.coordinator.pending.remove(i);
        if let Some(kind) = p.savepoint {
            self.complete_savepoint(p, kind, out);
            self.checkpoint_succeeded(id);
            return;
        }
        let cp = CompletedCheckpoint {
            id,
            trigger_tick: p.trigger_tick,
            completed_tick: self.tick,
            snapshots: p.snapshots.into_iter().map(|s| s.expect("fully acknowledged")).collect(),
        };
        let in_flight: usize = cp.snapshots.iter().map(|s| s.in_flight.len()).sum();
        self.durable.storage.retain_completed(cp, self.settings.num_retained as usize);
        let tick = self.tick;
        if let Some(r) = self.stats.get_mut(id) {
            r.status = CheckpointStatus::Completed;
            r.end_tick = Some(tick);
        }
        let guarantee = match self.strategy() {
            _ if self.handler.is_some() => {
                Guarantee::LabHandler { handler: self.handler.expect("a lab handler").handler }
            }
            Strategy::AtLeastOnce => Guarantee::AtLeastOnce,
            _ if in_flight > 0 => Guarantee::ExactlyOnceWithInFlight { records: in_flight as u32 },
            _ => Guarantee::ExactlyOnce,
        };
        out.push(Event::CheckpointCompleted { checkpoint: id, duration: tick - p.trigger_tick, guarantee });
        let older: Vec<CheckpointId> =
            self.live.coordinator.pending.iter().filter(|p| p.id < id).map(|p| p.id).collect();
        for o in older {
            self.abort(o, AbortReason::Subsumed, out);
        }
        self.checkpoint_succeeded(id);
        self.send_notifications(id, out);
        self.recompute_retention();
    }

    /// `CheckpointFailureManager.handleCheckpointSuccess` (for savepoints too): the count of
    /// failures in a row starts again.
    fn checkpoint_succeeded(&mut self, id: CheckpointId) {
        let failures = &mut self.live.coordinator.failures;
        if failures.last_succeeded < Some(id) {
            *failures = FailureCounter { consecutive: 0, last_succeeded: Some(id) };
        }
    }

    /// `receiveDeclineMessage`: task `t` declined checkpoint `id` for `reason`. A pending
    /// checkpoint is aborted at once with the task's reason; a decline for a checkpoint no longer
    /// pending (another task declined it first, or it completed or expired) changes nothing.
    pub(crate) fn decline(&mut self, t: TaskId, id: CheckpointId, reason: AbortReason, out: &mut Vec<Event>) {
        let pending = self.live.coordinator.pending.iter().any(|p| p.id == id);
        out.push(Event::CheckpointDeclined { task: t, checkpoint: id, reason, pending });
        self.abort(id, reason, out);
    }

    /// Aborts a pending checkpoint and tells every running task (`notifyCheckpointAborted`).
    /// The failure goes to the failure manager first: past the tolerable count, the job fails
    /// over as a whole instead.
    pub(crate) fn abort(&mut self, id: CheckpointId, reason: AbortReason, out: &mut Vec<Event>) {
        let c = &mut self.live.coordinator;
        let Some(i) = c.pending.iter().position(|p| p.id == id) else { return };
        c.pending.remove(i);
        c.aborted.insert(id);
        if self.live.stopping == Some(id) {
            // The stop with savepoint failed: the job runs on and the scheduler starts again.
            self.live.stopping = None;
        }
        self.record_abort(id, reason, out);
        if let Some(failed) = self.count_failure(id, reason) {
            out.push(Event::TolerableFailuresExceeded {
                failed,
                tolerable: self.settings.tolerable_failed_checkpoints,
            });
            self.crash(CrashScope::Global, out);
            return;
        }
        if self.live.down.is_none() {
            let mechanism = self.mechanism();
            for t in 0..self.live.tasks.len() {
                if self.live.tasks[t].status == TaskStatus::Running {
                    mechanism.on_abort(self, TaskId(t as u16), id, out);
                }
            }
        }
        self.recompute_retention();
    }

    /// `CheckpointFailureManager.checkFailureAgainstCounter`: a counted failure of a checkpoint
    /// newer than the last completed one adds one; past `tolerable-failed-checkpoints` the count
    /// clears and the failure count is returned: the job must fail over.
    fn count_failure(&mut self, id: CheckpointId, reason: AbortReason) -> Option<u32> {
        let failures = &mut self.live.coordinator.failures;
        if !reason.counts_as_checkpoint_failure() || failures.last_succeeded >= Some(id) {
            return None;
        }
        failures.consecutive += 1;
        let failed = failures.consecutive;
        if failed > self.settings.tolerable_failed_checkpoints {
            failures.consecutive = 0;
            Some(failed)
        } else {
            None
        }
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

    /// Does the mechanism refuse a trigger now? Asked through the seam's check of
    /// [`Action::Checkpoint`], only of a mechanism that checks actions ([`Hooks::checks_actions`]):
    /// stop-the-world refuses every trigger while its sources are paused (its own live state,
    /// `mechanisms/stop_the_world.rs`).
    ///
    /// [`Hooks::checks_actions`]: crate::engine::core::hooks::Hooks::checks_actions
    // Out of line: a trigger is rare, and inlined into its callers this made every step of the
    // engine-steps workload dearer (1,510 instructions to 1,560, iai-callgrind).
    #[inline(never)]
    fn mechanism_refuses_trigger(&self) -> bool {
        self.hooks.checks_actions && self.mechanism().check(self, Action::Checkpoint).is_err()
    }

    /// `executeQueuedRequest`: while a slot is free, a queued trigger request runs.
    fn run_queued_triggers(&mut self, out: &mut Vec<Event>) {
        while self.live.down.is_none() && self.live.coordinator.queued > 0 {
            let c = &self.live.coordinator;
            if c.pending.len() as u32 >= self.settings.max_concurrent_checkpoints || self.mechanism_refuses_trigger() {
                return;
            }
            self.live.coordinator.queued -= 1;
            self.trigger(out);
        }
    }

    /// Most steps of most runs: no trigger queued, none periodic, none pending to expire; the
    /// clock gives the coordinator nothing to do.
    #[inline(always)]
    pub(crate) fn coordinator_quiet(&self) -> bool {
        let c = &self.live.coordinator;
        c.queued == 0 && c.pending.is_empty() && self.settings.checkpoint_interval.is_none()
    }

    /// What the coordinator does as the clock ticks: a queued trigger request where a slot freed,
    /// the periodic trigger (execution.checkpointing.interval) and expiring checkpoints past their
    /// timeout (whose slots the queue takes at once).
    pub(crate) fn coordinator_tick(&mut self, out: &mut Vec<Event>) {
        if self.coordinator_quiet() {
            return;
        }
        self.run_queued_triggers(out);
        let tick = self.tick;
        let scheduling = self.strategy().uses_coordinator() && self.live.stopping.is_none();
        if let Some(every) = self.settings.checkpoint_interval.filter(|_| scheduling) {
            if (tick + 1) % every == 0 {
                self.trigger(out);
            }
        }
        let timeout = self.settings.checkpoint_timeout;
        let expires = |p: &PendingCheckpoint| tick - p.trigger_tick >= timeout;
        // Most ticks nothing expires: no list is made then.
        if self.live.coordinator.pending.iter().any(expires) {
            let expired: Vec<CheckpointId> =
                self.live.coordinator.pending.iter().filter(|p| expires(p)).map(|p| p.id).collect();
            for id in expired {
                self.abort(id, AbortReason::Expired, out);
            }
        }
        self.run_queued_triggers(out);
    }
}

/// `CheckpointRequestDecider`'s `DEFAULT_MAX_QUEUED_REQUESTS`.
pub const MAX_QUEUED_REQUESTS: u32 = 1000;

#[cfg(test)]
mod tests {
    use crate::engine::{AbortReason, Action, CrashScope, Scenario, Settings, Strategy};

    /// Which failures count towards tolerable-failed-checkpoints, after Flink's
    /// `CheckpointFailureManager.checkFailureCounter`.
    #[test]
    fn only_counted_failures_fail_the_job() {
        let mut sim = Scenario::builtin("line", Settings::new(Strategy::Aligned), 1).sim().unwrap();
        let mut out = Vec::new();
        for reason in [AbortReason::Subsumed, AbortReason::TaskFailure, AbortReason::JobManagerFailure] {
            sim.apply(Action::Checkpoint, &mut out).unwrap();
            let id = sim.pending()[0].id;
            sim.abort(id, reason, &mut out);
            assert!(sim.running(), "{reason:?} is not counted");
        }
        sim.apply(Action::Checkpoint, &mut out).unwrap();
        let id = sim.pending()[0].id;
        sim.abort(id, AbortReason::Expired, &mut out);
        assert_eq!(sim.down(), Some(CrashScope::Global));
    }

    /// A failure of a checkpoint older than the last completed one is not counted.
    #[test]
    fn a_failure_older_than_the_last_completion_is_not_counted() {
        let mut s = Settings::new(Strategy::Aligned);
        s.max_concurrent_checkpoints = 2;
        let mut sim = Scenario::builtin("line", s, 1).sim().unwrap();
        let mut out = Vec::new();
        sim.apply(Action::Checkpoint, &mut out).unwrap();
        sim.apply(Action::Checkpoint, &mut out).unwrap();
        let (older, newer) = (sim.pending()[0].id, sim.pending()[1].id);
        sim.live.coordinator.failures.last_succeeded = Some(newer);
        sim.abort(older, AbortReason::Expired, &mut out);
        assert!(sim.running());
        assert_eq!(sim.live.coordinator.failures.consecutive, 0);
    }
}
