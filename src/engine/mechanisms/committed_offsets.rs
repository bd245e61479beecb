//! Committed offsets: per source task, the offset up to which the log was acknowledged, kept
//! outside the job (Kafka keeps a consumer group's commits), so a restart resumes there. Storm's
//! spouts commit what the acker completed; Spark Streaming's receivers commit what they stored.
//! Each keeps them in its durable slot (`crate::engine::core::own_state`).

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::TaskId;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommittedOffsets(Vec<u32>);

impl CommittedOffsets {
    /// No commit yet.
    pub const fn new() -> CommittedOffsets {
        CommittedOffsets(Vec::new())
    }
    /// Where source `t` resumes: 0 before its first commit.
    pub fn of(&self, t: TaskId) -> u32 {
        self.0.get(t.index()).copied().unwrap_or(0)
    }
    /// Source `t` committed up to `offset` (an older commit never moves it back); `tasks` is the
    /// job's number of tasks.
    pub fn commit(&mut self, t: TaskId, offset: u32, tasks: usize) {
        if self.0.len() < tasks {
            self.0.resize(tasks, 0);
        }
        self.0[t.index()] = self.0[t.index()].max(offset);
    }
    /// Every source's committed offset, by task (empty before the first commit).
    pub fn all(&self) -> &[u32] {
        &self.0
    }
}
