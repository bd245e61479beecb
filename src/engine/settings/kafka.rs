//! The Kafka sink's settings, after flink-connector-kafka's `KafkaSinkBuilder` and Kafka's
//! configuration: the `DeliveryGuarantee`, the producer's `transaction.timeout.ms` and the
//! broker's `transaction.max.timeout.ms`, and how many of the broker's milliseconds one step of
//! the simulation takes (the broker's clock is the one thing here that runs on time, not steps).
//!
//! Defaults are the systems' own: `KafkaSinkBuilder` sets `transaction.timeout.ms` to one hour
//! (`DEFAULT_KAFKA_TRANSACTION_TIMEOUT`; the Kafka producer's own default is 60,000 ms), and the
//! broker caps it at 15 minutes (`transaction.max.timeout.ms`, 900,000 ms). A producer asking for
//! more than the cap is refused at `initTransactions` (`InvalidTransactionTimeoutException`), so
//! an exactly-once Kafka sink with both defaults does not start: the settings refuse it, as the
//! broker would, and say which to change.

use serde::{Deserialize, Serialize};

/// Flink's `DeliveryGuarantee` for the Kafka sink. `NONE` (the builder's default) is left out:
/// it differs from at-least-once only by not flushing the producer's buffer at a checkpoint, and
/// the simulator's producer has no buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeliveryGuarantee {
    /// Transactions committed with the checkpoint (`ExactlyOnceKafkaWriter`, `KafkaCommitter`).
    #[default]
    ExactlyOnce,
    /// Plain writes, flushed at the checkpoint: visible at once, written again after a restore.
    AtLeastOnce,
}

impl DeliveryGuarantee {
    pub fn id(self) -> &'static str {
        match self {
            DeliveryGuarantee::ExactlyOnce => "exactly-once",
            DeliveryGuarantee::AtLeastOnce => "at-least-once",
        }
    }
}

/// `KafkaSinkBuilder`'s default `transaction.timeout.ms`: one hour.
pub const SINK_TRANSACTION_TIMEOUT_MS: u64 = 3_600_000;
/// The broker's default `transaction.max.timeout.ms`: 15 minutes.
pub const BROKER_MAX_TIMEOUT_MS: u64 = 900_000;
/// The largest time the settings take, in ms (about 31 years).
pub const MAX_MS_SETTING: u64 = 1_000_000_000_000;

/// The Kafka sink's settings (`"kafka": {...}` in a scenario's settings, with `"sink": "kafka"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct KafkaSettings {
    #[serde(default)]
    pub delivery_guarantee: DeliveryGuarantee,
    /// The producer's `transaction.timeout.ms`.
    #[serde(default = "sink_timeout")]
    pub transaction_timeout_ms: u64,
    /// The broker's `transaction.max.timeout.ms`.
    #[serde(default = "broker_max")]
    pub transaction_max_timeout_ms: u64,
    /// The broker's milliseconds one step of the run takes.
    #[serde(default = "step_ms")]
    pub step_ms: u64,
}

fn sink_timeout() -> u64 {
    SINK_TRANSACTION_TIMEOUT_MS
}
fn broker_max() -> u64 {
    BROKER_MAX_TIMEOUT_MS
}
fn step_ms() -> u64 {
    1000
}

impl Default for KafkaSettings {
    fn default() -> Self {
        KafkaSettings {
            delivery_guarantee: DeliveryGuarantee::ExactlyOnce,
            transaction_timeout_ms: sink_timeout(),
            transaction_max_timeout_ms: broker_max(),
            step_ms: step_ms(),
        }
    }
}

impl KafkaSettings {
    /// The refusals: times out of range, and a transaction timeout the broker would refuse.
    pub fn check(&self) -> Result<(), String> {
        for (key, v) in [
            ("transaction-timeout-ms", self.transaction_timeout_ms),
            ("transaction-max-timeout-ms", self.transaction_max_timeout_ms),
            ("step-ms", self.step_ms),
        ] {
            if v == 0 || v > MAX_MS_SETTING {
                return Err(format!("kafka: {key} must be 1 to {MAX_MS_SETTING} ms"));
            }
        }
        if self.delivery_guarantee == DeliveryGuarantee::ExactlyOnce
            && self.transaction_timeout_ms > self.transaction_max_timeout_ms
        {
            return Err(format!(
                "kafka: transaction-timeout-ms {} is larger than the broker's transaction-max-timeout-ms {}: the broker refuses the producer's initTransactions (InvalidTransactionTimeoutException), so the job cannot start. KafkaSinkBuilder sets transaction.timeout.ms to 1 hour and the broker caps it at 15 minutes by default: raise the broker's transaction.max.timeout.ms, or lower the sink's transaction.timeout.ms",
                self.transaction_timeout_ms, self.transaction_max_timeout_ms
            ));
        }
        Ok(())
    }

