//! A Kafka sink's part of the report: the timeout rule (the settings' warning, and the longest a
//! transaction of this run stayed open), the partition's last stable offset and high watermark,
//! each reader's position and latency, and each record as each reader saw it, with why a record
//! was lost.

use barrierscope::engine::core::dataflow::kafka::readers::Isolation;
use barrierscope::engine::core::dataflow::kafka::verdict::ReaderVerdict;
use barrierscope::engine::{Lang, Sim};

/// The Kafka sink's tables, or nothing for another sink.
pub fn kafka_table(sim: &Sim) -> String {
    let mut s = String::new();
    if let Some(w) = sim.settings.kafka_warning() {
        s += &format!("\nwarning: {}\n", w.words(Lang::En));
    }
    let (Some(l), Some(b)) = (sim.readers_ledger(), sim.external().kafka.as_deref()) else {
        return s;
    };
    let now = sim.broker_now();
    let longest = b.txns.iter().map(|t| t.ended.map_or(now, |(_, at)| at) - t.began_ms).max().unwrap_or(0);
    let timeout = sim.settings.kafka().transaction_timeout_ms;
    s += &format!(
        "\nKafka topic: last stable offset {}, high watermark {}; broker clock {now} ms; longest open transaction {longest} ms (transaction.timeout.ms {timeout})\n",
        l.last_stable_offset, l.high_watermark
    );
    for r in &l.readers {
        s += &format!(
            "  {:<17} position {:>3}, read {:>3}, latency {} step(s)\n",
            r.isolation.id(),
            r.position,
            r.read,
            r.latency
        );
    }
    s += &format!("  {:<6} {:<16} {}\n", "record", Isolation::ReadCommitted.id(), Isolation::ReadUncommitted.id());
    for row in &l.rows {
        s += &format!("  {:<6} {:<16} {}\n", row.label, row.read_committed.id(), row.read_uncommitted.id());
        if let ReaderVerdict::Lost { why: Some(w) } = row.read_committed {
            s += &format!(
                "         lost: transaction T{}, pre-committed for checkpoint {}, ended {:?} at {} ms before the committer's commit ({:?})\n",
                w.txn.0, w.checkpoint.0, w.ending, w.at_ms, w.refusal
            );
        }
    }
    s
}
