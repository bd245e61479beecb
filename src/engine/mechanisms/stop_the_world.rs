//! Stop-the-world checkpoints: the simplest consistent snapshot, and the one the barrier designs
//! improve on. The coordinator pauses the sources, waits until every channel is empty, snapshots
//! every task (the state then reflects exactly the records read so far, with nothing in flight),
//! and lets the sources go again. Exactly-once, but the whole job stalls for the drain; the
//! statistics measure the stall.
//!
//! The pause is the mechanism's own state (`Paused`, in the run's live slot, `core/own_state.rs`),
//! which the core never names. The core asks through the seam: while the sources are paused, the
//! mechanism's check refuses their reads and the coordinator's triggers (`Mechanism::check` of a
//! read and of `Action::Checkpoint`). An abort of the checkpoint lets the sources go again
//! (`Mechanism::on_abort`); a crash takes the pause with the job.
//!
//! A story, run as a test: over 40 seeded schedules with a crash, stopping the world before the
//! snapshot is exact too; it pays in the time the sources stand still.
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
//!     assert_eq!(crash(Strategy::StopTheWorld, "two-inputs", seed), (0, 0), "seed {seed}");
//! }
//! ```

use super::marks::Mark;
use super::row::{Row, Words};
use crate::engine::core::action::{Action, Event, SnapshotKind};
use crate::engine::core::error::ActionError;
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::{CheckpointId, TaskId};
use crate::engine::core::seam::Mechanism;
use crate::engine::core::sim::Sim;
use crate::engine::settings::strategy::{strategy_name, Setting};
use crate::engine::settings::Settings;

/// Stop-the-world (strategy `stop-the-world`).
pub struct StopTheWorld;

/// The sources stand still for a checkpoint: the mechanism's own live state, in the run's live
/// slot from the trigger until the drain ends (or the checkpoint is aborted). A crash drops it
/// with the rest of the running job, and so does the job's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paused {
    /// The checkpoint the sources wait for.
    pub checkpoint: CheckpointId,
    /// The step that paused them.
    pub since: u64,
}

impl Sim {
    /// Stop-the-world in progress: (checkpoint, the step that paused the sources).
    pub fn stop_the_world(&self) -> Option<(CheckpointId, u64)> {
        self.live.mechanism.get::<Paused>().map(|p| (p.checkpoint, p.since))
    }
}

impl Mechanism for StopTheWorld {
    /// The clock ends a drain; the checks keep the sources and the coordinator waiting.
    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks { ticks: true, checks_actions: true, ..Hooks::default() }
    }
    /// No barrier: the sources pause until everything is drained.
    fn on_trigger(&self, sim: &mut Sim, id: CheckpointId, out: &mut Vec<Event>) {
        sim.live.mechanism.put(Paused { checkpoint: id, since: sim.tick });
        out.push(Event::SourcesPaused { checkpoint: id });
    }
    /// While the sources are paused, no source reads, and the coordinator triggers nothing else
    /// (it asks with [`Action::Checkpoint`] before each trigger, a savepoint's too, and refuses it).
    fn check(&self, sim: &Sim, a: Action) -> Result<(), ActionError> {
        match (a, sim.stop_the_world()) {
            (Action::Read { .. } | Action::Checkpoint, Some((id, _))) => {
                Err(ActionError::SourcesPaused { checkpoint: id.0 })
            }
            (Action::Mechanism { step }, _) => {
                Err(ActionError::NoSuchStep { step: step.kind, strategy: sim.strategy() })
            }
            _ => Ok(()),
        }
    }
    /// A checkpoint that ends without completing lets the sources go again, as soon as the
    /// coordinator tells the first task. (A crash that aborts it leaves them down: the pause goes
    /// with the job.)
    fn on_abort(&self, sim: &mut Sim, _t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
        if let Some((paused, t0)) = sim.stop_the_world() {
            if paused == id {
                sim.live.mechanism.take::<Paused>();
                out.push(Event::SourcesResumed { checkpoint: id, stall: sim.tick - t0 });
            }
        }
    }
    /// Once every channel is empty, every task snapshots in topological order and acknowledges;
    /// the sources resume.
    fn on_tick(&self, sim: &mut Sim, out: &mut Vec<Event>) {
        let Some((id, t0)) = sim.stop_the_world() else { return };
        if !sim.live.channels.iter().all(|c| c.queue.is_empty()) {
            return;
        }
        let tick = sim.tick;
        sim.live.mechanism.take::<Paused>();
        for t in sim.graph.topo_order.clone() {
            let snap = sim.take_snapshot(t, Some(id), out);
            out.push(Event::SnapshotTaken { task: t, checkpoint: Some(id), kind: SnapshotKind::StopTheWorld });
            sim.acknowledge(t, id, snap, out);
        }
        if let Some(r) = sim.stats.get_mut(id) {
            r.stall = Some(tick - t0);
        }
        out.push(Event::SourcesResumed { checkpoint: id, stall: tick - t0 });
    }
}

/// The catalogue's row of strategy `stop-the-world`.
pub static ROW: Row = Row {
    id: "stop-the-world",
    mechanism: &StopTheWorld,
    name: Words::new(strategy_name!(StopTheWorld, En), strategy_name!(StopTheWorld, Zh)),
    menu: Words::new(strategy_name!(StopTheWorld, En), strategy_name!(StopTheWorld, Zh)),
    in_sentence: Words::new("stop-the-world snapshots", strategy_name!(StopTheWorld, Zh)),
    keeps: None,
    settings: &[Setting::CheckpointInterval, Setting::FailoverStrategy, Setting::HighAvailability, Setting::Socket],
    coordinator: true,
    barriers: false,
    transactional_sink: false,
    restores_snapshots: true,
    pyflink: Err(Words::new(
        "stop-the-world is a teaching baseline, not a Flink checkpointing mode",
        "全局暂停是教学用的对照，不是 Flink 的检查点模式",
    )),
    pyspark: false,
    explore: Ok(()),
    toy: false,
    marks: |_| &[Mark::Save, Mark::Cut, Mark::Replayed, Mark::NextRecord],
    system: "Flink",
    script_words: &[],
    check_settings: super::row::no_rules,
};
