//! Savepoints, stop with savepoint, cancel, and submitting a job again from a savepoint, after
//! Flink's `CheckpointCoordinator.triggerSavepoint` / `triggerSynchronousSavepoint`,
//! `CheckpointProperties.forSavepoint` / `forSyncSavepoint`, `SavepointType` and the scheduler's
//! `StopWithSavepoint` state.
//!
//! - **A savepoint belongs to the user.** It is triggered by the user, never by the periodic
//!   scheduler. It is *forced*: max-concurrent-checkpoints does not hold it back (Flink's trigger
//!   checks "are not relevant for savepoints"). On completion it is *not* added to the job's
//!   `CompletedCheckpointStore` (`if (!props.isSavepoint())
//!   addCompletedCheckpointToStoreAndSubsumeOldest`), so it never counts among the newest
//!   `num-retained` checkpoints, subsumes none of them, and no crash, failover or cancellation
//!   deletes it. A plain savepoint neither drops the pending checkpoints before it nor sends
//!   `notifyCheckpointComplete` (`cleanupAfterCompletedCheckpoint` does both only
//!   `if (!props.isSavepoint() || props.isSynchronous())`): a two-phase-commit sink commits what
//!   it wrote before it at the next checkpoint's notification.
//! - **A checkpoint belongs to the job.** When the job finishes (stop with savepoint) its
//!   retained checkpoints are deleted (`discardOnJobFinished` holds for every retention policy);
//!   when it is cancelled they are deleted unless retained on cancellation.
//! - **Stop with savepoint** (`flink stop`, `SavepointType.suspend`): the periodic scheduler
//!   stops (`stopCheckpointScheduler` aborts the checkpoints in progress,
//!   `CHECKPOINT_COORDINATOR_SUSPEND`), then a synchronous savepoint is triggered. The sources
//!   emit nothing after its barrier. It completes like a checkpoint: older pending checkpoints
//!   are subsumed and every task is notified, so a two-phase-commit sink commits its last
//!   transaction; once the notifications have arrived, the job finishes. A failure before that
//!   fails the stop; the job restarts and runs on.
//! - **A savepoint is always aligned**, without an alignment timeout (`CheckpointOptions.forConfig`
//!   gives it `alignedNoTimeout`): under strategy `unaligned` its barriers wait behind the records
//!   in the channels and block the inputs they arrive on, and under an alignment timeout its
//!   alignment never turns unaligned, so a savepoint holds no channel state.
//! - **Submitting again** (`flink run -s PATH`): a new job starts from a savepoint (or the newest
//!   retained checkpoint); its checkpoint store starts with that snapshot, so a failover before
//!   its first checkpoint restores from it (`restoreSavepoint` adds it to the store).

use crate::engine::core::action::{AbortReason, Action, Event};
use crate::engine::core::dataflow::channel::Channel;
use crate::engine::core::error::ActionError;
use crate::engine::core::ids::CheckpointId;
use crate::engine::core::sim::Sim;
use crate::engine::jobmanager::checkpoint::PendingCheckpoint;
use crate::engine::jobmanager::stats::{CheckpointStatus, Takeover};
use crate::engine::jobmanager::storage::CompletedCheckpoint;
use crate::engine::settings::CheckpointRetention;

pub use crate::engine::jobmanager::savepoint_kinds::{JobEnd, Savepoint, SavepointType};

impl Sim {
    /// The user's savepoints, oldest first (durable; no crash or cancellation touches them).
    pub fn savepoints(&self) -> &[Savepoint] {
        &self.durable.savepoints
    }

    /// How the job ended, if it was stopped or cancelled and not submitted again.
    pub fn stopped(&self) -> Option<JobEnd> {
        self.stopped
    }

    /// The synchronous savepoint of a stop with savepoint in progress.
    pub fn stopping(&self) -> Option<CheckpointId> {
        self.live.stopping
    }

