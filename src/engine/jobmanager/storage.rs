//! Checkpoint storage: where snapshots go to survive a crash, as Flink's checkpoint storage and
//! `CompletedCheckpointStore` keep them. It holds the completed checkpoints (only the newest
//! `num-retained`) and, for per-task timers, each task's latest saves. It is durable: no crash
//! touches it.

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::CheckpointId;
use crate::engine::core::snapshot::TaskSnapshot;

/// A checkpoint every task acknowledged: one snapshot per task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompletedCheckpoint {
    pub id: CheckpointId,
    pub trigger_tick: u64,
    pub completed_tick: u64,
    pub snapshots: Vec<TaskSnapshot>,
}

/// Durable checkpoint storage: completed checkpoints (num-retained) and per-task timer saves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointStorage {
    pub completed: Vec<CompletedCheckpoint>,
    pub saves: Vec<Vec<TaskSnapshot>>,
}

/// How many timer saves each task keeps.
pub const SAVES_KEPT: usize = 4;

impl CheckpointStorage {
    /// Adds a completed checkpoint and drops the oldest beyond `num_retained`.
    pub fn retain_completed(&mut self, cp: CompletedCheckpoint, num_retained: usize) {
        self.completed.push(cp);
        let len = self.completed.len();
        if len > num_retained {
            self.completed.drain(..len - num_retained);
        }
    }
}
