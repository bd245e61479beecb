//! A task's progress through checkpoint barriers, as the barrier handlers keep it in the task
//! (volatile: a crash loses it). Aligned and unaligned checkpoints keep an [`Alignment`]: the
//! checkpoint whose barriers are coming in, which inputs have delivered theirs, and (unaligned)
//! the snapshot taken early with the in-flight records recorded since, as Flink's
//! `SingleCheckpointBarrierHandler` does. The at-least-once barrier tracker keeps a [`Tracker`]:
//! barrier counts per checkpoint, as Flink's `CheckpointBarrierTracker` does. Both are kept in
//! the task's slot for its mechanism's own state (`TaskRuntime.mechanism`), which the task loses
//! when it stops.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::record::Barrier;
use crate::engine::core::dataflow::task::TaskRuntime;
use crate::engine::core::ids::CheckpointId;
use crate::engine::core::own_state::Slot;
use crate::engine::core::snapshot::TaskSnapshot;

/// A task's progress through one checkpoint's barriers (aligned or unaligned): Flink's
/// `SingleCheckpointBarrierHandler` while a checkpoint is pending at the task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alignment {
    pub checkpoint: CheckpointId,
    /// The step the checkpoint was triggered, carried by its barrier: the alignment timeout
    /// counts from here (Flink's `BarrierAlignmentUtil.getTimerDelay`).
    pub timestamp: u64,
    /// Its first barrier was timeoutable ([`Barrier::timeoutable`]): the alignment timer runs.
    pub timeoutable: bool,
    /// Per input: has its barrier arrived?
    pub received: Vec<bool>,
    /// Unaligned (or timed out): the snapshot already taken, collecting in-flight input records
    /// until every barrier is in.
    pub unaligned: Option<Box<TaskSnapshot>>,
    /// The checkpoint was aborted after the task started it (its early snapshot discarded) or it
    /// sent a cancel marker on instead of starting it: it still collects the barriers, then
    /// acknowledges nothing.
    pub cancelled: bool,
}

impl Alignment {
    /// The barrier of `barrier.checkpoint` arrives on `input` of a task with `inputs` inputs:
    /// the first starts the task's alignment in `slot`. Returns whether it was the first, and
    /// the alignment.
    pub fn count(slot: &mut Slot, barrier: Barrier, input: usize, inputs: usize) -> (bool, &mut Alignment) {
        let first = slot.get::<Alignment>().is_none();
        let al = slot.get_or_insert_with(|| Alignment {
            checkpoint: barrier.checkpoint,
            timestamp: barrier.timestamp,
            timeoutable: barrier.timeoutable,
            received: vec![false; inputs],
            unaligned: None,
            cancelled: false,
        });
        al.received[input] = true;
        (first, al)
    }
    /// The alignment task `t` is in, if it is collecting a checkpoint's barriers.
    pub fn of(task: &TaskRuntime) -> Option<&Alignment> {
        task.mechanism.get()
    }
    pub fn of_mut(task: &mut TaskRuntime) -> Option<&mut Alignment> {
        task.mechanism.get_mut()
    }
    /// The task's alignment, ended: taken out of the task.
    pub fn end(task: &mut TaskRuntime) -> Option<Alignment> {
        task.mechanism.take()
    }
    pub fn waiting(&self) -> u16 {
        self.received.iter().filter(|r| !**r).count() as u16
    }
    /// May the task still take this checkpoint unaligned (it is aligning, not cancelled)?
    pub fn aligning(&self) -> bool {
        self.unaligned.is_none() && !self.cancelled
    }
}

/// A task's barrier tracker: the checkpoints with some but not all barriers in, oldest first
/// (Flink's `pendingCheckpoints`), and the newest checkpoint it has counted a barrier of
/// (`latestPendingCheckpointID`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tracker {
    pub pending: VecDeque<BarrierCount>,
    pub latest: Option<CheckpointId>,
}

impl Tracker {
    /// The tracker of task `t` (none yet: it has counted no barrier since it started).
    pub fn of(task: &TaskRuntime) -> Option<&Tracker> {
        task.mechanism.get()
    }
    /// The tracker of task `t`, started if it has none.
    pub fn of_mut(task: &mut TaskRuntime) -> &mut Tracker {
        task.mechanism.get_or_insert_with(Tracker::default)
    }
    /// Is the tracker counting the barriers of checkpoint `id`?
    pub fn counting(task: &TaskRuntime, id: CheckpointId) -> bool {
        Tracker::of(task).is_some_and(|tr| tr.pending.iter().any(|b| b.checkpoint == id))
    }
}

/// One checkpoint's barriers counted so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierCount {
    pub checkpoint: CheckpointId,
    pub count: u16,
}
