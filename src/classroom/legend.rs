//! The legend's marks: which marks the canvas can draw under a strategy, so the legend explains
//! those and no others. Flink's checkpointing strategies draw barriers (aligned ones, unaligned
//! ones, cancel markers) and the tasks' saves joined by the cut; per-task timers draw saves
//! without barriers; Storm's acker draws tuple trees in its table and the acker's messages;
//! Spark Streaming draws the receiver's blocks and the driver's batches. Every strategy draws the
//! next record a source reads, and a replayed record after a restore (a spout's replay, a batch
//! run again, a checkpoint's replay). A run with slow tasks, bounded or debloated channels adds
//! each task's busy, backpressured or idle mark.

use crate::engine::Settings;

pub use crate::engine::mechanisms::marks::Mark;

/// The marks the canvas can draw under `settings`' strategy, in the legend's order: its catalogue
/// row's.
pub fn marks(settings: &Settings) -> Vec<Mark> {
    let mut marks = (settings.strategy.row().marks)(settings).to_vec();
    // Slow tasks, bounded or debloated channels: each task's corner says what it does.
    if !settings.record_cost.is_empty()
        || settings.channel_capacity.is_some()
        || !settings.channel_capacities.is_empty()
        || settings.buffer_debloat_target.is_some()
    {
        marks.push(Mark::TaskTime);
    }
    marks
}
