//! Per-task timers: each task saves its own state when its own timer fires, with no barrier and
//! no coordinator, the naive design that the articles start from. Each save is a snapshot of one
//! task at one moment; the saves of different tasks are taken at different moments, so together
//! they need not form a consistent cut: a record can be counted in a downstream save but not yet
//! sent in the upstream one (an orphan, duplicated after a restore), or sent before the upstream
//! save and received after the downstream one (in transit, lost). A restore puts each task back
//! to its own latest save.

use super::seam::{InFlight, Mechanism};
use crate::engine::action::{Event, RestoreFrom, SnapshotKind};
use crate::engine::dataflow::task::TaskStatus;
use crate::engine::ids::TaskId;
use crate::engine::sim::Sim;
use crate::engine::storage::SAVES_KEPT;

/// Per-task timers (strategy `timers`).
pub struct PerTaskTimers;

impl Mechanism for PerTaskTimers {
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
