//! The Kafka sink's verdict: each record as each of the topic's readers saw it
//! (`core/dataflow/kafka/verdict.rs` judges one), beside the ledger's, with the partition's last
//! stable offset and high watermark and each reader's position and latency.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::kafka::readers::Isolation;
use crate::engine::core::dataflow::kafka::verdict::{judge, ReaderVerdict};
use crate::engine::core::ids::RecordId;
use crate::engine::core::ledger::Verdict;
use crate::engine::core::sim::Sim;

/// One record's verdict for each reader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadersRow {
    pub record: RecordId,
    pub label: String,
    pub read_committed: ReaderVerdict,
    pub read_uncommitted: ReaderVerdict,
}

/// One reader's standing: where it is, how many records it has read, its longest wait (steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReaderStanding {
    pub isolation: Isolation,
    pub position: u32,
    pub read: u32,
    pub latency: u64,
}

/// The readers' ledger of a run with a Kafka sink.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadersLedger {
    pub last_stable_offset: u32,
    pub high_watermark: u32,
    pub readers: Vec<ReaderStanding>,
    pub rows: Vec<ReadersRow>,
}

impl ReadersLedger {
    /// The labels of the records with verdict `id` (a [`ReaderVerdict::id`]) for `isolation`.
    pub fn labels(&self, isolation: Isolation, id: &str) -> Vec<&str> {
        let of = |r: &ReadersRow| match isolation {
            Isolation::ReadCommitted => r.read_committed,
            Isolation::ReadUncommitted => r.read_uncommitted,
        };
        self.rows.iter().filter(|r| of(r).id() == id).map(|r| r.label.as_str()).collect()
    }
}

impl Sim {
    /// The readers' ledger, when the sink writes to Kafka and the broker has seen a write.
    pub fn readers_ledger(&self) -> Option<ReadersLedger> {
        let broker = self.durable.external.kafka.as_deref()?;
        let ledger = self.ledger();
        let rows = ledger
            .rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let on_its_way = row.external_verdict == Some(Verdict::Pending);
                let expected = self.expected.external[i];
                let v = |iso| judge(broker, iso, row.record, expected, on_its_way);
                ReadersRow {
                    record: row.record,
                    label: row.label.clone(),
                    read_committed: v(Isolation::ReadCommitted),
                    read_uncommitted: v(Isolation::ReadUncommitted),
                }
            })
            .collect();
        let readers = Isolation::BOTH
            .iter()
            .map(|&iso| {
                let r = broker.reader(iso);
                ReaderStanding {
                    isolation: iso,
                    position: r.position as u32,
                    read: r.read.len() as u32,
                    latency: r.latency(),
                }
            })
            .collect();
        Some(ReadersLedger {
            last_stable_offset: broker.log.last_stable_offset() as u32,
            high_watermark: broker.log.high_watermark() as u32,
            readers,
            rows,
        })
    }
}
