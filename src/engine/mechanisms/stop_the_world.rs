//! Stop-the-world checkpoints: the simplest consistent snapshot, and the one the barrier designs
//! improve on. The coordinator pauses the sources, waits until every channel is empty, snapshots
//! every task (the state then reflects exactly the records read so far, with nothing in flight),
//! and lets the sources go again. Exactly-once, but the whole job stalls for the drain; the
//! statistics measure the stall.
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
use crate::engine::core::action::{Event, SnapshotKind};
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::CheckpointId;
use crate::engine::core::seam::Mechanism;
use crate::engine::core::sim::Sim;
use crate::engine::settings::strategy::{strategy_name, Setting};
use crate::engine::settings::Settings;

/// Stop-the-world (strategy `stop-the-world`).
pub struct StopTheWorld;

impl Mechanism for StopTheWorld {
    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks { ticks: true, ..Hooks::default() }
    }
    /// No barrier: the sources pause until everything is drained.
    fn on_trigger(&self, sim: &mut Sim, id: CheckpointId, out: &mut Vec<Event>) {
        sim.live.coordinator.stop_the_world = Some((id, sim.tick));
        out.push(Event::SourcesPaused { checkpoint: id });
    }
    /// Once every channel is empty, every task snapshots in topological order and acknowledges;
    /// the sources resume.
    fn on_tick(&self, sim: &mut Sim, out: &mut Vec<Event>) {
        let Some((id, t0)) = sim.live.coordinator.stop_the_world else { return };
        if !sim.live.channels.iter().all(|c| c.queue.is_empty()) {
            return;
        }
        let tick = sim.tick;
        sim.live.coordinator.stop_the_world = None;
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
