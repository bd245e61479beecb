//! The cost table: what each run paid for surviving the crash, one column per run, every figure
//! measured from the run itself (its events, step by step, and its durable parts) by a
//! `CostMeter` that watches it as the lockstep steps it. The README defines each figure; in
//! short:
//!
//! - **records re-processed**: source records that a source read again after the crash, having
//!   read them before it, or that took effect again at a task input (task and channel) where they
//!   had taken effect before it; with the steps that repeated such work, and the tick of the last.
//! - **bytes written** for fault tolerance, to durable storage, over the run: Flink's checkpoints
//!   (each acknowledged snapshot, sized as the Checkpoints tab sizes it), Spark Streaming's
//!   write-ahead log (16 bytes a record, the engine's figure), its state checkpoints (the state RDD,
//!   sized as a snapshot is) and metadata checkpoints (8 bytes a batch listed, 4 a block id), and
//!   the offsets committed to the source log by Storm's spouts and Spark's reliable receivers (8
//!   bytes a commit); **bytes held** at the peak: what storage kept at any one step, plus Storm's
//!   acker table in memory (20 bytes a pending tuple tree).
//! - **control messages**: every message the job sends only to survive failure: barriers and
//!   cancel markers on the data channels (one per channel), the CheckpointCoordinator's trigger (one
//!   per source), acknowledgements, declines and completion notifications; Storm's `__ack_init`,
//!   `__ack_ack` and the acker's answers; Spark's block reports and each batch job's start and
//!   completion.
//! - **latency**: per record, steps from its arrival tick to the end of the step after which an
//!   outside reader first sees it in the sink's output; the median (the lower one) and the worst,
//!   over the records a reader saw.
//! - **steps down**: from the crash tick to the step after which the job runs again (0: it never
//!   stopped).
//! - **verdicts**: the ledger's headlines at the end (state, output, complete, in order).

use serde::{Deserialize, Serialize};

use crate::engine::core::action::{Event, RestoreFrom};
use crate::engine::core::dataflow::external_system::TxnStatus;
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::ledger::{Completeness, Order, Verdict};
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::spark::events::SparkStreamingEvent;
use crate::engine::mechanisms::spark::received_blocks::{MetaCheckpoint, WAL_BYTES_PER_RECORD};
use crate::engine::mechanisms::storm::events::StormEvent;

/// Bytes an offset takes when a source commits it to its log, as a source's offset takes in a
/// snapshot.
pub const OFFSET_BYTES: u64 = 8;
/// Bytes per pending tuple tree in Storm's acker (root id, XOR value, spout task: "about 20 bytes
/// per spout tuple").
pub const ACKER_BYTES_PER_TREE: u64 = 20;
/// Bytes per batch listed in a Spark metadata checkpoint (its time and status).
pub const META_BYTES_PER_BATCH: u64 = 8;
/// Bytes per block id listed in a Spark metadata checkpoint (a reference, as a contributing
/// record's id in keyed state).
pub const META_BYTES_PER_BLOCK: u64 = 4;

/// Records re-processed after the crash.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reprocessed {
    /// Source records read again by a source that had read them before the crash, or that took
    /// effect again at a task input where they had before it.
    pub records: u32,
    /// Their labels, in record order.
    pub labels: Vec<String>,
    /// Reads and processing steps that repeated one from before the crash.
    pub steps: u32,
    /// The tick of the last such step.
    pub last_tick: Option<u64>,
}

/// Bytes stored for fault tolerance.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bytes {
    /// Written to durable storage over the run: the sum of the five parts below.
    pub written: u64,
    /// Flink: every acknowledged snapshot of every checkpoint.
    pub checkpoints: u64,
    /// Spark Streaming: the write-ahead log (16 bytes a record).
    pub write_ahead_log: u64,
    /// Spark Streaming: the state RDD at each state checkpoint.
    pub state_checkpoints: u64,
    /// Spark Streaming: each metadata checkpoint written.
    pub metadata_checkpoints: u64,
    /// Storm's spouts and Spark's reliable receivers: 8 bytes per commit of a source's offset.
    pub offset_commits: u64,
    /// The most held at any one step: durable storage (retained checkpoints; the log's blocks not
    /// yet cleaned up, the latest state and metadata checkpoints; the committed offsets) and
    /// Storm's acker table in memory.
    pub peak_held: u64,
    /// Storm: the acker table at its largest (20 bytes a pending tree), in memory.
    pub acker_table_peak: u64,
}

