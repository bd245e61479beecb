//! Scenario tests of savepoints (issue 12, "Savepoints beside checkpoints"): a savepoint is the
//! user's (forced past max-concurrent-checkpoints, never among the `num-retained` checkpoints, no
//! notification unless synchronous, it survives stop and cancel); stop with savepoint aborts the
//! checkpoints in progress, takes a final savepoint that commits, and finishes the job; cancel
//! deletes the job's checkpoints unless retained on cancellation; a new submission from a
//! savepoint restores every task from it. Each is checked against a model: the failure-free run
//! (the ledger), the state at the savepoint, what the storage held before, Flink's rules as
//! `CheckpointCoordinator` writes them; not against fixed outputs.
#![cfg(not(target_arch = "wasm32"))]

mod cli;

use barrierscope::engine::*;

fn sim(job: &str, s: Settings, seed: u64) -> Sim {
    Scenario::builtin(job, s, seed).sim().unwrap()
}

fn lines(sim: &mut Sim, lines: &[&str]) -> Vec<Event> {
    let mut events = Vec::new();
    for l in lines {
        let parsed = barrierscope::classroom::parse_line(l).unwrap();
        sim.play_line(&parsed, 100_000, OnRefusal::Stop, &mut |_, e| events.extend_from_slice(e))
            .unwrap_or_else(|e| panic!("{l}: {e:?}"));
    }
    events
}

/// Auto steps until `done` holds (at most 10,000).
fn until(sim: &mut Sim, done: impl Fn(&Sim) -> bool) -> Vec<Event> {
    let mut events = Vec::new();
    for _ in 0..10_000 {
        if done(sim) {
            return events;
        }
        sim.apply(Action::Auto, &mut events).unwrap();
    }
    panic!("never done");
}

fn exactly_once_in_state(sim: &Sim) -> bool {
    let l = sim.ledger();
    l.state.lost == 0 && l.state.duplicated == 0 && l.state.pending == 0
}

/// The property: after any number of seeded steps, a stop with savepoint and a new submission from
/// that savepoint, run to the end, every record is reflected exactly once in operator state (and,
/// with a two-phase-commit sink, in the external system), as in the failure-free run.
#[test]
fn stop_then_submit_again_is_exactly_once() {
    for case in 0..1_000u64 {
        let job = ["line", "line-sink", "diamond"][(case % 3) as usize];
        let mut s = Settings::new(if case % 2 == 0 { Strategy::Aligned } else { Strategy::Unaligned });
        if job == "line-sink" {
            s.sink = SinkMode::TwoPhaseCommit;
        }
        if case % 5 == 0 {
            s.checkpoint_interval = Some(4);
        }
        let mut sim = sim(job, s, case);
        let auto = format!("auto {}", case % 23);
        lines(&mut sim, &[&auto, "stop-with-savepoint"]);
        let id = sim.stopping().expect("every task runs, so the savepoint is triggered");
        until(&mut sim, |s| s.stopped().is_some());
        assert_eq!(sim.stopped(), Some(JobEnd::Finished), "case {case}");
        assert_eq!(sim.savepoints().last().map(|s| s.checkpoint.id), Some(id));
        assert!(sim.storage().completed.is_empty(), "case {case}: the job's checkpoints go with it");
        lines(&mut sim, &[&format!("resume {}", id.0)]);
        // (A two-phase-commit sink recovers and commits its pre-committed transactions at once.)
        let restored = sim.savepoints().last().unwrap().checkpoint.snapshots.iter();
        for snap in restored.filter(|s| !matches!(s.state, OpState::Sink { .. })) {
            assert_eq!(sim.tasks()[snap.task.index()].state, snap.state, "case {case}: every task from the savepoint");
        }
        lines(&mut sim, &["end"]);
        assert!(exactly_once_in_state(&sim), "case {case} ({job}): {:?}", sim.ledger().state);
        if job == "line-sink" {
            let external = sim.ledger().external.unwrap();
            assert_eq!((external.lost, external.duplicated), (0, 0), "case {case}: {external:?}");
        }
    }
}

