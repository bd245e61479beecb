//! Spark Streaming's own settings: `batch-interval` (the `StreamingContext`'s batch duration, in
//! steps) and `write-ahead-log` (`spark.streaming.receiver.writeAheadLog.enable`). A run's
//! `Settings` carries them (`settings.mechanism.spark`), and a scenario file writes them flat
//! beside the other keys. Which a run refuses is in `settings_rules.rs`.

use serde::de::MapAccess;
use serde::Serialize;

use crate::engine::settings::options::MAX_STEPS_SETTING;

/// Spark Streaming's settings, as a `StreamingContext` and its configuration hold them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct SparkSettings {
    /// The driver cuts a batch every this many steps.
    #[serde(skip_serializing_if = "is_default_batch_interval")]
    pub batch_interval: u64,
    /// Receivers write every block to a write-ahead log
    /// (`spark.streaming.receiver.writeAheadLog.enable`, off by default as in Spark).
    #[serde(skip_serializing_if = "is_false")]
    pub write_ahead_log: bool,
}

const DEFAULT_BATCH_INTERVAL: u64 = 4;

fn is_default_batch_interval(n: &u64) -> bool {
    *n == DEFAULT_BATCH_INTERVAL
}
fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for SparkSettings {
    fn default() -> Self {
        SparkSettings { batch_interval: DEFAULT_BATCH_INTERVAL, write_ahead_log: false }
    }
}

/// One change a person makes to Spark Streaming's settings (the settings form's fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SparkEdit {
    /// The batch interval in steps (1 or more; more than [`MAX_STEPS_SETTING`] is taken as the
    /// limit).
    BatchInterval(u64),
    WriteAheadLog(bool),
}

impl SparkSettings {
    /// The keys a scenario file writes them under.
    pub const KEYS: [&'static str; 2] = ["batch-interval", "write-ahead-log"];

    /// Reads the value of `key` if it is one of Spark Streaming's; false if it is not.
    pub fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "batch-interval" => self.batch_interval = map.next_value()?,
            "write-ahead-log" => self.write_ahead_log = map.next_value()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Makes one edit.
    pub fn edit(&mut self, edit: SparkEdit) {
        match edit {
            SparkEdit::BatchInterval(n) => self.batch_interval = n.clamp(1, MAX_STEPS_SETTING),
            SparkEdit::WriteAheadLog(on) => self.write_ahead_log = on,
        }
    }
}
