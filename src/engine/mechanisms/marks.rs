//! The legend's marks: what the canvas can draw of a mechanism's work, so that the legend explains
//! the marks a run can show and no others. Flink's checkpointing strategies draw barriers (aligned
//! ones, unaligned ones, cancel markers) and the tasks' saves joined by the cut; per-task timers
//! draw saves without barriers; Storm's acker draws tuple trees in its table and the acker's
//! messages; Spark Streaming draws the receiver's blocks and the driver's batches. Every strategy
//! draws the next record a source reads, and a replayed record after a restore (a spout's replay,
//! a batch run again, a checkpoint's replay). Each mechanism's catalogue row
//! ([`super::row::Row::marks`]) says which; a run that watches its flow adds each task's busy,
//! backpressured or idle mark, whatever the strategy.

/// A mark the canvas draws, as the legend names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// ◉ n: a task's save (a checkpoint's snapshot, or a timer's save).
    Save,
    /// The cut joining the saves a restore would use.
    Cut,
    /// A record buffered behind a barrier while its task aligns.
    Buffered,
    /// A record replayed after a restore.
    Replayed,
    /// A checkpoint barrier that travels behind the records.
    Barrier,
    /// An unaligned barrier, which overtakes records.
    UnalignedBarrier,
    /// A cancel marker for a declined checkpoint.
    CancelMarker,
    /// The next record a source reads.
    NextRecord,
    /// Storm: a pending tuple tree in the acker's table (its root's XOR value).
    TupleTree,
    /// Storm: an `__ack_init` / `__ack_ack` message on its way to the acker, or its answer.
    AckMessage,
    /// Spark: a block a receiver stored, with its copies.
    Block,
    /// Spark: a batch job in the driver's queue.
    Batch,
    /// ● busy, ▲ backpressured, ○ idle: what a task does, in a run that watches its flow (slow
    /// tasks, bounded or debloated channels), under any strategy.
    TaskTime,
}
