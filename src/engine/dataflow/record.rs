//! Records and what travels on a channel. A source record enters the job once, from its log; on the
//! wire it carries its current value (the source value, a count or a sum) and whether it is a
//! replay. Checkpoint barriers travel in the same FIFO stream as the records (Flink's
//! `CheckpointBarrier` is an event in the data stream, not a side message).

use serde::{Deserialize, Serialize};

use crate::engine::ids::{CheckpointId, RecordId};

/// A record on the wire: the source record it derives from and its current value (a count, a sum,
/// or the source value). `replayed` marks records that a source re-read or a restore put back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub id: RecordId,
    pub value: i64,
    pub replayed: bool,
}

/// One item in a channel: a record with its sequence number on that channel, or a checkpoint
/// barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    Record { seq: u64, rec: Record },
    Barrier(CheckpointId),
}
