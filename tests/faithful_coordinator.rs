//! The faithfulness issue, the coordinator's and the failover's points: the completion
//! notification reaches a two-phase-commit sink as a step of its own (6), expired checkpoints
//! fail the job past tolerable-failed-checkpoints (7), a failed task restarts only its pipelined
//! region (8), and a stop-the-world checkpoint aborted by a crash does not narrate a resume (11).
#![cfg(not(target_arch = "wasm32"))]

mod cases;
use barrierscope::engine::*;

/// A script line in the words lessons use ("read Source", "notify Sink", "end", ...).
fn line(s: &str) -> ScriptAction {
    barrierscope::classroom::parse_line(s).unwrap_or_else(|e| panic!("{e}"))
}

fn scenario(job: &str, settings: serde_json::Value, script: &[&str]) -> Scenario {
    let text = serde_json::json!({ "job": job, "settings": settings, "seed": 1 }).to_string();
    let mut sc = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{e}"));
    sc.actions = script.iter().map(|s| line(s)).collect();
    sc
}

fn play(job: &str, settings: serde_json::Value, script: &[&str]) -> runs::scenario::Played {
    scenario(job, settings, script).play().unwrap_or_else(|e| panic!("{e}"))
}

/// Every sentence of one step's narration, in English.
fn said(sim: &Sim, events: &[Event]) -> String {
    events.iter().map(|e| narrate(e, &sim.graph, Lang::En)).collect::<Vec<_>>().join(" ")
}

fn task(sim: &Sim, name: &str) -> TaskId {
    sim.graph.task_by_name(name).unwrap()
}

fn contributors(sim: &Sim, name: &str) -> Vec<String> {
    let mut v: Vec<String> = match &sim.tasks()[task(sim, name).index()].state {
        OpState::Keyed { entries } => {
            entries.values().flat_map(|e| e.contributors.iter().map(|r| sim.record_label(*r).to_string())).collect()
        }
        _ => vec![],
    };
    v.sort();
    v
}

// ----- 6. Two-phase commit: the notification is a step of its own -------------------------------

/// a, b, c and barrier 1 through every task of line-sink: checkpoint 1 completes when the sink
/// acknowledges (lesson 9's script up to checkpoint 1).
const THROUGH_CHECKPOINT_1: [&str; 5] =
    ["read Source x3", "checkpoint", "deliver Source->Map x4", "deliver Map->Count x4", "deliver Count->Sink x4"];

fn expand(lines: &[&str]) -> Vec<String> {
    let mut v = Vec::new();
    for l in lines {
        match l.rsplit_once(" x") {
            Some((head, n)) if n.bytes().all(|b| b.is_ascii_digit()) => {
                v.extend(std::iter::repeat_n(head.to_string(), n.parse().unwrap()))
            }
            _ => v.push(l.to_string()),
        }
    }
    v
}

fn two_phase_commit(script: &[&str]) -> runs::scenario::Played {
    let lines = expand(script);
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    play("line-sink", serde_json::json!({ "strategy": "aligned", "sink": "two-phase-commit" }), &lines)
}

#[test]
fn a_completed_checkpoint_commits_only_when_its_notification_reaches_the_sink() {
    let run = two_phase_commit(&THROUGH_CHECKPOINT_1);
    let sim = run.sim;
    assert_eq!(sim.stats.history[0].status, CheckpointStatus::Completed);
    // Completed but not committed: the transaction is pre-committed, readers see nothing yet.
    assert!(sim.external().visible().is_empty(), "{:?}", sim.external());
    assert_eq!(sim.external().txns[0].status, TxnStatus::PreCommitted(CheckpointId(1)));
    assert_eq!(sim.ledger().external_labels(Verdict::Pending)[..3], ["a", "b", "c"]);
    let completion = said(&sim, run.events.last().unwrap());
    assert!(completion.contains("notification"), "{completion}");

    // Delivering the JobManager's notifyCheckpointComplete commits it.
    let mut script = THROUGH_CHECKPOINT_1.to_vec();
    script.push("notify Sink");
    let run = two_phase_commit(&script);
    let sim = run.sim;
    assert_eq!(sim.external().txns[0].status, TxnStatus::Committed);
    assert_eq!(sim.external().visible().len(), 3);
    let step = said(&sim, run.events.last().unwrap());
    assert!(step.contains("checkpoint 1") && step.contains("committed transaction T0"), "{step}");
    // The action has its code for links, and a second notify has nothing to deliver.
    assert!(run.actions.last().unwrap().code().starts_with('n'), "{:?}", run.actions.last());
    let mut sim = sim;
    let sink = task(&sim, "Sink");
    let refused = sim.step(*run.actions.last().unwrap()).unwrap_err();
    assert!(refused.to_string().contains("Sink"), "{refused}");
    assert!(sim.resolve(&line("notify Sink")).unwrap().iter().all(|a| a.code() == format!("n{}", sink.0)));
}

