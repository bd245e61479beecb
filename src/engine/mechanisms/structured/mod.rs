//! Spark's Structured Streaming way of surviving failure: micro-batches whose offsets the driver
//! writes to an offset log before each batch runs, and marks done in a commit log after its sink
//! has finished, both in the checkpoint location; state stores versioned by batch; and a restart
//! that runs the uncommitted batch again with exactly the same offsets. Beside `spark/`, which
//! models the older DStream API (Spark Streaming: receivers, blocks, a write-ahead log).
//!
//! - [`micro_batch_execution`]: the mechanism (`structured-streaming`): planning, running and
//!   finishing a batch, the crash and the restart (`populateStartOffsets`);
//! - [`sinks`]: how each sink finishes a batch: the file sink, `foreachBatch` with and without a
//!   `batchId` check, `foreach`;
//! - [`checkpoint_location`]: its data (the offset log, the commit log, the state stores'
//!   versions, the file sink's metadata log; the driver's memory);
//! - [`events`]: its events (`StructuredEvent`), as the run's log carries them;
//! - [`settings`] and [`settings_rules`]: its own settings and their rules;
//! - [`refusals`]: the reads it refuses, and why (`StructuredRefusal`);
//! - [`upkeep`]: what its logs and state stores cost, for the side-by-side comparison;
//! - `wording`: its narration, in English and Chinese.
//!
//! A story, run as a test: a crash after the sink has finished a batch and before the commit log
//! says so. The batch runs again with the same offsets; the file sink finds it in its metadata
//! log and skips it, while a `foreach` writer writes its rows a second time.
//!
//! ```
//! use barrierscope::engine::mechanisms::structured::settings::OutputSink;
//! use barrierscope::engine::{Action, Scenario, Settings, SinkMode, Strategy};
//!
//! // Run until the sink has finished batch 0 and commits/0 is not yet written; crash; restore.
//! let run = |sink: SinkMode, output: OutputSink| {
//!     let mut s = Settings::new(Strategy::StructuredStreaming).with_sink(sink);
//!     s.mechanism.structured.output_sink = Some(output);
//!     let mut sim = Scenario::builtin("line-sink", s, 1).sim().unwrap();
//!     while sim.checkpoint_location().state.is_empty() {
//!         sim.step(Action::Auto).unwrap();
//!     }
//!     assert!(sim.checkpoint_location().commits.is_empty());
//!     sim.step(Action::Crash).unwrap();
//!     sim.step(Action::Restore).unwrap();
//!     while sim.has_work() {
//!         sim.step(Action::Auto).unwrap();
//!     }
//!     sim.ledger().external.unwrap()
//! };
//! let file = run(SinkMode::Transactional, OutputSink::File);
//! assert_eq!((file.lost, file.duplicated), (0, 0));
//! let foreach = run(SinkMode::Append, OutputSink::Foreach);
//! assert!(foreach.duplicated > 0 && foreach.lost == 0);
//! ```

pub mod checkpoint_location;
pub mod events;
pub mod micro_batch_execution;
pub mod refusals;
pub mod settings;
pub mod settings_rules;
pub mod sinks;
pub mod upkeep;
pub(crate) mod wording;

use crate::engine::mechanisms::marks::Mark;
use crate::engine::mechanisms::row::{Keeps, Row, Words};
use crate::engine::settings::strategy::Setting;

/// The catalogue's row of strategy `structured-streaming`.
pub static ROW: Row = Row {
    id: "structured-streaming",
    mechanism: &micro_batch_execution::MicroBatchExecution,
    name: Words::new("Structured Streaming", "Spark 结构化流"),
    menu: Words::new("Structured Streaming: offset and commit logs", "Spark 结构化流：偏移日志与提交日志"),
    in_sentence: Words::new("Structured Streaming", "Spark 结构化流"),
    keeps: Some(Keeps {
        saved: Words::new(
            "the offset log, the commit log and the state stores' versions, in the checkpoint location",
            "检查点目录里的偏移日志、提交日志和状态存储的各个版本",
        ),
        restore: Words::new(
            "the latest batch of the offset log, run again if it has no commit entry, over the state stores' last committed version",
            "偏移日志里最新的批次（没有提交条目就重新运行），状态存储取最后提交的版本",
        ),
    }),
    settings: &[Setting::Socket, Setting::OffsetLog],
    coordinator: false,
    barriers: false,
    transactional_sink: true,
    restores_snapshots: false,
    pyflink: Err(Words::new("Structured Streaming is not Flink", "Spark 结构化流不是 Flink")),
    pyspark: false,
    explore: Err("plans its batches in its own logs"),
    toy: false,
    marks: |_| &[Mark::Replayed, Mark::NextRecord],
    system: "Structured Streaming",
    script_words: &[],
    check_settings: settings_rules::check,
};
