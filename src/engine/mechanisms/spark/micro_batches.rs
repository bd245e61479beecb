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
use super::received_blocks::{
    BatchJob, BatchStat, Block, MetaCheckpoint, SparkDurable, SparkRuntime, StateCheckpoint, EXECUTORS,
    WAL_BYTES_PER_RECORD,
};
use crate::engine::action::{Action, CrashScope, Event, RestoreFrom};
use crate::engine::dataflow::channel::Fate;
use crate::engine::dataflow::external_system::TxnStatus;
use crate::engine::dataflow::job_graph::OperatorKind;
use crate::engine::dataflow::record::Record as Rec;
use crate::engine::dataflow::record::{Item, Record};
use crate::engine::dataflow::state::OpState;
use crate::engine::error::ActionError;
use crate::engine::ids::{RecordId, TaskId};
use crate::engine::mechanisms::hooks::Hooks;
use crate::engine::mechanisms::own_state::Slot;
use crate::engine::mechanisms::seam::{InFlight, Mechanism, OnCrash, Rerun};
use crate::engine::settings::{SinkMode, SourceKind};
use super::refusals::SparkRefusal;
use crate::engine::sim::Durable;
use crate::engine::sim::Sim;

/// Spark Streaming's receivers, driver and batch jobs (strategy `spark-streaming`).
pub struct MicroBatches;

impl Mechanism for MicroBatches {
    fn hooks(&self) -> Hooks {
        Hooks { checks_actions: true, waits_for_time: true, reruns: true, ..Hooks::default() }
    }
    fn start(&self, sim: &mut Sim) {
        sim.live.mechanism.put(SparkRuntime::default());
        sim.durable.mechanism.put(SparkDurable::default());
    }
    /// A receiver on a socket stores what arrives by itself: nobody reads for it.
    fn check(&self, sim: &Sim, a: Action) -> Result<(), ActionError> {
        match a {
            Action::Read { task } if sim.receiver_listens() => {
                Err(ActionError::Spark(SparkRefusal::ReceiverListens { task: sim.graph.task(task).name.clone() }))
            }
            Action::Mechanism { step } => Err(ActionError::NoSuchStep { step: step.kind, strategy: sim.strategy() }),
            _ => Ok(()),
        }
    }
    /// Blocks waiting for the driver to cut their batch, or the checkpoint writer still to record
    /// a completion.
    fn awaits_time(&self, sim: &Sim) -> bool {
        sim.blocks_waiting() || sim.spark().is_some_and(|s| s.meta_due)
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
            Some(s) => Event::Spark(SparkStreamingEvent::DriverLost {
                blocks: s.blocks.iter().filter(|b| b.copies != 0).count() as u16,
                lost_in_flight,
            }),
            None => Event::Crashed { scope, lost_in_flight },
        }
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
    fn on_trigger(&self, _sim: &mut Sim, _id: crate::engine::ids::CheckpointId, _out: &mut Vec<Event>) {
        unreachable!("Spark Streaming has no checkpoint barriers: the trigger is refused first")
    }
    fn on_tick(&self, sim: &mut Sim, out: &mut Vec<Event>) {
        sim.driver_tick(out);
    }
    /// The driver restarts from the metadata checkpoint (`StreamingContext.getOrCreate`).
    fn restore(&self, sim: &mut Sim) -> (RestoreFrom, InFlight) {
        sim.restart_driver()
    }
}

/// What another strategy's run reads as Spark's log: nothing written.
static EMPTY_LOG: SparkDurable = SparkDurable::EMPTY;

