//! `lab`: the barrier-handler lab. A barrier handler is four choices (what a task does at its
//! first barrier, with the records after it, at its last barrier, and whether it stores what is
//! in flight); the lab composes all of them, adds per-task timers, and classifies each by
//! exploring every schedule of small jobs under one snapshot and one crash: exactly once, at least
//! once, at most once or neither, with the shortest schedule that rules out each stronger
//! guarantee. Flink's aligned and unaligned checkpoints are two rows of this table.

use barrierscope::engine::explorer::lab::{classify, Candidate, Classification};
use barrierscope::engine::explorer::Counterexample;
use barrierscope::engine::mechanisms::handler_lab::{AfterBarrier, Handler, OnFirstBarrier, OnLastBarrier};
use barrierscope::engine::*;

use crate::words::lang_parser;

/// The barrier-handler lab: every composed barrier handler, classified
///
/// Every barrier handler composed of four choices (first barrier, records after it, last
/// barrier, in-flight data), and per-task timers, classified by exploring every schedule of two
/// small jobs under one checkpoint and one crash, with the counterexample that rules out each
/// stronger guarantee.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// Print the classification as JSON
    #[arg(long)]
    json: bool,
    /// The language of the explanations
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = lang_parser())]
    lang: Lang,
}

const EXAMPLES: &str = "Examples:
  barrierscope lab
  barrierscope lab --lang zh";

/// A candidate and its classification.
type Row = (Candidate, Classification);

/// Every composed barrier handler and per-task timers, classified.
pub fn run(args: Args) -> Result<String, String> {
    let mut candidates: Vec<Candidate> = Handler::all().into_iter().map(Candidate::Handler).collect();
    candidates.push(Candidate::Timers);
    let mut rows = Vec::new();
    for c in &candidates {
        let k = classify(*c).map_err(|e| e.to_string())?;
        rows.push((*c, k));
    }
    Ok(if args.json { lab_json(&rows, args.lang) } else { lab_table(&rows, args.lang) })
}

/// The preset a candidate is, if it is one (Flink's aligned checkpoints, …).
fn preset(c: &Candidate) -> Option<&'static str> {
    Candidate::PRESETS.iter().find(|(_, p)| p == c).map(|(n, _)| *n)
}

/// Why a candidate is no stronger: per counterexample, the probe, the schedule's length, its
/// codes and the explanation.
fn why(k: &Classification, lang: Lang) -> Vec<(&'static str, usize, String, String)> {
    [&k.loss, &k.duplicate]
        .into_iter()
        .flatten()
        .map(|(p, c)| {
            let probe = &k.probes[*p];
            let g = &probe.initial.as_ref().expect("the probe's run").graph;
            (
                probe.name,
                c.schedule.len(),
                c.schedule.iter().map(|a| a.code()).collect::<Vec<_>>().join(" "),
                c.story.text(g, lang),
            )
        })
        .collect::<Vec<_>>()
}

