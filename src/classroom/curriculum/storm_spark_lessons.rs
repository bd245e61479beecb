//! The lessons on Storm and Spark Streaming, against the engine (lessons 11 and 13): b timed out
//! and replayed after c; a socket's records lost without the write-ahead log, a batch written
//! twice with it.

use super::play::{index, play_all};
use crate::classroom::curriculum::builtins;
use crate::classroom::progress::{actions_for, Progress};
use crate::engine::core::ledger::Verdict;

/// The Storm lesson: b times out though nothing crashed, and its replay lands after c.
#[test]
fn storm_lesson_replays_b_after_c() {
    let i = index("storm-acks");
    let sim = play_all(i);
    let l = sim.ledger();
    assert_eq!(l.state_labels(Verdict::Duplicated), vec!["b"], "{:?}", l.rows);
    assert_eq!(l.external_labels(Verdict::Duplicated), vec!["b"], "{:?}", l.rows);
    assert_eq!(l.state.lost + l.external.unwrap().lost, 0);
    let table: Vec<&str> = sim.external().visible().iter().map(|r| sim.record_label(r.record)).collect();
    assert_eq!(&table[..4], ["a", "b", "c", "b"], "a reader sees the replayed b after c");
    // Count's contributors to count(x), in the order it counted them.
    let crate::engine::OpState::Keyed { entries } = &sim.tasks()[2].state else { panic!("Count is keyed") };
    let x = entries.values().next().unwrap();
    let order: Vec<&str> = x.contributors.iter().map(|r| sim.record_label(*r)).collect();
    assert_eq!(&order[..4], ["a", "b", "c", "b"], "the replayed b comes after c");
    // The verdict says so: b took effect again after c at every task on its path, and a reader
    // of the sink sees it after c; nothing is missing.
    let b = l.row("b").unwrap();
    assert_eq!(l.order_labels(crate::engine::Order::OutOfOrder), ["b"]);
    let g = &sim.graph;
    let path: Vec<(crate::engine::ChannelId, bool)> = (0..g.channels.len())
        .map(|c| crate::engine::ChannelId(c as u16))
        .map(|c| (c, g.task(g.channel(c).to).kind == crate::engine::OperatorKind::Sink))
        .collect();
    assert_eq!(b.out_of_order_at.iter().map(|p| (p.channel, p.external)).collect::<Vec<_>>(), path);
    assert_eq!(l.complete.complete as usize, l.rows.len());
}

/// Lesson 13: from a socket, without the log f, g, h are lost; with it nothing is lost and
/// batch 1's output is written twice (it completed, but the crash came before the metadata
/// checkpoint said so); with a transactional output, exactly once. The latency its last
/// reveal quotes is the band's.
#[test]
fn micro_batches_lesson_reveals_what_it_says() {
    let i = index("micro-batches");
    let lesson = &builtins()[i];
    assert_eq!(SPARK_STORY[1..], *SPARK_REST);
    assert!(lesson.steps.iter().any(|s| s.play == SPARK_REST) && lesson.steps.iter().any(|s| s.play == SPARK_STORY));
    let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
    let outcomes = [
        (vec!["a", "b", "c", "d", "e"], vec!["f", "g", "h"], vec![]),
        (vec!["f", "g", "h"], vec![], vec!["a", "b", "c", "d", "e"]),
        (vec!["a", "b", "c", "d", "e", "f", "g", "h"], vec![], vec![]),
    ];
    for (k, (once, lost, twice)) in predicts.iter().zip(outcomes) {
        let mut p = Progress::new(i);
        p.step = *k;
        let (_, mut sim, actions) = actions_for(&p).unwrap();
        for a in actions {
            sim.step(a).unwrap();
        }
        for line in lesson.steps[*k].play {
            crate::classroom::play_lines(&mut sim, &[line]).unwrap();
        }
        let l = sim.ledger();
        assert_eq!(l.external_labels(Verdict::ExactlyOnce), once, "step {k}");
        assert_eq!(l.external_labels(Verdict::Lost), lost, "step {k}");
        assert_eq!(l.external_labels(Verdict::Duplicated), twice, "step {k}");
        if *k == predicts[2] {
            let a = sim.graph.records.iter().position(|r| r.label == "a").unwrap();
            let seen =
                sim.external().visible().iter().filter(|r| r.record.0 as usize == a).map(|r| r.tick + 1).min().unwrap();
            assert_eq!(seen - sim.durable_spark().received[a], 19, "a waited 19 steps");
        }
    }
}

/// Lesson 13, each run: a to e arrive and form batch 1, which runs to its end (Sink writes a to
/// e) while f, g, h arrive and form batch 2, which starts; then the driver crashes, a step before
/// its checkpoint writer would have recorded that batch 1 completed.
const SPARK_STORY: &[&str] =
    &["wait x4", "deliver Source->Map x5", "deliver Map->Count x5", "deliver Count->Sink x5", "crash-jm"];
const SPARK_REST: &[&str] = &["deliver Source->Map x5", "deliver Map->Count x5", "deliver Count->Sink x5", "crash-jm"];
