//! The master fails: what a JobManager failure does with and without high availability, and the
//! failover statistics of every failure.
//!
//! After Flink's HA documentation (`deployment/ha/overview`) and classes:
//! - `high-availability: standby`: the leader's failure frees its leadership. The HA store
//!   (`DefaultCompletedCheckpointStore` and `ZooKeeperCheckpointIDCounter` or their Kubernetes
//!   twins) keeps the job graph, the pointers to the completed checkpoints and the checkpoint id
//!   counter. At the restore the standby wins the election, recovers the job from the store and
//!   restarts the tasks from the latest completed checkpoint; ids keep rising.
//! - `high-availability: none`: "if the JobManager crashes, no new programs can be submitted and
//!   running programs fail". Completed checkpoints were known to the JobManager's memory only
//!   (`StandaloneCompletedCheckpointStore`). With an externalized-checkpoint retention
//!   (`RETAIN_ON_CANCELLATION`, or `DELETE_ON_CANCELLATION`, which keeps them when the job fails)
//!   the files stay for a resubmission; without one they go with the job. Coming back takes two
//!   restore steps: a new JobManager starts, then the job is submitted again as a new job, from the
//!   retained checkpoint (`CheckpointCoordinator.restoreSavepoint`: the id counter is set to the
//!   restored id + 1) or from nothing (a fresh `StandaloneCheckpointIDCounter`, starting at 1).
//!
//! Every failure (a crash of the cluster, a task, a JobManager or Nimbus, or too many failed
//! checkpoints) opens a [`FailoverRecord`]; the restore that brings the job back closes it with
//! how and from what. The types are in `jobmanager/high_availability.rs` and `jobmanager/stats.rs`.

use crate::engine::core::action::{CrashScope, Event, RestoreFrom};
use crate::engine::core::ids::CheckpointId;
use crate::engine::core::sim::Sim;
use crate::engine::jobmanager::checkpoint::CheckpointIdCounter;
use crate::engine::jobmanager::stats::{FailoverRecord, FailureCause, Takeover};
use crate::engine::settings::{HighAvailability, Setting};

impl Sim {
    /// Does the JobManager's failure follow [`HighAvailability`] in this run? Only where the
    /// CheckpointCoordinator keeps completed checkpoints.
    pub(crate) fn follows_high_availability(&self) -> bool {
        self.strategy().takes(Setting::HighAvailability)
    }

    /// The JobManager failed (after the job's live part was dropped): with a standby, the HA store
    /// keeps what the standby needs; without HA, the job fails, and its completed checkpoints stay
    /// only if they were externalized. Returns whether completed checkpoints went with the job.
    pub(crate) fn jobmanager_failed(&mut self, out: &mut Vec<Event>) -> bool {
        let latest = self.durable.storage.completed.last().map(|c| c.id);
        match self.settings.high_availability {
            HighAvailability::Standby => {
                let leader = self.durable.masters.leader;
                out.push(Event::LeadershipLost { leader, standby: leader.other(), checkpoint: latest });
                false
            }
            HighAvailability::None => {
                let kept = self.settings.externalized_checkpoint_retention.kept_when_the_job_fails();
                let discarded = if kept { 0 } else { std::mem::take(&mut self.durable.storage.completed).len() as u32 };
                out.push(Event::JobFailed { retained: latest.filter(|_| kept), discarded });
                discarded > 0
            }
        }
    }

    /// The restore after a JobManager failure, before the tasks restart: who leads now. Returns
    /// None when this step only started a new JobManager (no HA: the job stays failed until the
    /// next restore submits it again).
    pub(crate) fn take_over_job(&mut self, out: &mut Vec<Event>) -> Option<Takeover> {
        match self.settings.high_availability {
            HighAvailability::Standby => {
                let previous = self.durable.masters.leader;
                let leader = previous.other();
                self.durable.masters.leader = leader;
                self.durable.masters.elected_at = Some(self.tick);
                out.push(Event::LeaderElected { leader, previous });
                out.push(Event::JobRecovered {
                    checkpoint: self.durable.storage.completed.last().map(|c| c.id),
                    next_id: CheckpointId(self.durable.checkpoint_ids.0),
                });
                Some(Takeover::Election { leader })
            }
            HighAvailability::None if !self.durable.masters.awaiting_resubmission => {
                self.durable.masters.awaiting_resubmission = true;
                self.live.jobmanager_up = true;
                out.push(Event::JobManagerStarted);
                None
            }
            HighAvailability::None => {
                self.durable.masters.awaiting_resubmission = false;
                self.durable.masters.submission += 1;
                let from = self.durable.storage.completed.last().map(|c| c.id);
                self.durable.checkpoint_ids = CheckpointIdCounter(from.map_or(1, |id| id.0 + 1));
                self.stats.resubmitted();
                let submission = self.durable.masters.submission;
                out.push(Event::JobResubmitted {
                    submission,
                    from,
                    next_id: CheckpointId(self.durable.checkpoint_ids.0),
                });
                Some(Takeover::Resubmission { submission })
            }
        }
    }

