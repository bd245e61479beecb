//! The kinds of the settings beside the strategy: the restart policy of strategy none, the sink
//! mode, the failover strategy (jobmanager.execution.failover-strategy), JobManager high
//! availability (`high-availability.type`) with the retention of externalized checkpoints
//! (execution.checkpointing.externalized-checkpoint-retention), a task's snapshot timer, the
//! source kind, and the settings' limits.

use serde::{Deserialize, Serialize};

/// Where sources restart when nothing was saved (strategy `none`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RestartPolicy {
    /// Re-read the whole log: at-least-once (duplicates).
    #[default]
    FromBeginning,
    /// Continue after the newest record each source had read (its offset committed to the log as it
    /// read): whatever was in flight is skipped, at-most-once (losses).
    FromLatest,
}

/// How the sink writes to its external system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SinkMode {
    /// Plain append: every write is visible at once; replays append again.
    #[default]
    Append,
    /// Idempotent upsert keyed by the record: a replayed write overwrites the same row.
    Upsert,
    /// Two-phase commit: write into the open transaction, pre-commit at the barrier, commit when
    /// the checkpoint completes.
    TwoPhaseCommit,
    /// Spark Streaming's transactional output: a batch's rows per partition commit atomically,
    /// keyed by (batch time, partition); a key already committed is skipped.
    Transactional,
    /// Flink's `KafkaSink` writing one topic partition through a broker's transactions
    /// (`core/dataflow/kafka/`): exactly-once (a transaction per checkpoint, committed by the
    /// `KafkaCommitter`) or at-least-once (plain writes). Offered in scenario files and the
    /// runner; the page's settings form does not offer it.
    Kafka,
}

impl SinkMode {
    pub const ALL: [SinkMode; 5] =
        [SinkMode::Append, SinkMode::Upsert, SinkMode::TwoPhaseCommit, SinkMode::Transactional, SinkMode::Kafka];
    /// The sink modes the page's settings form offers (not the Kafka sink: its drawing is not
    /// on the page yet).
    pub const ON_THE_PAGE: [SinkMode; 4] =
        [SinkMode::Append, SinkMode::Upsert, SinkMode::TwoPhaseCommit, SinkMode::Transactional];
    pub fn id(self) -> &'static str {
        match self {
            SinkMode::Append => "append",
            SinkMode::Upsert => "upsert",
            SinkMode::TwoPhaseCommit => "two-phase-commit",
            SinkMode::Transactional => "transactional",
            SinkMode::Kafka => "kafka",
        }
    }
    pub fn from_id(s: &str) -> Option<SinkMode> {
        SinkMode::ALL.into_iter().find(|x| x.id() == s)
    }
}

/// Which tasks restart when one task fails, after Flink's `jobmanager.execution.failover-strategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailoverStrategy {
    /// Restart every task (Flink's `RestartAllFailoverStrategy`).
    Full,
    /// Restart the failed task's pipelined region only (Flink's default,
    /// `RestartPipelinedRegionFailoverStrategy`). A streaming job exchanges data over pipelined
    /// channels only, so a region is a connected component of the task graph: tasks joined by
    /// channels, in either direction. Every built-in job is one region.
    #[default]
    Region,
}

impl FailoverStrategy {
    pub const ALL: [FailoverStrategy; 2] = [FailoverStrategy::Full, FailoverStrategy::Region];
    pub fn id(self) -> &'static str {
        match self {
            FailoverStrategy::Full => "full",
            FailoverStrategy::Region => "region",
        }
    }
    pub fn from_id(s: &str) -> Option<FailoverStrategy> {
        FailoverStrategy::ALL.into_iter().find(|x| x.id() == s)
    }
}