/// Spark's write-ahead log and checkpoint directory, in the run's durable slot.
fn log_mut(d: &mut Durable) -> &mut SparkDurable {
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

    fn spark_mut(&mut self) -> &mut SparkRuntime {
        self.live.mechanism.get_mut::<SparkRuntime>().expect("the driver runs")
    }

    /// The receiver on source `t` stored `record` (read at `offset`) as a block and, once it is
    /// stored, acknowledged a reliable source.
    pub(crate) fn receive(&mut self, t: TaskId, offset: u32, record: RecordId, out: &mut Vec<Event>) {
        let wal = self.settings.write_ahead_log;
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
        out.push(Event::Spark(SparkStreamingEvent::BlockStored { task: t, record, block: id, wal, acked }));
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
        if (self.tick + 1) % self.settings.batch_interval == 0 {
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

    /// `JobGenerator.generateJobs`: the blocks received since the last batch become batch k
    /// (`allocateBlocksToBatch`, logged to the write-ahead log when it is on), its job is queued,
    /// and a metadata checkpoint is written. An interval without blocks makes no batch here, but
    /// its time is checkpointed as Spark's empty job's is: at once when no job waits (it completes
    /// at once, and the log is cleaned), or when the queue reaches it.
    fn cut_batch(&mut self, out: &mut Vec<Event>) {
        let time = self.tick + 1;
        let k = (time / self.settings.batch_interval) as u32;
        let s = self.live.mechanism.get_mut::<SparkRuntime>().expect("the driver runs");
        let mut blocks = Vec::new();
        for b in s.blocks.iter_mut().filter(|b| b.batch.is_none() && b.readable()) {
            b.batch = Some(k);
            blocks.push(b.id);
        }
        if blocks.is_empty() {
            if s.jobs.is_empty() {
                self.clean_log(time, out);
            } else {
                s.empty.push(time);
            }
            self.write_metadata_checkpoint(time);
            return;
        }
        for b in log_mut(&mut self.durable).wal.iter_mut().filter(|b| blocks.contains(&b.id)) {
            b.batch = Some(k);
        }
        out.push(Event::Spark(SparkStreamingEvent::BatchGenerated { batch: k, blocks: blocks.len() as u16 }));
        self.spark_mut().jobs.push(BatchJob {
            batch: k,
            time,
            blocks,
            output: true,
            started: None,
            attempt: 1,
            keep_state: false,
        });
        self.write_metadata_checkpoint(time);
    }

    /// The JobScheduler starts the head job when none runs: its blocks' records go out on the
    /// receiver's outputs, read from an executor's memory or from the write-ahead log. A block
    /// that is in neither is gone.
    fn start_next_job(&mut self, out: &mut Vec<Event>) {
        loop {
            let Some(s) = self.live.mechanism.get::<SparkRuntime>() else { return };
            let Some(job) = s.jobs.first().filter(|j| j.started.is_none()) else { return };
            let job = job.clone();
            let mut records = Vec::new();
            let mut missing = 0u16;
            for id in &job.blocks {
                match s.block(*id).filter(|b| b.readable()) {
                    Some(b) => records.push((b.source, b.record)),
                    None => missing += 1,
                }
            }
            self.spark_mut().jobs[0].started = Some(self.tick + 1);
            let replayed = job.attempt > 1 || !job.output;
            for (src, r) in &records {
                let rec = Record { id: *r, value: self.graph.record(*r).value, replayed };
                self.emit(*src, rec);
            }
            log_mut(&mut self.durable).batches.push(BatchStat {
                batch: job.batch,
                time: job.time,
                records: records.len() as u16,
                started: self.tick + 1,
                finished: None,
                attempt: job.attempt,
                output: job.output,
            });
            out.push(Event::Spark(SparkStreamingEvent::BatchStarted {
                batch: job.batch,
                records: records.len() as u16,
                missing,
                output: job.output,
                attempt: job.attempt,
            }));
            if !records.is_empty() {
                return;
            }
            self.complete_batch(out);
        }
    }

    /// Batch k's job is done: the output commits (transactional: once per (batch time,
    /// partition)), the state RDD is cached and joins the lineage chain, and every
    /// `checkpoint-interval` batches it is checkpointed, which cuts the chain. Empty jobs queued
    /// behind it complete with it; the metadata checkpoint takes the latest of their times.
    fn complete_batch(&mut self, out: &mut Vec<Event>) {
        let job = self.spark_mut().jobs.remove(0);
        let s = self.spark_mut();
        let next = s.jobs.first().map_or(u64::MAX, |j| j.time);
        let empty_done = s.empty.iter().copied().filter(|t| *t < next).max();
        s.empty.retain(|t| *t >= next);
        // A batch recomputed from lineage after a restart leaves the checkpoint's time as it was
        // (and cleans nothing: the batches after it are still to run).
        let (time, clean_at) = if job.output {
            s.completed = Some((job.batch, job.time, job.blocks.clone()));
            let t = empty_done.unwrap_or(job.time).max(job.time);
            (t, t)
        } else {
            (log_mut(&mut self.durable).meta.as_ref().map_or(job.time, |m| m.checkpoint_time), job.time)
        };
        if job.output && self.settings.sink == SinkMode::Transactional {
            self.commit_batch(job.time, out);
        }
        let tick = self.tick;
        if let Some(st) = log_mut(&mut self.durable).batches.last_mut() {
            st.finished = Some(tick + 1);
        }
        let states: Vec<OpState> = self.live.tasks.iter().map(|t| t.state.clone()).collect();
        let every = self.settings.state_checkpoint_batches();
        let s = self.spark_mut();
        s.cached = states.clone();
        s.cached_tick = tick;
        // A re-run over the checkpointed state RDD does not lengthen its lineage.
        if !job.keep_state {
            s.chain.push((job.batch, job.blocks));
        }
        let chain = s.chain.len() as u32;
        out.push(Event::Spark(SparkStreamingEvent::BatchCompleted {
            batch: job.batch,
            output: job.output,
            lineage: chain,
        }));
        if !job.keep_state && u64::from(chain) >= every {
            self.spark_mut().chain.clear();
            let k = job.batch;
            log_mut(&mut self.durable).state = Some(StateCheckpoint { batch: k, tick, states });
            let cleaned = self.clean_log(clean_at, &mut Vec::new());
            out.push(Event::Spark(SparkStreamingEvent::StateCheckpointed { batch: k, cut: chain, cleaned }));
            // The state checkpoint and the metadata that points past it go together.
            self.write_metadata_checkpoint(time);
        } else {
            // `onBatchCompletion` posts `DoCheckpoint`; the writer thread writes it a step later.
            // `clearCheckpointData` cleans the log once the batch is done.
            self.clean_log(clean_at, out);
            let s = self.spark_mut();
            s.meta_due = true;
            s.meta_time = time;
        }
    }

    /// `ReceiverTracker.cleanupOldBlocksAndBatches(time - rememberDuration)`: the log's blocks of
    /// batches older than `time` minus twice the checkpoint interval (`DStream.initialize`:
    /// "times 2 just to be sure that the latest checkpoint is not forgotten") leave the log.
    /// Blocks a lineage chain still needs stay (Spark's state checkpoint is timed, so its chain
    /// never reaches that far; here it counts batches, and empty intervals make none).
    fn clean_log(&mut self, time: u64, out: &mut Vec<Event>) -> u16 {
        let remember = 2 * self.settings.state_checkpoint_batches() * self.settings.batch_interval;
        let Some(before) = time.checked_sub(remember) else { return 0 };
        let interval = self.settings.batch_interval;
        // What a lineage chain or a queued job still reads stays.
        let needed: Vec<u32> = self
            .spark()
            .map(|s| s.chain.iter().map(|c| c.0).chain(s.jobs.iter().map(|j| j.batch)).collect())
            .unwrap_or_default();
        let wal = &mut log_mut(&mut self.durable).wal;
        let n = wal.len();
        wal.retain(|b| b.batch.is_none_or(|k| u64::from(k) * interval >= before || needed.contains(&k)));
        let cleaned = (n - wal.len()) as u16;
        if cleaned > 0 {
            out.push(Event::Spark(SparkStreamingEvent::LogCleaned { before, blocks: cleaned }));
        }
        cleaned
    }

    /// The output operation of a batch commits each sink partition's rows atomically, keyed by
    /// (batch time, partition); a key committed before (a re-run batch) is skipped.
    fn commit_batch(&mut self, time: u64, out: &mut Vec<Event>) {
        let tick = self.tick;
        for t in 0..self.live.tasks.len() {
            let OpState::Sink { open, .. } = &mut self.live.tasks[t].state else { continue };
            let Some(txn) = open.take() else { continue };
            let task = TaskId(t as u16);
            let ext = &mut self.durable.external;
            let skipped = ext.batch_commits.contains(&(time, task));
            let x = ext.txn_mut(txn);
            x.status = if skipped { TxnStatus::Aborted } else { TxnStatus::Committed };
            x.rows.iter_mut().for_each(|r| r.tick = tick);
            let rows = x.rows.len() as u32;
            if !skipped {
                ext.batch_commits.push((time, task));
            }
            out.push(Event::Spark(SparkStreamingEvent::BatchOutput { task, time, rows, skipped }));
        }
    }

    /// The metadata checkpoint of batch time `time` (`new Checkpoint(ssc, time)`): the lineage
    /// chain's batches (those being recomputed included), the completed batch of that time (a
    /// restart runs it again) and the queued ones, with block ids.
    fn write_metadata_checkpoint(&mut self, time: u64) {
        let s = self.spark().expect("the driver runs");
        let mut batches: Vec<(u32, Vec<u32>, bool)> = s.chain.iter().map(|(k, b)| (*k, b.clone(), true)).collect();
        if let Some((k, t, b)) = &s.completed {
            if *t >= time && !batches.iter().any(|x| x.0 == *k) {
                batches.push((*k, b.clone(), true));
            }
        }
        // A batch being recomputed or re-run after a restart had completed.
        let queued: Vec<_> = s
            .jobs
            .iter()
            .filter(|j| !batches.iter().any(|x| x.0 == j.batch))
            .map(|j| (j.batch, j.blocks.clone(), !j.output || j.keep_state))
            .collect();
        batches.extend(queued);
        batches.sort_by_key(|b| b.0);
        self.spark_mut().meta_due = false;
        log_mut(&mut self.durable).meta = Some(MetaCheckpoint {
            time: self.tick + 1,
            checkpoint_time: time,
            batch_interval: self.settings.batch_interval,
            wal: self.settings.write_ahead_log,
            batches,
        });
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
        out.push(Event::Spark(SparkStreamingEvent::ExecutorLost {
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
            let time = u64::from(*k) * self.settings.batch_interval;
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
        (RestoreFrom::MetadataCheckpoint { state: state.map(|s| s.batch), recompute, rerun, again, since }, vec![])
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
