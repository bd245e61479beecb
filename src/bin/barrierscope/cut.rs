//! `cut`: draw a cut of your own through a scenario's run, one point per task, and see what
//! crosses it. An orphan is received before the cut and sent after it (the cut is then not
//! consistent); a record in transit is sent before it and received after it, or never. Then a
//! copy of the run crashes after the latest point, every task is put back to its own point by the
//! engine's own restore, and the ledger says what became of each record: an orphan arrow counts
//! once more, an arrow in transit once less (issue 15's "draw your own cut", without the page).

use barrierscope::engine::verdict::drawn_cut::{CutRestore, DrawnCut, DrawnCutError};
use barrierscope::engine::*;

use crate::words::{read, tally, verdict_word};

/// Draw a cut through a scenario's run: what crosses it, and a restore from it
///
/// A cut is one point per task, in the job's task order (as `jobs` lists them): the step after
/// which the task's line is cut, as `run --events` numbers the steps, from 1. Prints every record
/// crossing the cut (orphan: received before the cut, sent after it; in transit: sent before it,
/// received after it or never), whether the cut is consistent, and each record's verdict after a
/// copy of the run crashes at the latest point, restores every task from its own point and runs
/// to the end (under timers and the checkpointing strategies).
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// The scenario file whose run is cut
    #[arg(value_name = "SCENARIO.json", value_hint = clap::ValueHint::FilePath)]
    path: String,
    /// The cut's points, one step per task, separated by commas
    #[arg(long, value_name = "T1,T2,...", value_parser = points)]
    at: Points,
    /// Print the arrows, the points and the restore as one JSON object
    #[arg(long)]
    json: bool,
}

const EXAMPLES: &str = "Examples:
  barrierscope cut scenarios/abc-timers-duplicated.json --at 2,9,9
  barrierscope cut scenarios/abc-timers-lost.json --at 4,4,4 --json";

/// The points of `--at`: a step number per task.
#[derive(Clone)]
pub struct Points(Vec<u64>);

fn points(at: &str) -> Result<Points, String> {
    at.split(',')
        .map(|p| p.trim().parse::<u64>().map_err(|_| format!("{p:?} is not a step number")))
        .collect::<Result<_, _>>()
        .map(Points)
}

pub fn run(args: Args) -> Result<String, String> {
    let Args { path, at, json } = args;
    let points = at.0;
    let text = read(&path)?;
    let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    let played = scenario.play().map_err(|e| format!("{path}: {e}"))?;
    let start = scenario.sim().map_err(|e| format!("{path}: {e}"))?;
    let tl = Timeline::from_actions(start, &played.actions).map_err(|(i, e)| format!("{path}: step {}: {e}", i + 1))?;
    let cut = verdict::drawn_cut::classify(&tl, &points).map_err(|e| format!("{path}: {e}"))?;
    let restored = verdict::drawn_cut::restore_from(&tl, &points, runs::scenario::MAX_SCRIPT_STEPS);
    let d = Drawn { scenario: &scenario.name, g: &played.sim.graph, steps: tl.len(), points, cut, restored };
    Ok(if json { cut_json(&d) } else { cut_table(&d) })
}

/// A drawn cut and what came of it, for the table or the JSON.
struct Drawn<'a> {
    scenario: &'a str,
    g: &'a JobGraph,
    steps: usize,
    points: Vec<u64>,
    cut: DrawnCut,
    restored: Result<(DrawnCut, CutRestore), DrawnCutError>,
}

fn cut_json(d: &Drawn) -> String {
    let v = serde_json::json!({
        "scenario": d.scenario,
        "steps": d.steps,
        "points": d.g.tasks.iter().zip(&d.points).map(|(t, p)| serde_json::json!({"task": t.name, "after_step": p})).collect::<Vec<_>>(),
        "consistent": d.cut.consistent(),
        "arrows": d.cut.arrows,
        "restore": match &d.restored {
            Ok((_, r)) => serde_json::json!({
                "crashed_after": r.crashed_after,
                "steps_to_end": r.steps_to_end,
                "state": r.ledger.state,
                "external": r.ledger.external,
                "ledger": r.ledger.rows.iter().map(|row| serde_json::json!({
                    "record": row.label, "key": row.key,
                    "state": row.state, "expected_state": row.expected_state, "state_verdict": row.state_verdict,
                    "external": row.external, "expected_external": row.expected_external,
                    "external_verdict": row.external_verdict,
                })).collect::<Vec<_>>(),
            }),
            Err(e) => serde_json::json!({ "refused": e.to_string() }),
        },
    });
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}

fn cut_table(d: &Drawn) -> String {
    let mut s = format!("{} ({} steps)\n", d.scenario, d.steps);
    let named: Vec<String> = d.g.tasks.iter().zip(&d.points).map(|(t, p)| format!("{} {p}", t.name)).collect();
    s += &format!("cut after steps: {}\n", named.join(", "));
    let (orphans, in_transit) = (d.cut.orphans().len(), d.cut.in_transit().len());
    s += &format!(
        "consistent: {} ({orphans} {}, {in_transit} in transit)\n",
        if d.cut.consistent() { "yes" } else { "NO" },
        if orphans == 1 { "orphan" } else { "orphans" }
    );
    if d.cut.arrows.is_empty() {
        s += "no record crosses the cut\n";
    } else {
        s += "records crossing the cut:\n";
        for a in &d.cut.arrows {
            let sent = a.sent_at.map_or("?".to_string(), |t| t.to_string());
            let received = a.received_at.map_or("never received".to_string(), |t| format!("received at step {t}"));
            s += &format!(
                "  {:<11} {:<6} {:<16} sent at step {sent}, {received}\n",
                a.crossing.id(),
                a.label,
                a.channel_name
            );
        }
    }
    match &d.restored {
        Ok((_, r)) => {
            s += &format!(
                "restore from this cut: the run crashed after step {}, every task put back to its own point, then {} steps to the end\n",
                r.crashed_after, r.steps_to_end
            );
            let external = r.ledger.external.is_some();
            s += format!("  {:<8} {:<5} {:<22}{}", "record", "key", "state", if external { "output" } else { "" })
                .trim_end();
            s += "\n";
            for row in &r.ledger.rows {
                let state = format!("{} ({} of {})", verdict_word(row.state_verdict), row.state, row.expected_state);
                let out = row.external_verdict.map_or(String::new(), |v| {
                    format!("{} ({} of {})", verdict_word(v), row.external, row.expected_external)
                });
                s += format!("  {:<8} {:<5} {state:<22}{out}", row.label, row.key).trim_end();
                s += "\n";
            }
            s += &format!("state: {}\n", tally(&r.ledger.state));
            if let Some(t) = &r.ledger.external {
                s += &format!("output: {}\n", tally(t));
            }
        }
        Err(e) => s += &format!("restore from this cut refused: {e}\n"),
    }
    s
}