#[test]
fn a_crash_before_the_notification_is_healed_by_recover_and_commit() {
    let mut script = THROUGH_CHECKPOINT_1.to_vec();
    script.extend(["read Source x2", "deliver Source->Map x2", "deliver Map->Count x2", "deliver Count->Sink x2"]);
    script.extend(["crash", "restore"]);
    let run = two_phase_commit(&script);
    let sim = &run.sim;
    // The crash dropped the notification; the restore commits T0, pre-committed in checkpoint 1,
    // and aborts T1 (d and e).
    let restore = run.events.last().unwrap();
    assert!(restore.contains(&Event::TxnCommitted { task: task(sim, "Sink"), txn: TxnId(0), rows: 3 }), "{restore:?}");
    assert!(restore.contains(&Event::TxnAborted { task: task(sim, "Sink"), txn: TxnId(1), rows: 2 }), "{restore:?}");
    assert_eq!(sim.external().visible().len(), 3);
    let mut script = script.clone();
    script.push("end");
    let l = two_phase_commit(&script).sim.ledger();
    assert_eq!(l.external.unwrap().exactly_once, 8, "{:?}", l.rows);
    assert_eq!(l.state.exactly_once, 8);
}

#[test]
fn the_scheduler_and_the_end_of_a_run_deliver_notifications() {
    // Nothing but the notification is left to do: `auto` delivers it.
    let run = two_phase_commit(&["read Source", "checkpoint", "deliver Source->Map x2", "deliver Map->Count x2"]);
    let mut sim = run.sim;
    let mut events = Vec::new();
    sim.run_to_end(10_000, &mut events);
    // (the Count->Sink channel still holds a and barrier 1; then the rest of the log)
    assert!(sim.external().txns.iter().all(|t| t.status != TxnStatus::PreCommitted(CheckpointId(1))));
    let l = sim.ledger();
    assert_eq!(l.external.unwrap().exactly_once, 8, "{:?}", l.rows);
    // The scheduler drew at least one notify among its steps.
    let run = two_phase_commit(&["read Source", "checkpoint", "auto 40"]);
    let notified = |e: &Event| matches!(e, Event::NotificationDelivered { checkpoint: CheckpointId(1), .. });
    assert!(run.events.iter().flatten().any(notified), "{:?}", run.events);
    assert_eq!(run.sim.external().visible().len(), 1, "a, committed by the scheduler's notify");
}

// ----- 7. tolerable-failed-checkpoints --------------------------------------------------------

/// `line`, a counted, checkpoint 1 triggered; its barrier waits in Source->Map while four
/// refused triggers let time pass: checkpoint 1 expires (checkpoint-timeout 4).
const EXPIRE_1: [&str; 8] = [
    "read Source",
    "deliver Source->Map",
    "deliver Map->Count",
    "checkpoint",
    // Time passes (a trigger now would queue behind checkpoint 1: issue 26).
    "wait",
    "wait",
    "wait",
    "wait",
];

