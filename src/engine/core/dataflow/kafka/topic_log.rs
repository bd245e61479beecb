//! The topic's partition as a log: the records the sinks wrote, each stamped with its producer,
//! and the transaction markers the coordinator writes when a transaction ends (KIP-98's
//! `WriteTxnMarkers`: a COMMIT or ABORT control record). A record of a transaction is in the log
//! from the moment it is written; the marker decides whether a `read_committed` reader ever sees
//! it. The **last stable offset** (LSO) is the offset of the first record of a transaction not yet
//! ended (or the log's end): `read_committed` readers read up to it, so one open transaction holds
//! back every record after it, whoever wrote them.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::kafka::producer::Producer;
use crate::engine::core::dataflow::row::Row;
use crate::engine::core::ids::TxnId;

/// One entry of the partition log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "entry")]
pub enum Entry {
    /// A record: in transaction `txn`, or (at-least-once, a plain producer) in none.
    Record { row: Row, producer: Option<Producer>, txn: Option<TxnId> },
    /// The control record ending transaction `txn`: a commit, or an abort.
    Marker { producer: Producer, txn: TxnId, commit: bool },
}

/// An entry at its offset, with the broker's time it was appended at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    pub at_ms: u64,
    pub entry: Entry,
}

/// The partition log. `ended[txn]` is how each transaction ended, once its marker is written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionLog {
    pub entries: Vec<LogEntry>,
    pub ended: Vec<Option<bool>>,
}

impl PartitionLog {
    pub fn append(&mut self, at_ms: u64, entry: Entry) {
        if let Entry::Marker { txn, commit, .. } = entry {
            let i = txn.index();
            if self.ended.len() <= i {
                self.ended.resize(i + 1, None);
            }
            self.ended[i] = Some(commit);
        }
        self.entries.push(LogEntry { at_ms, entry });
    }

    /// How transaction `txn` ended: Some(true) committed, Some(false) aborted, None still open.
    pub fn outcome(&self, txn: TxnId) -> Option<bool> {
        self.ended.get(txn.index()).copied().flatten()
    }

    /// The high watermark: the log's end (one partition, one replica: every entry is replicated).
    pub fn high_watermark(&self) -> usize {
        self.entries.len()
    }

    /// The last stable offset: the first record of a transaction without its marker yet, or the
    /// log's end.
    pub fn last_stable_offset(&self) -> usize {
        self.entries
            .iter()
            .position(|e| matches!(e.entry, Entry::Record { txn: Some(t), .. } if self.outcome(t).is_none()))
            .unwrap_or(self.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::dataflow::kafka::producer::TransactionalId;
    use crate::engine::core::ids::{RecordId, TaskId};

    fn rec(r: u32, txn: Option<u32>) -> Entry {
        let row = Row { record: RecordId(r), value: 1, sink: TaskId(0), tick: 0 };
        Entry::Record { row, producer: None, txn: txn.map(TxnId) }
    }
    fn marker(txn: u32, commit: bool) -> Entry {
        let producer = Producer { id: TransactionalId { task: TaskId(0), checkpoint: 1 }, producer_id: 0, epoch: 0 };
        Entry::Marker { producer, txn: TxnId(txn), commit }
    }

    #[test]
    fn an_open_transaction_holds_the_last_stable_offset_back() {
        let mut log = PartitionLog::default();
        log.append(0, rec(0, None));
        assert_eq!(log.last_stable_offset(), 1);
        log.append(1, rec(1, Some(0)));
        log.append(2, rec(2, Some(1)));
        log.append(3, marker(1, true));
        // Transaction 1 committed, but transaction 0 is open before it.
        assert_eq!((log.last_stable_offset(), log.high_watermark()), (1, 4));
        log.append(4, marker(0, false));
        assert_eq!(log.last_stable_offset(), 5);
        assert_eq!((log.outcome(TxnId(0)), log.outcome(TxnId(1))), (Some(false), Some(true)));
    }
}