    /// The timeout rule, as Flink's Kafka connector documentation gives it: the transaction
    /// timeout must exceed the longest time from a checkpoint to its commit, restarts included.
    /// `longest_steps` is the longest such time the run expects, in steps; the answer is the
    /// warning, or None when the rule holds.
    pub fn timeout_rule(&self, longest_steps: u64) -> Option<TimeoutWarning> {
        if self.delivery_guarantee != DeliveryGuarantee::ExactlyOnce {
            return None;
        }
        let longest_ms = longest_steps.saturating_mul(self.step_ms);
        (longest_ms >= self.transaction_timeout_ms)
            .then_some(TimeoutWarning { longest_ms, timeout_ms: self.transaction_timeout_ms })
    }
}

/// The timeout rule broken: a transaction may stay open `longest_ms` before its commit, which is
/// not less than the transaction timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeoutWarning {
    pub longest_ms: u64,
    pub timeout_ms: u64,
}

impl TimeoutWarning {
    pub fn words(&self, lang: crate::engine::core::lang::Lang) -> String {
        let (l, t) = (self.longest_ms, self.timeout_ms);
        crate::engine::core::lang::say!(
            lang,
            "The transaction timeout ({t} ms) does not exceed the longest time from a checkpoint to its commit ({l} ms): the broker may abort a pre-committed transaction before the commit, and its records are lost although the checkpoint completed.",
            "事务超时（{t} 毫秒）不大于从检查点到其提交的最长时间（{l} 毫秒）：broker 可能在提交之前中止一个已预提交的事务，其记录会丢失，尽管检查点已完成。"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builders_timeout_is_refused_by_the_brokers_default_cap() {
        let s = KafkaSettings::default();
        assert!(s.check().unwrap_err().contains("InvalidTransactionTimeoutException"));
        let ok = KafkaSettings { transaction_timeout_ms: 900_000, ..s };
        assert!(ok.check().is_ok());
        let alo = KafkaSettings { delivery_guarantee: DeliveryGuarantee::AtLeastOnce, ..s };
        assert!(alo.check().is_ok(), "a producer without transactions asks for no transaction timeout");
    }

    #[test]
    fn the_settings_warn_when_the_checkpoint_interval_alone_breaks_the_rule() {
        use crate::engine::settings::{Settings, SinkMode, Strategy};
        let kafka = KafkaSettings { transaction_timeout_ms: 60_000, step_ms: 1000, ..KafkaSettings::default() };
        let s = Settings { kafka: Some(kafka), checkpoint_interval: Some(90), ..Settings::new(Strategy::Aligned) };
        assert_eq!(s.kafka_warning(), None, "the sink is not Kafka");
        let s = s.with_sink(SinkMode::Kafka);
        assert_eq!(s.kafka_warning().map(|w| w.longest_ms), Some(90_000));
        let w = s.kafka_warning().unwrap();
        assert!(w.words(crate::engine::core::lang::Lang::Zh).contains("事务超时"));
        let s = Settings { checkpoint_interval: Some(30), ..s };
        assert_eq!(s.kafka_warning(), None);
    }

    #[test]
    fn the_rule_warns_when_a_checkpoint_to_commit_can_outlast_the_timeout() {
        let s = KafkaSettings { transaction_timeout_ms: 60_000, step_ms: 1000, ..KafkaSettings::default() };
        assert_eq!(s.timeout_rule(59), None);
        assert_eq!(s.timeout_rule(60), Some(TimeoutWarning { longest_ms: 60_000, timeout_ms: 60_000 }));
        let alo = KafkaSettings { delivery_guarantee: DeliveryGuarantee::AtLeastOnce, ..s };
        assert_eq!(alo.timeout_rule(1000), None);
    }
}
