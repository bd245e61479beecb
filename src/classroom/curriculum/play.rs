//! Playing a built-in lesson in a test: to a step, with that step revealed, or through to its
//! end; a lesson found by its id.

use crate::classroom::curriculum::builtins;
use crate::engine::Sim;

/// Plays a whole lesson, revealing every prediction; returns the final simulation.
pub(super) fn play_all(i: usize) -> Sim {
    play_to(i, builtins()[i].steps.len() - 1)
}

/// Plays lesson `i` up to and including step `step`, with that step revealed; returns the
/// simulation of the current segment (since the last restart).
pub(super) fn play_to(i: usize, step: usize) -> Sim {
    crate::classroom::lesson_check::played(i, step, true).unwrap_or_else(|e| panic!("{e}"))
}

pub(super) fn index(id: &str) -> usize {
    builtins().iter().position(|l| l.id == id).unwrap_or_else(|| panic!("no lesson {id}"))
}

pub(super) fn labels(sim: &Sim, records: Vec<crate::engine::RecordId>) -> Vec<&str> {
    records.into_iter().map(|r| sim.record_label(r)).collect()
}
