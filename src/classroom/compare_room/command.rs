//! What the learner asks of Side by side: a [`CompareCommand`], a click or a key turned into data,
//! so that the room's session is tested without a browser (and a command goes through JSON as it
//! is).

use serde::{Deserialize, Serialize};

use crate::classroom::unread::Unread;
use crate::engine::Settings;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CompareCommand {
    /// One tick of the clock: every run that has not finished takes a step.
    Step,
    Back,
    ToStart,
    ToEnd,
    TogglePlay,
    /// Play's clock: one tick while playing.
    Tick,
    /// Play's speed, an index into [`SPEEDS`](crate::classroom::compare_room::SPEEDS).
    Speed(usize),
    /// X: the crash moves to the tick the clock stands at, and strikes.
    CrashNow,
    /// R: the restore moves to the tick the clock stands at, and comes.
    RestoreNow,
    /// The comparison's built-in job.
    Job(String),
    /// Its input: so many records per partition, one every so many ticks.
    Input(usize, u64),
    /// Run `i` takes this preset, or (None) is removed.
    Run(usize, Option<usize>),
    /// Where the crash strikes: `"cluster"`, `"master"` or a task's name.
    Place(String),
    CrashAt(u64),
    RestoreAt(u64),
    /// The main screen's job and settings as the first run.
    FromMain(String, Box<Settings>),
    /// The files the learner chose (name and text, one to three), or why the page could not read
    /// them.
    Open(Result<Vec<(String, String)>, Unread>),
    /// The link the Share button made.
    Shared(String),
    Dismiss,
    /// The lesson "Three ways to survive a crash", from its start on the article's three ways.
    LessonStart,
    LessonNext,
    LessonPrev,
    LessonClose,
    /// On the lesson's predict step: question `id`'s answer is run `n` (counting from 0; one past
    /// the last run: none of them).
    Predict(String, usize),
}
