//! Unaligned checkpoints, after Flink's FLIP-76 and `SingleCheckpointBarrierHandler` in its
//! unaligned states. The barriers are unaligned (`CheckpointOptions.unaligned`) from the sources
//! on. The first barrier to arrive at a task overtakes: the task snapshots at once, puts the
//! barrier at the head of each output queue (storing the output records it jumped over), and from
//! then on records every input record that arrives on an input whose barrier has not come yet.
//! Those records, and the overtaken ones, are the channel state of Chandy and Lamport's snapshot;
//! they are stored with the checkpoint and replayed first on restore. No input ever blocks, so
//! checkpoints finish quickly under backpressure; the price is storing in-flight data.
//!
//! The handler itself, shared with aligned checkpoints, is `super::aligned`'s
//! `SingleCheckpointBarrierHandler`; here is what it does unaligned: recording in-flight input,
//! and the switch to unaligned of an aligned checkpoint (Flink's
//! `AlternatingCollectingBarriers.alignmentTimeout`), when the alignment timeout passes or an
//! unaligned barrier arrives.
//!
//! A story, run as a test: over 40 seeded schedules with a crash on a job with two inputs,
//! unaligned checkpoints are as exact as aligned ones: the records the barrier overtook are in the
//! checkpoint as channel state, and are put back on their channels.
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
//!     assert_eq!(crash(Strategy::Unaligned, "two-inputs", seed), (0, 0), "seed {seed}");
//! }
//! ```

use super::barriers::{skipped_as_aborted, snapshot_and_forward};
use super::marks::Mark;
use super::progress::Alignment;
use super::row::{Row, Words};
use crate::engine::core::action::{Event, SnapshotKind};
use crate::engine::core::dataflow::record::{Barrier, Record};
use crate::engine::core::ids::{ChannelId, TaskId};
use crate::engine::core::sim::Sim;
use crate::engine::settings::strategy::{strategy_name, Setting};
use crate::engine::settings::Strategy;

impl Sim {
    /// A task that snapshotted before all its barriers came stores each record arriving on an input
    /// still waiting for its barrier: it was sent before the checkpoint and received after.
    #[inline]
    pub(crate) fn record_in_flight(&mut self, c: ChannelId, seq: u64, rec: Record, out: &mut Vec<Event>) {
        // A task collecting no checkpoint (most records) records nothing.
        if !self.live.tasks[self.graph.channel(c).to.index()].mechanism.is_empty() {
            self.record_if_overtaken(c, seq, rec, out);
        }
    }

    /// [`Sim::record_in_flight`] for a task collecting a checkpoint.
    #[cfg_attr(not(target_arch = "wasm32"), inline(never))]
    fn record_if_overtaken(&mut self, c: ChannelId, seq: u64, rec: Record, out: &mut Vec<Event>) {
        let info = self.graph.channel(c);
        let (t, input) = (info.to, info.input_index);
        if let Some(al) = Alignment::of_mut(&mut self.live.tasks[t.index()]) {
            if let Some(snap) = &mut al.unaligned {
                if !al.received[input] {
                    snap.in_flight.push((c, seq, rec));
                    out.push(Event::InFlightRecorded { task: t, channel: c, record: rec.id });
                }
            }
        }
    }

    /// The alignment timeout passed while task `t` still waits for barriers: it switches to
    /// unaligned.
    pub(crate) fn alignment_timed_out(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let id = Alignment::of(&self.live.tasks[t.index()]).expect("collecting").checkpoint;
        out.push(Event::AlignmentTimedOut { task: t, checkpoint: id });
        self.go_unaligned(t, out);
    }

    /// Task `t` takes the checkpoint it is collecting unaligned from now on: it snapshots, forwards
    /// the barrier unaligned at the head of its outputs (`asUnaligned`), and records the records that
    /// arrive on inputs still waiting for their barrier. Inputs an aligned barrier already blocked
    /// stay blocked until the last barrier comes: what queues behind that barrier belongs after the
    /// checkpoint (Flink keeps them blocked, `AlternatingCollectingBarriersUnaligned`). A checkpoint
    /// aborted before the task started it gets a cancel marker instead, and the task only collects
    /// its barriers from then on.
    pub(crate) fn go_unaligned(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let al = Alignment::of(&self.live.tasks[t.index()]).expect("collecting");
        let barrier =
            Barrier { checkpoint: al.checkpoint, timestamp: al.timestamp, unaligned: true, timeoutable: false };
        if skipped_as_aborted(self, t, barrier.checkpoint, out) {
            Alignment::of_mut(&mut self.live.tasks[t.index()]).expect("collecting").cancelled = true;
            return;
        }
        if self.strategy() == Strategy::Aligned {
            // The unaligned strategy's acknowledgement says so itself.
            if let Some(r) = self.stats.get_mut(barrier.checkpoint) {
                r.subtasks[t.index()].unaligned = true;
            }
        }
        let snap = snapshot_and_forward(self, t, barrier, SnapshotKind::Unaligned, out);
        Alignment::of_mut(&mut self.live.tasks[t.index()]).expect("collecting").unaligned = Some(Box::new(snap));
    }
}

/// The catalogue's row of strategy `unaligned`: [`super::aligned::UNALIGNED`], the same handler.
pub static ROW: Row = Row {
    id: "unaligned",
    mechanism: &super::aligned::UNALIGNED,
    name: Words::new(strategy_name!(Unaligned, En), strategy_name!(Unaligned, Zh)),
    menu: Words::new(strategy_name!(Unaligned, En), strategy_name!(Unaligned, Zh)),
    in_sentence: Words::new("unaligned checkpoints", strategy_name!(Unaligned, Zh)),
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
    marks: |_| &[Mark::Save, Mark::Cut, Mark::Replayed, Mark::UnalignedBarrier, Mark::CancelMarker, Mark::NextRecord],
    system: "Flink",
    script_words: &[],
    check_settings: super::row::no_rules,
};
