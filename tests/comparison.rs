//! Side by side (issue 13): one input, one crash, Flink, Storm and Spark Streaming in lockstep, and
//! the cost table.
//!
//! - One test per column of the cost table (Flink, Storm, Spark Streaming) on a small input: two
//!   records on `line-sink`, the worker running Count crashing at tick 13, the restore at tick 15.
//!   Each test pins the schedule the seed draws (so a change of the scheduler shows first, by
//!   name), then works out every figure of its column by hand from that schedule, in the comments.
//! - The lockstep invariant, read from the runs' event logs: the same clock, no record taken in
//!   before its arrival tick, the crash at the same tick in every run and nowhere else, no restore
//!   before the restore tick.
//! - The comparison file and the scenario-file form give the same runs; the runner prints the
//!   table and its JSON, and refuses scenario files that are not one comparison.
#![cfg(not(target_arch = "wasm32"))]

mod cli;
use barrierscope::engine::mechanisms::catalogue::carried::MechanismEvent;
use barrierscope::engine::mechanisms::catalogue::carried::MechanismRestore;
use barrierscope::engine::mechanisms::spark::events::SparkStreamingEvent;
use barrierscope::engine::mechanisms::storm::events::StormEvent;
use barrierscope::engine::mechanisms::storm::events::StormRestore;
use cli::runner;

use barrierscope::engine::comparison::format::is_comparison;
use barrierscope::engine::comparison::*;
use barrierscope::engine::*;

/// Two records, a at tick 0 and b at tick 8, one key (x), so Count's state is count(x).
/// line-sink: tasks Source 0, Map 1, Count 2, Sink 3; channels Source->Map 0, Map->Count 1,
/// Count->Sink 2.
const SMALL: &str = r#"{
  "version": 1,
  "job": "line-sink",
  "input": { "Source": ["a:x@0", "b:x@8"] },
  "seed": 1,
  "configurations": [
    { "name": "Flink", "settings": { "strategy": "aligned", "checkpoint-interval": 4, "sink": "two-phase-commit" } },
    { "name": "Storm", "settings": { "strategy": "storm-acker" } },
    { "name": "Spark", "settings": { "strategy": "spark-streaming", "batch-interval": 6, "write-ahead-log": true, "sink": "transactional" } }
  ],
  "crash": { "at": 13, "place": { "worker-running": "Count" } },
  "restore": { "at": 15 }
}"#;

fn small() -> Lockstep {
    Lockstep::run(&ComparisonFile::from_json(SMALL).unwrap()).unwrap()
}

/// The run's actions as the saved format's codes (`r0` read task 0, `d1` deliver channel 1, `k2`
/// crash task 2, `q0` task 0's message to the acker, `p0` the acker's answer to task 0, `n3`
/// notify task 3, `w` wait, `R` restore).
fn codes(lane: &Lane) -> String {
    lane.log.iter().map(|s| s.action.code()).collect::<Vec<_>>().join(" ")
}

fn lane<'a>(l: &'a Lockstep, label: &str) -> &'a Lane {
    l.lanes.iter().find(|x| x.label == label).unwrap()
}

