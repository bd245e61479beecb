//! Storm's acker, checked against its theory (Apache Storm's "Guaranteeing Message Processing"):
//! the XOR value is 0 exactly when the tree is complete (checked against the observer's own
//! account of every tuple on the wire and every message on its way), a timeout replays, an
//! unanchored edge loses, acking off is at most once, a crash duplicates in an append sink and
//! loses nothing, and Nimbus's death changes nothing that runs. 1,000 cases per property.
#![cfg(not(target_arch = "wasm32"))]

mod cases;
use barrierscope::engine::mechanisms::catalogue::carried::MechanismEvent;
use barrierscope::engine::mechanisms::storm::events::StormEvent;
use barrierscope::engine::mechanisms::storm::tuple_tree::AckMessage;
use barrierscope::engine::{
    runs::scenario, Action, Event, OnRefusal, Scenario, ScriptAction, Settings, Sim, SinkMode, Strategy as Snapshots,
    TaskId, Verdict, BUILTIN_NAMES,
};
use cases::config;
use proptest::prelude::*;

fn line(s: &str) -> ScriptAction {
    barrierscope::classroom::parse_line(s).unwrap()
}

fn storm(f: impl FnOnce(&mut Settings)) -> Settings {
    let mut s = Settings::new(Snapshots::StormAcker);
    f(&mut s);
    s
}

/// A timeout no run here reaches: only crashes replay.
fn no_timeouts() -> Settings {
    storm(|s| s.mechanism.storm.message_timeout = 1_000_000)
}

fn play(job: &str, settings: Settings, script: &[&str]) -> scenario::Played {
    let mut sc = Scenario::builtin(job, settings, 1);
    sc.actions = script.iter().map(|s| line(s)).collect();
    sc.play().unwrap_or_else(|e| panic!("{e}"))
}

/// The observer's model of a tree: it is complete when none of its tuples is on the wire and no
/// message of it is on its way to the acker.
fn open_roots(sim: &Sim) -> std::collections::BTreeSet<u64> {
    let storm = sim.storm().unwrap();
    let mut roots: std::collections::BTreeSet<u64> = storm.anchors.values().map(|t| t.root).collect();
    for q in &storm.to_acker {
        roots.extend(q.iter().map(AckMessage::root));
    }
    roots
}

/// Steps the run with `Auto` and, after every step, checks the acker against the model: every
/// pending value is the XOR of its open edges; a tree completes at the step its last message is
/// applied, and no earlier; a tree still pending at the acker is open in the model.
fn check_xor_bookkeeping(sim: &mut Sim, steps: usize) -> Result<usize, TestCaseError> {
    let mut completed = 0;
    // Trees the acker dropped at a timeout: the rest of their messages rebuild an entry that can
    // never reach 0 (Storm's spout fails them by its own timeout).
    let mut forgotten = std::collections::BTreeSet::new();
    for _ in 0..steps {
        if !sim.has_work() {
            break;
        }
        let events = sim.step(Action::Auto).unwrap();
        for e in &events {
            if let Event::Mechanism(MechanismEvent::Storm(StormEvent::AckerForgot { root, .. })) = e {
                forgotten.insert(*root);
            }
        }
        let Some(storm) = sim.storm() else { continue };
        let open = open_roots(sim);
        for (root, entry) in storm.acker.entries() {
            prop_assert_eq!(entry.open.iter().fold(0, |a, e| a ^ e), entry.val, "val is the XOR of the open edges");
            if entry.spout.is_some() && !forgotten.contains(&root) {
                prop_assert_ne!(entry.val, 0, "a pending tree with a known spout is never at 0");
                prop_assert!(open.contains(&root), "pending at the acker while the model says complete");
            }
        }
        for e in &events {
            if let Event::Mechanism(MechanismEvent::Storm(StormEvent::TreeCompleted { root, .. })) = e {
                completed += 1;
                prop_assert!(!open.contains(root), "completed while a tuple or a message of it is still out");
            }
        }
    }
    Ok(completed)
}

