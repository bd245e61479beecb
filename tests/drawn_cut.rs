//! A cut the learner draws (issue 15), checked against models:
//! - drawn where a checkpoint's or the timers' saves were taken, it classifies exactly as the
//!   engine's consistent-cut check classifies those saves (`src/engine/verdict/cut.rs`);
//! - a restore from any drawn cut of the line job (one path per record, no channel state) ends
//!   with each record counted once, plus once per orphan arrow, minus once per arrow in transit:
//!   lost exactly when in transit only, duplicated exactly when an orphan only, and exactly once
//!   when it is an orphan on one channel and in transit on the next. 1,000 cases
//!   (PROPTEST_CASES overrides);
//! - the runner's `cut` command.
#![cfg(not(target_arch = "wasm32"))]

mod cli;
use cli::runner;

mod cases;
use barrierscope::engine::verdict::drawn_cut::{classify, restore_from, Crossing, DrawnCutError};
use barrierscope::engine::{
    builtin, generated_input, Action, RecordId, Scenario, Settings, Sim, Strategy as Snapshots, TaskSnapshot, Timeline,
    TimerSpec, Verdict,
};
use cases::config;
use proptest::prelude::*;

fn settings(job: &str, strategy: Snapshots, seed: u64) -> Settings {
    let mut s = Settings::new(strategy);
    if strategy == Snapshots::Timers {
        let sim = Scenario::builtin(job, Settings::new(Snapshots::Aligned), seed).sim().unwrap();
        for (i, t) in sim.graph.tasks.iter().enumerate() {
            let period = 5 + (seed + 3 * i as u64) % 9;
            s.timers.insert(t.name.clone(), TimerSpec { phase: (seed + i as u64) % period, period });
        }
    } else if strategy.uses_coordinator() {
        s.checkpoint_interval = Some(4 + seed % 7);
    }
    s
}

/// A crash-free run of `job`: `steps` auto steps (fewer if the input runs out first).
fn run(job: &str, strategy: Snapshots, seed: u64, per_partition: Option<usize>, steps: usize) -> Timeline {
    let mut sc = Scenario::builtin(job, settings(job, strategy, seed), seed);
    if let Some(n) = per_partition {
        sc.input = Some(generated_input(&builtin(job).unwrap().spec, n));
    }
    let mut tl = Timeline::new(sc.sim().unwrap());
    for _ in 0..steps {
        if tl.apply(Action::Auto).is_err() {
            break;
        }
    }
    tl
}

fn sorted(mut v: Vec<RecordId>) -> Vec<RecordId> {
    v.sort();
    v
}

/// The drawn cut through the points where `snaps` were taken (a save at tick k ends step k + 1)
/// against the engine's check of the snapshots themselves, on `at`: the run when they were the
/// newest (the engine's channel logs keep only what a restore could ask for).
fn same_as_the_engine(tl: &Timeline, at: &Sim, snaps: &[&TaskSnapshot]) -> (usize, usize) {
    let points: Vec<u64> = snaps.iter().map(|s| s.tick + 1).collect();
    let drawn = classify(tl, &points).unwrap();
    let engine = at.cut_check(&snaps.iter().map(|s| Some(*s)).collect::<Vec<_>>());
    assert_eq!(sorted(drawn.orphans()), sorted(engine.orphans()), "orphans at {points:?}");
    assert_eq!(sorted(drawn.in_transit()), sorted(engine.in_transit()), "in transit at {points:?}");
    (drawn.orphans().len(), drawn.in_transit().len())
}