#[test]
fn flink_column_worked_by_hand() {
    let l = small();
    let flink = lane(&l, "Flink");
    // The schedule the seed draws. A periodic checkpoint is triggered after every 4th step (ticks
    // 3, 7, 11, 15, 19, 23, 27), unless one is pending (max-concurrent-checkpoints 1).
    //   0 read a · 1-3 a through Map, Count, Sink (into open transaction T0) · end of 3: checkpoint
    //   1, the source saves offset 1 · 4-6 barrier 1 through Map, Count, Sink: T0 pre-committed,
    //   checkpoint 1 completes · 7 notify: T0 commits, a is visible · end of 7: checkpoint 2 ·
    //   8-9 barrier 2 to Map and Count · 10 read b · 11 b at Map (checkpoint 3 refused: 2
    //   pending) · 12 b at Count · 13 crash Count: checkpoint 2 aborted, b lost in flight · 14 wait
    //   · 15 restore from checkpoint 1 (source at offset 1, count(x) = {a}), checkpoint 3 · 16-17
    //   barrier 3 · 18 read b again · 19 barrier 3 at Sink: completes, checkpoint 4 · 20 notify
    //   (nothing to commit) · 21 b at Map · 22 barrier 4 at Map · 23 b at Count · 24 barrier 4 at
    //   Count · 25 b at Sink (T1) · 26 barrier 4 at Sink: T1 pre-committed, completes · 27 notify:
    //   T1 commits, b is visible; checkpoint 5 is triggered. Every record is through and the
    //   output committed: Flink has finished after 28 steps.
    assert_eq!(codes(flink), "r0 d0 d1 d2 d0 d1 d2 n3 d0 d1 r0 d0 d1 k2 w R d0 d1 r0 d2 n3 d0 d0 d1 d1 d2 d2 n3");
    let c = flink.costs();
    assert_eq!(c.steps, 28);
    // Re-processed: b was read (10), processed at Map (11) and at Count (12) before the crash, and
    // again after it (18, 21, 23); it never reached the Sink before. a is in checkpoint 1: never
    // again.
    assert_eq!(c.reprocessed, Reprocessed { records: 1, labels: vec!["b".into()], steps: 3, last_tick: Some(23) });
    // Bytes (a source 8; a keyed operator 16 per key + 4 per contributing record; a
    // two-phase-commit sink 8 + 16 per pending transaction; Map 0):
    //   checkpoint 1: 8 + (16 + 4) + (8 + 16: T0) = 52
    //   checkpoint 2, aborted, acknowledged by Source, Map, Count: 8 + 20 = 28
    //   checkpoint 3: 8 + 20 (restored {a}) + 8 (T0 recovered, nothing pending) = 36
    //   checkpoint 4: 8 + (16 + 8: {a, b}) + (8 + 16: T1) = 56
    //   checkpoint 5, in progress, the source's 8
    // written 52 + 28 + 36 + 56 + 8 = 180; held at the peak: the one retained checkpoint, 56.
    assert_eq!(
        c.bytes,
        Bytes { written: 180, checkpoints: 180, peak_held: 56, ..Bytes::default() },
        "only checkpoints: no log, no commits, no acker"
    );
    // Control messages: barriers on the data channels: checkpoints 1, 3 and 4 pass three channels
    // each, 2 two before the crash (and Count's onto Count->Sink: 3), 5 one: 3 + 3 + 3 + 3 + 1 = 13.
    // To and from the coordinator: 5 triggers (one source), acknowledgements 4 + 3 + 4 + 4 + 1 =
    // 16, notifications for 1, 3 and 4: 3; 5 + 16 + 3 = 24. Total 37.
    assert_eq!(c.messages, Messages { total: 37, barriers: 13, coordinator: 24, ..Messages::default() });
    // Latency: a arrived at 0 and became visible after step 7: 8 steps; b arrived at 8, visible
    // after step 27: 20. The lower median of {8, 20} is 8, the worst 20.
    assert_eq!((c.latency.seen, c.latency.median, c.latency.worst), (2, Some(8), Some(20)));
    assert_eq!(c.latency.per_record, vec![Some(8), Some(20)]);
    // Down from the crash (13) to the restore (15): 2 steps, from checkpoint 1.
    assert_eq!(c.recovery.steps_down, Some(2));
    assert_eq!(c.recovery.restored_from, Some(RestoreFrom::Checkpoint { checkpoint: CheckpointId(1) }));
    assert_eq!(
        c.verdicts,
        Verdicts {
            state: Verdict::ExactlyOnce,
            output: Some(Verdict::ExactlyOnce),
            complete: Completeness::Complete,
            order: Order::InOrder
        }
    );
}

