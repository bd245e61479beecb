//! One replayed schedule, the explanation's evidence: per step its events, the run just before the
//! last crash's restore and at the end; and how often a run reflects a record at a task.

use super::Save;

use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::{RecordId, TaskId};
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::runs::replay::replay;
use crate::engine::settings::Strategy;

/// One replayed schedule: per step (from 0) its events; the run just before the last crash's
/// restore, and at the end.
pub(super) struct Replay {
    pub(super) events: Vec<Vec<Event>>,
    pub(super) crash: Option<usize>,
    pub(super) restore: Option<usize>,
    pub(super) before_restore: Option<Sim>,
    pub(super) end: Sim,
    pub(super) first_tick: u64,
}

impl Replay {
    pub(super) fn of(initial: &Sim, schedule: &[Action]) -> Replay {
        let mut end = initial.clone();
        let (mut events, mut crash, mut restore, mut before_restore) = (vec![], None, None, None);
        replay(&mut end, schedule, |at| {
            if at.step > 0 {
                events.push(std::mem::take(at.events));
            }
            if at.next == Some(Action::Crash) {
                crash = Some(at.step);
                restore = None;
            }
            if at.next == Some(Action::Restore) && crash.is_some() && restore.is_none() {
                restore = Some(at.step);
                before_restore = Some(at.sim.clone());
            }
        });
        Replay { events, crash, restore, before_restore, end, first_tick: initial.tick }
    }
    /// The step (from 1) of a snapshot taken at `tick`, if the schedule took it.
    pub(super) fn step_of_tick(&self, tick: u64) -> Option<u32> {
        (tick >= self.first_tick).then(|| (tick - self.first_tick + 1) as u32)
    }
    /// The steps (from 1) in `range` (indices from 0) with an event matching `f`.
    pub(super) fn steps(&self, range: std::ops::Range<usize>, f: impl Fn(&Event) -> bool) -> Vec<u32> {
        range.filter(|&i| self.events.get(i).is_some_and(|ev| ev.iter().any(&f))).map(|i| i as u32 + 1).collect()
    }
    pub(super) fn save(&self, s: Option<&TaskSnapshot>, strategy: Strategy) -> Save {
        match s {
            _ if strategy == Strategy::None => Save::NoSnapshots,
            Some(s) => Save::At { step: self.step_of_tick(s.tick), checkpoint: s.checkpoint },
            None if strategy.uses_coordinator() => Save::NoCheckpoint,
            None => Save::NotYet,
        }
    }
    pub(super) fn save_step(save: &Save) -> Option<u32> {
        match save {
            Save::At { step, .. } => *step,
            _ => None,
        }
    }
}

/// How often the failure-free run reflects `r` at task `t`: the records it processed from its
/// inputs (a keyed task counts each once).
pub(super) fn expected_at(sim: &Sim, t: TaskId, r: RecordId) -> u32 {
    sim.graph
        .task(t)
        .inputs
        .iter()
        .filter_map(|c| sim.expected.places.0.get(c.index()))
        .flat_map(|v| v.iter().filter(|(rec, _)| *rec == r).map(|(_, n)| *n))
        .sum()
}

pub(super) fn reflected(state: &OpState, r: RecordId) -> u32 {
    match state {
        OpState::Keyed { entries } => {
            entries.values().map(|e| e.contributors.iter().filter(|c| **c == r).count() as u32).sum()
        }
        _ => 0,
    }
}