#[test]
fn an_expired_checkpoint_fails_the_job_over_by_default() {
    let run = play("line", serde_json::json!({ "strategy": "aligned", "checkpoint-timeout": 4 }), &EXPIRE_1);
    let sim = &run.sim;
    assert_eq!(sim.stats.history[0].status, CheckpointStatus::Failed(AbortReason::Expired));
    assert!(sim.down().is_some(), "tolerable-failed-checkpoints defaults to 0: the job fails over");
    let step = said(sim, run.events.last().unwrap());
    assert!(step.contains("tolerable-failed-checkpoints") && step.contains("fail"), "{step}");
    // The restore brings the job back; it runs to the end exactly once.
    let mut script = EXPIRE_1.to_vec();
    script.extend(["restore", "end"]);
    let run = play("line", serde_json::json!({ "strategy": "aligned", "checkpoint-timeout": 4 }), &script);
    assert_eq!(run.sim.ledger().state.exactly_once, 8);
}

#[test]
fn tolerable_failed_checkpoints_count_consecutive_expiries_and_a_completion_resets_them() {
    let settings =
        serde_json::json!({ "strategy": "aligned", "checkpoint-timeout": 4, "tolerable-failed-checkpoints": 1 });
    // One expiry is tolerated.
    let run = play("line", settings.clone(), &EXPIRE_1);
    assert!(run.sim.down().is_none());
    // A second one in a row is not.
    let mut script = EXPIRE_1.to_vec();
    script.extend(["checkpoint", "wait x4"]);
    let expanded = expand(&script);
    let lines: Vec<&str> = expanded.iter().map(String::as_str).collect();
    let run = play("line", settings.clone(), &lines);
    let h = &run.sim.stats.history;
    assert_eq!(h[1].status, CheckpointStatus::Failed(AbortReason::Expired));
    assert!(run.sim.down().is_some(), "two consecutive failures exceed 1");
    // A completed checkpoint in between resets the count (CheckpointFailureManager.handleCheckpointSuccess).
    let mut script = EXPIRE_1.to_vec();
    // Map answers the aborted checkpoint 1's barrier with a cancel marker, which Count takes
    // before barrier 2.
    script.extend([
        "deliver Source->Map",
        "checkpoint",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Map->Count",
        "checkpoint",
        "wait x4",
    ]);
    let expanded = expand(&script);
    let lines: Vec<&str> = expanded.iter().map(String::as_str).collect();
    let run = play("line", settings, &lines);
    let h = &run.sim.stats.history;
    assert_eq!(h[1].status, CheckpointStatus::Completed);
    assert_eq!(h[2].status, CheckpointStatus::Failed(AbortReason::Expired));
    assert!(run.sim.down().is_none(), "the count restarted at checkpoint 2's completion");
}

#[test]
fn failures_that_flink_does_not_count_never_fail_the_job() {
    // A task failure aborts the pending checkpoint (TASK_FAILURE): not counted, so the restored
    // job does not fail again because of it.
    let run = play(
        "line",
        serde_json::json!({ "strategy": "aligned" }),
        &["read Source", "checkpoint", "crash-task Map", "restore", "auto 3"],
    );
    assert_eq!(run.sim.stats.history[0].status, CheckpointStatus::Failed(AbortReason::TaskFailure));
    assert!(run.sim.down().is_none());
}

#[test]
fn tolerable_failed_checkpoints_is_validated() {
    let text = r#"{"job": "line", "settings": {"strategy": "timers", "tolerable-failed-checkpoints": 2}}"#;
    let e = Scenario::from_json(text).unwrap().sim().unwrap_err().to_string();
    assert!(e.contains("tolerable-failed-checkpoints"), "{e}");
    let text = r#"{"job": "line", "settings": {"tolerable-failed-checkpoints": -1}}"#;
    assert!(Scenario::from_json(text).is_err());
}

// ----- 8. failover strategy: full or region ---------------------------------------------------

fn two_pipelines_text() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/two-pipelines-region-failover.json"))
        .unwrap()
}

fn two_pipelines() -> Scenario {
    Scenario::from_json(&two_pipelines_text()).unwrap()
}

/// The scenario's script up to and including its `line`-th action.
fn up_to(sc: &Scenario, n: usize) -> Scenario {
    let mut sc = sc.clone();
    sc.actions.truncate(n);
    sc
}

