//! Structured Streaming's own settings: `max-offsets-per-trigger` (the Kafka source's
//! `maxOffsetsPerTrigger`: how many offsets of each source one micro-batch reads at most) and
//! `output-sink` (how the query writes: `writeStream.format("parquet")`, `foreachBatch`, or
//! `foreach`). A run's `Settings` carries them (`settings.mechanism.structured`), and a scenario
//! file writes them flat beside the other keys. Which a run refuses is in `settings_rules.rs`.

use serde::de::MapAccess;
use serde::{Deserialize, Serialize};

use crate::engine::settings::options::MAX_STEPS_SETTING;
use crate::engine::settings::SinkMode;

/// How a Structured Streaming query writes its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutputSink {
    /// The file sink (`FileStreamSink`): a batch's files become visible when the driver writes
    /// the batch's entry in the `_spark_metadata` log, and a batch already in that log is skipped.
    File,
    /// `foreachBatch` whose function writes the batch keyed by `batchId` and skips a `batchId` it
    /// has written before (the programming guide's "use the batchId to deduplicate").
    ForeachBatchIdempotent,
    /// `foreachBatch` whose function writes the batch whatever its `batchId`.
    ForeachBatch,
    /// `foreach` with a `ForeachWriter`: each row is written as it is processed.
    Foreach,
}

impl OutputSink {
    pub const ALL: [OutputSink; 4] =
        [OutputSink::File, OutputSink::ForeachBatchIdempotent, OutputSink::ForeachBatch, OutputSink::Foreach];
    /// Its id in a scenario file.
    pub fn id(self) -> &'static str {
        match self {
            OutputSink::File => "file",
            OutputSink::ForeachBatchIdempotent => "foreach-batch-idempotent",
            OutputSink::ForeachBatch => "foreach-batch",
            OutputSink::Foreach => "foreach",
        }
    }
    /// Does it write a batch's output at once, at the end of the batch (the simulator's
    /// `transactional` sink), rather than row by row (`append` or `upsert`)?
    pub fn writes_batches(self) -> bool {
        self != OutputSink::Foreach
    }
}

/// Structured Streaming's settings, as a query's source options and `writeStream` hold them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct StructuredSettings {
    /// The most offsets of each source one micro-batch reads (`maxOffsetsPerTrigger`).
    #[serde(skip_serializing_if = "is_default_max")]
    pub max_offsets_per_trigger: u64,
    /// How the query writes; by default as the run's `sink` says: `transactional` is the file
    /// sink, `append` and `upsert` a `foreach` writer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_sink: Option<OutputSink>,
}

const DEFAULT_MAX_OFFSETS: u64 = 2;

fn is_default_max(n: &u64) -> bool {
    *n == DEFAULT_MAX_OFFSETS
}

impl Default for StructuredSettings {
    fn default() -> Self {
        StructuredSettings { max_offsets_per_trigger: DEFAULT_MAX_OFFSETS, output_sink: None }
    }
}

/// One change a person makes to Structured Streaming's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StructuredEdit {
    /// Offsets per micro-batch (1 or more; more than [`MAX_STEPS_SETTING`] is taken as the limit).
    MaxOffsetsPerTrigger(u64),
    OutputSink(Option<OutputSink>),
}

impl StructuredSettings {
    /// The keys a scenario file writes them under.
    pub const KEYS: [&'static str; 2] = ["max-offsets-per-trigger", "output-sink"];

    /// Reads the value of `key` if it is one of Structured Streaming's; false if it is not.
    pub fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "max-offsets-per-trigger" => self.max_offsets_per_trigger = map.next_value()?,
            "output-sink" => self.output_sink = map.next_value()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Makes one edit.
    pub fn edit(&mut self, edit: StructuredEdit) {
        match edit {
            StructuredEdit::MaxOffsetsPerTrigger(n) => self.max_offsets_per_trigger = n.clamp(1, MAX_STEPS_SETTING),
            StructuredEdit::OutputSink(s) => self.output_sink = s,
        }
    }

    /// The run's sink mode changed to `mode`: an output sink named that does not fit it gives way
    /// to the one the mode says (the settings form's sink menu).
    pub fn fit_sink(&mut self, mode: SinkMode) {
        if self.output_sink.is_some_and(|o| o.writes_batches() != (mode == SinkMode::Transactional)) {
            self.output_sink = None;
        }
    }

    /// The sink mode that fits the output sink named, from the run's `current` one: a sink that
    /// writes a batch at once is `transactional`; a `foreach` writer keeps `append` or `upsert`,
    /// and turns `transactional` into `append`.
    pub fn sink_mode(&self, current: SinkMode) -> SinkMode {
        match self.output_sink {
            Some(o) if o.writes_batches() => SinkMode::Transactional,
            Some(_) if current == SinkMode::Transactional => SinkMode::Append,
            _ => current,
        }
    }

    /// The sink the query writes with, under the run's `sink` mode: the one named, or the file
    /// sink for a `transactional` sink and a `foreach` writer for the others.
    pub fn sink(&self, mode: SinkMode) -> OutputSink {
        self.output_sink.unwrap_or(match mode {
            SinkMode::Transactional => OutputSink::File,
            _ => OutputSink::Foreach,
        })
    }
}
