//! The fault-tolerance mechanisms, one file each, and the seam they plug in through.
//!
//! The dataflow (`super::dataflow`) moves records; a [`Mechanism`] decides what is saved and
//! what a restart starts from. Exactly one mechanism runs a job, chosen by the strategy:
//!
//! | strategy | mechanism | follows |
//! |---|---|---|
//! | `none` | [`no_snapshots::NoSnapshots`] | a restart policy only |
//! | `timers` | [`timers::PerTaskTimers`] | each task saving on its own clock |
//! | `aligned` | [`aligned::ALIGNED`] | Flink's `SingleCheckpointBarrierHandler`, aligned |
//! | `at-least-once` | [`tracker::BarrierTracker`] | Flink's `CheckpointBarrierTracker` |
//! | `unaligned` | [`aligned::UNALIGNED`] | the same handler, unaligned (FLIP-76; [`unaligned`]) |
//! | `stop-the-world` | [`stop_the_world::StopTheWorld`] | pausing the sources and draining |
//! | `storm-acker` | [`storm::acker::XorAcker`] | Storm's XOR acker: every tuple acknowledged, no state saved |
//! | `spark-streaming` | [`spark::micro_batches::MicroBatches`] | Spark Streaming: receivers, blocks, a write-ahead log, micro-batches |
//!
//! [`barriers`] holds what the barrier handlers share: injecting barriers at the sources,
//! forwarding them, and the per-task alignment state. [`handler_lab`] composes a barrier handler
//! from four choices, of which aligned, the tracker and unaligned are three presets; a run takes
//! one in place of its strategy's (`Sim::with_handler`).

pub mod aligned;
pub mod barriers;
pub mod handler_lab;
pub mod no_snapshots;
pub mod progress;
pub mod seam;
pub mod spark;
pub mod stop_the_world;
pub mod storm;
pub mod timers;
pub mod tracker;
pub mod unaligned;

use crate::engine::action::Event;
use crate::engine::dataflow::channel::SeqSet;
use crate::engine::ids::{CheckpointId, TaskId};
use crate::engine::settings::Strategy;
use crate::engine::sim::Sim;
use crate::engine::snapshot::TaskSnapshot;
use seam::Mechanism;

/// The mechanism that runs a job under `strategy`.
pub fn for_strategy(strategy: Strategy) -> &'static dyn Mechanism {
    match strategy {
        Strategy::None => &no_snapshots::NoSnapshots,
        Strategy::Timers => &timers::PerTaskTimers,
        Strategy::Aligned => &aligned::ALIGNED,
        Strategy::AtLeastOnce => &tracker::BarrierTracker,
        Strategy::Unaligned => &aligned::UNALIGNED,
        Strategy::StopTheWorld => &stop_the_world::StopTheWorld,
        Strategy::StormAcker => &storm::acker::XorAcker,
        Strategy::SparkStreaming => &spark::micro_batches::MicroBatches,
    }
}

impl Sim {
    /// The mechanism that runs this job (see [`Mechanism`]): the strategy's, or a handler of the
    /// barrier-handler lab.
    pub(crate) fn mechanism(&self) -> &'static dyn Mechanism {
        match self.handler {
            Some(h) => h,
            None => for_strategy(self.settings.strategy),
        }
    }

    /// The task's synchronous snapshot. For a checkpoint, a two-phase-commit sink pre-commits its
    /// open transaction first (snapshotState).
    pub(crate) fn take_snapshot(
        &mut self,
        t: TaskId,
        checkpoint: Option<CheckpointId>,
        out: &mut Vec<Event>,
    ) -> TaskSnapshot {
        if let Some(id) = checkpoint {
            self.pre_commit(t, id, out);
        }
        TaskSnapshot {
            task: t,
            state: self.live.tasks[t.index()].state.clone(),
            checkpoint,
            tick: self.tick,
            sent: self.sent_by(t),
            received: self.received_by(t),
            in_flight: vec![],
        }
    }

    /// Per output channel: what task `t`'s state has sent there, its restored state's included.
    pub fn sent_by(&self, t: TaskId) -> Vec<SeqSet> {
        let task = &self.live.tasks[t.index()];
        let outs = &self.graph.task(t).out_channels;
        outs.iter()
            .enumerate()
            .map(|(i, c)| task.sent_before[i].with(task.out_from[i], self.wire[c.index()].next_seq))
            .collect()
    }

    /// Per input channel: what task `t`'s state has received there, its restored state's included.
    pub fn received_by(&self, t: TaskId) -> Vec<SeqSet> {
        let task = &self.live.tasks[t.index()];
        (0..task.in_pos.len()).map(|i| task.received_before[i].with(task.in_from[i], task.in_pos[i])).collect()
    }
}
