//! `run --json`: the same report as one JSON object, for a script or a test to read (the book's
//! runner chapter lists its fields). The fingerprint of the run's events is what the recorded
//! runs are checked against.

use barrierscope::engine::program::scenario_restore::RestoreReport;
use barrierscope::engine::runs::scenario::Played;
use barrierscope::engine::*;

use super::cut_report::cut_json;

pub fn restore_json(sc: &Scenario, p: &Played, r: &RestoreReport) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&report_json(sc, p)).expect("the report is JSON");
    v["restore"] = serde_json::json!({
        "from": r.from.0,
        "allow_non_restored_state": r.allow_non_restored_state,
        "program": r.program,
        "refused": r.refused,
        "mapping": r.rows.iter().map(|row| serde_json::json!({
            "operator": row.operator,
            "id": row.id.hex(),
            "has_state": row.has_state,
            "target": row.target,
            "fate": row.fate.id(),
        })).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}

pub fn report_json(sc: &Scenario, p: &Played) -> String {
    let sim = &p.sim;
    let l = sim.ledger();
    let v = serde_json::json!({
        "name": sc.name,
        "strategy": sim.strategy().id(),
        "sink": sim.settings.sink.id(),
        "seed": sim.seed,
        "steps": p.actions.len(),
        "fingerprint": format!("{:016x}", fingerprint(p.events.iter().flatten())),
        "unfinished": p.unfinished,
        "verdict": {
            "state": l.state.headline().id(),
            "external": l.external.map(|e| e.headline().id()),
            "complete": l.complete.headline().id(),
            "order": l.order.headline().id(),
        },
        "tally": { "state": l.state, "external": l.external, "complete": l.complete, "order": l.order },
        "ledger": l.rows,
        "checkpoints": {
            "counts": sim.stats.counts(),
            "history": sim.stats.history,
            "earlier_submissions": sim.stats.earlier_submissions,
        },
        "failovers": sim.stats.failovers,
        "cut": cut_json(sim),
    });
    let mut v = v;
    if let Some(readers) = sim.readers_ledger() {
        v["kafka"] = serde_json::json!(readers);
        v["kafka_warning"] = serde_json::json!(sim.settings.kafka_warning().map(|w| w.words(Lang::En)));
    }
    if sim.strategy() == Strategy::SparkStreaming {
        let d = sim.durable_spark();
        let (sum, n, max) = sim.record_latency();
        v["batches"] = serde_json::json!(d.batches);
        v["write_ahead_log"] = serde_json::json!({ "written_bytes": d.wal_written, "blocks_held": d.wal.len() });
        v["latency"] = serde_json::json!({ "records": n, "mean": sum.checked_div(n).unwrap_or(0), "max": max });
    }
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}
