//! Two consumers of the topic, after Kafka's `isolation.level` (KIP-98):
//! - `read_committed` reads up to the last stable offset, and skips the records of aborted
//!   transactions (the consumer's aborted-transactions index): it sees committed data only, and
//!   an open transaction holds back everything after it, so its latency is up to a checkpoint
//!   interval;
//! - `read_uncommitted` (the consumer's default) reads up to the high watermark: every record as
//!   soon as it is written, including those of transactions that are later aborted.
//!
//! Each keeps its position and what it has read, with the step it read it at. Both poll whenever
//! the log changes; they are outside the job and survive every crash.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::kafka::topic_log::{Entry, PartitionLog};
use crate::engine::core::ids::{RecordId, TxnId};

/// `isolation.level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Isolation {
    ReadCommitted,
    ReadUncommitted,
}

impl Isolation {
    pub const BOTH: [Isolation; 2] = [Isolation::ReadCommitted, Isolation::ReadUncommitted];
    pub fn id(self) -> &'static str {
        match self {
            Isolation::ReadCommitted => "read_committed",
            Isolation::ReadUncommitted => "read_uncommitted",
        }
    }
}

/// One record a reader has read: where, from which transaction, written and read when (steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadRecord {
    pub record: RecordId,
    pub offset: u32,
    pub txn: Option<TxnId>,
    pub written: u64,
    pub read: u64,
}

/// A consumer of the partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reader {
    pub isolation: Isolation,
    /// The next offset it will read.
    pub position: usize,
    pub read: Vec<ReadRecord>,
}

impl Reader {
    pub fn new(isolation: Isolation) -> Reader {
        Reader { isolation, position: 0, read: vec![] }
    }

    /// Reads what it may of `log` at step `tick`: up to the LSO (`read_committed`, skipping
    /// aborted transactions' records) or the high watermark (`read_uncommitted`).
    pub fn poll(&mut self, log: &PartitionLog, tick: u64) {
        let end = match self.isolation {
            Isolation::ReadCommitted => log.last_stable_offset(),
            Isolation::ReadUncommitted => log.high_watermark(),
        };
        for offset in self.position..end {
            if let Entry::Record { row, txn, .. } = log.entries[offset].entry {
                let aborted = txn.is_some_and(|t| log.outcome(t) == Some(false));
                if self.isolation == Isolation::ReadUncommitted || !aborted {
                    let offset = offset as u32;
                    self.read.push(ReadRecord { record: row.record, offset, txn, written: row.tick, read: tick });
                }
            }
        }
        self.position = self.position.max(end);
    }

    /// The longest wait, in steps, between a record's write and this reader's read of it.
    pub fn latency(&self) -> u64 {
        self.read.iter().map(|r| r.read - r.written).max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::dataflow::kafka::producer::{Producer, TransactionalId};
    use crate::engine::core::dataflow::row::Row;
    use crate::engine::core::ids::TaskId;

    #[test]
    fn read_committed_waits_for_the_marker_and_skips_aborted_records() {
        let p = Producer { id: TransactionalId { task: TaskId(0), checkpoint: 1 }, producer_id: 0, epoch: 0 };
        let row = |r: u32, tick: u64| Row { record: RecordId(r), value: 1, sink: TaskId(0), tick };
        let mut log = PartitionLog::default();
        let (mut rc, mut ru) = (Reader::new(Isolation::ReadCommitted), Reader::new(Isolation::ReadUncommitted));
        log.append(0, Entry::Record { row: row(0, 1), producer: Some(p), txn: Some(TxnId(0)) });
        log.append(0, Entry::Record { row: row(1, 2), producer: Some(p), txn: Some(TxnId(1)) });
        rc.poll(&log, 2);
        ru.poll(&log, 2);
        assert_eq!((rc.read.len(), ru.read.len()), (0, 2), "uncommitted data is seen at once by read_uncommitted only");
        log.append(0, Entry::Marker { producer: p, txn: TxnId(0), commit: false });
        log.append(0, Entry::Marker { producer: p, txn: TxnId(1), commit: true });
        rc.poll(&log, 7);
        ru.poll(&log, 7);
        assert_eq!(rc.read.iter().map(|r| r.record).collect::<Vec<_>>(), [RecordId(1)]);
        assert_eq!((rc.latency(), ru.latency()), (5, 1));
        assert_eq!(ru.read.len(), 2);
    }
}
