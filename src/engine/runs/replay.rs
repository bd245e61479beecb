//! Replay. A run is (scenario, seed, actions), and the simulation is deterministic, so applying a
//! recorded history's actions again to a copy of a state it passed through rebuilds every later
//! step exactly. This is the one place that does it: time travel ([`crate::engine::runs::timeline`]) replays
//! from a keyframe to a step, a drawn cut ([`crate::engine::verdict::drawn_cut`]), the space-time diagram
//! ([`crate::engine::space_time`]) and a counterexample's explanation replay from the start and look at
//! the run along the way. The one who replays sees
//! the run at each step boundary ([`At`]): at the start, and after every action.

use crate::engine::core::action::{Action, Event};
use crate::engine::core::sim::Sim;

/// The run at a boundary between two steps of a replay.
pub struct At<'a> {
    /// How many of the replayed actions have been applied: 0 at the start.
    pub step: usize,
    /// The run after them.
    pub sim: &'a mut Sim,
    /// The events of the action just applied (empty at the start). Taking them leaves the replay
    /// nothing to hand back for that step.
    pub events: &'a mut Vec<Event>,
    /// The action to be applied next, None at the end.
    pub next: Option<Action>,
}

/// Applies `actions` to `sim` in order, showing the run to `visit` at the start and after every
/// action, and returns the events of the last one (none for no actions, or if `visit` took them).
/// The actions are a recorded history: each one applies.
pub fn replay(sim: &mut Sim, actions: &[Action], mut visit: impl FnMut(At<'_>)) -> Vec<Event> {
    match try_replay(sim, actions, |at| {
        visit(at);
        Ok::<(), std::convert::Infallible>(())
    }) {
        Ok(events) => events,
        Err(never) => match never {},
    }
}

/// [`replay`], stopping at the first boundary where `visit` fails, with its error.
pub fn try_replay<E>(
    sim: &mut Sim,
    actions: &[Action],
    mut visit: impl FnMut(At<'_>) -> Result<(), E>,
) -> Result<Vec<Event>, E> {
    let mut events = Vec::new();
    for step in 0..=actions.len() {
        if step > 0 {
            events.clear();
            sim.apply(actions[step - 1], &mut events).expect("a recorded history replays");
        }
        visit(At { step, sim: &mut *sim, events: &mut events, next: actions.get(step).copied() })?;
    }
    Ok(events)
}