#[test]
fn region_failover_restarts_only_the_failed_pipeline() {
    let sc = two_pipelines();
    // Up to the crash of OrderCount (action 10).
    let run = up_to(&sc, 10).play().unwrap();
    let sim = &run.sim;
    let running = |n: &str| sim.tasks()[task(sim, n).index()].status == TaskStatus::Running;
    assert!(!running("Orders") && !running("OrderCount"), "the failed region is down");
    assert!(running("Clicks") && running("ClickCount"), "the other pipeline keeps running");
    let crash = said(sim, run.events.last().unwrap());
    assert!(crash.contains("region"), "{crash}");
    // While the region is down: the other pipeline reads and counts g (actions 11 and 12); the
    // down region can't act; no checkpoint can start.
    let run = up_to(&sc, 12).play().unwrap();
    let mut sim = run.sim;
    assert_eq!(contributors(&sim, "ClickCount"), ["f", "g"]);
    let orders = task(&sim, "Orders");
    assert!(sim.check(Action::Read { task: orders }).is_err());
    assert!(sim.check(Action::CrashTask { task: task(&sim, "OrderCount") }).is_err());
    let ev = sim.step(Action::Checkpoint).unwrap();
    assert_eq!(sim.stats.history.len(), 1, "no checkpoint was triggered: {ev:?}");
    // The restore (action 13) brings back the failed region only, from checkpoint 1.
    let run = up_to(&sc, 13).play().unwrap();
    let sim = &run.sim;
    let restore = run.events.last().unwrap();
    let rewound: Vec<TaskId> =
        restore.iter().filter_map(|e| if let Event::Rewound { task, .. } = e { Some(*task) } else { None }).collect();
    assert_eq!(rewound, [task(sim, "Orders")], "only the failed region's source rewinds");
    assert_eq!(sim.source_offset(task(sim, "Orders")), 1, "Orders back at checkpoint 1");
    assert_eq!(contributors(sim, "OrderCount"), ["a"], "OrderCount back at checkpoint 1");
    assert_eq!(contributors(sim, "ClickCount"), ["f", "g"], "ClickCount kept what it counted");
    assert_eq!(sim.source_offset(task(sim, "Clicks")), 2);
    let restored = said(sim, restore);
    assert!(restored.contains("region") && restored.contains("checkpoint 1"), "{restored}");
    // And the whole scenario ends exactly once.
    let run = sc.play().unwrap();
    assert_eq!(run.sim.ledger().state.exactly_once, 6, "{:?}", run.sim.ledger().rows);
}

/// Found by the ground truth against Apache Flink 2.3 (scripts/groundtruth.sh): while a task is
/// not running, the checkpoint scheduler's trigger fails before a checkpoint exists, and Flink's
/// Checkpoints tab counts it, triggered and failed, with no row in the history
/// (`CheckpointFailureManager.updateStatsAfterCheckpointFailed` calls
/// `reportFailedCheckpointsWithoutInProgress`); the REST API answered `total` 21, `failed` 17,
/// `completed` 4 for a job whose Python tasks took seconds to start. The failure count that fails
/// a job over ignores it (`NOT_ALL_REQUIRED_TASKS_RUNNING`).
#[test]
fn a_trigger_that_fails_while_a_region_is_down_counts_as_triggered_and_failed() {
    let run = up_to(&two_pipelines(), 12).play().unwrap();
    let mut sim = run.sim;
    let before = sim.stats.counts();
    assert_eq!((before.triggered, before.completed, before.failed), (1, 1, 0));
    let events = sim.step(Action::Checkpoint).unwrap();
    assert!(matches!(events[..], [Event::TriggerFailed { .. }]), "{events:?}");
    let c = sim.stats.counts();
    assert_eq!((c.triggered, c.in_progress, c.completed, c.failed), (2, 0, 1, 1), "{c:?}");
    assert_eq!(sim.stats.history.len(), 1, "a failed trigger has no row in the history");
    // The job is not failed over for it, whatever tolerable-failed-checkpoints says (0 here).
    assert_eq!(sim.stats.failovers.len(), 1);
    assert_eq!(sim.tasks().iter().filter(|t| t.status == TaskStatus::Running).count(), 2);
    // The restore brings the region back; the next trigger starts checkpoint 2.
    sim.step(Action::Restore).unwrap();
    sim.step(Action::Checkpoint).unwrap();
    let c = sim.stats.counts();
    assert_eq!((c.triggered, c.in_progress, c.failed), (3, 1, 1), "{c:?}");
    assert_eq!(sim.stats.history.last().unwrap().id, CheckpointId(2));
}

