//! The JobManagers of a cluster and what Flink's HA services keep for them
//! (`HighAvailabilityServices`): which JobManager leads, whether a standby waits, and, without HA,
//! whether a new JobManager is waiting for the job to be resubmitted.
//!
//! With `high-availability: standby` two JobManagers run, A and B. One holds the leadership (a
//! ZooKeeper lock or a Kubernetes lease); the HA store keeps the job graph, the pointers to the
//! completed checkpoints (the files are in checkpoint storage) and the checkpoint id counter. When
//! the leader fails, the other wins the election, recovers the job from the HA store and restarts
//! the tasks from the latest completed checkpoint (`JobMasterServiceLeadershipRunner`); the failed
//! one comes back as the standby. Without HA there is one JobManager and no HA store: its failure
//! fails the job, and the job returns only when a new JobManager is started and the job is
//! submitted again, as a new job (`CheckpointCoordinator.restoreSavepoint` from a retained
//! checkpoint, or from nothing). The behaviour is in `jobmanager/master_failover.rs`.

use serde::{Deserialize, Serialize};

/// A JobManager process: A starts as the leader, B as the standby.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum JobManagerName {
    #[default]
    A,
    B,
}

impl JobManagerName {
    /// The other JobManager of the pair.
    pub fn other(self) -> JobManagerName {
        match self {
            JobManagerName::A => JobManagerName::B,
            JobManagerName::B => JobManagerName::A,
        }
    }
    pub fn letter(self) -> &'static str {
        match self {
            JobManagerName::A => "A",
            JobManagerName::B => "B",
        }
    }
}

/// The cluster's JobManagers as the HA services see them. It survives every failure: the
/// processes and the leader lock are outside the job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Masters {
    /// The JobManager that leads, or (while it is down) led until it failed. Without HA, the one
    /// JobManager.
    pub leader: JobManagerName,
    /// The step of the last election a standby won.
    pub elected_at: Option<u64>,
    /// Without HA: the job failed with its JobManager and a new JobManager has started; it knows
    /// nothing of the job, which the next restore resubmits.
    pub awaiting_resubmission: bool,
    /// The job's submissions so far: 1, and one more for each resubmission.
    pub submission: u32,
}

impl Default for Masters {
    fn default() -> Masters {
        Masters { leader: JobManagerName::A, elected_at: None, awaiting_resubmission: false, submission: 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pair_alternates() {
        assert_eq!(JobManagerName::A.other(), JobManagerName::B);
        assert_eq!(JobManagerName::B.other().other(), JobManagerName::B);
        assert_eq!(Masters::default().submission, 1);
    }
}
