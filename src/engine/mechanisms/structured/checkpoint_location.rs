//! Structured Streaming's data, as its checkpoint location and its driver hold them (Spark's
//! `OffsetSeqLog`, `CommitLog`, `HDFSBackedStateStoreProvider` and `FileStreamSinkLog`):
//! - the **offset log** (`offsets/N`): per source, the range of offsets batch N reads, written
//!   before the batch runs;
//! - the **commit log** (`commits/N`): the batches whose sink has finished;
//! - the **state store**, one per stateful operator, versioned by batch: batch N loads version N
//!   and commits version N + 1 (version 0 is empty);
//! - the file sink's **`_spark_metadata` log**, in the sink's output directory: the batches whose
//!   files are visible.
//!
//! [`CheckpointLocation`] survives every crash (durable storage); [`QueryRuntime`] is the
//! driver's memory, which a crash destroys.

use crate::engine::core::ids::TaskId;
use crate::engine::core::snapshot::TaskSnapshot;

/// One source's range in an offset log entry: it reads offsets `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceRange {
    pub source: TaskId,
    pub start: u32,
    pub end: u32,
}

/// `offsets/N` (an `OffsetSeq`): the offsets batch N reads, one range per source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffsetEntry {
    pub batch: u32,
    pub ranges: Vec<SourceRange>,
}

impl OffsetEntry {
    /// How many offsets the batch reads, over every source.
    pub fn records(&self) -> u32 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }
}

/// One version of the state stores: every task's state after the batches before it. Only the
/// stateful operators' (keyed count and sum) hold state; the others' entries are stateless, and
/// the simulator keeps them so that its observer knows what a restored task reflects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateVersion {
    pub version: u32,
    pub tasks: Vec<TaskSnapshot>,
}

/// The checkpoint location (and the file sink's metadata log beside it): what survives a crash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckpointLocation {
    /// `offsets/`: one entry per batch planned, in order.
    pub offsets: Vec<OffsetEntry>,
    /// `commits/`: the batches whose sink finished, in order.
    pub commits: Vec<u32>,
    /// `state/`: the state stores' versions committed, in order (version 0, empty, is implied).
    pub state: Vec<StateVersion>,
    /// `_spark_metadata/`: the batches the file sink made visible.
    pub sink_log: Vec<u32>,
}

impl CheckpointLocation {
    /// The latest entry of the offset log.
    pub fn latest_offsets(&self) -> Option<&OffsetEntry> {
        self.offsets.last()
    }
    /// The latest batch of the commit log.
    pub fn latest_commit(&self) -> Option<u32> {
        self.commits.last().copied()
    }
    /// The state stores' version `v`, if committed (version 0 is the empty store: None).
    pub fn version(&self, v: u32) -> Option<&StateVersion> {
        self.state.iter().rev().find(|s| s.version == v)
    }
}

/// Where the driver stands in the current micro-batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// No batch planned: the driver writes the next offset log entry when new data is there.
    #[default]
    Idle,
    /// The batch's offsets are in the offset log and it runs: its sources read their ranges.
    Running,
    /// The sink finished the batch; its commit log entry is still to be written.
    SinkDone,
}

/// The driver's memory while the query runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryRuntime {
    /// The current batch id (`currentBatchId`).
    pub batch: u32,
    pub phase: Phase,
    /// The running batch's ranges (its offset log entry's).
    pub ranges: Vec<SourceRange>,
    /// Rows a reader saw when the batch started (to count what a `foreach` writer added).
    pub visible_at_start: u32,
}

impl QueryRuntime {
    /// Source `t`'s range in the running batch.
    pub fn range(&self, t: TaskId) -> Option<SourceRange> {
        self.ranges.iter().find(|r| r.source == t).copied()
    }
}
