//! Spark Streaming's micro-batches (strategy `spark-streaming`), after the Streaming Programming
//! Guide's fault-tolerance semantics and Spark's `ReceiverSupervisorImpl` (store a block, then
//! report it), `WriteAheadLogBasedBlockHandler` (memory and the write-ahead log before the
//! block is reported), `ReceivedBlockTracker` (blocks allocated to batches), `JobGenerator` (a
//! batch every `batch-interval`, a metadata checkpoint when a batch is cut and when it
//! completes, `restart` re-running every batch from the checkpoint's time on and the pending
//! ones, `clearCheckpointData` cleaning the log's blocks older than twice the checkpoint
//! interval), `JobScheduler` (one job at a time),
//! `StateDStream` (`updateStateByKey`: each batch's state RDD from the previous one) and
//! `DStreamCheckpointData` (the state RDD checkpointed every `checkpoint-interval` batches).
//!
//! Step by step (the data is in [`super::received_blocks`]):
//! - **read** (a replayable log), or **arrival** (a socket: the receiver stores each record by
//!   itself at the step it arrives): the receiver stores the record as a block in its executor's
//!   memory with a replica on the other executor or, with the write-ahead log on, without a
//!   replica (`WriteAheadLogBasedBlockHandler` forces replication 1) and in the log;
//!   only then does it acknowledge a reliable source (a replayable log commits the offset; a
//!   socket cannot be acknowledged: the Spark Streaming guide's "unreliable receiver", after
//!   which the dataflow's socket source is drawn).
//! - **the driver's clock**: every `batch-interval` steps it allocates the blocks received since
//!   the last batch to batch k, queues k's job and writes a metadata checkpoint.
//! - **the job** puts the batch's records on the source's outputs; the learner delivers them
//!   through the DAG. When every channel is empty the batch completes: a transactional output
//!   commits (batch time, partition) unless that key was committed before, the state RDD is
//!   cached, the lineage chain grows, every `checkpoint-interval` batches the state RDD is
//!   checkpointed (the chain is cut), and a metadata checkpoint of the batch's time is written a
//!   step later (`onBatchCompletion` posts `DoCheckpoint`, which the `CheckpointWriter` thread
//!   writes); the log's blocks of batches older than the batch time minus twice the checkpoint
//!   interval are cleaned up (`rememberDuration`).
//! - **executor crash** (`crash-task`): the executor running the task dies and a new one takes
//!   its place at once. Its block copies are gone (the replica or the log still has them), the
//!   running batch's tasks re-run from its blocks over the cached state (recomputed from lineage),
//!   and a receiver it ran loses what it had not stored.
//! - **driver crash** (`crash`, `crash-job-manager`): every executor dies with the driver.
//!   `restore` recovers the driver from the metadata checkpoint: the state RDD from the state
//!   checkpoint, the chain's batches older than the checkpoint's time recomputed from their
//!   blocks (no output), then every batch from the checkpoint's time on and every incomplete one
//!   re-run with its output (`pendingTimes ++ checkpointTime.until(restartTime)`): a batch that
//!   had completed writes its output twice. Blocks are read back from the log; with the log off
//!   they are gone.

use super::events::SparkStreamingEvent;
use super::received_blocks::{BatchJob, Block, SparkDurable, SparkRuntime, EXECUTORS, WAL_BYTES_PER_RECORD};
use super::refusals::SparkRefusal;
use crate::engine::core::action::{Action, CrashScope, Event, RestoreFrom};
use crate::engine::core::dataflow::channel::Fate;
use crate::engine::core::dataflow::external_system::TxnStatus;
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::record::Item;
use crate::engine::core::dataflow::record::Record as Rec;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::error::ActionError;
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::{RecordId, TaskId};
use crate::engine::core::own_state::Slot;
use crate::engine::core::seam::{InFlight, Mechanism, OnCrash, OwnSources, OwnSteps, Rerun};
use crate::engine::core::sim::Durable;
use crate::engine::core::sim::Sim;
use crate::engine::mechanisms::spark::events::SparkRestore;
use crate::engine::settings::Settings;
use crate::engine::settings::SourceKind;

