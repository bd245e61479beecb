//! A checkpoint as the JobManager keeps it in memory: pending until every task has acknowledged
//! (Flink's `PendingCheckpoint`), the notifications of completion on their way to the tasks, the
//! count of failed checkpoints (`CheckpointFailureManager`), and the checkpoint id counter
//! (`CheckpointIDCounter`), which alone survives the JobManager. The CheckpointCoordinator that
//! works with them is in `jobmanager/coordinator.rs`; completed checkpoints go to `jobmanager/storage.rs`.

use crate::engine::core::sorted_vec::SortedSet;

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::{CheckpointId, TaskId};
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::jobmanager::savepoint_kinds::SavepointType;

/// A checkpoint triggered and not yet completed or aborted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingCheckpoint {
    pub id: CheckpointId,
    pub trigger_tick: u64,
    pub snapshots: Vec<Option<TaskSnapshot>>,
    pub acked: u16,
    /// A savepoint, not a checkpoint (`CheckpointProperties.forSavepoint`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub savepoint: Option<SavepointType>,
}

/// The coordinator's volatile state: lost with the JobManager.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coordinator {
    pub pending: Vec<PendingCheckpoint>,
    pub aborted: SortedSet<CheckpointId>,
    /// The `CheckpointFailureManager`: it outlives a task failover (the crash carries it over).
    pub failures: FailureCounter,
    /// Trigger requests waiting for a slot (`CheckpointRequestDecider`'s queue): a trigger while
    /// max-concurrent-checkpoints are pending waits here and runs when one ends.
    #[serde(default)]
    pub queued: u32,
}

/// Flink's `CheckpointFailureManager`: counted checkpoint failures in a row, and the newest
/// checkpoint that completed (a failure of an older one is not counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureCounter {
    pub consecutive: u32,
    pub last_succeeded: Option<CheckpointId>,
}

/// A `notifyCheckpointComplete` on its way from the JobManager to a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notification {
    pub task: TaskId,
    pub checkpoint: CheckpointId,
}

/// The checkpoint id counter: durable, so ids keep rising across failover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointIdCounter(pub u64);

impl Default for CheckpointIdCounter {
    fn default() -> CheckpointIdCounter {
        CheckpointIdCounter(1)
    }
}

impl CheckpointIdCounter {
    /// Flink's `CheckpointIDCounter.getAndIncrement`.
    pub fn get_and_increment(&mut self) -> CheckpointId {
        self.0 += 1;
        CheckpointId(self.0 - 1)
    }
}
