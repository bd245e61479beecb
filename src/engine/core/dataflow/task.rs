//! Tasks: one parallel instance (subtask) of an operator. A task takes one item at a time from
//! the head of one of its input channels, as a Flink task's mailbox thread does: a record goes to
//! the operator, a barrier or a cancel marker to the fault-tolerance mechanism. Everything here is
//! volatile: a crash loses it.

use crate::engine::core::sorted_vec::SortedSet;

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::channel::SeqSet;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::dataflow::task_time::TaskTime;
use crate::engine::core::ids::CheckpointId;
use crate::engine::core::own_state::Slot;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskStatus {
    Running,
    /// Failed: volatile state lost.
    Crashed,
    /// Stopped by the failover of the job (or the JobManager's failure).
    Canceled,
}

#[derive(Clone, Debug)]
#[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq, Eq))]
pub struct TaskRuntime {
    pub status: TaskStatus,
    pub state: OpState,
    /// Per input channel: sequence number of the next record to receive.
    pub in_pos: Vec<u64>,
    /// Per input channel: what the state this incarnation started from had received there (the
    /// restored snapshot's, empty for a fresh start). Since then it has received `in_from..in_pos`.
    pub received_before: Vec<SeqSet>,
    /// Per input channel: the first sequence number this incarnation could receive there.
    pub in_from: Vec<u64>,
    /// Per output channel: what the state this incarnation started from had sent there. Since
    /// then it has sent `out_from..` up to the channel's next sequence number.
    pub sent_before: Vec<SeqSet>,
    /// Per output channel: the first sequence number this incarnation sent (or will send) there.
    pub out_from: Vec<u64>,
    /// The mechanism's own state at this task (`core::own_state`), which the task loses
    /// when it stops: the barrier handlers' alignment, the at-least-once handler's barrier counts.
    pub mechanism: Slot,
    /// The newest checkpoint this task has snapshotted, or given up for a newer barrier or a
    /// cancel marker: barriers of older ones are ignored.
    pub last_checkpoint: Option<CheckpointId>,
    /// Checkpoints the CheckpointCoordinator said were aborted before this task started them
    /// (Flink's `abortedCheckpointIds` in `SubtaskCheckpointCoordinatorImpl`): when its barrier
    /// handler would start one, the task takes no snapshot and sends a cancel marker on instead.
    pub aborted: SortedSet<CheckpointId>,
    /// Rebalance partitioning: the next output channel, round robin.
    pub rr: u32,
    /// The step its last record (a source: its last read) was taken at plus the task's
    /// `record-cost`: busy until then (`slow_tasks`). Kept only while the run watches its flow.
    pub busy_until: u64,
    /// Its last steps, busy, backpressured or idle, and its input buffers (`task_time`).
    pub time: TaskTime,
}

impl TaskRuntime {
    /// What is left of a task once the job is down: a crashed task's state is gone; a canceled
    /// one's is shown as it was until the restart replaces it. No barrier progress survives.
    pub(crate) fn stopped(self, crashed: bool, initial: OpState) -> TaskRuntime {
        let (status, state) = if crashed { (TaskStatus::Crashed, initial) } else { (TaskStatus::Canceled, self.state) };
        TaskRuntime { status, state, mechanism: Slot::default(), aborted: SortedSet::new(), ..self }
    }
}