#[test]
fn full_failover_stops_both_pipelines() {
    let text = two_pipelines_text().replace(r#""failover-strategy": "region""#, r#""failover-strategy": "full""#);
    let sc = Scenario::from_json(&text).unwrap();
    let e = sc.play().err().expect("the job is down at the read of g").to_string();
    assert!(e.contains("action #11") && e.contains("down"), "{e}");
    let run = up_to(&sc, 10).play().unwrap();
    assert!(run.sim.tasks().iter().all(|t| t.status != TaskStatus::Running));
}

#[test]
fn region_is_the_default_and_every_builtin_job_is_one_region() {
    let defaults = serde_json::to_value(Settings::default()).unwrap();
    assert_eq!(defaults["failover-strategy"], "region");
    assert_eq!(defaults["tolerable-failed-checkpoints"], 0);
    for name in BUILTIN_NAMES {
        let graph = Scenario::builtin(name, Settings::default(), 1).graph().unwrap();
        for t in &graph.tasks {
            let script = ["auto 9", &format!("crash-task {}", t.name), "restore", "auto 5", "end"];
            let fp = |strategy: &str| {
                let settings = serde_json::json!({ "strategy": "aligned", "checkpoint-interval": 4, "failover-strategy": strategy });
                fingerprint(play(name, settings, &script).events.iter().flatten())
            };
            assert_eq!(fp("region"), fp("full"), "{name}: crash {}", t.name);
        }
    }
}

// ----- 11. stop-the-world aborted by a crash during the drain ---------------------------------

#[test]
fn a_crash_during_the_stop_the_world_drain_does_not_resume_the_sources() {
    let run = play(
        "line",
        serde_json::json!({ "strategy": "stop-the-world" }),
        &["read Source", "read Source", "checkpoint", "deliver Source->Map", "crash"],
    );
    let crash = run.events.last().unwrap();
    assert!(!crash.iter().any(|e| matches!(e, Event::SourcesResumed { .. })), "{crash:?}");
    let words = said(&run.sim, crash);
    assert!(!words.contains("resume"), "{words}");
    assert!(run.sim.down().is_some());
    // A task crash does the same.
    let run = play(
        "line",
        serde_json::json!({ "strategy": "stop-the-world" }),
        &["read Source", "checkpoint", "crash-task Count"],
    );
    assert!(!run.events.last().unwrap().iter().any(|e| matches!(e, Event::SourcesResumed { .. })));
}

// ----- property: region failover keeps the guarantees ------------------------------------------

mod region_property {
    use super::*;
    use proptest::prelude::{any, prop, prop_assert, prop_assert_eq, prop_oneof, proptest, Just};
    use proptest::strategy::Strategy as Generator;

    /// Three pipelined regions: the orders pipeline, and the clicks pipeline twice (forward edges
    /// at parallelism 2 keep subtask 0 and subtask 1 apart, as in Flink's execution graph).
    const JOB: &str = r#"{
        "operators": [
            { "name": "Orders", "kind": "source" },
            { "name": "OrderCount", "kind": "count" },
            { "name": "OrderSink", "kind": "sink" },
            { "name": "Clicks", "kind": "source", "parallelism": 2 },
            { "name": "ClickCount", "kind": "count", "parallelism": 2 },
            { "name": "ClickSink", "kind": "sink", "parallelism": 2 }
        ],
        "edges": [
            { "from": "Orders", "to": "OrderCount", "partitioning": "hash" },
            { "from": "OrderCount", "to": "OrderSink" },
            { "from": "Clicks", "to": "ClickCount" },
            { "from": "ClickCount", "to": "ClickSink" }
        ]
    }"#;

    #[derive(Clone, Copy, Debug)]
    enum Move {
        Auto,
        Checkpoint,
        CrashTask(u8),
        Crash,
        Restore,
    }

    fn moves() -> impl Generator<Value = Vec<Move>> {
        prop::collection::vec(
            prop_oneof![
                12 => Just(Move::Auto),
                2 => Just(Move::Checkpoint),
                2 => any::<u8>().prop_map(Move::CrashTask),
                1 => Just(Move::Crash),
                2 => Just(Move::Restore),
            ],
            0..80,
        )
    }

    fn sim(strategy: &str, sink: &str, seed: u64, interval: Option<u64>) -> Sim {
        let text = serde_json::json!({
            "job": serde_json::from_str::<serde_json::Value>(JOB).unwrap(),
            "input": {
                "Orders": ["a:x", "b:y", "c:x", "d:y"],
                "Clicks": [["f:x", "g:y", "h:x"], ["i:y", "j:x", "k:y"]]
            },
            "settings": {
                "strategy": strategy, "sink": sink, "checkpoint-interval": interval,
                "checkpoint-timeout": 40,
                // Unaligned checkpoints run one at a time, as in Flink.
                "max-concurrent-checkpoints": if strategy == "unaligned" { 1 } else { 2 }
            },
            "seed": seed
        })
        .to_string();
        Scenario::from_json(&text).unwrap().sim().unwrap()
    }

    fn run(mut sim: Sim, moves: &[Move]) -> Sim {
        let mut ignore = |_: Action, _: &[Event]| {};
        for m in moves {
            let line = match *m {
                Move::Auto => ScriptAction::Auto(1),
                Move::Checkpoint => ScriptAction::Checkpoint,
                Move::CrashTask(t) => {
                    ScriptAction::CrashTask(sim.graph.tasks[t as usize % sim.tasks().len()].name.clone())
                }
                Move::Crash => ScriptAction::Crash,
                Move::Restore => ScriptAction::Restore,
            };
            sim.play_line(&line, 1, OnRefusal::Skip, &mut ignore).unwrap();
        }
        // With a checkpoint interval the run never runs out of work (each checkpoint is work),
        // so the end is a step budget.
        sim.play_line(&ScriptAction::RunToEnd, 5_000, OnRefusal::Stop, &mut ignore).unwrap();
        sim
    }

    use super::cases::config;

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn region_failover_keeps_every_guarantee(
            strategy in prop::sample::select(vec!["aligned", "unaligned", "stop-the-world", "at-least-once"]),
            sink in prop::sample::select(vec!["append", "upsert", "two-phase-commit"]),
            seed in any::<u64>(),
            interval in prop::option::of(3u64..12),
            m in moves(),
        ) {
            let sim = run(sim(strategy, sink, seed, interval), &m);
            prop_assert!(sim.running() && !sim.region_down());
            let l = sim.ledger();
            let external = l.external.unwrap();
            if strategy == "at-least-once" {
                prop_assert_eq!(l.state.lost + l.state.pending, 0, "{:?}", l.rows);
            } else {
                prop_assert_eq!(l.state.exactly_once as usize, l.rows.len(), "{:?}", l.rows);
                if sink == "two-phase-commit" {
                    prop_assert_eq!(external.exactly_once as usize, l.rows.len(), "{:?}", l.rows);
                }
            }
            if sink == "upsert" {
                prop_assert_eq!(external.lost + external.duplicated, 0, "{:?}", l.rows);
            }
            if sink == "two-phase-commit" {
                // Every pre-committed transaction was committed: by its notification or on restore.
                prop_assert!(sim.external().txns.iter().all(|t| !matches!(t.status, TxnStatus::PreCommitted(_))));
            }
        }
    }
}