/// Every restore point the run passes through (the newest completed checkpoint, or each task's
/// newest save once every task has one), checked against the engine; returns (cuts, orphans,
/// records in transit).
fn every_restore_point(tl: &Timeline) -> (usize, usize, usize) {
    let mut sim = tl.initial().clone();
    let mut seen: Vec<Vec<u64>> = Vec::new();
    let (mut orphans, mut in_transit) = (0, 0);
    for a in tl.actions() {
        sim.step(*a).unwrap();
        let snaps: Option<Vec<&TaskSnapshot>> = sim.restore_point().into_iter().collect();
        let Some(snaps) = snaps else { continue };
        let ticks: Vec<u64> = snaps.iter().map(|s| s.tick).collect();
        if seen.contains(&ticks) {
            continue;
        }
        seen.push(ticks);
        let (o, i) = same_as_the_engine(tl, &sim, &snaps);
        orphans += o;
        in_transit += i;
    }
    (seen.len(), orphans, in_transit)
}

#[test]
fn drawn_through_a_checkpoints_saves_it_classifies_as_the_engine_does() {
    let mut checked = 0;
    for seed in 0..8 {
        for job in ["line", "line-sink", "two-inputs", "diamond", "keyed-shuffle"] {
            let tl = run(job, Snapshots::Aligned, seed, Some(6), 400);
            let (cuts, orphans, in_transit) = every_restore_point(&tl);
            assert_eq!((orphans, in_transit), (0, 0), "{job} seed {seed}: aligned is consistent");
            checked += cuts;
        }
    }
    assert!(checked > 100, "{checked} checkpoints");
}

#[test]
fn drawn_through_the_timers_saves_it_classifies_as_the_engine_does() {
    let (mut cuts, mut orphans, mut in_transit) = (0, 0, 0);
    for seed in 0..8 {
        for job in ["line", "line-sink", "diamond", "keyed-shuffle"] {
            let tl = run(job, Snapshots::Timers, seed, Some(6), 300);
            let (c, o, i) = every_restore_point(&tl);
            (cuts, orphans, in_transit) = (cuts + c, orphans + o, in_transit + i);
        }
    }
    assert!(cuts > 200 && orphans > 20 && in_transit > 20, "{cuts} cuts, {orphans} orphans, {in_transit} in transit");
}

/// The timers story: every task's timer fires after the source read a, b, c; a, b, c are in
/// transit (the engine's cut of the same saves says so too) and the restore loses them.
#[test]
fn the_timers_story_a_b_c_in_transit_and_lost() {
    let mut sc = Scenario::builtin("line", Settings::new(Snapshots::Timers), 1);
    let source = sc.sim().unwrap().graph.task_by_name("Source").unwrap();
    let mut tl = Timeline::new(sc.sim().unwrap());
    for _ in 0..3 {
        tl.apply(Action::Read { task: source }).unwrap();
    }
    tl.apply(Action::AllTimers).unwrap();
    sc.actions.clear();
    let saves: Vec<&TaskSnapshot> = tl.last().storage().saves.iter().map(|s| s.last().unwrap()).collect();
    assert_eq!(same_as_the_engine(&tl, tl.last(), &saves), (0, 3));
    let (cut, restored) = restore_from(&tl, &[4, 4, 4], 10_000).unwrap();
    assert!(cut.consistent());
    let labels: Vec<&str> = cut.arrows.iter().map(|a| a.label.as_str()).collect();
    assert_eq!(labels, ["a", "b", "c"]);
    assert!(cut.arrows.iter().all(|a| a.crossing == Crossing::InTransit && a.received_at.is_none()));
    assert_eq!(restored.ledger.state_labels(Verdict::Lost), ["a", "b", "c"]);
    assert_eq!(restored.ledger.state.exactly_once, 5);
}

