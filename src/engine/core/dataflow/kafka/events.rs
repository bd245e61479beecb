//! What the Kafka sink and its broker report, beside the sink's own events (`SinkWrite`,
//! `TxnPreCommitted`, `TxnCommitted`, `TxnAborted`): producers initialized with their epochs,
//! transactions the broker timed out, commits the broker refused, fenced writes, a task cut off
//! and its zombie's writes, and the broker's clock moved on. Worded in `wording.rs`.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::kafka::transaction_coordinator::Refusal;
use crate::engine::core::ids::{RecordId, TaskId, TxnId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum KafkaEvent {
    /// `initTransactions` for sink `task`'s transactional id of `checkpoint`: its producer id and
    /// new epoch; `aborted` is the transaction in progress it fenced and aborted. `probing`: the
    /// restarted writer aborting lingering transactions (`TransactionAbortStrategyImpl.PROBING`).
    ProducerInitialized {
        task: TaskId,
        checkpoint: u32,
        producer_id: u32,
        epoch: u16,
        aborted: Option<TxnId>,
        probing: bool,
    },
    /// The broker aborted transaction `txn` (sink `task`'s, for `checkpoint`): it had been open
    /// longer than `transaction.timeout.ms` at broker time `at_ms`.
    TransactionTimedOut { task: TaskId, txn: TxnId, checkpoint: u32, rows: u32, at_ms: u64 },
    /// The `KafkaCommitter` could not commit `txn`: the broker refused (`refusal`). Flink logs
    /// it and drops the committable (`signalFailedWithKnownReason`): its rows are lost.
    CommitFailed { task: TaskId, txn: TxnId, checkpoint: u32, rows: u32, refusal: Refusal },
    /// A write of `record` by a fenced producer was refused (`ProducerFencedException`); a
    /// `zombie`'s, or the running writer's after the broker timed its transaction out (the task
    /// then fails).
    WriteFenced { task: TaskId, record: RecordId, zombie: bool },
    /// Sink `task` lost its JobManager (a network partition: its heartbeats time out) and is
    /// failed over, but its process goes on: a zombie holding `holds` records still to write.
    CutOff { task: TaskId, holds: u32 },
    /// The zombie of `task` wrote `record`: into its transaction `txn`, or (at-least-once) as a
    /// plain write.
    ZombieWrote { task: TaskId, record: RecordId, txn: Option<TxnId> },
    /// The broker's clock moved on `ms` without the job doing anything; it reads `now_ms`.
    TimePassed { ms: u64, now_ms: u64 },
}
