//! How a run saves state and recovers: the snapshot strategy and the CheckpointCoordinator's
//! settings, named after Flink's configuration keys (execution.checkpointing.interval, timeout,
//! max-concurrent-checkpoints, num-retained, aligned-checkpoint-timeout,
//! tolerable-failed-checkpoints), the failover strategy (jobmanager.execution.failover-strategy),
//! JobManager high availability (`high-availability.type`) with the retention of externalized
//! checkpoints (execution.checkpointing.externalized-checkpoint-retention), and the sink mode.
//! Times are logical steps: the simulation has no wall clock.
//!
//! This file holds [`Settings`] and the [`Edit`]s the app makes to them; the strategies'
//! catalogue is in `strategy.rs`, the other settings' kinds in `options.rs`, and
//! [`Settings::validate`] in `validation.rs`.

pub mod handler;
pub mod kafka;
pub mod options;
pub mod strategy;
mod validation;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::settings::handler::Handler;

use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::mechanisms::catalogue::carried::{MechanismEdit, MechanismSettings};

pub use options::{
    CheckpointRetention, FailoverStrategy, HighAvailability, RestartPolicy, SinkMode, SourceKind, TimerSpec,
    MAX_CHANNEL_CAPACITY, MAX_RECORD_COST, MAX_STEPS_SETTING,
};
pub use strategy::{Setting, Strategy};

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
    /// Items (None: unbounded); more than [`MAX_CHANNEL_CAPACITY`] is taken as the limit. It bounds
    /// the channels `channel-capacities` names when it names some, else every channel.
    ChannelCapacity(Option<u64>),
    /// Which channels the capacity bounds: channel `c` (its index in the job graph) alone, or
    /// None for every channel; the capacity stays. Only [`Settings::edited_for`] makes it: the
    /// setting names the channel.
    BoundedChannel(Option<u16>),
    /// Task `task` (its index in the job graph) becomes the slow one, at the steps a record the
    /// slow task had (4 if none was slow); None: no task is slow. Only [`Settings::edited_for`]
    /// makes it: the setting names the task.
    SlowTask(Option<u16>),
    /// The slow tasks take this many steps a record (at most [`MAX_RECORD_COST`]); None or 1:
    /// no task is slow.
    RecordCost(Option<u64>),
    /// Buffer debloating's target in steps (None: off); more than [`MAX_STEPS_SETTING`] is taken
    /// as the limit.
    BufferDebloatTarget(Option<u64>),
    /// Consecutive checkpoint failures tolerated; more than [`MAX_STEPS_SETTING`] is taken as the
    /// limit.
    TolerableFailedCheckpoints(u64),
    Failover(FailoverStrategy),
    HighAvailability(HighAvailability),
    Retention(CheckpointRetention),
    Source(SourceKind),
    /// A change to a mechanism's own settings (made from the mechanism's edit with `Edit::from`).
    Mechanism(MechanismEdit),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
    /// Bounded channels one by one, per channel name (`"Map->Count"`, `"Source[0]->Count[1]"`):
    /// each overrides `channel_capacity` for its channel.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub channel_capacities: BTreeMap<String, u32>,
    /// Slow tasks, per task name: the steps one record (or one read) keeps the task busy, 2 or
    /// more (a task not listed takes 1, as every task did before). See `core::dataflow::slow_tasks`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub record_cost: BTreeMap<String, u32>,
    /// Buffer debloating (Flink's `taskmanager.network.memory.buffer-debloat.enabled` with its
    /// `.target`, FLIP-183): each task's input channels hold what it takes in this many steps. See
    /// `core::dataflow::buffer_debloat`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_debloat_target: Option<u32>,
    #[serde(default)]
    pub sink: SinkMode,
    /// The Kafka sink's settings (`sink: kafka` only): its delivery guarantee, the transaction
    /// timeouts and the broker's milliseconds per step (`settings/kafka.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kafka: Option<kafka::KafkaSettings>,
    /// Consecutive checkpoint failures the job tolerates; one more fails the job over (Flink's
    /// `execution.checkpointing.tolerable-failed-checkpoints`, default 0). Only the failures
    /// Flink's `CheckpointFailureManager` counts: here, expiry.
    #[serde(default)]
    pub tolerable_failed_checkpoints: u32,
    /// Which tasks restart when one task fails.
    #[serde(default)]
    pub failover_strategy: FailoverStrategy,
    /// The mechanisms' own settings (Storm's acker's, Spark Streaming's), written flat beside
    /// these keys; each mechanism's folder says what they mean.
    #[serde(flatten)]
    pub mechanism: MechanismSettings,
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
    /// A barrier handler of the lab in place of strategy `aligned`'s (`"handler": {"first":
    /// "wait", "after": "process", "last": "snapshot", "in-flight": false}`): it runs on the
    /// aligned coordinator, one checkpoint at a time, without an alignment timeout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handler: Option<Handler>,
    /// Any other key is refused, by name, with the keys there are ([`NoOtherKeys`]; serde's own
    /// refusal, `deny_unknown_fields`, cannot list them beside a flattened field).
    #[serde(flatten, skip_serializing)]
    pub no_other_keys: NoOtherKeys,
}

