//! Structured Streaming's micro-batches (strategy `structured-streaming`), after Spark's
//! `MicroBatchExecution` (`constructNextBatch`, `runBatch`, `populateStartOffsets`),
//! `OffsetSeqLog`, `CommitLog`, `StatefulOperatorStateInfo` with `HDFSBackedStateStoreProvider`
//! (batch N loads state version N and commits version N + 1), and the sinks of [`super::sinks`].
//!
//! Step by step (the data is in [`super::checkpoint_location`]), one batch at a time:
//! - **plan** (`constructNextBatch`): when no batch runs and a source has offsets it has not read
//!   (a replayable log holds them all; a socket, what has arrived), the driver writes
//!   `offsets/N`: per source, the range from where it stands, at most `max-offsets-per-trigger`
//!   long. Only then does the batch run.
//! - **run** (`runBatch`): the sources read their ranges (the learner's reads, or the
//!   scheduler's), the records go through the job, the sink writes.
//! - **finish** (`addBatch` returns): once every range is read and the job is empty, the state
//!   stores commit version N + 1 and the sink finishes the batch (the file sink writes
//!   `_spark_metadata/N`; `foreachBatch` commits its writes); a step later the driver writes
//!   `commits/N`, and the step after that it may plan batch N + 1.
//! - **crash** (`crash`, `crash-job-manager`, and `crash-task`: a task that fails past its
//!   retries fails the query): the driver and the executors die, and with them every record on
//!   its way; the checkpoint location, the sink's output and the sources' logs stay.
//! - **restart** (`populateStartOffsets`): the latest offset log entry N without a commit entry
//!   runs again with exactly its offsets, over the state stores' version N; with a commit entry,
//!   batch N + 1 starts from its ends over version N + 1. A socket cannot read again what it had
//!   read, nor what arrived while nobody listened.

use super::checkpoint_location::{CheckpointLocation, OffsetEntry, Phase, QueryRuntime, SourceRange};
use super::events::{StructuredEvent, StructuredRestore};
use super::refusals::StructuredRefusal;
use crate::engine::core::action::{Action, CrashScope, Event, RestoreFrom};
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::error::ActionError;
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::TaskId;
use crate::engine::core::own_state::Slot;
use crate::engine::core::seam::{InFlight, Mechanism, OnCrash, OwnSources, OwnSteps};
use crate::engine::core::sim::Sim;
use crate::engine::settings::Settings;

/// Structured Streaming's driver and its micro-batches (strategy `structured-streaming`).
pub struct MicroBatchExecution;

impl Mechanism for MicroBatchExecution {
    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks { checks_actions: true, waits_for_time: true, ticks: true, ..Hooks::default() }
    }
    fn start(&self, sim: &mut Sim) {
        sim.live.mechanism.put(QueryRuntime::default());
        sim.durable.mechanism.put(CheckpointLocation::default());
    }
    /// A source reads only the running batch's range of offsets.
    fn check(&self, sim: &Sim, a: Action) -> Result<(), ActionError> {
        match a {
            Action::Read { task } => sim.structured_may_read(task),
            Action::Mechanism { step } => Err(ActionError::NoSuchStep { step: step.kind, strategy: sim.strategy() }),
            _ => Ok(()),
        }
    }
    /// A task that fails past its retries (`spark.task.maxFailures`) fails the query: the whole
    /// query restarts, whatever the failover strategy.
    fn on_crash(&self, _sim: &mut Sim, scope: CrashScope, _out: &mut Vec<Event>) -> OnCrash {
        match scope {
            CrashScope::Task(_) => OnCrash::WholeJob,
            _ => OnCrash::Failover,
        }
    }
    fn crash_event(&self, lost: &Slot, scope: CrashScope, lost_in_flight: u32) -> Event {
        match lost.get::<QueryRuntime>() {
            Some(q) => Event::from(StructuredEvent::QueryStopped { batch: q.batch, lost_in_flight }),
            None => Event::Crashed { scope, lost_in_flight },
        }
    }
    fn on_tick(&self, sim: &mut Sim, out: &mut Vec<Event>) {
        sim.query_tick(out);
    }
    /// The query restarts on its checkpoint location (`populateStartOffsets`).
    fn restore(&self, sim: &mut Sim) -> (RestoreFrom, InFlight) {
        sim.populate_start_offsets()
    }
    fn own_sources(&self) -> Option<&dyn OwnSources> {
        Some(self)
    }
    fn own_steps(&self) -> Option<&dyn OwnSteps> {
        Some(self)
    }
}