/// Spark Streaming's receivers, driver and batch jobs (strategy `spark-streaming`).
pub struct MicroBatches;

impl Mechanism for MicroBatches {
    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks { checks_actions: true, waits_for_time: true, reruns: true, ticks: true, ..Hooks::default() }
    }
    fn start(&self, sim: &mut Sim) {
        sim.live.mechanism.put(SparkRuntime::default());
        sim.durable.mechanism.put(SparkDurable::default());
    }
    /// A receiver on a socket stores what arrives by itself: nobody reads for it.
    fn check(&self, sim: &Sim, a: Action) -> Result<(), ActionError> {
        match a {
            Action::Read { task } if sim.receiver_listens() => {
                Err(ActionError::from(SparkRefusal::ReceiverListens { task: sim.graph.task(task).name.clone() }))
            }
            Action::Mechanism { step } => Err(ActionError::NoSuchStep { step: step.kind, strategy: sim.strategy() }),
            _ => Ok(()),
        }
    }
    /// An executor fails alone and is replaced at once; the driver takes every executor with it.
    fn on_crash(&self, sim: &mut Sim, scope: CrashScope, out: &mut Vec<Event>) -> OnCrash {
        match scope {
            CrashScope::Task(x) if sim.spark().is_some() => {
                sim.executor_lost(x, out);
                OnCrash::Done
            }
            _ => OnCrash::Failover,
        }
    }
    fn crash_event(&self, lost: &Slot, scope: CrashScope, lost_in_flight: u32) -> Event {
        match lost.get::<SparkRuntime>() {
            Some(s) => Event::from(SparkStreamingEvent::DriverLost {
                blocks: s.blocks.iter().filter(|b| b.copies != 0).count() as u16,
                lost_in_flight,
            }),
            None => Event::Crashed { scope, lost_in_flight },
        }
    }
    fn on_trigger(&self, _sim: &mut Sim, _id: crate::engine::core::ids::CheckpointId, _out: &mut Vec<Event>) {
        unreachable!("Spark Streaming has no checkpoint barriers: the trigger is refused first")
    }
    fn on_tick(&self, sim: &mut Sim, out: &mut Vec<Event>) {
        sim.driver_tick(out);
    }
    /// The driver restarts from the metadata checkpoint (`StreamingContext.getOrCreate`).
    fn restore(&self, sim: &mut Sim) -> (RestoreFrom, InFlight) {
        sim.restart_driver()
    }
    fn own_sources(&self) -> Option<&dyn OwnSources> {
        Some(self)
    }
    fn own_steps(&self) -> Option<&dyn OwnSteps> {
        Some(self)
    }
}

impl OwnSources for MicroBatches {
    fn on_its_way(&self, sim: &Sim, v: &mut [bool]) {
        sim.spark_on_its_way(v);
    }
    fn committed_offset(&self, sim: &Sim, t: TaskId) -> u32 {
        sim.durable_spark().committed.of(t)
    }
    /// The receiver stores the record as a block; the batch's job emits it later.
    fn on_read(&self, sim: &mut Sim, t: TaskId, offset: u32, rec: Rec, out: &mut Vec<Event>) {
        sim.receive(t, offset, rec.id, out);
    }
}

impl OwnSteps for MicroBatches {
    /// Blocks waiting for the driver to cut their batch, or the checkpoint writer still to record
    /// a completion.
    fn awaits_time(&self, sim: &Sim) -> bool {
        sim.blocks_waiting() || sim.spark().is_some_and(|s| s.meta_due)
    }
    /// A batch recomputed from lineage rebuilds state without output; one re-run over the state
    /// RDD read back from the state checkpoint writes its output only.
    fn rerun(&self, sim: &Sim) -> Rerun {
        match sim.spark() {
            Some(s) if s.recomputing() => Rerun::StateOnly,
            Some(s) if s.running().is_some_and(|j| j.keep_state) => Rerun::OutputOnly,
            _ => Rerun::Full,
        }
    }
}

