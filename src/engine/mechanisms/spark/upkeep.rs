//! Spark Streaming's upkeep, as the cost table meters it ([`crate::engine::mechanisms::upkeep`]):
//! each block a receiver stores is reported to the driver (`ReceivedBlockTracker`), each batch job's
//! start and completion is a message to and from it, the write-ahead log takes 16 bytes a record,
//! a state checkpoint writes the state RDD (sized as a snapshot is), and a metadata checkpoint 8
//! bytes per batch it lists and 4 per block id. The `CheckpointWriter` records a batch's
//! completion a step after the batch: the step after one that left it due writes it, unless the
//! driver died. Its books are settled when no batch job runs or waits, no metadata checkpoint is
//! due, and no stored block waits for a batch.

use super::events::SparkStreamingEvent;
use super::received_blocks::{MetaCheckpoint, WAL_BYTES_PER_RECORD};
use crate::engine::core::action::Event;
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::catalogue::carried::MechanismEvent;
use crate::engine::mechanisms::upkeep::{state_bytes, Upkeep, UpkeepMeter};

/// Bytes per batch listed in a Spark metadata checkpoint (its time and status).
pub const META_BYTES_PER_BATCH: u64 = 8;
/// Bytes per block id listed in a Spark metadata checkpoint (a reference, as a contributing
/// record's id in keyed state).
pub const META_BYTES_PER_BLOCK: u64 = 4;

/// Spark Streaming's row's upkeep.
pub static UPKEEP: Upkeep = Upkeep { observe, settled, awaits_timeout: |_| false };

fn observe(m: &mut UpkeepMeter, sim: &Sim, events: &[Event]) {
    let mut meta_writes = 0u64;
    for e in events {
        let Event::Mechanism(MechanismEvent::Spark(e)) = e else { continue };
        match *e {
            SparkStreamingEvent::BlockStored { task, record, .. } => {
                m.reads.push((task, record));
                m.messages.driver += 1;
            }
            SparkStreamingEvent::BatchOutput { skipped: false, .. } => m.output_committed = true,
            SparkStreamingEvent::BatchStarted { .. } | SparkStreamingEvent::BatchCompleted { .. } => {
                m.messages.driver += 1
            }
            SparkStreamingEvent::BatchGenerated { .. } => meta_writes += 1,
            SparkStreamingEvent::StateCheckpointed { .. } => {
                meta_writes += 1;
                m.bytes.state_checkpoints +=
                    sim.durable_spark().state.as_ref().map_or(0, |s| state_bytes(sim, &s.states));
            }
            _ => {}
        }
    }
    let driver_lost = events
        .iter()
        .any(|e| matches!(e, Event::Mechanism(MechanismEvent::Spark(SparkStreamingEvent::DriverLost { .. }))));
    if m.due && sim.spark().is_some() && !driver_lost {
        meta_writes += 1;
    }
    m.due = sim.spark().is_some_and(|s| s.meta_due);
    let d = sim.durable_spark();
    m.bytes.metadata_checkpoints += meta_writes * d.meta.as_ref().map_or(0, meta_bytes);
    m.bytes.write_ahead_log = d.wal_written;
    m.held = d.wal.len() as u64 * WAL_BYTES_PER_RECORD
        + d.state.as_ref().map_or(0, |s| state_bytes(sim, &s.states))
        + d.meta.as_ref().map_or(0, meta_bytes);
}

fn settled(sim: &Sim) -> bool {
    sim.spark().is_none_or(|s| s.jobs.is_empty() && !s.meta_due) && !sim.blocks_waiting()
}

/// A metadata checkpoint: 8 bytes per batch it lists and 4 per block id.
fn meta_bytes(m: &MetaCheckpoint) -> u64 {
    m.batches.iter().map(|(_, blocks, _)| META_BYTES_PER_BATCH + META_BYTES_PER_BLOCK * blocks.len() as u64).sum()
}
