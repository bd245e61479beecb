//! Which settings fit together and with the job: [`Settings::validate`], the refusals a scenario
//! file, a saved run or a link meets before a run starts (Flink refuses a bad configuration at
//! submission in the same way).

use super::Settings;
use super::{
    CheckpointRetention, HighAvailability, Setting, SinkMode, Strategy, MAX_CHANNEL_CAPACITY, MAX_RECORD_COST,
    MAX_STEPS_SETTING,
};
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::error::ScenarioError;
use crate::engine::settings::kafka::TimeoutWarning;

impl Settings {
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
            if !self.strategy.takes(Setting::CheckpointInterval) {
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
            if !self.strategy.takes(Setting::AlignmentTimeout) {
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
        for (channel, items) in &self.channel_capacities {
            if graph.channel_by_name(channel).is_none() {
                let names: Vec<&str> = graph.channels.iter().map(|c| c.name.as_str()).collect();
                return bad(format!(
                    "channel-capacities names channel {channel:?}, which the job does not have (it has {})",
                    names.join(", ")
                ));
            }
            if *items == 0 || *items > MAX_CHANNEL_CAPACITY {
                return bad(format!("channel-capacities of {channel} must be 1 to {MAX_CHANNEL_CAPACITY} items"));
            }
        }
        for (task, steps) in &self.record_cost {
            if graph.task_by_name(task).is_none() {
                let names: Vec<&str> = graph.tasks.iter().map(|t| t.name.as_str()).collect();
                return bad(format!(
                    "record-cost names task {task:?}, which the job does not have (it has {})",
                    names.join(", ")
                ));
            }
            if *steps < 2 || *steps > MAX_RECORD_COST {
                return bad(format!(
                    "record-cost of {task} must be 2 to {MAX_RECORD_COST} steps (a task not listed takes 1)"
                ));
            }
        }
        if let Some(t) = self.buffer_debloat_target {
            if t == 0 || t as u64 > MAX_STEPS_SETTING {
                return bad(format!("buffer-debloat-target must be 1 to {MAX_STEPS_SETTING} steps"));
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
        // Each mechanism's own settings, by its rules (Storm's acker's, Spark Streaming's).
        for strategy in Strategy::ALL {
            (strategy.row().check_settings)(self, graph).map_err(ScenarioError::Settings)?;
        }
        if !self.strategy.takes(Setting::HighAvailability)
            && (self.high_availability != HighAvailability::default()
                || self.externalized_checkpoint_retention != CheckpointRetention::default())
        {
            return bad(format!(
                "high-availability and externalized-checkpoint-retention concern the checkpoints the JobManager keeps, so they need a checkpointing strategy (aligned, at-least-once, unaligned or stop-the-world), not {:?}; leave them out (standby, no-externalized-checkpoints)",
                self.strategy.id()
            ));
        }
        if graph.has_sink() && self.sink == SinkMode::Transactional && !self.strategy.allows_sink(self.sink) {
            let batches = Strategy::ALL.into_iter().find(|s| s.row().transactional_sink).map_or("", |s| s.id());
            return bad(format!(
                "a transactional sink commits a batch keyed by (batch time, partition): it needs the {batches} strategy, not {:?}",
                self.strategy.id()
            ));
        }
        if graph.has_sink() && !self.strategy.allows_sink(self.sink) {
            return bad(format!(
                "a {} sink commits when a checkpoint completes, so it needs a checkpointing strategy (aligned, at-least-once, unaligned or stop-the-world), not {:?}",
                self.sink.id(),
                self.strategy.id()
            ));
        }
        if self.kafka.is_some() && self.sink != SinkMode::Kafka {
            return bad(format!("kafka: these settings are the Kafka sink's, and the sink is {:?}", self.sink.id()));
        }
        if self.sink == SinkMode::Kafka {
            self.kafka().check().map_err(ScenarioError::Settings)?;
        }
        if let Some(h) = &self.handler {
            if let Err(why) = h.check() {
                return bad(format!("handler: {why}"));
            }
            if self.strategy != Strategy::Aligned
                || self.max_concurrent_checkpoints != 1
                || self.alignment_timeout.is_some()
            {
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

impl Settings {
    /// The settings' warning (not a refusal: Flink starts such a job) when a Kafka sink under
    /// exactly-once breaks the timeout rule by its checkpoint interval alone: a transaction opened
    /// just after a checkpoint is committed no earlier than the next checkpoint's completion, at
    /// least `checkpoint-interval` steps later, before any restart adds its down time.
    pub fn kafka_warning(&self) -> Option<TimeoutWarning> {
        if self.sink != SinkMode::Kafka {
            return None;
        }
        self.kafka().timeout_rule(self.checkpoint_interval?)
    }
}
