//! The lessons on what survives outside the tasks, against the engine (lessons 9, 10 and 12): the
//! sinks as an outside reader sees them, the JobManager's failure, and the master failing with and
//! without high availability.

use super::play::{index, play_all, play_to};
use crate::classroom::curriculum::builtins;
use crate::classroom::lessons::{Judge, Shows};
use crate::classroom::progress::{actions_for, Progress};
use crate::engine::core::ledger::Verdict;
use crate::engine::{AbortReason, CheckpointId, CheckpointStatus, RestoreFrom};
use crate::engine::{Action, Event, Sim, TxnId};
use crate::engine::{HighAvailability, SinkMode};

#[test]
fn lesson_9_sinks_as_an_outside_reader_sees_them() {
    let i = index("sinks");
    let lesson = &builtins()[i];
    assert_eq!(SINK_STORY, [SINK_BEFORE_CHECKPOINT, SINK_AFTER_CHECKPOINT].concat());
    assert!(
        lesson.steps.iter().filter(|s| s.play == SINK_STORY).count() == 2
            && lesson.steps.iter().any(|s| s.play == SINK_BEFORE_CHECKPOINT)
    );
    let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
    assert_eq!(predicts.len(), 3);
    for (k, mode) in predicts.iter().zip(SinkMode::ALL) {
        assert_eq!(lesson.steps[*k].predict, Some(Judge::Output));
        let sim = play_to(i, *k);
        assert_eq!(sim.settings.sink, mode);
        assert_eq!(sim.stats.history[0].status, CheckpointStatus::Completed);
        let l = sim.ledger();
        assert_eq!(l.state.exactly_once, 8, "{mode:?}: the state is exactly once");
        let ext = l.external.unwrap();
        match mode {
            SinkMode::Append => {
                assert_eq!(l.external_labels(Verdict::Duplicated), ["d", "e"]);
                assert_eq!(ext.lost, 0);
            }
            SinkMode::Upsert | SinkMode::TwoPhaseCommit | SinkMode::Transactional | SinkMode::Kafka => {
                assert_eq!(ext.exactly_once, 8, "{mode:?}")
            }
        }
    }
    // Before the reveal, checkpoint 1 has completed but its notification has not reached the
    // Sink: T0 (a, b, c) is pre-committed, T1 (d, e) open; a reader sees nothing yet.
    let mut p = Progress::new(i);
    p.step = predicts[2];
    let (_, mut sim, actions) = actions_for(&p).unwrap();
    for a in actions {
        sim.apply(a, &mut Vec::new()).unwrap();
    }
    assert_eq!(sim.stats.history[0].status, CheckpointStatus::Completed);
    assert_eq!(sim.notifications().len(), 1);
    assert_eq!(sim.ledger().external_labels(Verdict::Pending), ["a", "b", "c", "d", "e", "f", "g", "h"]);
    assert!(sim.external().visible().is_empty());
    // The crash drops the notification; the restore commits T0 (recoverAndCommit), aborts T1.
    sim.apply(Action::Crash, &mut Vec::new()).unwrap();
    let mut restore = Vec::new();
    sim.apply(Action::Restore, &mut restore).unwrap();
    assert!(restore.iter().any(|e| matches!(e, Event::TxnCommitted { txn: TxnId(0), rows: 3, .. })), "{restore:?}");
    assert!(restore.iter().any(|e| matches!(e, Event::TxnAborted { txn: TxnId(1), rows: 2, .. })), "{restore:?}");
    assert_eq!(sim.external().visible().len(), 3);
}

#[test]
fn lesson_10_jobmanager_failure_loses_the_pending_checkpoint_only() {
    let sim = play_all(index("jobmanager"));
    let h = &sim.stats.history;
    assert_eq!(h[0].status, CheckpointStatus::Completed);
    assert_eq!(h[1].status, CheckpointStatus::Failed(AbortReason::JobManagerFailure));
    assert_eq!((h[2].id, h[2].status), (CheckpointId(3), CheckpointStatus::Completed));
    assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
    assert_eq!(sim.ledger().state.exactly_once, 8);
}

