//! The verdict per record for each of the topic's readers, after the ledger's (`core/ledger.rs`):
//! how often a reader has read the record, against the failure-free run, and what it read of
//! aborted transactions.
//! - `read_committed`: exactly once; duplicated (at-least-once delivery writes again what a
//!   restore replays); lost, with why: a transaction pre-committed for a completed checkpoint that
//!   the broker aborted (its timeout) before the committer's commit; pending while its transaction
//!   is open (the last stable offset holds it back).
//! - `read_uncommitted`: as above, and **seen then rolled back**: it read the record from a
//!   transaction that was later aborted (a fenced zombie's, a lingering one's, a timed-out one's).

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::kafka::broker::{Ending, KafkaBroker};
use crate::engine::core::dataflow::kafka::readers::Isolation;
use crate::engine::core::dataflow::kafka::topic_log::Entry;
use crate::engine::core::dataflow::kafka::transaction_coordinator::Refusal;
use crate::engine::core::ids::{CheckpointId, RecordId, TxnId};

/// What one reader made of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "verdict")]
pub enum ReaderVerdict {
    ExactlyOnce,
    Duplicated,
    /// Read fewer times than the failure-free run, and nothing will bring it; `why` when a
    /// transaction holding it was aborted after its checkpoint completed.
    Lost {
        why: Option<LostWhy>,
    },
    /// Read from a transaction that was later aborted (`read_uncommitted` only); `again`: read
    /// as often as expected besides.
    SeenThenRolledBack {
        again: bool,
    },
    /// Still to come: on its way, in a transaction not yet ended, or held back behind one (the
    /// last stable offset) until that one ends: a lingering transaction ends at the latest when
    /// the broker's timeout aborts it.
    Pending,
}

/// Why a record is lost although its checkpoint completed: transaction `txn`, pre-committed for
/// `checkpoint`, ended as `ending` at broker time `at_ms` (the timeout, or a fence) before the
/// committer's commit, which the broker refused (`refusal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LostWhy {
    pub txn: TxnId,
    pub checkpoint: CheckpointId,
    pub ending: Ending,
    pub at_ms: u64,
    pub refusal: Refusal,
}

impl ReaderVerdict {
    pub fn id(self) -> &'static str {
        match self {
            ReaderVerdict::ExactlyOnce => "exactly-once",
            ReaderVerdict::Duplicated => "duplicated",
            ReaderVerdict::Lost { .. } => "lost",
            ReaderVerdict::SeenThenRolledBack { .. } => "seen-then-rolled-back",
            ReaderVerdict::Pending => "pending",
        }
    }
}

/// Judges record `r` for the reader of `isolation`: `expected` reads in the failure-free run,
/// `on_its_way` if the job still brings it (or an open transaction holds it).
pub fn judge(
    broker: &KafkaBroker,
    isolation: Isolation,
    r: RecordId,
    expected: u32,
    on_its_way: bool,
) -> ReaderVerdict {
    let reader = broker.reader(isolation);
    let mine = || reader.read.iter().filter(|x| x.record == r);
    let rolled_back = mine().filter(|x| x.txn.is_some_and(|t| broker.log.outcome(t) == Some(false))).count() as u32;
    let kept = mine().count() as u32 - rolled_back;
    if kept > expected {
        ReaderVerdict::Duplicated
    } else if rolled_back > 0 {
        ReaderVerdict::SeenThenRolledBack { again: kept == expected }
    } else if on_its_way || held_back(broker, isolation, r) {
        ReaderVerdict::Pending
    } else if kept == expected {
        ReaderVerdict::ExactlyOnce
    } else {
        ReaderVerdict::Lost { why: lost_why(broker, r) }
    }
}

/// Is `r` in the log past the reader's position, in a transaction not aborted: written, but held
/// back by the last stable offset (a transaction still open before it)?
fn held_back(broker: &KafkaBroker, isolation: Isolation, r: RecordId) -> bool {
    let from = broker.reader(isolation).position;
    broker.log.entries.iter().skip(from).any(|e| match e.entry {
        Entry::Record { row, txn, .. } => row.record == r && txn.is_none_or(|t| broker.log.outcome(t) != Some(false)),
        Entry::Marker { .. } => false,
    })
}

/// The pre-committed transaction holding `r` whose commit the broker refused, if any.
fn lost_why(broker: &KafkaBroker, r: RecordId) -> Option<LostWhy> {
    broker.log.entries.iter().find_map(|e| match e.entry {
        Entry::Record { row, txn: Some(txn), .. } if row.record == r => {
            let info = broker.txns.get(txn.index())?;
            let (ending, at_ms) = info.ended?;
            Some(LostWhy { txn, checkpoint: info.pre_committed?, ending, at_ms, refusal: info.commit_failed? })
        }
        _ => None,
    })
}
