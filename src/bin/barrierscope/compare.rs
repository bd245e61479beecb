//! `compare`: the same job, input, crash and restore under one to three configurations, run side
//! by side in lockstep, tick by tick, and the cost table that results. Every system survives
//! failure by cutting the stream and retrying; this subcommand puts a price on each way of
//! cutting: what is re-processed, the bytes written and held, the control messages, the latency
//! and the steps from the crash to running again, beside the verdicts.

use barrierscope::classroom::saved_comparison::SavedComparison;
use barrierscope::engine::comparison::format::is_comparison;
use barrierscope::engine::comparison::{crash_meaning, ComparisonFile, Costs, Lockstep};
use barrierscope::engine::mechanisms::catalogue::carried::MechanismRestore;
use barrierscope::engine::mechanisms::spark::events::SparkRestore;
use barrierscope::engine::mechanisms::storm::events::StormRestore;
use barrierscope::engine::*;

use crate::words::{complete_word, order_word, read, verdict_word};

/// Run configurations side by side in lockstep; print the cost table
///
/// Give one comparison file (scenarios/compare/, or one the page's Side by side saved), or 1 to
/// 3 scenario files that share their job, input and seed. Each runs in lockstep with the others,
/// crashes at the same tick and restores at the same tick; the table puts their costs and
/// verdicts side by side, then says what the crash's place means in each and what it did.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// One comparison file, or 1 to 3 scenario files
    #[arg(value_name = "FILE", required = true, value_hint = clap::ValueHint::FilePath)]
    paths: Vec<String>,
    /// Print the runs and their costs as one JSON object
    #[arg(long)]
    json: bool,
    /// Add every tick's actions side by side
    #[arg(long)]
    steps: bool,
    /// Add each run's events, tick by tick
    #[arg(long)]
    events: bool,
}

const EXAMPLES: &str = "Examples:
  barrierscope compare scenarios/compare/three-ways.json
  barrierscope compare scenarios/compare/three-ways.json --steps
  barrierscope compare scenarios/compare/flink-sinks.json --json";

/// One comparison file, or one to three scenario files sharing job, input and seed, run side by
/// side in lockstep; prints the cost table.
pub fn run(args: Args) -> Result<String, String> {
    let Args { paths, json, steps, events } = args;
    let mut texts = Vec::new();
    for path in &paths {
        let text = read(path)?;
        // A comparison the page's side-by-side view saved (its clock, language and lesson place
        // around it) is read as the comparison it holds.
        let saved =
            serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| v.get("barrierscope-compare").is_some());
        texts.push(if saved {
            let (saved, _) =
                SavedComparison::open(path, &text).map_err(|e| format!("{path}: {}", e.message(Lang::En)))?;
            saved.comparison.to_json()
        } else {
            text
        });
    }
    // One file that is no JSON at all is read as a comparison file, for its message.
    let broken = paths.len() == 1 && serde_json::from_str::<serde_json::Value>(&texts[0]).is_err();
    let file = match texts.iter().position(|t| is_comparison(t)).or(broken.then_some(0)) {
        Some(i) if paths.len() == 1 => {
            ComparisonFile::from_json(&texts[i]).map_err(|e| format!("{}: {e}", paths[i]))?
        }
        Some(i) => {
            return Err(format!(
                "{} is a comparison file; give it alone, or give 1 to 3 scenario files instead",
                paths[i]
            ))
        }
        None => {
            let mut files = Vec::new();
            for (path, text) in paths.iter().zip(&texts) {
                files.push((path.clone(), Scenario::from_json(text).map_err(|e| format!("{path}: {e}"))?));
            }
            ComparisonFile::from_scenarios(&files).map_err(|e| e.to_string())?
        }
    };
    let lockstep = Lockstep::run(&file).map_err(|e| e.to_string())?;
    Ok(if json { compare_json(&file, &lockstep) } else { compare_table(&file, &lockstep, steps, events) })
}

/// A configuration in a few words: its strategy, sink and the settings that shape its costs.
fn configuration_words(s: &Settings) -> String {
    let mut w = vec![s.strategy.id().to_string(), format!("sink {}", s.sink.id())];
    if s.source != SourceKind::ReplayableLog {
        w.push(format!("source {}", s.source.id()));
    }
    match s.strategy {
        Strategy::SparkStreaming => {
            w.push(format!("batch every {}", s.mechanism.spark.batch_interval));
            w.push(format!("log {}", if s.mechanism.spark.write_ahead_log { "on" } else { "off" }));
        }
        Strategy::StructuredStreaming => {
            w.push(format!("output {}", s.mechanism.structured.sink(s.sink).id()));
        }
        Strategy::StormAcker => {
            if s.mechanism.storm.ackers == 0 {
                w.push("acking off".into());
            }
        }
        _ => {
            if let Some(i) = s.checkpoint_interval {
                w.push(format!("checkpoint every {i}"));
            }
        }
    }
    w.join(", ")
}

