//! Newtype identifiers. A job graph is expanded once into tasks (operator subtasks) and channels
//! (one FIFO per producer/consumer subtask pair); everything else refers to them by index, never by
//! a bare `usize`, so a task can't be confused with a channel.

use serde::{Deserialize, Serialize};

macro_rules! id {
    ($(#[$m:meta])* $name:ident($t:ty)) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub $t);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    };
}

id!(
    /// One operator subtask (a Flink "task" / "subtask").
    TaskId(u16)
);
id!(
    /// One FIFO channel from a producer subtask to a consumer subtask.
    ChannelId(u16)
);
id!(
    /// A logical operator of the job graph, before expansion into subtasks.
    OperatorId(u16)
);
id!(
    /// A checkpoint id, handed out by the CheckpointCoordinator's counter. Ids keep rising, also
    /// across JobManager failover.
    CheckpointId(u64)
);
id!(
    /// One record of a source's replayable input log; every derived record keeps the id of the
    /// source record it came from, which is what the ledger counts.
    RecordId(u32)
);
id!(
    /// A transaction in the sink's external system (two-phase commit).
    TxnId(u32)
);
id!(
    /// A key, as an index into the job's sorted key names.
    KeyId(u16)
);
