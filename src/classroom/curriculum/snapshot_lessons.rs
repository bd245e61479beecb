//! The lessons on snapshots, against the engine (lessons 1 to 8, 14 and 16): state, the timers
//! that lose or duplicate a, b, c, the barrier, alignment and backpressure, at-least-once,
//! unaligned checkpoints, stop-the-world, the cut on the space-time diagram, shown or drawn, and
//! checkpoints under backpressure with their two remedies.

use super::play::{index, labels, play_all, play_to};
use crate::classroom::curriculum::builtins;
use crate::classroom::lessons::{OnDiagram, Shows};
use crate::classroom::progress::{actions_for, Progress};
use crate::engine::core::ledger::Verdict;
use crate::engine::Action;
use crate::engine::{CheckpointId, CheckpointStatus};

#[test]
fn lesson_1_counts_abc() {
    let sim = play_all(0);
    let l = sim.ledger();
    assert_eq!(l.row("a").unwrap().state, 1);
    assert_eq!(sim.source_offset(crate::engine::TaskId(0)), 3);
}

#[test]
fn lesson_2_timers_lose_abc() {
    let i = index("timers-lose");
    // Before the crash the cut shows a, b, c in transit.
    let before = play_to(i, builtins()[i].steps.len() - 2);
    let cut = before.latest_cut().unwrap();
    assert_eq!(labels(&before, cut.in_transit()), ["a", "b", "c"]);
    assert!(cut.orphans().is_empty());
    let sim = play_all(i);
    let l = sim.ledger();
    assert_eq!(l.state_labels(Verdict::Lost), ["a", "b", "c"]);
    assert_eq!(l.state_labels(Verdict::ExactlyOnce), ["d", "e", "f", "g", "h"]);
    assert_eq!(sim.source_offset(crate::engine::TaskId(0)), 8);
}

#[test]
fn lesson_3_timers_duplicate_abc() {
    let i = index("timers-duplicate");
    let before = play_to(i, builtins()[i].steps.len() - 2);
    let cut = before.latest_cut().unwrap();
    assert_eq!(labels(&before, cut.orphans()), ["a", "b", "c"]);
    let l = play_all(i).ledger();
    assert_eq!(l.state_labels(Verdict::Duplicated), ["a", "b", "c"]);
    assert_eq!(l.row("a").unwrap().state, 2);
    assert_eq!(l.state_labels(Verdict::ExactlyOnce), ["d", "e", "f", "g", "h"]);
}

#[test]
fn lesson_4_barrier_is_exactly_once() {
    let i = index("barrier");
    let sim = play_all(i);
    let cp = &sim.stats.history[0];
    assert_eq!(cp.status, CheckpointStatus::Completed);
    assert_eq!((cp.acked, cp.total), (3, 3));
    assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
    assert_eq!(sim.ledger().state.exactly_once, 8);
}

#[test]
fn lesson_5_alignment_blocks_buffers_and_backpressures() {
    let i = index("alignment");
    let restart = builtins()[i].steps.iter().position(|s| s.restart.is_some()).unwrap();
    // Unbounded: b waits behind the barrier on the blocked channel; alignment takes 2 steps.
    let first = play_to(i, restart - 1);
    assert_eq!(first.stats.history[0].subtasks[2].alignment, Some(2));
    // Bounded channels: Left is backpressured and alignment takes 5 steps.
    let bounded = play_to(i, restart + 1);
    assert_eq!(bounded.settings.channel_capacity, Some(2));
    assert_eq!(bounded.stats.history[0].status, CheckpointStatus::Completed);
    assert_eq!(bounded.stats.history[0].subtasks[2].alignment, Some(5));
    let left = bounded.graph.task_by_name("Left").unwrap();
    let e = bounded.check(Action::Read { task: left }).unwrap_err().to_string();
    assert!(e.contains("backpressured"), "{e}");
    let sim = play_all(i);
    assert_eq!(sim.ledger().state.exactly_once, 10);
    assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
}

#[test]
fn lesson_6_no_alignment_duplicates_b() {
    let i = index("at-least-once");
    let before = play_to(i, builtins()[i].steps.len() - 2);
    assert_eq!(labels(&before, before.latest_cut().unwrap().orphans()), ["b"]);
    let l = play_all(i).ledger();
    assert_eq!(l.state_labels(Verdict::Duplicated), ["b"]);
    assert_eq!(l.state.lost, 0);
}

#[test]
fn lesson_7_unaligned_stores_in_flight_records_and_is_exactly_once() {
    let sim = play_all(index("unaligned"));
    let cp = &sim.stats.history[0];
    assert_eq!(cp.status, CheckpointStatus::Completed);
    assert_eq!(cp.in_flight, 4);
    assert_eq!(cp.duration(sim.tick), 2);
    assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
    assert_eq!(sim.ledger().state.exactly_once, 10);
}

#[test]
fn lesson_8_stop_the_world_stalls_and_is_exactly_once() {
    let sim = play_all(index("stop-the-world"));
    let cp = &sim.stats.history[0];
    assert_eq!(cp.status, CheckpointStatus::Completed);
    assert_eq!(cp.stall, Some(4));
    assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
    assert_eq!(sim.ledger().state.exactly_once, 8);
}

