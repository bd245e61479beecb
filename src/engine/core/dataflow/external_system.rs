//! The external system the sinks write to: a database table or a topic outside the job. It
//! survives every crash. Readers see appended rows, upserted rows (one per record), and the rows of
//! committed transactions only.

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::{CheckpointId, RecordId, TaskId, TxnId};
use crate::engine::core::sorted_vec::SortedMap;

pub use crate::engine::core::dataflow::row::Row;

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
    pub table: SortedMap<RecordId, Row>,
    /// Two-phase commit: every transaction ever begun.
    pub txns: Vec<Txn>,
    /// Transactional output by key: the (batch time, partition) keys already committed. A writer
    /// that writes a key's output only if the key is not here writes each batch once, however
    /// often the batch runs (the mechanism that writes so cites its system).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub batch_commits: Vec<(u64, TaskId)>,
    /// The Kafka sink's broker (`sink: kafka`): the partition log, the transaction coordinator,
    /// the readers, the zombies, the broker's clock (`core/dataflow/kafka/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kafka: Option<Box<crate::engine::core::dataflow::kafka::broker::KafkaBroker>>,
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
