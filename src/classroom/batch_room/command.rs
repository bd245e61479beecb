//! What the learner asks of the Batch room: a [`BatchCommand`], a click or a key turned into data,
//! so that the room's session is tested without a browser (and a command goes through JSON as it
//! is).

use serde::{Deserialize, Serialize};

use crate::classroom::saved_run::Origin;
use crate::classroom::unread::Unread;
use crate::engine::batch::{BatchAction, Keep};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BatchCommand {
    /// Step: forward through the history, or a new step at its end.
    Step,
    /// An action at the playhead (a step, a task's failure, a machine lost); later steps go.
    Act(BatchAction),
    Back,
    Seek(usize),
    /// To the end of the history, then every task through.
    ToEnd,
    /// The same job from its start.
    Reset,
    TogglePlay,
    /// Play's clock: one step while playing.
    Tick,
    /// Play's speed, an index into [`SPEEDS`](crate::classroom::batch_room::SPEEDS).
    Speed(usize),
    /// A built-in job from the menu.
    Job(String),
    /// Where RDD `n` keeps its partitions; the actions so far are replayed on the changed job.
    Keep(usize, Keep),
    /// Text to open (a batch file), or why the page could not read it.
    Open(Origin, Result<String, Unread>),
    /// Go to the lesson's step (past the last: nothing happens), or leave the lesson (None).
    Lesson(Option<usize>),
    /// Mark a partition (or a task) as predicted to be computed again, or unmark it.
    Predict(String),
    /// Run to the end and show the answer.
    Reveal,
    Dismiss,
    /// The link the Share button made.
    Shared(String),
}
