//! A task's snapshot: its operator state, where each of its channels stood (for the
//! consistent-cut check), and, for unaligned checkpoints, the in-flight records stored with it
//! (Flink's channel state, after Chandy and Lamport's channel recording). A timer save and a
//! checkpoint's acknowledgement carry the same thing.

use serde::{Deserialize, Serialize};

use crate::engine::action::Event;
use crate::engine::dataflow::operator::OpState;
use crate::engine::dataflow::record::Record;
use crate::engine::ids::{ChannelId, CheckpointId, TaskId};
use crate::engine::sim::Sim;

/// One task's saved state: operator state, where each channel stood, and (unaligned) the
/// in-flight records stored with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskSnapshot {
    pub task: TaskId,
    pub state: OpState,
    /// None for a timer save.
    pub checkpoint: Option<CheckpointId>,
    pub tick: u64,
    /// Per output channel: records sent before the snapshot.
    pub out_pos: Vec<u64>,
    /// Per input channel: records received before the snapshot.
    pub in_pos: Vec<u64>,
    /// In-flight data: (channel, seq, record) stored with the snapshot, replayed first on restore.
    pub in_flight: Vec<(ChannelId, u64, Record)>,
}

impl TaskSnapshot {
    pub fn size(&self) -> u64 {
        self.state.size() + 16 * self.in_flight.len() as u64
    }
}

impl Sim {
    /// The task's synchronous snapshot. For a checkpoint, a two-phase-commit sink pre-commits its
    /// open transaction first (snapshotState).
    pub(crate) fn take_snapshot(
        &mut self,
        t: TaskId,
        checkpoint: Option<CheckpointId>,
        out: &mut Vec<Event>,
    ) -> TaskSnapshot {
        if let Some(id) = checkpoint {
            self.pre_commit(t, id, out);
        }
        let info = self.graph.task(t);
        TaskSnapshot {
            task: t,
            state: self.live.tasks[t.index()].state.clone(),
            checkpoint,
            tick: self.tick,
            out_pos: info.out_channels.iter().map(|c| self.wire[c.index()].next_seq).collect(),
            in_pos: self.live.tasks[t.index()].in_pos.clone(),
            in_flight: vec![],
        }
    }
}
