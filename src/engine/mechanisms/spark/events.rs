//! Spark Streaming's events: what its receivers, its driver and its executors report at each step
//! (a block stored, a batch cut, started and completed, a state checkpoint, the write-ahead log
//! cleaned, a transactional output, an executor or the driver lost), and where its restart came
//! from. The run's [`Event`](crate::engine::core::action::Event) carries them as
//! `Event::Mechanism` (the catalogue's `MechanismEvent::Spark`); their narration is `wording.rs`'s.

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::{RecordId, TaskId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum SparkStreamingEvent {
    /// The receiver on `task` stored `record` as block `block` (in memory, replicated, and
    /// in the write-ahead log if `wal`), then acknowledged the source if it is reliable (`acked`).
    BlockStored { task: TaskId, record: RecordId, block: u32, wal: bool, acked: bool },
    /// The driver cut batch `batch` from `blocks` blocks and queued its job.
    BatchGenerated { batch: u32, blocks: u16 },
    /// Batch `batch`'s job started (attempt `attempt`) with `records` records; `missing`
    /// blocks were in no memory and no log; without `output` it only recomputes the state.
    BatchStarted { batch: u32, records: u16, missing: u16, output: bool, attempt: u16 },
    /// Batch `batch` completed; the lineage chain is `lineage` batches long.
    BatchCompleted { batch: u32, output: bool, lineage: u32 },
    /// The state RDD of batch `batch` was checkpointed, cutting a chain of `cut`; `cleaned`
    /// blocks left the write-ahead log.
    StateCheckpointed { batch: u32, cut: u32, cleaned: u16 },
    /// `blocks` blocks of batches before batch time `before` (the completed batch's time
    /// minus twice the checkpoint interval) left the write-ahead log.
    LogCleaned { before: u64, blocks: u16 },
    /// A transactional output of partition `task` for batch time `time` committed `rows`,
    /// or was `skipped` because that key had committed before.
    BatchOutput { task: TaskId, time: u64, rows: u32, skipped: bool },
    /// Executor `executor` (running `task`) died and a new one took its place.
    ExecutorLost { executor: u8, task: TaskId, lost_blocks: u16, rerun: Option<u32>, lineage: u32 },
    /// The driver died and every executor with it, with `blocks` blocks in memory.
    DriverLost { blocks: u16, lost_in_flight: u32 },
}

/// Where Spark Streaming's restart came from, as `RestoreFrom::Mechanism` carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "from")]
pub enum SparkRestore {
    /// The driver from its metadata checkpoint, the state RDD from the state checkpoint of batch
    /// `state` (or empty), `recompute` batches of the lineage chain to recompute, `rerun`
    /// incomplete batches to run again and `again` completed batches from the checkpoint's batch
    /// time `since` on, run again with their output (`JobGenerator.restart`).
    MetadataCheckpoint {
        state: Option<u32>,
        recompute: u16,
        rerun: u16,
        #[serde(default)]
        again: u16,
        #[serde(default)]
        since: u64,
    },
}