/// Every key a settings object may have: the ones above, then the mechanisms' own.
pub const KEYS: [&str; 27] = {
    let m = crate::engine::mechanisms::catalogue::carried::KEYS;
    [
        "strategy",
        "restart",
        "timers",
        "checkpoint-interval",
        "checkpoint-timeout",
        "max-concurrent-checkpoints",
        "num-retained",
        "alignment-timeout",
        "channel-capacity",
        "channel-capacities",
        "record-cost",
        "buffer-debloat-target",
        "sink",
        "kafka",
        "tolerable-failed-checkpoints",
        "failover-strategy",
        "high-availability",
        "externalized-checkpoint-retention",
        "source",
        "handler",
        m[0],
        m[1],
        m[2],
        m[3],
        m[4],
        m[5],
        m[6],
    ]
};

/// Read last from a settings object, after its own fields and the mechanisms' have taken their
/// keys: a key still there is no one's, and is refused as serde refuses one (`unknown field
/// `acker`, expected one of ...`), with every key of [`KEYS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoOtherKeys;

impl<'de> Deserialize<'de> for NoOtherKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Rest;
        impl<'de> serde::de::Visitor<'de> for Rest {
            type Value = NoOtherKeys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("no other key")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<NoOtherKeys, A::Error> {
                match map.next_key::<String>()? {
                    Some(key) => Err(serde::de::Error::unknown_field(&key, &KEYS)),
                    None => Ok(NoOtherKeys),
                }
            }
        }
        d.deserialize_map(Rest)
    }
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// The steps a record a task takes when it is made the slow one (and no task was slow).
pub const DEFAULT_SLOW_COST: u32 = 4;