/// Run to the end under a periodic trigger as short as a checkpoint's round trip: every step may
/// start one more checkpoint, so a barrier is always on its way. The run still ends, once every
/// record has settled and a checkpoint triggered after that has completed and been notified
/// (the final one); before, it ran its whole 2,000,000-step budget. Against the model: the same
/// verdicts as the run without an interval, and that final checkpoint holds every record.
#[test]
fn run_to_end_ends_under_a_short_checkpoint_interval() {
    for job in ["line-sink", "keyed-shuffle", "diamond"] {
        for sink in ["two-phase-commit", "append"] {
            if job == "diamond" && sink == "two-phase-commit" {
                continue; // diamond has no sink
            }
            for every in 1..=6u64 {
                let settings = if job == "diamond" {
                    serde_json::json!({ "strategy": "aligned", "checkpoint-interval": every })
                } else {
                    serde_json::json!({ "strategy": "aligned", "sink": sink, "checkpoint-interval": every })
                };
                let p = play(job, settings.clone(), &["end"]);
                let what = format!("{job}, {sink}, every {every}");
                assert!(p.actions.len() < 1_000, "{what}: {} steps", p.actions.len());
                let l = p.sim.ledger();
                assert_eq!(
                    l.state_labels(core::ledger::Verdict::ExactlyOnce).len(),
                    p.sim.graph.records.len(),
                    "{what}"
                );
                if job != "diamond" {
                    assert_eq!(
                        l.external_labels(core::ledger::Verdict::ExactlyOnce).len(),
                        p.sim.graph.records.len(),
                        "{what}"
                    );
                }
                assert!(p.sim.notifications().is_empty(), "{what}: a notification is left undelivered");
                let last = p.sim.storage().completed.last().expect("a completed checkpoint");
                let offsets: u32 = last
                    .snapshots
                    .iter()
                    .map(|s| match s.state {
                        OpState::Source { next_offset } => next_offset,
                        _ => 0,
                    })
                    .sum();
                assert_eq!(
                    offsets as usize,
                    p.sim.graph.records.len(),
                    "{what}: the final checkpoint holds every record"
                );
            }
        }
    }
}

