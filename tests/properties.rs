//! Property tests over the built-in jobs, random input logs, seeds and action sequences with
//! crashes anywhere (and expired checkpoints failing the job over past a random
//! tolerable-failed-checkpoints): aligned, unaligned and stop-the-world always end exactly once,
//! complete and in order; barriers without alignment never lose a record; a crash-free run is
//! always exactly once, complete and in order. A JobManager failure is survived by a standby or,
//! without HA, by a resubmission from the retained checkpoint (retain- or delete-on-cancellation):
//! both keep every guarantee. Every case may have slow tasks (a random `record-cost` for up to
//! two tasks), bounded channels and debloated buffers: no guarantee depends on speed. The hot path's fast check of a delivery or a read agrees with the
//! full check at every step.
//! 1,000 cases per property (PROPTEST_CASES overrides).
#![cfg(not(target_arch = "wasm32"))]

mod cases;
use barrierscope::engine::auto_label;
use barrierscope::engine::core::dataflow::job_graph::{LogEntry, SourceInput};
use barrierscope::engine::settings::kafka::KafkaSettings;
use barrierscope::engine::{
    builtin, Action, CheckpointRetention, Event, HighAvailability, OnRefusal, Order, Scenario, ScriptAction, Settings,
    Sim, SinkMode, Strategy as Snapshots, BUILTIN_NAMES,
};
use cases::config;
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Move {
    Auto,
    Checkpoint,
    Crash,
    CrashTask(u8),
    CrashJobManager,
    Restore,
    AllTimers,
}

fn moves(crashes: bool) -> impl Strategy<Value = Vec<Move>> {
    let m = if crashes {
        prop_oneof![
            12 => Just(Move::Auto),
            2 => Just(Move::Checkpoint),
            1 => Just(Move::Crash),
            1 => any::<u8>().prop_map(Move::CrashTask),
            1 => Just(Move::CrashJobManager),
            2 => Just(Move::Restore),
            1 => Just(Move::AllTimers),
        ]
        .boxed()
    } else {
        prop_oneof![12 => Just(Move::Auto), 2 => Just(Move::Checkpoint), 1 => Just(Move::AllTimers)].boxed()
    };
    prop::collection::vec(m, 0..80)
}

#[derive(Clone, Debug)]
struct Case {
    job: &'static str,
    /// Per source operator, per partition, the keys of its records.
    keys: Vec<Vec<Vec<u8>>>,
    seed: u64,
    max_concurrent: u32,
    interval: Option<u64>,
    alignment_timeout: Option<u64>,
    capacity: Option<u32>,
    sink: SinkMode,
    /// tolerable-failed-checkpoints: past it, an expired checkpoint fails the job over.
    tolerable: u32,
    /// A standby JobManager, or none with a retention that keeps checkpoints when the job fails.
    ha: (HighAvailability, CheckpointRetention),
    /// Slow tasks: (task index, modulo the job's tasks; steps a record).
    costs: Vec<(u8, u32)>,
    /// Buffer debloating's target.
    debloat: Option<u32>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::sample::select(BUILTIN_NAMES.to_vec()),
        prop::collection::vec(prop::collection::vec(prop::collection::vec(0u8..3, 0..10), 2), 2),
        any::<u64>(),
        1u32..=3,
        prop::option::of(3u64..15),
        prop::option::of(0u64..4),
        prop::option::of(2u32..6),
        prop::sample::select(
            SinkMode::ALL.iter().copied().filter(|s| *s != SinkMode::Transactional).collect::<Vec<_>>(),
        ),
        0u32..3,
        prop::sample::select(vec![
            (HighAvailability::Standby, CheckpointRetention::NoExternalizedCheckpoints),
            (HighAvailability::None, CheckpointRetention::RetainOnCancellation),
            (HighAvailability::None, CheckpointRetention::DeleteOnCancellation),
        ]),
        (prop::collection::vec((any::<u8>(), 2u32..6), 0..3), prop::option::of(1u32..12)),
    )
        .prop_map(
            |(
                job,
                keys,
                seed,
                max_concurrent,
                interval,
                alignment_timeout,
                capacity,
                sink,
                tolerable,
                ha,
                (costs, debloat),
            )| Case {
                job,
                keys,
                seed,
                max_concurrent,
                interval,
                alignment_timeout,
                capacity,
                sink,
                tolerable,
                ha,
                costs,
                debloat,
            },
        )
}

