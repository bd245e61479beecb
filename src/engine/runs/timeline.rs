//! Time travel. A run is (scenario, seed, actions), and the simulation is deterministic, so any
//! earlier step can be rebuilt by replaying. Keyframes (a copy of the run every
//! [`KEYFRAME_EVERY`] steps, the spacing doubling whenever more than [`MAX_KEYFRAMES`] would be
//! kept) bound both the replay and the memory: returning to any step costs one copy plus fewer
//! steps than the spacing. Acting at an earlier step forks the run from there: the later steps
//! are dropped from the history, and handed back as a [`Branch`], which
//! [`Timeline::swap_branch`] puts back exactly (the same steps, the playhead where it was).

use serde::{Deserialize, Serialize};

use crate::engine::core::action::{Action, Event};
use crate::engine::core::error::ActionError;
use crate::engine::core::sim::Sim;
use crate::engine::runs::replay::replay;

pub const KEYFRAME_EVERY: usize = 256;
pub const MAX_KEYFRAMES: usize = 128;

/// The steps of a history after one of its steps: what a fork drops, and what brings them back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branch {
    /// How many steps it shares with the history it belongs to: its first action is action
    /// `from` (0-based), step `from + 1`.
    pub from: usize,
    pub actions: Vec<Action>,
    /// Where the playhead stood on it.
    pub position: usize,
}

#[derive(Clone, Debug)]
pub struct Timeline {
    actions: Vec<Action>,
    /// keyframes[i]: the state after i * every actions.
    keyframes: Vec<Sim>,
    every: usize,
    current: Sim,
    position: usize,
    /// The state after every action, kept while the playhead is earlier (None at the end, where
    /// it is `current`).
    last: Option<Sim>,
}

