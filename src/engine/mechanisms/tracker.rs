//! At-least-once checkpoints, after Flink's `CheckpointBarrierTracker`. The task blocks nothing:
//! it counts barrier n as it arrives on each input and keeps processing records from every input
//! meanwhile. When barrier n has arrived on all inputs, it snapshots, forwards and acknowledges.
//! Records that overtook a slow barrier are then in the snapshot's state and will be replayed
//! after a restore as well: duplicated in state, never lost. No alignment, no stored channels.
//!
//! Like Flink's tracker it counts several checkpoints at once (`processBarrier` keeps a queue of
//! barrier counts, oldest first): barrier n+1 arriving does not drop n, which still completes
//! when its last barrier comes. Only when a newer checkpoint has all its barriers first are the
//! older ones in the queue dropped (silently: the CheckpointCoordinator subsumes them when the
//! newer one completes). The first barrier of a checkpoint no newer than the newest one counted
//! is ignored: that checkpoint can no longer complete here. The coordinator's abort does not
//! stop the counting; when all barriers of an aborted checkpoint are in, the task sends a cancel
//! marker on instead of a snapshot. A cancel marker from an input ends the counting of that
//! checkpoint and of older ones, each declined and cancelled in turn
//! (`processCancellationBarrier`).
//!
//! A story, run as a test: on a job with two inputs, over 40 seeded schedules with a crash, the
//! tracker never loses a record but counts some twice (the records behind an early barrier went
//! into the snapshot and are replayed), where aligned barriers count each once.
//!
//! ```
//! use barrierscope::engine::{Action, Scenario, Settings, Strategy};
//!
//! // Under `strategy`: a checkpoint asked for at step 2 (where there are checkpoints), 14 steps
//! // of the seeded scheduler, a crash of the whole job, a restore, then the run to its end.
//! // What each record's effect on the state ended as: (lost, duplicated).
//! let crash = |strategy, job, seed| {
//!     let mut sim = Scenario::builtin(job, Settings::new(strategy), seed).sim().unwrap();
//!     for i in 0..14 {
//!         if i == 2 && sim.check(Action::Checkpoint).is_ok() {
//!             sim.step(Action::Checkpoint).unwrap();
//!         }
//!         if sim.has_work() {
//!             sim.step(Action::Auto).unwrap();
//!         }
//!     }
//!     sim.step(Action::Crash).unwrap();
//!     sim.step(Action::Restore).unwrap();
//!     while sim.has_work() {
//!         sim.step(Action::Auto).unwrap();
//!     }
//!     let l = sim.ledger().state;
//!     (l.lost, l.duplicated)
//! };
//! let runs: Vec<_> = (0..40).map(|seed| crash(Strategy::AtLeastOnce, "two-inputs", seed)).collect();
//! assert!(runs.iter().all(|&(lost, _)| lost == 0));
//! assert!(runs.iter().any(|&(_, duplicated)| duplicated > 0));
//! ```

use super::barriers::{decline_and_cancel, note_aborted, skipped_as_aborted, snapshot_and_forward};
use super::marks::Mark;
use super::progress::{BarrierCount, Tracker};
use super::row::{Row, Words};
use crate::engine::core::action::{AbortReason, Event, GaveUp, SnapshotKind};
use crate::engine::core::dataflow::record::Barrier;
use crate::engine::core::ids::{CheckpointId, TaskId};
use crate::engine::core::seam::{Arrival, BarrierHandler, Mechanism};
use crate::engine::core::sim::Sim;
use crate::engine::settings::strategy::{strategy_name, Setting};

/// The barrier tracker (strategy `at-least-once`).
pub struct BarrierTracker;

impl Mechanism for BarrierTracker {
    /// The coordinator's abort does not stop the counting (Flink's tracker does not hear it); the
    /// task notes it, and sends a cancel marker on instead of a snapshot when the barriers are in.
    fn on_abort(&self, sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
        let counting = Tracker::counting(&sim.live.tasks[t.index()], id);
        note_aborted(sim, t, id);
        if counting {
            out.push(Event::AbortNotified { task: t, checkpoint: id, discarded: None });
        }
    }
    fn barrier_handler(&self) -> Option<&dyn BarrierHandler> {
        Some(self)
    }
}