    /// Is `Savepoint`, `StopWithSavepoint`, `Cancel` or `Resume` enabled now? A savepoint needs
    /// the job running; a cancel also takes a job that is down or stopping; only a stopped job is
    /// submitted again, from a savepoint or its newest retained checkpoint.
    pub(crate) fn check_job_control(&self, a: Action) -> Result<(), ActionError> {
        if !self.strategy().uses_coordinator() {
            return Err(ActionError::NoCheckpoints { strategy: self.strategy() });
        }
        if let Action::Resume { from } = a {
            if self.stopped.is_none() {
                return Err(ActionError::NotStopped);
            }
            return match self.snapshot_to_resume(from) {
                Some(_) => Ok(()),
                None => Err(ActionError::NoSavepoint { id: from.0 }),
            };
        }
        if self.stopped.is_some() {
            return Err(ActionError::JobStopped);
        }
        if a == Action::Cancel {
            return if self.live.jobmanager_up { Ok(()) } else { Err(ActionError::JobDown) };
        }
        if let Some(id) = self.live.stopping {
            return Err(ActionError::Stopping { savepoint: id.0 });
        }
        self.need_running()
    }

    /// A savepoint or, with `stop`, a stop with savepoint: the scheduler stops first (aborting
    /// the checkpoints in progress), then the synchronous savepoint is triggered.
    pub(crate) fn trigger_savepoint(&mut self, stop: bool, out: &mut Vec<Event>) {
        if stop {
            let pending: Vec<CheckpointId> = self.live.coordinator.pending.iter().map(|p| p.id).collect();
            self.live.coordinator.queued = 0;
            for id in pending {
                self.abort(id, AbortReason::CoordinatorSuspend, out);
            }
            if self.live.down.is_some() {
                return;
            }
        }
        let kind = if stop { SavepointType::Suspend } else { SavepointType::Savepoint };
        let before = self.live.coordinator.pending.len();
        self.trigger_as(Some(kind), out);
        if self.live.coordinator.pending.len() > before {
            let id = self.live.coordinator.pending.last().expect("just triggered").id;
            if stop {
                self.live.stopping = Some(id);
            }
            out.push(Event::SavepointTriggered { savepoint: id, stop });
        }
    }

    /// `completePendingCheckpoint` for a savepoint: into the user's directory, not the store. A
    /// synchronous one subsumes older pending checkpoints and notifies every task.
    pub(crate) fn complete_savepoint(&mut self, p: PendingCheckpoint, kind: SavepointType, out: &mut Vec<Event>) {
        let id = p.id;
        let checkpoint = CompletedCheckpoint {
            id,
            trigger_tick: p.trigger_tick,
            completed_tick: self.tick,
            snapshots: p.snapshots.into_iter().map(|s| s.expect("fully acknowledged")).collect(),
        };
        let stop = kind == SavepointType::Suspend;
        self.durable.savepoints.push(Savepoint { stop, checkpoint });
        let tick = self.tick;
        if let Some(r) = self.stats.get_mut(id) {
            r.status = CheckpointStatus::Completed;
            r.end_tick = Some(tick);
        }
        out.push(Event::SavepointCompleted { savepoint: id, stop, duration: tick - p.trigger_tick });
        if stop {
            let older: Vec<CheckpointId> =
                self.live.coordinator.pending.iter().filter(|p| p.id < id).map(|p| p.id).collect();
            for o in older {
                self.abort(o, AbortReason::Subsumed, out);
            }
            self.send_notifications(id, out);
        }
        self.recompute_retention();
    }

    /// After each step: a stop whose savepoint completed and reached every task ends the job.
    pub(crate) fn finish_stop(&mut self, out: &mut Vec<Event>) {
        let Some(id) = self.live.stopping else { return };
        let done = self.durable.savepoints.last().is_some_and(|s| s.checkpoint.id == id);
        if !done || self.live.down.is_some() || !self.live.notifications.is_empty() {
            return;
        }
        self.end_job();
        let discarded = std::mem::take(&mut self.durable.storage.completed).len() as u32;
        self.stopped = Some(JobEnd::Finished);
        out.push(Event::JobFinished { savepoint: id, discarded });
        self.recompute_retention();
    }

