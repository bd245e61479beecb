//! One row a sink wrote to its external system: the source record it came from, its value, the
//! sink task that wrote it and the step it was written at. A table, a transaction and a Kafka
//! partition's log all hold rows.

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::{RecordId, TaskId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub record: RecordId,
    pub value: i64,
    pub sink: TaskId,
    pub tick: u64,
}
