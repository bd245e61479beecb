//! The rules of Structured Streaming's own settings ([`StructuredSettings`]), checked before a run
//! starts: both are refused under another strategy, a micro-batch reads at least one offset, and
//! the output sink fits the run's `sink` mode (a sink that writes a batch at once is the
//! simulator's `transactional` sink; a `foreach` writer writes row by row, `append` or `upsert`).

use super::settings::StructuredSettings;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::settings::{Setting, Settings, SinkMode, MAX_STEPS_SETTING};

/// Why Structured Streaming refuses these settings, or Ok.
pub fn check(s: &Settings, _graph: &JobGraph) -> Result<(), String> {
    let own = &s.mechanism.structured;
    if !s.strategy.takes(Setting::OffsetLog) {
        if *own != StructuredSettings::default() {
            return Err(format!(
                "max-offsets-per-trigger and output-sink belong to the structured-streaming strategy, not {:?}",
                s.strategy.id()
            ));
        }
        return Ok(());
    }
    if own.max_offsets_per_trigger == 0 || own.max_offsets_per_trigger > MAX_STEPS_SETTING {
        return Err(format!("max-offsets-per-trigger must be 1 to {MAX_STEPS_SETTING}"));
    }
    let sink = own.sink(s.sink);
    let batch_mode = s.sink == SinkMode::Transactional;
    if sink.writes_batches() != batch_mode {
        let wants = if sink.writes_batches() { "sink transactional" } else { "sink append or upsert" };
        return Err(format!(
            "output-sink {} writes {}: it takes {wants}, not {}",
            sink.id(),
            if sink.writes_batches() { "a micro-batch's output at once" } else { "row by row" },
            s.sink.id()
        ));
    }
    Ok(())
}