#[test]
fn xor_bookkeeping_on_every_builtin_job() {
    for job in BUILTIN_NAMES {
        for seed in 0..20 {
            let mut sim =
                Scenario::builtin(job, storm(|s| s.mechanism.storm.message_timeout = 1_000_000), seed).sim().unwrap();
            let completed = check_xor_bookkeeping(&mut sim, 100_000).unwrap();
            let records = sim.graph.records.len();
            assert_eq!(completed, records, "{job} seed {seed}: every tree completes once");
            let storm = sim.storm().unwrap();
            assert!(storm.acker.is_empty() && storm.anchors.is_empty());
            for s in sim.graph.sources() {
                assert_eq!(sim.committed_offset(s) as usize, sim.graph.task(s).log.len(), "{job}: all committed");
            }
            assert_eq!(
                sim.ledger().state.exactly_once as usize,
                records,
                "{job}: no failure, no timeout: exactly once"
            );
        }
    }
}

#[test]
fn a_timeout_fails_the_tuple_and_the_spout_replays_it_before_new_ones() {
    // Timeout 2 steps: a (read at step 0) is in the newest bucket when the maps rotate after step
    // 1, and falls out at the rotation after step 3.
    let settings = storm(|s| s.mechanism.storm.message_timeout = 2).with_sink(SinkMode::Append);
    let run = play("line-sink", settings, &["read Source", "read Source", "read Source", "read Source", "read Source"]);
    let timed_out: Vec<(usize, &str)> = run
        .events
        .iter()
        .enumerate()
        .flat_map(|(i, ev)| ev.iter().map(move |e| (i, e)))
        .filter_map(|(i, e)| match e {
            Event::Mechanism(MechanismEvent::Storm(StormEvent::TupleTimedOut { record, .. })) => {
                Some((i, run.sim.record_label(*record)))
            }
            _ => None,
        })
        .collect();
    assert_eq!(timed_out, vec![(3, "a"), (3, "b")], "between T and 2T after emission");
    // The fifth read replays a, the oldest failed offset, as a new tree.
    assert!(matches!(run.events[4][0], Event::Read { offset: 0, replayed: true, .. }));
    let mut sim = run.sim;
    sim.play_line(&ScriptAction::RunToEnd, 100_000, OnRefusal::Stop, &mut |_, _| {}).unwrap();
    let l = sim.ledger();
    let dup = l.external_labels(Verdict::Duplicated);
    assert!(dup.contains(&"a") && dup.contains(&"b"), "the original and the replay both reach the sink: {dup:?}");
    assert_eq!(l.external.unwrap().lost, 0);
}

#[test]
fn the_stale_ack_of_a_timed_out_tree_is_ignored() {
    // Timeout 3: a, read at step 0, is rotated out after step 5, while its tree is still being
    // acked; the tree then completes and its ack reaches the spout, which no longer knows it.
    let settings = storm(|s| s.mechanism.storm.message_timeout = 3).with_sink(SinkMode::Append);
    let script = [
        "read Source",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Count->Sink",
        "ack Source",
        "ack Map",
        "ack Count",
        "ack Sink",
        "answer Source",
    ];
    let run = play("line-sink", settings, &script);
    assert!(
        matches!(
            run.events[5][..],
            [_, Event::Mechanism(MechanismEvent::Storm(StormEvent::TupleTimedOut { offset: 0, .. }))]
        ),
        "{:?}",
        run.events[5]
    );
    assert!(matches!(
        run.events[7][..],
        [
            Event::Mechanism(MechanismEvent::Storm(StormEvent::AckerUpdated { val: 0, .. })),
            Event::Mechanism(MechanismEvent::Storm(StormEvent::TreeCompleted { .. }))
        ]
    ));
    assert!(
        matches!(run.events[8][..], [Event::Mechanism(MechanismEvent::Storm(StormEvent::StaleAckIgnored { .. }))]),
        "{:?}",
        run.events[8]
    );
    assert_eq!(run.sim.committed_offset(TaskId(0)), 0, "the failed offset is not committed");
    assert!(run.sim.storm().unwrap().spouts[0].retry.contains(&0), "a will be emitted again");
}

