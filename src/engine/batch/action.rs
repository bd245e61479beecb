//! What the learner does to a batch job, as serializable actions with one-word codes (for links,
//! files and scenario scripts), and why an action can be refused.

use serde::{Deserialize, Serialize};

/// One action on a batch job. The same three for Hadoop and Spark: a step of the scheduler, a
/// task failure (the task's process dies; its machine lives on), and the loss of a machine (a
/// Hadoop node with its local disk, a Spark executor with its memory and shuffle files).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BatchAction {
    /// The scheduler's next step: start a task, or carry the running one a step further.
    Step,
    /// The running task fails (an exception, a killed JVM); its node or executor survives.
    FailTask,
    /// Hadoop: node `n` is lost, with its local disk. Spark: executor `n` is lost, with its memory
    /// and shuffle files, and a fresh one replaces it.
    Crash(u8),
}

impl BatchAction {
    /// The action's code: `s`, `f`, `c0`.
    pub fn code(self) -> String {
        match self {
            BatchAction::Step => "s".into(),
            BatchAction::FailTask => "f".into(),
            BatchAction::Crash(n) => format!("c{n}"),
        }
    }

    pub fn from_code(s: &str) -> Option<BatchAction> {
        match s {
            "s" => Some(BatchAction::Step),
            "f" => Some(BatchAction::FailTask),
            _ => s.strip_prefix('c').and_then(|n| n.parse().ok()).map(BatchAction::Crash),
        }
    }

    /// Codes separated by spaces.
    pub fn codes(actions: &[BatchAction]) -> String {
        actions.iter().map(|a| a.code()).collect::<Vec<_>>().join(" ")
    }
}

/// Why an action was refused; the job is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The job is done: nothing left to run.
    Done,
    /// No task is running, so none can fail.
    NoRunningTask,
    /// There is no machine with this number.
    NoSuchMachine(u8),
    /// This node is already lost.
    AlreadyDown(u8),
    /// The last live node: the job would have nowhere to run.
    LastNode,
    /// Spark: a task failed `spark.task.maxFailures` times and the job failed.
    Aborted,
}
