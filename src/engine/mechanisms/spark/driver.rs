//! Spark Streaming's driver at work, after `JobGenerator` and `JobScheduler`: it cuts a batch of
//! the blocks received every `batch-interval` (`generateJobs`, `allocateBlocksToBatch`), runs one
//! batch job at a time, completes it when the job's records are through (the state RDD cached and,
//! every `checkpoint-interval` batches, checkpointed), commits a transactional output keyed by
//! (batch time, partition), writes the metadata checkpoint a step later (`CheckpointWriter`), and
//! cleans the log (`clearCheckpointData`). The mechanism that calls it is [`super::micro_batches`].

use super::events::SparkStreamingEvent;
use super::micro_batches::log_mut;
use super::received_blocks::{BatchJob, BatchStat, MetaCheckpoint, SparkRuntime, StateCheckpoint};
use crate::engine::core::action::Event;
use crate::engine::core::dataflow::external_system::TxnStatus;
use crate::engine::core::dataflow::record::Record;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::TaskId;
use crate::engine::core::sim::Sim;
use crate::engine::settings::SinkMode;

impl Sim {
    /// `JobGenerator.generateJobs`: the blocks received since the last batch become batch k
    /// (`allocateBlocksToBatch`, logged to the write-ahead log when it is on), its job is queued,
    /// and a metadata checkpoint is written. An interval without blocks makes no batch here, but
    /// its time is checkpointed as Spark's empty job's is: at once when no job waits (it completes
    /// at once, and the log is cleaned), or when the queue reaches it.
    pub(super) fn cut_batch(&mut self, out: &mut Vec<Event>) {
        let time = self.tick + 1;
        let k = (time / self.settings.mechanism.spark.batch_interval) as u32;
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
        out.push(Event::from(SparkStreamingEvent::BatchGenerated { batch: k, blocks: blocks.len() as u16 }));
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
    pub(super) fn start_next_job(&mut self, out: &mut Vec<Event>) {
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
            out.push(Event::from(SparkStreamingEvent::BatchStarted {
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
    pub(super) fn complete_batch(&mut self, out: &mut Vec<Event>) {
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
        out.push(Event::from(SparkStreamingEvent::BatchCompleted {
            batch: job.batch,
            output: job.output,
            lineage: chain,
        }));
        if !job.keep_state && u64::from(chain) >= every {
            self.spark_mut().chain.clear();
            let k = job.batch;
            log_mut(&mut self.durable).state = Some(StateCheckpoint { batch: k, tick, states });
            let cleaned = self.clean_log(clean_at, &mut Vec::new());
            out.push(Event::from(SparkStreamingEvent::StateCheckpointed { batch: k, cut: chain, cleaned }));
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
    pub(super) fn clean_log(&mut self, time: u64, out: &mut Vec<Event>) -> u16 {
        let remember = 2 * self.settings.state_checkpoint_batches() * self.settings.mechanism.spark.batch_interval;
        let Some(before) = time.checked_sub(remember) else { return 0 };
        let interval = self.settings.mechanism.spark.batch_interval;
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
            out.push(Event::from(SparkStreamingEvent::LogCleaned { before, blocks: cleaned }));
        }
        cleaned
    }

    /// The output operation of a batch commits each sink partition's rows atomically, keyed by
    /// (batch time, partition); a key committed before (a re-run batch) is skipped.
    pub(super) fn commit_batch(&mut self, time: u64, out: &mut Vec<Event>) {
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
            out.push(Event::from(SparkStreamingEvent::BatchOutput { task, time, rows, skipped }));
        }
    }

    /// The metadata checkpoint of batch time `time` (`new Checkpoint(ssc, time)`): the lineage
    /// chain's batches (those being recomputed included), the completed batch of that time (a
    /// restart runs it again) and the queued ones, with block ids.
    pub(super) fn write_metadata_checkpoint(&mut self, time: u64) {
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
        crate::engine::core::stable_sort::sort_stable_by_key(&mut batches, |b| b.0);
        self.spark_mut().meta_due = false;
        log_mut(&mut self.durable).meta = Some(MetaCheckpoint {
            time: self.tick + 1,
            checkpoint_time: time,
            batch_interval: self.settings.mechanism.spark.batch_interval,
            wal: self.settings.mechanism.spark.write_ahead_log,
            batches,
        });
    }
}