/// What another strategy's run reads as Spark's log: nothing written.
static EMPTY_LOG: SparkDurable = SparkDurable::EMPTY;

/// Spark's write-ahead log and checkpoint directory, in the run's durable slot.
pub(super) fn log_mut(d: &mut Durable) -> &mut SparkDurable {
    d.mechanism.get_mut().expect("Spark's durable state is there from the start")
}

/// The executor a task runs on.
pub fn executor_of(t: TaskId) -> u8 {
    (t.index() % EXECUTORS as usize) as u8
}

impl Sim {
    /// Spark Streaming's executors and driver, while the application runs.
    pub fn spark(&self) -> Option<&SparkRuntime> {
        self.live.mechanism.get::<SparkRuntime>()
    }

    /// Spark Streaming's write-ahead log, checkpoints and batch statistics (empty under another
    /// strategy).
    pub fn durable_spark(&self) -> &SparkDurable {
        self.durable.mechanism.get::<SparkDurable>().unwrap_or(&EMPTY_LOG)
    }

    pub(super) fn spark_mut(&mut self) -> &mut SparkRuntime {
        self.live.mechanism.get_mut::<SparkRuntime>().expect("the driver runs")
    }

    /// The receiver on source `t` stored `record` (read at `offset`) as a block and, once it is
    /// stored, acknowledged a reliable source.
    pub(crate) fn receive(&mut self, t: TaskId, offset: u32, record: RecordId, out: &mut Vec<Event>) {
        let wal = self.settings.mechanism.spark.write_ahead_log;
        let id = log_mut(&mut self.durable).next_block;
        // `WriteAheadLogBasedBlockHandler` forces replication 1: the log is the second copy.
        let copies = if wal { 1 << executor_of(t) } else { (1 << EXECUTORS) - 1 };
        let block = Block { id, source: t, offset, record, copies, wal, batch: None };
        let d = log_mut(&mut self.durable);
        d.next_block += 1;
        if d.received.is_empty() {
            d.received = vec![u64::MAX; self.graph.records.len()];
        }
        d.received[record.0 as usize] = d.received[record.0 as usize].min(self.tick);
        if wal {
            d.wal.push(block.clone());
            d.wal_written += WAL_BYTES_PER_RECORD;
        }
        self.spark_mut().blocks.push(block);
        let acked = self.settings.source == SourceKind::ReplayableLog;
        if acked {
            let n = self.graph.tasks.len();
            log_mut(&mut self.durable).committed.commit(t, offset + 1, n);
        }
        out.push(Event::from(SparkStreamingEvent::BlockStored { task: t, record, block: id, wal, acked }));
    }

    /// The driver's clock, after every step: a finished job completes, a batch is cut every
    /// `batch-interval` steps, and the next queued job starts.
    pub(crate) fn driver_tick(&mut self, out: &mut Vec<Event>) {
        if let Some(time) = self.spark().filter(|s| s.meta_due).map(|s| s.meta_time) {
            self.write_metadata_checkpoint(time);
        }
        if self.receiver_listens() {
            self.receive_arrivals(out);
        }
        if self.spark().and_then(|s| s.running()).is_some() && self.live.channels.iter().all(|c| c.queue.is_empty()) {
            self.complete_batch(out);
        }
        if (self.tick + 1) % self.settings.mechanism.spark.batch_interval == 0 {
            self.cut_batch(out);
        }
        self.start_next_job(out);
    }

