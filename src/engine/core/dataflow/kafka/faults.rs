//! The Kafka sink's own faults, as serializable actions (`Action::CutOff`, `Action::ZombieWrite`, `Action::PassTime`): a sink task cut off
//! from the JobManager that goes on as a zombie, the zombie's writes, and time passing on the
//! broker's clock (a down time the learner sets). Crashing the cluster, one task or the JobManager
//! are the run's own actions.

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::TaskId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "fault")]
pub enum KafkaFault {
    /// Sink task `task` loses the JobManager (its heartbeats time out): the job fails over as for
    /// a failed task, but the task's process and its producer go on, a zombie (code `o3`).
    CutOff { task: TaskId },
    /// The zombie of `task` writes the next record it holds (code `z3`).
    ZombieWrite { task: TaskId },
    /// `ms` milliseconds pass on the broker's clock while the job does nothing else (code `b60000`).
    PassTime { ms: u64 },
}

impl KafkaFault {
    /// The action's code in links and saved runs.
    pub fn code(self) -> String {
        match self {
            KafkaFault::CutOff { task } => format!("o{}", task.0),
            KafkaFault::ZombieWrite { task } => format!("z{}", task.0),
            KafkaFault::PassTime { ms } => format!("b{ms}"),
        }
    }
}
