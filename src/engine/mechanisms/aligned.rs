//! Aligned checkpoints: barrier alignment, after Flink's `SingleCheckpointBarrierHandler` in its
//! aligned states (`WaitingForFirstBarrier`, `CollectingBarriers`). When barrier n arrives on one
//! input of a task with several, that input is blocked: records behind the barrier belong after
//! the checkpoint and wait in the channel. When barrier n has arrived on every input, the task
//! snapshots, forwards the barrier, acknowledges, and unblocks its inputs. The snapshot then
//! reflects exactly the records before barrier n on every input: a consistent cut with no channel
//! state, so exactly-once. The price is the alignment: blocked inputs stall the task and, through
//! backpressure, its upstream.
//!
//! With an alignment timeout (`execution.checkpointing.aligned-checkpoint-timeout`), the handler
//! alternates, as Flink's `AlternatingWaitingForFirstBarrier` and `AlternatingCollectingBarriers`
//! do: the timeout counts from the checkpoint's trigger, carried by its barrier
//! (`BarrierAlignmentUtil.getTimerDelay`), so a task still waiting for barriers when it passes,
//! or receiving its barrier only after, takes the checkpoint unaligned and forwards the barrier
//! unaligned (`asUnaligned`); a task that receives an unaligned barrier switches at once. See
//! [`super::unaligned`]. A timeout of 0 makes every checkpoint unaligned from the sources on
//! (`CheckpointOptions.forConfig`).
//!
//! Also here, shared with unaligned checkpoints: aborts and giving up. The coordinator's abort
//! (`notifyCheckpointAborted`) does not end an alignment: the task goes on collecting the
//! barriers, discards a snapshot it took early, and sends a cancel marker on instead of a snapshot
//! it has not taken (`SubtaskCheckpointCoordinatorImpl.checkpointState`). A cancel marker from an
//! input makes the task give the checkpoint up, decline it and forward the marker
//! (`processCancellationBarrier`); barrier n+1 before n is complete does the same for n
//! (`cancelSubsumedCheckpoint`).
//!
//! A story, run as a test: on a job with two inputs, over 40 seeded schedules with a crash, aligned
//! barriers never lose or duplicate a record, where the barrier tracker (no alignment) duplicates.
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
//! for seed in 0..40 {
//!     assert_eq!(crash(Strategy::Aligned, "two-inputs", seed), (0, 0), "seed {seed}");
//! }
//! assert!((0..40).any(|seed| crash(Strategy::AtLeastOnce, "two-inputs", seed).1 > 0));
//! ```

use super::barriers::{decline_and_cancel, note_aborted, skipped_as_aborted, snapshot_and_forward, unblock_inputs};
use super::marks::Mark;
use super::progress::Alignment;
use super::row::{Row, Words};
use crate::engine::core::action::{AbortReason, Event, GaveUp, SnapshotKind};
use crate::engine::core::dataflow::record::{Barrier, Record};
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::{ChannelId, CheckpointId, TaskId};
use crate::engine::core::seam::{Arrival, BarrierHandler, Mechanism};
use crate::engine::core::sim::Sim;
use crate::engine::settings::strategy::{strategy_name, Setting};
use crate::engine::settings::Settings;
use crate::engine::settings::Strategy;

/// Flink's `SingleCheckpointBarrierHandler`: one handler for both modes, aligned (strategy
/// `aligned`, with or without an alignment timeout) or unaligned from the sources on (strategy
/// `unaligned`).
pub struct SingleCheckpointBarrierHandler {
    /// Every barrier is unaligned from the sources on.
    pub unaligned: bool,
}

/// Strategy `aligned`.
pub const ALIGNED: SingleCheckpointBarrierHandler = SingleCheckpointBarrierHandler { unaligned: false };
/// Strategy `unaligned`.
pub const UNALIGNED: SingleCheckpointBarrierHandler = SingleCheckpointBarrierHandler { unaligned: true };

impl Mechanism for SingleCheckpointBarrierHandler {
    /// The clock matters only to the alignment timeout; the records before the operator, only
    /// when a task may snapshot before its last barrier (unaligned, or aligned past the timeout).
    fn hooks(&self, settings: &Settings) -> Hooks {
        let timeout = settings.alignment_timeout.is_some();
        Hooks { ticks: timeout, hears_records: self.unaligned || timeout, ..Hooks::default() }
    }
    fn on_abort(&self, sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
        abort_notified(sim, t, id, out);
    }
    /// The alignment timer: a task still aligning `alignment-timeout` steps after the trigger
    /// goes unaligned (there is no timeout under strategy `unaligned`).
    fn on_tick(&self, sim: &mut Sim, out: &mut Vec<Event>) {
        if let Some(limit) = sim.settings.alignment_timeout {
            time_out_alignments(sim, limit, out);
        }
    }
    fn barrier_handler(&self) -> Option<&dyn BarrierHandler> {
        Some(self)
    }
}