/// `num-retained` counts only checkpoints; a failover restores from the newest checkpoint even
/// when a savepoint is newer (a savepoint is never added to the `CompletedCheckpointStore`).
#[test]
fn savepoints_are_not_retained_checkpoints() {
    let mut s = Settings::new(Strategy::Aligned);
    s.num_retained = 1;
    let mut sim = sim("line", s, 4);
    for round in 0..3 {
        lines(&mut sim, &["auto 3", "checkpoint", "auto 2", "savepoint"]);
        until(&mut sim, |s| s.pending().is_empty());
        assert_eq!(sim.storage().completed.len(), 1, "round {round}");
        assert_eq!(sim.savepoints().len(), round + 1);
    }
    let newest_checkpoint = sim.storage().completed[0].id;
    assert!(sim.savepoints().last().unwrap().checkpoint.id > newest_checkpoint);
    let events = lines(&mut sim, &["crash", "restore"]);
    assert!(events.contains(&Event::Restored { from: RestoreFrom::Checkpoint { checkpoint: newest_checkpoint } }));
    assert_eq!(sim.savepoints().len(), 3, "no crash touches a savepoint");
}

/// A savepoint is forced: with max-concurrent-checkpoints 1 and a checkpoint pending, it is
/// triggered at once, where a second checkpoint queues.
#[test]
fn a_savepoint_is_forced_past_max_concurrent_checkpoints() {
    let mut sim = sim("line", Settings::new(Strategy::Aligned), 2);
    let queued = lines(&mut sim, &["checkpoint", "checkpoint"]);
    assert!(queued.iter().any(|e| matches!(e, Event::CheckpointQueued { .. })));
    let events = lines(&mut sim, &["savepoint"]);
    assert!(events.iter().any(|e| matches!(e, Event::SavepointTriggered { stop: false, .. })));
    assert!(!events.iter().any(|e| matches!(e, Event::CheckpointQueued { .. })));
    assert_eq!(sim.pending().len(), 2);
    assert_eq!(sim.pending()[1].savepoint, Some(SavepointType::Savepoint));
}

/// A plain savepoint sends no `notifyCheckpointComplete`, so a two-phase-commit sink commits
/// nothing at it; the final savepoint of a stop does, and the stopped job has committed exactly
/// what its state reflects.
#[test]
fn only_the_final_savepoint_commits() {
    let mut s = Settings::new(Strategy::Aligned);
    s.sink = SinkMode::TwoPhaseCommit;
    let mut sim = sim("line-sink", s, 5);
    lines(&mut sim, &["auto 12", "savepoint"]);
    let events = until(&mut sim, |s| s.pending().is_empty());
    assert!(events.iter().any(|e| matches!(e, Event::SavepointCompleted { stop: false, .. })));
    assert!(!events.iter().any(|e| matches!(e, Event::NotificationSent { .. })), "a savepoint notifies no task");
    lines(&mut sim, &["auto 9", "stop-with-savepoint"]);
    let events = until(&mut sim, |s| s.stopped().is_some());
    assert!(events.iter().any(|e| matches!(e, Event::NotificationSent { .. })));
    assert!(events.iter().any(|e| matches!(e, Event::TxnCommitted { .. })));
    for row in sim.ledger().rows {
        assert_eq!(row.external, row.state, "{}: committed exactly what the state counts", row.label);
    }
}

/// The stop stops the scheduler, which aborts the checkpoints in progress
/// (`CHECKPOINT_COORDINATOR_SUSPEND`); no periodic checkpoint is triggered while it stops; the
/// sources read nothing after the savepoint's barrier.
#[test]
fn the_stop_aborts_the_checkpoints_in_progress_and_stops_the_sources() {
    let mut s = Settings::new(Strategy::Aligned);
    s.checkpoint_interval = Some(3);
    s.max_concurrent_checkpoints = 2;
    let mut sim = sim("line", s, 6);
    lines(&mut sim, &["read Source", "checkpoint"]);
    let pending = sim.pending()[0].id;
    let events = lines(&mut sim, &["stop-with-savepoint"]);
    assert!(events.contains(&Event::CheckpointAborted { checkpoint: pending, reason: AbortReason::CoordinatorSuspend }));
    let source = sim.graph.task_by_name("Source").unwrap();
    let id = sim.stopping().unwrap();
    assert_eq!(sim.check(Action::Read { task: source }), Err(ActionError::Stopping { savepoint: id.0 }));
    assert_eq!(sim.check(Action::Checkpoint), Err(ActionError::Stopping { savepoint: id.0 }));
    let events = until(&mut sim, |s| s.stopped().is_some());
    assert!(!events.iter().any(|e| matches!(e, Event::CheckpointTriggered { .. })), "the scheduler is stopped");
    assert!(!events.iter().any(|e| matches!(e, Event::Read { .. })));
}

