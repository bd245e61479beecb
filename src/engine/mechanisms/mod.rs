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
pub mod committed_offsets;
pub mod handler_lab;
pub mod hooks;
pub mod no_snapshots;
pub mod own_state;
pub mod progress;
pub mod seam;
pub mod spark;
pub mod step;
pub mod stop_the_world;
pub mod storm;
pub mod timers;
pub mod tracker;
pub mod unaligned;

use crate::engine::action::Event;
use crate::engine::dataflow::channel::SeqSet;
use crate::engine::ids::{CheckpointId, TaskId};
use crate::engine::lang::Lang;
use crate::engine::dataflow::job_graph::JobGraph;
use crate::engine::error::ScenarioError;
use crate::engine::settings::{Settings, Strategy};
use crate::engine::sim::Sim;
use crate::engine::snapshot::TaskSnapshot;
use seam::Mechanism;

/// How a mechanism's own step is said: by the mechanism that has it.
pub fn step_words(step: step::Step, task: &str, lang: Lang) -> String {
    Strategy::ALL
        .iter()
        .find_map(|s| for_strategy(*s).step_words(step, task, lang))
        .unwrap_or_else(|| format!("{}{}", step.kind, task))
}

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

/// The mechanisms plugged in by hand, in the order they were first plugged.
static PLUGGED: std::sync::Mutex<Vec<&'static dyn Mechanism>> = std::sync::Mutex::new(Vec::new());

fn plugged(n: u16) -> &'static dyn Mechanism {
    PLUGGED.lock().unwrap_or_else(|e| e.into_inner())[n as usize]
}

impl Sim {
    /// The mechanism that runs this job (see [`Mechanism`]): the strategy's, a handler of the
    /// barrier-handler lab, or one plugged in with [`Sim::with_mechanism`].
    pub(crate) fn mechanism(&self) -> &'static dyn Mechanism {
        match (self.plugged, self.handler) {
            (Some(n), _) => plugged(n),
            (None, Some(h)) => h,
            (None, None) => for_strategy(self.settings.strategy),
        }
    }

    /// A run of `graph` whose mechanism is `mechanism`, in place of the strategy's: a mechanism
    /// that is in no strategy catalogue yet (the book's "Adding a mechanism"). The settings are
    /// checked as for their strategy, which still says whether the coordinator triggers
    /// checkpoints.
    pub fn with_mechanism(graph: JobGraph, settings: Settings, seed: u64, mechanism: &'static dyn Mechanism) -> Result<Sim, ScenarioError> {
        let mut sim = Sim::new(graph, settings, seed)?;
        let n = {
            let mut all = PLUGGED.lock().unwrap_or_else(|e| e.into_inner());
            let known = all.iter().position(|m| std::ptr::addr_eq(*m as *const dyn Mechanism, mechanism as *const dyn Mechanism));
            known.unwrap_or_else(|| {
                all.push(mechanism);
                all.len() - 1
            })
        };
        sim.plugged = Some(n as u16);
        sim.handler = None;
        sim.live.mechanism = own_state::Slot::default();
        sim.durable.mechanism = own_state::Slot::default();
        sim.hooks = mechanism.hooks();
        mechanism.start(&mut sim);
        sim.live.tasks = (0..sim.graph.tasks.len()).map(|i| sim.fresh_task(TaskId(i as u16))).collect();
        Ok(sim)
    }

    /// The mechanism's own live state ([`own_state`]), which a crash drops with the job.
    pub fn mechanism_live(&self) -> &own_state::Slot {
        &self.live.mechanism
    }
    pub fn mechanism_live_mut(&mut self) -> &mut own_state::Slot {
        &mut self.live.mechanism
    }
    /// The mechanism's own durable state ([`own_state`]), which every crash leaves.
    pub fn mechanism_durable(&self) -> &own_state::Slot {
        &self.durable.mechanism
    }
    pub fn mechanism_durable_mut(&mut self) -> &mut own_state::Slot {
        &mut self.durable.mechanism
    }

    /// The offset source `t` committed to its log, where a restart resumes
    /// ([`Mechanism::committed_offset`]: Storm's spouts, Spark's receivers; 0 otherwise).
    pub fn committed_offset(&self, t: TaskId) -> u32 {
        self.mechanism().committed_offset(self, t)
    }

    /// The task's synchronous snapshot. For a checkpoint, a two-phase-commit sink pre-commits its
    /// open transaction first (snapshotState).
    pub fn take_snapshot(
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
