//! Scenario tests of the master's failure (issue 9, "Master failover, as the article describes
//! it"): the JobManager with a standby (an election, the job recovered from the HA store, ids keep
//! rising), without HA (the job fails; a new JobManager, then a resubmission as a new job from the
//! retained checkpoint, ids continuing at its id + 1, or from nothing, ids from 1), and Storm's
//! Nimbus (the workers go on). Each is checked against a model: the checkpoint in storage before
//! the crash, a fresh run's tasks, the failure-free run (the ledger), not against fixed outputs.
#![cfg(not(target_arch = "wasm32"))]

use barrierscope::engine::*;

fn line(s: &str) -> ScriptAction {
    barrierscope::classroom::parse_line(s).unwrap()
}

fn settings(strategy: Strategy, ha: HighAvailability, retention: CheckpointRetention) -> Settings {
    let mut s = Settings::new(strategy);
    s.high_availability = ha;
    s.externalized_checkpoint_retention = retention;
    s
}

fn play(job: &str, settings: Settings, seed: u64, script: &[&str]) -> (Sim, Vec<Event>) {
    let mut sc = Scenario::builtin(job, settings, seed);
    sc.actions = script.iter().map(|s| line(s)).collect();
    let p = sc.play().unwrap_or_else(|e| panic!("{e}"));
    (p.sim, p.events.into_iter().flatten().collect())
}

/// Plays script lines (with the lessons' repeat counts).
fn lines(sim: &mut Sim, lines: &[&str]) {
    barrierscope::classroom::play_lines(sim, lines).unwrap_or_else(|e| panic!("{e}"));
}

/// Up to the crash, the same for every setting: seeded steps, a checkpoint that completes, more
/// steps, and a second checkpoint still pending when the JobManager fails.
fn run(job: &str, s: Settings, seed: u64) -> Sim {
    let mut sim = Scenario::builtin(job, s, seed).sim().unwrap();
    lines(&mut sim, &["auto 3", "checkpoint"]);
    while !sim.pending().is_empty() {
        sim.step(Action::Auto).unwrap();
    }
    lines(&mut sim, &["auto 2", "checkpoint"]);
    assert!(!sim.pending().is_empty(), "{job}: barriers on their way");
    sim
}

/// The highest checkpoint id the run has drawn so far, in this submission of the job.
fn highest_id(sim: &Sim) -> Option<CheckpointId> {
    sim.stats.history.last().map(|r| r.id)
}

fn steps(sim: &mut Sim, a: Action) -> Vec<Event> {
    sim.step(a).unwrap_or_else(|e| panic!("{a:?}: {e}"))
}

/// Every task holds what `cp` saved for it (state), before anything runs after the restore.
fn assert_restored_from(sim: &Sim, cp: &CompletedCheckpoint) {
    for s in &cp.snapshots {
        assert_eq!(
            sim.tasks()[s.task.index()].state,
            s.state,
            "{} from checkpoint {}",
            sim.graph.task(s.task).name,
            cp.id.0
        );
    }
}

