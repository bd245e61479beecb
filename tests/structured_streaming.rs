//! Structured Streaming (`mechanisms/structured/`) held to theory, over 1,000 seeded runs each,
//! every run crashed once or twice at a seeded moment by a seeded crash action (the driver, the
//! JobManager's place, a task failing the query):
//! - a replayable source with the file sink or an idempotent `foreachBatch` is exactly once, in
//!   the state and in the sink's output, whatever the moment of the crash;
//! - a `foreach` writer (and `foreachBatch` without a `batchId` check) never loses a record, and
//!   duplicates some when the crash falls after the sink and before the commit log;
//! - a socket never duplicates a record in the state, and loses some;
//! - the logs name the batches that ran: the offset log's entries are the batches 0, 1, 2, ...
//!   once each, their ranges cover each source's log without a gap or an overlap, and every
//!   batch a sink finished and the commit log names is one of them;
//! - a restart loads the state stores' last committed version (the batch after the commit log's
//!   latest), and the stateful operators hold exactly that version's state.
//!
//! The crash moments are counted by where the driver stood (before the offset entry, between it
//! and the sink, during the sink, between the sink and the commit entry), and each of the four is
//! hit many times. The theory: Spark's Structured Streaming programming guide ("Fault Tolerance
//! Semantics") and `MicroBatchExecution.populateStartOffsets`.

use barrierscope::engine::mechanisms::structured::checkpoint_location::Phase;
use barrierscope::engine::mechanisms::structured::events::StructuredRestore;
use barrierscope::engine::mechanisms::structured::settings::OutputSink;
use barrierscope::engine::{
    Action, Event, Lang, OpState, RestoreFrom, Scenario, Settings, Sim, SinkMode, SourceKind, Strategy, TaskId,
    TxnStatus,
};

/// A run of `job` under Structured Streaming writing with `sink`, reading from `source`.
fn structured(job: &str, sink: OutputSink, source: SourceKind, seed: u64) -> Sim {
    let mode = if sink == OutputSink::Foreach { SinkMode::Append } else { SinkMode::Transactional };
    let mut s = Settings::new(Strategy::StructuredStreaming).with_sink(mode);
    s.mechanism.structured.output_sink = Some(sink);
    s.source = source;
    Scenario::builtin(job, s, seed).sim().unwrap()
}

/// Where the driver stands: 0 before the offset entry, 1 between it and the sink's first row,
/// 2 during the sink, 3 between the sink and the commit entry.
fn crash_point(sim: &Sim) -> usize {
    let q = sim.query().expect("the query runs");
    let written = sim.external().visible().len() as u32 > q.visible_at_start
        || sim.external().txns.iter().any(|t| t.status == TxnStatus::Open && !t.rows.is_empty());
    match q.phase {
        Phase::Idle => 0,
        Phase::Running if !written => 1,
        Phase::Running => 2,
        Phase::SinkDone => 3,
    }
}

/// What a crashed run tells.
struct Crashed {
    sim: Sim,
    /// Where each crash fell ([`crash_point`]).
    points: Vec<usize>,
}

/// Runs `sim` with one or two crashes at seeded moments, each by a seeded crash action, checking
/// at every restore that the state stores load the last committed version; then to the end.
fn crash_run(mut sim: Sim, seed: u64) -> Crashed {
    let mut points = Vec::new();
    let crashes = 1 + (seed % 2) as usize;
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for _ in 0..crashes {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        for _ in 0..x % 23 {
            if sim.has_work() {
                sim.step(Action::Auto).unwrap();
            }
        }
        if !sim.running() {
            break;
        }
        points.push(crash_point(&sim));
        let crash = match x % 3 {
            0 => Action::Crash,
            1 => Action::CrashJobManager,
            _ => Action::CrashTask { task: TaskId((x % sim.graph.tasks.len() as u64) as u16) },
        };
        sim.step(crash).unwrap();
        restore_checked(&mut sim, seed);
    }
    while sim.has_work() {
        sim.step(Action::Auto).unwrap();
    }
    Crashed { sim, points }
}