/// A failure before the final savepoint completes fails the stop: the job restarts and runs on,
/// and runs to the end exactly once.
#[test]
fn a_failure_during_the_stop_fails_the_stop() {
    let mut sim = sim("line", Settings::new(Strategy::Aligned), 7);
    lines(&mut sim, &["auto 6", "stop-with-savepoint", "crash-task Count"]);
    assert_eq!(sim.stopping(), None);
    assert!(sim.savepoints().is_empty());
    lines(&mut sim, &["restore", "end"]);
    assert_eq!(sim.stopped(), None);
    assert!(exactly_once_in_state(&sim));
}

/// Cancel keeps the retained checkpoints only when retained on cancellation, and every savepoint;
/// the job can be submitted again from the newest retained checkpoint or from a savepoint.
#[test]
fn cancel_keeps_checkpoints_only_when_retained_on_cancellation() {
    for retention in CheckpointRetention::ALL {
        let mut s = Settings::new(Strategy::Aligned);
        s.externalized_checkpoint_retention = retention;
        let mut sim = sim("line", s, 8);
        lines(&mut sim, &["auto 4", "savepoint", "auto 4", "checkpoint"]);
        until(&mut sim, |s| s.pending().is_empty());
        let checkpoint = sim.storage().completed.last().unwrap().id;
        let events = lines(&mut sim, &["auto 3", "cancel"]);
        let kept = retention == CheckpointRetention::RetainOnCancellation;
        assert!(events.iter().any(|e| matches!(e, Event::JobCanceled { retained, .. } if (*retained > 0) == kept)));
        assert_eq!(sim.storage().completed.len(), usize::from(kept), "{retention:?}");
        assert_eq!(sim.savepoints().len(), 1);
        let from = if kept { checkpoint } else { sim.savepoints()[0].checkpoint.id };
        let events = lines(&mut sim, &[&format!("resume {}", from.0)]);
        assert!(events.contains(&Event::Restored { from: RestoreFrom::Checkpoint { checkpoint: from } }));
        lines(&mut sim, &["end"]);
        assert!(exactly_once_in_state(&sim), "{retention:?}");
    }
}

/// A new submission from an older savepoint restores every task to it: the state is the
/// savepoint's, and the sources read again from its offsets.
#[test]
fn a_submission_restores_the_savepoints_state() {
    let mut sim = sim("line", Settings::new(Strategy::Aligned), 9);
    lines(&mut sim, &["auto 10", "savepoint"]);
    until(&mut sim, |s| s.pending().is_empty());
    let saved = sim.savepoints()[0].checkpoint.clone();
    lines(&mut sim, &["auto 10", "cancel", &format!("resume {}", saved.id.0)]);
    for snap in &saved.snapshots {
        assert_eq!(sim.tasks()[snap.task.index()].state, snap.state, "{}", sim.graph.task(snap.task).name);
    }
    lines(&mut sim, &["end"]);
    assert!(exactly_once_in_state(&sim));
}

/// What is refused, and why.
#[test]
fn refusals_name_the_reason() {
    let mut sim = sim("line", Settings::new(Strategy::Aligned), 10);
    assert_eq!(sim.check(Action::Resume { from: CheckpointId(1) }), Err(ActionError::NotStopped));
    lines(&mut sim, &["stop-with-savepoint"]);
    until(&mut sim, |s| s.stopped().is_some());
    assert_eq!(sim.check(Action::Restore), Err(ActionError::JobStopped));
    assert_eq!(sim.check(Action::Savepoint), Err(ActionError::JobStopped));
    assert_eq!(sim.check(Action::Cancel), Err(ActionError::JobStopped));
    assert_eq!(sim.check(Action::Resume { from: CheckpointId(99) }), Err(ActionError::NoSavepoint { id: 99 }));
    assert!(!sim.has_work());
    let mut out = Vec::new();
    assert!(sim.run_to_end(1_000, &mut out).is_empty(), "run-to-end ends at once on a stopped job");
    for lang in [Lang::En, Lang::Zh] {
        assert!(!ActionError::JobStopped.message(lang).is_empty());
    }
    let mut timers = Scenario::builtin("line", Settings::new(Strategy::Timers), 1).sim().unwrap();
    assert!(matches!(timers.step(Action::Savepoint), Err(ActionError::NoCheckpoints { .. })));
}