/// Count->Sink unanchored: Count acks a with no anchored child, so a's tree completes and its
/// offset is committed while a is still on its way to the sink. A crash then loses a for good;
/// anchored, the same schedule replays it.
#[test]
fn an_unanchored_edge_loses_what_a_crash_catches_on_it() {
    let script = [
        "read Source",
        "deliver Source->Map",
        "deliver Map->Count",
        "ack Source",
        "ack Map",
        "ack Count",
        "answer Source",
        "crash",
        "restore",
        "end",
    ];
    let unanchored = storm(|s| {
        s.mechanism.storm.unanchored = vec!["Count->Sink".into()];
        s.mechanism.storm.message_timeout = 1_000_000;
    });
    let run = play("line-sink", unanchored, &script);
    assert_eq!(run.sim.ledger().external_labels(Verdict::Lost), vec!["a"]);

    let anchored = [
        "read Source",
        "deliver Source->Map",
        "deliver Map->Count",
        "ack Source",
        "ack Map",
        "ack Count",
        "crash",
        "restore",
        "end",
    ];
    let run = play("line-sink", no_timeouts(), &anchored);
    let l = run.sim.ledger();
    assert_eq!(l.external.unwrap().exactly_once as usize, l.rows.len(), "{:?}", l.rows);
}

#[test]
fn the_spouts_own_edges_cannot_be_unanchored() {
    let bad = storm(|s| s.mechanism.storm.unanchored = vec!["Source->Map".into()]);
    let err = Scenario::builtin("line", bad, 1).sim().unwrap_err().to_string();
    assert!(err.contains("message id"), "{err}");
    let unknown = storm(|s| s.mechanism.storm.unanchored = vec!["Map->Nowhere".into()]);
    assert!(Scenario::builtin("line", unknown, 1).sim().unwrap_err().to_string().contains("no such edge"));
}

#[test]
fn acking_off_is_at_most_once() {
    let run = play(
        "line-sink",
        storm(|s| s.mechanism.storm.ackers = 0),
        &["read Source", "read Source", "read Source", "crash", "restore", "end"],
    );
    let l = run.sim.ledger();
    assert_eq!(l.external_labels(Verdict::Lost), vec!["a", "b", "c"], "committed as emitted, never replayed");
    assert_eq!(l.external.unwrap().duplicated, 0);
    // Nothing to step to an acker.
    let sim = Scenario::builtin("line", storm(|s| s.mechanism.storm.ackers = 0), 1).sim().unwrap();
    assert!(sim.check(barrierscope::engine::mechanisms::storm::steps::to_acker(TaskId(0))).is_err());
}

/// a goes all the way to the sink, but its acks are still on their way when the worker dies: the
/// spout resumes at its committed offset 0 and a is written again. The count Storm kept in memory
/// is gone, and the verdict says so.
#[test]
fn a_crash_duplicates_in_an_append_sink_and_loses_nothing() {
    let script =
        ["read Source", "deliver Source->Map", "deliver Map->Count", "deliver Count->Sink", "crash", "restore", "end"];
    let run = play("line-sink", no_timeouts(), &script);
    let l = run.sim.ledger();
    assert_eq!(l.external_labels(Verdict::Duplicated), vec!["a"]);
    assert_eq!(l.external.unwrap().lost, 0);

    // b fully acked and committed before the crash: not replayed; Count's count of b is gone.
    let mut acked = vec!["read Source"];
    acked.extend(["deliver Source->Map", "deliver Map->Count", "deliver Count->Sink"]);
    acked.extend(["ack Source", "ack Map", "ack Count", "ack Sink", "answer Source", "crash", "restore", "end"]);
    let run = play("line-sink", no_timeouts(), &acked);
    let l = run.sim.ledger();
    assert_eq!(l.state_labels(Verdict::Lost), vec!["a"], "Storm saves no state: the count of a died with the worker");
    assert_eq!(l.row("a").unwrap().external_verdict, Some(Verdict::ExactlyOnce));
}

