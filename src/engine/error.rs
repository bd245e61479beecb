//! Errors a user can cause: a scenario that doesn't parse or make sense, or an action that is not
//! enabled in the current state. Each names its problem in one sentence; none is a panic.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// The text is not valid JSON, or has the wrong shape.
    Json(String),
    /// The scenario declares a format version this build can't read.
    Version(u32),
    /// The topology is invalid (unknown operator, cycle, bad parallelism, ...).
    Topology(String),
    /// The input log is invalid.
    Input(String),
    /// The strategy or settings are invalid or absurd.
    Settings(String),
    /// An action of the script names something unknown or is not enabled.
    Action { index: usize, message: String },
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Json(m) => write!(f, "the scenario is not valid JSON for this format: {m}"),
            ScenarioError::Version(v) => write!(
                f,
                "the scenario has format version {v}; this build reads version {}",
                super::scenario::FORMAT_VERSION
            ),
            ScenarioError::Topology(m) => write!(f, "invalid topology: {m}"),
            ScenarioError::Input(m) => write!(f, "invalid input log: {m}"),
            ScenarioError::Settings(m) => write!(f, "invalid settings: {m}"),
            ScenarioError::Action { index, message } => write!(f, "action #{} of the script: {message}", index + 1),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Why an action was refused. The state is untouched when this is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError(pub String);

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ActionError {}
