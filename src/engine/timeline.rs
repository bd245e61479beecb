//! Time travel. A run is (scenario, seed, actions), and the simulation is deterministic, so any
//! earlier step can be rebuilt by replaying. Keyframes (a copy of the run every
//! [`KEYFRAME_EVERY`] steps, the spacing doubling whenever more than [`MAX_KEYFRAMES`] would be
//! kept) bound both the replay and the memory: returning to any step costs one copy plus fewer
//! steps than the spacing. Acting at an earlier step forks the run from there.

use super::action::{Action, Event};
use super::error::ActionError;
use super::sim::Sim;

pub const KEYFRAME_EVERY: usize = 256;
pub const MAX_KEYFRAMES: usize = 128;

#[derive(Clone, Debug)]
pub struct Timeline {
    actions: Vec<Action>,
    /// keyframes[i]: the state after i * every actions.
    keyframes: Vec<Sim>,
    every: usize,
    current: Sim,
    position: usize,
}

impl Timeline {
    pub fn new(start: Sim) -> Timeline {
        Timeline { actions: vec![], keyframes: vec![start.clone()], every: KEYFRAME_EVERY, current: start, position: 0 }
    }

    /// Builds a timeline from a history, stopping at the first action that is not enabled.
    pub fn from_actions(start: Sim, actions: &[Action]) -> Result<Timeline, (usize, ActionError)> {
        let mut tl = Timeline::new(start);
        let mut scratch = Vec::new();
        for (i, a) in actions.iter().enumerate() {
            scratch.clear();
            tl.apply_into(*a, &mut scratch).map_err(|e| (i, e))?;
        }
        Ok(tl)
    }

    pub fn current(&self) -> &Sim {
        &self.current
    }
    pub fn initial(&self) -> &Sim {
        &self.keyframes[0]
    }
    /// How many steps have been taken to reach the current state.
    pub fn position(&self) -> usize {
        self.position
    }
    /// How many steps the history holds (the current state may be earlier, after a seek).
    pub fn len(&self) -> usize {
        self.actions.len()
    }
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }
    pub fn keyframes(&self) -> usize {
        self.keyframes.len()
    }
    pub fn keyframe_every(&self) -> usize {
        self.every
    }
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// Applies `a` at the current position; if that is earlier than the end, the later history is
    /// dropped (a fork).
    pub fn apply(&mut self, a: Action) -> Result<Vec<Event>, ActionError> {
        let mut out = Vec::new();
        self.apply_into(a, &mut out)?;
        Ok(out)
    }

    pub fn apply_into(&mut self, a: Action, out: &mut Vec<Event>) -> Result<(), ActionError> {
        self.current.apply(a, out)?;
        if self.position < self.actions.len() {
            self.actions.truncate(self.position);
            self.keyframes.truncate(self.position / self.every + 1);
        }
        self.actions.push(a);
        self.position += 1;
        if self.position % self.every == 0 {
            self.keyframes.push(self.current.clone());
            if self.keyframes.len() > MAX_KEYFRAMES {
                let mut i = 0;
                self.keyframes.retain(|_| {
                    i += 1;
                    i % 2 == 1
                });
                self.every *= 2;
            }
        }
        Ok(())
    }

    /// Moves to the state after `step` actions (clamped to the history) and returns the events of
    /// that last step. The history is kept: seeking forward again replays it.
    ///
    /// ```
    /// use barrierscope::engine::{Action, Scenario, Settings, Strategy, Timeline};
    ///
    /// let start = Scenario::builtin("line", Settings::new(Strategy::Aligned), 1).sim().unwrap();
    /// let mut tl = Timeline::new(start);
    /// for _ in 0..5 {
    ///     tl.apply(Action::Auto).unwrap();
    /// }
    /// tl.seek(2);
    /// assert_eq!((tl.position(), tl.current().tick), (2, 2));
    /// tl.seek(5);
    /// assert_eq!(tl.current().tick, 5);
    /// ```
    pub fn seek(&mut self, step: usize) -> Vec<Event> {
        let step = step.min(self.actions.len());
        let k = (step / self.every).min(self.keyframes.len() - 1);
        let mut sim = self.keyframes[k].clone();
        let mut out = Vec::new();
        for a in &self.actions[k * self.every..step] {
            out.clear();
            sim.apply(*a, &mut out).expect("a recorded history replays");
        }
        self.current = sim;
        self.position = step;
        out
    }

    /// The events of steps `from..to` (0-based step indices), by replay from a keyframe.
    pub fn events_between(&self, from: usize, to: usize) -> Vec<(usize, Vec<Event>)> {
        let to = to.min(self.actions.len());
        let from = from.min(to);
        let k = (from / self.every).min(self.keyframes.len() - 1);
        let mut sim = self.keyframes[k].clone();
        let mut res = Vec::new();
        for i in k * self.every..to {
            let mut out = Vec::new();
            sim.apply(self.actions[i], &mut out).expect("a recorded history replays");
            if i >= from {
                res.push((i, out));
            }
        }
        res
    }
}
