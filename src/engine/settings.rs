//! How a run saves state and recovers: the snapshot strategy and the CheckpointCoordinator's
//! settings, named after Flink's configuration keys (execution.checkpointing.interval, timeout,
//! max-concurrent-checkpoints, num-retained, aligned-checkpoint-timeout,
//! tolerable-failed-checkpoints), the failover strategy (jobmanager.execution.failover-strategy),
//! and the sink mode. Times are logical steps: the simulation has no wall clock.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
}

impl Strategy {
    pub const ALL: [Strategy; 6] = [
        Strategy::None,
        Strategy::Timers,
        Strategy::Aligned,
        Strategy::AtLeastOnce,
        Strategy::Unaligned,
        Strategy::StopTheWorld,
    ];
    /// Strategies run by the CheckpointCoordinator (checkpoint ids, acknowledgements).
    pub fn uses_coordinator(self) -> bool {
        matches!(self, Strategy::Aligned | Strategy::AtLeastOnce | Strategy::Unaligned | Strategy::StopTheWorld)
    }
    pub fn uses_barriers(self) -> bool {
        matches!(self, Strategy::Aligned | Strategy::AtLeastOnce | Strategy::Unaligned)
    }
    pub fn id(self) -> &'static str {
        match self {
            Strategy::None => "none",
            Strategy::Timers => "timers",
            Strategy::Aligned => "aligned",
            Strategy::AtLeastOnce => "at-least-once",
            Strategy::Unaligned => "unaligned",
            Strategy::StopTheWorld => "stop-the-world",
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
}

impl SinkMode {
    pub const ALL: [SinkMode; 3] = [SinkMode::Append, SinkMode::Upsert, SinkMode::TwoPhaseCommit];
    pub fn id(self) -> &'static str {
        match self {
            SinkMode::Append => "append",
            SinkMode::Upsert => "upsert",
            SinkMode::TwoPhaseCommit => "two-phase-commit",
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
}

fn default_timeout() -> u64 {
    1000
}
fn default_one() -> u32 {
    1
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
        }
    }

    pub fn with_sink(mut self, sink: SinkMode) -> Settings {
        self.sink = sink;
        self
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
            if !self.strategy.uses_coordinator() {
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
            if self.strategy != Strategy::Aligned {
                return bad("alignment-timeout applies to the aligned strategy only".into());
            }
            if t > MAX_STEPS_SETTING {
                return bad(format!("alignment-timeout must be at most {MAX_STEPS_SETTING} steps"));
            }
        }
        // Flink's `execution.checkpointing.unaligned` needs `max-concurrent-checkpoints` 1, and the
        // alignment timeout applies only with unaligned checkpoints enabled.
        if self.max_concurrent_checkpoints > 1
            && (self.strategy == Strategy::Unaligned || self.alignment_timeout.is_some())
        {
            return bad(
                "unaligned checkpoints (strategy unaligned, or an alignment-timeout) need max-concurrent-checkpoints 1, as in Flink".into(),
            );
        }
        if let Some(c) = self.channel_capacity {
            if c == 0 || c > 100_000 {
                return bad("channel-capacity must be 1 to 100000 items".into());
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
        if self.sink == SinkMode::TwoPhaseCommit && graph.has_sink() && !self.strategy.uses_coordinator() {
            return bad(format!(
                "a two-phase-commit sink commits when a checkpoint completes, so it needs a checkpointing strategy (aligned, at-least-once, unaligned or stop-the-world), not {:?}",
                self.strategy.id()
            ));
        }
        Ok(())
    }
}