#[test]
fn with_a_standby_the_election_recovers_the_latest_checkpoint_and_ids_keep_rising() {
    for (job, seed) in [("line", 1), ("two-inputs", 3), ("keyed-shuffle", 5), ("line-sink", 7)] {
        let s = settings(Strategy::Aligned, HighAvailability::Standby, CheckpointRetention::NoExternalizedCheckpoints);
        let mut sim = run(job, s, seed);
        let cp = sim.storage().completed.last().cloned().expect("a checkpoint completed");
        let drawn = highest_id(&sim).unwrap();
        let crash = steps(&mut sim, Action::CrashJobManager);
        assert!(
            crash.contains(&Event::LeadershipLost {
                leader: JobManagerName::A,
                standby: JobManagerName::B,
                checkpoint: Some(cp.id)
            }),
            "{job}: {crash:?}"
        );
        assert_eq!(sim.storage().completed.last().map(|c| c.id), Some(cp.id), "{job}: the HA store keeps the pointer");
        let restore = steps(&mut sim, Action::Restore);
        assert_eq!(
            restore[0],
            Event::LeaderElected { leader: JobManagerName::B, previous: JobManagerName::A },
            "{job}"
        );
        assert_eq!(
            restore[1],
            Event::JobRecovered { checkpoint: Some(cp.id), next_id: CheckpointId(drawn.0 + 1) },
            "{job}"
        );
        assert!(restore.contains(&Event::Restored { from: RestoreFrom::Checkpoint { checkpoint: cp.id } }), "{job}");
        assert_restored_from(&sim, &cp);
        assert_eq!(sim.masters().leader, JobManagerName::B);
        // Ids keep rising: the counter was in the HA store.
        let next = steps(&mut sim, Action::Checkpoint);
        assert!(
            next.contains(&Event::CheckpointTriggered { checkpoint: CheckpointId(drawn.0 + 1) }),
            "{job}: {next:?}"
        );
        assert!(sim.stats.earlier_submissions.is_empty(), "the same job goes on");
        // One restore step from the failure to running again.
        let f = sim.stats.failovers[0];
        assert_eq!(f.cause, FailureCause::JobManagerWithStandby);
        assert_eq!(f.steps_down(), Some(1));
        assert_eq!(f.takeover, Some(Takeover::Election { leader: JobManagerName::B }));
        assert_eq!(f.restored, Some(RestoreFrom::Checkpoint { checkpoint: cp.id }));
        // B fails too: A, back as the standby, wins the next election.
        steps(&mut sim, Action::CrashJobManager);
        let again = steps(&mut sim, Action::Restore);
        assert_eq!(again[0], Event::LeaderElected { leader: JobManagerName::A, previous: JobManagerName::B });
        lines(&mut sim, &["end"]);
        assert_eq!(
            sim.ledger().state.exactly_once as usize,
            sim.ledger().rows.len(),
            "{job}: the failure-free run's counts"
        );
    }
}

#[test]
fn without_ha_a_retained_checkpoint_is_resubmitted_as_a_new_job_counting_on_from_its_id() {
    for retention in [CheckpointRetention::RetainOnCancellation, CheckpointRetention::DeleteOnCancellation] {
        for (job, seed) in [("line", 1), ("two-inputs", 3), ("keyed-shuffle", 5)] {
            let s = settings(Strategy::Aligned, HighAvailability::None, retention);
            let mut sim = run(job, s, seed);
            let cp = sim.storage().completed.last().cloned().expect("a checkpoint completed");
            let drawn = highest_id(&sim).unwrap();
            assert!(drawn > cp.id, "{job}: a checkpoint is pending past the completed one");
            let old = sim.stats.history.clone();
            let crash = steps(&mut sim, Action::CrashJobManager);
            assert!(crash.contains(&Event::JobFailed { retained: Some(cp.id), discarded: 0 }), "{job}: {crash:?}");
            // The first restore starts a new JobManager; the job stays failed.
            assert_eq!(steps(&mut sim, Action::Restore), [Event::JobManagerStarted]);
            assert!(sim.down().is_some() && sim.jobmanager_up(), "{job}");
            // The second resubmits it from the retained checkpoint: restoreSavepoint sets the
            // counter to its id + 1.
            let resubmit = steps(&mut sim, Action::Restore);
            let next_id = CheckpointId(cp.id.0 + 1);
            assert_eq!(
                resubmit[0],
                Event::JobResubmitted { submission: 2, from: Some(cp.id), next_id },
                "{job} {retention:?}"
            );
            assert!(resubmit.contains(&Event::Restored { from: RestoreFrom::Checkpoint { checkpoint: cp.id } }));
            assert_restored_from(&sim, &cp);
            let next = steps(&mut sim, Action::Checkpoint);
            assert!(next.contains(&Event::CheckpointTriggered { checkpoint: next_id }), "{job}: {next:?}");
            assert!(next_id <= drawn, "{job}: the new job draws an id the failed job had used");
            // A new job: a Checkpoints tab of its own; the failed job's checkpoints are kept apart.
            assert_eq!(
                sim.stats.earlier_submissions,
                [old.iter()
                    .map(|r| {
                        let mut r = r.clone();
                        if r.status == CheckpointStatus::InProgress {
                            r.status = CheckpointStatus::Failed(AbortReason::JobManagerFailure);
                            r.end_tick = Some(sim.stats.failovers[0].failed_tick);
                        }
                        r
                    })
                    .collect::<Vec<_>>()]
            );
            assert_eq!((sim.stats.counts().restored, sim.stats.latest_restored), (1, Some(cp.id)));
            let f = sim.stats.failovers[0];
            assert_eq!(f.cause, FailureCause::JobManagerWithoutHa);
            assert_eq!(f.steps_down(), Some(2), "a new JobManager, then the resubmission");
            assert_eq!(f.takeover, Some(Takeover::Resubmission { submission: 2 }));
            lines(&mut sim, &["end"]);
            assert_eq!(sim.ledger().state.exactly_once as usize, sim.ledger().rows.len(), "{job}");
        }
    }
}

