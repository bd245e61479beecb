//! A mechanism's own step: an action that only one mechanism has, such as Storm's messages to
//! and from the acker. The scheduler draws it among the job's steps, the learner clicks it, and
//! links and saved runs carry it as a code, while the engine knows only that some mechanism owns
//! it: the mechanism says when it is enabled and what it does (`Mechanism::check`,
//! `OwnSteps::steps`, `OwnSteps::apply_step`).

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::TaskId;

/// Which of the mechanism's steps (a lower-case letter, its code in links: Storm's `q` and `p`),
/// at which task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Step {
    pub kind: char,
    pub task: TaskId,
}