#[test]
fn storm_column_worked_by_hand() {
    let l = small();
    let storm = lane(&l, "Storm");
    // 0 read a (init to the acker) · 1 init · 2 a at Map (ack) · 3 Map's ack · 4 a at Count (ack)
    // · 5 a at Sink: appended, visible (ack) · 6 Sink's ack · 7 Count's ack: the tree is 0 · 8
    // read b (init) · 9 the answer: the spout commits offset 1 · 10 b's init · 11 b at Map · 12 b
    // at Count · 13 crash Count: the worker restarts, b's tree and its acks are gone · 14 wait ·
    // 15 restore: bolts empty, the spout at its committed offset 1 · 16 read b again (a new tree)
    // · 17 init · 18 b at Map · 19 Map's ack · 20 b at Count: count(x) = 1 · 21 b at Sink:
    // visible · 22, 23 Count's and Sink's acks: 0 · 24 the answer: commits offset 2.
    assert_eq!(codes(storm), "r0 q0 d0 q1 d1 d2 q3 q2 r0 p0 q0 d0 d1 k2 w R r0 q0 d0 q1 d1 d2 q2 q3 p0");
    let c = storm.costs();
    assert_eq!(c.steps, 25);
    // b read (8), at Map (11), at Count (12) before the crash; again at 16, 18, 20.
    assert_eq!(c.reprocessed, Reprocessed { records: 1, labels: vec!["b".into()], steps: 3, last_tick: Some(20) });
    // Two commits of the spout's offset (9: 1, 24: 2), 8 bytes each: 16 written. Held: the acker
    // table never has more than one tree (20 bytes); from step 10 on, b's tree and the committed
    // offset (8): 28.
    assert_eq!(
        c.bytes,
        Bytes { written: 16, offset_commits: 16, peak_held: 28, acker_table_peak: 20, ..Bytes::default() }
    );
    // Acker messages: a's tree: init, 3 acks, the answer (5); b's first tree: init, Map's and
    // Count's acks (3, the rest died with the worker); b's replay: 5. 13 in all.
    assert_eq!(c.messages, Messages { total: 13, acker: 13, ..Messages::default() });
    // a visible after step 5 (6 steps after it arrived at 0); b after step 21: 22 - 8 = 14.
    assert_eq!(c.latency.per_record, vec![Some(6), Some(14)]);
    assert_eq!((c.latency.median, c.latency.worst), (Some(6), Some(14)));
    assert_eq!(c.recovery.steps_down, Some(2));
    assert_eq!(
        c.recovery.restored_from,
        Some(RestoreFrom::Mechanism(MechanismRestore::Storm(StormRestore::Committed)))
    );
    // Storm keeps no state: a's count died with the worker and a, acked and committed, is never
    // replayed: lost in the state, and incomplete (the history that counts at Count lost it). The
    // sink saw a and b once each.
    assert_eq!(
        c.verdicts,
        Verdicts {
            state: Verdict::Lost,
            output: Some(Verdict::ExactlyOnce),
            complete: Completeness::Incomplete,
            order: Order::InOrder
        }
    );
    assert_eq!(storm.sim.ledger().state_labels(Verdict::Lost), vec!["a"]);
}

#[test]
fn spark_column_worked_by_hand() {
    let l = small();
    let spark = lane(&l, "Spark");
    // 0 the receiver takes a: block 0 in memory, replicated, in the log (16 bytes), acknowledged
    // (commit offset 1) · 1-5 wait; end of 5: batch 1 is cut (time 6) with block 0, a metadata
    // checkpoint lists it (8 + 4 = 12 bytes), its job starts · 6-8 a through Map, Count, Sink: the
    // transaction of (6, Sink) commits, a is visible, batch 1 completes (lineage 1) · 9 the
    // receiver takes b (block 1, log, commit offset 2); the checkpoint writer records batch 1's
    // completion (the chain: batch 1, one block: 12) · 10-11 wait; end of 11: batch 2 is cut
    // (time 12), the metadata lists batch 1 and batch 2 (24), its job starts · 12 b at Map · 13
    // crash Count: executor 0 dies, batch 2 runs again (attempt 2) from the replica · 14-16 b
    // through Map, Count, Sink: (12, Sink) commits, b is visible, batch 2 completes, the lineage
    // of 2 reaches checkpoint-interval 2: the state RDD is checkpointed (Map 0, Count 16 + 8, Sink
    // 8: 32), and the metadata written with it lists batch 2, which a restart would run again
    // (12); the log keeps both blocks (twice the checkpoint interval: batch times from 12 - 2 × 2
    // × 6 on).
    assert_eq!(codes(spark), "r0 w w w w w d0 d1 d2 r0 w w d0 k2 d0 d1 d2");
    let c = spark.costs();
    assert_eq!(c.steps, 17);
    // b at Map at 12 and again at 14.
    assert_eq!(c.reprocessed, Reprocessed { records: 1, labels: vec!["b".into()], steps: 1, last_tick: Some(14) });
    // Written: log 2 × 16 = 32, state checkpoint 32, metadata 12 + 12 + 24 + 12 = 60, commits
    // 2 × 8 = 16: 140. Held at the peak (step 16): the log's two blocks 32, the metadata listing
    // batch 2 (12), the committed offset 8 and the state checkpoint 32: 84.
    assert_eq!(
        c.bytes,
        Bytes {
            written: 140,
            write_ahead_log: 32,
            state_checkpoints: 32,
            metadata_checkpoints: 60,
            offset_commits: 16,
            peak_held: 84,
            ..Bytes::default()
        }
    );
    // To the driver: 2 block reports, 3 job starts (batch 1, batch 2, its second attempt), 2
    // completions: 7.
    assert_eq!(c.messages, Messages { total: 7, driver: 7, ..Messages::default() });
    // a: visible after step 8, 9 steps after tick 0; b: after step 16, 17 - 8 = 9.
    assert_eq!(c.latency.per_record, vec![Some(9), Some(9)]);
    assert_eq!((c.latency.median, c.latency.worst), (Some(9), Some(9)));
    // The executor is replaced at once: the job never stopped, and nothing was restored; at the
    // restore tick Spark has nothing to restore and takes a scheduler step.
    assert_eq!(c.recovery.steps_down, Some(0));
    assert_eq!(c.recovery.restored_from, None);
    assert_eq!(
        c.verdicts,
        Verdicts {
            state: Verdict::ExactlyOnce,
            output: Some(Verdict::ExactlyOnce),
            complete: Completeness::Complete,
            order: Order::InOrder
        }
    );
}

