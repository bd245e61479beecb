//! Where the learner stands in the Batch room's lesson ("Batch: re-run the task, recompute the
//! lineage", the engine's [`BATCH_LESSON`](crate::engine::batch::BATCH_LESSON)): the step, whether
//! its prediction is revealed, and the partitions predicted.

use crate::engine::batch::format::BatchLessonAt;
use crate::engine::core::sorted_vec::SortedSet;

/// The lesson position in the room.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonAt {
    pub step: usize,
    pub revealed: bool,
    pub prediction: SortedSet<String>,
}

impl LessonAt {
    /// As a batch file keeps it.
    pub fn saved(&self) -> BatchLessonAt {
        BatchLessonAt {
            step: self.step,
            revealed: self.revealed,
            prediction: self.prediction.iter().cloned().collect(),
        }
    }

    /// From a batch file.
    pub fn of(saved: BatchLessonAt) -> LessonAt {
        LessonAt { step: saved.step, revealed: saved.revealed, prediction: saved.prediction.into() }
    }
}