#[test]
fn nimbus_dying_changes_nothing_that_runs() {
    for job in BUILTIN_NAMES {
        let plain = {
            let mut sim = Scenario::builtin(job, storm(|_| {}), 3).sim().unwrap();
            sim.play_line(&ScriptAction::Auto(7), 7, OnRefusal::Stop, &mut |_, _| {}).unwrap();
            sim
        };
        let mut sim = Scenario::builtin(job, storm(|_| {}), 3).sim().unwrap();
        sim.play_line(&ScriptAction::Auto(7), 7, OnRefusal::Stop, &mut |_, _| {}).unwrap();
        let events = sim.step(Action::CrashJobManager).unwrap();
        assert_eq!(events, vec![Event::Mechanism(MechanismEvent::Storm(StormEvent::NimbusDown))]);
        assert!(sim.running() && !sim.jobmanager_up());
        assert!(sim.check(Action::CrashJobManager).is_err(), "already down");
        // Everything that ran still runs: the same tasks, channels and acker.
        assert_eq!(sim.tasks(), plain.tasks());
        assert_eq!(sim.channels(), plain.channels());
        assert_eq!(sim.storm(), plain.storm());
        assert!(sim.check(Action::Auto).is_ok() || !plain.has_work());
        assert_eq!(
            sim.step(Action::Restore).unwrap(),
            vec![Event::Mechanism(MechanismEvent::Storm(StormEvent::NimbusRestarted))]
        );
        assert!(sim.jobmanager_up());
    }
}

/// Issue 26: Storm's supervisors restart a worker that dies without Nimbus ("supervisors will
/// continue to restart workers if they die"). With Nimbus down, a worker crash is restarted by
/// the first restore, Nimbus stays down, and a second restore brings Nimbus back. Model: the same
/// run with Nimbus up ends with the same verdicts, tasks and output.
#[test]
fn a_supervisor_restarts_a_dead_worker_while_nimbus_is_down() {
    let settings = no_timeouts().with_sink(SinkMode::Append);
    let mut up = Scenario::builtin("line-sink", settings.clone(), 1).sim().unwrap();
    let mut down = Scenario::builtin("line-sink", settings, 1).sim().unwrap();
    for sim in [&mut up, &mut down] {
        sim.play_line(&ScriptAction::Auto(6), 6, OnRefusal::Stop, &mut |_, _| {}).unwrap();
    }
    assert_eq!(
        down.step(Action::CrashJobManager).unwrap(),
        vec![Event::Mechanism(MechanismEvent::Storm(StormEvent::NimbusDown))]
    );
    for sim in [&mut up, &mut down] {
        sim.step(Action::CrashTask { task: TaskId(1) }).unwrap();
    }
    let restarted = down.step(Action::Restore).unwrap();
    assert!(
        !restarted.contains(&Event::Mechanism(MechanismEvent::Storm(StormEvent::NimbusRestarted))),
        "the supervisor, not Nimbus: {restarted:?}"
    );
    assert_eq!(restarted[0], Event::Mechanism(MechanismEvent::Storm(StormEvent::SupervisorRestarted)), "{restarted:?}");
    assert_eq!(restarted[1..], up.step(Action::Restore).unwrap()[..], "the same restart as with Nimbus up");
    assert!(down.running() && !down.jobmanager_up(), "Nimbus is still down");
    assert_eq!(
        down.step(Action::Restore).unwrap(),
        vec![Event::Mechanism(MechanismEvent::Storm(StormEvent::NimbusRestarted))]
    );
    for sim in [&mut up, &mut down] {
        sim.play_line(&ScriptAction::RunToEnd, 100_000, OnRefusal::Stop, &mut |_, _| {}).unwrap();
    }
    assert_eq!(down.ledger().rows, up.ledger().rows);
}

#[derive(Clone, Copy, Debug)]
enum Move {
    Auto,
    Crash,
    CrashTask(u8),
    CrashNimbus,
    Restore,
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec(
        prop_oneof![
            14 => Just(Move::Auto),
            1 => Just(Move::Crash),
            1 => any::<u8>().prop_map(Move::CrashTask),
            1 => Just(Move::CrashNimbus),
            2 => Just(Move::Restore),
        ],
        0..120,
    )
}

fn run(job: &str, settings: Settings, seed: u64, moves: &[Move]) -> Sim {
    let mut sim = Scenario::builtin(job, settings, seed).sim().unwrap();
    let mut ignore = |_: Action, _: &[Event]| {};
    for m in moves {
        let l = match *m {
            Move::Auto => ScriptAction::Auto(1),
            Move::Crash => ScriptAction::Crash,
            Move::CrashTask(t) => ScriptAction::CrashTask(sim.graph.tasks[t as usize % sim.tasks().len()].name.clone()),
            Move::CrashNimbus => ScriptAction::CrashJobManager,
            Move::Restore => ScriptAction::Restore,
        };
        sim.play_line(&l, 1, OnRefusal::Skip, &mut ignore).unwrap();
    }
    if sim.down().is_some() {
        sim.play_line(&ScriptAction::Restore, 1, OnRefusal::Stop, &mut ignore).unwrap();
    }
    sim.play_line(&ScriptAction::RunToEnd, 200_000, OnRefusal::Stop, &mut ignore).unwrap();
    sim
}