/// The actions' link codes and script words round-trip, every new event is narrated in both
/// languages, and a scenario file with them plays in the runner.
#[test]
fn codes_words_and_the_runner() {
    let g = Scenario::builtin("line", Settings::new(Strategy::Aligned), 1).graph().unwrap();
    for a in [Action::Savepoint, Action::StopWithSavepoint, Action::Cancel, Action::Resume { from: CheckpointId(12) }] {
        assert_eq!(Action::from_code(&a.code()), Some(a));
        let mut sim = sim("line", Settings::new(Strategy::Aligned), 1);
        assert_eq!(sim.resolve(&ScriptAction::of(&g, a)), Ok(vec![a]));
        for lang in [Lang::En, Lang::Zh] {
            assert_ne!(describe(&g, &a, lang), "");
        }
        let _ = sim.step(Action::Auto);
    }
    let mut sim = sim("line", Settings::new(Strategy::Aligned), 1);
    let mut events = lines(&mut sim, &["auto 5", "savepoint", "auto 20", "stop-with-savepoint"]);
    events.extend(until(&mut sim, |s| s.stopped().is_some()));
    events.extend(lines(&mut sim, &["resume 1", "cancel"]));
    for e in events.iter().filter(|e| {
        matches!(
            e,
            Event::SavepointTriggered { .. }
                | Event::SavepointCompleted { .. }
                | Event::JobFinished { .. }
                | Event::JobSubmitted { .. }
                | Event::JobCanceled { .. }
        )
    }) {
        for lang in [Lang::En, Lang::Zh] {
            assert_ne!(narrate(e, &g, lang), "", "{e:?}");
        }
    }
    let (code, stdout, stderr) = cli::runner(&["run", "scenarios/savepoint-stop-and-submit.json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("savepoint"), "{stdout}");
}

/// A savepoint is always aligned, without an alignment timeout (Flink's
/// `CheckpointOptions.forConfig` gives savepoints `alignedNoTimeout`; the reference: "Savepoints
/// are always aligned"). The model is the same script with a checkpoint: under strategy
/// `unaligned` the checkpoint's barriers overtake the records in the channels and store them as
/// in-flight data; the savepoint's wait behind them, block the input they arrived on, and store
/// nothing in flight. Under `aligned` with an alignment timeout of 1 step the checkpoint times
/// out and goes unaligned; the savepoint never does.
#[test]
fn a_savepoint_is_always_aligned_without_a_timeout() {
    let script = |snapshot: &str| {
        vec![
            "read Left".to_string(),
            "read Left".into(),
            "read Right".into(),
            "read Right".into(),
            snapshot.into(),
            "deliver Left->Count".into(),
            "deliver Left->Count".into(),
            "deliver Left->Count".into(),
            "auto 4".into(),
        ]
    };
    let mut timeout = Settings::new(Strategy::Aligned);
    timeout.alignment_timeout = Some(1);
    for (name, settings) in [("unaligned", Settings::new(Strategy::Unaligned)), ("aligned, timeout 1", timeout)] {
        let run = |snapshot: &str| {
            let mut sim = sim("two-inputs", settings.clone(), 3);
            let lines_owned = script(snapshot);
            let refs: Vec<&str> = lines_owned.iter().map(String::as_str).collect();
            let events = lines(&mut sim, &refs);
            until(&mut sim, |s| s.pending().is_empty());
            (sim, events)
        };
        let (cp, cp_events) = run("checkpoint");
        let stored: usize = cp.storage().completed[0].snapshots.iter().map(|s| s.in_flight.len()).sum();
        assert!(stored > 0, "{name}: the checkpoint stores in-flight records");
        assert!(!cp_events.iter().any(|e| matches!(e, Event::ChannelBlocked { .. })) || name != "unaligned");
        let (sp, sp_events) = run("savepoint");
        let savepoint = &sp.savepoints().last().expect("the savepoint completes").checkpoint;
        assert!(
            savepoint.snapshots.iter().all(|s| s.in_flight.is_empty()),
            "{name}: a savepoint stores no channel state"
        );
        assert!(sp_events.iter().any(|e| matches!(e, Event::ChannelBlocked { .. })), "{name}: the savepoint aligns");
        assert!(!sp_events
            .iter()
            .any(|e| matches!(e, Event::AlignmentTimedOut { .. } | Event::InFlightRecorded { .. })));
        assert!(
            sp.stats.history.iter().all(|r| r.subtasks.iter().all(|s| !s.unaligned)),
            "{name}: no subtask took the savepoint unaligned"
        );
    }
}