/// Is this event the crash taking effect (under any mechanism)?
fn is_crash(e: &Event) -> bool {
    matches!(
        e,
        Event::Crashed { .. }
            | Event::RegionFailedOver { .. }
            | Event::Mechanism(MechanismEvent::Spark(SparkStreamingEvent::DriverLost { .. }))
            | Event::Mechanism(MechanismEvent::Spark(SparkStreamingEvent::ExecutorLost { .. }))
            | Event::Mechanism(MechanismEvent::Storm(StormEvent::NimbusDown))
            | Event::LeadershipLost { .. }
            | Event::JobFailed { .. }
    )
}

/// The tick a run first took in record `r`: its read, or the receiver storing it.
fn first_taken(lane: &Lane, label: &str) -> Option<u64> {
    let g = &lane.sim.graph;
    lane.log.iter().find_map(|s| {
        s.events
            .iter()
            .any(|e| match e {
                Event::Read { record, .. }
                | Event::Mechanism(MechanismEvent::Spark(SparkStreamingEvent::BlockStored { record, .. })) => {
                    g.label(*record) == label
                }
                _ => false,
            })
            .then_some(s.tick)
    })
}

/// The lockstep invariant, checked from the event logs over seeds and the three places: every run
/// steps on the one clock (its n-th step is tick n), takes no record in before its arrival tick,
/// crashes at the crash tick and at no other, and restores only from the restore tick on; a run
/// that goes down restores at the restore tick. Then every run settles: nothing pending in the
/// ledger.
#[test]
fn lockstep_the_same_arrivals_crash_and_restore_in_every_run() {
    let base: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example("three-ways.json")).unwrap()).unwrap();
    let places =
        [serde_json::json!("cluster"), serde_json::json!("master"), serde_json::json!({"worker-running": "Count"})];
    for seed in 0..12u64 {
        for (p, place) in places.iter().enumerate() {
            let crash = 20 + seed * 3 + p as u64;
            let mut v = base.clone();
            v["seed"] = seed.into();
            v["crash"] = serde_json::json!({ "at": crash, "place": place });
            v["restore"] = serde_json::json!({ "at": crash + 1 + seed % 3 });
            let file = ComparisonFile::from_json(&v.to_string()).unwrap();
            let l = Lockstep::run(&file).unwrap();
            let g = l.graph().clone();
            for lane in &l.lanes {
                let what = format!("seed {seed}, {}, {}", file.crash.place.words(), lane.label);
                assert_eq!(lane.sim.tick, lane.log.len() as u64, "{what}");
                assert!(lane.log.iter().enumerate().all(|(i, s)| s.tick == i as u64), "{what}: one step per tick");
                assert!(lane.log.len() as u64 > file.restore.at, "{what}: it ran past the restore");
                for r in &g.records {
                    let taken =
                        first_taken(lane, &r.label).unwrap_or_else(|| panic!("{what}: {} never taken in", r.label));
                    assert!(
                        taken >= r.at,
                        "{what}: {} taken in at tick {taken}, before it arrived at {}",
                        r.label,
                        r.at
                    );
                }
                let crashes: Vec<u64> =
                    lane.log.iter().filter(|s| s.events.iter().any(is_crash)).map(|s| s.tick).collect();
                assert_eq!(crashes, vec![file.crash.at], "{what}: the crash, once, at the crash tick");
                assert_eq!(lane.log[file.crash.at as usize].action, lane.crash_action, "{what}");
                let restores: Vec<u64> =
                    lane.log.iter().filter(|s| s.action == Action::Restore).map(|s| s.tick).collect();
                assert!(restores.iter().all(|t| *t >= file.restore.at), "{what}: restored at {restores:?}");
                // Down then: the job, a region, or the master (Storm's Nimbus, while the workers run).
                let nimbus = lane.log[file.crash.at as usize]
                    .events
                    .contains(&Event::Mechanism(MechanismEvent::Storm(StormEvent::NimbusDown)));
                let down_at_restore = nimbus || lane.costs().recovery.steps_down.is_none_or(|s| s > 0);
                assert_eq!(restores.first() == Some(&file.restore.at), down_at_restore, "{what}: {restores:?}");
                let ledger = lane.sim.ledger();
                assert_eq!(ledger.state.pending + ledger.external.unwrap().pending, 0, "{what}: settled");
            }
            // The same crash action in every run, at the same place.
            assert!(l.lanes.windows(2).all(|w| w[0].crash_action == w[1].crash_action));
        }
    }
}

