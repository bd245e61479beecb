//! Per-task timers: each task saves its own state when its own timer fires, with no barrier and
//! no coordinator, the naive design that the articles start from. Each save is a snapshot of one
//! task at one moment; the saves of different tasks are taken at different moments, so together
//! they need not form a consistent cut: a record can be counted in a downstream save but not yet
//! sent in the upstream one (an orphan, duplicated after a restore), or sent before the upstream
//! save and received after the downstream one (in transit, lost). A restore puts each task back
//! to its own latest save.
//!
//! A story, run as a test: the source reads a, b and c and its timer saves "read 3"; then the job
//! crashes before Map has taken any of them. Each task comes back from its own latest save: the
//! source past c, Map and Count with nothing. Nothing brings a, b and c back: lost.
//!
//! ```
//! use barrierscope::engine::{Action, Scenario, Settings, Strategy, TaskId};
//!
//! let mut sim = Scenario::builtin("line", Settings::new(Strategy::Timers), 1).sim().unwrap();
//! for _ in 0..3 {
//!     sim.step(Action::Read { task: TaskId(0) }).unwrap();
//! }
//! sim.step(Action::Timer { task: TaskId(0) }).unwrap();
//! sim.step(Action::Crash).unwrap();
//! sim.step(Action::Restore).unwrap();
//! while sim.has_work() {
//!     sim.step(Action::Auto).unwrap();
//! }
//! assert_eq!(sim.ledger().state.lost, 3);
//! ```

use super::marks::Mark;
use super::row::{Keeps, Row, Words};
use crate::engine::core::action::{Event, RestoreFrom, SnapshotKind};
use crate::engine::core::dataflow::task::TaskStatus;
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::TaskId;
use crate::engine::core::seam::{InFlight, Mechanism};
use crate::engine::core::sim::Sim;
use crate::engine::jobmanager::storage::SAVES_KEPT;
use crate::engine::settings::strategy::{strategy_name, Setting};
use crate::engine::settings::Settings;

/// Per-task timers (strategy `timers`).
pub struct PerTaskTimers;

impl Mechanism for PerTaskTimers {
    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks { ticks: true, ..Hooks::default() }
    }
    /// Each task's periodic timer (phase, period) fires on its own.
    fn on_tick(&self, sim: &mut Sim, out: &mut Vec<Event>) {
        let tick = sim.tick;
        for t in 0..sim.live.tasks.len() {
            let spec = sim.timer(TaskId(t as u16));
            if spec.period > 0 && tick >= spec.phase && (tick - spec.phase) % spec.period == 0 {
                sim.fire_timer(TaskId(t as u16), out);
            }
        }
    }
    fn restore(&self, sim: &mut Sim) -> (RestoreFrom, InFlight) {
        for t in 0..sim.live.tasks.len() {
            if let Some(s) = sim.durable.storage.saves[t].last().cloned() {
                sim.restore_task(&s);
            }
        }
        (RestoreFrom::OwnSaves, vec![])
    }
}

impl Sim {
    /// Task `t`'s timer fires: it saves its state to storage on its own.
    pub(crate) fn fire_timer(&mut self, t: TaskId, out: &mut Vec<Event>) {
        if self.live.tasks[t.index()].status != TaskStatus::Running {
            return;
        }
        let snap = self.take_snapshot(t, None, out);
        let saves = &mut self.durable.storage.saves[t.index()];
        saves.push(snap);
        if saves.len() > SAVES_KEPT {
            saves.remove(0);
        }
        out.push(Event::SnapshotTaken { task: t, checkpoint: None, kind: SnapshotKind::Timer });
        self.recompute_retention();
    }
}

/// The catalogue's row of strategy `timers`.
pub static ROW: Row = Row {
    id: "timers",
    mechanism: &PerTaskTimers,
    name: Words::new(strategy_name!(Timers, En), strategy_name!(Timers, Zh)),
    menu: Words::new(strategy_name!(Timers, En), strategy_name!(Timers, Zh)),
    in_sentence: Words::new("per-task timers", strategy_name!(Timers, Zh)),
    keeps: Some(Keeps {
        saved: Words::new("no coordination: each task's own timer saves it", "无协调：各任务按自己的定时器保存"),
        restore: Words::new("each task from its own latest save", "每个任务用自己最近的保存"),
    }),
    settings: &[Setting::FailoverStrategy, Setting::Socket],
    coordinator: false,
    barriers: false,
    transactional_sink: false,
    restores_snapshots: true,
    pyflink: Err(Words::new(
        "Flink has no per-task timer snapshots; its checkpoints are always coordinated",
        "Flink 没有各任务各自的定时快照，它的检查点总是协调的",
    )),
    pyspark: false,
    explore: Ok(()),
    toy: false,
    marks: |_| &[Mark::Save, Mark::Cut, Mark::Replayed, Mark::NextRecord],
    system: "Flink",
    script_words: &[],
    check_settings: super::row::no_rules,
};