// ----- Issue 26 -----------------------------------------------------------------------------

/// Issue 26, 4: Flink's `CheckpointRequestDecider.chooseRequestToExecute` queues a trigger request
/// while max-concurrent-checkpoints are pending and runs it when a slot frees. Model: the same
/// run with max-concurrent-checkpoints 2 completes as many checkpoints; with 1, the second trigger
/// is queued (not refused) and starts in the step the first completes.
#[test]
fn a_trigger_while_the_most_checkpoints_are_pending_is_queued_and_runs_when_a_slot_frees() {
    let script = ["read Source", "checkpoint", "checkpoint", "end"];
    let two = play("line", serde_json::json!({ "max-concurrent-checkpoints": 2 }), &script);
    let one = play("line", serde_json::json!({}), &script);
    let counts = |p: &runs::scenario::Played| {
        p.sim.stats.history.iter().filter(|r| r.status == CheckpointStatus::Completed).count()
    };
    assert_eq!(counts(&one), counts(&two), "the queued request ran: {:?}", one.sim.stats.history);
    let second = &one.events[2];
    assert!(matches!(second[..], [Event::CheckpointQueued { pending: 1, queued: 1 }]), "{second:?}");
    assert!(said(&one.sim, second).contains("queued"), "{}", said(&one.sim, second));
    let done = one
        .events
        .iter()
        .position(|ev| ev.iter().any(|e| matches!(e, Event::CheckpointCompleted { checkpoint: CheckpointId(1), .. })))
        .unwrap();
    assert!(
        one.events[done].iter().any(|e| matches!(e, Event::CheckpointTriggered { checkpoint: CheckpointId(2) })),
        "{:?}",
        one.events[done]
    );
}

/// Issue 26, 3: Flink does not refuse max-concurrent-checkpoints above 1 with unaligned
/// checkpoints; it documents concurrent unaligned checkpoints as unsupported. The simulator keeps
/// the refusal and says that it is its own.
#[test]
fn the_unaligned_refusal_says_the_simulator_refuses_what_flink_documents_as_unsupported() {
    for settings in [
        serde_json::json!({ "strategy": "unaligned", "max-concurrent-checkpoints": 2 }),
        serde_json::json!({ "alignment-timeout": 3, "max-concurrent-checkpoints": 2 }),
    ] {
        let text = serde_json::json!({ "job": "line", "settings": settings, "seed": 1 }).to_string();
        let e = Scenario::from_json(&text).and_then(|sc| sc.sim().map(|_| ())).expect_err("refused").to_string();
        assert!(!e.contains("as in Flink"), "{e}");
        assert!(e.contains("the simulator refuses") && e.contains("not supported"), "{e}");
    }
}