fn scenario(c: &Case, strategy: Snapshots) -> Scenario {
    let b = builtin(c.job).unwrap();
    let mut input = b.input.clone();
    let mut n = 0;
    for (i, (name, src)) in b.input.iter().enumerate() {
        let parts = match src {
            SourceInput::Single(_) => 1,
            SourceInput::Partitions(p) => p.len(),
        };
        let mut logs: Vec<Vec<LogEntry>> = Vec::new();
        for p in 0..parts {
            logs.push(
                c.keys[i % 2][p % 2]
                    .iter()
                    .map(|k| {
                        n += 1;
                        LogEntry::Short(format!("{}:{}", auto_label(n - 1), ["x", "y", "z"][*k as usize]))
                    })
                    .collect(),
            );
        }
        let v = if parts == 1 { SourceInput::Single(logs.remove(0)) } else { SourceInput::Partitions(logs) };
        input.insert(name.clone(), v);
    }
    let mut s = Settings::new(strategy);
    if strategy.uses_coordinator() {
        s.max_concurrent_checkpoints = c.max_concurrent;
        s.checkpoint_interval = c.interval;
        s.sink = c.sink;
        if c.sink == SinkMode::Kafka {
            // The timeout rule holds: no transaction outlives 900,000 steps of 1 ms.
            s.kafka = Some(KafkaSettings { transaction_timeout_ms: 900_000, step_ms: 1, ..KafkaSettings::default() });
        }
        s.checkpoint_timeout = 40;
        s.tolerable_failed_checkpoints = c.tolerable;
        (s.high_availability, s.externalized_checkpoint_retention) = c.ha;
    }
    if strategy == Snapshots::Aligned {
        s.alignment_timeout = c.alignment_timeout;
    }
    // Unaligned checkpoints, and the alignment timeout that switches to them, run one at a time.
    if strategy == Snapshots::Unaligned || s.alignment_timeout.is_some() {
        s.max_concurrent_checkpoints = 1;
    }
    let graph = barrierscope::engine::JobGraph::build(&b.spec, &b.input).unwrap();
    // A capacity for every channel, or (an odd seed) for one channel alone.
    match c.capacity {
        Some(items) if c.seed % 2 == 1 && !graph.channels.is_empty() => {
            let one = &graph.channels[(c.seed / 2) as usize % graph.channels.len()];
            s.channel_capacities.insert(one.name.clone(), items);
        }
        capacity => s.channel_capacity = capacity,
    }
    let tasks = graph.tasks;
    for (t, steps) in &c.costs {
        s.record_cost.insert(tasks[*t as usize % tasks.len()].name.clone(), *steps);
    }
    s.buffer_debloat_target = c.debloat;
    if strategy == Snapshots::StormAcker {
        // A timeout is a failure too (the tree is replayed): none here, only the crashes.
        s.mechanism.storm.message_timeout = 1_000_000;
    }
    let mut sc = Scenario::builtin(c.job, s, c.seed);
    sc.input = Some(input);
    sc
}

