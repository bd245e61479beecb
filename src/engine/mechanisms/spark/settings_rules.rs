//! The rules of Spark Streaming's own settings ([`SparkSettings`]), checked before a run starts:
//! both are refused under another strategy, and the batch interval must be a number of steps the
//! simulator takes.

use super::settings::SparkSettings;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::settings::{Setting, Settings, MAX_STEPS_SETTING};

/// Why Spark Streaming refuses these settings, or Ok.
pub fn check(s: &Settings, _graph: &JobGraph) -> Result<(), String> {
    let spark = &s.mechanism.spark;
    if !s.strategy.takes(Setting::MicroBatches) && *spark != SparkSettings::default() {
        return Err(format!(
            "batch-interval and write-ahead-log belong to the spark-streaming strategy, not {:?}",
            s.strategy.id()
        ));
    }
    if spark.batch_interval == 0 || spark.batch_interval > MAX_STEPS_SETTING {
        return Err(format!("batch-interval must be 1 to {MAX_STEPS_SETTING} steps"));
    }
    Ok(())
}