/// On a socket the records arrive by themselves: Flink reads each at its tick at the earliest,
/// Spark's receiver stores each during the step that ends at its tick (it listens all the time);
/// a replayable log's reads wait for the same ticks in the lockstep.
#[test]
fn a_socket_brings_the_records_at_the_same_ticks() {
    let mut v: serde_json::Value = serde_json::from_str(SMALL).unwrap();
    v["configurations"] = serde_json::json!([
        { "name": "Flink on a socket", "settings": { "strategy": "aligned", "checkpoint-interval": 4, "source": "socket" } },
        { "name": "Spark on a socket", "settings": { "strategy": "spark-streaming", "write-ahead-log": true, "source": "socket" } },
        { "name": "Flink on a log", "settings": { "strategy": "aligned", "checkpoint-interval": 4 } }
    ]);
    let l = Lockstep::run(&ComparisonFile::from_json(&v.to_string()).unwrap()).unwrap();
    let (flink, spark, log) = (&l.lanes[0], &l.lanes[1], &l.lanes[2]);
    assert_eq!(first_taken(flink, "a"), Some(0), "{}", codes(flink));
    assert!(first_taken(flink, "b") >= Some(8), "{}", codes(flink));
    assert_eq!((first_taken(spark, "a"), first_taken(spark, "b")), (Some(0), Some(7)), "{}", codes(spark));
    assert!(first_taken(log, "b").unwrap() >= 8);
}

#[test]
fn a_comparison_is_deterministic() {
    let (a, b) = (small(), small());
    for (x, y) in a.lanes.iter().zip(&b.lanes) {
        assert_eq!(x.log, y.log);
        assert_eq!(x.costs(), y.costs());
    }
}