impl BarrierHandler for SingleCheckpointBarrierHandler {
    fn unaligned_at_sources(&self, sim: &Sim) -> bool {
        self.unaligned || sim.settings.alignment_timeout == Some(0)
    }
    fn stores_in_flight(&self) -> bool {
        self.unaligned
    }
    fn on_record(&self, sim: &mut Sim, c: ChannelId, seq: u64, rec: Record, out: &mut Vec<Event>) -> bool {
        // Unaligned, or aligned past the alignment timeout: record in-flight input.
        sim.record_in_flight(c, seq, rec, out);
        true
    }
    fn on_barrier(&self, sim: &mut Sim, at: Arrival, barrier: Barrier, out: &mut Vec<Event>) {
        collect_barrier(sim, at, barrier, out);
    }
    fn on_cancel(&self, sim: &mut Sim, at: Arrival, id: CheckpointId, out: &mut Vec<Event>) {
        cancel_marker(sim, at, id, out);
    }
}

/// Every task still aligning `limit` steps after its checkpoint's trigger goes unaligned. (Apart
/// from `on_tick`, so that the step of a run without an alignment timeout costs a call and a test.)
#[cfg_attr(not(target_arch = "wasm32"), inline(never))]
fn time_out_alignments(sim: &mut Sim, limit: u64, out: &mut Vec<Event>) {
    let tick = sim.tick;
    for t in 0..sim.live.tasks.len() {
        let late = Alignment::of(&sim.live.tasks[t])
            .is_some_and(|a| a.timeoutable && a.aligning() && timed_out(tick, a.timestamp, limit));
        if late {
            sim.alignment_timed_out(TaskId(t as u16), out);
        }
    }
}

/// Has the alignment timeout `limit` passed at step `tick` for a checkpoint triggered at
/// `timestamp`? Flink's timer fires `limit - (now - timestamp)` after the first barrier, at once
/// if that is not positive.
fn timed_out(tick: u64, timestamp: u64, limit: u64) -> bool {
    tick.saturating_sub(timestamp) >= limit
}

/// The barrier-collecting state machine that aligned and unaligned checkpoints share
/// (`SingleCheckpointBarrierHandler.processBarrier`).
/// - A barrier newer than the checkpoint in progress subsumes it: the task gives it up, declines
///   it and sends a cancel marker; an older one is obsolete and ignored.
/// - The first barrier starts collecting. An unaligned barrier makes the task snapshot at once
///   and forward the barrier unaligned; an aligned one blocks its input until the last barrier
///   comes (even after a switch to unaligned: Flink keeps it blocked) and, arriving after the
///   alignment timeout, makes the task switch to unaligned.
/// - The last barrier ends it: an aligned task snapshots and forwards, an unaligned one
///   acknowledges the snapshot it took early with the in-flight records it recorded since; both
///   unblock their inputs. For a checkpoint aborted before the task started it, a cancel marker
///   goes on instead of the snapshot and the barrier, and nothing is acknowledged.
pub(super) fn collect_barrier(sim: &mut Sim, at: Arrival, barrier: Barrier, out: &mut Vec<Event>) {
    let Arrival { task: t, channel: c, input } = at;
    let id = barrier.checkpoint;
    let current = Alignment::of(&sim.live.tasks[t.index()]).map(|a| a.checkpoint);
    // Events in causal order: the barrier arrives, then what it causes.
    let mark = out.len();
    if let Some(old) = current.filter(|old| *old < id) {
        // Barrier n+1 before n completed: n is subsumed at this task (`cancelSubsumedCheckpoint`).
        abort_alignment(sim, t, old, out);
        let task = &mut sim.live.tasks[t.index()];
        task.last_checkpoint = task.last_checkpoint.max(Some(old));
        decline_and_cancel(sim, t, old, AbortReason::DeclinedSubsumed, out);
    } else if current.is_some_and(|cur| cur > id) {
        out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id });
        return;
    }
    sim.note_barrier(t, id);
    let n = sim.live.tasks[t.index()].in_pos.len();
    let (first, al) = Alignment::count(&mut sim.live.tasks[t.index()].mechanism, barrier, input, n);
    let waiting = al.waiting();
    let collecting = !al.aligning();
    out.insert(mark, Event::BarrierReceived { task: t, channel: c, checkpoint: id, first, waiting });
    if barrier.unaligned {
        if !collecting {
            if sim.strategy() == Strategy::Aligned {
                out.push(Event::UnalignedBarrierReceived { task: t, checkpoint: id });
            }
            sim.go_unaligned(t, out);
        }
    } else if waiting > 0 {
        sim.live.channels[c.index()].blocked = true;
        out.push(Event::ChannelBlocked { channel: c, checkpoint: id });
        let late = barrier.timeoutable
            && sim.settings.alignment_timeout.is_some_and(|limit| timed_out(sim.tick, barrier.timestamp, limit));
        if !collecting && late {
            sim.alignment_timed_out(t, out);
        }
    }
    if waiting > 0 {
        return;
    }
    let al = Alignment::end(&mut sim.live.tasks[t.index()]).expect("collecting");
    sim.live.tasks[t.index()].last_checkpoint = Some(id);
    unblock_inputs(sim, t, out);
    if al.cancelled || skipped_as_aborted(sim, t, id, out) {
        return;
    }
    let snap = match al.unaligned {
        Some(snap) => *snap,
        None => snapshot_and_forward(sim, t, barrier, SnapshotKind::Aligned, out),
    };
    sim.acknowledge(t, id, snap, out);
}

