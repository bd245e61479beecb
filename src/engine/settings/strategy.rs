//! The strategies: every snapshot strategy a run can use (Flink's barrier variants, per-task
//! timers, none, Storm's acker, Spark Streaming, Structured Streaming, a toy state log), as a
//! scenario file names it, and the settings a strategy may take. What each strategy is, says and
//! can do is its mechanism's row of the catalogue (`mechanisms/catalogue.rs`), which this file
//! does not import: the mechanisms read settings.

use serde::{Deserialize, Serialize};

/// The names of the strategies that the page builds longer literals from with `concat!` (the
/// lab's presets, a quiz's option), in English and in Chinese; their catalogue rows read them.
#[rustfmt::skip]
macro_rules! strategy_name {
    (None, En) => { "No snapshots" };
    (None, Zh) => { "不做快照" };
    (Timers, En) => { "Per-task timers" };
    (Timers, Zh) => { "各任务定时快照" };
    (Aligned, En) => { "Aligned barriers" };
    (Aligned, Zh) => { "对齐屏障" };
    (AtLeastOnce, En) => { "Barriers without alignment" };
    (AtLeastOnce, Zh) => { "屏障不对齐" };
    (Unaligned, En) => { "Unaligned checkpoints" };
    (Unaligned, Zh) => { "非对齐检查点" };
    (StopTheWorld, En) => { "Stop the world" };
    (StopTheWorld, Zh) => { "全局暂停快照" };
    (StormAcker, En) => { "Storm" };
    (StormAcker, Zh) => { "Storm" };
    (SparkStreaming, En) => { "Spark Streaming" };
    (SparkStreaming, Zh) => { "Spark Streaming" };
}
pub(crate) use strategy_name;

/// A setting that applies under some strategies only ([`Strategy::settings`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `checkpoint-interval`: the coordinator triggers checkpoints every so many steps; Spark
    /// Streaming checkpoints its state every so many batches.
    CheckpointInterval,
    /// `alignment-timeout`: only aligned checkpoints align.
    AlignmentTimeout,
    /// The acker's settings: `message-timeout`, `ackers`, unanchored edges.
    AckerSettings,
    /// The failover strategy. Storm runs every task in one worker, which restarts whole; Spark
    /// Streaming's driver reruns batches, not regions.
    FailoverStrategy,
    /// [`HighAvailability`](super::HighAvailability) and
    /// [`CheckpointRetention`](super::CheckpointRetention): only the JobManager's
    /// CheckpointCoordinator keeps completed checkpoints that a standby or a resubmission could
    /// restore (per-task timers save on their own; Storm's Nimbus holds no job state).
    HighAvailability,
    /// A source may be a socket. Storm's spout replays a failed tuple by reading its offset
    /// again, which a socket cannot do (a reliable spout on a socket would have to buffer every
    /// tuple until acked; not modelled).
    Socket,
    /// `batch-interval` and `write-ahead-log`.
    MicroBatches,
    /// `max-offsets-per-trigger` and `output-sink`: Structured Streaming's offset log and sinks.
    OffsetLog,
    /// The [`RestartPolicy`](super::RestartPolicy): only when nothing is saved.
    RestartPolicy,
}

/// The snapshot strategy of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Nothing is saved. On restore tasks start empty; sources follow [`RestartPolicy`](super::RestartPolicy).
    None,
    /// Each task saves its own state when its own timer fires, with no coordination.
    Timers,
    /// Checkpoint barriers with alignment: exactly-once (Flink's default).
    #[default]
    Aligned,
    /// Checkpoint barriers without alignment (Flink's CheckpointBarrierTracker): at-least-once.
    AtLeastOnce,
    /// Unaligned checkpoints: the first barrier overtakes, in-flight records are stored.
    Unaligned,
    /// Pause the sources, drain every channel, snapshot all, resume.
    StopTheWorld,
    /// Storm's XOR acker: every tuple acknowledged, failed trees replayed; no state saved.
    StormAcker,
    /// Spark Streaming: receivers store blocks (and a write-ahead log), the driver cuts
    /// micro-batches, state is rebuilt from lineage and checkpoints.
    SparkStreaming,
    /// Spark's Structured Streaming: the driver writes each micro-batch's offsets to an offset
    /// log before it runs and marks it done in a commit log; a restart runs the uncommitted batch
    /// again with the same offsets.
    StructuredStreaming,
    /// A toy: each task logs its state after every record, as Kafka Streams' changelogs do,
    /// without their transactions; a restart puts every task back to its latest entry.
    StateLog,
}

impl Strategy {
    /// Every strategy, in the menu's order. What each one is, says and can do is its row of the
    /// catalogue (`Strategy::row`, in `mechanisms/catalogue.rs`).
    pub const ALL: [Strategy; 10] = [
        Strategy::None,
        Strategy::Timers,
        Strategy::Aligned,
        Strategy::AtLeastOnce,
        Strategy::Unaligned,
        Strategy::StopTheWorld,
        Strategy::StormAcker,
        Strategy::SparkStreaming,
        Strategy::StructuredStreaming,
        Strategy::StateLog,
    ];
}