fn example(name: &str) -> String {
    format!("{}/scenarios/compare/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The three scenario files are the comparison file, column by column.
#[test]
fn the_scenario_files_are_the_comparison_file() {
    let text = std::fs::read_to_string(example("three-ways.json")).unwrap();
    assert!(is_comparison(&text));
    let file = ComparisonFile::from_json(&text).unwrap();
    let files: Vec<(String, Scenario)> = ["flink-barriers.json", "storm-acks.json", "spark-wal.json"]
        .iter()
        .map(|n| {
            let t = std::fs::read_to_string(example(n)).unwrap();
            assert!(!is_comparison(&t));
            (n.to_string(), Scenario::from_json(&t).unwrap())
        })
        .collect();
    let from = ComparisonFile::from_scenarios(&files).unwrap();
    assert_eq!(
        (&from.configurations, &from.crash, from.restore, from.seed),
        (&file.configurations, &file.crash, file.restore, file.seed)
    );
    let (a, b) = (Lockstep::run(&file).unwrap(), Lockstep::run(&from).unwrap());
    for (x, y) in a.lanes.iter().zip(&b.lanes) {
        assert_eq!(x.log, y.log);
    }
    // Each scenario file still plays on its own.
    for (_, sc) in &files {
        sc.play().unwrap();
    }
}

#[test]
fn the_runner_prints_the_cost_table() {
    let (code, out, err) = runner(&["compare", &example("three-ways.json")]);
    assert_eq!(code, 0, "{err}");
    for row in [
        "Three ways to survive a crash",
        "crash at tick 46: the worker running Count; restore at tick 48",
        "Flink (barriers)",
        "Storm (acks)",
        "Spark Streaming (WAL)",
        "records re-processed after the crash",
        "bytes written for fault tolerance",
        "bytes held at the peak",
        "control messages",
        "latency, arrival to visible (steps)",
        "steps from the crash to running",
        "verdict: state",
        "What the crash did",
        "Executor 0 (running Count) died",
    ] {
        assert!(out.contains(row), "{row:?} missing:\n{out}");
    }
    // The scenario-file form prints the same table (it has no title of its own).
    let files: Vec<String> =
        ["flink-barriers.json", "storm-acks.json", "spark-wal.json"].iter().map(|n| example(n)).collect();
    let mut args = vec!["compare"];
    args.extend(files.iter().map(String::as_str));
    let (code, same, err) = runner(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(same, out.split_once('\n').unwrap().1, "the same table");
    // --json: one object per run with every figure, as the core computes it.
    let (code, json, _) = runner(&["compare", &example("three-ways.json"), "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let l = Lockstep::run(
        &ComparisonFile::from_json(&std::fs::read_to_string(example("three-ways.json")).unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(v["runs"].as_array().unwrap().len(), 3);
    assert_eq!(v["crash"], serde_json::json!({"tick": 46, "place": {"worker-running": "Count"}}));
    for (run, lane) in v["runs"].as_array().unwrap().iter().zip(&l.lanes) {
        assert_eq!(run["name"], lane.label.as_str());
        assert_eq!(run["costs"], serde_json::to_value(lane.costs()).unwrap());
    }
    // Every example comparison runs.
    for entry in std::fs::read_dir(example("")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if is_comparison(&text) {
            let (code, out, err) = runner(&["compare", path.to_str().unwrap()]);
            assert_eq!(code, 0, "{}: {err}", path.display());
            assert!(out.contains("verdict: order"), "{out}");
        }
    }
    // --steps: each tick's actions side by side.
    let (_, steps, _) = runner(&["compare", &example("three-ways.json"), "--steps"]);
    assert!(
        steps.contains("crash Count                             crash Count                             crash Count"),
        "{steps}"
    );
}

#[test]
fn the_runner_refuses_what_is_not_one_comparison() {
    let dir = std::env::temp_dir().join(format!("cmp-refuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, v: &serde_json::Value| {
        let p = dir.join(name);
        std::fs::write(&p, v.to_string()).unwrap();
        p.to_string_lossy().into_owned()
    };
    let storm: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example("storm-acks.json")).unwrap()).unwrap();
    let flink = example("flink-barriers.json");
    let mut other_job = storm.clone();
    other_job["job"] = "keyed-shuffle".into();
    other_job.as_object_mut().unwrap().remove("input");
    let mut other_input = storm.clone();
    other_input["input"]["Source"][2] = "c:x@21".into();
    let mut other_seed = storm.clone();
    other_seed["seed"] = 8.into();
    let mut other_crash = storm.clone();
    other_crash["actions"] =
        serde_json::json!([{ "auto": 45 }, { "crash-task": "Count" }, "wait", "restore", "run-to-end"]);
    let mut scripted = storm.clone();
    scripted["actions"] = serde_json::json!([{ "read": "Source" }, "crash", "restore"]);
    let cases = [
        (write("job.json", &other_job), "job.json runs another job than"),
        (write("input.json", &other_input), "has another input than"),
        (write("seed.json", &other_seed), "seed.json has seed 8 and"),
        (write("crash.json", &other_crash), "crashes the worker running Count at tick 45 and"),
        (write("script.json", &scripted), "action #1 ({\"read\":\"Source\"}) is not for a comparison"),
    ];
    for (path, says) in &cases {
        let (code, out, err) = runner(&["compare", &flink, path]);
        assert_eq!(code, 2, "{path}: {out}");
        assert!(err.starts_with("error: ") && err.contains(says), "{path}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A comparison file goes alone.
    let (code, _, err) = runner(&["compare", &example("three-ways.json"), &flink]);
    assert_eq!(code, 2);
    assert!(err.contains("is a comparison file; give it alone"), "{err}");
    // Four scenario files are one too many.
    let (code, _, err) = runner(&["compare", &flink, &flink, &flink, &flink]);
    assert_eq!(code, 2);
    assert!(err.contains("1 to 3 configurations side by side; 4 files were given"), "{err}");
    let (code, _, err) = runner(&["compare"]);
    assert_eq!(code, 2);
    assert!(err.contains("the following required arguments were not provided") && err.contains("<FILE>..."), "{err}");
    let (code, _, err) = runner(&["compare", "/no/such/file.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("can't read /no/such/file.json"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Every strategy, with every sink it allows, on every built-in job, with a crash of each place:
/// the lockstep ends (no run left waiting), with the crash at its tick in every run and nothing
/// pending in any run's ledger.
#[test]
fn every_strategy_and_sink_settles_in_lockstep() {
    let places = [CrashPlace::Cluster, CrashPlace::Master, CrashPlace::WorkerRunning(String::new())];
    let mut runs = 0;
    for job in BUILTIN_NAMES {
        let b = builtin(job).unwrap();
        let g = JobGraph::build(&b.spec, &b.input).unwrap();
        let mut configurations = Vec::new();
        for strategy in Strategy::ALL {
            for sink in SinkMode::ALL
                .into_iter()
                .filter(|s| strategy.allows_sink(*s) && (g.has_sink() || *s == SinkMode::Append))
            {
                // A periodic checkpoint every step, too: a checkpoint always in flight does not keep
                // the lockstep from ending (it ends when every record is through).
                let intervals: &[Option<u64>] = if strategy.uses_coordinator() { &[Some(5), Some(1)] } else { &[None] };
                for interval in intervals {
                    let mut settings = Settings::new(strategy).with_sink(sink);
                    settings.checkpoint_interval = *interval;
                    if sink == SinkMode::Kafka {
                        // Within the broker's maximum (KafkaSinkBuilder's default is not).
                        settings.kafka = Some(barrierscope::engine::settings::kafka::KafkaSettings {
                            transaction_timeout_ms: 900_000,
                            ..Default::default()
                        });
                    }
                    configurations.push(Configuration {
                        name: format!("{} {} {interval:?}", strategy.id(), sink.id()),
                        settings,
                    });
                }
            }
        }
        for (i, place) in places.iter().enumerate() {
            // A task in the middle of the job: the last one that is not a sink.
            let place = match place {
                CrashPlace::WorkerRunning(_) => CrashPlace::WorkerRunning(
                    g.tasks.iter().rev().find(|t| !matches!(t.kind, OperatorKind::Sink)).unwrap().name.clone(),
                ),
                p => p.clone(),
            };
            for chunk in configurations.chunks(MAX_CONFIGURATIONS) {
                let crash = 4 + 3 * i as u64 + chunk.len() as u64;
                let file = ComparisonFile {
                    version: 1,
                    name: String::new(),
                    description: String::new(),
                    job: barrierscope::engine::runs::scenario::JobRef::Builtin(job.to_string()),
                    input: None,
                    seed: 3 + i as u64,
                    configurations: chunk.to_vec(),
                    crash: CrashPlan { at: crash, place: place.clone() },
                    restore: RestorePlan { at: crash + 2 },
                };
                let l = Lockstep::run(&file).unwrap_or_else(|e| panic!("{job}, {}: {e}", place.words()));
                assert!(l.finished());
                for lane in &l.lanes {
                    let what = format!("{job}, {}, {}", place.words(), lane.label);
                    assert_eq!(lane.log[crash as usize].action, lane.crash_action, "{what}");
                    let ledger = lane.sim.ledger();
                    let pending = ledger.state.pending + ledger.external.map_or(0, |e| e.pending);
                    assert_eq!(pending, 0, "{what}: nothing pending at the end");
                    assert!(lane.sim.running(), "{what}: running at the end");
                    runs += 1;
                }
            }
        }
    }
    assert!(runs > 100, "{runs} runs");
}

/// The book (docs/src/comparison.md) shows the example's table as the runner prints it; `BLESS=1` rewrites it.
#[test]
fn the_readme_shows_the_example_as_the_runner_prints_it() {
    let (code, out, err) = runner(&["compare", &example("three-ways.json")]);
    assert_eq!(code, 0, "{err}");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/comparison.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let start = "$ cargo run -q --bin barrierscope -- compare scenarios/compare/three-ways.json\n";
    let a = readme.find(start).expect("the book shows the example") + start.len();
    let z = readme[a..].find("```").expect("its block ends") + a;
    if std::env::var("BLESS").is_ok() {
        std::fs::write(path, format!("{}{}{}", &readme[..a], out, &readme[z..])).unwrap();
    } else {
        assert_eq!(&readme[a..z], out, "the book's example differs from the runner's: BLESS=1 rewrites it");
    }
}

/// The figures the book's "Reading the example" quotes from the two other example comparisons.
#[test]
fn the_readme_reading_of_the_examples_holds() {
    let run = |name: &str| {
        Lockstep::run(&ComparisonFile::from_json(&std::fs::read_to_string(example(name)).unwrap()).unwrap()).unwrap()
    };
    let sinks = run("flink-sinks.json");
    let medians: Vec<Option<u64>> = sinks.lanes.iter().map(|l| l.costs().latency.median).collect();
    assert_eq!(medians, [Some(18), Some(4), Some(4)], "two-phase commit, append, upsert");
    let faster = run("three-ways-faster.json");
    let (flink, storm, spark) = (faster.lanes[0].costs(), faster.lanes[1].costs(), faster.lanes[2].costs());
    assert_eq!((storm.messages.acker, storm.latency.median, storm.reprocessed.records), (132, Some(107), 7));
    assert_eq!((flink.messages.total, spark.bytes.write_ahead_log), (45, 320));
    let three = run("three-ways.json");
    assert_eq!(three.lanes[0].sim.stats.history.len(), 5, "Flink's 5 checkpoints");
    assert_eq!(three.lanes[1].costs().bytes.acker_table_peak, 40);
}

/// The file the page's side-by-side view saves (`classroom::saved_comparison`: the comparison
/// with the room's clock, language and lesson place) is read by `barrierscope compare`, and
/// `--json` gives every figure as the engine computes it, the same as for the comparison file.
#[test]
fn the_file_the_page_saves_prints_the_same_table() {
    use barrierscope::classroom::saved_comparison::{three_ways, SavedCompareLesson, SavedComparison};
    let mut saved = SavedComparison::new(three_ways(), 50, Some(Lang::Zh));
    saved.lesson = Some(SavedCompareLesson { step: 3, predictions: [("most-rework".to_string(), 2)].into() });
    let path = std::env::temp_dir().join(format!("barrierscope-saved-compare-{}.json", std::process::id()));
    std::fs::write(&path, saved.to_json()).unwrap();
    let (code, json, err) = runner(&["compare", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let l = Lockstep::run(&three_ways()).unwrap();
    for (i, lane) in l.lanes.iter().enumerate() {
        assert_eq!(v["runs"][i]["costs"], serde_json::to_value(lane.costs()).unwrap(), "run {i}");
    }
    // The same figures as three-ways.json, the file the room's comparison is made to equal.
    let (_, table, _) = runner(&["compare", path.to_str().unwrap()]);
    let (_, from_file, _) = runner(&["compare", &example("three-ways.json")]);
    assert_eq!(table.split_once("\n\n").unwrap().1, from_file.split_once("\n\n").unwrap().1);
    // A damaged saved file is named.
    std::fs::write(&path, r#"{"barrierscope-compare": 2}"#).unwrap();
    let (code, _, err) = runner(&["compare", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("saved-comparison version 2"), "{err}");
    std::fs::remove_file(&path).unwrap();
}

/// Under Spark Streaming a task's crash is its executor's: the comparison says which tasks die with
/// it (the words are Spark's folder's, through the catalogue's `Strategy::crash_words`).
#[test]
fn a_task_crash_under_spark_is_its_executors() {
    let b = builtin("line-sink").unwrap();
    let g = JobGraph::build(&b.spec, &b.input).unwrap();
    let spark = Settings::new(Strategy::SparkStreaming);
    let en = barrierscope::engine::comparison::wording::crash_meaning(
        &CrashPlace::WorkerRunning("Count".into()),
        &spark,
        &g,
        Lang::En,
    );
    assert!(en.contains("executor 0 dies (it runs Source, Count)"), "{en}");
}
