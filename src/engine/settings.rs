//! How a run saves state and recovers: the snapshot strategy and the CheckpointCoordinator's
//! settings, named after Flink's configuration keys (execution.checkpointing.interval, timeout,
//! max-concurrent-checkpoints, num-retained, aligned-checkpoint-timeout,
//! tolerable-failed-checkpoints), the failover strategy (jobmanager.execution.failover-strategy),
//! JobManager high availability (`high-availability.type`) with the retention of externalized
//! checkpoints (execution.checkpointing.externalized-checkpoint-retention), and the sink mode.
//! Times are logical steps: the simulation has no wall clock.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::mechanisms::handler_lab::Handler;

use super::dataflow::job_graph::JobGraph;
use super::error::ScenarioError;

/// The snapshot strategy of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Nothing is saved. On restore tasks start empty; sources follow [`RestartPolicy`].
    None,
    /// Each task saves its own state when its own timer fires, with no coordination.
    Timers,
    /// Checkpoint barriers with alignment: exactly-once (Flink's default).
    #[default]
    Aligned,
    /// Checkpoint barriers without alignment (Flink's CheckpointBarrierTracker): at-least-once.
    AtLeastOnce,
    /// Unaligned checkpoints: the first barrier overtakes, in-flight records are stored.
    Unaligned,
    /// Pause the sources, drain every channel, snapshot all, resume.
    StopTheWorld,
    /// Storm's XOR acker: every tuple acknowledged, failed trees replayed; no state saved.
    StormAcker,
    /// Spark Streaming: receivers store blocks (and a write-ahead log), the driver cuts
    /// micro-batches, state is rebuilt from lineage and checkpoints.
    SparkStreaming,
}

impl Strategy {
    pub const ALL: [Strategy; 8] = [
        Strategy::None,
        Strategy::Timers,
        Strategy::Aligned,
        Strategy::AtLeastOnce,
        Strategy::Unaligned,
        Strategy::StopTheWorld,
        Strategy::StormAcker,
        Strategy::SparkStreaming,
    ];
    /// Strategies run by the CheckpointCoordinator (checkpoint ids, acknowledgements).
    pub fn uses_coordinator(self) -> bool {
        matches!(self, Strategy::Aligned | Strategy::AtLeastOnce | Strategy::Unaligned | Strategy::StopTheWorld)
    }
    pub fn uses_barriers(self) -> bool {
        matches!(self, Strategy::Aligned | Strategy::AtLeastOnce | Strategy::Unaligned)
    }
    /// Whether a sink may write in `sink` mode under this strategy: a two-phase-commit sink commits
    /// when a checkpoint completes, so it needs a coordinator.
    pub fn allows_sink(self, sink: SinkMode) -> bool {
        match sink {
            SinkMode::TwoPhaseCommit => self.uses_coordinator(),
            SinkMode::Transactional => self == Strategy::SparkStreaming,
            _ => true,
        }
    }
    /// Whether `checkpoint-interval` applies: the coordinator triggers checkpoints every so many
    /// steps; Spark Streaming checkpoints its state every so many batches.
    pub fn takes_checkpoint_interval(self) -> bool {
        self.uses_coordinator() || self == Strategy::SparkStreaming
    }
    /// Whether `alignment-timeout` applies: only aligned checkpoints align.
    pub fn takes_alignment_timeout(self) -> bool {
        self == Strategy::Aligned
    }
    /// Whether the acker's settings apply (`message-timeout`, `ackers`, unanchored edges).
    pub fn takes_acker_settings(self) -> bool {
        self == Strategy::StormAcker
    }
    /// Whether the failover strategy applies: Storm runs every task in one worker, which restarts
    /// whole.
    pub fn takes_failover_strategy(self) -> bool {
        !matches!(self, Strategy::StormAcker | Strategy::SparkStreaming)
    }
    /// Whether [`HighAvailability`] and [`CheckpointRetention`] apply: only the JobManager's
    /// CheckpointCoordinator keeps completed checkpoints that a standby or a resubmission could
    /// restore (per-task timers save on their own; Storm's Nimbus holds no job state).
    pub fn takes_high_availability(self) -> bool {
        self.uses_coordinator()
    }
    /// Whether a source may be a socket: Storm's spout replays a failed tuple by reading its offset
    /// again, which a socket cannot do (a reliable spout on a socket would have to buffer every
    /// tuple until acked; not modelled).
    pub fn takes_socket(self) -> bool {
        self != Strategy::StormAcker
    }
    /// Whether `batch-interval` and `write-ahead-log` apply.
    pub fn takes_micro_batches(self) -> bool {
        self == Strategy::SparkStreaming
    }
    /// Whether the [`RestartPolicy`] applies: only when nothing is saved.
    pub fn takes_restart_policy(self) -> bool {
        self == Strategy::None
    }
    pub fn id(self) -> &'static str {
        match self {
            Strategy::None => "none",
            Strategy::Timers => "timers",
            Strategy::Aligned => "aligned",
            Strategy::AtLeastOnce => "at-least-once",
            Strategy::Unaligned => "unaligned",
            Strategy::StopTheWorld => "stop-the-world",
            Strategy::StormAcker => "storm-acker",
            Strategy::SparkStreaming => "spark-streaming",
        }
    }
    pub fn from_id(s: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|x| x.id() == s)
    }
}

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
}