fn restored_words(from: Option<RestoreFrom>) -> String {
    match from {
        None => "-".into(),
        Some(RestoreFrom::Checkpoint { checkpoint }) => format!("from checkpoint {}", checkpoint.0),
        Some(RestoreFrom::Nothing) => "from nothing".into(),
        Some(RestoreFrom::OwnSaves) => "from each task's own save".into(),
        Some(RestoreFrom::Policy) => "by the restart policy".into(),
        Some(RestoreFrom::Mechanism(MechanismRestore::Storm(StormRestore::Committed))) => {
            "from the committed offsets".into()
        }
        Some(RestoreFrom::Mechanism(MechanismRestore::Spark(SparkRestore::MetadataCheckpoint { .. }))) => {
            "from the metadata checkpoint".into()
        }
        Some(RestoreFrom::Mechanism(MechanismRestore::Structured(_))) => "from the checkpoint location".into(),
    }
}

fn or_dash(n: u64) -> String {
    if n == 0 {
        "-".into()
    } else {
        n.to_string()
    }
}

/// The cost table's rows: a figure's name, then one cell per run.
fn cost_rows(l: &Lockstep) -> Vec<(String, Vec<String>)> {
    let costs: Vec<Costs> = l.lanes.iter().map(|lane| lane.costs()).collect();
    let cells =
        |f: &dyn Fn(usize, &Costs) -> String| costs.iter().enumerate().map(|(i, c)| f(i, c)).collect::<Vec<_>>();
    let g = l.graph();
    let mut rows = vec![
        ("configuration".to_string(), cells(&|i, _| configuration_words(&l.lanes[i].sim.settings))),
        ("crash action".to_string(), cells(&|i, _| describe(g, &l.lanes[i].crash_action, Lang::En))),
        ("steps taken".to_string(), cells(&|_, c| c.steps.to_string())),
        (
            "records re-processed after the crash".to_string(),
            cells(&|_, c| {
                let r = &c.reprocessed;
                if r.records == 0 {
                    "0".into()
                } else {
                    format!("{} ({})", r.records, r.labels.join(" "))
                }
            }),
        ),
        ("  reads and processing steps repeated".to_string(), cells(&|_, c| c.reprocessed.steps.to_string())),
        (
            "  the last one at tick".to_string(),
            cells(&|_, c| c.reprocessed.last_tick.map_or("-".into(), |t| t.to_string())),
        ),
        ("bytes written for fault tolerance".to_string(), cells(&|_, c| c.bytes.written.to_string())),
        ("  checkpoints".to_string(), cells(&|_, c| or_dash(c.bytes.checkpoints))),
        ("  write-ahead log".to_string(), cells(&|_, c| or_dash(c.bytes.write_ahead_log))),
        ("  state checkpoints".to_string(), cells(&|_, c| or_dash(c.bytes.state_checkpoints))),
        ("  metadata checkpoints".to_string(), cells(&|_, c| or_dash(c.bytes.metadata_checkpoints))),
        ("  offset commits".to_string(), cells(&|_, c| or_dash(c.bytes.offset_commits))),
        ("bytes held at the peak".to_string(), cells(&|_, c| c.bytes.peak_held.to_string())),
        ("  acker table at its peak (memory)".to_string(), cells(&|_, c| or_dash(c.bytes.acker_table_peak))),
        ("control messages".to_string(), cells(&|_, c| c.messages.total.to_string())),
        ("  on the data channels".to_string(), cells(&|_, c| or_dash(c.messages.barriers + c.messages.cancel_markers))),
        ("  to and from the coordinator".to_string(), cells(&|_, c| or_dash(c.messages.coordinator))),
        ("  to and from the acker".to_string(), cells(&|_, c| or_dash(c.messages.acker))),
        ("  to and from the driver".to_string(), cells(&|_, c| or_dash(c.messages.driver))),
        (
            "latency, arrival to visible (steps)".to_string(),
            cells(&|_, c| match (c.latency.median, c.latency.worst) {
                (Some(m), Some(w)) => format!("median {m}, worst {w}"),
                _ => "-".into(),
            }),
        ),
        ("  records seen".to_string(), cells(&|_, c| format!("{} of {}", c.latency.seen, c.latency.of))),
        (
            "steps from the crash to running".to_string(),
            cells(&|_, c| c.recovery.steps_down.map_or("still down".into(), |s| s.to_string())),
        ),
        (
            "  restored".to_string(),
            cells(&|_, c| match c.recovery.steps_down {
                Some(0) => "nothing stopped".into(),
                None => "still down".into(),
                Some(_) => restored_words(c.recovery.restored_from),
            }),
        ),
        ("verdict: state".to_string(), cells(&|_, c| verdict_word(c.verdicts.state).to_string())),
        (
            "verdict: output".to_string(),
            cells(&|_, c| c.verdicts.output.map_or("no sink".into(), |v| verdict_word(v).to_string())),
        ),
        ("verdict: complete".to_string(), cells(&|_, c| complete_word(c.verdicts.complete).to_string())),
        ("verdict: order".to_string(), cells(&|_, c| order_word(c.verdicts.order).to_string())),
    ];
    rows.retain(|(name, cells)| !name.starts_with("  ") || cells.iter().any(|c| c != "-"));
    rows
}

