//! The fault-tolerance mechanisms, one file or folder each. They plug in through the seam, which
//! is the core's (`crate::engine::core::seam`, with its hooks, own state and own steps).
//!
//! The dataflow (`crate::engine::core::dataflow`) moves records; a [`Mechanism`] decides what is
//! saved and what a restart starts from. Exactly one mechanism runs a job, chosen by the strategy:
//!
//! Which mechanism each strategy runs, and everything else the program asks of it, is the
//! mechanism's row of the catalogue ([`catalogue`], [`row::Row`]), written in its own file or
//! folder: `aligned.rs`, `tracker.rs`, `unaligned.rs`, `timers.rs`, `stop_the_world.rs`,
//! `no_snapshots.rs`, `storm/`, `spark/`, `structured/`, and the toy `state_log.rs`.
//!
//! [`barriers`] holds what the barrier handlers share: injecting barriers at the sources,
//! forwarding them, and the per-task alignment state. [`handler_lab`] composes a barrier handler
//! from four choices, of which aligned, the tracker and unaligned are three presets; a run takes
//! one in place of its strategy's (`Sim::with_handler`).

pub mod aligned;
pub mod barriers;
pub mod catalogue;
pub mod committed_offsets;
pub mod handler_lab;
pub mod marks;
pub mod no_snapshots;
pub mod progress;
pub mod row;
pub mod spark;
pub mod state_log;
pub mod stop_the_world;
pub mod storm;
pub mod structured;
pub mod timers;
pub mod tracker;
pub mod unaligned;
pub mod upkeep;

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::channel::SeqSet;
use crate::engine::core::dataflow::record::Record;
use crate::engine::core::ids::{CheckpointId, TaskId};
use crate::engine::core::lang::Lang;
use crate::engine::core::seam::{Mechanism, Rerun};
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::settings::Strategy;

/// How a mechanism's own step is said: by the mechanism that has it.
pub fn step_words(step: crate::engine::core::step::Step, task: &str, lang: Lang) -> String {
    Strategy::ALL
        .iter()
        .find_map(|s| for_strategy(*s).own_steps().and_then(|o| o.step_words(step, task, lang)))
        .unwrap_or_else(|| format!("{}{}", step.kind, task))
}

/// The mechanism that runs a job under `strategy`: its catalogue row's.
pub fn for_strategy(strategy: Strategy) -> &'static dyn Mechanism {
    strategy.row().mechanism
}

impl Sim {
    /// The mechanism that runs this job (see [`Mechanism`]): a handler of the barrier-handler lab
    /// named in the settings, or else the strategy's, its catalogue row's. Both are fixed when the
    /// run is made; there is no other way to choose one.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn mechanism(&self) -> &'static dyn Mechanism {
        match self.handler {
            Some(h) => h,
            None => self.settings.strategy.row().mechanism,
        }
    }

    /// The mechanism's own live state (`core::own_state`), which a crash drops with the job.
    pub fn mechanism_live(&self) -> &crate::engine::core::own_state::Slot {
        &self.live.mechanism
    }
    pub fn mechanism_live_mut(&mut self) -> &mut crate::engine::core::own_state::Slot {
        &mut self.live.mechanism
    }
    /// The mechanism's own durable state (`core::own_state`), which every crash leaves.
    pub fn mechanism_durable(&self) -> &crate::engine::core::own_state::Slot {
        &self.durable.mechanism
    }
    pub fn mechanism_durable_mut(&mut self) -> &mut crate::engine::core::own_state::Slot {
        &mut self.durable.mechanism
    }

    /// The offset source `t` committed to its log, where a restart resumes
    /// (`OwnSources::committed_offset`: Storm's spouts, Spark's receivers; 0 otherwise).
    pub fn committed_offset(&self, t: TaskId) -> u32 {
        self.mechanism().own_sources().map_or(0, |s| s.committed_offset(self, t))
    }

    /// The offset source `t` reads next, or None when it has nothing to read: its own sources'
    /// (`OwnSources::next_read`), else its log's next offset.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn next_read(&self, t: TaskId) -> Option<u32> {
        match self.mechanism().own_sources() {
            Some(s) => s.next_read(self, t),
            None => self.next_in_log(t),
        }
    }

    /// Source `t` read `rec` at `offset`: its own sources take it (`OwnSources::on_read`), or it
    /// reports the read and emits the record.
    pub(crate) fn source_read(&mut self, t: TaskId, offset: u32, rec: Record, out: &mut Vec<Event>) {
        match self.mechanism().own_sources() {
            Some(s) => s.on_read(self, t, offset, rec, out),
            None => self.read_and_emit(t, offset, rec, out),
        }
    }

    /// Does a checkpoint of this run store in-flight records (an unaligned barrier handler's)?
    pub(crate) fn stores_in_flight(&self) -> bool {
        self.mechanism().barrier_handler().is_some_and(|b| b.stores_in_flight())
    }

    /// Is a step of the mechanism's own due (`OwnSteps::pending_work`)?
    pub(crate) fn own_step_due(&self) -> bool {
        self.mechanism().own_steps().is_some_and(|s| s.pending_work(self))
    }

    /// How the work running now takes effect (`OwnSteps::rerun`; as the first time without).
    pub(crate) fn rerun(&self) -> Rerun {
        self.mechanism().own_steps().map_or(Rerun::Full, |s| s.rerun(self))
    }

    /// The task's synchronous snapshot. For a checkpoint, a two-phase-commit sink pre-commits its
    /// open transaction first (snapshotState).
    pub fn take_snapshot(&mut self, t: TaskId, checkpoint: Option<CheckpointId>, out: &mut Vec<Event>) -> TaskSnapshot {
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
