//! A transactional producer as the broker knows it: its `transactional.id`, the producer id the
//! transaction coordinator gave it, and its epoch. Flink's `KafkaSink` (with the default
//! `TransactionNamingStrategy`, `INCREMENTING`) opens one transaction per sink subtask and
//! checkpoint, named by `TransactionalIdFactory.buildTransactionalId` as
//! `transactionalIdPrefix-subtaskId-checkpointOffset`: the data written before checkpoint N's
//! barrier goes into `prefix-subtask-N`. The simulator takes the sink operator's name as the
//! prefix (`KafkaSinkBuilder` requires one under exactly-once).
//!
//! The epoch fences zombies (KIP-98): `initTransactions` on a transactional id raises its epoch,
//! and the broker refuses every write and commit of a producer with an older one
//! (`ProducerFencedException`).

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::ids::TaskId;

/// `transactionalIdPrefix-subtaskId-checkpointOffset`: the sink task (its subtask index is the
/// id's) and the checkpoint whose data the transaction holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TransactionalId {
    pub task: TaskId,
    pub checkpoint: u64,
}

impl TransactionalId {
    /// The id as `TransactionalIdFactory` writes it, with the sink operator's name as prefix.
    pub fn name(self, g: &JobGraph) -> String {
        let task = g.task(self.task);
        let prefix = &g.spec.operators[task.operator.index()].name;
        format!("{prefix}-{}-{}", task.subtask, self.checkpoint)
    }
}

/// A producer handle: the transactional id, the producer id and the epoch it was given at
/// `initTransactions`. A handle whose epoch is older than the coordinator's is fenced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Producer {
    pub id: TransactionalId,
    pub producer_id: u32,
    pub epoch: u16,
}