/// A cancel marker for checkpoint `id` arrived (`SingleCheckpointBarrierHandler
/// .processCancellationBarrier`). If `id` is newer than any checkpoint the task has seen, or is
/// the one it is collecting, the task gives up what it is collecting, declines `id` and forwards
/// the marker; otherwise the marker is dropped.
pub(super) fn cancel_marker(sim: &mut Sim, at: Arrival, id: CheckpointId, out: &mut Vec<Event>) {
    let Arrival { task: t, channel: c, .. } = at;
    let task = &sim.live.tasks[t.index()];
    let current = Alignment::of(task).map(|a| a.checkpoint);
    let fresh = Some(id) > task.last_checkpoint.max(current) || current == Some(id);
    out.push(Event::CancelMarkerReceived { task: t, channel: c, checkpoint: id, fresh });
    if !fresh {
        return;
    }
    if let Some(cur) = current {
        abort_alignment(sim, t, cur, out);
    }
    decline_and_cancel(sim, t, id, AbortReason::DeclinedOnCancellationBarrier, out);
}

/// The task gives up checkpoint `id` if it is collecting its barriers: a snapshot taken early is
/// discarded with its in-flight records, and inputs an aligned barrier blocked flow again.
pub(super) fn abort_alignment(sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
    let task = &mut sim.live.tasks[t.index()];
    if Alignment::of(task).is_none_or(|a| a.checkpoint != id) {
        return;
    }
    let al = Alignment::end(task).expect("collecting");
    let released = sim.graph.task(t).inputs.iter().filter(|c| sim.live.channels[c.index()].blocked).count() as u16;
    let what = match &al.unaligned {
        Some(snap) => GaveUp::Unaligned { in_flight: snap.in_flight.len() as u32, released },
        None if al.cancelled => GaveUp::Collecting { released },
        None => GaveUp::Aligning { released },
    };
    out.push(Event::AlignmentAborted { task: t, checkpoint: id, what });
    unblock_inputs(sim, t, out);
}

/// The CheckpointCoordinator aborted checkpoint `id` (`notifyCheckpointAborted`). A task
/// collecting its barriers goes on collecting them, as in Flink, where the notification does not
/// end an alignment: a snapshot it took early is discarded (and it records no more in-flight
/// data); one it has not taken it will not take, sending a cancel marker on instead when its
/// barriers are in. A task that has not started `id` notes it for when its barriers come.
pub(super) fn abort_notified(sim: &mut Sim, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
    let Some(al) = Alignment::of_mut(&mut sim.live.tasks[t.index()]).filter(|a| a.checkpoint == id) else {
        note_aborted(sim, t, id);
        return;
    };
    if al.cancelled {
        return;
    }
    let discarded = al.unaligned.take().map(|snap| snap.in_flight.len() as u32);
    if discarded.is_some() {
        al.cancelled = true;
    } else {
        note_aborted(sim, t, id);
    }
    out.push(Event::AbortNotified { task: t, checkpoint: id, discarded });
}

/// The catalogue's row of strategy `aligned`. With an alignment timeout a barrier may also go
/// unaligned, so the legend explains both.
pub static ROW: Row = Row {
    id: "aligned",
    mechanism: &ALIGNED,
    name: Words::new(strategy_name!(Aligned, En), strategy_name!(Aligned, Zh)),
    menu: Words::new(
        concat!(strategy_name!(Aligned, En), " (exactly once)"),
        concat!(strategy_name!(Aligned, Zh), "（精确一次）"),
    ),
    in_sentence: Words::new("aligned barriers", strategy_name!(Aligned, Zh)),
    keeps: None,
    settings: &[
        Setting::CheckpointInterval,
        Setting::AlignmentTimeout,
        Setting::FailoverStrategy,
        Setting::HighAvailability,
        Setting::Socket,
    ],
    coordinator: true,
    barriers: true,
    transactional_sink: false,
    restores_snapshots: true,
    pyflink: Ok(()),
    pyspark: false,
    explore: Ok(()),
    toy: false,
    marks: |settings| {
        use Mark::*;
        match settings.alignment_timeout {
            Some(_) => &[Save, Cut, Buffered, Replayed, Barrier, UnalignedBarrier, CancelMarker, NextRecord],
            None => &[Save, Cut, Buffered, Replayed, Barrier, CancelMarker, NextRecord],
        }
    },
    system: "Flink",
    script_words: &[],
    check_settings: super::row::no_rules,
};
