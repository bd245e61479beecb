//! `run`: play a scenario file to its end and report what became of every record. This is the
//! runner's first lesson: a failure-free run says what each record should do, the scripted run
//! with its crash says what it did, and the ledger (lost, duplicated, exactly once; complete; in
//! order) is the difference. Beside it: the checkpoints and failovers, and the cut of the saves a
//! restore would use at the end, consistent or not, channel by channel.

mod checkpoints;
mod cut_report;
mod json;
mod kafka_report;

use barrierscope::engine::program::scenario_restore::RestoreReport;
use barrierscope::engine::runs::scenario::Played;
use barrierscope::engine::*;

use crate::words::{complete_word, order_word, read, tally, verdict_word};

/// Play a scenario; print the verdict, the checkpoint statistics and the cut
///
/// Plays the scenario file's script without the browser and prints the verdict and the ledger
/// (each record's times reflected against the failure-free run: lost, duplicated or exactly once;
/// complete and in order at every task), the checkpoint statistics and the failovers, and the
/// cut of the saves a restore would use at the end: consistent or not, channel by channel. A
/// scenario that restores into a changed program first prints that restore, by operator id.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// The scenario file (see the book's "Files and formats")
    #[arg(value_name = "SCENARIO.json", value_hint = clap::ValueHint::FilePath)]
    path: String,
    /// Print the same report as one JSON object
    #[arg(long)]
    json: bool,
    /// Add every step, numbered from 1, with one sentence for each of its events
    #[arg(long)]
    events: bool,
}

const EXAMPLES: &str = "Examples:
  barrierscope run scenarios/abc-timers-lost.json
  barrierscope run scenarios/abc-timers-lost.json --events
  barrierscope run scenarios/abc-barriers-exactly-once.json --json";

pub fn run(args: Args) -> Result<String, String> {
    let Args { path, json, events } = args;
    let text = read(&path)?;
    let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    let (played, restore) = scenario.play_restore().map_err(|e| format!("{path}: {e}"))?;
    Ok(match (json, restore) {
        (true, None) => json::report_json(&scenario, &played),
        (true, Some(r)) => json::restore_json(&scenario, &played, &r),
        (false, None) => report_table(&scenario, &played, events),
        (false, Some(r)) => restore_table(&r) + &report_table(&scenario, &played, events),
    })
}

/// The channels of `places`, by name; what a reader sees of a sink is marked.
fn place_names(g: &JobGraph, places: &[Place]) -> String {
    let name = |p: &Place| {
        let c = &g.channel(p.channel).name;
        if p.external {
            format!("{c} (as a reader sees the sink)")
        } else {
            c.clone()
        }
    };
    places.iter().map(name).collect::<Vec<_>>().join(", ")
}

fn report_table(sc: &Scenario, p: &Played, with_events: bool) -> String {
    let sim = &p.sim;
    let g = &sim.graph;
    let mut s = String::new();
    if !sc.name.is_empty() {
        s += &format!("{}\n", sc.name);
    }
    s += &format!(
        "strategy {}, sink {}, seed {}, {} steps, fingerprint {:016x}\n",
        sim.strategy().id(),
        sim.settings.sink.id(),
        sim.seed,
        p.actions.len(),
        fingerprint(p.events.iter().flatten())
    );
    if with_events {
        s += "\nEvents\n";
        for (i, (a, evs)) in p.actions.iter().zip(&p.events).enumerate() {
            s += &format!("{:>5}  {}\n", i + 1, describe(g, a, Lang::En));
            for e in evs {
                s += &format!("       {}\n", narrate(e, g, Lang::En));
            }
        }
    }
    s += &ledger_table(p);
    s += &kafka_report::kafka_table(sim);
    if sim.strategy().uses_coordinator() {
        s += &checkpoints::checkpoint_table(sim);
    }
    s += &checkpoints::failover_table(sim);
    if sim.strategy() == Strategy::SparkStreaming {
        return s + &checkpoints::batch_table(sim);
    }
    s + &cut_report::cut_table(sim)
}

