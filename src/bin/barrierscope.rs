//! The headless runner: plays a scenario file and prints the ledger verdict, the checkpoint
//! statistics and the consistent-cut report of the end state, as a table or as JSON.
//!
//!     barrierscope run scenario.json [--json] [--events]
//!     barrierscope export-pyflink scenario.json [-o out.py]
//!     barrierscope jobs
//!     barrierscope example JOB

use std::process::ExitCode;

use barrierscope::engine::scenario::Played;
use barrierscope::engine::*;

const USAGE: &str = "usage:
  barrierscope run SCENARIO.json [--json] [--events]   play a scenario, print verdict, checkpoint statistics and the cut
  barrierscope export-pyflink SCENARIO.json [-o OUT.py] write the scenario as a PyFlink job (stdout without -o)
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
            let played = scenario.play().map_err(|e| format!("{path}: {e}"))?;
            Ok(if json { report_json(&scenario, &played) } else { report_table(&scenario, &played, events) })
        }
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
        s += &format!(
            "  {:>4}  {:<22} {:>6} {:>8} {:>10} {:>9} {:>10} {:>9}\n",
            "id", "status", "acks", "trigger", "latest ack", "duration", "size (B)", "in-flight"
        );
        for r in &sim.stats.history {
            let status = match r.status {
                CheckpointStatus::InProgress => "in progress".to_string(),
                CheckpointStatus::Completed => "completed".to_string(),
                CheckpointStatus::Failed(reason) => format!("failed: {}", reason.id()),
            };
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
        if n == 0 { 0 } else { sum / n }
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
        v["latency"] = serde_json::json!({ "records": n, "mean": if n == 0 { 0 } else { sum / n }, "max": max });
    }
    serde_json::to_string_pretty(&v).expect("serializes") + "\n"
}
