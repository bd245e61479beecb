//! `batch`: play a batch job, Hadoop's or Spark's, and say what recovery cost. A batch job
//! survives failure by running work again: Hadoop re-runs a failed task from its input on HDFS,
//! Spark recomputes lost partitions from their lineage (or reads them from memory or a
//! checkpoint). The report counts the task runs, partitions and records computed again against
//! the failure-free run, and gives every output record's verdict.

use barrierscope::engine::batch::format::Opened;
use barrierscope::engine::batch::{wording, BatchFile, BatchSim, BATCH_LESSON};
use barrierscope::engine::*;

use crate::words::{lang_parser, read};

/// Play a batch job (Hadoop or Spark): what ran again, the cost, each record's verdict
///
/// Plays a batch file (scenarios/batch/): what ran again, the partitions and records recomputed,
/// the task runs against the failure-free run, and every output record's verdict. Checks the
/// file's "expect" and exits with 2 when it fails.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// The batch file
    #[arg(value_name = "BATCH.json", value_hint = clap::ValueHint::FilePath)]
    path: String,
    /// Print the report as one JSON object
    #[arg(long)]
    json: bool,
    /// Add the narration: every action and what it did
    #[arg(long)]
    events: bool,
    /// The language of the narration and of a file's errors
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = lang_parser())]
    lang: Lang,
}

const EXAMPLES: &str = "Examples:
  barrierscope batch scenarios/batch/spark-p10-lost.json
  barrierscope batch scenarios/batch/hadoop-node-lost.json --events --lang zh";

/// Plays a batch file and reports what recovery cost and the ledger.
pub fn run(args: Args) -> Result<String, String> {
    let Args { path, json, events, lang } = args;
    let text = read(&path)?;
    let opened =
        BatchFile::open(&text, BATCH_LESSON.len()).map_err(|e| format!("{path}: {}", wording::load_error(lang, &e)))?;
    let failed = expectations(&opened);
    let out = if json { batch_json(&opened, lang) } else { batch_table(&opened, events, lang) };
    if failed.is_empty() {
        Ok(out)
    } else {
        Err(format!("{path}: {}", failed.join("; ")))
    }
}

/// What the file's "expect" says and the run did not do.
fn expectations(opened: &Opened) -> Vec<String> {
    let run = &opened.run;
    let sim = run.sim();
    let ledger = run.ledger();
    let cost = sim.cost();
    let reran = sim.reran();
    let mut failed = Vec::new();
    if let Some(x) = &opened.file.expect {
        if x.exactly_once.is_some_and(|e| e != ledger.exactly_once()) {
            failed.push(format!("expected exactly once: {}, got {}", x.exactly_once.unwrap(), ledger.exactly_once()));
        }
        if let Some(want) = &x.reran {
            let (mut w, mut g) = (want.clone(), reran.clone());
            w.sort();
            g.sort();
            if w != g {
                failed.push(format!("expected to run again: [{}], got [{}]", w.join(", "), g.join(", ")));
            }
        }
        if x.task_runs.is_some_and(|n| n != cost.task_runs) {
            failed.push(format!("expected {} task runs, got {}", x.task_runs.unwrap(), cost.task_runs));
        }
    }
    failed
}

fn batch_json(opened: &Opened, lang: Lang) -> String {
    let run = &opened.run;
    let sim = run.sim();
    let ledger = run.ledger();
    let (cost, base) = (sim.cost(), run.baseline);
    let reran = sim.reran();
    let hadoop = matches!(sim, BatchSim::Hadoop(_));
    serde_json::to_string_pretty(&serde_json::json!({
        "name": opened.file.name,
        "engine": if hadoop { "hadoop" } else { "spark" },
        "actions": run.len(),
        "done": sim.done(),
        "exactly_once": ledger.exactly_once(),
        "reran": reran,
        "cost": cost,
        "failure_free": base,
        "ledger": ledger,
        "events": run.log.iter().map(|evs| evs.iter().map(|e| wording::narrate(lang, sim, e)).collect::<Vec<_>>()).collect::<Vec<_>>(),
    }))
    .expect("json")
        + "\n"
}

fn batch_table(opened: &Opened, events: bool, lang: Lang) -> String {
    let run = &opened.run;
    let sim = run.sim();
    let ledger = run.ledger();
    let (cost, base) = (sim.cost(), run.baseline);
    let reran = sim.reran();
    let hadoop = matches!(sim, BatchSim::Hadoop(_));
    let mut s = String::new();
    if let Some(n) = &opened.file.name {
        s += &format!("{n}\n");
    }
    s += &format!(
        "{} job, {} actions, {}\n",
        if hadoop { "Hadoop" } else { "Spark" },
        run.len(),
        if sim.done() { "done" } else { "still running" }
    );
    if events {
        for (i, (a, evs)) in run.actions.iter().zip(&run.log).enumerate() {
            s += &format!("{:>4}. {}\n", i + 1, wording::action_name(lang, *a, hadoop));
            for e in evs {
                s += &format!("        {}\n", wording::narrate(lang, sim, e));
            }
        }
    }
    s += &format!("ran again: {}\n", if reran.is_empty() { "nothing".into() } else { reran.join(" ") });
    s += &format!("task runs: {} (failure-free: {})\n", cost.task_runs, base.task_runs);
    if !hadoop {
        s += &format!(
            "partitions computed: {} (failure-free: {}), recomputed: {}, records recomputed: {}, read from memory: {}, from checkpoints: {}, fetch failures: {}\n",
            cost.partitions_computed, base.partitions_computed, cost.partitions_recomputed, cost.records_recomputed,
            cost.cache_reads, cost.checkpoint_reads, cost.fetch_failures
        );
    } else {
        s += &format!("records read again by re-run tasks: {}\n", cost.records_recomputed);
    }
    s += &format!(
        "output: {} of {} words exactly once{}\n",
        ledger.count(barrierscope::engine::batch::BatchVerdict::ExactlyOnce),
        ledger.rows.len(),
        if ledger.exactly_once() { " (every record exactly once)" } else { "" }
    );
    for r in &ledger.rows {
        s += &format!("  {:<12} {:>3}  {}\n", r.key, r.expected, r.verdict.id());
    }
    s
}