fn lab_json(rows: &[Row], lang: Lang) -> String {
    let v: Vec<serde_json::Value> = rows
        .iter()
        .map(|(c, k)| {
            serde_json::json!({
                "handler": match c { Candidate::Handler(h) => serde_json::json!(h), Candidate::Timers => serde_json::json!("per-task timers") },
                "preset": preset(c),
                "guarantee": k.guarantee.id(),
                "counterexamples": why(k, lang).into_iter().map(|(probe, steps, codes, text)| serde_json::json!({
                    "probe": probe, "steps": steps, "codes": codes, "explanation": text,
                })).collect::<Vec<_>>(),
                "probes": k.probes.iter().map(|p| {
                    let g = &p.initial.as_ref().expect("the probe's run").graph;
                    let ce = |c: &Option<Counterexample>| c.as_ref().map(|c| serde_json::json!({
                        "steps": c.schedule.len(),
                        "codes": c.schedule.iter().map(|a| a.code()).collect::<Vec<_>>().join(" "),
                        "explanation": c.story.text(g, lang),
                    }));
                    serde_json::json!({
                        "probe": p.name,
                        "schedules": p.report.schedules.to_string(),
                        "every_schedule_holds": p.holds(),
                        "loss": ce(&p.loss),
                        "duplicate": ce(&p.duplicate),
                    })
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}

/// A handler's four choices, as the table's cells.
fn cells_of(c: &Candidate) -> [&'static str; 4] {
    match c {
        Candidate::Handler(h) => [
            match h.first {
                OnFirstBarrier::SnapshotNow => "snapshot now",
                OnFirstBarrier::Wait => "wait",
            },
            match h.after {
                AfterBarrier::Block => "block and buffer",
                AfterBarrier::Process => "process",
                AfterBarrier::Drop => "drop",
            },
            match h.last {
                OnLastBarrier::Snapshot => "snapshot",
                OnLastBarrier::ForwardOnly => "forward only",
            },
            if h.in_flight { "stored" } else { "-" },
        ],
        Candidate::Timers => ["timers", "(no barriers)", "-", "-"],
    }
}

/// The table of candidates, then per probe, then why for the presets.
fn lab_table(rows: &[Row], lang: Lang) -> String {
    let mut s = String::from(
        "Barrier handlers, classified by exploring every schedule of line (a, b, c), two-inputs (a, b | f, g)\nand merge-then-count (a | f, g) under one checkpoint (or round of timers) and one crash at any\nmoment, then the restore\n\n",
    );
    s += &format!(
        "  {:<14} {:<22} {:<14} {:<10} {:<14} {:<14} {}\n",
        "first barrier",
        "records after barrier",
        "last barrier",
        "in-flight",
        "guarantee",
        "preset",
        "shortest loss / duplicate"
    );
    for (c, k) in rows {
        let steps = |x: &Option<(usize, Counterexample)>| {
            x.as_ref().map_or("-".to_string(), |(_, c)| format!("{} steps", c.schedule.len()))
        };
        let cells = cells_of(c);
        s += &format!(
            "  {:<14} {:<22} {:<14} {:<10} {:<14} {:<14} {} / {}\n",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            k.guarantee.id(),
            preset(c).unwrap_or(""),
            steps(&k.loss),
            steps(&k.duplicate)
        );
    }
    s + &probe_table(rows) + &preset_reasons(rows, lang)
}

/// Per probe: every schedule holds, or the shortest loss and duplicate on it.
fn probe_table(rows: &[Row]) -> String {
    let names: Vec<&str> = rows[0].1.probes.iter().map(|p| p.name.split(':').next().unwrap_or(p.name)).collect();
    let mut s = String::from("\nPer probe: every schedule holds, or the shortest schedule that loses / duplicates\n\n");
    let mut header = format!("  {:<62}", "handler");
    for n in &names {
        header += &format!(" {n:<30}");
    }
    s += header.trim_end();
    s += "\n";
    for (c, k) in rows {
        let mut row = format!("  {:<62}", cells_of(c).join(", "));
        for p in &k.probes {
            let cell = match (&p.loss, &p.duplicate) {
                (None, None) => format!("every schedule holds ({})", p.report.schedules),
                (Some(l), None) => format!("loses in {} steps", l.schedule.len()),
                (None, Some(d)) => format!("duplicates in {} steps", d.schedule.len()),
                (Some(l), Some(d)) => format!("loses in {}, duplicates in {}", l.schedule.len(), d.schedule.len()),
            };
            row += &format!(" {cell:<30}");
        }
        s += row.trim_end();
        s += "\n";
    }
    s
}

/// Why, for the presets: the shortest schedule that rules out each stronger guarantee.
fn preset_reasons(rows: &[Row], lang: Lang) -> String {
    let mut s = String::from("\nWhy, for the presets (the shortest schedule that rules out each stronger guarantee)\n");
    for (c, k) in rows {
        let Some(name) = preset(c) else { continue };
        s += &format!("\n{name}: {}\n", k.guarantee.id());
        let reasons = why(k, lang);
        if reasons.is_empty() {
            s += "  no schedule of any probe loses or duplicates a record: every schedule holds on each\n";
        }
        for (probe, steps, codes, text) in reasons {
            s += &format!("  on {probe}, {steps} steps ({codes}):\n    {text}\n");
        }
    }
    s
}