/// The verdict, the ledger row by row, and where each record is incomplete or out of order.
fn ledger_table(p: &Played) -> String {
    let sim = &p.sim;
    let g = &sim.graph;
    let mut s = String::new();
    let l = sim.ledger();
    if let Some(u) = &p.unfinished {
        s += &format!("\nUnfinished\n  {}\n", u.message(Lang::En));
    }
    s += &format!("\nVerdict\n  state:    {} -> {}\n", tally(&l.state), verdict_word(l.state.headline()));
    if let Some(e) = &l.external {
        s += &format!("  external: {} -> {}\n", tally(e), verdict_word(e.headline()));
    }
    let (c, o) = (&l.complete, &l.order);
    s += &format!(
        "  complete: {} complete, {} incomplete, {} pending -> {}\n",
        c.complete,
        c.incomplete,
        c.pending,
        complete_word(c.headline())
    );
    s += &format!(
        "  order:    {} in order, {} out of order, {} pending -> {}\n",
        o.in_order,
        o.out_of_order,
        o.pending,
        order_word(o.headline())
    );
    s += "\nLedger (times reflected / in the failure-free run)\n";
    s += &format!("  {:<8} {:<6} {:>7}  {:<13}", "record", "key", "state", "");
    if l.external.is_some() {
        s += &format!(" {:>8}  {}", "external", "");
    }
    s += "\n";
    for r in &l.rows {
        s += &format!(
            "  {:<8} {:<6} {:>7}  {:<13}",
            r.label,
            r.key,
            format!("{}/{}", r.state, r.expected_state),
            verdict_word(r.state_verdict)
        );
        if let Some(v) = r.external_verdict {
            s += &format!(" {:>8}  {}", format!("{}/{}", r.external, r.expected_external), verdict_word(v));
        }
        s += "\n";
    }
    let judged =
        |r: &&LedgerRow| r.complete_verdict == Completeness::Incomplete || r.order_verdict == Order::OutOfOrder;
    if l.rows.iter().any(|r| judged(&r)) {
        s += "\nIncomplete or out of order (at the task each channel leads to)\n";
        for r in l.rows.iter().filter(judged) {
            if r.complete_verdict == Completeness::Incomplete {
                s += &format!(
                    "  {:<8} {} at {}\n",
                    r.label,
                    complete_word(r.complete_verdict),
                    place_names(g, &r.incomplete_at)
                );
            }
            if r.order_verdict == Order::OutOfOrder {
                s += &format!(
                    "  {:<8} {} at {}\n",
                    r.label,
                    order_word(r.order_verdict),
                    place_names(g, &r.out_of_order_at)
                );
            }
        }
    }
    s
}

/// The restore into a changed program: the snapshot, the new program, the verdict and the
/// mapping by operator id.
fn restore_table(r: &RestoreReport) -> String {
    let flag = if r.allow_non_restored_state { " --allowNonRestoredState" } else { "" };
    let ops: Vec<String> = r
        .program
        .operators
        .iter()
        .map(|o| {
            let mut t = format!("{} x{}", o.name, o.parallelism);
            if let Some(u) = &o.uid {
                t += &format!(" uid {u}");
            }
            if let Some(m) = o.max_parallelism {
                t += &format!(" max {m}");
            }
            t
        })
        .collect();
    let mut s = format!(
        "Restore from snapshot {}{flag}
  new program: {}
",
        r.from.0,
        ops.join(", ")
    );
    match &r.refused {
        Some(why) => {
            s += &format!(
                "  refused: {why}
"
            )
        }
        None => {
            s += "  restored; state by operator id:
";
            for row in &r.rows {
                s += &format!(
                    "  {:<8} {}  -> {:<8} {}{}
",
                    row.operator,
                    row.id.hex(),
                    row.target.as_deref().unwrap_or("-"),
                    row.fate.id(),
                    if row.has_state { "" } else { " (no state)" }
                );
            }
        }
    }
    s + "\n"
}