/// The issue's scenario: c is an orphan on Source->Map and in transit on Map->Count, and still
/// ends exactly once; b, an orphan only, is duplicated.
#[test]
fn an_orphan_on_one_channel_and_in_transit_on_the_next_ends_exactly_once() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/abc-timers-duplicated.json")).unwrap();
    let sc = Scenario::from_json(&text).unwrap();
    let played = sc.play().unwrap();
    let tl = Timeline::from_actions(sc.sim().unwrap(), &played.actions).unwrap();
    let (cut, restored) = restore_from(&tl, &[2, 9, 9], 10_000).unwrap();
    assert!(!cut.consistent());
    let arrows: Vec<(Crossing, &str, &str)> =
        cut.arrows.iter().map(|a| (a.crossing, a.label.as_str(), a.channel_name.as_str())).collect();
    assert_eq!(
        arrows,
        [
            (Crossing::Orphan, "b", "Source->Map"),
            (Crossing::Orphan, "c", "Source->Map"),
            (Crossing::InTransit, "c", "Map->Count")
        ]
    );
    assert_eq!(restored.ledger.state_labels(Verdict::Duplicated), ["b"]);
    assert_eq!(restored.ledger.row("c").unwrap().state_verdict, Verdict::ExactlyOnce);
}

#[test]
fn points_that_do_not_fit_and_strategies_that_cannot_restore_are_refused() {
    let tl = run("line", Snapshots::Timers, 1, None, 10);
    assert!(matches!(classify(&tl, &[1, 2]), Err(DrawnCutError::Points { tasks: 3, given: 2 })));
    assert!(matches!(classify(&tl, &[1, 2, 11]), Err(DrawnCutError::PastTheEnd { point: 11, .. })));
    let mut crashed = tl.clone();
    crashed.apply(Action::Crash).unwrap();
    assert!(matches!(classify(&crashed, &[1, 2, 11]), Err(DrawnCutError::TaskDown { point: 11, .. })));
    let none = run("line", Snapshots::None, 1, None, 10);
    assert!(classify(&none, &[3, 3, 3]).is_ok(), "any run classifies");
    let e = restore_from(&none, &[3, 3, 3], 1000).unwrap_err().to_string();
    assert!(e.contains("needs a strategy that restores task snapshots"), "{e}");
    let mut two_phase = Scenario::builtin("line-sink", settings("line-sink", Snapshots::Aligned, 1), 1);
    two_phase.settings.sink = barrierscope::engine::SinkMode::TwoPhaseCommit;
    let tl = Timeline::new(two_phase.sim().unwrap());
    let e = restore_from(&tl, &[0, 0, 0, 0], 1000).unwrap_err().to_string();
    assert!(e.contains("no pre-committed transaction"), "{e}");
}

proptest! {
    #![proptest_config(config())]

    /// After a restore from any drawn cut of the line job, each record's count in state is the
    /// failure-free one, plus one per orphan arrow, minus one per arrow in transit. A record in
    /// transit only is lost, an orphan only is duplicated, neither or both: exactly once. A
    /// quarter of the runs crash and restore once before (what that restore lost or duplicated
    /// shows in the cut too: the saves count what the states they were restored from had); a
    /// point where the job is down moves back to the last step it was up.
    #[test]
    fn a_restore_from_a_drawn_cut_loses_what_is_in_transit_and_duplicates_the_orphans(
        sink in any::<bool>(),
        strategy in 0usize..5,
        seed in 0u64..1000,
        steps in 0usize..70,
        crash_at in 0usize..140,
        raw in prop::collection::vec(0u64..1000, 4),
    ) {
        let job = if sink { "line-sink" } else { "line" };
        let strategy = [
            Snapshots::Timers,
            Snapshots::Aligned,
            Snapshots::Unaligned,
            Snapshots::AtLeastOnce,
            Snapshots::StopTheWorld,
        ][strategy];
        let mut tl = run(job, strategy, seed, None, steps.min(crash_at));
        if crash_at < steps {
            tl.apply(Action::Crash).unwrap();
            for _ in crash_at..steps {
                if tl.apply(Action::Auto).is_err() {
                    break;
                }
            }
        }
        let mut sim = tl.initial().clone();
        let mut up = vec![true];
        for a in tl.actions() {
            sim.step(*a).unwrap();
            up.push(sim.running());
        }
        let tasks = tl.initial().graph.tasks.len();
        let points: Vec<u64> = raw[..tasks]
            .iter()
            .map(|p| (0..=(p % (tl.len() as u64 + 1)) as usize).rev().find(|p| up[*p]).unwrap() as u64)
            .collect();
        let (cut, restored) = restore_from(&tl, &points, 100_000).unwrap();
        let count = tl.initial().graph.task_by_name("Count").unwrap();
        // The arrows into Count and before it: the path of what Count's state counts.
        let upstream = |a: &&barrierscope::engine::Arrow| {
            tl.initial().graph.channels[a.channel.0 as usize].to.0 <= count.0
        };
        for row in &restored.ledger.rows {
            let n = |c: Crossing| cut.arrows.iter().filter(upstream).filter(|a| a.record == row.record && a.crossing == c).count() as i64;
            let delta = n(Crossing::Orphan) - n(Crossing::InTransit);
            prop_assert_eq!(
                row.state as i64 - row.expected_state as i64, delta,
                "{} at {:?}: {:?}", row.label, points, cut.arrows
            );
            let verdict = match delta {
                0 => Verdict::ExactlyOnce,
                d if d < 0 => Verdict::Lost,
                _ => Verdict::Duplicated,
            };
            prop_assert_eq!(row.state_verdict, verdict);
        }
        // A cut crossed by no arrow restores to exactly once.
        if cut.arrows.is_empty() {
            prop_assert_eq!(restored.ledger.state.exactly_once as usize, restored.ledger.rows.len());
        }
    }
}

