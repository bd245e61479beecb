//! Spark Streaming's way of surviving failure: cut the stream into micro-batches, keep what was
//! received (replicated, or in a write-ahead log) and the driver's metadata in a checkpoint, and
//! run again every batch that had not finished.
//!
//! - [`micro_batches`]: the mechanism (`spark-streaming`): receivers, the driver's clock, one job
//!   per batch, the driver's restart from its checkpoint;
//! - [`received_blocks`]: the data it keeps (blocks, batches, the log, the checkpoint directory);
//! - [`events`]: its events (`SparkStreamingEvent`), as the run's log carries them;
//! - [`wording`]: its narration, in English and Chinese.

pub mod events;
pub mod micro_batches;
pub mod received_blocks;
pub(crate) mod wording;

use crate::engine::mechanisms::marks::Mark;
use crate::engine::mechanisms::row::{Row, Words};
use crate::engine::settings::strategy::{strategy_name, Setting};

/// The catalogue's row of strategy `spark-streaming`.
pub static ROW: Row = Row {
    id: "spark-streaming",
    mechanism: &micro_batches::MicroBatches,
    name: Words::new(strategy_name!(SparkStreaming, En), strategy_name!(SparkStreaming, Zh)),
    menu: Words::new(
        concat!(strategy_name!(SparkStreaming, En), ": micro-batches"),
        concat!(strategy_name!(SparkStreaming, Zh), "：微批"),
    ),
    in_sentence: Words::new("Spark Streaming", strategy_name!(SparkStreaming, Zh)),
    settings: &[Setting::CheckpointInterval, Setting::Socket, Setting::MicroBatches],
    coordinator: false,
    barriers: false,
    transactional_sink: true,
    restores_snapshots: false,
    pyflink: Err(Words::new("Spark Streaming is not Flink", "Spark Streaming 不是 Flink")),
    pyspark: true,
    explore: Err("cuts its batches on the clock"),
    toy: false,
    marks: |_| vec![Mark::Block, Mark::Batch, Mark::Replayed, Mark::NextRecord],
};