#[test]
fn without_ha_or_retention_the_resubmitted_job_starts_from_nothing_and_counts_from_one() {
    for (job, seed) in [("line", 1), ("two-inputs", 3), ("line-sink", 7)] {
        let s = settings(Strategy::Aligned, HighAvailability::None, CheckpointRetention::NoExternalizedCheckpoints);
        let mut sim = run(job, s.clone(), seed);
        let completed = sim.storage().completed.len() as u32;
        assert!(completed > 0);
        // What the sink had written before the failure stays in the external system.
        let written = sim.ledger().rows.iter().map(|r| r.external).collect::<Vec<_>>();
        let crash = steps(&mut sim, Action::CrashJobManager);
        assert!(crash.contains(&Event::JobFailed { retained: None, discarded: completed }), "{job}: {crash:?}");
        assert!(sim.storage().completed.is_empty() && sim.latest_cut().is_none(), "{job}: nothing left to restore");
        steps(&mut sim, Action::Restore);
        let resubmit = steps(&mut sim, Action::Restore);
        assert_eq!(resubmit[0], Event::JobResubmitted { submission: 2, from: None, next_id: CheckpointId(1) });
        assert!(resubmit.contains(&Event::Restored { from: RestoreFrom::Nothing }));
        // Every task as in a fresh run: empty state, sources at offset 0.
        let fresh = Scenario::builtin(job, s, seed).sim().unwrap();
        for (t, task) in sim.tasks().iter().enumerate() {
            assert_eq!(task.state, fresh.tasks()[t].state, "{job}: {} starts from nothing", sim.graph.tasks[t].name);
        }
        let next = steps(&mut sim, Action::Checkpoint);
        assert!(next.contains(&Event::CheckpointTriggered { checkpoint: CheckpointId(1) }), "{job}: {next:?}");
        assert_eq!(sim.stats.failovers[0].restored, Some(RestoreFrom::Nothing));
        lines(&mut sim, &["end"]);
        let l = sim.ledger();
        // The state is rebuilt from the whole log: exactly once, as in the failure-free run.
        assert_eq!(l.state.exactly_once as usize, l.rows.len(), "{job}");
        // An append sink gets everything again: the failure-free output plus what it had written.
        if l.external.is_some() {
            for (r, before) in l.rows.iter().zip(written) {
                assert_eq!(r.external, r.expected_external + before, "{job}: {}", r.label);
            }
        }
    }
}

#[test]
fn a_two_phase_commit_sink_resubmitted_from_a_retained_checkpoint_is_exactly_once_end_to_end() {
    let mut s = settings(Strategy::Aligned, HighAvailability::None, CheckpointRetention::RetainOnCancellation);
    s.sink = SinkMode::TwoPhaseCommit;
    let mut sim = Scenario::builtin("line-sink", s, 1).sim().unwrap();
    lines(
        &mut sim,
        &["read Source x3", "checkpoint", "deliver Source->Map x4", "deliver Map->Count x4", "deliver Count->Sink x4"],
    );
    lines(&mut sim, &["read Source x2", "auto 6", "crash-jm", "restore", "restore", "end"]);
    let l = sim.ledger();
    assert_eq!(l.external.unwrap().exactly_once as usize, l.rows.len(), "{:?}", l.rows);
}

#[test]
fn without_a_standby_the_job_is_down_one_step_longer() {
    // The same failure, restored by the scheduler (as `end` does): with a standby the election is
    // the restore step; without HA a new JobManager starts, then the job is resubmitted.
    for (job, seed) in [("line", 2), ("diamond", 4), ("keyed-shuffle", 6)] {
        let mut down = Vec::new();
        for ha in HighAvailability::ALL {
            let s = settings(Strategy::Aligned, ha, CheckpointRetention::RetainOnCancellation);
            let mut sim = run(job, s, seed);
            lines(&mut sim, &["crash-jm", "auto 1", "auto 1", "end"]);
            let f = sim.stats.failovers.clone();
            assert_eq!(f.len(), 1, "{job} {ha:?}");
            down.push(f[0].steps_down().unwrap());
            assert_eq!(sim.ledger().state.exactly_once as usize, sim.ledger().rows.len(), "{job} {ha:?}");
        }
        assert_eq!(down, [2, 1], "{job}: without HA, with a standby");
    }
}