/// Control messages: what the job sends only to survive failure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Messages {
    pub total: u64,
    /// On the data channels: checkpoint barriers (one per output channel of the task that emits
    /// them).
    pub barriers: u64,
    /// On the data channels: cancel markers.
    pub cancel_markers: u64,
    /// Flink: to and from the CheckpointCoordinator: triggers (one per source), acknowledgements,
    /// declines, completion notifications.
    pub coordinator: u64,
    /// Storm: `__ack_init` and `__ack_ack` to the acker, and its answers to the spouts.
    pub acker: u64,
    /// Spark Streaming: block reports to the driver, each batch job's start and completion.
    pub driver: u64,
}

/// Latency from arrival to visible output.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Latency {
    /// Records a reader saw, of `of` records.
    pub seen: u32,
    pub of: u32,
    /// The lower median, in steps (None: no record was seen, or the job has no sink).
    pub median: Option<u64>,
    pub worst: Option<u64>,
    /// Per record (record order): steps from arrival to visible, if seen.
    pub per_record: Vec<Option<u64>>,
}

/// From the crash to running again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recovery {
    pub crash_tick: u64,
    /// The tick of the step after which the job ran again (the crash tick if it never stopped).
    pub running_tick: Option<u64>,
    pub steps_down: Option<u64>,
    /// What the job was restored from (None: nothing stopped, or still down).
    pub restored_from: Option<RestoreFrom>,
}

/// The ledger's headlines at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdicts {
    pub state: Verdict,
    /// None when the job has no sink.
    pub output: Option<Verdict>,
    pub complete: Completeness,
    pub order: Order,
}

/// One column of the cost table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Costs {
    /// Steps the run took (its clock when it finished).
    pub steps: u64,
    pub reprocessed: Reprocessed,
    pub bytes: Bytes,
    pub messages: Messages,
    pub latency: Latency,
    pub recovery: Recovery,
    pub verdicts: Verdicts,
}

/// Watches one run step by step.
#[derive(Clone, Debug)]
pub(crate) struct CostMeter {
    crash_tick: u64,
    /// Where each record took effect before the crash: (task, input channel, record), the
    /// channel None for a source's read; sorted at the crash.
    before: Vec<(TaskId, Option<ChannelId>, RecordId)>,
    sorted: bool,
    again: Vec<bool>,
    again_steps: u32,
    again_last: Option<u64>,
    /// Per record: the tick of the step after which a reader first saw it.
    visible: Vec<Option<u64>>,
    /// Per transaction: its rows were counted as visible.
    txn_seen: Vec<bool>,
    committed: Vec<u32>,
    meta_due: bool,
    bytes: Bytes,
    messages: Messages,
    running_tick: Option<u64>,
}

impl CostMeter {
    pub(crate) fn new(sim: &Sim, crash_tick: u64) -> CostMeter {
        let n = sim.graph.records.len();
        CostMeter {
            crash_tick,
            before: Vec::new(),
            sorted: false,
            again: vec![false; n],
            again_steps: 0,
            again_last: None,
            visible: vec![None; n],
            txn_seen: Vec::new(),
            committed: vec![0; sim.graph.tasks.len()],
            meta_due: false,
            bytes: Bytes::default(),
            messages: Messages::default(),
            running_tick: None,
        }
    }