#[test]
fn the_runner_draws_a_cut() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/abc-timers-duplicated.json");
    let (code, out, err) = runner(&["cut", file, "--at", "2,9,9"]);
    assert_eq!(code, 0, "{err}");
    for line in [
        "cut after steps: Source 2, Map 9, Count 9",
        "consistent: NO (2 orphans, 1 in transit)",
        "  orphan      b      Source->Map      sent at step 3, received at step 6",
        "  in transit  c      Map->Count       sent at step 7, received at step 10",
        "  b        x     DUPLICATED (2 of 1)",
        "  c        x     exactly once (1 of 1)",
        "state: 7 exactly once, 0 lost, 1 duplicated, 0 pending",
    ] {
        assert!(out.lines().any(|l| l == line), "missing {line:?} in\n{out}");
    }
    let (code, out, err) = runner(&["cut", file, "--at", "2,9,9", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["consistent"], false);
    assert_eq!(v["arrows"].as_array().unwrap().len(), 3);
    assert_eq!(v["arrows"][0]["crossing"], "orphan");
    assert_eq!(v["restore"]["state"]["duplicated"], 1);
    let (code, _, err) = runner(&["cut", file, "--at", "2,9"]);
    assert_eq!(code, 2);
    assert!(err.contains("the job has 3 tasks; give one point per task (2 given)"), "{err}");
    let (code, _, err) = runner(&["cut", file, "--at", "2,x,9"]);
    assert_eq!(code, 2);
    assert!(err.contains("\"x\" is not a step number"), "{err}");
    let (code, _, err) = runner(&["cut", file]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the following required arguments were not provided") && err.contains("--at <T1,T2,...>"),
        "{err}"
    );
}

/// The book (docs/src/runner.md) shows the runner's `cut` example as it prints it.
#[test]
fn the_readme_shows_the_cut_as_the_runner_prints_it() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/runner.md")).unwrap();
    let start = "$ cargo run -q --bin barrierscope -- cut scenarios/abc-timers-duplicated.json --at 2,9,9\n";
    let a = readme.find(start).expect("the book shows the example") + start.len();
    let z = a + readme[a..].find("```").unwrap();
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/abc-timers-duplicated.json");
    let (code, out, err) = runner(&["cut", file, "--at", "2,9,9"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&readme[a..z], out);
}
