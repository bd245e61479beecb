//! Checkpoint statistics, as Flink's web UI shows them in the Checkpoints tab: per checkpoint its
//! status, acknowledgements, duration, size and in-flight data, and per subtask the start delay,
//! the alignment time and whether it went unaligned. Times are logical steps. The simulator keeps
//! these for the learner; they are not part of the job and survive every crash.
//!
//! Beside them, every failover: what failed, the step it failed, the step the job ran again, how
//! it came back (the same JobManager, a standby that won the election, or a resubmission) and
//! from what it was restored, so that a failure with and without a standby JobManager compare in
//! steps. A job resubmitted without HA is a new job with a Checkpoints tab of its own: the earlier
//! submission's checkpoints are kept apart.

use serde::{Deserialize, Serialize};

use crate::engine::core::action::{AbortReason, RestoreFrom};
use crate::engine::core::ids::{CheckpointId, TaskId};
use crate::engine::jobmanager::high_availability::JobManagerName;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "status", content = "reason")]
pub enum CheckpointStatus {
    InProgress,
    Completed,
    Failed(AbortReason),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubtaskStats {
    pub ack_tick: Option<u64>,
    pub first_barrier: Option<u64>,
    pub last_barrier: Option<u64>,
    /// Steps from the trigger to the first barrier reaching this task.
    pub start_delay: Option<u64>,
    /// Steps from the first to the last barrier (aligned: inputs blocked meanwhile).
    pub alignment: Option<u64>,
    pub unaligned: bool,
    pub state_size: u64,
    pub in_flight: u32,
}

/// One row of the Checkpoints tab's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointRecord {
    pub id: CheckpointId,
    pub status: CheckpointStatus,
    /// Acknowledgements so far, of `total` tasks.
    pub acked: u16,
    pub total: u16,
    pub trigger_tick: u64,
    /// The step of the latest acknowledgement.
    pub latest_ack: Option<u64>,
    /// The step it completed or failed.
    pub end_tick: Option<u64>,
    /// "Checkpointed data size": the sum of the acknowledged snapshots' sizes.
    pub state_size: u64,
    /// In-flight records stored (unaligned).
    pub in_flight: u32,
    /// Stop-the-world only: steps the sources were paused.
    pub stall: Option<u64>,
    pub subtasks: Vec<SubtaskStats>,
    /// A savepoint's row (Flink's statistics list savepoints with the checkpoints).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub savepoint: Option<crate::engine::jobmanager::savepoint_kinds::SavepointType>,
}

impl CheckpointRecord {
    /// End-to-end duration in steps (so far, if still in progress).
    pub fn duration(&self, now: u64) -> u64 {
        self.end_tick.unwrap_or(now) - self.trigger_tick
    }
}

/// What failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "cause", content = "task")]
pub enum FailureCause {
    /// Every TaskManager died.
    Cluster,
    /// A task failed and every task restarted.
    Task(TaskId),
    /// A task failed and only its pipelined region restarted.
    Region(TaskId),
    /// The JobManager failed under a strategy that keeps no checkpoints in it (timers, none).
    JobManager,
    /// The JobManager failed, with a standby waiting.
    JobManagerWithStandby,
    /// The JobManager failed without HA: the job failed with it.
    JobManagerWithoutHa,
    /// The master alone died and the workers went on, recorded by a mechanism whose workers do not
    /// need it (`Sim::master_lost_alone`: Storm's Nimbus).
    MasterAlone,
    /// Too many checkpoints failed in a row: the job failed over as a whole.
    TooManyFailedCheckpoints,
}

/// How the job came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "how")]
pub enum Takeover {
    /// The JobManager (or Storm's supervisor) restarted the tasks.
    Restart,
    /// A standby JobManager won the leader election and recovered the job from the HA store.
    Election { leader: JobManagerName },
    /// Without HA: a new JobManager started and the job was submitted again, as a new job.
    Resubmission { submission: u32 },
    /// Nothing stopped (the workers go on without their master).
    KeptRunning,
}

/// One failover: from the failure to the job running again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailoverRecord {
    pub cause: FailureCause,
    /// The step of the failure.
    pub failed_tick: u64,
    /// The step the job ran again (None: still down).
    pub running_tick: Option<u64>,
    pub takeover: Option<Takeover>,
    /// What the job was restored from (None: still down, or nothing stopped).
    pub restored: Option<RestoreFrom>,
}

impl FailoverRecord {
    /// Steps from the failure to running again (None: still down).
    pub fn steps_down(&self) -> Option<u64> {
        self.running_tick.map(|t| t - self.failed_tick)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointStats {
    pub history: Vec<CheckpointRecord>,
    /// Triggers that failed before a checkpoint was created (a task not running): Flink's
    /// `reportFailedCheckpointsWithoutInProgress`, counted as triggered and failed, with no row in
    /// the history.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failed_triggers: u32,
    pub restored: u32,
    pub latest_restored: Option<CheckpointId>,
    /// Every failover of the run, across submissions of the job.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failovers: Vec<FailoverRecord>,
    /// The checkpoint histories of the job's earlier submissions (without HA, a JobManager failure
    /// fails the job and a resubmission is a new job), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_submissions: Vec<Vec<CheckpointRecord>>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub triggered: u32,
    pub in_progress: u32,
    pub completed: u32,
    pub failed: u32,
    pub restored: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl CheckpointStats {
    /// The counts at the top of the Checkpoints tab. As in Flink's `CheckpointStatsCounts`, a
    /// trigger that failed before a checkpoint existed counts as triggered and failed.
    pub fn counts(&self) -> Counts {
        let mut c = Counts {
            restored: self.restored,
            triggered: self.failed_triggers,
            failed: self.failed_triggers,
            ..Counts::default()
        };
        for r in &self.history {
            c.triggered += 1;
            match r.status {
                CheckpointStatus::InProgress => c.in_progress += 1,
                CheckpointStatus::Completed => c.completed += 1,
                CheckpointStatus::Failed(_) => c.failed += 1,
            }
        }
        c
    }
    /// The job is submitted again as a new job: its checkpoints so far go to
    /// `earlier_submissions`, and the counts start again.
    pub fn resubmitted(&mut self) {
        let earlier = std::mem::take(&mut self.history);
        self.earlier_submissions.push(earlier);
        self.failed_triggers = 0;
        self.restored = 0;
        self.latest_restored = None;
    }
    pub fn get_mut(&mut self, id: CheckpointId) -> Option<&mut CheckpointRecord> {
        // Ids rise with the history, so a binary search finds them.
        let i = self.history.binary_search_by_key(&id, |r| r.id).ok()?;
        self.history.get_mut(i)
    }
}
