//! The space-time diagram's arrows (issue 15), checked against models:
//! - every record arrow's receipt is the step whose events say its task processed (or recorded,
//!   or discarded) that record from that channel, and every such event has exactly one arrow;
//!   every barrier arrow's receipt is the step of that channel's `BarrierReceived`/`BarrierIgnored`;
//! - on a crash-free run, the arrows the diagram shows crossing any drawn cut (received at or
//!   before the receiver's point and sent after the sender's: orphan; sent at or before the
//!   sender's point and received after the receiver's or never: in transit) are exactly the ones
//!   `drawn_cut::classify` names; 1,000 cases (PROPTEST_CASES overrides);
//! - crashes break every line the crash stopped, and each restore starts a new segment.
#![cfg(not(target_arch = "wasm32"))]

mod cases;
use barrierscope::engine::space_time::{diagram, thin, Carries, Diagram, MarkKind};
use barrierscope::engine::verdict::drawn_cut::{classify, Crossing};
use barrierscope::engine::{Action, Event, Scenario, Settings, Strategy, TaskId, Timeline};
use cases::config;
use proptest::prelude::*;

fn run(job: &str, strategy: Strategy, seed: u64, steps: usize, crash_at: Option<usize>) -> Timeline {
    let mut s = Settings::new(strategy);
    if strategy.uses_coordinator() {
        s.checkpoint_interval = Some(4 + seed % 7);
    }
    let mut tl = Timeline::new(Scenario::builtin(job, s, seed).sim().unwrap());
    for i in 0..steps {
        let a = if crash_at == Some(i) { Action::Crash } else { Action::Auto };
        if tl.apply(a).is_err() && tl.apply(Action::Auto).is_err() {
            break;
        }
    }
    tl
}

/// Every receipt in the diagram against the events of its step.
fn receipts_match_events(tl: &Timeline, d: &Diagram) {
    let events = tl.events_between(0, tl.len());
    let mut processed = 0usize;
    let mut barriers = 0usize;
    for (i, out) in &events {
        let step = *i as u64 + 1;
        for e in out {
            match *e {
                Event::Processed { channel, record, .. }
                | Event::InFlightRecorded { channel, record, .. }
                | Event::RecordDiscarded { channel, record, .. } => {
                    processed += 1;
                    let n = d
                        .messages
                        .iter()
                        .filter(|m| m.channel == channel && m.record() == Some(record) && m.received_at == Some(step))
                        .count();
                    assert!(n >= 1, "step {step}: {record:?} on {channel:?} has no arrow");
                }
                Event::BarrierReceived { channel, checkpoint, .. }
                | Event::BarrierIgnored { channel, checkpoint, .. } => {
                    barriers += 1;
                    assert!(
                        d.messages.iter().any(|m| m.channel == channel
                            && m.carries == Carries::Barrier(checkpoint)
                            && m.received_at == Some(step)),
                        "step {step}: barrier {checkpoint:?} on {channel:?} has no arrow"
                    );
                }
                _ => {}
            }
        }
    }
    let received = |barrier: bool| {
        d.messages
            .iter()
            .filter(|m| m.received_at.is_some() && matches!(m.carries, Carries::Barrier(_)) == barrier)
            .count()
    };
    assert_eq!(received(false), processed, "one received record arrow per delivery");
    assert_eq!(received(true), barriers, "one received barrier arrow per barrier delivery");
    for m in &d.messages {
        assert!(m.received_at.is_none_or(|r| r >= m.sent_at), "an arrow goes forward in time: {m:?}");
        assert!(m.sent_at >= 1 && m.sent_at <= d.steps);
    }
}

#[test]
fn the_arrows_are_the_runs_deliveries_under_every_snapshotting_strategy() {
    for strategy in [Strategy::Timers, Strategy::Aligned, Strategy::Unaligned, Strategy::AtLeastOnce] {
        for job in ["line", "diamond", "keyed-shuffle"] {
            let tl = run(job, strategy, 3, 60, Some(25));
            let d = diagram(&tl);
            assert!(d.messages.iter().any(|m| matches!(m.carries, Carries::Record { .. })), "{job}: records drawn");
            if strategy.uses_coordinator() {
                assert!(d.messages.iter().any(|m| matches!(m.carries, Carries::Barrier(_))), "{job}: barriers drawn");
            }
            receipts_match_events(&tl, &d);
        }
    }
}

