//! Structured Streaming's events: what its driver reports at each step of a micro-batch (the
//! offset log's entry written, the state store's new version committed, the sink's output
//! committed or skipped, the commit log's entry written) and its crash (the query stopped with its
//! driver), and where its restart came from. The run's [`Event`](crate::engine::core::action::Event)
//! carries them as `Event::Mechanism` (the catalogue's `MechanismEvent::Structured`); their
//! narration is `wording.rs`'s.

use serde::{Deserialize, Serialize};

use super::settings::OutputSink;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum StructuredEvent {
    /// `constructNextBatch`: the driver wrote `offsets/{batch}`, the offsets the batch will read
    /// (`records` of them over every source), before the batch runs.
    OffsetLogWritten { batch: u32, records: u32 },
    /// The stateful operators' state stores committed version `version` (batch `batch` loaded
    /// version `batch` and wrote `batch + 1`), `stores` of them.
    StateStoreCommitted { batch: u32, version: u32, stores: u16 },
    /// The sink finished batch `batch` (`addBatch`): `rows` rows became visible, or, with
    /// `skipped`, the batch had been written before and its rows were discarded.
    SinkCommitted { batch: u32, sink: OutputSink, rows: u32, skipped: bool },
    /// The driver wrote `commits/{batch}`: the batch is done.
    CommitLogWritten { batch: u32 },
    /// The driver died and the query with it, during batch `batch` (the next one, if none ran),
    /// with `lost_in_flight` records on their way.
    QueryStopped { batch: u32, lost_in_flight: u32 },
}

/// Where Structured Streaming's restart came from, as `RestoreFrom::Mechanism` carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "from")]
pub enum StructuredRestore {
    /// `populateStartOffsets`: the checkpoint location's logs say which batch runs next: batch
    /// `batch`, again with the offsets of its entry in the offset log when it had no commit entry
    /// (`rerun`), or a new one; the state stores loaded version `version` (0: empty).
    CheckpointLocation { batch: u32, rerun: bool, version: u32 },
}