    /// The step at `tick` gave `events`; `sim` is the run after it.
    pub(crate) fn observe(&mut self, sim: &Sim, tick: u64, events: &[Event]) {
        let g = &sim.graph;
        let outs = |t: TaskId| g.task(t).out_channels.len() as u64;
        let sources = g.sources().count() as u64;
        let mut committed_txns = false;
        let mut meta_writes = 0u64;
        for e in events {
            match *e {
                Event::Processed { task, channel, record, .. } => self.took_effect(tick, (task, Some(channel), record)),
                Event::Read { task, record, .. } => self.took_effect(tick, (task, None, record)),
                Event::Spark(SparkStreamingEvent::BlockStored { task, record, .. }) => {
                    self.took_effect(tick, (task, None, record));
                    self.messages.driver += 1;
                }
                Event::SinkWrite { record, txn: None, .. } => {
                    self.visible[record.0 as usize].get_or_insert(tick);
                }
                Event::TxnCommitted { .. } | Event::Spark(SparkStreamingEvent::BatchOutput { skipped: false, .. }) => {
                    committed_txns = true
                }
                Event::BarrierEmitted { task, .. } => self.messages.barriers += outs(task),
                Event::CancelMarkerSent { task, .. } => self.messages.cancel_markers += outs(task),
                Event::CheckpointTriggered { .. } => self.messages.coordinator += sources,
                Event::Acknowledged { .. }
                | Event::AckDiscarded { .. }
                | Event::CheckpointDeclined { .. }
                | Event::NotificationSent { .. } => self.messages.coordinator += 1,
                Event::Storm(
                    StormEvent::AckInitSent { .. } | StormEvent::AckSent { .. } | StormEvent::TreeCompleted { .. },
                ) => self.messages.acker += 1,
                Event::Spark(SparkStreamingEvent::BatchStarted { .. } | SparkStreamingEvent::BatchCompleted { .. }) => {
                    self.messages.driver += 1
                }
                Event::Spark(SparkStreamingEvent::BatchGenerated { .. }) => meta_writes += 1,
                Event::Spark(SparkStreamingEvent::StateCheckpointed { .. }) => {
                    meta_writes += 1;
                    self.bytes.state_checkpoints +=
                        sim.durable_spark().state.as_ref().map_or(0, |s| state_bytes(sim, &s.states));
                }
                _ => {}
            }
        }
        // Spark's checkpoint writer records a completion a step later: the step after one that
        // left it due writes it, unless the driver died (then nothing is written).
        let driver_runs = sim.spark().is_some();
        if self.meta_due
            && driver_runs
            && !events.iter().any(|e| matches!(e, Event::Spark(SparkStreamingEvent::DriverLost { .. })))
        {
            meta_writes += 1;
        }
        self.meta_due = sim.spark().is_some_and(|s| s.meta_due);
        self.bytes.metadata_checkpoints += meta_writes * sim.durable_spark().meta.as_ref().map_or(0, meta_bytes);
        if committed_txns {
            let ext = sim.external();
            self.txn_seen.resize(ext.txns.len(), false);
            for x in &ext.txns {
                if x.status == TxnStatus::Committed && !std::mem::replace(&mut self.txn_seen[x.id.0 as usize], true) {
                    for row in &x.rows {
                        self.visible[row.record.0 as usize].get_or_insert(tick);
                    }
                }
            }
        }
        for s in g.sources() {
            let c = sim.committed_offset(s);
            if c > self.committed[s.index()] {
                self.committed[s.index()] = c;
                self.bytes.offset_commits += OFFSET_BYTES;
            }
        }
        if tick >= self.crash_tick && self.running_tick.is_none() && sim.running() && !sim.region_down() {
            self.running_tick = Some(tick);
        }
        let acker = sim.storm().map_or(0, |s| s.acker.len() as u64 * ACKER_BYTES_PER_TREE);
        let d = sim.durable_spark();
        let held = sim.storage().completed.iter().flat_map(|c| &c.snapshots).map(|s| s.size()).sum::<u64>()
            + d.wal.len() as u64 * WAL_BYTES_PER_RECORD
            + d.state.as_ref().map_or(0, |s| state_bytes(sim, &s.states))
            + d.meta.as_ref().map_or(0, meta_bytes)
            + self.committed.iter().filter(|c| **c > 0).count() as u64 * OFFSET_BYTES
            + acker;
        self.bytes.peak_held = self.bytes.peak_held.max(held);
        self.bytes.acker_table_peak = self.bytes.acker_table_peak.max(acker);
    }