    /// `flink cancel`: every task stops at once and what was in flight vanishes; the checkpoints
    /// in progress are aborted; the retained checkpoints go unless retained on cancellation.
    pub(crate) fn cancel(&mut self, out: &mut Vec<Event>) {
        let pending: Vec<CheckpointId> = self.live.coordinator.pending.iter().map(|p| p.id).collect();
        for id in pending {
            self.record_abort(id, AbortReason::CoordinatorShutdown, out);
        }
        let lost_in_flight = self.end_job();
        self.live.down = None;
        let keep = self.settings.externalized_checkpoint_retention == CheckpointRetention::RetainOnCancellation;
        let (discarded, retained) = match keep {
            true => (0, self.durable.storage.completed.len() as u32),
            false => (std::mem::take(&mut self.durable.storage.completed).len() as u32, 0),
        };
        self.stopped = Some(JobEnd::Canceled);
        out.push(Event::JobCanceled { discarded, retained, lost_in_flight });
        self.recompute_retention();
    }

    /// The job no longer runs: the live part goes, the mechanism's own live state with it
    /// (records in flight are lost; the tasks show their state as it was). Returns the records
    /// lost.
    fn end_job(&mut self) -> u32 {
        let lost = self.take_live();
        let dropped = self.drop_in_flight(lost.channels);
        self.live.coordinator.failures = lost.coordinator.failures;
        self.live.channels = vec![Channel::default(); self.graph.channels.len()];
        for (t, task) in lost.tasks.into_iter().enumerate() {
            let initial = self.initial_state(crate::engine::core::ids::TaskId(t as u16));
            self.live.tasks.push(task.stopped(false, initial));
        }
        dropped
    }

    /// A savepoint with id `from`, or the newest retained checkpoint if it has that id.
    pub(crate) fn snapshot_to_resume(&self, from: CheckpointId) -> Option<(&CompletedCheckpoint, bool)> {
        let savepoint = self.durable.savepoints.iter().find(|s| s.checkpoint.id == from).map(|s| (&s.checkpoint, true));
        savepoint.or_else(|| self.durable.storage.completed.last().filter(|c| c.id == from).map(|c| (c, false)))
    }

    /// `flink run -s`: the job is submitted again and restores every task from `from`, which
    /// starts its checkpoint store.
    pub(crate) fn resume(&mut self, from: CheckpointId, out: &mut Vec<Event>) {
        let (cp, savepoint) = self.snapshot_to_resume(from).map(|(c, s)| (c.clone(), s)).expect("checked");
        self.durable.storage.completed = vec![cp];
        self.stopped = None;
        out.push(Event::JobSubmitted { from, savepoint, next_id: CheckpointId(self.durable.checkpoint_ids.0) });
        self.restart(true, Takeover::Restart, false, out);
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Action, Event, Scenario, Settings, Strategy};

    fn run(actions: &str) -> crate::engine::Sim {
        let mut sim = Scenario::builtin("line", Settings::new(Strategy::Aligned), 3).sim().unwrap();
        let mut out = Vec::new();
        for code in actions.split(' ') {
            sim.apply(Action::from_code(code).unwrap(), &mut out).unwrap();
        }
        sim
    }

    /// A savepoint is not among the retained checkpoints, and a stop with savepoint finishes the
    /// job and deletes the job's checkpoints but not the savepoints.
    #[test]
    fn savepoints_outlive_the_job_and_checkpoints_do_not() {
        let mut sim = run("c a a a a a a a a v");
        while !sim.pending().is_empty() {
            sim.step(Action::Auto).unwrap();
        }
        assert_eq!(sim.storage().completed.len(), 1, "the checkpoint is retained");
        assert_eq!(sim.savepoints().len(), 1, "the savepoint is the user's");
        let events = sim.step(Action::StopWithSavepoint).unwrap();
        assert!(events.iter().any(|e| matches!(e, Event::SavepointTriggered { stop: true, .. })));
        while sim.stopped().is_none() {
            sim.step(Action::Auto).unwrap();
        }
        assert!(sim.storage().completed.is_empty());
        assert_eq!(sim.savepoints().len(), 2);
        assert!(sim.step(Action::Auto).is_err(), "a finished job does nothing");
    }
}
