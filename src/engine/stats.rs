//! Checkpoint statistics, as Flink's web UI shows them in the Checkpoints tab: per checkpoint its
//! status, acknowledgements, duration, size and in-flight data, and per subtask the start delay,
//! the alignment time and whether it went unaligned. Times are logical steps. The simulator keeps
//! these for the learner; they are not part of the job and survive every crash.

use serde::{Deserialize, Serialize};

use crate::engine::action::AbortReason;
use crate::engine::ids::CheckpointId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "status", content = "reason")]
pub enum CheckpointStatus {
    InProgress,
    Completed,
    Failed(AbortReason),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubtaskStats {
    pub ack_tick: Option<u64>,
    pub first_barrier: Option<u64>,
    pub last_barrier: Option<u64>,
    /// Steps from the trigger to the first barrier reaching this task.
    pub start_delay: Option<u64>,
    /// Steps from the first to the last barrier (aligned: inputs blocked meanwhile).
    pub alignment: Option<u64>,
    pub unaligned: bool,
    pub state_size: u64,
    pub in_flight: u32,
}

/// One row of the Checkpoints tab's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointRecord {
    pub id: CheckpointId,
    pub status: CheckpointStatus,
    /// Acknowledgements so far, of `total` tasks.
    pub acked: u16,
    pub total: u16,
    pub trigger_tick: u64,
    /// The step of the latest acknowledgement.
    pub latest_ack: Option<u64>,
    /// The step it completed or failed.
    pub end_tick: Option<u64>,
    /// "Checkpointed data size": the sum of the acknowledged snapshots' sizes.
    pub state_size: u64,
    /// In-flight records stored (unaligned).
    pub in_flight: u32,
    /// Stop-the-world only: steps the sources were paused.
    pub stall: Option<u64>,
    pub subtasks: Vec<SubtaskStats>,
}

impl CheckpointRecord {
    /// End-to-end duration in steps (so far, if still in progress).
    pub fn duration(&self, now: u64) -> u64 {
        self.end_tick.unwrap_or(now) - self.trigger_tick
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointStats {
    pub history: Vec<CheckpointRecord>,
    pub restored: u32,
    pub latest_restored: Option<CheckpointId>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub triggered: u32,
    pub in_progress: u32,
    pub completed: u32,
    pub failed: u32,
    pub restored: u32,
}

impl CheckpointStats {
    pub fn counts(&self) -> Counts {
        let mut c = Counts { restored: self.restored, ..Counts::default() };
        for r in &self.history {
            c.triggered += 1;
            match r.status {
                CheckpointStatus::InProgress => c.in_progress += 1,
                CheckpointStatus::Completed => c.completed += 1,
                CheckpointStatus::Failed(_) => c.failed += 1,
            }
        }
        c
    }
    pub fn get_mut(&mut self, id: CheckpointId) -> Option<&mut CheckpointRecord> {
        // Ids rise with the history, so a binary search finds them.
        let i = self.history.binary_search_by_key(&id, |r| r.id).ok()?;
        self.history.get_mut(i)
    }
}