impl OwnSources for MicroBatchExecution {
    /// The next offset of the source's range in the running batch, once it has arrived.
    fn next_read(&self, sim: &Sim, t: TaskId) -> Option<u32> {
        let r = sim.query().filter(|q| q.phase == Phase::Running)?.range(t)?;
        sim.next_in_log(t).filter(|off| *off < r.end)
    }
    /// Where a restart would have the source resume: the start of the latest offset log entry's
    /// range if that batch has no commit entry (it runs again), else its end.
    fn committed_offset(&self, sim: &Sim, t: TaskId) -> u32 {
        let loc = sim.checkpoint_location();
        let Some(e) = loc.latest_offsets() else { return 0 };
        let done = loc.latest_commit() == Some(e.batch);
        e.ranges.iter().find(|r| r.source == t).map_or(0, |r| if done { r.end } else { r.start })
    }
}

impl OwnSteps for MicroBatchExecution {
    /// The driver has a batch to plan, to finish or to commit.
    fn awaits_time(&self, sim: &Sim) -> bool {
        match sim.query().map(|q| q.phase) {
            Some(Phase::Idle) => sim.plan_next_batch().is_some(),
            Some(Phase::Running) => sim.batch_drained(),
            Some(Phase::SinkDone) => true,
            None => false,
        }
    }
}

/// What another strategy's run reads as the checkpoint location: nothing written.
static EMPTY: CheckpointLocation =
    CheckpointLocation { offsets: Vec::new(), commits: Vec::new(), state: Vec::new(), sink_log: Vec::new() };

impl Sim {
    /// Structured Streaming's driver, while the query runs.
    pub fn query(&self) -> Option<&QueryRuntime> {
        self.live.mechanism.get::<QueryRuntime>()
    }

    /// Structured Streaming's checkpoint location (empty under another strategy).
    pub fn checkpoint_location(&self) -> &CheckpointLocation {
        self.durable.mechanism.get::<CheckpointLocation>().unwrap_or(&EMPTY)
    }

    pub(super) fn location_mut(&mut self) -> &mut CheckpointLocation {
        self.durable.mechanism.get_mut().expect("the checkpoint location is there from the start")
    }

    pub(super) fn query_mut(&mut self) -> &mut QueryRuntime {
        self.live.mechanism.get_mut().expect("the query runs")
    }

    /// May source `t` read now: a batch runs and the source has not read its whole range?
    fn structured_may_read(&self, t: TaskId) -> Result<(), ActionError> {
        let Some(q) = self.query() else { return Ok(()) };
        let task = || self.graph.task(t).name.clone();
        if q.phase != Phase::Running {
            return Err(ActionError::from(StructuredRefusal::NoBatchPlanned { task: task(), batch: q.batch }));
        }
        match q.range(t) {
            Some(r) if self.source_offset(t) < r.end => Ok(()),
            r => Err(ActionError::from(StructuredRefusal::RangeRead {
                task: task(),
                batch: q.batch,
                end: r.map_or(self.source_offset(t), |r| r.end),
            })),
        }
    }

    /// The driver's loop, after every step: plan a batch, finish the running one, or write the
    /// commit log entry of the finished one; one of these a step.
    pub(crate) fn query_tick(&mut self, out: &mut Vec<Event>) {
        let Some(q) = self.query() else { return };
        match q.phase {
            Phase::Idle => {
                if let Some(entry) = self.plan_next_batch() {
                    out.push(Event::from(StructuredEvent::OffsetLogWritten {
                        batch: entry.batch,
                        records: entry.records(),
                    }));
                    let visible = self.durable.external.visible().len() as u32;
                    let q = self.query_mut();
                    q.phase = Phase::Running;
                    q.ranges = entry.ranges.clone();
                    q.visible_at_start = visible;
                    self.location_mut().offsets.push(entry);
                }
            }
            Phase::Running => {
                if self.batch_drained() {
                    self.finish_batch(out);
                }
            }
            Phase::SinkDone => {
                let batch = q.batch;
                self.location_mut().commits.push(batch);
                out.push(Event::from(StructuredEvent::CommitLogWritten { batch }));
                let q = self.query_mut();
                q.batch += 1;
                q.phase = Phase::Idle;
                q.ranges.clear();
            }
        }
    }

