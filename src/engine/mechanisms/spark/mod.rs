//! Spark Streaming's way of surviving failure: cut the stream into micro-batches, keep what was
//! received (replicated, or in a write-ahead log) and the driver's metadata in a checkpoint, and
//! run again every batch that had not finished.
//!
//! - [`micro_batches`]: the mechanism (`spark-streaming`): receivers, the driver's clock, one job
//!   per batch, the driver's restart from its checkpoint;
//! - [`driver`]: the driver at work: cutting batches, one job at a time, completing them, the
//!   metadata checkpoint and the log's cleaning;
//! - [`received_blocks`]: the data it keeps (blocks, batches, the log, the checkpoint directory);
//! - [`events`]: its events (`SparkStreamingEvent`), as the run's log carries them;
//! - [`settings`]: the rules of its own settings;
//! - [`refusals`]: the action it refuses, and why (`SparkRefusal`);
//! - `wording`: its narration, in English and Chinese.
//!
//! A story, run as a test: without the write-ahead log, the blocks a receiver stored live in the
//! executors' memory, and a crash of the whole application loses the records not yet in a finished
//! batch (a reliable receiver or the write-ahead log is what keeps them).
//!
//! ```
//! use barrierscope::engine::{Action, Scenario, Settings, Strategy};
//!
//! // Under `strategy`: a checkpoint asked for at step 2 (where there are checkpoints), 14 steps
//! // of the seeded scheduler, a crash of the whole job, a restore, then the run to its end.
//! // What each record's effect on the state ended as: (lost, duplicated).
//! let crash = |strategy, job, seed| {
//!     let mut sim = Scenario::builtin(job, Settings::new(strategy), seed).sim().unwrap();
//!     for i in 0..14 {
//!         if i == 2 && sim.check(Action::Checkpoint).is_ok() {
//!             sim.step(Action::Checkpoint).unwrap();
//!         }
//!         if sim.has_work() {
//!             sim.step(Action::Auto).unwrap();
//!         }
//!     }
//!     sim.step(Action::Crash).unwrap();
//!     sim.step(Action::Restore).unwrap();
//!     while sim.has_work() {
//!         sim.step(Action::Auto).unwrap();
//!     }
//!     let l = sim.ledger().state;
//!     (l.lost, l.duplicated)
//! };
//! assert!((0..40).all(|seed| crash(Strategy::SparkStreaming, "line-sink", seed).0 > 0));
//! ```

pub mod driver;
pub mod events;
pub mod micro_batches;
pub mod received_blocks;
pub mod refusals;
pub mod settings;
pub mod settings_rules;
pub mod upkeep;
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
    keeps: None,
    settings: &[Setting::CheckpointInterval, Setting::Socket, Setting::MicroBatches],
    coordinator: false,
    barriers: false,
    transactional_sink: true,
    restores_snapshots: false,
    pyflink: Err(Words::new("Spark Streaming is not Flink", "Spark Streaming 不是 Flink")),
    pyspark: true,
    explore: Err("cuts its batches on the clock"),
    toy: false,
    marks: |_| &[Mark::Block, Mark::Batch, Mark::Replayed, Mark::NextRecord],
    system: strategy_name!(SparkStreaming, En),
    script_words: &[],
    check_settings: settings_rules::check,
};
