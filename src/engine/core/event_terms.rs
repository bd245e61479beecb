//! The terms events are told in: what a completed checkpoint guarantees (Flink's
//! `CheckpointingMode`), how a task's snapshot was taken, why a checkpoint failed (Flink's
//! `CheckpointFailureReason`), what a task let go of when it gave one up, what crashed, and what a
//! restore started from.

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::{CheckpointId, TaskId};
use crate::engine::mechanisms::catalogue::carried::MechanismRestore;

/// What a completed checkpoint guarantees when the job restores from it, after Flink's
/// `CheckpointingMode`: `EXACTLY_ONCE` draws checkpoints so that, upon recovery, every record is
/// reflected exactly once in operator state; `AT_LEAST_ONCE` draws them "in a simpler fashion that
/// typically encounters some duplicates upon recovery".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Guarantee {
    /// A consistent cut (aligned barriers, stop-the-world): exactly once in operator state.
    ExactlyOnce,
    /// A consistent cut together with the in-flight records stored with it (unaligned, or
    /// aligned past its alignment timeout), which a restore replays first: exactly once.
    ExactlyOnceWithInFlight { records: u32 },
    /// Barriers without alignment: a snapshot may already hold records sent after the barrier,
    /// which the sources replay on restore (duplicates); nothing is lost.
    AtLeastOnce,
    /// A barrier handler of the lab in place of the strategy's: what a restore gives is the
    /// handler's guarantee, as the explorer classifies it.
    LabHandler { handler: crate::engine::settings::handler::Handler },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SnapshotKind {
    /// A task's own timer fired.
    Timer,
    /// Aligned: the last barrier arrived.
    Aligned,
    /// Unaligned: the first barrier arrived and overtook.
    Unaligned,
    /// Barrier tracker (at-least-once): barriers from all inputs counted, nothing blocked.
    Tracker,
    /// Triggered at a source by the CheckpointCoordinator.
    Source,
    /// Stop-the-world: everything drained.
    StopTheWorld,
}

/// Why a checkpoint failed, after Flink's `CheckpointFailureReason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbortReason {
    /// A newer checkpoint completed first (`CHECKPOINT_SUBSUMED`).
    Subsumed,
    /// A task declined it: barrier n+1 reached the task before it had every barrier of n
    /// (`CHECKPOINT_DECLINED_SUBSUMED`).
    DeclinedSubsumed,
    /// A task declined it: a cancel marker for it came on one of the task's inputs
    /// (`CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER`).
    DeclinedOnCancellationBarrier,
    /// The checkpoint timeout passed.
    Expired,
    /// A task failed.
    TaskFailure,
    /// The periodic checkpoint scheduler stopped for a stop-with-savepoint, which aborts the
    /// checkpoints in progress (`CHECKPOINT_COORDINATOR_SUSPEND`).
    CoordinatorSuspend,
    /// The job was cancelled and its CheckpointCoordinator shut down
    /// (`CHECKPOINT_COORDINATOR_SHUTDOWN`).
    CoordinatorShutdown,
    /// The JobManager failed and its pending checkpoints with it.
    JobManagerFailure,
    /// The job failed over as a whole (Flink's `JOB_FAILURE`): too many checkpoints failed in a
    /// row.
    JobFailure,
}

impl AbortReason {
    pub fn id(self) -> &'static str {
        match self {
            AbortReason::Subsumed => "subsumed",
            AbortReason::DeclinedSubsumed => "declined (newer barrier)",
            AbortReason::DeclinedOnCancellationBarrier => "declined (cancel marker)",
            AbortReason::Expired => "expired",
            AbortReason::TaskFailure => "task failure",
            AbortReason::CoordinatorSuspend => "coordinator suspended",
            AbortReason::CoordinatorShutdown => "coordinator shut down",
            AbortReason::JobManagerFailure => "JobManager failure",
            AbortReason::JobFailure => "job failure",
        }
    }

    /// Does this failure count towards `tolerable-failed-checkpoints`? After Flink's
    /// `CheckpointFailureManager.checkFailureCounter`: `CHECKPOINT_EXPIRED` counts (as do I/O
    /// errors, async-phase failures and `CHECKPOINT_DECLINED`, which the simulator has no cause
    /// for); `CHECKPOINT_SUBSUMED`, `CHECKPOINT_DECLINED_SUBSUMED`,
    /// `CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER`, `TASK_FAILURE`, `JOB_FAILOVER_REGION`,
    /// `JOB_FAILURE` and the coordinator's shutdown are ignored.
    pub fn counts_as_checkpoint_failure(self) -> bool {
        match self {
            AbortReason::Expired => true,
            AbortReason::Subsumed
            | AbortReason::DeclinedSubsumed
            | AbortReason::DeclinedOnCancellationBarrier
            | AbortReason::TaskFailure
            | AbortReason::CoordinatorSuspend
            | AbortReason::CoordinatorShutdown
            | AbortReason::JobManagerFailure
            | AbortReason::JobFailure => false,
        }
    }
}

/// What a task let go of when it gave up a checkpoint, by mechanism.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GaveUp {
    /// Aligned: it was aligning; the `released` inputs it had blocked flow again.
    Aligning { released: u16 },
    /// Unaligned (or past the alignment timeout): the snapshot it took early is discarded with
    /// the `in_flight` records it had stored; `released` inputs that an aligned barrier had
    /// blocked flow again.
    Unaligned { in_flight: u32, released: u16 },
    /// It was collecting the barriers of a checkpoint already aborted, whose snapshot it had
    /// discarded or will never take; `released` inputs flow again.
    Collecting { released: u16 },
    /// At-least-once: it stops counting the checkpoint's barriers; nothing was blocked.
    Counting,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CrashScope {
    /// Every TaskManager dies.
    Cluster,
    /// One task fails and every task restarts: the failover strategy is `full`, or the task's
    /// pipelined region is the whole job.
    Task(TaskId),
    /// The JobManager fails.
    JobManager,
    /// A global failover (Flink's `failGlobal`): every task is canceled and the whole job
    /// restarts, whatever the failover strategy; here because too many checkpoints failed in a
    /// row (`tolerable-failed-checkpoints`).
    Global,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "from")]
pub enum RestoreFrom {
    /// Every task from this completed checkpoint.
    Checkpoint { checkpoint: CheckpointId },
    /// No completed checkpoint: every task starts empty, sources from offset 0.
    Nothing,
    /// Timers: each task from its own latest save (or empty).
    OwnSaves,
    /// Strategy none: tasks empty, sources from the start or from the newest read position.
    Policy,
    /// A mechanism's own restart, in its own terms (Storm's worker from the spouts' committed
    /// offsets, Spark Streaming's driver from its metadata checkpoint): the catalogue's
    /// `MechanismRestore`, written as the mechanism's value itself.
    #[serde(untagged)]
    Mechanism(MechanismRestore),
}