/// Lessons 2, 3 and 4 each have a step that shows their cut on the space-time diagram: broken
/// by the timers (a, b, c in transit; a, b, c orphans), consistent after the barrier. Only
/// lesson 14 has the learner draw.
#[test]
fn the_timers_and_barrier_lessons_show_their_cut_on_the_diagram() {
    for (id, broken) in [("timers-lose", Some((0, 3))), ("timers-duplicate", Some((3, 0))), ("barrier", None)] {
        let i = index(id);
        let steps: Vec<usize> =
            (0..builtins()[i].steps.len()).filter(|&k| builtins()[i].steps[k].diagram == OnDiagram::Show).collect();
        assert_eq!(steps.len(), 1, "{id}: one step shows the diagram");
        let k = steps[0];
        let cut = play_to(i, k).latest_cut().unwrap_or_else(|| panic!("{id}: a cut at step {}", k + 1));
        let found = (cut.orphans().len(), cut.in_transit().len());
        match broken {
            Some(expected) => {
                assert_eq!(found, expected, "{id}");
                assert!(builtins()[i].steps[k]
                    .shows
                    .contains(&Shows::CutBroken { orphans: expected.0, in_transit: expected.1 }));
            }
            None => {
                assert_eq!(found, (0, 0), "{id}");
                assert!(builtins()[i].steps[k].shows.contains(&Shows::CutConsistent));
            }
        }
        // The claim fails on the other verdict.
        let other =
            if broken.is_some() { Shows::CutConsistent } else { Shows::CutBroken { orphans: 0, in_transit: 0 } };
        assert!(other.check(&play_to(i, k)).is_err(), "{id}");
    }
    let drawing: Vec<&str> =
        builtins().iter().filter(|l| l.steps.iter().any(|s| s.diagram == OnDiagram::Draw)).map(|l| l.id).collect();
    assert_eq!(drawing, ["draw-a-cut"]);
}

/// Lesson 14: on its drawing step, every cut the learner can draw (every point on every line,
/// brute force) is checked against what the lesson says: some are consistent and some are
/// not (the slanted one it suggests, Source early and Count late, is not); a consistent cut has
/// no orphan; and a restore from a consistent cut ends every record that crosses no line
/// exactly once and loses each one in transit, as the last step says.
#[test]
fn lesson_14_draw_a_consistent_cut_says_what_a_restore_from_it_does() {
    use crate::engine::verdict::drawn_cut::{classify, restore_from};
    let i = index("draw-a-cut");
    let lesson = &builtins()[i];
    let k = lesson.steps.iter().position(|s| s.diagram == OnDiagram::Draw).unwrap();
    assert!(lesson.steps[k + 1..].iter().all(|s| s.play.is_empty()), "nothing plays after the drawing");
    let mut p = Progress::new(i);
    p.step = k;
    let (_, start, actions) = actions_for(&p).unwrap();
    let tl = crate::engine::Timeline::from_actions(start, &actions).unwrap();
    let end = tl.len() as u64;
    assert_eq!(end, 11, "the steps the words count");
    let sim = tl.current();
    assert!(sim.latest_cut().is_none(), "no cut is drawn for the learner");
    let (mut consistent, mut inconsistent, mut with_transit) = (0, 0, 0);
    for s in 0..=end {
        for m in 0..=end {
            for c in 0..=end {
                let points = [s, m, c];
                let cut = classify(&tl, &points).unwrap();
                if !cut.consistent() {
                    inconsistent += 1;
                    assert!(!cut.orphans().is_empty());
                    continue;
                }
                consistent += 1;
                let (_, restore) = restore_from(&tl, &points, 20_000).unwrap();
                let transit = cut.in_transit();
                with_transit += usize::from(!transit.is_empty());
                for row in &restore.ledger.rows {
                    let expected = if transit.contains(&row.record) { Verdict::Lost } else { Verdict::ExactlyOnce };
                    assert_eq!(row.state_verdict, expected, "cut {points:?}: {}", row.label);
                }
            }
        }
    }
    assert!(consistent > 0 && inconsistent > 0 && with_transit > 0, "{consistent} {inconsistent} {with_transit}");
    // The slanted cut the step suggests: Source at its start, Count at the end.
    assert!(!classify(&tl, &[0, end, end]).unwrap().consistent());
    assert!(classify(&tl, &[end, end, end]).unwrap().consistent());
    let words = lesson.steps[k + 1].say.en;
    assert!(words.contains("exactly once") && words.contains("in transit is lost"), "{words}");
}

/// Lesson 16's figures, as its words give them: aligned, checkpoint 1 expires behind the queues;
/// unaligned, it completes in 4 steps with 5 in-flight records persisted; debloated to a 3-step
/// target, in 13 steps with none, Count's input down to 1 buffer.
#[test]
fn lesson_16_backpressure_expires_aligned_and_completes_unaligned_or_debloated() {
    let i = index("backpressure");
    let held = play_to(i, 1);
    let source = held.graph.task_by_name("Source").unwrap();
    assert_eq!(held.task_class(source), Some(crate::engine::TaskClass::Backpressured));
    let aligned = play_to(i, 3);
    assert!(matches!(aligned.stats.history[0].status, CheckpointStatus::Failed(_)));
    let unaligned = play_to(i, 5);
    let cp = &unaligned.stats.history[0];
    assert_eq!((cp.status, cp.end_tick.unwrap() - cp.trigger_tick, cp.in_flight), (CheckpointStatus::Completed, 4, 5));
    let debloated = play_to(i, 7);
    let cp = &debloated.stats.history[0];
    assert_eq!((cp.status, cp.end_tick.unwrap() - cp.trigger_tick, cp.in_flight), (CheckpointStatus::Completed, 13, 0));
    let into_count = debloated.graph.channel_by_name("Map->Count").unwrap();
    assert_eq!(debloated.channel_buffers(into_count), Some(1));
}