fn compare_table(file: &ComparisonFile, l: &Lockstep, with_steps: bool, with_events: bool) -> String {
    let g = l.graph();
    let mut s = String::new();
    if !file.name.is_empty() {
        s += &format!("{}\n", file.name);
    }
    let job = match &file.job {
        runs::scenario::JobRef::Builtin(name) => name.clone(),
        runs::scenario::JobRef::Custom(_) => "a custom job".into(),
    };
    s += &format!(
        "job {job}, {} records, seed {}; crash at tick {}: {}; restore at tick {}; {} ticks in lockstep\n\n",
        g.records.len(),
        file.seed,
        file.crash.at,
        file.crash.place.words(),
        file.restore.at,
        l.tick
    );
    let rows = cost_rows(l);
    let first = rows.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0) + 2;
    let widths: Vec<usize> = (0..l.lanes.len())
        .map(|i| {
            let cells = rows.iter().filter(|(n, _)| n != "configuration").map(|(_, c)| c[i].chars().count());
            cells.chain([l.lanes[i].label.chars().count()]).max().unwrap_or(0) + 3
        })
        .collect();
    let line = |name: &str, cells: &[String]| {
        let mut t = format!("{name:<first$}");
        for (c, w) in cells.iter().zip(&widths) {
            t += &format!("{c:<w$}");
        }
        t.trim_end().to_string() + "\n"
    };
    let labels: Vec<String> = l.lanes.iter().map(|lane| lane.label.clone()).collect();
    s += &line("", &labels);
    for (name, cells) in rows.iter().filter(|(n, _)| n != "configuration") {
        s += &line(name, cells);
    }
    s += "\nConfigurations, and what the crash's place means in each\n";
    for lane in &l.lanes {
        s += &format!("  {}: {}\n", lane.label, configuration_words(&lane.sim.settings));
        s += &format!("    {}\n", crash_meaning(&file.crash.place, &lane.sim.settings, g, Lang::En));
    }
    s += &format!("\nWhat the crash did ({}, tick {})\n", file.crash.place.words(), file.crash.at);
    for lane in &l.lanes {
        let said: Vec<String> = lane.crash_events(file.crash.at).iter().map(|e| narrate(e, g, Lang::En)).collect();
        s += &format!("  {}: {}\n", lane.label, said.join(" "));
    }
    if with_steps {
        s += "\nSteps (tick, then each run's action)\n";
        for t in 0..l.tick {
            let cells: Vec<String> = l
                .lanes
                .iter()
                .map(|lane| {
                    lane.log.get(t as usize).map_or("(finished)".into(), |st| describe(g, &st.action, Lang::En))
                })
                .collect();
            let mut row = format!("  {t:>5}  ");
            for c in &cells {
                row += &format!("{c:<40}");
            }
            s += &(row.trim_end().to_string() + "\n");
        }
    }
    if with_events {
        for lane in &l.lanes {
            s += &format!("\nEvents of {} (tick, action, what happened)\n", lane.label);
            for st in &lane.log {
                s += &format!("{:>5}  {}\n", st.tick, describe(g, &st.action, Lang::En));
                for e in &st.events {
                    s += &format!("       {}\n", narrate(e, g, Lang::En));
                }
            }
        }
    }
    s
}

fn compare_json(file: &ComparisonFile, l: &Lockstep) -> String {
    let g = l.graph();
    let runs: Vec<serde_json::Value> = l
        .lanes
        .iter()
        .map(|lane| {
            serde_json::json!({
                "name": lane.label,
                "settings": &*lane.sim.settings,
                "crash_action": describe(g, &lane.crash_action, Lang::En),
                "crash_means": crash_meaning(&file.crash.place, &lane.sim.settings, g, Lang::En),
                "crash_did": lane.crash_events(file.crash.at).iter().map(|e| narrate(e, g, Lang::En)).collect::<Vec<_>>(),
                "costs": lane.costs(),
            })
        })
        .collect();
    let v = serde_json::json!({
        "name": file.name,
        "job": file.job,
        "seed": file.seed,
        "records": g.records.iter().map(|r| r.label.as_str()).collect::<Vec<_>>(),
        "arrivals": g.records.iter().map(|r| r.at).collect::<Vec<_>>(),
        "crash": { "tick": file.crash.at, "place": file.crash.place },
        "restore": { "tick": file.restore.at },
        "ticks": l.tick,
        "runs": runs,
    });
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}
