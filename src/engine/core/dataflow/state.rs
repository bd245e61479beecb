//! Operator state: exactly what a task's snapshot saves and a restore puts back. A source's state
//! is the next offset to read (Kafka's committed "offset + 1"); keyed count and sum keep, per key,
//! the value and the records that contributed to it; a two-phase-commit sink keeps its open
//! transaction and the pre-committed ones awaiting commit (Flink's `TwoPhaseCommitSinkFunction`
//! state). Map and filter hold none.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::contributors::Contributors;
use crate::engine::core::ids::{CheckpointId, KeyId, TxnId};
use crate::engine::core::sorted_vec::SortedMap;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyedEntry {
    pub contributors: Contributors,
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
        entries: SortedMap<KeyId, KeyedEntry>,
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
