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

use crate::engine::core::dataflow::channel::SeqSet;
use crate::engine::core::dataflow::record::Record;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::{ChannelId, CheckpointId, TaskId};

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