/// Lesson 12: Nimbus stops nothing; without HA the job comes back in two steps, from the
/// retained checkpoint (ids from its id + 1) or from nothing (ids from 1); with a standby in one
/// step, from the HA store's checkpoint, ids rising. Each reveal's words against the run.
#[test]
fn lesson_12_the_master_fails() {
    let i = index("master");
    let lesson = &builtins()[i];
    let nimbus = play_to(i, 1);
    assert!(nimbus.running() && !nimbus.jobmanager_up());
    assert_eq!(nimbus.stats.failovers[0].steps_down(), Some(0));
    let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
    let runs: Vec<Sim> = predicts.iter().map(|k| play_to(i, *k)).collect();
    for k in &predicts {
        assert_eq!(lesson.steps[*k - 1].play, MASTER_STORY, "the file's story is the one this test models");
    }
    // Before each crash the same run: checkpoint 1 completed, c written after it.
    let mut before = builtins()[i].config_at(predicts[0] - 1).scenario().sim().unwrap();
    crate::classroom::play_lines(&mut before, &MASTER_STORY[..MASTER_STORY.len() - 2]).unwrap();
    let cp = before.storage().completed.last().unwrap().id;
    let written: Vec<&str> = before.external().visible().iter().map(|r| before.record_label(r.record)).collect();
    let after: Vec<&str> =
        written.iter().copied().filter(|l| before.ledger().row(l).unwrap().expected_external > 0).collect();
    let (retained, from_nothing, standby) = (&runs[0], &runs[1], &runs[2]);
    for (sim, ha) in [
        (retained, HighAvailability::None),
        (from_nothing, HighAvailability::None),
        (standby, HighAvailability::Standby),
    ] {
        assert_eq!(sim.settings.high_availability, ha);
        assert_eq!(sim.ledger().state.exactly_once as usize, sim.ledger().rows.len(), "the counts end right");
    }
    // Retained: what was written after checkpoint 1 (c) twice; a new job counting from cp + 1.
    let f = retained.stats.failovers[0];
    assert_eq!((f.steps_down(), f.restored), (Some(2), Some(RestoreFrom::Checkpoint { checkpoint: cp })));
    assert_eq!(retained.stats.history[0].id, CheckpointId(cp.0 + 1));
    let saved_in_1: Vec<&str> = written.iter().copied().filter(|l| ["a", "b"].contains(l)).collect();
    let twice: Vec<&str> = after.iter().copied().filter(|l| !saved_in_1.contains(l)).collect();
    assert_eq!(twice, ["c"]);
    assert_eq!(retained.ledger().external_labels(Verdict::Duplicated), twice);
    // From nothing: everything written before the crash twice; ids from 1.
    assert_eq!(from_nothing.ledger().external_labels(Verdict::Duplicated), written);
    assert_eq!(from_nothing.stats.history[0].id, CheckpointId(1));
    assert_eq!(from_nothing.stats.failovers[0].restored, Some(RestoreFrom::Nothing));
    // Standby: as retained, in one step; the same job, ids rising; B leads.
    assert_eq!(standby.ledger().external_labels(Verdict::Duplicated), twice);
    let f = standby.stats.failovers[0];
    assert_eq!((f.steps_down(), f.restored), (Some(1), Some(RestoreFrom::Checkpoint { checkpoint: cp })));
    let ids: Vec<u64> = standby.stats.history.iter().map(|r| r.id.0).collect();
    assert_eq!(ids, [1, 2, 3], "the next checkpoint is 3");
    assert!(Shows::Leader("B".into()).check(standby).is_ok());
    assert!(standby.stats.earlier_submissions.is_empty());
}

/// Lesson 12, each Flink run: checkpoint 1 completes with a and b (written), c is written after
/// it, checkpoint 2 is pending, and the JobManager fails.
const MASTER_STORY: &[&str] = &[
    "read Source x2",
    "checkpoint",
    "deliver Source->Map x3",
    "deliver Map->Count x3",
    "deliver Count->Sink x3",
    "read Source",
    "deliver Source->Map",
    "deliver Map->Count",
    "deliver Count->Sink",
    "checkpoint",
    "crash-jm",
];
/// Lesson 9 up to checkpoint 1: a, b, c and barrier 1 through every task to the sink.
const SINK_BEFORE_CHECKPOINT: &[&str] =
    &["read Source x3", "checkpoint", "deliver Source->Map x4", "deliver Map->Count x4", "deliver Count->Sink x4"];
/// Lesson 9 after checkpoint 1: d and e written by the sink.
const SINK_AFTER_CHECKPOINT: &[&str] =
    &["read Source x2", "deliver Source->Map x2", "deliver Map->Count x2", "deliver Count->Sink x2"];
/// Both, in one step (the `sink_story` script of tests/stories.rs up to the crash).
const SINK_STORY: &[&str] = &[
    "read Source x3",
    "checkpoint",
    "deliver Source->Map x4",
    "deliver Map->Count x4",
    "deliver Count->Sink x4",
    "read Source x2",
    "deliver Source->Map x2",
    "deliver Map->Count x2",
    "deliver Count->Sink x2",
];
