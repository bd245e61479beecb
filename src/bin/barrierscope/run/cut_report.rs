//! The cut of the end state: the saves a restore would use now (the latest completed checkpoint,
//! or each task's latest timer save), checked for consistency channel by channel. An orphan is
//! duplicated on restore, a record in transit is lost, one stored as in-flight data is replayed:
//! Chandy and Lamport's consistent cut, read off the run.

use barrierscope::engine::*;

/// The labels of `records`, at most `max` of them, then how many more.
fn labels(sim: &Sim, records: &[RecordId], max: usize) -> String {
    let mut v: Vec<&str> = records.iter().take(max).map(|r| sim.record_label(*r)).collect();
    let more = format!("… (+{} more)", records.len().saturating_sub(max));
    if records.len() > max {
        v.push(&more);
    }
    v.join(" ")
}

/// Where the saves of the cut come from: the latest completed checkpoint, or each task's latest
/// timer save.
fn cut_source(sim: &Sim) -> (Option<u64>, String) {
    match sim.restore_point().iter().flatten().next() {
        Some(s) if s.checkpoint.is_some() => {
            let id = s.checkpoint.expect("checked").0;
            (Some(id), format!("completed checkpoint {id}"))
        }
        _ => (None, "each task's latest save".to_string()),
    }
}

/// The consistent-cut report of the end state: the saves a restore would use now, and per
/// channel what it would lose, duplicate or replay.
pub fn cut_table(sim: &Sim) -> String {
    let g = &sim.graph;
    let Some(cut) = sim.latest_cut() else {
        // A mechanism that keeps no snapshots a cut could join says what it keeps, in its row's words.
        let row = sim.strategy().row();
        if let (Some(keeps), false) = (&row.keeps, row.restores_snapshots) {
            return format!("\nCut: none to draw: {}; restore: {}\n", keeps.saved.en, keeps.restore.en);
        }
        return "\nCut: nothing is saved; a restore would start every task from scratch\n".to_string();
    };
    let (_, from) = cut_source(sim);
    let mut s = format!(
        "\nCut of {from} (what a restore would use now): {}\n",
        if cut.consistent() { "consistent" } else { "NOT consistent" }
    );
    let saves: Vec<String> = cut
        .taken_at
        .iter()
        .enumerate()
        .map(|(t, at)| match at {
            Some(step) => format!("{} at step {step}", g.tasks[t].name),
            None => format!("{} none", g.tasks[t].name),
        })
        .collect();
    s += &format!("  saves: {}\n", saves.join(", "));
    for c in &cut.channels {
        let clean = c.orphans.is_empty() && c.in_transit.is_empty() && c.stored.is_empty();
        s += &format!(
            "  {:<22} sent {:>4}, received {:>4}{}\n",
            g.channel(c.channel).name,
            c.sent,
            c.received,
            if clean { "  ok" } else { "" }
        );
        for (what, records, then) in [
            ("orphans", &c.orphans, "duplicated on restore"),
            ("in transit", &c.in_transit, "lost on restore"),
            ("stored in-flight", &c.stored, "replayed on restore"),
        ] {
            if !records.is_empty() {
                s += &format!("    {what}: {} ({then})\n", labels(sim, records, 20));
            }
        }
    }
    s
}

/// The cut report as JSON: null when nothing is saved.
pub fn cut_json(sim: &Sim) -> serde_json::Value {
    let g = &sim.graph;
    let Some(cut) = sim.latest_cut() else { return serde_json::Value::Null };
    let (checkpoint, _) = cut_source(sim);
    let names = |v: &[RecordId]| v.iter().map(|r| sim.record_label(*r)).collect::<Vec<_>>();
    serde_json::json!({
        "checkpoint": checkpoint,
        "consistent": cut.consistent(),
        "saves": cut.taken_at.iter().enumerate().map(|(t, at)| serde_json::json!({
            "task": g.tasks[t].name,
            "step": at,
        })).collect::<Vec<_>>(),
        "channels": cut.channels.iter().map(|c| serde_json::json!({
            "channel": g.channel(c.channel).name,
            "sent": c.sent,
            "received": c.received,
            "orphans": names(&c.orphans),
            "in_transit": names(&c.in_transit),
            "stored": names(&c.stored),
        })).collect::<Vec<_>>(),
    })
}
