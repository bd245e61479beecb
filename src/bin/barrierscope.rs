//! The headless runner: plays a scenario file and prints the ledger verdict, the checkpoint
//! statistics and the consistent-cut report of the end state, as a table or as JSON.
//!
//! It also explores a scenario: every schedule under its fault budget, the share of each outcome,
//! and the shortest schedule to each bad one, explained and written out as scenario files.
//!
//!     barrierscope run scenario.json [--json] [--events]
//!     barrierscope cut scenario.json --at T1,T2,... [--json]
//!     barrierscope compare a.json b.json c.json [--json] [--steps] [--events]
//!     barrierscope explore scenario.json [--json] [--out-dir DIR] [--lang en|zh] [--every] [--max-states N] [--time]
//!     barrierscope lab [--json] [--lang en|zh]
//!     barrierscope batch BATCH.json [--json] [--events] [--lang en|zh]
//!     barrierscope export-pyflink scenario.json [-o out.py]
//!     barrierscope quiz SET [--lang en|zh]
//!     barrierscope export-pyspark scenario.json|batch.json [-o out.py]
//!     barrierscope lesson check FILE...|--built-in
//!     barrierscope lesson list|print ID|link FILE [--base URL]
//!     barrierscope jobs
//!     barrierscope example JOB

use std::process::ExitCode;

use barrierscope::classroom::saved_comparison::SavedComparison;
use barrierscope::engine::comparison::format::is_comparison;
use barrierscope::engine::comparison::{crash_meaning, ComparisonFile, Costs, Lockstep};
use barrierscope::engine::explorer::{Completion, Counterexample, Decisive, Explorer, Judged, Report, Shares};
use barrierscope::engine::scenario::Played;
use barrierscope::engine::*;

