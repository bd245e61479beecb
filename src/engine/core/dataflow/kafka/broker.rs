//! The broker that outlives the job: the topic's partition log, its transaction coordinator,
//! its two readers, the zombies still writing to it, and its clock. What it keeps of each
//! transaction beside the external system's rows and status: who wrote it (transactional id,
//! producer id, epoch), when it began and how it ended, the checkpoint it was pre-committed for,
//! and the commit it refused.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::kafka::producer::Producer;
use crate::engine::core::dataflow::kafka::readers::{Isolation, Reader};
use crate::engine::core::dataflow::kafka::topic_log::PartitionLog;
use crate::engine::core::dataflow::kafka::transaction_coordinator::{Refusal, TransactionCoordinator};
use crate::engine::core::dataflow::record::Record;
use crate::engine::core::ids::{CheckpointId, TaskId, TxnId};

/// How a transaction ended on the broker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Committed,
    /// Aborted by an `initTransactions` on its id (a restarted writer fencing a zombie or
    /// aborting a lingering transaction).
    AbortedByInit,
    /// Aborted by the coordinator: open longer than the transaction timeout.
    TimedOut,
}

/// What the broker knows of one transaction (indexed by its `TxnId`, as `ExternalSystem::txns`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KafkaTxn {
    pub producer: Producer,
    pub began_ms: u64,
    /// How it ended and at which broker time.
    pub ended: Option<(Ending, u64)>,
    /// The checkpoint it was pre-committed for, if it was.
    pub pre_committed: Option<CheckpointId>,
    /// The committer's commit the broker refused, if one was.
    pub commit_failed: Option<Refusal>,
    /// A zombie wrote into it.
    pub zombie: bool,
}

/// A task cut off from the JobManager whose process goes on: its producer, and the records it
/// still holds (those in its input channels when it was cut off).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zombie {
    pub task: TaskId,
    pub producer: Option<Producer>,
    pub txn: Option<TxnId>,
    pub holds: Vec<Record>,
    pub fenced: bool,
}

/// The broker: the partition, its coordinator, its readers, the zombies, its clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KafkaBroker {
    pub log: PartitionLog,
    pub coordinator: TransactionCoordinator,
    pub txns: Vec<KafkaTxn>,
    pub readers: [Reader; 2],
    pub zombies: Vec<Zombie>,
    /// Milliseconds passed on the broker's clock beyond the run's steps.
    pub passed_ms: u64,
}

impl Default for KafkaBroker {
    fn default() -> Self {
        KafkaBroker {
            log: PartitionLog::default(),
            coordinator: TransactionCoordinator::default(),
            txns: vec![],
            readers: [Reader::new(Isolation::ReadCommitted), Reader::new(Isolation::ReadUncommitted)],
            zombies: vec![],
            passed_ms: 0,
        }
    }
}

impl KafkaBroker {
    /// The reader of `isolation`.
    pub fn reader(&self, isolation: Isolation) -> &Reader {
        &self.readers[isolation as usize]
    }
    /// The broker's time at step `tick`, one step taking `step_ms`.
    pub fn now_ms(&self, tick: u64, step_ms: u64) -> u64 {
        tick.saturating_mul(step_ms).saturating_add(self.passed_ms)
    }
    /// Both readers read what they may at step `tick`.
    pub fn poll(&mut self, tick: u64) {
        for r in &mut self.readers {
            r.poll(&self.log, tick);
        }
    }
}