    /// `constructNextBatch`: the next batch's offset log entry, if some source has new offsets:
    /// each source's range from where it stands, at most `max-offsets-per-trigger` long, over
    /// what has arrived.
    pub(crate) fn plan_next_batch(&self) -> Option<OffsetEntry> {
        let q = self.query()?;
        let max = self.settings.mechanism.structured.max_offsets_per_trigger;
        let mut ranges = Vec::new();
        for s in self.graph.sources() {
            let log = &self.graph.task(s).log;
            let start = self.source_offset(s);
            let mut end = start;
            while (end as usize) < log.len() && u64::from(end - start) < max && self.arrived(log[end as usize]) {
                end += 1;
            }
            ranges.push(SourceRange { source: s, start, end });
        }
        ranges.iter().any(|r| r.end > r.start).then_some(OffsetEntry { batch: q.batch, ranges })
    }

    /// Has the running batch read every range, and has everything it read gone through the job?
    pub(crate) fn batch_drained(&self) -> bool {
        let Some(q) = self.query() else { return false };
        q.phase == Phase::Running
            && q.ranges.iter().all(|r| self.source_offset(r.source) >= r.end)
            && self.live.channels.iter().all(|c| c.queue.is_empty())
            && !self.some_task_busy()
    }

    /// The batch's work is done: the sink finishes it (`addBatch` returns) and the state stores
    /// commit version N + 1, written over a version an earlier attempt of the batch had
    /// committed. The stores are read after the sink has closed its writes.
    fn finish_batch(&mut self, out: &mut Vec<Event>) {
        let batch = self.query().expect("the query runs").batch;
        let sink = self.finish_sink(batch);
        let version = batch + 1;
        let tasks: Vec<_> =
            (0..self.graph.tasks.len()).map(|t| self.take_snapshot(TaskId(t as u16), None, out)).collect();
        let stores = tasks.iter().filter(|s| matches!(s.state, OpState::Keyed { .. })).count() as u16;
        let loc = self.location_mut();
        loc.state.retain(|v| v.version != version);
        loc.state.push(super::checkpoint_location::StateVersion { version, tasks });
        if stores > 0 {
            out.push(Event::from(StructuredEvent::StateStoreCommitted { batch, version, stores }));
        }
        out.push(Event::from(sink));
        self.query_mut().phase = Phase::SinkDone;
    }

    /// `populateStartOffsets`: the query restarts on its checkpoint location. The latest offset
    /// log entry without a commit entry runs again with exactly its offsets, over the state
    /// stores' version of its batch; with a commit entry, the next batch starts where it ended.
    /// A source on a socket then loses what it cannot read again (the restart's reconnection).
    fn populate_start_offsets(&mut self) -> (RestoreFrom, InFlight) {
        let loc = self.checkpoint_location().clone();
        let (batch, rerun) = match loc.latest_offsets() {
            None => (0, false),
            Some(e) if loc.latest_commit() == Some(e.batch) => (e.batch + 1, false),
            Some(e) => (e.batch, true),
        };
        let version = batch;
        if let Some(v) = loc.version(version) {
            for s in &v.tasks {
                self.restore_task(s);
            }
        }
        let ranges = if rerun { loc.latest_offsets().map(|e| e.ranges.clone()).unwrap_or_default() } else { vec![] };
        for src in self.graph.sources().collect::<Vec<_>>() {
            let resume = OwnSources::committed_offset(&MicroBatchExecution, self, src);
            if let OpState::Source { next_offset } = &mut self.live.tasks[src.index()].state {
                *next_offset = resume;
            }
        }
        let visible_at_start = self.durable.external.visible().len() as u32;
        let phase = if rerun { Phase::Running } else { Phase::Idle };
        self.live.mechanism.put(QueryRuntime { batch, phase, ranges, visible_at_start });
        (RestoreFrom::from(StructuredRestore::CheckpointLocation { batch, rerun, version }), vec![])
    }
}
