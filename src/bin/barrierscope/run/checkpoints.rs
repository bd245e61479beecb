//! The run's checkpoints and failovers, as tables: each checkpoint's acknowledgements, timings,
//! size and in-flight data, with every subtask's start delay and alignment; each failover's cause,
//! the steps from the failure to running again, and what the job was restored from; and, under
//! Spark Streaming, every batch attempt with its delays. Fault tolerance has a price, and these
//! are its receipts.

use barrierscope::engine::mechanisms::catalogue::carried::MechanismRestore;
use barrierscope::engine::mechanisms::spark::events::SparkRestore;
use barrierscope::engine::mechanisms::storm::events::StormRestore;
use barrierscope::engine::*;

/// The coordinator's checkpoints (and the user's savepoints), with per-subtask statistics.
pub fn checkpoint_table(sim: &Sim) -> String {
    let g = &sim.graph;
    let c = sim.stats.counts();
    let mut s = format!(
        "\nCheckpoints: {} triggered, {} in progress, {} completed, {} failed, {} restored\n",
        c.triggered, c.in_progress, c.completed, c.failed, c.restored
    );
    if !sim.savepoints().is_empty() {
        let ids: Vec<String> = sim
            .savepoints()
            .iter()
            .map(|p| format!("{}{}", p.checkpoint.id.0, if p.stop { " (stop)" } else { "" }))
            .collect();
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
    s
}

/// Spark Streaming: every batch attempt with its delays, the write-ahead log and the latency.
pub fn batch_table(sim: &Sim) -> String {
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
pub fn failover_table(sim: &Sim) -> String {
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
    s += &format!(
        "  {:<34} {:>6} {:>8} {:>6}  {:<30} {}\n",
        "cause", "failed", "running", "steps", "how", "restored from"
    );
    for f in &sim.stats.failovers {
        let cause = match f.cause {
            FailureCause::Cluster => "the cluster crashed".to_string(),
            FailureCause::Task(t) => format!("{} failed (every task)", g.task(t).name),
            FailureCause::Region(t) => format!("{} failed (its region)", g.task(t).name),
            FailureCause::JobManager => "the JobManager failed".to_string(),
            FailureCause::JobManagerWithStandby => "the JobManager failed (standby)".to_string(),
            FailureCause::JobManagerWithoutHa => "the JobManager failed (no HA)".to_string(),
            FailureCause::MasterAlone => "Nimbus died".to_string(),
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
            Some(RestoreFrom::Mechanism(MechanismRestore::Storm(StormRestore::Committed))) => {
                "the committed offsets".to_string()
            }
            Some(RestoreFrom::Mechanism(MechanismRestore::Spark(SparkRestore::MetadataCheckpoint { .. }))) => {
                "the metadata checkpoint".to_string()
            }
            Some(RestoreFrom::Mechanism(MechanismRestore::Structured(_))) => "the checkpoint location".to_string(),
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
