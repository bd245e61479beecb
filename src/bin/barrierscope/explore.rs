//! `explore`: every schedule of a scenario under its fault budget, not the one its script plays.
//! Model checking in miniature: the explorer walks every order of reads, deliveries, snapshots,
//! crashes and restores, merges the states it has seen, and reports the share of schedules with
//! each verdict and the shortest schedule to each bad one, with the decisive steps explained. A
//! counterexample becomes a scenario file that `run` replays.

use barrierscope::engine::explorer::{Completion, Counterexample, Decisive, Explorer, Judged, Report, Shares};
use barrierscope::engine::*;

use crate::words::{count, lang_parser, read};

/// Every schedule of a scenario under its fault budget, and the shortest bad ones
///
/// Explores every schedule of the scenario's job (its script is ignored) under the budget it
/// sets ("explore": snapshots and crashes): the distinct states, the schedules, the share of each
/// verdict, and the shortest schedule to each bad outcome with its explanation. --out-dir
/// writes each such schedule as a scenario file that `run` replays.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// The scenario file, with an "explore" budget (see scenarios/explore/)
    #[arg(value_name = "SCENARIO.json", value_hint = clap::ValueHint::FilePath)]
    path: String,
    /// Print the report as one JSON object
    #[arg(long)]
    json: bool,
    /// Write each counterexample as a scenario file into DIR
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    out_dir: Option<String>,
    /// The language of the explanations
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = lang_parser())]
    lang: Lang,
    /// Follow every order after the last restore (by default one, which decides the same)
    #[arg(long)]
    every: bool,
    /// Stop the search past this many states
    #[arg(long, value_name = "N", default_value_t = MAX_STATES, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_states: usize,
    /// Print how long the search took
    #[arg(long)]
    time: bool,
}

const EXAMPLES: &str = "Examples:
  barrierscope explore scenarios/explore/line-timers.json
  barrierscope explore scenarios/explore/line-timers.json --out-dir found --lang zh";

/// The default `--max-states`: the search stops past it.
const MAX_STATES: usize = 2_000_000;

/// A finished search and what it wrote, for the table or the JSON.
struct Explored<'a> {
    scenario: &'a Scenario,
    explorer: &'a Explorer,
    report: &'a Report,
    g: &'a JobGraph,
    /// Where each counterexample was written, with --out-dir.
    files: &'a [Option<String>],
    completion: Completion,
    /// With --time: the seconds the search took and the states it found.
    timing: Option<(f64, usize)>,
}

/// The search, then the table or JSON, and the counterexample files.
pub fn run(args: Args) -> Result<String, String> {
    let path = &args.path;
    let text = read(path)?;
    let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    let completion = if args.every { Completion::Every } else { Completion::Canonical };
    let mut explorer = Explorer::for_scenario(&scenario, completion).map_err(|e| format!("{path}: {e}"))?;
    let started = std::time::Instant::now();
    let states = search(&mut explorer, path, args.max_states)?;
    let seconds = started.elapsed().as_secs_f64();
    let report = explorer.report().expect("done").clone();
    let g = explorer.initial().graph.clone();
    let files = write_counterexamples(&args, &scenario, &explorer, &report, &g)?;
    let x = Explored {
        scenario: &scenario,
        explorer: &explorer,
        report: &report,
        g: &g,
        files: &files,
        completion,
        timing: args.time.then_some((seconds, states)),
    };
    Ok(if args.json { explore_json(&x) } else { explore_table(&x, args.lang) })
}

/// Runs the search to its end, in slices, as the page runs it (a slice is cheap to check against
/// the limit); returns the states found.
fn search(explorer: &mut Explorer, path: &str, max_states: usize) -> Result<usize, String> {
    loop {
        let p = explorer.run(4096.min(max_states));
        if let Some(why) = &p.failed {
            return Err(format!("{path}: the exploration stopped: {why}"));
        }
        if p.done {
            return Ok(p.states);
        }
        if p.states > max_states {
            return Err(format!(
                "{path}: the exploration stopped after {} states (--max-states {max_states}), {} still to expand at depth {}: explore a smaller job, fewer records or a smaller budget, or raise --max-states",
                p.states, p.open, p.depth
            ));
        }
    }
}