    /// A receiver on a socket listens all the time: it stores every record that has arrived by the
    /// end of this step (the clock then reads `tick + 1`).
    fn receive_arrivals(&mut self, out: &mut Vec<Event>) {
        let g = self.graph.clone();
        for s in g.sources() {
            let log = &g.task(s).log;
            loop {
                let off = self.source_offset(s);
                let Some(&r) = log.get(off as usize).filter(|r| g.record(**r).at <= self.tick + 1) else { break };
                if let OpState::Source { next_offset } = &mut self.live.tasks[s.index()].state {
                    *next_offset += 1;
                }
                self.read_high_water[s.index()] = self.read_high_water[s.index()].max(off + 1);
                self.receive(s, off, r, out);
                if off as usize + 1 == log.len() {
                    out.push(Event::SourceExhausted { task: s });
                }
            }
        }
    }

    /// Does a receiver store what arrives by itself (Spark, on a socket, while the driver runs)?
    pub fn receiver_listens(&self) -> bool {
        self.spark().is_some() && self.settings.source == SourceKind::Socket
    }

    /// An executor crash (`crash-task`): the executor running `x` dies and a new one starts. Its
    /// block copies are gone; the running batch's tasks re-run from the batch's blocks over the
    /// cached state RDD (its lost partitions recomputed from lineage); a receiver on it loses
    /// what it had not stored.
    pub(crate) fn executor_lost(&mut self, x: TaskId, out: &mut Vec<Event>) {
        let e = executor_of(x);
        let s = self.spark_mut();
        let mut lost = 0u16;
        for b in s.blocks.iter_mut() {
            let had = b.readable();
            b.copies &= !(1 << e);
            lost += u16::from(had && !b.readable());
        }
        let rerun = s.running().map(|j| j.batch);
        let lineage = s.chain.len() as u32;
        out.push(Event::from(SparkStreamingEvent::ExecutorLost {
            executor: e,
            task: x,
            lost_blocks: lost,
            rerun,
            lineage,
        }));
        if rerun.is_some() {
            self.abort_open_txns(out);
            for c in 0..self.live.channels.len() {
                for it in std::mem::take(&mut self.live.channels[c].queue) {
                    if let Item::Record { seq, rec } = it {
                        self.wire[c].retain(seq, rec, Fate::Dropped);
                    }
                }
            }
            let s = self.spark_mut();
            let (cached, at) = (s.cached.clone(), s.cached_tick);
            let job = &mut s.jobs[0];
            job.started = None;
            job.attempt += 1;
            for t in 0..self.live.tasks.len() {
                if self.graph.tasks[t].kind == OperatorKind::Source {
                    continue;
                }
                let task = TaskId(t as u16);
                self.live.tasks[t].state = cached.get(t).cloned().unwrap_or_else(|| self.initial_state(task));
                self.effects.restoring_from(task, at);
                self.effects.restarted(task, self.tick);
            }
            self.effects.restore_done();
        }
        // A receiver on the lost executor restarts elsewhere.
        for src in self.graph.sources().filter(|s| executor_of(*s) == e).collect::<Vec<_>>() {
            self.socket_reconnect(src, out);
        }
    }

    /// Aborts every open transaction of the sinks (a failed attempt's rows never commit).
    fn abort_open_txns(&mut self, out: &mut Vec<Event>) {
        for t in 0..self.live.tasks.len() {
            if let OpState::Sink { open: Some(txn), .. } = self.live.tasks[t].state {
                self.live.tasks[t].state = OpState::Sink { open: None, pending: vec![] };
                let x = self.durable.external.txn_mut(txn);
                x.status = TxnStatus::Aborted;
                out.push(Event::TxnAborted { task: TaskId(t as u16), txn, rows: x.rows.len() as u32 });
            }
        }
    }

