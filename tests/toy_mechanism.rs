//! The toy mechanism, `mechanisms/state_log.rs`, held to "Adding a mechanism": per-record state
//! logging at each task, after Kafka Streams' changelog topics (every update of a state store is
//! also written to a changelog, and a restarted task restores its store by reading the changelog
//! back; here without Kafka Streams' transactions). Each task, after every record it processes,
//! writes its state to a log of its own; each source, after every read, writes its offset. A
//! restart puts every task back to its latest entry, with no coordination between tasks.
//!
//! The mechanism is one file and one catalogue row, and no line of the engine's core names it.
//! Theory's prediction, which the tests check: nothing is ever duplicated (a task's state and its
//! log entry change in the same step); a record that is on a channel at the crash is lost, since
//! its sender's log has already moved past it and its receiver's has not reached it; with nothing
//! in flight at the crash, every record ends exactly once.

use barrierscope::engine::mechanisms::state_log::Changelog;
use barrierscope::engine::{Action, ChannelId, Event, RestoreFrom, Scenario, Settings, Sim, Strategy, TaskId};

fn toy(job: &str, seed: u64) -> Sim {
    Scenario::builtin(job, Settings::new(Strategy::StateLog), seed).sim().unwrap()
}

/// Records whose copy is on a channel now.
fn in_flight(sim: &Sim) -> std::collections::BTreeSet<u32> {
    (0..sim.graph.channels.len())
        .flat_map(|c| sim.queue(ChannelId(c as u16)).iter())
        .filter_map(|it| match it {
            barrierscope::engine::Item::Record { rec, .. } => Some(rec.id.0),
            _ => None,
        })
        .collect()
}

#[test]
fn without_a_crash_the_toy_ends_as_the_failure_free_run() {
    for job in ["line", "diamond", "keyed-shuffle"] {
        let mut sim = toy(job, 3);
        while sim.has_work() {
            sim.step(Action::Auto).unwrap();
        }
        let l = sim.ledger();
        assert_eq!((l.state.lost, l.state.duplicated), (0, 0), "{job}");
        assert!(l.state.exactly_once > 0, "{job}: the records went through");
    }
}

#[test]
fn a_crash_loses_exactly_what_was_in_flight_and_duplicates_nothing() {
    let mut with_loss = 0;
    for seed in 0..1000u64 {
        let mut sim = toy("line", seed);
        let crash_at = 3 + seed % 17;
        for _ in 0..crash_at {
            if sim.has_work() {
                sim.step(Action::Auto).unwrap();
            }
        }
        let flying = in_flight(&sim);
        sim.step(Action::Crash).unwrap();
        let restored = sim.step(Action::Restore).unwrap();
        assert!(restored.iter().any(|e| matches!(e, Event::Restored { from: RestoreFrom::OwnSaves })), "seed {seed}");
        while sim.has_work() {
            sim.step(Action::Auto).unwrap();
        }
        let l = sim.ledger();
        assert_eq!(l.state.duplicated, 0, "seed {seed}: a logged state never counts a record twice");
        assert_eq!(l.state.lost as usize, flying.len(), "seed {seed}: lost = in flight at the crash {flying:?}");
        with_loss += usize::from(!flying.is_empty());
    }
    assert!(with_loss > 100, "the crashes caught records in flight ({with_loss} of 1000)");
}

#[test]
fn the_toy_takes_no_checkpoints_and_logs_each_read() {
    // No coordinator runs it: no checkpoints, and the mechanism's own restore.
    let mut sim = toy("line", 1);
    assert!(sim.check(Action::Checkpoint).is_err());
    sim.step(Action::Read { task: TaskId(0) }).unwrap();
    let log = sim.mechanism_durable().get::<Changelog>().expect("the toy's slot");
    assert!(log.0[0].is_some() && log.0[1..].iter().all(Option::is_none), "only the source's read is logged: {log:?}");
}
