//! A task's snapshot: its operator state, what it had sent and received on each of its channels
//! (for the consistent-cut check), and, for unaligned checkpoints, the in-flight records stored
//! with it (Flink's channel state, after Chandy and Lamport's channel recording). A timer save and
//! a checkpoint's acknowledgement carry the same thing.
//!
//! What a task had sent and received counts the state it was restored from: a source restored at
//! offset k has sent the records of offsets below k, whichever incarnation sent them (Elnozahy et
//! al., "A Survey of Rollback-Recovery Protocols": a checkpoint records the sends and receives
//! before it). So saves taken before and after a restore compare as the restore will play them.

use serde::{Deserialize, Serialize};

use crate::engine::action::Event;
use crate::engine::dataflow::channel::SeqSet;
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
    /// Per output channel: the records the saved state has sent there, by sequence number.
    pub sent: Vec<SeqSet>,
    /// Per input channel: the records the saved state has received there, by sequence number.
    pub received: Vec<SeqSet>,
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
        TaskSnapshot {
            task: t,
            state: self.live.tasks[t.index()].state.clone(),
            checkpoint,
            tick: self.tick,
            sent: self.sent_by(t),
            received: self.received_by(t),
            in_flight: vec![],
        }
    }

    /// Per output channel: what task `t`'s state has sent there, its restored state's included.
    pub fn sent_by(&self, t: TaskId) -> Vec<SeqSet> {
        let task = &self.live.tasks[t.index()];
        let outs = &self.graph.task(t).out_channels;
        outs.iter()
            .enumerate()
            .map(|(i, c)| task.sent_before[i].with(task.out_from[i], self.wire[c.index()].next_seq))
            .collect()
    }

    /// Per input channel: what task `t`'s state has received there, its restored state's included.
    pub fn received_by(&self, t: TaskId) -> Vec<SeqSet> {
        let task = &self.live.tasks[t.index()];
        (0..task.in_pos.len()).map(|i| task.received_before[i].with(task.in_from[i], task.in_pos[i])).collect()
    }

    /// A restart puts task `s.task` back to snapshot `s`: its state, and what that state had sent and
    /// received, after which the new incarnation's own sending and receiving follow.
    pub(crate) fn restore_task(&mut self, s: &TaskSnapshot) {
        let task = &mut self.live.tasks[s.task.index()];
        task.state = s.state.clone();
        task.sent_before = s.sent.clone();
        task.received_before = s.received.clone();
    }
}