#[test]
fn a_crash_breaks_the_lines_and_a_restore_starts_new_segments() {
    let mut tl = run("line", Strategy::Aligned, 1, 20, None);
    tl.apply(Action::Crash).unwrap();
    let crashed = tl.len() as u64;
    tl.apply(Action::Restore).unwrap();
    let restored = tl.len() as u64;
    let d = diagram(&tl);
    for t in 0..d.tasks.len() {
        let t = TaskId(t as u16);
        assert!(d.marks.iter().any(|m| m.task == t && m.step == crashed && m.kind == MarkKind::Crash));
        assert!(d.marks.iter().any(|m| m.task == t && m.step == restored && m.kind == MarkKind::Restore));
        assert!(!d.down_after(t, crashed - 1) && d.down_after(t, crashed) && !d.down_after(t, restored));
    }
    // What was in flight at the crash is never received.
    assert!(d.messages.iter().filter(|m| m.sent_at < crashed).all(|m| m.received_at.is_none_or(|r| r < crashed)));
}

#[test]
fn thinning_draws_barriers_and_the_marked_arrows_at_300_in_flight() {
    let mut s = Settings::new(Strategy::Aligned);
    s.checkpoint_interval = Some(9);
    let mut sc = Scenario::builtin("keyed-shuffle", s, 5);
    sc.input =
        Some(barrierscope::engine::generated_input(&barrierscope::engine::builtin("keyed-shuffle").unwrap().spec, 200));
    let mut tl = Timeline::new(sc.sim().unwrap());
    for _ in 0..400 {
        if tl.apply(Action::Auto).is_err() {
            break;
        }
    }
    let d = diagram(&tl);
    assert!(d.messages.len() > 300, "{} messages", d.messages.len());
    let must: Vec<bool> = d.messages.iter().map(|m| m.sent_at % 50 == 0).collect();
    let keep = thin(&d, 0, d.steps, &must, 80);
    let forced = d.messages.iter().zip(&must).filter(|(m, k)| **k || matches!(m.carries, Carries::Barrier(_))).count();
    assert_eq!(keep.iter().filter(|k| **k).count(), forced.max(80));
    for (i, m) in d.messages.iter().enumerate() {
        if must[i] || matches!(m.carries, Carries::Barrier(_)) {
            assert!(keep[i]);
        }
    }
    // A window of time draws only what is in it.
    let keep = thin(&d, 100, 120, &vec![false; d.messages.len()], 1000);
    for (i, m) in d.messages.iter().enumerate() {
        if keep[i] {
            assert!(m.sent_at <= 120 && m.received_at.is_none_or(|r| r >= 100));
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// The crossings read off the diagram are exactly the drawn cut's classification.
    #[test]
    fn the_arrows_crossing_a_drawn_cut_are_the_drawn_cuts_classification(
        strategy in 0usize..3,
        seed in 0u64..1000,
        steps in 0usize..60,
        raw in prop::collection::vec(0u64..1000, 4),
    ) {
        let strategy = [Strategy::Timers, Strategy::Aligned, Strategy::Unaligned][strategy];
        let tl = run("line", strategy, seed, steps, None);
        let d = diagram(&tl);
        let points: Vec<u64> = raw[..d.tasks.len()].iter().map(|r| r % (d.steps + 1)).collect();
        let cut = classify(&tl, &points).unwrap();
        let mut expected: Vec<(Crossing, u16, u64, Option<u64>)> = cut
            .arrows
            .iter()
            .map(|a| (a.crossing, a.channel.0, a.sent_at.unwrap(), a.received_at))
            .collect();
        let mut seen: Vec<(Crossing, u16, u64, Option<u64>)> = d
            .messages
            .iter()
            .filter(|m| m.record().is_some())
            .filter_map(|m| {
                let (ps, pr) = (points[m.from.index()], points[m.to.index()]);
                let orphan = m.sent_at > ps && m.received_at.is_some_and(|r| r <= pr);
                let transit = m.sent_at <= ps && m.received_at.is_none_or(|r| r > pr);
                let c = if orphan { Crossing::Orphan } else if transit { Crossing::InTransit } else { return None };
                Some((c, m.channel.0, m.sent_at, m.received_at))
            })
            .collect();
        expected.sort();
        seen.sort();
        prop_assert_eq!(seen, expected);
        receipts_match_events(&tl, &d);
    }
}
