//! Structured Streaming's upkeep, as the cost table meters it ([`crate::engine::mechanisms::upkeep`]):
//! the driver writes an offset log entry before each batch (8 bytes per source's range) and a
//! commit log entry after it (8 bytes), and the file sink a `_spark_metadata` entry (8 bytes):
//! the cost table's metadata column; the state stores write a version per batch (sized as a
//! snapshot is): its state column. Starting a batch's tasks and hearing they finished are a
//! message each between the driver and its executors. Its books are settled when no batch runs,
//! none is finished and uncommitted, and no source has offsets to plan.

use super::events::StructuredEvent;
use super::settings::OutputSink;
use crate::engine::core::action::Event;
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::catalogue::carried::MechanismEvent;
use crate::engine::mechanisms::upkeep::{state_bytes, Upkeep, UpkeepMeter};

/// Bytes per source's range in an offset log entry (its start and end offsets).
pub const OFFSET_BYTES_PER_SOURCE: u64 = 8;
/// Bytes per commit log entry, and per `_spark_metadata` entry.
pub const LOG_ENTRY_BYTES: u64 = 8;

/// Structured Streaming's row's upkeep.
pub static UPKEEP: Upkeep = Upkeep { observe, settled, awaits_timeout: |_| false };

fn observe(m: &mut UpkeepMeter, sim: &Sim, events: &[Event]) {
    let loc = sim.checkpoint_location();
    for e in events {
        let Event::Mechanism(MechanismEvent::Structured(e)) = e else { continue };
        match *e {
            StructuredEvent::OffsetLogWritten { .. } => {
                m.bytes.metadata_checkpoints += OFFSET_BYTES_PER_SOURCE * sim.graph.sources().count() as u64;
                m.messages.driver += 1;
            }
            StructuredEvent::StateStoreCommitted { version, .. } => {
                let states: Vec<_> =
                    loc.version(version).map(|v| v.tasks.iter().map(|s| s.state.clone()).collect()).unwrap_or_default();
                m.bytes.state_checkpoints += state_bytes(sim, &states);
            }
            StructuredEvent::SinkCommitted { sink, skipped, .. } => {
                m.messages.driver += 1;
                if !skipped && sink.writes_batches() {
                    m.output_committed = true;
                }
                if !skipped && sink == OutputSink::File {
                    m.bytes.metadata_checkpoints += LOG_ENTRY_BYTES;
                }
            }
            StructuredEvent::CommitLogWritten { .. } => m.bytes.metadata_checkpoints += LOG_ENTRY_BYTES,
            StructuredEvent::QueryStopped { .. } => {}
        }
    }
    let sources = sim.graph.sources().count() as u64;
    m.held = loc.offsets.len() as u64 * OFFSET_BYTES_PER_SOURCE * sources
        + (loc.commits.len() + loc.sink_log.len()) as u64 * LOG_ENTRY_BYTES
        + loc
            .state
            .iter()
            .map(|v| state_bytes(sim, &v.tasks.iter().map(|s| s.state.clone()).collect::<Vec<_>>()))
            .sum::<u64>();
}

fn settled(sim: &Sim) -> bool {
    use super::checkpoint_location::Phase;
    sim.query().is_none_or(|q| q.phase == Phase::Idle && sim.plan_next_batch().is_none())
}