const USAGE: &str = "usage:
  barrierscope run SCENARIO.json [--json] [--events]   play a scenario, print verdict, checkpoint statistics and the cut
  barrierscope cut SCENARIO.json --at T1,T2,... [--json]
                                                       draw a cut through the scenario's run: after step Ti on task i (one
                                                       step per task, in the job's task order, as `jobs` lists them); print the
                                                       records crossing it (orphan: received before the cut, sent after it;
                                                       in transit: sent before it, received after it or never), whether it is
                                                       consistent, and each record's verdict after a copy of the run crashes
                                                       at the latest point, restores every task from its own point and runs
                                                       to the end (timers and the checkpointing strategies)
  barrierscope compare FILE... [--json] [--steps] [--events]
                                                       run configurations side by side in lockstep and print the cost table:
                                                       one comparison file, or 1 to 3 scenario files sharing job, input and seed;
                                                       --steps: every tick's actions side by side; --events: each run's events
  barrierscope explore SCENARIO.json [--json] [--out-dir DIR] [--lang en|zh] [--every] [--max-states N] [--time]
                                                       every schedule of the scenario under its fault budget (\"explore\"):
                                                       states, schedules, the share of each verdict, and the shortest
                                                       schedule to each bad one with its explanation; --out-dir writes each
                                                       as a scenario file that `run` replays; --every follows every order
                                                       after the last restore (default: one, which decides the same);
                                                       --max-states stops the search (default 2000000); --time prints how
                                                       long it took
  barrierscope lab [--json] [--lang en|zh]             the barrier-handler lab: every composed handler (and per-task timers),
                                                       classified by exploring two small jobs, with the counterexample
                                                       that rules out the stronger guarantees
  barrierscope batch BATCH.json [--json] [--events] [--lang en|zh]
                                                       play a batch job (Hadoop or Spark, scenarios/batch/): what ran again,
                                                       the partitions and records recomputed, the task runs against the
                                                       failure-free run, and every output record's verdict; checks the
                                                       file's \"expect\" (exit 2 when it fails); --events: the narration
  barrierscope export-pyflink SCENARIO.json [-o OUT.py] write the scenario as a PyFlink job (stdout without -o)
  barrierscope quiz SET [--lang en|zh]                 the answer key of the quiz room's set SET (#room=quiz&set=SET): each
                                                       question, its options with the right ones marked [x], and why
  barrierscope export-pyspark FILE.json [-o OUT.py]    write a Spark Streaming scenario or a Spark batch file as a PySpark job
  barrierscope lesson check FILE... | --built-in        play every step of each lesson file (or the built-in lessons), check
                                                       each \"shows\" claim against the run and each prediction's \"expect\"
                                                       against the engine; print what is wrong (exit 2 when something is)
  barrierscope lesson list                             the built-in lessons: id and title
  barrierscope lesson print ID                         a built-in lesson's file, a starting point for your own
  barrierscope lesson link FILE [--base URL]           the link that opens the lesson file in the page: URL#lesson=...
  barrierscope jobs                                    list the built-in jobs
  barrierscope example JOB                             print an example scenario for a built-in job";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<String, String> {
    match args.first().map(String::as_str) {
        Some("run") => {
            let mut path = None;
            let (mut json, mut events) = (false, false);
            for a in &args[1..] {
                match a.as_str() {
                    "--json" => json = true,
                    "--events" => events = true,
                    s if s.starts_with('-') => {
                        return Err(format!("unknown option {s}; run `barrierscope help` for usage"))
                    }
                    s if path.is_none() => path = Some(s.to_string()),
                    s => return Err(format!("unexpected argument {s}; run `barrierscope help` for usage")),
                }
            }
            let path = path.ok_or_else(|| "run needs a scenario file: barrierscope run SCENARIO.json".to_string())?;
            let text = std::fs::read_to_string(&path).map_err(|e| format!("can't read {path}: {e}"))?;
            let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
            let (played, restore) = scenario.play_restore().map_err(|e| format!("{path}: {e}"))?;
            Ok(match (json, restore) {
                (true, None) => report_json(&scenario, &played),
                (true, Some(r)) => restore_json(&scenario, &played, &r),
                (false, None) => report_table(&scenario, &played, events),
                (false, Some(r)) => restore_table(&r) + &report_table(&scenario, &played, events),
            })
        }
        Some("cut") => drawn_cut(&args[1..]),
        Some("compare") => compare(&args[1..]),
        Some("explore") => explore(&args[1..]),
        Some("lab") => lab(&args[1..]),
        Some("batch") => batch(&args[1..]),
        Some("export-pyflink") => {
            let (mut path, mut out) = (None, None);
            let mut rest = args[1..].iter();
            while let Some(a) = rest.next() {
                match a.as_str() {
                    "-o" | "--output" => {
                        out = Some(rest.next().ok_or_else(|| format!("{a} needs a file name: -o OUT.py"))?.clone())
                    }
                    s if s.starts_with('-') => {
                        return Err(format!("unknown option {s}; run `barrierscope help` for usage"))
                    }
                    s if path.is_none() => path = Some(s.to_string()),
                    s => return Err(format!("unexpected argument {s}; run `barrierscope help` for usage")),
                }
            }
            let path = path.ok_or_else(|| {
                "export-pyflink needs a scenario file: barrierscope export-pyflink SCENARIO.json [-o OUT.py]"
                    .to_string()
            })?;
            let text = std::fs::read_to_string(&path).map_err(|e| format!("can't read {path}: {e}"))?;
            let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
            let python = export_pyflink(&scenario).map_err(|e| format!("{path}: {e}"))?;
            match out {
                Some(out) => {
                    std::fs::write(&out, python).map_err(|e| format!("can't write {out}: {e}"))?;
                    Ok(String::new())
                }
                None => Ok(python),
            }
        }
        Some("quiz") => quiz_key(&args[1..]),
        Some("lesson") => lesson_command(&args[1..]),
        Some("export-pyspark") => export_pyspark_command(&args[1..]),
        Some("jobs") => {
            let mut s = String::new();
            for name in BUILTIN_NAMES {
                let b = builtin(name).expect("built-in");
                let g = JobGraph::build(&b.spec, &b.input).expect("built-ins are valid");
                s +=
                    &format!("{name:<14} {} ({} tasks, {} channels)\n", b.description, g.tasks.len(), g.channels.len());
            }
            Ok(s)
        }
        Some("example") => {
            let name =
                args.get(1).ok_or_else(|| format!("example needs a job name: one of {}", BUILTIN_NAMES.join(", ")))?;
            let mut sc = Scenario::builtin(name, Settings::new(Strategy::Aligned), 7);
            sc.graph().map_err(|e| e.to_string())?;
            sc.name = format!("{name}: a checkpoint, a crash, a restore");
            sc.actions = vec![
                ScriptAction::Auto(6),
                ScriptAction::Checkpoint,
                ScriptAction::Auto(6),
                ScriptAction::Crash,
                ScriptAction::Restore,
                ScriptAction::RunToEnd,
            ];
            Ok(sc.to_json() + "\n")
        }
        Some("-h" | "--help" | "help") => Ok(format!("{USAGE}\n")),
        Some(other) => Err(format!("unknown command {other:?}; run `barrierscope help` for usage")),
        None => Err("no command given; run `barrierscope help` for usage".to_string()),
    }
}

