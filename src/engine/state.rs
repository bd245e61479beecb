//! What a run holds. Volatile task state ([`TaskRuntime`]: operator state, alignment, channel
//! positions) is lost in a crash; durable state survives it: [`CheckpointStorage`] (completed
//! checkpoints and timer saves), the checkpoint id counter, and the sink's [`ExternalSystem`].
//! [`Channel`]s are FIFO queues of records and checkpoint barriers between two subtasks.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use super::action::AbortReason;
use super::ids::{ChannelId, CheckpointId, KeyId, RecordId, TaskId, TxnId};

/// A record on the wire: the source record it derives from and its current value (a count, a sum,
/// or the source value). `replayed` marks records that a source re-read or a restore put back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub id: RecordId,
    pub value: i64,
    pub replayed: bool,
}

/// One item in a channel: a record with its sequence number on that channel, or a checkpoint
/// barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    Record { seq: u64, rec: Record },
    Barrier(CheckpointId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    Delivered,
    /// Lost in a crash while in flight.
    Dropped,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Channel {
    pub queue: VecDeque<Item>,
    /// Sequence number of the next record sent on this channel.
    pub next_seq: u64,
    /// Aligned checkpoints: the barrier arrived here; records behind it stay buffered.
    pub blocked: bool,
    /// Delivered or dropped records still needed by the consistent-cut check (seq >= `retain_from`).
    pub history: VecDeque<(u64, Record, Fate)>,
    pub retain_from: u64,
}

impl Channel {
    pub fn retain(&mut self, seq: u64, rec: Record, fate: Fate) {
        if seq >= self.retain_from {
            self.history.push_back((seq, rec, fate));
        }
    }
    /// The record with sequence number `seq`, if still known (queued or retained).
    pub fn find(&self, seq: u64) -> Option<Record> {
        if let Ok(i) = self.history.binary_search_by_key(&seq, |h| h.0) {
            return Some(self.history[i].1);
        }
        self.queue.iter().find_map(|it| match it {
            Item::Record { seq: s, rec } if *s == seq => Some(*rec),
            _ => None,
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyedEntry {
    pub contributors: Vec<RecordId>,
    pub sum: i64,
}

/// An operator's state: exactly what a snapshot saves and a restore puts back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpState {
    /// The next offset to read (Arroyo's and Kafka's "offset + 1").
    Source {
        next_offset: u32,
    },
    Stateless,
    Keyed {
        entries: BTreeMap<KeyId, KeyedEntry>,
    },
    /// Two-phase-commit sink: the open transaction and the pre-committed ones awaiting commit.
    Sink {
        open: Option<TxnId>,
        pending: Vec<(CheckpointId, TxnId)>,
    },
}

impl OpState {
    /// A rough size in bytes, as the Checkpoints tab's "checkpointed data size".
    pub fn size(&self) -> u64 {
        match self {
            OpState::Source { .. } => 8,
            OpState::Stateless => 0,
            OpState::Keyed { entries } => entries.values().map(|e| 16 + 4 * e.contributors.len() as u64).sum(),
            OpState::Sink { pending, .. } => 8 + 16 * pending.len() as u64,
        }
    }
}

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

/// A task's progress through one checkpoint's barriers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alignment {
    pub checkpoint: CheckpointId,
    pub started: u64,
    /// Per input: has its barrier arrived?
    pub received: Vec<bool>,
    /// Unaligned (or timed out): the snapshot already taken, collecting in-flight input records
    /// until every barrier is in.
    pub unaligned: Option<Box<TaskSnapshot>>,
}

impl Alignment {
    pub fn waiting(&self) -> u16 {
        self.received.iter().filter(|r| !**r).count() as u16
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskStatus {
    Running,
    /// Failed: volatile state lost.
    Crashed,
    /// Stopped by the failover of the job (or the JobManager's failure).
    Canceled,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskRuntime {
    pub status: TaskStatus,
    pub state: OpState,
    /// Per input channel: sequence number of the next record to receive.
    pub in_pos: Vec<u64>,
    pub alignment: Option<Alignment>,
    /// At-least-once barrier tracker: barriers counted per checkpoint.
    pub tracker: BTreeMap<CheckpointId, u16>,
    /// The newest checkpoint this task has snapshotted or given up.
    pub last_checkpoint: Option<CheckpointId>,
    pub rr: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingCheckpoint {
    pub id: CheckpointId,
    pub trigger_tick: u64,
    pub snapshots: Vec<Option<TaskSnapshot>>,
    pub acked: u16,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompletedCheckpoint {
    pub id: CheckpointId,
    pub trigger_tick: u64,
    pub completed_tick: u64,
    pub snapshots: Vec<TaskSnapshot>,
}

/// The JobManager's CheckpointCoordinator. `pending` is volatile (lost with the JobManager);
/// `next_id` survives failover, so ids keep rising.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coordinator {
    pub next_id: u64,
    pub pending: Vec<PendingCheckpoint>,
    pub aborted: BTreeSet<CheckpointId>,
    /// Stop-the-world in progress: (checkpoint, trigger step).
    pub stop_the_world: Option<(CheckpointId, u64)>,
}

/// Durable checkpoint storage: completed checkpoints (num-retained) and per-task timer saves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointStorage {
    pub completed: Vec<CompletedCheckpoint>,
    pub saves: Vec<Vec<TaskSnapshot>>,
}

pub const SAVES_KEPT: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub record: RecordId,
    pub value: i64,
    pub sink: TaskId,
    pub tick: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TxnStatus {
    Open,
    PreCommitted(CheckpointId),
    Committed,
    Aborted,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Txn {
    pub id: TxnId,
    pub sink: TaskId,
    pub rows: Vec<Row>,
    pub status: TxnStatus,
}

/// The system the sink writes to, outside the job: it survives every crash.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalSystem {
    /// Plain append: every write, in order.
    pub appended: Vec<Row>,
    /// Idempotent upsert: one row per record.
    pub table: BTreeMap<RecordId, Row>,
    /// Two-phase commit: every transaction ever begun.
    pub txns: Vec<Txn>,
}

impl ExternalSystem {
    /// What an outside reader sees (committed transactions only).
    pub fn visible(&self) -> Vec<Row> {
        let mut v: Vec<Row> = self.appended.clone();
        v.extend(self.table.values().copied());
        for t in &self.txns {
            if t.status == TxnStatus::Committed {
                v.extend(t.rows.iter().copied());
            }
        }
        v
    }
    pub fn txn_mut(&mut self, id: TxnId) -> &mut Txn {
        &mut self.txns[id.0 as usize]
    }
}

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
    pub acked: u16,
    pub total: u16,
    pub trigger_tick: u64,
    pub latest_ack: Option<u64>,
    pub end_tick: Option<u64>,
    pub state_size: u64,
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