/// JobManager high availability, after Flink's `high-availability.type` (`NONE`, `ZOOKEEPER`,
/// `KUBERNETES`): whether a standby JobManager waits to take over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HighAvailability {
    /// No HA (Flink's default): completed checkpoints are known only to the JobManager's memory
    /// (`StandaloneCompletedCheckpointStore`), and so is the checkpoint id counter
    /// (`StandaloneCheckpointIDCounter`). A JobManager failure fails the job; it comes back only
    /// when a new JobManager is started and the job is resubmitted, from a retained checkpoint or
    /// from nothing.
    None,
    /// A standby JobManager (the simulator's default): the HA services (ZooKeeper or Kubernetes)
    /// keep the job graph, the pointers to the completed checkpoints and the checkpoint id counter.
    /// When the leader fails, the standby wins the leader election, recovers the job from the HA
    /// store and restarts the tasks from the latest completed checkpoint; ids keep rising.
    #[default]
    Standby,
}

impl HighAvailability {
    pub const ALL: [HighAvailability; 2] = [HighAvailability::None, HighAvailability::Standby];
    pub fn id(self) -> &'static str {
        match self {
            HighAvailability::None => "none",
            HighAvailability::Standby => "standby",
        }
    }
    pub fn from_id(s: &str) -> Option<HighAvailability> {
        HighAvailability::ALL.into_iter().find(|x| x.id() == s)
    }
}

/// What becomes of completed checkpoints when the job ends, after Flink's
/// `ExternalizedCheckpointRetention`. The simulator's job ends only by failing (with its
/// JobManager, without HA), and Flink keeps an externalized checkpoint when its job fails under
/// both retaining modes ("checkpoint state is always kept if the job terminates with state
/// FAILED"), so the two behave alike here; they differ on cancellation, which is not modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckpointRetention {
    /// Flink's default: checkpoints are not externalized; they go with the job
    /// (`CHECKPOINT_NEVER_RETAINED`: deleted on failure and on suspension).
    #[default]
    NoExternalizedCheckpoints,
    /// Kept when the job fails or is cancelled.
    RetainOnCancellation,
    /// Kept when the job fails, deleted when it is cancelled.
    DeleteOnCancellation,
}

impl CheckpointRetention {
    pub const ALL: [CheckpointRetention; 3] = [
        CheckpointRetention::NoExternalizedCheckpoints,
        CheckpointRetention::RetainOnCancellation,
        CheckpointRetention::DeleteOnCancellation,
    ];
    pub fn id(self) -> &'static str {
        match self {
            CheckpointRetention::NoExternalizedCheckpoints => "no-externalized-checkpoints",
            CheckpointRetention::RetainOnCancellation => "retain-on-cancellation",
            CheckpointRetention::DeleteOnCancellation => "delete-on-cancellation",
        }
    }
    pub fn from_id(s: &str) -> Option<CheckpointRetention> {
        CheckpointRetention::ALL.into_iter().find(|x| x.id() == s)
    }
    /// Does a failed job leave its completed checkpoints for a resubmission?
    pub fn kept_when_the_job_fails(self) -> bool {
        self != CheckpointRetention::NoExternalizedCheckpoints
    }
}

/// A task's snapshot timer: it fires at step `phase`, then every `period` steps (`period` 0: only
/// when fired by hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimerSpec {
    #[serde(default)]
    pub phase: u64,
    #[serde(default)]
    pub period: u64,
}

pub const MAX_STEPS_SETTING: u64 = 1_000_000_000;
/// The most items a bounded channel may hold.
pub const MAX_CHANNEL_CAPACITY: u32 = 100_000;
/// The most steps one record may keep a task busy (`record-cost`).
pub const MAX_RECORD_COST: u32 = 50;

/// What a source reads from: a log it can read again (a Kafka partition), or a socket, which
/// cannot: a record not yet read arrives at its tick whether or not anyone listens, and what the
/// source has not read when it goes down is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    #[default]
    ReplayableLog,
    Socket,
}

impl SourceKind {
    pub const ALL: [SourceKind; 2] = [SourceKind::ReplayableLog, SourceKind::Socket];
    pub fn id(self) -> &'static str {
        match self {
            SourceKind::ReplayableLog => "replayable-log",
            SourceKind::Socket => "socket",
        }
    }
}