fn drawn_cut(args: &[String]) -> Result<String, String> {
    let (mut path, mut at, mut json) = (None, None, false);
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--json" => json = true,
            "--at" => at = Some(rest.next().ok_or("--at needs one step per task: --at 4,4,4")?.clone()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}; run `barrierscope help` for usage")),
            s if path.is_none() => path = Some(s.to_string()),
            s => return Err(format!("unexpected argument {s}; run `barrierscope help` for usage")),
        }
    }
    let usage = "barrierscope cut SCENARIO.json --at T1,T2,...";
    let path = path.ok_or_else(|| format!("cut needs a scenario file: {usage}"))?;
    let at = at.ok_or_else(|| format!("cut needs the cut's points: {usage}"))?;
    let points = at
        .split(',')
        .map(|p| p.trim().parse::<u64>().map_err(|_| format!("--at {at}: {p:?} is not a step number")))
        .collect::<Result<Vec<u64>, String>>()?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("can't read {path}: {e}"))?;
    let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    let played = scenario.play().map_err(|e| format!("{path}: {e}"))?;
    let start = scenario.sim().map_err(|e| format!("{path}: {e}"))?;
    let tl = Timeline::from_actions(start, &played.actions).map_err(|(i, e)| format!("{path}: step {}: {e}", i + 1))?;
    let cut = drawn_cut::classify(&tl, &points).map_err(|e| format!("{path}: {e}"))?;
    let restored = drawn_cut::restore_from(&tl, &points, scenario::MAX_SCRIPT_STEPS);
    let g = &played.sim.graph;
    if json {
        let v = serde_json::json!({
            "scenario": scenario.name,
            "steps": tl.len(),
            "points": g.tasks.iter().zip(&points).map(|(t, p)| serde_json::json!({"task": t.name, "after_step": p})).collect::<Vec<_>>(),
            "consistent": cut.consistent(),
            "arrows": cut.arrows,
            "restore": match &restored {
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
        return Ok(serde_json::to_string_pretty(&v).expect("serializes") + "\n");
    }
    let mut s = format!("{} ({} steps)\n", scenario.name, tl.len());
    let named: Vec<String> = g.tasks.iter().zip(&points).map(|(t, p)| format!("{} {p}", t.name)).collect();
    s += &format!("cut after steps: {}\n", named.join(", "));
    let (orphans, in_transit) = (cut.orphans().len(), cut.in_transit().len());
    s += &format!(
        "consistent: {} ({orphans} {}, {in_transit} in transit)\n",
        if cut.consistent() { "yes" } else { "NO" },
        if orphans == 1 { "orphan" } else { "orphans" }
    );
    if cut.arrows.is_empty() {
        s += "no record crosses the cut\n";
    } else {
        s += "records crossing the cut:\n";
        for a in &cut.arrows {
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
    match restored {
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
    Ok(s)
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::ExactlyOnce => "exactly once",
        Verdict::Lost => "LOST",
        Verdict::Duplicated => "DUPLICATED",
        Verdict::Pending => "pending",
    }
}

fn tally(t: &Tally) -> String {
    format!("{} exactly once, {} lost, {} duplicated, {} pending", t.exactly_once, t.lost, t.duplicated, t.pending)
}

fn complete_word(v: Completeness) -> &'static str {
    match v {
        Completeness::Complete => "complete",
        Completeness::Incomplete => "INCOMPLETE",
        Completeness::Pending => "pending",
    }
}

fn order_word(v: Order) -> &'static str {
    match v {
        Order::InOrder => "in order",
        Order::OutOfOrder => "OUT OF ORDER",
        Order::Pending => "pending",
    }
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
    if sim.strategy().uses_coordinator() {
        let c = sim.stats.counts();
        s += &format!(
            "\nCheckpoints: {} triggered, {} in progress, {} completed, {} failed, {} restored\n",
            c.triggered, c.in_progress, c.completed, c.failed, c.restored
        );
        if !sim.savepoints().is_empty() {
            let ids: Vec<String> =
                sim.savepoints().iter().map(|p| format!("{}{}", p.checkpoint.id.0, if p.stop { " (stop)" } else { "" })).collect();
            s += &format!("Savepoints (the user's, not among the retained checkpoints): {}\n", ids.join(", "));
        }
        match sim.stopped() {
            Some(JobEnd::Finished) => s += "The job finished (stopped with a savepoint).\n",
            Some(JobEnd::Canceled) => s += "The job was cancelled.\n",
            None => {}
        }
        s += &format!(
            "  {:>4}  {:<22} {:>6} {:>8} {:>10} {:>9} {:>10} {:>9}\n",
            "id", "status", "acks", "trigger", "latest ack", "duration", "size (B)", "in-flight"
        );
        for r in &sim.stats.history {
            let mut status = match r.status {
                CheckpointStatus::InProgress => "in progress".to_string(),
                CheckpointStatus::Completed => "completed".to_string(),
                CheckpointStatus::Failed(reason) => format!("failed: {}", reason.id()),
            };
            match r.savepoint {
                Some(SavepointType::Savepoint) => status += " (savepoint)",
                Some(SavepointType::Suspend) => status += " (stop savepoint)",
                None => {}
            }
            s += &format!(
                "  {:>4}  {:<22} {:>6} {:>8} {:>10} {:>9} {:>10} {:>9}\n",
                r.id.0,
                status,
                format!("{}/{}", r.acked, r.total),
                r.trigger_tick,
                r.latest_ack.map_or("-".into(), |t| t.to_string()),
                r.duration(sim.tick),
                r.state_size,
                r.in_flight
            );
            if let Some(stall) = r.stall {
                s += &format!("          sources paused {stall} step(s) (stop-the-world)\n");
            }
            // Under unaligned checkpoints a task snapshots at its first barrier, before it
            // acknowledges (after its last).
            let mode = |unaligned: bool| match sim.strategy() {
                _ if unaligned => "unaligned",
                Strategy::Unaligned => "unaligned",
                Strategy::Aligned => "aligned",
                Strategy::AtLeastOnce => "not blocking (at-least-once)",
                _ => "",
            };
            for (t, st) in r.subtasks.iter().enumerate() {
                if st.first_barrier.is_some() || (st.ack_tick.is_some() && sim.strategy().uses_barriers()) {
                    let acked = if st.ack_tick.is_none() { "not acknowledged" } else { "" };
                    let words: Vec<&str> = [mode(st.unaligned), acked].into_iter().filter(|w| !w.is_empty()).collect();
                    s += &format!(
                        "          {:<18} start delay {:>3}  alignment {:>3}  {}\n",
                        g.tasks[t].name,
                        st.start_delay.map_or("-".into(), |v| v.to_string()),
                        st.alignment.map_or("-".into(), |v| v.to_string()),
                        words.join(", ")
                    );
                }
            }
        }
    }
    s += &failover_table(sim);
    if sim.strategy() == Strategy::SparkStreaming {
        return s + &batch_table(sim);
    }
    s + &cut_table(sim)
}

/// Spark Streaming: every batch attempt with its delays, the write-ahead log and the latency.
fn batch_table(sim: &Sim) -> String {
    let d = sim.durable_spark();
    let mut s = String::from("\nBatches (steps; a recompute rebuilds state from lineage, without output)\n");
    s += "  batch   time  records  attempt  kind        started  finished  scheduling  processing\n";
    for b in &d.batches {
        s += &format!(
            "  {:>5} {:>6} {:>8} {:>8}  {:<10} {:>8} {:>9} {:>11} {:>11}\n",
            b.batch,
            b.time,
            b.records,
            b.attempt,
            if b.output { "output" } else { "recompute" },
            b.started,
            b.finished.map_or("-".into(), |t| t.to_string()),
            b.scheduling_delay(),
            b.processing_delay().map_or("-".into(), |t| t.to_string())
        );
    }
    let (sum, n, max) = sim.record_latency();
    s += &format!(
        "Write-ahead log: {} bytes written, {} blocks held\nLatency, arrival to a visible output: {} records, mean {}, max {max} steps\n",
        d.wal_written,
        d.wal.len(),
        n,
        sum.checked_div(n).unwrap_or(0)
    );
    s
}

/// Each failover: what failed, the steps from the failure to running again, how the job came back
/// and from what; and the checkpoints of earlier submissions of the job (without HA).
fn failover_table(sim: &Sim) -> String {
    let g = &sim.graph;
    let mut s = String::new();
    for (i, h) in sim.stats.earlier_submissions.iter().enumerate() {
        let rows: Vec<String> = h
            .iter()
            .map(|r| match r.status {
                CheckpointStatus::Completed => format!("{} completed", r.id.0),
                CheckpointStatus::InProgress => format!("{} in progress", r.id.0),
                CheckpointStatus::Failed(reason) => format!("{} failed: {}", r.id.0, reason.id()),
            })
            .collect();
        let rows = if rows.is_empty() { "none".to_string() } else { rows.join(", ") };
        s += &format!("\nCheckpoints of submission {} (a failed job): {rows}\n", i + 1);
    }
    if sim.stats.failovers.is_empty() {
        return s;
    }
    s += "\nFailovers (steps from the failure to running again)\n";
    s += &format!("  {:<34} {:>6} {:>8} {:>6}  {:<30} {}\n", "cause", "failed", "running", "steps", "how", "restored from");
    for f in &sim.stats.failovers {
        let cause = match f.cause {
            FailureCause::Cluster => "the cluster crashed".to_string(),
            FailureCause::Task(t) => format!("{} failed (every task)", g.task(t).name),
            FailureCause::Region(t) => format!("{} failed (its region)", g.task(t).name),
            FailureCause::JobManager => "the JobManager failed".to_string(),
            FailureCause::JobManagerWithStandby => "the JobManager failed (standby)".to_string(),
            FailureCause::JobManagerWithoutHa => "the JobManager failed (no HA)".to_string(),
            FailureCause::Nimbus => "Nimbus died".to_string(),
            FailureCause::TooManyFailedCheckpoints => "too many failed checkpoints".to_string(),
        };
        let how = match f.takeover {
            None => "still down".to_string(),
            Some(Takeover::Restart) => "restarted the tasks".to_string(),
            Some(Takeover::Election { leader }) => format!("{} won the election", leader.letter()),
            Some(Takeover::Resubmission { submission }) => format!("resubmitted (submission {submission})"),
            Some(Takeover::KeptRunning) => "the workers kept running".to_string(),
        };
        let from = match f.restored {
            None => "-".to_string(),
            Some(RestoreFrom::Checkpoint { checkpoint }) => format!("checkpoint {}", checkpoint.0),
            Some(RestoreFrom::Nothing) => "nothing".to_string(),
            Some(RestoreFrom::OwnSaves) => "each task's own save".to_string(),
            Some(RestoreFrom::Policy) => "the restart policy".to_string(),
            Some(RestoreFrom::Committed) => "the committed offsets".to_string(),
            Some(RestoreFrom::MetadataCheckpoint { .. }) => "the metadata checkpoint".to_string(),
        };
        s += &format!(
            "  {:<34} {:>6} {:>8} {:>6}  {:<30} {}\n",
            cause,
            f.failed_tick,
            f.running_tick.map_or("-".into(), |t| t.to_string()),
            f.steps_down().map_or("-".into(), |t| t.to_string()),
            how,
            from
        );
    }
    s
}

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
fn cut_table(sim: &Sim) -> String {
    let g = &sim.graph;
    let Some(cut) = sim.latest_cut() else {
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
fn cut_json(sim: &Sim) -> serde_json::Value {
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

/// The restore into a changed program: the snapshot, the new program, the verdict and the
/// mapping by operator id.
fn restore_table(r: &barrierscope::engine::scenario_restore::RestoreReport) -> String {
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
    let mut s = format!("Restore from snapshot {}{flag}
  new program: {}
", r.from.0, ops.join(", "));
    match &r.refused {
        Some(why) => s += &format!("  refused: {why}
"),
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

fn restore_json(sc: &Scenario, p: &Played, r: &barrierscope::engine::scenario_restore::RestoreReport) -> String {
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

fn report_json(sc: &Scenario, p: &Played) -> String {
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
    if sim.strategy() == Strategy::SparkStreaming {
        let d = sim.durable_spark();
        let (sum, n, max) = sim.record_latency();
        v["batches"] = serde_json::json!(d.batches);
        v["write_ahead_log"] = serde_json::json!({ "written_bytes": d.wal_written, "blocks_held": d.wal.len() });
        v["latency"] = serde_json::json!({ "records": n, "mean": sum.checked_div(n).unwrap_or(0), "max": max });
    }
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}

/// `compare FILE... [--json] [--steps] [--events]`: one comparison file, or one to three scenario files
/// sharing job, input and seed, run side by side in lockstep; prints the cost table.
fn compare(args: &[String]) -> Result<String, String> {
    let (mut json, mut steps, mut events) = (false, false, false);
    let mut paths = Vec::new();
    for a in args {
        match a.as_str() {
            "--json" => json = true,
            "--steps" => steps = true,
            "--events" => events = true,
            s if s.starts_with('-') => return Err(format!("unknown option {s}; run `barrierscope help` for usage")),
            s => paths.push(s.to_string()),
        }
    }
    if paths.is_empty() {
        return Err(
            "compare needs a comparison file, or 1 to 3 scenario files: barrierscope compare a.json b.json c.json"
                .into(),
        );
    }
    let mut texts = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("can't read {path}: {e}"))?;
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
            w.push(format!("batch every {}", s.batch_interval));
            w.push(format!("log {}", if s.write_ahead_log { "on" } else { "off" }));
        }
        Strategy::StormAcker => {
            if s.ackers == 0 {
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
        Some(RestoreFrom::Committed) => "from the committed offsets".into(),
        Some(RestoreFrom::MetadataCheckpoint { .. }) => "from the metadata checkpoint".into(),
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
        scenario::JobRef::Builtin(name) => name.clone(),
        scenario::JobRef::Custom(_) => "a custom job".into(),
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

/// The default `--max-states`: the search stops past it.
const MAX_STATES: usize = 2_000_000;

/// `barrierscope explore`: the search, then the table or JSON, and the counterexample files.
fn explore(args: &[String]) -> Result<String, String> {
    let (mut path, mut out_dir) = (None, None);
    let (mut json, mut every, mut time) = (false, false, false);
    let mut lang = Lang::En;
    let mut max_states = MAX_STATES;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| {
            it.next().cloned().ok_or_else(|| format!("{a} needs {what}; run `barrierscope help` for usage"))
        };
        match a.as_str() {
            "--json" => json = true,
            "--every" => every = true,
            "--time" => time = true,
            "--out-dir" => out_dir = Some(value("a directory")?),
            "--lang" => {
                let v = value("en or zh")?;
                lang = Lang::from_id(&v).ok_or_else(|| format!("--lang takes en or zh, not {v:?}"))?;
            }
            "--max-states" => {
                let v = value("a number")?;
                max_states = v
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("--max-states takes a whole number above 0, not {v:?}"))?;
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}; run `barrierscope help` for usage")),
            s if path.is_none() => path = Some(s.to_string()),
            s => return Err(format!("unexpected argument {s}; run `barrierscope help` for usage")),
        }
    }
    let path = path.ok_or_else(|| "explore needs a scenario file: barrierscope explore SCENARIO.json".to_string())?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("can't read {path}: {e}"))?;
    let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    let completion = if every { Completion::Every } else { Completion::Canonical };
    let mut explorer = Explorer::for_scenario(&scenario, completion).map_err(|e| format!("{path}: {e}"))?;
    let started = std::time::Instant::now();
    // In slices, as the page will run it; a slice is cheap to check against the limit.
    let progress = loop {
        let p = explorer.run(4096.min(max_states));
        if let Some(why) = &p.failed {
            return Err(format!("{path}: the exploration stopped: {why}"));
        }
        if p.done {
            break p;
        }
        if p.states > max_states {
            return Err(format!(
                "{path}: the exploration stopped after {} states (--max-states {max_states}), {} still to expand at depth {}: explore a smaller job, fewer records or a smaller budget, or raise --max-states",
                p.states, p.open, p.depth
            ));
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let report = explorer.report().expect("done").clone();
    let g = explorer.initial().graph.clone();
    let stem = std::path::Path::new(&path).file_stem().and_then(|s| s.to_str()).unwrap_or("scenario").to_string();
    let mut files = Vec::new();
    for c in &report.counterexamples {
        let file = match &out_dir {
            None => None,
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| format!("can't create {dir}: {e}"))?;
                let file = std::path::Path::new(dir).join(format!("{stem}.{}.json", c.bad.id()));
                let sc = c.scenario(&scenario, explorer.initial(), c.story.text(&g, Lang::En));
                std::fs::write(&file, sc.to_json() + "\n")
                    .map_err(|e| format!("can't write {}: {e}", file.display()))?;
                Some(file.display().to_string())
            }
        };
        files.push(file);
    }
    let faults = explorer.faults();
    let sim = explorer.initial();
    if json {
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
            .zip(&files)
            .map(|(c, file)| {
                serde_json::json!({
                    "outcome": c.bad.id(),
                    "records": c.records.iter().map(|r| g.label(*r)).collect::<Vec<_>>(),
                    "schedules": big(c.schedules),
                    "steps": c.schedule.len(),
                    "script": c.schedule.iter().map(|a| ScriptAction::of(&g, *a)).collect::<Vec<_>>(),
                    "codes": c.schedule.iter().map(|a| a.code()).collect::<Vec<_>>().join(" "),
                    "decisive": c.story.decisive.iter().map(|d| serde_json::json!({
                        "step": d.step,
                        "what": d.what,
                        "task": d.task.map(|t| g.task(t).name.clone()),
                        "records": d.records.iter().map(|r| g.label(*r)).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "explanation": { "en": c.story.text(&g, Lang::En), "zh": c.story.text(&g, Lang::Zh) },
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
        if time {
            v["seconds"] = serde_json::json!(seconds);
        }
        return Ok(serde_json::to_string_pretty(&v).expect("serializes") + "\n");
    }
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
        if time {
            format!("; explored in {:.3} s ({} states/s)", seconds, (progress.states as f64 / seconds.max(1e-9)) as u64)
        } else {
            String::new()
        }
    );
    s += &outcome_table(&report);
    if report.counterexamples.is_empty() {
        s += "\nNo schedule loses or duplicates a record, leaves one incomplete or takes one out of order.\n";
    }
    for (i, (c, file)) in report.counterexamples.iter().zip(&files).enumerate() {
        s += &counterexample_text(i + 1, c, &report, &g, lang);
        if let Some(f) = file {
            s += &format!("  written to {f}\n");
        }
    }
    Ok(s)
}

/// "1 record", "3 records".
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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

/// `barrierscope lab`: every composed barrier handler and per-task timers, classified.
fn lab(args: &[String]) -> Result<String, String> {
    use barrierscope::engine::explorer::lab::{classify, Candidate};
    use barrierscope::engine::mechanisms::handler_lab::{AfterBarrier, Handler, OnFirstBarrier, OnLastBarrier};
    let (mut json, mut lang) = (false, Lang::En);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--lang" => {
                let v = it.next().ok_or("--lang needs en or zh; run `barrierscope help` for usage")?;
                lang = Lang::from_id(v).ok_or_else(|| format!("--lang takes en or zh, not {v:?}"))?;
            }
            s => return Err(format!("unexpected argument {s}; run `barrierscope help` for usage")),
        }
    }
    let mut candidates: Vec<Candidate> = Handler::all().into_iter().map(Candidate::Handler).collect();
    candidates.push(Candidate::Timers);
    let preset = |c: &Candidate| Candidate::PRESETS.iter().find(|(_, p)| p == c).map(|(n, _)| *n);
    let mut rows = Vec::new();
    for c in &candidates {
        let k = classify(*c).map_err(|e| e.to_string())?;
        rows.push((*c, k));
    }
    let why = |k: &barrierscope::engine::explorer::lab::Classification| {
        [&k.loss, &k.duplicate]
            .into_iter()
            .flatten()
            .map(|(p, c)| {
                let probe = &k.probes[*p];
                let g = &probe.initial.as_ref().expect("the probe's run").graph;
                (probe.name, c.schedule.len(), c.schedule.iter().map(|a| a.code()).collect::<Vec<_>>().join(" "), c.story.text(g, lang))
            })
            .collect::<Vec<_>>()
    };
    if json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|(c, k)| {
                serde_json::json!({
                    "handler": match c { Candidate::Handler(h) => serde_json::json!(h), Candidate::Timers => serde_json::json!("per-task timers") },
                    "preset": preset(c),
                    "guarantee": k.guarantee.id(),
                    "counterexamples": why(k).into_iter().map(|(probe, steps, codes, text)| serde_json::json!({
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
        return Ok(serde_json::to_string_pretty(&v).expect("serializes") + "\n");
    }
    let mut s = String::from(
        "Barrier handlers, classified by exploring every schedule of line (a, b, c), two-inputs (a, b | f, g)\nand merge-then-count (a | f, g) under one checkpoint (or round of timers) and one crash at any\nmoment, then the restore\n\n",
    );
    s += &format!(
        "  {:<14} {:<22} {:<14} {:<10} {:<14} {:<14} {}\n",
        "first barrier", "records after barrier", "last barrier", "in-flight", "guarantee", "preset", "shortest loss / duplicate"
    );
    let cells_of = |c: &Candidate| match c {
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
        };
    for (c, k) in &rows {
        let steps = |x: &Option<(usize, Counterexample)>| x.as_ref().map_or("-".to_string(), |(_, c)| format!("{} steps", c.schedule.len()));
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
    // Per probe: every schedule holds, or the shortest loss and duplicate on it.
    let names: Vec<&str> = rows[0].1.probes.iter().map(|p| p.name.split(':').next().unwrap_or(p.name)).collect();
    s += "\nPer probe: every schedule holds, or the shortest schedule that loses / duplicates\n\n";
    let mut header = format!("  {:<62}", "handler");
    for n in &names {
        header += &format!(" {n:<30}");
    }
    s += header.trim_end();
    s += "\n";
    for (c, k) in &rows {
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
    s += "\nWhy, for the presets (the shortest schedule that rules out each stronger guarantee)\n";
    for (c, k) in &rows {
        let Some(name) = preset(c) else { continue };
        s += &format!("\n{name}: {}\n", k.guarantee.id());
        let reasons = why(k);
        if reasons.is_empty() {
            s += "  no schedule of any probe loses or duplicates a record: every schedule holds on each\n";
        }
        for (probe, steps, codes, text) in reasons {
            s += &format!("  on {probe}, {steps} steps ({codes}):\n    {text}\n");
        }
    }
    Ok(s)
}

/// `barrierscope batch FILE`: plays a batch file and reports what recovery cost and the ledger.
fn batch(args: &[String]) -> Result<String, String> {
    use barrierscope::engine::batch::{wording, BatchFile, BatchSim, BATCH_LESSON};
    let (mut path, mut json, mut events, mut lang) = (None, false, false, Lang::En);
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--json" => json = true,
            "--events" => events = true,
            "--lang" => {
                let v = rest.next().ok_or("--lang needs en or zh")?;
                lang = Lang::from_id(v).ok_or_else(|| format!("--lang must be en or zh, not {v:?}"))?;
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}; run `barrierscope help` for usage")),
            s if path.is_none() => path = Some(s.to_string()),
            s => return Err(format!("unexpected argument {s}; run `barrierscope help` for usage")),
        }
    }
    let path = path.ok_or("batch needs a batch file: barrierscope batch BATCH.json")?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("can't read {path}: {e}"))?;
    let opened =
        BatchFile::open(&text, BATCH_LESSON.len()).map_err(|e| format!("{path}: {}", wording::load_error(lang, &e)))?;
    let run = &opened.run;
    let sim = run.sim();
    let ledger = run.ledger();
    let (cost, base) = (sim.cost(), run.baseline);
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
    let hadoop = matches!(sim, BatchSim::Hadoop(_));
    let out = if json {
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
    } else {
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
    };
    if failed.is_empty() {
        Ok(out)
    } else {
        Err(format!("{path}: {}", failed.join("; ")))
    }
}

/// `barrierscope quiz SET`: the set's answer key, as the quiz room draws it.
fn quiz_key(args: &[String]) -> Result<String, String> {
    use barrierscope::classroom::quiz::{history::parse_set, QuizSet};
    let (mut set, mut lang) = (None, Lang::En);
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--lang" => {
                let l = rest.next().ok_or("--lang needs en or zh")?;
                lang = Lang::from_id(l).ok_or_else(|| format!("--lang must be en or zh, not {l:?}"))?;
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}; run `barrierscope help` for usage")),
            s if set.is_none() => set = Some(parse_set(s).map_err(|e| e.message(Lang::En))?),
            s => return Err(format!("unexpected argument {s}; run `barrierscope help` for usage")),
        }
    }
    let set = set.ok_or("quiz needs the set's number: barrierscope quiz 7")?;
    let quiz = QuizSet::new(set);
    let mut out = String::new();
    for (i, q) in quiz.questions.iter().enumerate() {
        out += &format!("{}. [{}] {}\n", i + 1, q.kind.id(), q.prompt.get(lang));
        for c in &q.choices {
            out += &format!("   [{}] {}\n", if c.right { 'x' } else { ' ' }, c.words.get(lang));
        }
        out += &format!("   {}\n", q.explanation.get(lang));
    }
    Ok(out)
}

/// `barrierscope export-pyspark FILE [-o OUT.py]`: a Spark Streaming scenario or a Spark batch
/// file as one runnable PySpark program.
fn export_pyspark_command(args: &[String]) -> Result<String, String> {
    use barrierscope::engine::batch::{BatchFile, BATCH_LESSON};
    use barrierscope::engine::{export_pyspark, export_pyspark_batch};
    let (mut path, mut out) = (None, None);
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "-o" | "--output" => out = Some(rest.next().ok_or_else(|| format!("{a} needs a file name: -o OUT.py"))?.clone()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}; run `barrierscope help` for usage")),
            s if path.is_none() => path = Some(s.to_string()),
            s => return Err(format!("unexpected argument {s}; run `barrierscope help` for usage")),
        }
    }
    let path = path.ok_or_else(|| {
        "export-pyspark needs a scenario or batch file: barrierscope export-pyspark FILE.json [-o OUT.py]".to_string()
    })?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("can't read {path}: {e}"))?;
    let is_batch = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .is_some_and(|v| v.get("barrierscope-batch").is_some());
    let python = if is_batch {
        let opened = BatchFile::open(&text, BATCH_LESSON.len())
            .map_err(|e| format!("{path}: {}", barrierscope::engine::batch::wording::load_error(Lang::En, &e)))?;
        let name = opened.file.name.clone().unwrap_or_default();
        export_pyspark_batch(&opened.run, &name).map_err(|e| format!("{path}: {e}"))?
    } else {
        let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
        export_pyspark(&scenario).map_err(|e| format!("{path}: {e}"))?
    };
    match out {
        Some(out) => {
            std::fs::write(&out, python).map_err(|e| format!("can't write {out}: {e}"))?;
            Ok(String::new())
        }
        None => Ok(python),
    }
}

/// `barrierscope lesson …`: check lesson files before sharing them (issue 36), list and print the
/// built-in ones, and make a lesson's link.
fn lesson_command(args: &[String]) -> Result<String, String> {
    use barrierscope::classroom::{curriculum, lesson_check};
    let usage = "barrierscope lesson check FILE... | lesson list | lesson print ID | lesson link FILE [--base URL]";
    let read = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("can't read {path}: {e}"));
    match args.first().map(String::as_str) {
        Some("check") => {
            let files = &args[1..];
            if files.is_empty() {
                return Err(format!("lesson check needs a lesson file, or --built-in: {usage}"));
            }
            // Each lesson: its name and its place among the lessons.
            let mut lessons: Vec<(String, Result<usize, String>)> = Vec::new();
            for f in files {
                if f == "--built-in" {
                    for (i, (name, _)) in curriculum::FILES.iter().enumerate() {
                        lessons.push((format!("lessons/{name}"), Ok(i)));
                    }
                } else if f.starts_with('-') {
                    return Err(format!("unknown option {f}; {usage}"));
                } else {
                    lessons.push((f.clone(), Err(read(f)?)));
                }
            }
            let (mut out, mut failed) = (String::new(), 0);
            for (name, lesson) in lessons {
                let i = match lesson {
                    Ok(i) => i,
                    Err(text) => match curriculum::open_file(&text) {
                        Ok(i) => i,
                        Err(e) => {
                            failed += 1;
                            out += &format!("{name}: not a valid lesson file: {}\n", e.message(Lang::En));
                            continue;
                        }
                    },
                };
                let l = &curriculum::loaded().expect("natively the lessons are there")[i];
                let found = lesson_check::check(i);
                let problems = found.iter().filter(|f| f.problem).count();
                let claims: usize = l.steps.iter().map(|s| s.shows.len()).sum();
                let expects = l.steps.iter().filter(|s| s.expect.is_some()).count();
                out += &format!(
                    "{name}: {} \"{}\": {} steps, {claims} claims, {expects} expected answers: {}\n",
                    l.id,
                    l.title.en,
                    l.steps.len(),
                    if problems == 0 { "ok".to_string() } else { format!("{problems} wrong") }
                );
                for f in &found {
                    out += &format!("  step {}: {}{}\n", f.step, if f.problem { "" } else { "note: " }, f.what);
                }
                failed += usize::from(problems > 0);
            }
            if failed > 0 {
                Err(format!("{failed} of the lessons failed the check\n{out}"))
            } else {
                Ok(out)
            }
        }
        Some("list") => Ok(curriculum::builtins().iter().map(|l| format!("{:<18} {}\n", l.id, l.title.en)).collect()),
        Some("print") => {
            let id = args.get(1).ok_or_else(|| format!("lesson print needs a lesson id (see `barrierscope lesson list`): {usage}"))?;
            let i = curriculum::builtins()
                .iter()
                .position(|l| l.id == id)
                .ok_or_else(|| format!("no built-in lesson is called {id:?}; see `barrierscope lesson list`"))?;
            Ok(curriculum::FILES[i].1.to_string())
        }
        Some("link") => {
            let (mut path, mut base) = (None, "https://barrierscope.example/".to_string());
            let mut rest = args[1..].iter();
            while let Some(a) = rest.next() {
                match a.as_str() {
                    "--base" => base = rest.next().ok_or("--base needs the page's address")?.clone(),
                    s if s.starts_with('-') => return Err(format!("unknown option {s}; {usage}")),
                    s if path.is_none() => path = Some(s.to_string()),
                    s => return Err(format!("unexpected argument {s}; {usage}")),
                }
            }
            let path = path.ok_or_else(|| format!("lesson link needs a lesson file: {usage}"))?;
            let text = read(&path)?;
            barrierscope::classroom::lesson_file::parse(&text).map_err(|e| format!("{path}: {}", e.message(Lang::En)))?;
            Ok(format!("{base}#lesson={}\n", barrierscope::classroom::to_base64url(text.as_bytes())))
        }
        _ => Err(format!("lesson needs check, list, print or link: {usage}")),
    }
}