/// Plays the moves through the script interpreter (skipping those not enabled), then restores if
/// down and runs to the end.
fn run(c: &Case, strategy: Snapshots, moves: &[Move]) -> Sim {
    let mut sim = scenario(c, strategy).sim().expect("valid scenario");
    let mut ignore = |_: Action, _: &[Event]| {};
    for m in moves {
        let line = match *m {
            Move::Auto => ScriptAction::Auto(1),
            Move::Checkpoint => ScriptAction::Checkpoint,
            Move::Crash => ScriptAction::Crash,
            Move::CrashTask(t) => ScriptAction::CrashTask(sim.graph.tasks[t as usize % sim.tasks().len()].name.clone()),
            Move::CrashJobManager => ScriptAction::CrashJobManager,
            Move::Restore => ScriptAction::Restore,
            Move::AllTimers => ScriptAction::AllTimers,
        };
        sim.play_line(&line, 1, OnRefusal::Skip, &mut ignore).expect("names come from the job");
    }
    if sim.down().is_some() {
        sim.play_line(&ScriptAction::Restore, 1, OnRefusal::Stop, &mut ignore).unwrap();
    }
    sim.play_line(&ScriptAction::RunToEnd, 100_000, OnRefusal::Stop, &mut ignore).unwrap();
    if sim.settings.sink == SinkMode::Kafka {
        // A transaction left lingering (its id past the first unused one the restarted writer's
        // probing tries) holds the rows after it back until the broker's timeout aborts it.
        sim.play_line(&ScriptAction::PassTime(900_001), 1, OnRefusal::Stop, &mut ignore).unwrap();
    }
    sim
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn consistent_strategies_always_end_exactly_once(
        c in case(),
        m in moves(true),
        strategy in prop::sample::select(vec![Snapshots::Aligned, Snapshots::Unaligned, Snapshots::StopTheWorld]),
    ) {
        let sim = run(&c, strategy, &m);
        let l = sim.ledger();
        prop_assert_eq!(l.state.exactly_once as usize, l.rows.len(), "state: {:?}", l.rows);
        if matches!(sim.settings.sink, SinkMode::TwoPhaseCommit | SinkMode::Kafka) {
            if let Some(e) = l.external {
                prop_assert_eq!(e.exactly_once as usize, l.rows.len(), "external: {:?}", l.rows);
            }
        }
        if sim.settings.sink == SinkMode::Upsert {
            if let Some(e) = l.external {
                prop_assert_eq!(e.lost + e.duplicated, 0, "upsert converges: {:?}", l.rows);
            }
        }
        // Every completed checkpoint is a consistent cut.
        if let Some(cut) = sim.latest_cut() {
            prop_assert!(cut.consistent(), "{:?}", cut);
        }
    }

    #[test]
    fn order_and_completeness_never_fail_under_aligned_checkpoints_and_a_replayable_source(
        c in case(),
        m in moves(true),
        strategy in prop::sample::select(vec![Snapshots::Aligned, Snapshots::Unaligned, Snapshots::StopTheWorld]),
    ) {
        // Crashes of tasks, the cluster and the JobManager, and restores, anywhere; then the end.
        let sim = run(&c, strategy, &m);
        let l = sim.ledger();
        prop_assert_eq!(l.complete.complete as usize, l.rows.len(), "complete: {:?}", l.rows);
        for r in &l.rows {
            // At every task, on the history that counts.
            prop_assert!(!r.out_of_order_at_a_task(), "{} out of order at a task: {:?}", r.label, r.out_of_order_at);
        }
        // What a reader sees: in order, but an append sink shows a replay again (at least once).
        if sim.settings.sink == SinkMode::Append {
            let late = l.order_labels(Order::OutOfOrder);
            prop_assert!(late.iter().all(|r| l.row(r).unwrap().external > 1), "{:?}", l.rows);
        } else {
            prop_assert_eq!(l.order.in_order as usize, l.rows.len(), "in order: {:?}", l.rows);
        }
    }

    #[test]
    fn barriers_without_alignment_never_lose_a_record(c in case(), m in moves(true)) {
        let sim = run(&c, Snapshots::AtLeastOnce, &m);
        let l = sim.ledger();
        prop_assert_eq!(l.state.lost + l.state.pending, 0, "{:?}", l.rows);
    }

    #[test]
    fn a_crash_free_run_is_always_exactly_once(
        c in case(),
        m in moves(false),
        strategy in prop::sample::select(Snapshots::ALL.to_vec()),
    ) {
        // Failure-free: an expired checkpoint must not fail the job over either.
        let c = Case { tolerable: 1_000_000_000, ..c };
        let sim = run(&c, strategy, &m);
        let l = sim.ledger();
        prop_assert_eq!(l.state.exactly_once as usize, l.rows.len(), "{:?}", l.rows);
        if let Some(e) = l.external {
            prop_assert_eq!(e.exactly_once as usize, l.rows.len(), "{:?}", l.rows);
        }
        prop_assert!(l.complete_and_in_order(), "{:?}", l.rows);
    }

    /// The hot path's fast check (`Sim::enabled_fast`) against the full one (`Sim::check`), for
    /// every delivery and every read, at every step of a run with crashes, under every strategy:
    /// a delivery is enabled exactly when the fast check says so; a read, when the fast check
    /// says so and the log (or the mechanism's replay) has a next record.
    #[test]
    fn the_fast_check_agrees_with_the_full_one(
        c in case(),
        m in moves(true),
        strategy in prop::sample::select(Snapshots::ALL.to_vec()),
    ) {
        let mut sim = scenario(&c, strategy).sim().expect("valid scenario");
        let mut ignore = |_: Action, _: &[Event]| {};
        let agree = |sim: &Sim| -> Result<(), TestCaseError> {
            for ch in 0..sim.graph.channels.len() {
                let a = Action::Deliver { channel: barrierscope::engine::ChannelId(ch as u16) };
                prop_assert_eq!(sim.enabled_fast(a), sim.check(a).is_ok(), "{:?} at step {}", a, sim.tick);
            }
            for t in 0..sim.graph.tasks.len() {
                let a = Action::Read { task: barrierscope::engine::TaskId(t as u16) };
                match sim.check(a) {
                    Ok(()) => prop_assert!(sim.enabled_fast(a), "{:?} at step {}", a, sim.tick),
                    Err(barrierscope::engine::ActionError::LogExhausted { .. }) => {}
                    Err(e) => prop_assert!(!sim.enabled_fast(a), "{:?} at step {}: {:?}", a, sim.tick, e),
                }
            }
            Ok(())
        };
        for mv in &m {
            agree(&sim)?;
            let line = match *mv {
                Move::Auto => ScriptAction::Auto(1),
                Move::Checkpoint => ScriptAction::Checkpoint,
                Move::Crash => ScriptAction::Crash,
                Move::CrashTask(t) => ScriptAction::CrashTask(sim.graph.tasks[t as usize % sim.tasks().len()].name.clone()),
                Move::CrashJobManager => ScriptAction::CrashJobManager,
                Move::Restore => ScriptAction::Restore,
                Move::AllTimers => ScriptAction::AllTimers,
            };
            sim.play_line(&line, 1, OnRefusal::Skip, &mut ignore).expect("names come from the job");
        }
        let mut out = Vec::new();
        for _ in 0..2_000 {
            agree(&sim)?;
            if sim.apply(Action::Auto, &mut out).is_err() {
                break;
            }
        }
    }

    #[test]
    fn runs_are_deterministic(c in case(), m in moves(true)) {
        let a = run(&c, Snapshots::Unaligned, &m);
        let b = run(&c, Snapshots::Unaligned, &m);
        prop_assert_eq!(a.tick, b.tick);
        prop_assert_eq!(a.ledger(), b.ledger());
        prop_assert_eq!(&a.stats, &b.stats);
    }
}
