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
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::ledger::{Completeness, Order, Verdict};
use crate::engine::core::sim::Sim;
pub use crate::engine::mechanisms::catalogue::costs::{Bytes, Messages};
use crate::engine::mechanisms::upkeep::UpkeepMeter;

/// Bytes an offset takes when a source commits it to its log, as a source's offset takes in a
/// snapshot.
pub const OFFSET_BYTES: u64 = 8;
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
    /// The parts a mechanism with books of its own meters (its row's `Upkeep`), and those metered
    /// here from the core's events.
    upkeep: UpkeepMeter,
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
            upkeep: UpkeepMeter::default(),
            running_tick: None,
        }
    }

    /// The step at `tick` gave `events`; `sim` is the run after it.
    pub(crate) fn observe(&mut self, sim: &Sim, tick: u64, events: &[Event]) {
        let g = &sim.graph;
        let outs = |t: TaskId| g.task(t).out_channels.len() as u64;
        let sources = g.sources().count() as u64;
        let mut committed_txns = false;
        for e in events {
            match *e {
                Event::Processed { task, channel, record, .. } => self.took_effect(tick, (task, Some(channel), record)),
                Event::Read { task, record, .. } => self.took_effect(tick, (task, None, record)),
                Event::SinkWrite { record, txn: None, .. } => {
                    self.visible[record.0 as usize].get_or_insert(tick);
                }
                Event::TxnCommitted { .. } => committed_txns = true,
                Event::BarrierEmitted { task, .. } => self.upkeep.messages.barriers += outs(task),
                Event::CancelMarkerSent { task, .. } => self.upkeep.messages.cancel_markers += outs(task),
                Event::CheckpointTriggered { .. } => self.upkeep.messages.coordinator += sources,
                Event::Acknowledged { .. }
                | Event::AckDiscarded { .. }
                | Event::CheckpointDeclined { .. }
                | Event::NotificationSent { .. } => self.upkeep.messages.coordinator += 1,
                _ => {}
            }
        }
        // What the mechanism's own books cost this step, metered in its folder.
        if let Some(upkeep) = sim.strategy().upkeep() {
            (upkeep.observe)(&mut self.upkeep, sim, events);
            for (task, record) in std::mem::take(&mut self.upkeep.reads) {
                self.took_effect(tick, (task, None, record));
            }
            committed_txns |= std::mem::take(&mut self.upkeep.output_committed);
        }
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
                self.upkeep.bytes.offset_commits += OFFSET_BYTES;
            }
        }
        if tick >= self.crash_tick && self.running_tick.is_none() && sim.running() && !sim.region_down() {
            self.running_tick = Some(tick);
        }
        let held = sim.storage().completed.iter().flat_map(|c| &c.snapshots).map(|s| s.size()).sum::<u64>()
            + self.committed.iter().filter(|c| **c > 0).count() as u64 * OFFSET_BYTES
            + self.upkeep.held;
        self.upkeep.bytes.peak_held = self.upkeep.bytes.peak_held.max(held);
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
        let mut bytes = self.upkeep.bytes.clone();
        bytes.checkpoints =
            sim.stats.earlier_submissions.iter().flatten().chain(&sim.stats.history).map(|r| r.state_size).sum();
        bytes.written = bytes.sum_of_written();
        let mut messages = self.upkeep.messages.clone();
        messages.total = messages.sum_of_parts();
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