    /// A record took effect at a place: before the crash, noted; after it, again if noted before.
    fn took_effect(&mut self, tick: u64, place: (TaskId, Option<ChannelId>, RecordId)) {
        if tick < self.crash_tick {
            self.before.push(place);
            return;
        }
        if !self.sorted {
            crate::engine::core::stable_sort::sort_stable_by(&mut self.before, |a, b| a.cmp(b));
            self.before.dedup();
            self.sorted = true;
        }
        if self.before.binary_search(&place).is_ok() {
            self.again[place.2 .0 as usize] = true;
            self.again_steps += 1;
            self.again_last = Some(tick);
        }
    }

    /// The column as the run stands.
    pub(crate) fn costs(&self, sim: &Sim) -> Costs {
        let g = &sim.graph;
        let mut bytes = self.bytes.clone();
        bytes.checkpoints =
            sim.stats.earlier_submissions.iter().flatten().chain(&sim.stats.history).map(|r| r.state_size).sum();
        bytes.write_ahead_log = sim.durable_spark().wal_written;
        bytes.written = bytes.checkpoints
            + bytes.write_ahead_log
            + bytes.state_checkpoints
            + bytes.metadata_checkpoints
            + bytes.offset_commits;
        let mut messages = self.messages.clone();
        messages.total =
            messages.barriers + messages.cancel_markers + messages.coordinator + messages.acker + messages.driver;
        let per_record: Vec<Option<u64>> =
            self.visible.iter().enumerate().map(|(r, v)| v.map(|v| (v + 1).saturating_sub(g.records[r].at))).collect();
        let mut seen: Vec<u64> = per_record.iter().flatten().copied().collect();
        crate::engine::core::stable_sort::sort_stable_by(&mut seen, |a, b| a.cmp(b));
        let latency = Latency {
            seen: seen.len() as u32,
            of: per_record.len() as u32,
            median: (!seen.is_empty()).then(|| seen[(seen.len() - 1) / 2]),
            worst: seen.last().copied(),
            per_record,
        };
        let restored_from =
            sim.stats.failovers.iter().find(|f| f.failed_tick == self.crash_tick).and_then(|f| f.restored);
        let recovery = Recovery {
            crash_tick: self.crash_tick,
            running_tick: self.running_tick,
            steps_down: self.running_tick.map(|t| t - self.crash_tick),
            restored_from,
        };
        let l = sim.ledger();
        let verdicts = Verdicts {
            state: l.state.headline(),
            output: l.external.map(|e| e.headline()),
            complete: l.complete.headline(),
            order: l.order.headline(),
        };
        let labels = (0..self.again.len()).filter(|r| self.again[*r]).map(|r| g.records[r].label.clone()).collect();
        Costs {
            steps: sim.tick,
            reprocessed: Reprocessed {
                records: self.again.iter().filter(|a| **a).count() as u32,
                labels,
                steps: self.again_steps,
                last_tick: self.again_last,
            },
            bytes,
            messages,
            latency,
            recovery,
            verdicts,
        }
    }
}

/// A checkpointed state RDD, sized as a snapshot is: every task's state but the sources' (a
/// receiver resumes from the offset it acknowledged, not from the checkpoint).
fn state_bytes(sim: &Sim, states: &[OpState]) -> u64 {
    states
        .iter()
        .enumerate()
        .filter(|(t, _)| sim.graph.tasks[*t].kind != OperatorKind::Source)
        .map(|(_, s)| s.size())
        .sum()
}

/// A metadata checkpoint: 8 bytes per batch it lists and 4 per block id.
fn meta_bytes(m: &MetaCheckpoint) -> u64 {
    m.batches.iter().map(|(_, blocks, _)| META_BYTES_PER_BATCH + META_BYTES_PER_BLOCK * blocks.len() as u64).sum()
}