    /// `JobGenerator.restart`: the driver restarts from the metadata checkpoint: the state RDD
    /// from the state checkpoint, the lineage chain's batches older than the checkpoint's time
    /// recomputed (no output), then `pendingTimes ++ checkpointTime.until(restartTime)`: every
    /// batch from the checkpoint's time on, completed or not, and every incomplete one, queued
    /// again with its output (a completed one the state checkpoint holds keeps that state RDD);
    /// blocks read back from the write-ahead log. Receivers resume at the offset they
    /// acknowledged (a socket cannot go back).
    fn restart_driver(&mut self) -> (RestoreFrom, InFlight) {
        let d = self.durable.mechanism.get::<SparkDurable>().unwrap_or(&EMPTY_LOG);
        let mut s = SparkRuntime::default();
        let state = d.state.clone();
        if let Some(st) = &state {
            for t in 0..self.live.tasks.len() {
                if self.graph.tasks[t].kind != OperatorKind::Source {
                    self.live.tasks[t].state = st.states[t].clone();
                    self.effects.restoring_from(TaskId(t as u16), st.tick);
                }
            }
            s.cached = st.states.clone();
            s.cached_tick = st.tick;
        }
        let meta = d.meta.clone().unwrap_or_default();
        // Blocks come back from the log only: memory died with the executors.
        s.blocks = d.wal.iter().map(|b| Block { copies: 0, ..b.clone() }).collect();
        let (mut recompute, mut rerun, mut again) = (0u16, 0u16, 0u16);
        let held = state.as_ref().map(|st| st.batch);
        for (k, blocks, done) in &meta.batches {
            let time = u64::from(*k) * self.settings.mechanism.spark.batch_interval;
            let output = !done || time >= meta.checkpoint_time;
            let keep_state = *done && held.is_some_and(|h| *k <= h);
            if !output && keep_state {
                continue; // in the state checkpoint already, and before the checkpoint's time
            }
            match (output, done) {
                (false, _) => recompute += 1,
                (true, true) => again += 1,
                (true, false) => rerun += 1,
            }
            s.jobs.push(BatchJob {
                batch: *k,
                time,
                blocks: blocks.clone(),
                output,
                started: None,
                attempt: 1,
                keep_state,
            });
        }
        self.live.mechanism.put(s);
        for src in self.graph.sources().collect::<Vec<_>>() {
            let resume = match self.settings.source {
                SourceKind::ReplayableLog => self.committed_offset(src),
                SourceKind::Socket => self.read_high_water[src.index()],
            };
            if let OpState::Source { next_offset } = &mut self.live.tasks[src.index()].state {
                *next_offset = resume;
            }
        }
        let since = meta.checkpoint_time;
        (
            RestoreFrom::from(SparkRestore::MetadataCheckpoint {
                state: state.map(|s| s.batch),
                recompute,
                rerun,
                again,
                since,
            }),
            vec![],
        )
    }

    /// Spark's records that are still on their way: in a block not yet processed (unallocated, or
    /// in a queued or running batch) that a job can still read.
    pub(crate) fn spark_on_its_way(&self, v: &mut [bool]) {
        let Some(s) = self.spark() else { return };
        for b in s.blocks.iter().filter(|b| b.readable()) {
            if b.batch.is_none_or(|k| s.jobs.iter().any(|j| j.batch == k)) {
                v[b.record.0 as usize] = true;
            }
        }
    }

    /// Per-record latency, from the step a receiver stored a record to the first step a reader saw
    /// it in the sink's output: (sum, records, max), over the records seen.
    pub fn record_latency(&self) -> (u64, u64, u64) {
        let d = self.durable.mechanism.get::<SparkDurable>().unwrap_or(&EMPTY_LOG);
        let mut first = vec![u64::MAX; d.received.len()];
        for row in self.durable.external.visible() {
            if let Some(f) = first.get_mut(row.record.0 as usize) {
                *f = (*f).min(row.tick + 1);
            }
        }
        let (mut sum, mut n, mut max) = (0, 0, 0);
        for (r, f) in d.received.iter().zip(&first) {
            if *r != u64::MAX && *f != u64::MAX && *f > *r {
                sum += f - r;
                n += 1;
                max = max.max(f - r);
            }
        }
        (sum, n, max)
    }

    /// Blocks wait for the driver to cut their batch.
    pub(crate) fn blocks_waiting(&self) -> bool {
        self.spark().is_some_and(|s| s.blocks.iter().any(|b| b.batch.is_none() && b.readable()))
    }
}