/// The items a channel holds when it is bounded alone and no capacity was set.
pub const DEFAULT_CHANNEL_CAPACITY: u32 = 2;

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
            channel_capacities: BTreeMap::new(),
            record_cost: BTreeMap::new(),
            buffer_debloat_target: None,
            sink: SinkMode::Append,
            kafka: None,
            tolerable_failed_checkpoints: 0,
            failover_strategy: FailoverStrategy::Region,
            mechanism: MechanismSettings::default(),
            high_availability: HighAvailability::default(),
            externalized_checkpoint_retention: CheckpointRetention::default(),
            source: SourceKind::ReplayableLog,
            handler: None,
            no_other_keys: NoOtherKeys,
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

    /// The Kafka sink's settings as a run reads them: the ones given, or the defaults.
    pub fn kafka(&self) -> kafka::KafkaSettings {
        self.kafka.unwrap_or_default()
    }

    /// These settings with one edit made. `graph` names the edges an edit of a mechanism's own
    /// settings may name (Storm's anchoring).
    pub fn edited_for(&self, edit: Edit, graph: &JobGraph) -> Settings {
        match edit {
            Edit::Mechanism(e) => {
                let mut s = self.clone();
                s.mechanism.edit(e, Some(graph));
                s.sink = s.mechanism.structured.sink_mode(s.sink);
                s
            }
            Edit::SlowTask(task) => {
                let mut s = self.clone();
                let steps = self.record_cost.values().next().copied().unwrap_or(DEFAULT_SLOW_COST);
                s.record_cost.clear();
                if let Some(t) = task.and_then(|t| graph.tasks.get(t as usize)) {
                    s.record_cost.insert(t.name.clone(), steps);
                }
                s
            }
            Edit::BoundedChannel(channel) => {
                let mut s = self.clone();
                let items = self.channel_capacities.values().next().copied().or(self.channel_capacity);
                s.channel_capacities.clear();
                match channel.and_then(|c| graph.channels.get(c as usize)) {
                    Some(c) => {
                        s.channel_capacity = None;
                        s.channel_capacities.insert(c.name.clone(), items.unwrap_or(DEFAULT_CHANNEL_CAPACITY));
                    }
                    None => s.channel_capacity = items,
                }
                s
            }
            other => self.edited(other),
        }
    }

    /// These settings with one edit made (an edit that names an edge of the job needs the graph:
    /// see [`Settings::edited_for`]).
    pub fn edited(&self, edit: Edit) -> Settings {
        let mut s = self.clone();
        match edit {
            Edit::Strategy(strategy) => {
                s = Settings::new(strategy);
                s.sink = if strategy.allows_sink(self.sink) { self.sink } else { SinkMode::Append };
                s.kafka = if s.sink == SinkMode::Kafka { self.kafka } else { None };
                s.channel_capacity = self.channel_capacity;
                s.channel_capacities = self.channel_capacities.clone();
                s.record_cost = self.record_cost.clone();
                s.buffer_debloat_target = self.buffer_debloat_target;
                // Steps between checkpoints, or (Spark Streaming) batches between state checkpoints.
                if strategy.takes(Setting::CheckpointInterval)
                    && strategy.uses_coordinator() == self.strategy.uses_coordinator()
                {
                    s.checkpoint_interval = self.checkpoint_interval;
                }
                s.failover_strategy = self.failover_strategy;
                if strategy.takes(Setting::Socket) {
                    s.source = self.source;
                }
                if strategy.takes(Setting::HighAvailability) {
                    s.high_availability = self.high_availability;
                    s.externalized_checkpoint_retention = self.externalized_checkpoint_retention;
                }
            }
            // Structured Streaming's output sink and the sink mode go together: an edit of either
            // keeps the other in step.
            Edit::Sink(sink) => {
                s.sink = sink;
                s.mechanism.structured.fit_sink(sink);
            }
            Edit::Restart(restart) => s.restart = restart,
            Edit::CheckpointInterval(steps) => s.checkpoint_interval = steps,
            Edit::AlignmentTimeout(steps) => s.alignment_timeout = steps.and_then(|n| n.checked_sub(1)),
            Edit::ChannelCapacity(items) => {
                let items = items.map(|n| n.min(MAX_CHANNEL_CAPACITY as u64) as u32);
                match items {
                    Some(n) if !s.channel_capacities.is_empty() => {
                        s.channel_capacities.values_mut().for_each(|c| *c = n)
                    }
                    _ => {
                        s.channel_capacities.clear();
                        s.channel_capacity = items;
                    }
                }
            }
            Edit::BufferDebloatTarget(steps) => {
                s.buffer_debloat_target = steps.filter(|n| *n > 0).map(|n| n.min(MAX_STEPS_SETTING) as u32)
            }
            Edit::TolerableFailedCheckpoints(n) => s.tolerable_failed_checkpoints = n.min(MAX_STEPS_SETTING) as u32,
            Edit::Failover(f) => s.failover_strategy = f,
            Edit::HighAvailability(ha) => s.high_availability = ha,
            Edit::Retention(r) => s.externalized_checkpoint_retention = r,
            Edit::Source(k) => s.source = k,
            Edit::Mechanism(e) => {
                s.mechanism.edit(e, None);
                s.sink = s.mechanism.structured.sink_mode(s.sink);
            }
            // They name a task or a channel of the graph: `edited_for` makes them.
            Edit::SlowTask(_) | Edit::BoundedChannel(_) => {}
            Edit::RecordCost(steps) => match steps.filter(|n| *n > 1) {
                Some(n) => s.record_cost.values_mut().for_each(|c| *c = n.min(MAX_RECORD_COST as u64) as u32),
                None => s.record_cost.clear(),
            },
        }
        s
    }

    /// These settings for a run of another job: a job without a sink keeps no two-phase-commit
    /// sink mode (which would not fit if a later job has a sink and the strategy cannot commit).
    pub fn for_job(&self, has_sink: bool) -> Settings {
        let mut s = self.clone();
        if !has_sink && matches!(s.sink, SinkMode::TwoPhaseCommit | SinkMode::Transactional | SinkMode::Kafka) {
            s.sink = SinkMode::Append;
            s.kafka = None;
        }
        s
    }

    /// The alignment timeout in the steps the app shows, counted from 1 (the setting counts from 0);
    /// [`Edit::AlignmentTimeout`] takes the same count.
    pub fn alignment_timeout_steps(&self) -> Option<u64> {
        self.alignment_timeout.map(|t| t + 1)
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
                let mut s = Settings::new(from)
                    .with_sink(sink)
                    .edited(Edit::CheckpointInterval(from.takes(Setting::CheckpointInterval).then_some(5)));
                if sink == SinkMode::Kafka {
                    // Within the broker's maximum (the builder's default is not).
                    s.kafka = Some(kafka::KafkaSettings { transaction_timeout_ms: 900_000, ..Default::default() });
                }
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
        assert!(!Strategy::Unaligned.takes(Setting::AlignmentTimeout));
    }

    #[test]
    fn plain_edits_set_one_field() {
        let s = Settings::new(Strategy::None);
        assert_eq!(s.edited(Edit::Restart(RestartPolicy::FromLatest)).restart, RestartPolicy::FromLatest);
        assert_eq!(s.edited(Edit::Sink(SinkMode::Upsert)).sink, SinkMode::Upsert);
        let a = Settings::new(Strategy::Aligned).edited(Edit::CheckpointInterval(Some(9)));
        assert_eq!(a.checkpoint_interval, Some(9));
        assert_eq!(a.edited(Edit::CheckpointInterval(None)).checkpoint_interval, None);
        assert!(Strategy::None.takes(Setting::RestartPolicy) && !Strategy::Aligned.takes(Setting::RestartPolicy));
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
            assert_eq!(t.high_availability == HighAvailability::None, to.takes(Setting::HighAvailability), "{to:?}");
        }
        for strategy in Strategy::ALL.into_iter().filter(|s| !s.takes(Setting::HighAvailability)) {
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
        assert_eq!(
            (d.high_availability, d.externalized_checkpoint_retention),
            (HighAvailability::Standby, CheckpointRetention::NoExternalizedCheckpoints)
        );
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