impl SinkMode {
    pub const ALL: [SinkMode; 4] = [SinkMode::Append, SinkMode::Upsert, SinkMode::TwoPhaseCommit, SinkMode::Transactional];
    pub fn id(self) -> &'static str {
        match self {
            SinkMode::Append => "append",
            SinkMode::Upsert => "upsert",
            SinkMode::TwoPhaseCommit => "two-phase-commit",
            SinkMode::Transactional => "transactional",
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

/// One change a person makes to a run's settings (the app's selects and fields).
/// [`Settings::edited`] applies it with the rules that keep the other settings fitting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Another strategy. The other settings start again from their defaults, except the channel
    /// capacity, the sink (unless the new strategy does not allow it: then plain append) and the
    /// checkpoint interval (while the new strategy takes one).
    Strategy(Strategy),
    Sink(SinkMode),
    Restart(RestartPolicy),
    /// Steps between triggered checkpoints (None: by hand).
    CheckpointInterval(Option<u64>),
    /// Steps of alignment as the app counts them, 1 or more (see
    /// [`Settings::alignment_timeout_steps`]); None or 0: off.
    AlignmentTimeout(Option<u64>),
    /// Items (None: unbounded); more than [`MAX_CHANNEL_CAPACITY`] is taken as the limit.
    ChannelCapacity(Option<u64>),
    /// Consecutive checkpoint failures tolerated; more than [`MAX_STEPS_SETTING`] is taken as the
    /// limit.
    TolerableFailedCheckpoints(u64),
    Failover(FailoverStrategy),
    /// Storm's `topology.message.timeout.secs`, in steps (1 or more; more than
    /// [`MAX_STEPS_SETTING`] is taken as the limit).
    MessageTimeout(u64),
    /// Storm's `topology.acker.executors`: 0 turns tracking off, 1 is the one acker here.
    Ackers(u32),
    /// Anchor (true) or not the tuples a bolt emits on the `index`-th edge of the job.
    Anchoring { edge: u16, anchored: bool },
    HighAvailability(HighAvailability),
    Retention(CheckpointRetention),
    Source(SourceKind),
    /// Spark Streaming's batch interval in steps (1 or more).
    BatchInterval(u64),
    WriteAheadLog(bool),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Settings {
    #[serde(default)]
    pub strategy: Strategy,
    /// Strategy `none` only.
    #[serde(default)]
    pub restart: RestartPolicy,
    /// Strategy `timers` only: per task name. Tasks not listed fire only by hand.
    #[serde(default)]
    pub timers: BTreeMap<String, TimerSpec>,
    /// Trigger a checkpoint every this many steps (none: only by hand).
    #[serde(default)]
    pub checkpoint_interval: Option<u64>,
    /// A pending checkpoint older than this many steps expires.
    #[serde(default = "default_timeout")]
    pub checkpoint_timeout: u64,
    #[serde(default = "default_one")]
    pub max_concurrent_checkpoints: u32,
    #[serde(default = "default_one")]
    pub num_retained: u32,
    /// Strategy `aligned` only (Flink's `aligned-checkpoint-timeout`): a task still waiting for a
    /// checkpoint's barriers this many steps after the checkpoint was triggered takes it
    /// unaligned; 0 makes every checkpoint unaligned from the sources on.
    #[serde(default)]
    pub alignment_timeout: Option<u64>,
    /// Bounded channels: a task whose output channel holds this many items is backpressured.
    #[serde(default)]
    pub channel_capacity: Option<u32>,
    #[serde(default)]
    pub sink: SinkMode,
    /// Consecutive checkpoint failures the job tolerates; one more fails the job over (Flink's
    /// `execution.checkpointing.tolerable-failed-checkpoints`, default 0). Only the failures
    /// Flink's `CheckpointFailureManager` counts: here, expiry.
    #[serde(default)]
    pub tolerable_failed_checkpoints: u32,
    /// Which tasks restart when one task fails.
    #[serde(default)]
    pub failover_strategy: FailoverStrategy,
    /// Strategy `storm-acker`: steps before a tuple's tree that is not fully acked fails (Storm's
    /// `topology.message.timeout.secs`, default 30 seconds; the spout and the acker rotate their
    /// pending maps once per timeout, so a tuple fails between 1 and 2 timeouts after it was
    /// emitted). The default, 100 steps, is long enough that no built-in job's failure-free run
    /// times out (30 would: a second is far longer than a record's processing, a step is not).
    #[serde(default = "default_message_timeout")]
    pub message_timeout: u64,
    /// Strategy `storm-acker`: acker tasks (`topology.acker.executors`): 1, or 0 to turn tracking
    /// off (the spout acks every tuple as it emits it: at most once).
    #[serde(default = "default_one")]
    pub ackers: u32,
    /// Strategy `storm-acker`: edges ("From->To", operator names) whose tuples bolts emit
    /// unanchored: not tracked, never replayed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unanchored: Vec<String>,
    /// Checkpointing strategies: whether a standby JobManager takes over when the leader fails
    /// (`standby`, the simulator's default) or the job fails with its JobManager (`none`, Flink's
    /// default).
    #[serde(default)]
    pub high_availability: HighAvailability,
    /// Checkpointing strategies: whether a failed job leaves its completed checkpoints for a
    /// resubmission (matters with `high-availability: none`).
    #[serde(default)]
    pub externalized_checkpoint_retention: CheckpointRetention,
    /// What every source reads from.
    #[serde(default, skip_serializing_if = "is_default")]
    pub source: SourceKind,
    /// Strategy `spark-streaming`: the driver cuts a batch every this many steps.
    #[serde(default = "default_batch_interval", skip_serializing_if = "is_default_batch_interval")]
    pub batch_interval: u64,
    /// Strategy `spark-streaming`: receivers write every block to a write-ahead log
    /// (`spark.streaming.receiver.writeAheadLog.enable`, off by default as in Spark).
    #[serde(default, skip_serializing_if = "is_default")]
    pub write_ahead_log: bool,
    /// A barrier handler of the lab in place of strategy `aligned`'s (`"handler": {"first":
    /// "wait", "after": "process", "last": "snapshot", "in-flight": false}`): it runs on the
    /// aligned coordinator, one checkpoint at a time, without an alignment timeout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handler: Option<Handler>,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
fn default_batch_interval() -> u64 {
    4
}
fn is_default_batch_interval(n: &u64) -> bool {
    *n == default_batch_interval()
}

fn default_timeout() -> u64 {
    1000
}
fn default_one() -> u32 {
    1
}
fn default_message_timeout() -> u64 {
    100
}

impl Default for Settings {
    fn default() -> Self {
        Settings::new(Strategy::Aligned)
    }
}

impl Settings {
    pub fn new(strategy: Strategy) -> Settings {
        Settings {
            strategy,
            restart: RestartPolicy::default(),
            timers: BTreeMap::new(),
            checkpoint_interval: None,
            checkpoint_timeout: default_timeout(),
            max_concurrent_checkpoints: 1,
            num_retained: 1,
            alignment_timeout: None,
            channel_capacity: None,
            sink: SinkMode::Append,
            tolerable_failed_checkpoints: 0,
            failover_strategy: FailoverStrategy::Region,
            message_timeout: default_message_timeout(),
            ackers: 1,
            unanchored: vec![],
            high_availability: HighAvailability::default(),
            externalized_checkpoint_retention: CheckpointRetention::default(),
            source: SourceKind::ReplayableLog,
            batch_interval: default_batch_interval(),
            write_ahead_log: false,
            handler: None,
        }
    }

    /// Spark Streaming: the state RDD is checkpointed every this many batches
    /// (`checkpoint-interval`, 2 when unset).
    pub fn state_checkpoint_batches(&self) -> u64 {
        self.checkpoint_interval.unwrap_or(2)
    }

    pub fn with_sink(mut self, sink: SinkMode) -> Settings {
        self.sink = sink;
        self
    }

    /// These settings with one edit made. `graph` names the edges of [`Edit::Anchoring`].
    pub fn edited_for(&self, edit: Edit, graph: &JobGraph) -> Settings {
        match edit {
            Edit::Anchoring { edge, anchored } => {
                let mut s = self.clone();
                if let Some(e) = graph.spec.edges.get(edge as usize) {
                    let name = e.name();
                    s.unanchored.retain(|n| *n != name);
                    if !anchored {
                        s.unanchored.push(name);
                        crate::engine::stable_sort::sort_stable_by(&mut s.unanchored, |a, b| a.cmp(b));
                    }
                }
                s
            }
            other => self.edited(other),
        }
    }

    /// These settings with one edit made ([`Edit::Anchoring`] needs the graph: see
    /// [`Settings::edited_for`]).
    pub fn edited(&self, edit: Edit) -> Settings {
        let mut s = self.clone();
        match edit {
            Edit::Strategy(strategy) => {
                s = Settings::new(strategy);
                s.sink = if strategy.allows_sink(self.sink) { self.sink } else { SinkMode::Append };
                s.channel_capacity = self.channel_capacity;
                // Steps between checkpoints, or (Spark Streaming) batches between state checkpoints.
                if strategy.takes_checkpoint_interval() && strategy.uses_coordinator() == self.strategy.uses_coordinator() {
                    s.checkpoint_interval = self.checkpoint_interval;
                }
                s.failover_strategy = self.failover_strategy;
                if strategy.takes_socket() {
                    s.source = self.source;
                }
                if strategy.takes_high_availability() {
                    s.high_availability = self.high_availability;
                    s.externalized_checkpoint_retention = self.externalized_checkpoint_retention;
                }
            }
            Edit::Sink(sink) => s.sink = sink,
            Edit::Restart(restart) => s.restart = restart,
            Edit::CheckpointInterval(steps) => s.checkpoint_interval = steps,
            Edit::AlignmentTimeout(steps) => s.alignment_timeout = steps.and_then(|n| n.checked_sub(1)),
            Edit::ChannelCapacity(items) => {
                s.channel_capacity = items.map(|n| n.min(MAX_CHANNEL_CAPACITY as u64) as u32)
            }
            Edit::TolerableFailedCheckpoints(n) => s.tolerable_failed_checkpoints = n.min(MAX_STEPS_SETTING) as u32,
            Edit::Failover(f) => s.failover_strategy = f,
            Edit::MessageTimeout(n) => s.message_timeout = n.clamp(1, MAX_STEPS_SETTING),
            Edit::Ackers(n) => s.ackers = n.min(1),
            Edit::Anchoring { .. } => {}
            Edit::HighAvailability(ha) => s.high_availability = ha,
            Edit::Retention(r) => s.externalized_checkpoint_retention = r,
            Edit::Source(k) => s.source = k,
            Edit::BatchInterval(n) => s.batch_interval = n.clamp(1, MAX_STEPS_SETTING),
            Edit::WriteAheadLog(on) => s.write_ahead_log = on,
        }
        s
    }

    /// These settings for a run of another job: a job without a sink keeps no two-phase-commit
    /// sink mode (which would not fit if a later job has a sink and the strategy cannot commit).
    pub fn for_job(&self, has_sink: bool) -> Settings {
        let mut s = self.clone();
        if !has_sink && matches!(s.sink, SinkMode::TwoPhaseCommit | SinkMode::Transactional) {
            s.sink = SinkMode::Append;
        }
        s
    }

    /// The alignment timeout in the steps the app shows, counted from 1 (the setting counts from 0);
    /// [`Edit::AlignmentTimeout`] takes the same count.
    pub fn alignment_timeout_steps(&self) -> Option<u64> {
        self.alignment_timeout.map(|t| t + 1)
    }

    pub fn validate(&self, graph: &JobGraph) -> Result<(), ScenarioError> {
        let bad = |m: String| Err(ScenarioError::Settings(m));
        for (name, t) in &self.timers {
            if graph.task_by_name(name).is_none() {
                return bad(format!("timer for {name:?}: no task has that name"));
            }
            if t.phase > MAX_STEPS_SETTING || t.period > MAX_STEPS_SETTING {
                return bad(format!("timer for {name:?}: phase and period must be at most {MAX_STEPS_SETTING}"));
            }
        }
        if !self.timers.is_empty() && self.strategy != Strategy::Timers {
            return bad("timers are set but the strategy is not \"timers\"".into());
        }
        if let Some(i) = self.checkpoint_interval {
            if i == 0 || i > MAX_STEPS_SETTING {
                return bad(format!("checkpoint-interval must be 1 to {MAX_STEPS_SETTING} steps"));
            }
            if !self.strategy.takes_checkpoint_interval() {
                return bad(format!(
                    "checkpoint-interval needs a checkpointing strategy, not {:?}",
                    self.strategy.id()
                ));
            }
        }
        if self.checkpoint_timeout == 0 || self.checkpoint_timeout > MAX_STEPS_SETTING {
            return bad(format!("checkpoint-timeout must be 1 to {MAX_STEPS_SETTING} steps"));
        }
        if self.max_concurrent_checkpoints == 0 || self.max_concurrent_checkpoints > 16 {
            return bad("max-concurrent-checkpoints must be 1 to 16".into());
        }
        if self.num_retained == 0 || self.num_retained > 16 {
            return bad("num-retained must be 1 to 16".into());
        }
        if let Some(t) = self.alignment_timeout {
            if !self.strategy.takes_alignment_timeout() {
                return bad("alignment-timeout applies to the aligned strategy only".into());
            }
            if t > MAX_STEPS_SETTING {
                return bad(format!("alignment-timeout must be at most {MAX_STEPS_SETTING} steps"));
            }
        }
        // Flink accepts `execution.checkpointing.unaligned` with `max-concurrent-checkpoints` above
        // 1 but documents concurrent unaligned checkpoints as not supported (at run time a task
        // declines the older one as subsumed); the simulator refuses the combination. The alignment
        // timeout applies only with unaligned checkpoints enabled.
        if self.max_concurrent_checkpoints > 1
            && (self.strategy == Strategy::Unaligned || self.alignment_timeout.is_some())
        {
            return bad(
                "the simulator refuses max-concurrent-checkpoints above 1 with unaligned checkpoints (strategy unaligned, or an alignment-timeout): Flink accepts the setting, but documents concurrent unaligned checkpoints as not supported, and at run time a task declines the older checkpoint as subsumed (CHECKPOINT_DECLINED_SUBSUMED)".into(),
            );
        }
        if let Some(c) = self.channel_capacity {
            if c == 0 || c > MAX_CHANNEL_CAPACITY {
                return bad(format!("channel-capacity must be 1 to {MAX_CHANNEL_CAPACITY} items"));
            }
        }
        if self.tolerable_failed_checkpoints > 0 {
            if !self.strategy.uses_coordinator() {
                return bad(format!(
                    "tolerable-failed-checkpoints needs a checkpointing strategy, not {:?}",
                    self.strategy.id()
                ));
            }
            if self.tolerable_failed_checkpoints as u64 > MAX_STEPS_SETTING {
                return bad(format!("tolerable-failed-checkpoints must be at most {MAX_STEPS_SETTING}"));
            }
        }
        if self.source == SourceKind::Socket && !self.strategy.takes_socket() {
            return bad("source socket: Storm's spout replays a failed tuple by reading its offset again, which a socket cannot do; use a replayable-log source".into());
        }
        if !self.strategy.takes_micro_batches() && (self.write_ahead_log || self.batch_interval != default_batch_interval()) {
            return bad(format!("batch-interval and write-ahead-log belong to the spark-streaming strategy, not {:?}", self.strategy.id()));
        }
        if self.batch_interval == 0 || self.batch_interval > MAX_STEPS_SETTING {
            return bad(format!("batch-interval must be 1 to {MAX_STEPS_SETTING} steps"));
        }
        if self.message_timeout == 0 || self.message_timeout > MAX_STEPS_SETTING {
            return bad(format!("message-timeout must be 1 to {MAX_STEPS_SETTING} steps"));
        }
        if self.ackers > 1 {
            return bad("ackers must be 0 (tracking off) or 1: the simulator runs one acker".into());
        }
        if !self.strategy.takes_acker_settings() && (self.ackers != 1 || !self.unanchored.is_empty() || self.message_timeout != default_message_timeout()) {
            return bad(format!(
                "message-timeout, ackers and unanchored belong to the storm-acker strategy, not {:?}",
                self.strategy.id()
            ));
        }
        for name in &self.unanchored {
            let Some(e) = graph.spec.edges.iter().find(|e| e.name() == *name) else {
                return bad(format!(
                    "unanchored edge {name:?}: the job has no such edge; its edges are {}",
                    graph.spec.edges.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ")
                ));
            };
            if graph.spec.operators.iter().any(|o| o.name == e.from && o.kind == super::dataflow::job_graph::OperatorKind::Source) {
                return bad(format!(
                    "unanchored edge {name:?}: a spout's tuples are anchored by their message id; turn acking off (ackers 0) to emit untracked"
                ));
            }
        }
        if !self.strategy.takes_high_availability()
            && (self.high_availability != HighAvailability::default()
                || self.externalized_checkpoint_retention != CheckpointRetention::default())
        {
            return bad(format!(
                "high-availability and externalized-checkpoint-retention concern the checkpoints the JobManager keeps, so they need a checkpointing strategy (aligned, at-least-once, unaligned or stop-the-world), not {:?}; leave them out (standby, no-externalized-checkpoints)",
                self.strategy.id()
            ));
        }
        if graph.has_sink() && self.sink == SinkMode::Transactional && !self.strategy.allows_sink(self.sink) {
            return bad(format!("a transactional sink commits a batch keyed by (batch time, partition): it needs the spark-streaming strategy, not {:?}", self.strategy.id()));
        }
        if graph.has_sink() && !self.strategy.allows_sink(self.sink) {
            return bad(format!(
                "a two-phase-commit sink commits when a checkpoint completes, so it needs a checkpointing strategy (aligned, at-least-once, unaligned or stop-the-world), not {:?}",
                self.strategy.id()
            ));
        }
        if let Some(h) = &self.handler {
            if let Err(why) = h.check() {
                return bad(format!("handler: {why}"));
            }
            if self.strategy != Strategy::Aligned || self.max_concurrent_checkpoints != 1 || self.alignment_timeout.is_some() {
                return bad(format!(
                    "handler: a barrier handler of the lab runs on strategy aligned's coordinator, one checkpoint at a time, without an alignment timeout, not on {:?}{}{}",
                    self.strategy.id(),
                    if self.max_concurrent_checkpoints != 1 { " with several concurrent checkpoints" } else { "" },
                    if self.alignment_timeout.is_some() { " with an alignment timeout" } else { "" }
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin;

    fn graph(job: &str) -> JobGraph {
        let b = builtin(job).unwrap();
        JobGraph::build(&b.spec, &b.input).unwrap()
    }

    #[test]
    fn tolerable_failures_and_the_failover_strategy_are_edited_and_fit() {
        let s = Settings::new(Strategy::Aligned)
            .edited(Edit::TolerableFailedCheckpoints(3))
            .edited(Edit::Failover(FailoverStrategy::Full));
        assert_eq!((s.tolerable_failed_checkpoints, s.failover_strategy), (3, FailoverStrategy::Full));
        assert_eq!(s.validate(&graph("line")), Ok(()));
        let t = s.edited(Edit::Strategy(Strategy::Timers));
        assert_eq!(t.tolerable_failed_checkpoints, 0, "only a checkpointing strategy counts failures");
        assert_eq!(t.failover_strategy, FailoverStrategy::Full, "the failover strategy is kept");
        assert_eq!(t.validate(&graph("line")), Ok(()));
    }

    #[test]
    fn a_strategy_without_a_coordinator_drops_two_phase_commit_and_the_interval() {
        let mut s = Settings::new(Strategy::Aligned).with_sink(SinkMode::TwoPhaseCommit);
        s.checkpoint_interval = Some(4);
        s.channel_capacity = Some(3);
        s.alignment_timeout = Some(2);
        for strategy in [Strategy::None, Strategy::Timers] {
            let t = s.edited(Edit::Strategy(strategy));
            assert_eq!(t.strategy, strategy);
            assert_eq!(t.sink, SinkMode::Append);
            assert_eq!(t.checkpoint_interval, None);
            assert_eq!(t.channel_capacity, Some(3), "the capacity is kept");
            assert_eq!(t.alignment_timeout, None);
            assert_eq!(t.validate(&graph("line-sink")), Ok(()));
        }
        let t = s.edited(Edit::Strategy(Strategy::Unaligned));
        assert_eq!((t.sink, t.checkpoint_interval, t.alignment_timeout), (SinkMode::TwoPhaseCommit, Some(4), None));
        assert_eq!(t.validate(&graph("line-sink")), Ok(()));
    }

    #[test]
    fn every_strategy_edit_of_a_valid_setting_stays_valid() {
        let g = graph("keyed-shuffle");
        for from in Strategy::ALL {
            for sink in SinkMode::ALL.into_iter().filter(|k| from.allows_sink(*k)) {
                let s = Settings::new(from)
                    .with_sink(sink)
                    .edited(Edit::CheckpointInterval(from.takes_checkpoint_interval().then_some(5)));
                assert_eq!(s.validate(&g), Ok(()), "{from:?} {sink:?}");
                for to in Strategy::ALL {
                    assert_eq!(s.edited(Edit::Strategy(to)).validate(&g), Ok(()), "{from:?} {sink:?} -> {to:?}");
                }
            }
        }
    }

    #[test]
    fn only_checkpointing_strategies_allow_two_phase_commit() {
        for s in Strategy::ALL {
            assert_eq!(s.allows_sink(SinkMode::TwoPhaseCommit), s.uses_coordinator(), "{s:?}");
            assert!(s.allows_sink(SinkMode::Append) && s.allows_sink(SinkMode::Upsert));
            let bad = Settings::new(s).with_sink(SinkMode::TwoPhaseCommit);
            assert_eq!(bad.validate(&graph("line-sink")).is_ok(), s.allows_sink(SinkMode::TwoPhaseCommit));
            assert_eq!(bad.validate(&graph("line")), Ok(()), "no sink, nothing to commit");
        }
    }

    #[test]
    fn a_job_without_a_sink_keeps_no_two_phase_commit() {
        let s = Settings::new(Strategy::Aligned).with_sink(SinkMode::TwoPhaseCommit);
        assert_eq!(s.for_job(true).sink, SinkMode::TwoPhaseCommit);
        assert_eq!(s.for_job(false).sink, SinkMode::Append);
        let upsert = Settings::new(Strategy::Aligned).with_sink(SinkMode::Upsert);
        assert_eq!(upsert.for_job(false).sink, SinkMode::Upsert);
    }

    #[test]
    fn the_channel_capacity_is_held_to_its_limit() {
        let s = Settings::default();
        assert_eq!(s.edited(Edit::ChannelCapacity(Some(7))).channel_capacity, Some(7));
        assert_eq!(s.edited(Edit::ChannelCapacity(Some(u64::MAX))).channel_capacity, Some(MAX_CHANNEL_CAPACITY));
        assert_eq!(s.edited(Edit::ChannelCapacity(None)).channel_capacity, None);
        assert_eq!(s.edited(Edit::ChannelCapacity(Some(1 << 40))).validate(&graph("line")), Ok(()));
        let mut over = s.clone();
        over.channel_capacity = Some(MAX_CHANNEL_CAPACITY + 1);
        assert!(over.validate(&graph("line")).is_err());
    }

    #[test]
    fn the_alignment_timeout_is_shown_counted_from_one() {
        let s = Settings::new(Strategy::Aligned);
        assert_eq!(s.alignment_timeout_steps(), None);
        let t = s.edited(Edit::AlignmentTimeout(Some(3)));
        assert_eq!(t.alignment_timeout, Some(2));
        assert_eq!(t.alignment_timeout_steps(), Some(3));
        assert_eq!(s.edited(Edit::AlignmentTimeout(Some(1))).alignment_timeout, Some(0));
        assert_eq!(s.edited(Edit::AlignmentTimeout(Some(0))).alignment_timeout, None);
        assert_eq!(t.edited(Edit::AlignmentTimeout(None)).alignment_timeout, None);
        assert!(!Strategy::Unaligned.takes_alignment_timeout());
    }

    #[test]
    fn plain_edits_set_one_field() {
        let s = Settings::new(Strategy::None);
        assert_eq!(s.edited(Edit::Restart(RestartPolicy::FromLatest)).restart, RestartPolicy::FromLatest);
        assert_eq!(s.edited(Edit::Sink(SinkMode::Upsert)).sink, SinkMode::Upsert);
        let a = Settings::new(Strategy::Aligned).edited(Edit::CheckpointInterval(Some(9)));
        assert_eq!(a.checkpoint_interval, Some(9));
        assert_eq!(a.edited(Edit::CheckpointInterval(None)).checkpoint_interval, None);
        assert!(Strategy::None.takes_restart_policy() && !Strategy::Aligned.takes_restart_policy());
    }

    #[test]
    fn high_availability_and_retention_belong_to_checkpointing_strategies() {
        let s = Settings::new(Strategy::Aligned)
            .edited(Edit::HighAvailability(HighAvailability::None))
            .edited(Edit::Retention(CheckpointRetention::RetainOnCancellation));
        assert_eq!(s.high_availability, HighAvailability::None);
        assert_eq!(s.externalized_checkpoint_retention, CheckpointRetention::RetainOnCancellation);
        assert_eq!(s.validate(&graph("line")), Ok(()));
        for to in Strategy::ALL {
            let t = s.edited(Edit::Strategy(to));
            assert_eq!(t.validate(&graph("line")), Ok(()), "{to:?}");
            assert_eq!(t.high_availability == HighAvailability::None, to.takes_high_availability(), "{to:?}");
        }
        for strategy in Strategy::ALL.into_iter().filter(|s| !s.takes_high_availability()) {
            let mut bad = Settings::new(strategy);
            bad.high_availability = HighAvailability::None;
            let e = bad.validate(&graph("line")).unwrap_err().to_string();
            assert!(e.contains("high-availability") && e.contains(strategy.id()), "{e}");
            let mut bad = Settings::new(strategy);
            bad.externalized_checkpoint_retention = CheckpointRetention::DeleteOnCancellation;
            assert!(bad.validate(&graph("line")).is_err(), "{strategy:?}");
        }
    }

    #[test]
    fn the_ha_settings_read_and_write_in_kebab_case_with_defaults() {
        let s: Settings = serde_json::from_str(
            r#"{"high-availability": "none", "externalized-checkpoint-retention": "delete-on-cancellation"}"#,
        )
        .unwrap();
        assert_eq!(s.high_availability, HighAvailability::None);
        assert_eq!(s.externalized_checkpoint_retention, CheckpointRetention::DeleteOnCancellation);
        let back: Settings = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
        let d: Settings = serde_json::from_str("{}").unwrap();
        assert_eq!((d.high_availability, d.externalized_checkpoint_retention), (HighAvailability::Standby, CheckpointRetention::NoExternalizedCheckpoints));
        assert!(serde_json::from_str::<Settings>(r#"{"high-availability": "zookeeper"}"#).is_err());
        for r in CheckpointRetention::ALL {
            assert_eq!(CheckpointRetention::from_id(r.id()), Some(r));
            assert_eq!(serde_json::to_value(r).unwrap(), r.id());
        }
        for h in HighAvailability::ALL {
            assert_eq!(HighAvailability::from_id(h.id()), Some(h));
            assert_eq!(serde_json::to_value(h).unwrap(), h.id());
        }
    }
}