proptest! {
    #![proptest_config(config())]

    /// With acking and every edge anchored, a record reaches the sink at least once whatever
    /// crashes (and timeouts, at a random message timeout) the schedule holds.
    #[test]
    fn anchored_and_acked_no_record_is_lost_at_the_sink(
        job in prop::sample::select(vec!["line-sink", "keyed-shuffle"]),
        seed in any::<u64>(),
        timeout in 20u64..60,
        m in moves(),
    ) {
        let sim = run(job, storm(|s| s.mechanism.storm.message_timeout = timeout), seed, &m);
        let l = sim.ledger();
        let e = l.external.unwrap();
        prop_assert_eq!(e.lost + e.pending, 0, "{:?}", l.rows);
    }

    /// With acking off nothing is ever replayed: never a duplicate, whatever the crashes.
    #[test]
    fn acking_off_never_duplicates(
        job in prop::sample::select(vec!["line-sink", "keyed-shuffle"]),
        seed in any::<u64>(),
        m in moves(),
    ) {
        let sim = run(job, storm(|s| s.mechanism.storm.ackers = 0), seed, &m);
        let l = sim.ledger();
        prop_assert_eq!(l.external.unwrap().duplicated, 0, "{:?}", l.rows);
        prop_assert_eq!(l.state.duplicated, 0, "{:?}", l.rows);
    }

    /// The XOR bookkeeping holds on random schedules of every job, crash-free.
    #[test]
    fn the_xor_value_is_zero_exactly_when_the_tree_is_complete(
        job in prop::sample::select(BUILTIN_NAMES.to_vec()),
        seed in any::<u64>(),
        timeout in 2u64..40,
    ) {
        let mut sim = Scenario::builtin(job, storm(|s| s.mechanism.storm.message_timeout = timeout), seed).sim().unwrap();
        check_xor_bookkeeping(&mut sim, 3_000)?;
    }
}

/// Issue 26, 7: `storm-acker` with `message-timeout: 4` replays without end; a run to the end
/// stops at its cap and says why (`verdict/unfinished.rs`, through the catalogue's
/// `EndlessWatch`). Model: the failure-free run with the default timeout finishes far below the
/// same cap, and says nothing.
#[test]
fn a_run_that_stops_at_its_cap_says_so_and_names_the_timeout() {
    use barrierscope::engine::mechanisms::catalogue::endless::Endless;
    use barrierscope::engine::mechanisms::storm::endless_replay::EndlessReplay;
    use barrierscope::engine::{EndWatch, Lang, UnfinishedCause};
    fn storm(timeout: u64) -> Sim {
        let mut s = Settings::new(Snapshots::StormAcker);
        s.mechanism.storm.message_timeout = timeout;
        Scenario::builtin("line-sink", s, 1).sim().unwrap()
    }
    const CAP: usize = 20_000;
    let mut short = storm(4);
    let mut watch = EndWatch::default();
    short.run_to_end_each(CAP, &mut |_, ev| watch.observe(ev));
    let u = watch.unfinished(&short, CAP).expect("stopped at the cap");
    assert_eq!(u.steps, CAP);
    assert!(
        matches!(u.cause, UnfinishedCause::Endless(Endless::Storm(EndlessReplay { timeout: 4, timeouts: 1.., .. }))),
        "{u:?}"
    );
    for lang in [Lang::En, Lang::Zh] {
        assert!(u.message(lang).contains("4"), "{}", u.message(lang));
    }
    assert!(
        u.message(Lang::En).contains("did not finish")
            && u.message(Lang::En).contains("times out before it can complete")
    );
    let mut fine = storm(100);
    let mut watch = EndWatch::default();
    let taken = fine.run_to_end_each(CAP, &mut |_, ev| watch.observe(ev));
    assert!(taken < CAP / 10, "{taken}");
    assert_eq!(watch.unfinished(&fine, CAP), None);
}
