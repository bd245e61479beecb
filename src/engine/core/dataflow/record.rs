//! Records and what travels on a channel. A source record enters the job once, from its log; on the
//! wire it carries its current value (the source value, a count or a sum) and whether it is a
//! replay. Checkpoint barriers and cancel markers travel in the same FIFO stream as the records
//! (Flink's `CheckpointBarrier` and `CancelCheckpointMarker` are events in the data stream, not
//! side messages).

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::{CheckpointId, RecordId};

/// A record on the wire: the source record it derives from and its current value (a count, a sum,
/// or the source value). `replayed` marks records that a source re-read or a restore put back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub id: RecordId,
    pub value: i64,
    pub replayed: bool,
}

/// A checkpoint barrier, after Flink's `CheckpointBarrier`: its checkpoint, the step the
/// CheckpointCoordinator triggered that checkpoint (`timestamp`: every task counts the alignment
/// timeout from it), and whether it is unaligned (`CheckpointOptions.isUnalignedCheckpoint`). An
/// unaligned barrier is a priority event: it is put ahead of the records in an output queue and
/// is never aligned on. A timed-out task forwards its barrier unaligned (`asUnaligned`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Barrier {
    pub checkpoint: CheckpointId,
    pub timestamp: u64,
    pub unaligned: bool,
    /// May this aligned barrier's alignment time out and turn unaligned (Flink's
    /// `CheckpointOptions.isTimeoutable`)? Only a checkpoint's under an alignment timeout; a
    /// savepoint's never: savepoints are always aligned, without a timeout
    /// (`CheckpointOptions.forConfig` gives them `alignedNoTimeout`).
    pub timeoutable: bool,
}

impl Barrier {
    /// The same barrier, unaligned (Flink's `CheckpointBarrier.asUnaligned`).
    pub fn as_unaligned(self) -> Barrier {
        Barrier { unaligned: true, timeoutable: false, ..self }
    }
}

/// One item in a channel: a record with its sequence number on that channel, a checkpoint barrier,
/// or a cancel marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    Record {
        seq: u64,
        rec: Record,
    },
    Barrier(Barrier),
    /// Flink's `CancelCheckpointMarker`: the sender declined this checkpoint, so the receiving
    /// task need not wait for its barrier on this input. An ordinary event: it queues behind
    /// records.
    Cancel(CheckpointId),
}