impl BarrierHandler for BarrierTracker {
    fn on_barrier(&self, sim: &mut Sim, at: Arrival, barrier: Barrier, out: &mut Vec<Event>) {
        let (t, c, id) = (at.task, at.channel, barrier.checkpoint);
        let n = sim.live.tasks[t.index()].in_pos.len() as u16;
        let tracker = Tracker::of_mut(&mut sim.live.tasks[t.index()]);
        let pos = match tracker.pending.iter().position(|b| b.checkpoint == id) {
            Some(pos) => {
                tracker.pending[pos].count += 1;
                pos
            }
            None if Some(id) > tracker.latest => {
                tracker.latest = Some(id);
                tracker.pending.push_back(BarrierCount { checkpoint: id, count: 1 });
                tracker.pending.len() - 1
            }
            None => {
                out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id });
                return;
            }
        };
        let seen = tracker.pending[pos].count;
        sim.note_barrier(t, id);
        out.push(Event::BarrierReceived { task: t, channel: c, checkpoint: id, first: seen == 1, waiting: n - seen });
        if seen < n {
            return;
        }
        // Complete: drop it and every older checkpoint still counting (now subsumed).
        let done: Vec<BarrierCount> = Tracker::of_mut(&mut sim.live.tasks[t.index()]).pending.drain(..=pos).collect();
        for older in &done[..pos] {
            out.push(Event::AlignmentAborted { task: t, checkpoint: older.checkpoint, what: GaveUp::Counting });
        }
        sim.live.tasks[t.index()].last_checkpoint = Some(id);
        if skipped_as_aborted(sim, t, id, out) {
            return;
        }
        let snap = snapshot_and_forward(sim, t, barrier, SnapshotKind::Tracker, out);
        sim.acknowledge(t, id, snap, out);
    }
    /// Flink's `CheckpointBarrierTracker.processCancellationBarrier`: a marker for a checkpoint
    /// it counts, or newer than any it has counted, ends the counting of that checkpoint and of
    /// every older one; each is declined and cancelled downstream. A trailing marker is dropped.
    fn on_cancel(&self, sim: &mut Sim, at: Arrival, id: CheckpointId, out: &mut Vec<Event>) {
        let t = at.task;
        let task = &sim.live.tasks[t.index()];
        let counting = Tracker::counting(task, id);
        let fresh =
            Some(id) > task.last_checkpoint && (counting || Some(id) > Tracker::of(task).and_then(|tr| tr.latest));
        out.push(Event::CancelMarkerReceived { task: t, channel: at.channel, checkpoint: id, fresh });
        if !fresh {
            return;
        }
        let tracker = Tracker::of_mut(&mut sim.live.tasks[t.index()]);
        let upto = tracker.pending.iter().take_while(|b| b.checkpoint <= id).count();
        let dropped: Vec<BarrierCount> = tracker.pending.drain(..upto).collect();
        tracker.latest = tracker.latest.max(Some(id));
        for b in dropped {
            out.push(Event::AlignmentAborted { task: t, checkpoint: b.checkpoint, what: GaveUp::Counting });
            if b.checkpoint < id {
                decline_and_cancel(sim, t, b.checkpoint, AbortReason::DeclinedOnCancellationBarrier, out);
            }
        }
        decline_and_cancel(sim, t, id, AbortReason::DeclinedOnCancellationBarrier, out);
    }
}

/// The catalogue's row of strategy `at-least-once`.
pub static ROW: Row = Row {
    id: "at-least-once",
    mechanism: &BarrierTracker,
    name: Words::new(strategy_name!(AtLeastOnce, En), strategy_name!(AtLeastOnce, Zh)),
    menu: Words::new(
        "Barriers, no alignment (at least once)",
        concat!(strategy_name!(AtLeastOnce, Zh), "（至少一次）"),
    ),
    in_sentence: Words::new("barriers without alignment", strategy_name!(AtLeastOnce, Zh)),
    keeps: None,
    settings: &[Setting::CheckpointInterval, Setting::FailoverStrategy, Setting::HighAvailability, Setting::Socket],
    coordinator: true,
    barriers: true,
    transactional_sink: false,
    restores_snapshots: true,
    pyflink: Ok(()),
    pyspark: false,
    explore: Ok(()),
    toy: false,
    marks: |_| &[Mark::Save, Mark::Cut, Mark::Replayed, Mark::Barrier, Mark::CancelMarker, Mark::NextRecord],
    system: "Flink",
    script_words: &[],
    check_settings: super::row::no_rules,
};