impl Timeline {
    pub fn new(start: Sim) -> Timeline {
        Timeline {
            actions: vec![],
            keyframes: vec![start.clone()],
            every: KEYFRAME_EVERY,
            current: start,
            position: 0,
            last: None,
        }
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
    /// The state after the whole history, wherever the playhead is (what the Checkpoints tab
    /// shows: every checkpoint with its final figures).
    pub fn last(&self) -> &Sim {
        self.last.as_ref().unwrap_or(&self.current)
    }
    /// The steps (numbered from 1) that acting now would drop: those after the playhead.
    pub fn fork_preview(&self) -> Option<std::ops::RangeInclusive<usize>> {
        (self.position < self.actions.len()).then(|| self.position + 1..=self.actions.len())
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
        self.apply_forking(a, out).map(drop)
    }

    /// [`Timeline::apply_into`], handing back the steps a fork dropped (None when the playhead
    /// was at the end, or the action was refused: then nothing changed).
    pub fn apply_forking(&mut self, a: Action, out: &mut Vec<Event>) -> Result<Option<Branch>, ActionError> {
        self.current.apply(a, out)?;
        let dropped = (self.position < self.actions.len()).then(|| {
            let actions = self.actions.split_off(self.position);
            self.keyframes.truncate(self.position / self.every + 1);
            self.last = None;
            Branch { from: self.position, actions, position: self.position }
        });
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
        Ok(dropped)
    }

    /// Puts `branch` in place of the history after its first `from` steps, with the playhead where
    /// it stood on it, and hands back what it replaced (the steps after `from`, and the playhead),
    /// so that swapping that back restores this history exactly. A branch that does not fit (it
    /// starts past the end, or one of its actions is refused here) changes nothing and is handed
    /// back as the error.
    pub fn swap_branch(&mut self, branch: Branch) -> Result<Branch, Branch> {
        if branch.from > self.actions.len() {
            return Err(branch);
        }
        let old = Branch { from: branch.from, actions: self.actions[branch.from..].to_vec(), position: self.position };
        let mut out = Vec::new();
        self.cut(branch.from);
        for a in &branch.actions {
            out.clear();
            if self.apply_into(*a, &mut out).is_err() {
                self.cut(branch.from);
                for a in &old.actions {
                    out.clear();
                    self.apply_into(*a, &mut out).expect("a recorded history replays");
                }
                self.seek(old.position);
                return Err(branch);
            }
        }
        self.seek(branch.position);
        Ok(old)
    }

    /// Drops the history after step `step`, with the playhead there.
    fn cut(&mut self, step: usize) {
        self.seek(step);
        self.actions.truncate(self.position);
        self.keyframes.truncate(self.position / self.every + 1);
        self.last = None;
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
        let out = replay(&mut sim, &self.actions[k * self.every..step], |_| {});
        let before = std::mem::replace(&mut self.current, sim);
        if step == self.actions.len() {
            self.last = None;
        } else if self.position == self.actions.len() {
            self.last = Some(before);
        }
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
        replay(&mut sim, &self.actions[k * self.every..to], |at| {
            // After the replay's `at.step` actions the history has taken `i`: the last one is its
            // action `i - 1` (0-based).
            let i = k * self.every + at.step;
            if at.step > 0 && i > from {
                res.push((i - 1, std::mem::take(at.events)));
            }
        });
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{builtin, generated_input, Scenario, Settings, Strategy};

    /// The whole state of a run (the clock, the tasks, the channels, storage, the statistics, the
    /// scheduler's PRNG), but for the scheduler's scratch buffer, which holds no state.
    fn state(sim: &Sim) -> String {
        let s = format!("{sim:?}");
        s[..s.rfind(", scratch: ").expect("the last field")].to_string()
    }

    /// The model of a timeline: its actions, replayed from the start.
    fn replay(start: &Sim, actions: &[Action]) -> Sim {
        let mut sim = start.clone();
        for a in actions {
            sim.apply(*a, &mut Vec::new()).unwrap();
        }
        sim
    }

    /// A run of `keyed-shuffle` with `records` records per partition and a checkpoint every 7 steps,
    /// `steps` auto steps long (or until nothing is left).
    fn run(records: usize, steps: usize) -> Timeline {
        let mut settings = Settings::new(Strategy::Aligned);
        settings.checkpoint_interval = Some(7);
        let mut sc = Scenario::builtin("keyed-shuffle", settings, 3);
        sc.input = Some(generated_input(&builtin("keyed-shuffle").unwrap().spec, records));
        let mut tl = Timeline::new(sc.sim().unwrap());
        for _ in 0..steps {
            if tl.apply(Action::Auto).is_err() {
                break;
            }
        }
        tl
    }

    fn assert_same(tl: &Timeline, actions: &[Action], position: usize) {
        assert_eq!((tl.actions(), tl.position()), (actions, position));
        assert_eq!(state(tl.current()), state(&replay(tl.initial(), &actions[..position])));
        assert_eq!(state(tl.last()), state(&replay(tl.initial(), actions)));
    }

    #[test]
    fn a_fork_hands_back_the_dropped_steps_and_swapping_them_back_restores_the_history() {
        // Long enough to cross keyframes, so the fork also drops keyframes.
        let mut tl = run(120, 700);
        let (before, len) = (tl.actions().to_vec(), tl.len());
        assert!(len > 2 * KEYFRAME_EVERY && tl.keyframes() > 2, "{len} steps");
        for at in [len - 1, 300, KEYFRAME_EVERY, 5, 0] {
            tl.seek(at);
            assert_eq!(tl.fork_preview(), Some(at + 1..=len));
            let dropped = tl.apply_forking(Action::Crash, &mut Vec::new()).unwrap().expect("a fork");
            assert_eq!(dropped, Branch { from: at, actions: before[at..].to_vec(), position: at });
            assert_eq!((tl.len(), tl.fork_preview()), (at + 1, None));
            let forked = tl.actions().to_vec();
            let set_aside = tl.swap_branch(dropped.clone()).unwrap();
            assert_eq!(set_aside, Branch { from: at, actions: vec![Action::Crash], position: at + 1 });
            assert_same(&tl, &before, at);
            // And back again: the fork, exactly.
            assert_eq!(tl.swap_branch(set_aside).unwrap(), dropped);
            assert_same(&tl, &forked, at + 1);
            tl.swap_branch(dropped).unwrap();
            assert_same(&tl, &before, at);
        }
    }

    #[test]
    fn refused_or_at_the_end_no_fork() {
        let mut tl = run(4, 6);
        let before = tl.actions().to_vec();
        assert_eq!(tl.apply_forking(Action::Auto, &mut Vec::new()), Ok(None), "at the end: no fork");
        tl.seek(2);
        assert!(tl.apply_forking(Action::Restore, &mut Vec::new()).is_err());
        assert_same(&tl, &[&before[..], &[Action::Auto]].concat(), 2);
    }

    #[test]
    fn a_branch_that_does_not_fit_changes_nothing() {
        let mut tl = run(4, 10);
        let before = tl.actions().to_vec();
        tl.seek(4);
        let past_the_end = Branch { from: 11, actions: vec![Action::Auto], position: 12 };
        assert_eq!(tl.swap_branch(past_the_end.clone()), Err(past_the_end));
        assert_same(&tl, &before, 4);
        let refused = Branch { from: 3, actions: vec![Action::Auto, Action::Restore], position: 4 };
        assert_eq!(tl.swap_branch(refused.clone()), Err(refused));
        assert_same(&tl, &before, 4);
    }

    #[test]
    fn the_last_state_is_the_end_of_the_history_wherever_the_playhead_is() {
        let mut tl = run(120, 600);
        let len = tl.len();
        let end = state(tl.current());
        for at in [len, 0, 1, 257, len - 1, len, 513, 3] {
            tl.seek(at);
            assert_eq!(state(tl.last()), end, "at {at}");
            assert_eq!(tl.current().tick, at as u64);
        }
    }
}
