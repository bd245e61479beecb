//! Storm's own steps (`core::step`): a message reaching the acker, and the acker's answer
//! reaching a spout. Each is a delivery the learner or the scheduler picks, as a channel's is.

use crate::engine::core::action::Action;
use crate::engine::core::ids::TaskId;
use crate::engine::core::step::Step;

/// Storm's own step `q`: the oldest message from this task (a spout's `__ack_init`, a bolt's
/// `__ack_ack`) reaches the acker, which XORs it into the tree's value.
pub const TO_ACKER: char = 'q';
/// Storm's own step `p`: the acker's oldest answer (the tree completed) reaches this spout, which
/// forgets the tuple and commits its offset.
pub const FROM_ACKER: char = 'p';

/// The step that delivers task `task`'s oldest message to the acker.
pub fn to_acker(task: TaskId) -> Action {
    Action::Mechanism { step: Step { kind: TO_ACKER, task } }
}

/// The step that delivers the acker's oldest answer to spout `task`.
pub fn from_acker(task: TaskId) -> Action {
    Action::Mechanism { step: Step { kind: FROM_ACKER, task } }
}
