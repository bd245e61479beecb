//! The rules of Spark Streaming's own settings, checked before a run starts: `batch-interval`
//! (the `StreamingContext`'s batch duration, in steps) and `write-ahead-log`
//! (`spark.streaming.receiver.writeAheadLog.enable`), refused under another strategy. The
//! settings themselves are fields of `Settings`, since the scenario format writes them flat.

use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::settings::{default_batch_interval, Setting, Settings, MAX_STEPS_SETTING};

/// Why Spark Streaming refuses these settings, or Ok.
pub fn check(s: &Settings, _graph: &JobGraph) -> Result<(), String> {
    if !s.strategy.takes(Setting::MicroBatches) && (s.write_ahead_log || s.batch_interval != default_batch_interval()) {
        return Err(format!(
            "batch-interval and write-ahead-log belong to the spark-streaming strategy, not {:?}",
            s.strategy.id()
        ));
    }
    if s.batch_interval == 0 || s.batch_interval > MAX_STEPS_SETTING {
        return Err(format!("batch-interval must be 1 to {MAX_STEPS_SETTING} steps"));
    }
    Ok(())
}
