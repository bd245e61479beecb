//! Spark Streaming's data, as its executors and its driver hold it (Spark's
//! `ReceiverSupervisorImpl`, `BlockManager`, `WriteAheadLogBasedBlockHandler`,
//! `ReceivedBlockTracker`, `JobScheduler`, `Checkpoint` and `DStreamCheckpointData`):
//! - a **block**: records a receiver stored, in executor memory with a replica on the other
//!   executor, or, with the write-ahead log on, in its own executor's memory (replication 1) and
//!   in the log;
//! - a **batch job**: the blocks the driver allocated to batch k, queued for the JobScheduler;
//! - the **metadata checkpoint**: its batch time (Spark's `checkpointTime`), the batches still in
//!   the lineage chain, the completed batch of its time and the ones not yet completed, with
//!   their block ids;
//! - the **state checkpoint**: the state RDD of batch k, written every `checkpoint-interval`
//!   batches, which cuts the lineage chain.
//!
//! [`SparkRuntime`] is what a driver failure destroys (the driver's memory and every executor's);
//! [`SparkDurable`] is the write-ahead log and the checkpoint directory on reliable storage.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::{RecordId, TaskId};
use crate::engine::mechanisms::committed_offsets::CommittedOffsets;

/// Executors: the receiver's blocks are stored on its executor and replicated to the other
/// (`StorageLevel.MEMORY_AND_DISK_SER_2`), unless the write-ahead log is on:
/// `WriteAheadLogBasedBlockHandler` then forces replication 1.
pub const EXECUTORS: u8 = 2;
/// Bytes a block's record takes in the write-ahead log (a rough figure, as checkpoint sizes are).
pub const WAL_BYTES_PER_RECORD: u64 = 16;

/// One block a receiver stored: one record here (see the README's simplifications).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    pub id: u32,
    pub source: TaskId,
    pub offset: u32,
    pub record: RecordId,
    /// Bit e: a copy in executor e's memory.
    pub copies: u8,
    /// Written to the write-ahead log.
    pub wal: bool,
    /// The batch the ReceivedBlockTracker allocated it to.
    pub batch: Option<u32>,
}

impl Block {
    /// Can a job still read it: from an executor's memory or from the write-ahead log?
    pub fn readable(&self) -> bool {
        self.copies != 0 || self.wal
    }
}

/// Batch k's job, queued in the JobScheduler (one runs at a time: `spark.streaming.concurrentJobs`
/// is 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchJob {
    pub batch: u32,
    /// The batch time (the step the driver cut it).
    pub time: u64,
    pub blocks: Vec<u32>,
    /// Does the job run the output operation? A batch recomputed from lineage after a driver
    /// restart only rebuilds the state RDD.
    pub output: bool,
    /// The step its current attempt started, once it runs.
    pub started: Option<u64>,
    pub attempt: u16,
    /// A completed batch run again after a restart whose state RDD the state checkpoint already
    /// holds (Spark reads the checkpointed RDD of that time back): the re-run runs the output
    /// only and leaves the state as it is.
    #[serde(default)]
    pub keep_state: bool,
}

/// The driver's and the executors' memory while the application runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SparkRuntime {
    /// Every block this driver knows of (the ReceivedBlockTracker), with its copies.
    pub blocks: Vec<Block>,
    /// The JobScheduler's queue; the head runs once it has started.
    pub jobs: Vec<BatchJob>,
    /// The batches completed since the state RDD was last checkpointed: the lineage chain, with
    /// their block ids.
    pub chain: Vec<(u32, Vec<u32>)>,
    /// The state RDD of the last completed batch (cached on the executors), per task, and the
    /// step it was completed.
    pub cached: Vec<OpState>,
    pub cached_tick: u64,
    /// A batch completed and the checkpoint writer has yet to write the metadata checkpoint that
    /// says so (it does at the next step: Spark's `CheckpointWriter` runs asynchronously).
    pub meta_due: bool,
    /// The batch time of that due checkpoint (`DoCheckpoint(time)` after `ClearMetadata(time)`).
    #[serde(default)]
    pub meta_time: u64,
    /// The latest completed batch, with its blocks: a metadata checkpoint of its time lists it,
    /// since a restart runs that batch again (`checkpointTime.until(restartTime)`).
    #[serde(default)]
    pub completed: Option<(u32, u64, Vec<u32>)>,
    /// Intervals without blocks cut while jobs were queued: Spark's empty jobs for those times,
    /// which complete as soon as the queue reaches them.
    #[serde(default)]
    pub empty: Vec<u64>,
}

impl SparkRuntime {
    /// The running job, if one runs.
    pub fn running(&self) -> Option<&BatchJob> {
        self.jobs.first().filter(|j| j.started.is_some())
    }
    /// Is the running job a recomputation from lineage (no output)?
    pub fn recomputing(&self) -> bool {
        self.running().is_some_and(|j| !j.output)
    }
    pub fn block(&self, id: u32) -> Option<&Block> {
        self.blocks.iter().find(|b| b.id == id)
    }
}

/// The metadata checkpoint (Spark's `Checkpoint`): written when a batch is cut and when it
/// completes (an interval without blocks too: Spark runs an empty job for it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetaCheckpoint {
    /// The step it was written.
    pub time: u64,
    /// Its batch time (`Checkpoint.checkpointTime`): the batch cut, or the batch completed. A
    /// restart runs every batch from this time on again, with its output.
    #[serde(default)]
    pub checkpoint_time: u64,
    /// Batch interval and write-ahead log, as configured.
    pub batch_interval: u64,
    pub wal: bool,
    /// The batches since the last state checkpoint, with their block ids and whether each
    /// completed: the lineage chain, the completed batch of `checkpoint_time`, then the queued
    /// and incomplete batches, by batch.
    pub batches: Vec<(u32, Vec<u32>, bool)>,
}

/// The checkpointed state RDD (`DStreamCheckpointData`): every task's state after batch `batch`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateCheckpoint {
    pub batch: u32,
    pub tick: u64,
    pub states: Vec<OpState>,
}

/// One attempt of a batch job, for the statistics (the observer's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchStat {
    pub batch: u32,
    pub time: u64,
    pub records: u16,
    pub started: u64,
    pub finished: Option<u64>,
    pub attempt: u16,
    pub output: bool,
}

impl BatchStat {
    /// Scheduling delay: from the batch time to the start of this attempt.
    pub fn scheduling_delay(&self) -> u64 {
        self.started - self.time
    }
    /// Processing delay, once the attempt finished.
    pub fn processing_delay(&self) -> Option<u64> {
        self.finished.map(|f| f - self.started)
    }
}

/// What survives a driver failure: the write-ahead log and the checkpoint directory.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SparkDurable {
    /// The write-ahead log: every block written and not yet cleaned up, with its allocation.
    pub wal: Vec<Block>,
    pub meta: Option<MetaCheckpoint>,
    pub state: Option<StateCheckpoint>,
    pub next_block: u32,
    /// The observer: bytes ever written to the log, every batch attempt, and per record the step
    /// a receiver first stored it.
    pub wal_written: u64,
    pub batches: Vec<BatchStat>,
    pub received: Vec<u64>,
    /// What each receiver acknowledged to a replayable source: where it resumes.
    pub committed: CommittedOffsets,
}

impl SparkDurable {
    /// Nothing written yet: what another strategy's run reads as Spark's log.
    pub const EMPTY: SparkDurable = SparkDurable {
        wal: Vec::new(),
        meta: None,
        state: None,
        next_block: 0,
        wal_written: 0,
        batches: Vec::new(),
        received: Vec::new(),
        committed: CommittedOffsets::new(),
    };
}
