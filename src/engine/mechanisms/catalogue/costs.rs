//! The cost table's columns: what each mechanism pays to survive failure, in bytes stored and in
//! control messages, one column per thing paid, named for the mechanism that pays it. Like the
//! catalogue's rows, this is the one place that lists them side by side: Flink's checkpoints and
//! coordinator messages, Spark Streaming's write-ahead log, state and metadata checkpoints and
//! its driver's messages, Storm's acker table and acker messages, and the barriers and offset
//! commits more than one pays. Each mechanism's upkeep (`storm/upkeep.rs`, `spark/upkeep.rs`) or
//! the core's events (for the coordinator's mechanisms) fill them in; the side-by-side comparison
//! shows them, and `barrierscope compare` writes them under these names.

use serde::{Deserialize, Serialize};

/// Bytes stored for fault tolerance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bytes {
    /// Written to durable storage over the run: the sum of the five parts below.
    pub written: u64,
    /// Flink: every acknowledged snapshot of every checkpoint.
    pub checkpoints: u64,
    /// Spark Streaming: the write-ahead log (16 bytes a record).
    pub write_ahead_log: u64,
    /// Spark Streaming: the state RDD at each state checkpoint; Structured Streaming: each version
    /// of the state stores.
    pub state_checkpoints: u64,
    /// Spark Streaming: each metadata checkpoint written; Structured Streaming: each entry of its
    /// offset log, its commit log and the file sink's `_spark_metadata` log.
    pub metadata_checkpoints: u64,
    /// Storm's spouts and Spark's reliable receivers: 8 bytes per commit of a source's offset.
    pub offset_commits: u64,
    /// The most held at any one step: durable storage (retained checkpoints; the log's blocks not
    /// yet cleaned up, the latest state and metadata checkpoints; the committed offsets) and
    /// Storm's acker table in memory.
    pub peak_held: u64,
    /// Storm: the acker table at its largest (20 bytes a pending tree), in memory.
    pub acker_table_peak: u64,
}

/// Control messages: what the job sends only to survive failure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Messages {
    pub total: u64,
    /// On the data channels: checkpoint barriers (one per output channel of the task that emits
    /// them).
    pub barriers: u64,
    /// On the data channels: cancel markers.
    pub cancel_markers: u64,
    /// Flink: to and from the CheckpointCoordinator: triggers (one per source), acknowledgements,
    /// declines, completion notifications.
    pub coordinator: u64,
    /// Storm: `__ack_init` and `__ack_ack` to the acker, and its answers to the spouts.
    pub acker: u64,
    /// Spark Streaming: block reports to the driver, each batch job's start and completion;
    /// Structured Streaming: each batch's start and its sink's end.
    pub driver: u64,
}

impl Bytes {
    /// Written to durable storage over the run: the five parts' sum.
    pub fn sum_of_written(&self) -> u64 {
        self.checkpoints
            + self.write_ahead_log
            + self.state_checkpoints
            + self.metadata_checkpoints
            + self.offset_commits
    }
}

impl Messages {
    /// Every control message: the parts' sum.
    pub fn sum_of_parts(&self) -> u64 {
        self.barriers + self.cancel_markers + self.coordinator + self.acker + self.driver
    }
}
