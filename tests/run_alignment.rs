//! Two runs aligned by what happened (`engine::run_alignment`), checked against models:
//! - a run aligned with itself is column for column the same run;
//! - the barrier story (aligned) replayed under per-task timers: the checkpoint and the barriers'
//!   deliveries are the first run's only, every record is received in the same column in both runs
//!   (the second never falls behind), and only those columns differ;
//! - 1,000 cases (PROPTEST_CASES overrides), any job run, any two snapshotting strategies: every
//!   record the second run receives is received in the same column, on the same channel, by the
//!   first (so a column that differs is one where one run took a step the other did not), both
//!   runs' steps appear once each and in order, and the second run's history replays.
#![cfg(not(target_arch = "wasm32"))]

mod cases;
use barrierscope::engine::runs::run_alignment::align;
use barrierscope::engine::space_time::{diagram, Diagram};
use barrierscope::engine::{Action, ChannelId, Scenario, Settings, Strategy, TaskId, Timeline};
use cases::config;
use proptest::prelude::*;

fn start(job: &str, strategy: Strategy, seed: u64) -> barrierscope::engine::Sim {
    let mut s = Settings::new(strategy);
    if strategy.uses_coordinator() {
        s.checkpoint_interval = Some(4 + seed % 7);
    }
    Scenario::builtin(job, s, seed).sim().unwrap()
}

/// Each record receipt: (record, channel, step received).
fn receipts(d: &Diagram) -> Vec<(u32, u16, u64)> {
    d.messages.iter().filter_map(|m| Some((m.record()?.0, m.channel.0, m.received_at?))).collect()
}

#[test]
fn a_run_aligned_with_itself_is_the_same_run() {
    let mut tl = Timeline::new(start("two-inputs", Strategy::Aligned, 3));
    for _ in 0..40 {
        if tl.apply(Action::Auto).is_err() {
            break;
        }
    }
    let a = align(&tl, tl.initial().clone());
    let n = tl.len() as u64;
    assert_eq!(a.columns.len() as u64, n);
    assert!(a.columns.iter().enumerate().all(|(i, c)| c.first == Some(i as u64 + 1) && c.second == c.first));
    assert!(!a.columns.iter().any(|c| c.differs()));
    assert_eq!(receipts(&diagram(&a.second)), receipts(&diagram(&tl)));
}

#[test]
fn the_barrier_story_under_timers_differs_only_where_the_barrier_was() {
    let (read, ch0, ch1) = (
        Action::Read { task: TaskId(0) },
        Action::Deliver { channel: ChannelId(0) },
        Action::Deliver { channel: ChannelId(1) },
    );
    let mut moves = vec![read, read, read, Action::Checkpoint];
    moves.extend([ch0; 4]);
    moves.extend([ch1; 4]);
    moves.extend([read, ch0, ch1]);
    // No periodic checkpoints: the one checkpoint is the story's.
    let plain = |s: Strategy| Scenario::builtin("line", Settings::new(s), 1).sim().unwrap();
    let first = Timeline::from_actions(plain(Strategy::Aligned), &moves).unwrap();
    let a = align(&first, plain(Strategy::Timers));
    // Step 4 (the checkpoint), 8 (barrier 1 to Map) and 12 (barrier 1 to Count) are the first
    // run's only: timers take no checkpoint and send no barrier.
    let only_first: Vec<u64> = a.columns.iter().filter(|c| c.second.is_none()).filter_map(|c| c.first).collect();
    assert_eq!(only_first, [4, 8, 12]);
    assert!(a.columns.iter().all(|c| c.first.is_some()), "the timers run has nothing the first lacks");
    assert_eq!(a.second.len(), moves.len() - 3);
    // Every record is received in the same column in both runs: a, b, c, d on both channels.
    let (r1, r2) = (receipts(&diagram(&first)), receipts(&diagram(&a.second)));
    assert_eq!(r1.len(), 8);
    let col1: Vec<_> = r1.iter().map(|&(r, c, s)| (r, c, a.column_of_first(s))).collect();
    let col2: Vec<_> = r2.iter().map(|&(r, c, s)| (r, c, a.column_of_second(s))).collect();
    assert_eq!(col1, col2);
    // Drawn on the first run's steps, the second run's receipts are the first's, and the
    // first-run points of a cut map to the second run's steps taken up to there.
    let drawn = a.second_on_first_steps(&diagram(&a.second));
    assert_eq!(receipts(&drawn), r1);
    assert_eq!(a.first_only(), [4, 8, 12]);
    assert_eq!((a.second_point(3), a.second_point(4), a.second_point(8), a.second_point(15)), (3, 3, 6, 12));
    // By step number instead, the second run falls behind after the checkpoint: d's receipt at
    // Count is step 15 in the first run and 12 in the second.
    assert_ne!(r1, r2);
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_second_run_receives_a_record_only_where_the_first_receives_it(
        job in 0usize..3,
        one in 0usize..4,
        two in 0usize..4,
        seed in 0u64..1000,
        steps in 0usize..60,
        crash_at in prop::option::of(0usize..60),
    ) {
        let job = ["line", "two-inputs", "keyed-shuffle"][job];
        let strategies = [Strategy::Timers, Strategy::Aligned, Strategy::Unaligned, Strategy::AtLeastOnce];
        let mut first = Timeline::new(start(job, strategies[one], seed));
        for i in 0..steps {
            let a = if crash_at == Some(i) { Action::Crash } else { Action::Auto };
            if first.apply(a).is_err() && first.apply(Action::Auto).is_err() {
                break;
            }
        }
        let a = align(&first, start(job, strategies[two], seed));
        let firsts: Vec<u64> = a.columns.iter().filter_map(|c| c.first).collect();
        let seconds: Vec<u64> = a.columns.iter().filter_map(|c| c.second).collect();
        prop_assert_eq!(firsts, (1..=first.len() as u64).collect::<Vec<_>>());
        prop_assert_eq!(seconds, (1..=a.second.len() as u64).collect::<Vec<_>>());
        let r1 = receipts(&diagram(&first));
        for x in receipts(&a.second_on_first_steps(&diagram(&a.second))) {
            prop_assert!(r1.contains(&x), "drawn on the first run's steps, {:?} is not the first run's receipt", x);
        }
        for (r, c, s) in receipts(&diagram(&a.second)) {
            let col = a.column_of_second(s).unwrap();
            let f = a.columns[col].first;
            prop_assert!(f.is_some(), "record {} on channel {} received in a column of the second run only", r, c);
            prop_assert!(r1.contains(&(r, c, f.unwrap())), "record {} on channel {}: column {} receives something else in the first run", r, c, col);
        }
    }
}
