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