#[test]
fn a_jobmanager_failure_before_any_checkpoint_completed() {
    for ha in HighAvailability::ALL {
        let s = settings(Strategy::Aligned, ha, CheckpointRetention::RetainOnCancellation);
        let (mut sim, events) = play("line", s, 1, &["read Source", "checkpoint", "crash-jm"]);
        match ha {
            HighAvailability::Standby => {
                assert!(events.contains(&Event::LeadershipLost {
                    leader: JobManagerName::A,
                    standby: JobManagerName::B,
                    checkpoint: None
                }));
                let ev = steps(&mut sim, Action::Restore);
                assert!(ev.contains(&Event::JobRecovered { checkpoint: None, next_id: CheckpointId(2) }), "{ev:?}");
                assert!(ev.contains(&Event::Restored { from: RestoreFrom::Nothing }));
            }
            HighAvailability::None => {
                assert!(events.contains(&Event::JobFailed { retained: None, discarded: 0 }));
                steps(&mut sim, Action::Restore);
                let ev = steps(&mut sim, Action::Restore);
                assert_eq!(ev[0], Event::JobResubmitted { submission: 2, from: None, next_id: CheckpointId(1) });
            }
        }
    }
}

#[test]
fn every_failure_is_a_failover_row_and_nimbus_stops_nothing() {
    // A cluster crash and a task crash under aligned checkpoints: one restore step each.
    let (sim, _) = play(
        "line",
        Settings::new(Strategy::Aligned),
        1,
        &["read Source", "crash", "restore", "read Source", "crash-task Map", "auto 1", "end"],
    );
    let causes: Vec<FailureCause> = sim.stats.failovers.iter().map(|f| f.cause).collect();
    assert_eq!(causes, [FailureCause::Cluster, FailureCause::Task(TaskId(1))]);
    assert!(sim.stats.failovers.iter().all(|f| f.steps_down() == Some(1) && f.takeover == Some(Takeover::Restart)));
    // Storm's Nimbus: the workers go on; nothing was down.
    let (mut sim, _) =
        play("line", Settings::new(Strategy::StormAcker), 1, &["read Source", "crash-jm", "read Source"]);
    let f = sim.stats.failovers[0];
    assert_eq!(
        (f.cause, f.steps_down(), f.takeover),
        (FailureCause::MasterAlone, Some(0), Some(Takeover::KeptRunning))
    );
    assert!(sim.running());
    steps(&mut sim, Action::Restore);
    assert_eq!(sim.stats.failovers.len(), 1);
    // The per-task timers' JobManager keeps no checkpoints: it just restarts the job.
    let (sim, _) = play("line", Settings::new(Strategy::Timers), 1, &["read Source", "crash-jm", "restore"]);
    let f = sim.stats.failovers[0];
    assert_eq!((f.cause, f.takeover), (FailureCause::JobManager, Some(Takeover::Restart)));
}

#[test]
fn the_settings_are_checked_and_named_in_a_scenario_file() {
    let file = |settings: &str| {
        Scenario::from_json(&format!(r#"{{"job": "line", "settings": {settings}}}"#)).and_then(|s| s.sim().map(|_| ()))
    };
    assert!(
        file(r#"{"high-availability": "none", "externalized-checkpoint-retention": "retain-on-cancellation"}"#).is_ok()
    );
    let e = file(r#"{"strategy": "timers", "high-availability": "none"}"#).unwrap_err().to_string();
    assert!(e.contains("high-availability") && e.contains("timers"), "{e}");
    let e = file(r#"{"strategy": "storm-acker", "externalized-checkpoint-retention": "retain-on-cancellation"}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("externalized-checkpoint-retention") && e.contains("storm-acker"), "{e}");
    let e = file(r#"{"high-availability": "zookeeper"}"#).unwrap_err().to_string();
    assert!(e.contains("zookeeper") && e.contains("standby"), "{e}");
    let e = file(r#"{"externalized-checkpoint-retention": "keep"}"#).unwrap_err().to_string();
    assert!(e.contains("retain-on-cancellation"), "{e}");
}