/// With --out-dir, each counterexample as a scenario file; where each was written.
fn write_counterexamples(
    args: &Args,
    scenario: &Scenario,
    explorer: &Explorer,
    report: &Report,
    g: &JobGraph,
) -> Result<Vec<Option<String>>, String> {
    let stem = std::path::Path::new(&args.path).file_stem().and_then(|s| s.to_str()).unwrap_or("scenario").to_string();
    let mut files = Vec::new();
    for c in &report.counterexamples {
        let file = match &args.out_dir {
            None => None,
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| format!("can't create {dir}: {e}"))?;
                let file = std::path::Path::new(dir).join(format!("{stem}.{}.json", c.bad.id()));
                let sc = c.scenario(scenario, explorer.initial(), c.story.text(g, Lang::En));
                std::fs::write(&file, sc.to_json() + "\n")
                    .map_err(|e| format!("can't write {}: {e}", file.display()))?;
                Some(file.display().to_string())
            }
        };
        files.push(file);
    }
    Ok(files)
}

fn explore_json(x: &Explored) -> String {
    let Explored { scenario, report, g, files, completion, .. } = x;
    let (faults, sim) = (x.explorer.faults(), x.explorer.initial());
    let big = |n: u128| match u64::try_from(n) {
        Ok(n) => serde_json::json!(n),
        Err(_) => serde_json::json!(n.to_string()),
    };
    let shares = |s: &Shares| {
        serde_json::json!({
            "exactly_once": big(s.exactly_once),
            "lost": big(s.lost),
            "duplicated": big(s.duplicated),
            "lost_and_duplicated": big(s.lost_and_duplicated),
            "pending": big(s.pending),
        })
    };
    let counterexamples: Vec<serde_json::Value> = report
        .counterexamples
        .iter()
        .zip(files.iter())
        .map(|(c, file)| {
            serde_json::json!({
                "outcome": c.bad.id(),
                "records": c.records.iter().map(|r| g.label(*r)).collect::<Vec<_>>(),
                "schedules": big(c.schedules),
                "steps": c.schedule.len(),
                "script": c.schedule.iter().map(|a| ScriptAction::of(g, *a)).collect::<Vec<_>>(),
                "codes": c.schedule.iter().map(|a| a.code()).collect::<Vec<_>>().join(" "),
                "decisive": c.story.decisive.iter().map(|d| serde_json::json!({
                    "step": d.step,
                    "what": d.what,
                    "task": d.task.map(|t| g.task(t).name.clone()),
                    "records": d.records.iter().map(|r| g.label(*r)).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
                "explanation": { "en": c.story.text(g, Lang::En), "zh": c.story.text(g, Lang::Zh) },
                "file": file,
            })
        })
        .collect();
    let mut v = serde_json::json!({
        "name": scenario.name,
        "strategy": sim.strategy().id(),
        "sink": sim.settings.sink.id(),
        "budget": { "snapshots": faults.snapshots, "crashes": faults.crashes },
        "completion": completion,
        "states": report.states,
        "end_states": report.end_states,
        "transitions": report.transitions,
        "schedules": big(report.schedules),
        "shortest": report.shortest,
        "longest": report.longest,
        "state": shares(&report.state),
        "output": report.output.as_ref().map(shares),
        "history": {
            "complete": big(report.history.complete),
            "incomplete": big(report.history.incomplete),
            "in_order": big(report.history.in_order),
            "out_of_order": big(report.history.out_of_order),
        },
        "counterexamples": counterexamples,
    });
    if let Some((seconds, _)) = x.timing {
        v["seconds"] = serde_json::json!(seconds);
    }
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}

fn explore_table(x: &Explored, lang: Lang) -> String {
    let Explored { scenario, report, g, files, completion, .. } = x;
    let (faults, sim) = (x.explorer.faults(), x.explorer.initial());
    let mut s = String::new();
    if !scenario.name.is_empty() {
        s += &format!("{}\n", scenario.name);
    }
    let snapshots = match sim.strategy() {
        Strategy::Timers => format!(
            "{} (each task's timer fires at most {}, at its own moment)",
            count(faults.snapshots as u64, "round of timers", "rounds of timers"),
            count(faults.snapshots as u64, "time", "times")
        ),
        Strategy::None => "no snapshots (strategy none)".to_string(),
        _ => count(faults.snapshots as u64, "checkpoint", "checkpoints"),
    };
    s += &format!(
        "strategy {}, sink {}, {}\nbudget: {snapshots}, {} at any moment, each then restored; after the last restore, {}\n",
        sim.strategy().id(),
        sim.settings.sink.id(),
        count(g.records.len() as u64, "record", "records"),
        count(faults.crashes as u64, "crash of the cluster", "crashes of the cluster"),
        match completion {
            Completion::Canonical => "one canonical completion",
            Completion::Every => "every completion",
        }
    );
    s += &format!(
        "{} distinct states ({} where schedules end, {} moves), {} schedules of {} to {} steps{}\n",
        report.states,
        report.end_states,
        report.transitions,
        report.schedules,
        report.shortest,
        report.longest,
        match x.timing {
            Some((seconds, states)) => {
                format!("; explored in {:.3} s ({} states/s)", seconds, (states as f64 / seconds.max(1e-9)) as u64)
            }
            None => String::new(),
        }
    );
    s += &outcome_table(report);
    if report.counterexamples.is_empty() {
        s += "\nNo schedule loses or duplicates a record, leaves one incomplete or takes one out of order.\n";
    }
    for (i, (c, file)) in report.counterexamples.iter().zip(files.iter()).enumerate() {
        s += &counterexample_text(i + 1, c, report, g, lang);
        if let Some(f) = file {
            s += &format!("  written to {f}\n");
        }
    }
    s
}

fn share(n: u128, of: u128) -> String {
    if of == 0 {
        return "-".into();
    }
    format!("{n} ({:.1} %)", n as f64 * 100.0 / of as f64)
}

/// The share of schedules with each verdict, for state and output.
fn outcome_table(r: &Report) -> String {
    let mut s = format!("\nOutcomes, as shares of the {} schedules\n", r.schedules);
    s += &format!("  {:<28} {:>22}", "", "state");
    if r.output.is_some() {
        s += &format!(" {:>22}", "output");
    }
    s += "\n";
    type Count = fn(&Shares) -> u128;
    let rows: [(&str, Count); 5] = [
        ("exactly once", |x| x.exactly_once),
        ("some record lost", |x| x.lost),
        ("some record duplicated", |x| x.duplicated),
        ("  (lost and duplicated)", |x| x.lost_and_duplicated),
        ("still pending", |x| x.pending),
    ];
    for (name, f) in rows {
        if name == "still pending" && f(&r.state) == 0 && r.output.as_ref().is_none_or(|o| f(o) == 0) {
            continue;
        }
        s += &format!("  {:<28} {:>22}", name, share(f(&r.state), r.schedules));
        if let Some(o) = &r.output {
            s += &format!(" {:>22}", share(f(o), r.schedules));
        }
        s += "\n";
    }
    let h = &r.history;
    s += "  on the history that counts (after recovery, at every task)\n";
    for (name, n) in [
        ("complete on every path", h.complete),
        ("some record incomplete", h.incomplete),
        ("in order", h.in_order),
        ("some record out of order", h.out_of_order),
    ] {
        s += &format!("  {:<28} {:>22}\n", name, share(n, r.schedules));
    }
    s
}

/// A word for what a decisive step did.
fn decisive_note(g: &JobGraph, d: &barrierscope::engine::explorer::DecisiveStep) -> String {
    let task = d.task.map_or(String::new(), |t| g.task(t).name.clone());
    let recs = d.records.iter().map(|r| g.label(*r)).collect::<Vec<_>>().join(" ");
    match d.what {
        Decisive::Sent => format!("{task} sends {recs}"),
        Decisive::Saved => format!("{task} saves"),
        Decisive::Received => format!("{recs} reaches {task}"),
        Decisive::BarrierAhead => format!("the barrier reaches {task} ahead of {recs}"),
        Decisive::Crashed => "the crash".into(),
        Decisive::Restored => "the restore".into(),
        Decisive::SentAgain if d.task.is_some() => format!("{task} sends {recs} again"),
        Decisive::SentAgain => format!("{recs} replayed"),
        Decisive::ReceivedAgain => format!("{recs} reaches {task} again"),
        Decisive::Dropped => format!("{task} drops {recs}"),
    }
}

fn counterexample_text(n: usize, c: &Counterexample, r: &Report, g: &JobGraph, lang: Lang) -> String {
    let recs = c.records.iter().map(|r| g.label(*r)).collect::<Vec<_>>().join(", ");
    let mut s = format!(
        "\nCounterexample {n}: {} ({recs}), the shortest of {} schedules ending so: {} steps\n",
        match c.bad.judged {
            Judged::Complete => "incomplete".to_string(),
            Judged::Order => "out of order".to_string(),
            j => format!("{} {}", j.id(), c.bad.verdict.id()),
        },
        share(c.schedules, r.schedules),
        c.schedule.len()
    );
    for (i, a) in c.schedule.iter().enumerate() {
        let step = i as u32 + 1;
        let notes: Vec<String> =
            c.story.decisive.iter().filter(|d| d.step == step).map(|d| decisive_note(g, d)).collect();
        let mark = if notes.is_empty() { ' ' } else { '*' };
        let line = format!("  {mark}{step:>3}  {}", describe(g, a, Lang::En));
        if notes.is_empty() {
            s += &format!("{line}\n");
        } else {
            s += &format!("{line:<40}  <- {}\n", notes.join("; "));
        }
    }
    s += &format!("  {}\n", c.story.text(g, lang));
    s
}