    /// A failure stops the job (or a region of it, or only the master): a failover begins.
    pub(crate) fn failover_began(&mut self, scope: CrashScope, region: bool) {
        let cause = match scope {
            CrashScope::Cluster => FailureCause::Cluster,
            CrashScope::Task(t) if region => FailureCause::Region(t),
            CrashScope::Task(t) => FailureCause::Task(t),
            CrashScope::JobManager if !self.follows_high_availability() => FailureCause::JobManager,
            CrashScope::JobManager => match self.settings.high_availability {
                HighAvailability::None => FailureCause::JobManagerWithoutHa,
                HighAvailability::Standby => FailureCause::JobManagerWithStandby,
            },
            CrashScope::Global => FailureCause::TooManyFailedCheckpoints,
        };
        self.stats.failovers.push(FailoverRecord {
            cause,
            failed_tick: self.tick,
            running_tick: None,
            takeover: None,
            restored: None,
        });
    }

    /// The master alone died and the workers went on: a failover that is over as it begins, for
    /// a mechanism whose workers do not need their master (Storm's, without Nimbus).
    pub(crate) fn master_lost_alone(&mut self) {
        self.stats.failovers.push(FailoverRecord {
            cause: FailureCause::MasterAlone,
            failed_tick: self.tick,
            running_tick: Some(self.tick),
            takeover: Some(Takeover::KeptRunning),
            restored: None,
        });
    }

    /// The job runs again: every failover still open ends now.
    pub(crate) fn failovers_ended(&mut self, takeover: Takeover, from: RestoreFrom) {
        let tick = self.tick;
        for f in self.stats.failovers.iter_mut().filter(|f| f.running_tick.is_none()) {
            f.running_tick = Some(tick);
            f.takeover = Some(takeover);
            f.restored = Some(from);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::settings::{CheckpointRetention, HighAvailability};
    use crate::engine::{Action, CheckpointId, Event, RestoreFrom, Scenario, Settings, Strategy};

    fn sim(ha: HighAvailability, retention: CheckpointRetention) -> crate::engine::Sim {
        let mut s = Settings::new(Strategy::Aligned);
        s.high_availability = ha;
        s.externalized_checkpoint_retention = retention;
        let mut sim = Scenario::builtin("line", s, 1).sim().unwrap();
        let mut out = Vec::new();
        sim.apply(Action::Checkpoint, &mut out).unwrap();
        while !sim.pending().is_empty() {
            sim.apply(Action::Auto, &mut out).unwrap();
        }
        sim
    }

    #[test]
    fn without_ha_the_job_comes_back_in_two_restore_steps() {
        let mut sim = sim(HighAvailability::None, CheckpointRetention::RetainOnCancellation);
        let done = sim.storage().completed.last().unwrap().id;
        sim.step(Action::CrashJobManager).unwrap();
        let first = sim.step(Action::Restore).unwrap();
        assert_eq!(first, [Event::JobManagerStarted]);
        assert!(sim.down().is_some() && sim.jobmanager_up(), "a new JobManager, the job still failed");
        let second = sim.step(Action::Restore).unwrap();
        assert!(second.contains(&Event::JobResubmitted {
            submission: 2,
            from: Some(done),
            next_id: CheckpointId(done.0 + 1)
        }));
        assert!(second.contains(&Event::Restored { from: RestoreFrom::Checkpoint { checkpoint: done } }));
        assert!(sim.running());
        let f = sim.stats.failovers[0];
        assert_eq!(f.steps_down(), Some(2));
    }

    #[test]
    fn with_a_standby_the_election_is_the_restore_step() {
        let mut sim = sim(HighAvailability::Standby, CheckpointRetention::NoExternalizedCheckpoints);
        sim.step(Action::CrashJobManager).unwrap();
        let events = sim.step(Action::Restore).unwrap();
        assert!(matches!(events[0], Event::LeaderElected { .. }), "{events:?}");
        assert_eq!(sim.stats.failovers[0].steps_down(), Some(1));
        assert_eq!(sim.masters().leader, crate::engine::JobManagerName::B);
    }
}