/// Restores `sim`, and checks the version the state stores loaded: the batch after the commit
/// log's latest (version 0 without one), with every task's state as that version holds it.
fn restore_checked(sim: &mut Sim, seed: u64) {
    let loc = sim.checkpoint_location().clone();
    let want = loc.latest_commit().map_or(0, |b| b + 1);
    let events = sim.step(Action::Restore).unwrap();
    let version = events
        .iter()
        .find_map(|e| match e {
            Event::Restored { from: RestoreFrom::Mechanism(m) } => {
                let v = serde_json::to_value(m).unwrap();
                let r: StructuredRestore = serde_json::from_value(v).unwrap();
                let StructuredRestore::CheckpointLocation { version, .. } = r;
                Some(version)
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("seed {seed}: the restart says where it came from: {events:?}"));
    assert_eq!(version, want, "seed {seed}: the last committed version");
    for (t, task) in sim.tasks().iter().enumerate() {
        if !matches!(task.state, OpState::Keyed { .. }) {
            continue;
        }
        let held = loc.version(version).map(|v| v.tasks[t].state.clone());
        match held {
            Some(state) => assert_eq!(task.state, state, "seed {seed}: task {t} holds version {version}"),
            None => assert!(
                matches!(&task.state, OpState::Keyed { entries } if entries.is_empty()),
                "seed {seed}: version 0 is empty"
            ),
        }
    }
}

/// The logs of a run that ended with a replayable source: the offset log's entries are batches
/// 0..n once each, their ranges cover every source's log without a gap or an overlap, the commit
/// log names every one of them in order, and every batch a sink finished is among them.
fn check_logs(sim: &Sim, finished: &[u32], seed: u64) {
    let loc = sim.checkpoint_location();
    let batches: Vec<u32> = loc.offsets.iter().map(|e| e.batch).collect();
    assert_eq!(batches, (0..batches.len() as u32).collect::<Vec<_>>(), "seed {seed}");
    assert_eq!(loc.commits, batches, "seed {seed}: every batch planned ran and was committed, in order");
    for s in sim.graph.sources() {
        let mut at = 0;
        for e in &loc.offsets {
            let r = e.ranges.iter().find(|r| r.source == s).unwrap();
            assert_eq!(r.start, at, "seed {seed}: batch {} starts where the one before ended", e.batch);
            at = r.end;
        }
        assert_eq!(at as usize, sim.graph.task(s).log.len(), "seed {seed}: the ranges cover the log");
    }
    assert!(finished.iter().all(|b| batches.contains(b)), "seed {seed}: {finished:?} in {batches:?}");
}

/// Every sink's finished batch, from a run's events.
fn finished_batches(events: &[Event]) -> Vec<u32> {
    events
        .iter()
        .filter_map(|e| {
            let v = serde_json::to_value(e).ok()?;
            (v["event"] == "sink-committed").then(|| v["batch"].as_u64().unwrap() as u32)
        })
        .collect()
}

#[test]
fn without_a_crash_every_sink_ends_as_the_failure_free_run() {
    for job in ["line-sink", "keyed-shuffle", "two-inputs"] {
        for sink in OutputSink::ALL {
            let mut sim = structured(job, sink, SourceKind::ReplayableLog, 5);
            let mut events = Vec::new();
            while sim.has_work() {
                events.extend(sim.step(Action::Auto).unwrap());
            }
            let l = sim.ledger();
            assert_eq!(l.state.exactly_once as usize, l.rows.len(), "{job} {sink:?}");
            if let Some(e) = l.external {
                assert_eq!(e.exactly_once as usize, l.rows.len(), "{job} {sink:?}");
            }
            assert!(l.complete_and_in_order(), "{job} {sink:?}");
            check_logs(&sim, &finished_batches(&events), 5);
            assert!(sim.checkpoint_location().offsets.len() > 1, "{job}: more than one micro-batch");
        }
    }
}

#[test]
fn a_replayable_source_with_the_file_sink_or_an_idempotent_foreach_batch_is_exactly_once_under_any_crash() {
    let mut hit = [0u32; 4];
    for seed in 0..1000u64 {
        let job = if seed % 2 == 0 { "line-sink" } else { "keyed-shuffle" };
        let sink = if seed % 4 < 2 { OutputSink::File } else { OutputSink::ForeachBatchIdempotent };
        let Crashed { sim, points } = crash_run(structured(job, sink, SourceKind::ReplayableLog, seed), seed);
        let l = sim.ledger();
        let e = l.external.unwrap();
        assert_eq!(l.state.exactly_once as usize, l.rows.len(), "seed {seed} {job} {sink:?}: {:?}", l.rows);
        assert_eq!(e.exactly_once as usize, l.rows.len(), "seed {seed} {job} {sink:?}: {:?}", l.rows);
        check_logs(&sim, &[], seed);
        for p in points {
            hit[p] += 1;
        }
    }
    eprintln!("crashes before the offset entry, before the sink, during it, before the commit entry: {hit:?}");
    assert!(hit.iter().all(|n| *n > 50), "every moment of a batch was crashed in: {hit:?}");
}

#[test]
fn foreach_never_loses_and_duplicates_what_a_crash_after_the_sink_runs_again() {
    for sink in [OutputSink::Foreach, OutputSink::ForeachBatch] {
        let (mut duplicated, mut after_sink) = (0, 0);
        for seed in 0..1000u64 {
            let job = if seed % 2 == 0 { "line-sink" } else { "keyed-shuffle" };
            let Crashed { sim, points } = crash_run(structured(job, sink, SourceKind::ReplayableLog, seed), seed);
            let l = sim.ledger();
            let e = l.external.unwrap();
            assert_eq!((e.lost, e.pending), (0, 0), "seed {seed} {sink:?}: {:?}", l.rows);
            assert_eq!(l.state.exactly_once as usize, l.rows.len(), "seed {seed} {sink:?}: the state stores");
            duplicated += u32::from(e.duplicated > 0);
            after_sink += u32::from(points.contains(&3));
            // Only a crash once the sink had written can duplicate.
            if points.iter().all(|p| *p < 2) {
                assert_eq!(e.duplicated, 0, "seed {seed} {sink:?}: crashed before the sink wrote");
            }
        }
        eprintln!("{sink:?}: {duplicated} of 1000 runs duplicated, {after_sink} crashed after the sink");
        assert!(duplicated >= after_sink && after_sink > 50, "{sink:?}: {duplicated} runs duplicated");
    }
}

#[test]
fn a_socket_never_duplicates_and_may_lose() {
    let mut lost = 0;
    for seed in 0..1000u64 {
        let sink = if seed % 2 == 0 { OutputSink::File } else { OutputSink::ForeachBatchIdempotent };
        let Crashed { sim, .. } = crash_run(structured("line-sink", sink, SourceKind::Socket, seed), seed);
        let l = sim.ledger();
        assert_eq!(l.state.duplicated, 0, "seed {seed}: {:?}", l.rows);
        assert_eq!(l.external.unwrap().duplicated, 0, "seed {seed}: {:?}", l.rows);
        lost += u32::from(l.state.lost > 0);
    }
    eprintln!("a socket: {lost} of 1000 runs lost records");
    assert!(lost > 100, "a socket cannot read again what the dead driver had: {lost} of 1000 runs lost");
}

#[test]
fn a_crash_between_the_sink_and_the_commit_entry_runs_the_batch_again_with_the_same_offsets() {
    for sink in OutputSink::ALL {
        let mut sim = structured("line-sink", sink, SourceKind::ReplayableLog, 2);
        while sim.query().unwrap().phase != Phase::SinkDone {
            sim.step(Action::Auto).unwrap();
        }
        let planned = sim.checkpoint_location().offsets.clone();
        assert!(sim.checkpoint_location().commits.is_empty(), "{sink:?}: commits/0 not yet written");
        sim.step(Action::Crash).unwrap();
        let events = sim.step(Action::Restore).unwrap();
        let words: Vec<String> =
            events.iter().map(|e| barrierscope::engine::narrate(e, &sim.graph, Lang::En)).collect();
        assert!(words.iter().any(|w| w.contains("batch 0 runs again with exactly the offsets")), "{words:?}");
        let q = sim.query().unwrap();
        assert_eq!((q.batch, q.phase), (0, Phase::Running));
        assert_eq!(q.ranges, planned[0].ranges, "{sink:?}: the offsets of offsets/0");
        assert_eq!(sim.source_offset(TaskId(0)), planned[0].ranges[0].start);
        while sim.has_work() {
            sim.step(Action::Auto).unwrap();
        }
        assert_eq!(sim.checkpoint_location().offsets.len(), sim.checkpoint_location().commits.len());
        let dup = sim.ledger().external.unwrap().duplicated;
        let twice = matches!(sink, OutputSink::ForeachBatch | OutputSink::Foreach);
        assert_eq!(dup > 0, twice, "{sink:?}: batch 0's records written twice only without a check");
    }
}

#[test]
fn a_source_reads_only_the_running_batchs_range_and_says_why_in_both_languages() {
    let mut sim = structured("line-sink", OutputSink::File, SourceKind::ReplayableLog, 1);
    let read = Action::Read { task: TaskId(0) };
    let e = sim.check(read).unwrap_err();
    assert!(e.message(Lang::En).contains("has not written offsets/0 yet"), "{}", e.message(Lang::En));
    assert!(e.message(Lang::Zh).contains("offsets/0"), "{}", e.message(Lang::Zh));
    sim.step(Action::Wait).unwrap(); // the driver writes offsets/0: two offsets
    sim.step(read).unwrap();
    sim.step(read).unwrap();
    let e = sim.check(read).unwrap_err();
    assert!(e.message(Lang::En).contains("offsets/0 ends at offset 2"), "{}", e.message(Lang::En));
    assert!(e.message(Lang::Zh).contains("偏移 2"), "{}", e.message(Lang::Zh));
}

#[test]
fn its_settings_are_written_flat_and_refused_where_they_do_not_fit() {
    let read = |json: &str| {
        let s: Settings = serde_json::from_str(json).unwrap();
        let g = barrierscope::engine::builtin("line-sink").unwrap();
        let graph = barrierscope::engine::JobGraph::build(&g.spec, &g.input).unwrap();
        s.validate(&graph).map_err(|e| e.to_string())
    };
    assert!(read(r#"{"strategy":"structured-streaming","sink":"transactional","output-sink":"file"}"#).is_ok());
    assert!(read(r#"{"strategy":"structured-streaming","max-offsets-per-trigger":3}"#).is_ok());
    let e = read(r#"{"strategy":"structured-streaming","output-sink":"file"}"#).unwrap_err();
    assert!(e.contains("output-sink file writes a micro-batch's output at once: it takes sink transactional"), "{e}");
    let e = read(r#"{"strategy":"structured-streaming","sink":"transactional","output-sink":"foreach"}"#).unwrap_err();
    assert!(e.contains("it takes sink append or upsert"), "{e}");
    let e = read(r#"{"strategy":"aligned","max-offsets-per-trigger":3}"#).unwrap_err();
    assert!(e.contains("belong to the structured-streaming strategy"), "{e}");
    let e = read(r#"{"strategy":"structured-streaming","max-offsets-per-trigger":0}"#).unwrap_err();
    assert!(e.contains("max-offsets-per-trigger must be 1"), "{e}");
    let s: Settings = serde_json::from_str(
        r#"{"strategy":"structured-streaming","sink":"transactional","output-sink":"foreach-batch"}"#,
    )
    .unwrap();
    let written = serde_json::to_string(&s).unwrap();
    assert!(written.contains(r#""output-sink":"foreach-batch""#), "{written}");
    assert_eq!(serde_json::from_str::<Settings>(&written).unwrap(), s);
}

/// The two scenario files of `scenarios/structured/`: the same moves (batch 0's sink has finished
/// and `commits/0` is not written when the driver dies), under the file sink and a `foreach`
/// writer. Both keep the counts exactly once; the file sink skips the re-run batch, the writer
/// writes a and b again.
#[test]
fn the_scenario_files_tell_a_crash_after_the_sink_under_two_sinks() {
    let play = |file: &str| {
        let path = format!("{}/scenarios/structured/{file}", env!("CARGO_MANIFEST_DIR"));
        let sc = Scenario::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
        let played = sc.play().unwrap();
        let events: Vec<Event> = played.events.iter().flatten().cloned().collect();
        (played.sim, events)
    };
    let (file, events) = play("file-sink-skips-the-rerun.json");
    let l = file.ledger();
    assert_eq!((l.state.exactly_once as usize, l.external.unwrap().exactly_once as usize), (8, 8));
    let words: Vec<String> = events.iter().map(|e| barrierscope::engine::narrate(e, &file.graph, Lang::En)).collect();
    assert!(words.iter().any(|w| w.contains("found batch 0 in _spark_metadata already")), "{words:?}");
    let (foreach, _) = play("foreach-writes-the-rerun-twice.json");
    let l = foreach.ledger();
    assert_eq!(l.state.exactly_once, 8);
    assert_eq!(l.external_labels(barrierscope::engine::Verdict::Duplicated), ["a", "b"]);
}

/// The settings form's two menus, the sink mode and Structured Streaming's sink, are edited in
/// step: naming a sink that writes a batch at once makes the mode `transactional`, naming `foreach`
/// makes a `transactional` mode `append` (an `upsert` one stays), and a mode that does not fit the
/// sink named drops it for the one the mode says. Every configuration on the way is valid.
#[test]
fn the_output_sink_and_the_sink_mode_are_edited_in_step() {
    use barrierscope::engine::mechanisms::structured::settings::StructuredEdit;
    use barrierscope::engine::settings::Edit;
    let g = barrierscope::engine::builtin("line-sink").unwrap();
    let graph = barrierscope::engine::JobGraph::build(&g.spec, &g.input).unwrap();
    let named = |o: OutputSink| Edit::from(StructuredEdit::OutputSink(Some(o)));
    let mut s = Settings::new(Strategy::StructuredStreaming);
    let steps = [
        (named(OutputSink::ForeachBatch), SinkMode::Transactional, OutputSink::ForeachBatch),
        (Edit::Sink(SinkMode::Append), SinkMode::Append, OutputSink::Foreach),
        (Edit::Sink(SinkMode::Transactional), SinkMode::Transactional, OutputSink::File),
        (named(OutputSink::ForeachBatchIdempotent), SinkMode::Transactional, OutputSink::ForeachBatchIdempotent),
        (named(OutputSink::Foreach), SinkMode::Append, OutputSink::Foreach),
        (Edit::Sink(SinkMode::Upsert), SinkMode::Upsert, OutputSink::Foreach),
        (named(OutputSink::Foreach), SinkMode::Upsert, OutputSink::Foreach),
        (named(OutputSink::File), SinkMode::Transactional, OutputSink::File),
    ];
    for (i, (edit, mode, sink)) in steps.into_iter().enumerate() {
        s = s.edited(edit);
        assert_eq!((s.sink, s.mechanism.structured.sink(s.sink)), (mode, sink), "edit {i}");
        s.validate(&graph).unwrap_or_else(|e| panic!("edit {i}: {e}"));
    }
}
