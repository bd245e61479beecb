//! Errors a user can cause: a scenario that doesn't parse or make sense, or an action that is not
//! enabled in the current state. Each names its problem in one sentence; none is a panic. An action
//! error is worded in both languages in [`crate::engine::wording`].

use std::fmt;

/// Re-exported from where it used to live.
pub use crate::engine::core::lang::Lang;
use crate::engine::mechanisms::catalogue::carried::MechanismRefusal;
use crate::engine::settings::strategy::Strategy;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// The text is not valid JSON, or has the wrong shape.
    Json(String),
    /// The scenario declares a format version (`found`) other than the one this build reads.
    Version { found: u32, reads: u32 },
    /// The topology is invalid (unknown operator, cycle, bad parallelism, ...).
    Topology(String),
    /// The input log is invalid.
    Input(String),
    /// The strategy or settings are invalid or absurd.
    Settings(String),
    /// An action of the script names something unknown or is not enabled.
    Action { index: usize, message: String },
    /// The schedule explorer can't explore this scenario (its budget, strategy or settings).
    Explore(String),
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Json(m) => write!(f, "the scenario is not valid JSON for this format: {m}"),
            ScenarioError::Version { found, reads } => {
                write!(f, "the scenario has format version {found}; this build reads version {reads}")
            }
            ScenarioError::Topology(m) => write!(f, "invalid topology: {m}"),
            ScenarioError::Input(m) => write!(f, "invalid input log: {m}"),
            ScenarioError::Settings(m) => write!(f, "invalid settings: {m}"),
            ScenarioError::Action { index, message } => write!(f, "action #{} of the script: {message}", index + 1),
            ScenarioError::Explore(m) => write!(f, "can't explore it: {m}"),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Why an action was refused (`TaskDown`: the task is down with its failed pipelined region;
/// `NoNotification`: no checkpoint-complete notification is on its way to it). The state is
/// untouched when this is returned. Names are resolved when the error is made, so it can be worded
/// in either language without the job graph ([`ActionError::message`], in [`crate::engine::wording`]).
///
/// Its `Debug` is derived natively; in the page it is the English sentence (`Display`): every
/// `unwrap` on a refusal reaches a `Debug`, so the page's first visit would carry the derived one
/// too, 1.3 KB of code for what the sentence says.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Debug))]
pub enum ActionError {
    NoSuchChannel(u16),
    NoSuchTask(u16),
    JobDown,
    JobRunning,
    TaskDown {
        task: String,
    },
    NoNotification {
        task: String,
    },
    ChannelEmpty {
        channel: String,
    },
    ChannelBlocked {
        channel: String,
        task: String,
    },
    Backpressured {
        task: String,
        channel: String,
        capacity: u32,
    },
    /// A slow task is busy with a record until step `until` (it takes `cost` steps a record).
    Busy {
        task: String,
        until: u64,
        cost: u32,
    },
    NotASource {
        task: String,
    },
    SourcesPaused {
        checkpoint: u64,
    },
    LogExhausted {
        task: String,
        records: usize,
    },
    /// A socket's next record has not arrived yet.
    NotArrived {
        task: String,
        at: u64,
    },
    NoCheckpoints {
        strategy: Strategy,
    },
    NotTimers {
        strategy: Strategy,
    },
    NothingToDo,
    /// Refused by a mechanism, in its own words (Storm's acker in `mechanisms/storm/refusals.rs`,
    /// Spark Streaming in `mechanisms/spark/refusals.rs`): the catalogue's `MechanismRefusal`.
    Mechanism(MechanismRefusal),
    /// The strategy's mechanism has no step with this code (`core::step`).
    NoSuchStep {
        step: char,
        strategy: Strategy,
    },
    /// The job was stopped with a savepoint or cancelled: submit it again first.
    JobStopped,
    /// The job still runs (or restarts): only a stopped job is submitted again.
    NotStopped,
    /// A stop with savepoint is in progress: its savepoint is being taken.
    Stopping {
        savepoint: u64,
    },
    /// No savepoint, nor newest retained checkpoint, has this id.
    NoSavepoint {
        id: u64,
    },
    /// A fault of the Kafka sink's refused: the sink is not Kafka, the task is not a sink, or no
    /// zombie of the task can write.
    Kafka(KafkaRefusal),
}

/// Why a fault of the Kafka sink's was refused.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Debug))]
pub enum KafkaRefusal {
    NotKafka,
    NotASink {
        task: String,
    },
    NoZombie {
        task: String,
    },
    /// Time passes on the broker by 1 to `max` ms at a time.
    PassTime {
        max: u64,
    },
}

impl std::error::Error for ActionError {}

#[cfg(target_arch = "wasm32")]
impl fmt::Debug for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
