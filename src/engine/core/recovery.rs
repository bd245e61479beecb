//! Failure and recovery, and the line between what a crash destroys and what survives it.
//!
//! A run holds two parts, kept apart by type, as stateright's actor model separates an actor's
//! state (lost on `Crash`) from its storage (read back on `Recover`):
//! - [`Live`](crate::engine::core::sim::Live): the running job. Tasks (operator state, barrier progress, channel positions),
//!   channels with their in-flight records, and the JobManager's memory: the
//!   CheckpointCoordinator's pending checkpoints and the completion notifications on their way to
//!   the tasks. A crash drops it.
//! - [`Durable`](crate::engine::core::sim::Durable): checkpoint storage (completed checkpoints and timer saves), the checkpoint id
//!   counter, and the external system the sinks write to. The sources' logs are durable too
//!   (a Kafka topic outside the job); they live in the job graph, which nothing changes.
//!
//! Which part of the live job a failure takes down, after Flink's failover strategies
//! (`jobmanager.execution.failover-strategy`):
//! - the cluster, the JobManager, a global failover (`failGlobal`, when too many checkpoints
//!   failed in a row), or one task under `full` (`RestartAllFailoverStrategy`): the whole job.
//!   The live part is replaced whole; only the JobManager's `CheckpointFailureManager` count
//!   survives a failover that leaves the JobManager up.
//! - one task under `region` (`RestartPipelinedRegionFailoverStrategy`, Flink's default): the
//!   task's pipelined region. In a streaming job every channel is pipelined, so the region is the
//!   task's connected component of the task graph. Its tasks stop, its channels' records are lost,
//!   its tasks' notifications are dropped; every pending checkpoint is aborted (each one spans
//!   every task); the other regions keep running. When the region is the whole job (every
//!   built-in job), this is the full failover.
//!
//! The restore starts fresh tasks for what is down and lets the mechanism put back what it saved
//! ([`Mechanism::restore`](crate::engine::core::seam::Mechanism::restore)); tasks that kept running keep their state.
//! The observer's history that counts (`crate::engine::core::history`) rolls back with the state:
//! a restarted task keeps what its restored snapshot reflects, or nothing. In-flight
//! records stored with an unaligned checkpoint go back on their channels first; sources report
//! where they rewound to; two-phase-commit sinks recover and commit (`recoverAndCommit`).

use crate::engine::core::action::{AbortReason, CrashScope, Event, RestoreFrom};
use crate::engine::core::dataflow::channel::{Channel, Fate, SeqSet};
use crate::engine::core::dataflow::record::{Item, Record};
use crate::engine::core::dataflow::task::{TaskRuntime, TaskStatus};
use crate::engine::core::ids::{CheckpointId, TaskId};
use crate::engine::core::seam::{InFlight, OnCrash, OnRestore};
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::jobmanager::stats::Takeover;
use crate::engine::settings::FailoverStrategy;

impl Sim {
    /// The crash: the live part is gone, all of it or (region failover) the failed task's
    /// pipelined region. Its in-flight records are lost, its tasks stop (the learner still sees
    /// what a canceled task held until the restart), and the pending checkpoints are aborted.
    pub(crate) fn crash(&mut self, scope: CrashScope, out: &mut Vec<Event>) {
        // The mechanism may deal with the failure itself, or fail the whole job over.
        let plan = self.mechanism().on_crash(self, scope, out);
        if plan == OnCrash::Done {
            return;
        }
        if let CrashScope::Task(x) = scope {
            if self.settings.failover_strategy == FailoverStrategy::Region && plan == OnCrash::Failover {
                let region = self.pipelined_region(x);
                if region.contains(&false) {
                    self.crash_region(x, &region, out);
                    self.failover_began(scope, true);
                    return;
                }
            }
        }
        let lost = self.take_live();
        if scope != CrashScope::JobManager {
            // The JobManager outlives a task failover: its CheckpointFailureManager keeps counting.
            self.live.coordinator.failures = lost.coordinator.failures;
        }
        let dropped = self.drop_in_flight(lost.channels);
        self.live.channels = vec![Channel::default(); self.graph.channels.len()];
        for (t, task) in lost.tasks.into_iter().enumerate() {
            let crashed = task.status == TaskStatus::Crashed
                || match scope {
                    CrashScope::Cluster => true,
                    CrashScope::Task(x) => x.index() == t,
                    CrashScope::JobManager | CrashScope::Global => false,
                };
            let initial = self.initial_state(TaskId(t as u16));
            self.live.tasks.push(task.stopped(crashed, initial));
        }
        out.push(self.mechanism().crash_event(&lost.mechanism, scope, dropped));
        self.live.down = Some(scope);
        self.failover_began(scope, false);
        let reason = match scope {
            CrashScope::JobManager => {
                self.live.jobmanager_up = false;
                AbortReason::JobManagerFailure
            }
            CrashScope::Global => AbortReason::JobFailure,
            CrashScope::Cluster | CrashScope::Task(_) => AbortReason::TaskFailure,
        };
        // A stop-the-world checkpoint among them ends without its sources resuming: the job is
        // down, and the pause (the mechanism's live state) went with it.
        let any_pending = !lost.coordinator.pending.is_empty();
        for p in lost.coordinator.pending {
            self.record_abort(p.id, reason, out);
        }
        // The JobManager's failure may take the completed checkpoints with the job (no HA).
        let discarded =
            scope == CrashScope::JobManager && self.follows_high_availability() && self.jobmanager_failed(out);
        // Nothing the retention reads changes between these aborts: prune once.
        if any_pending || discarded {
            self.recompute_retention();
        }
    }

    /// The records on `channels` (taken from the live job) are lost; returns how many.
    pub(crate) fn drop_in_flight(&mut self, channels: Vec<Channel>) -> u32 {
        let mut dropped = 0;
        for (c, ch) in channels.into_iter().enumerate() {
            for it in ch.queue {
                if let Item::Record { seq, rec } = it {
                    dropped += 1;
                    self.wire[c].retain(seq, rec, Fate::Dropped);
                }
            }
        }
        dropped
    }

    /// The tasks of `t`'s pipelined region: in a streaming job every channel is pipelined, so
    /// the connected component of the task graph that holds `t`.
    pub fn pipelined_region(&self, t: TaskId) -> Vec<bool> {
        let g = &self.graph;
        let mut region = vec![false; g.tasks.len()];
        let mut todo = vec![t];
        region[t.index()] = true;
        while let Some(t) = todo.pop() {
            let info = g.task(t);
            for c in info.inputs.iter().chain(&info.out_channels) {
                let c = g.channel(*c);
                for next in [c.from, c.to] {
                    if !std::mem::replace(&mut region[next.index()], true) {
                        todo.push(next);
                    }
                }
            }
        }
        region
    }

    /// Region failover: task `x` failed and its pipelined region `region` (not the whole job)
    /// stops; the other regions run on. Every pending checkpoint is aborted: each spans every
    /// task, and the failed one will not acknowledge (Flink aborts them with `TASK_FAILURE`, and
    /// with `JOB_FAILOVER_REGION` at the restore).
    fn crash_region(&mut self, x: TaskId, region: &[bool], out: &mut Vec<Event>) {
        let mut dropped = 0;
        for c in 0..self.live.channels.len() {
            if !region[self.graph.channels[c].to.index()] {
                continue;
            }
            for it in std::mem::take(&mut self.live.channels[c]).queue {
                if let Item::Record { seq, rec } = it {
                    dropped += 1;
                    self.wire[c].retain(seq, rec, Fate::Dropped);
                }
            }
        }
        for t in (0..region.len()).filter(|t| region[*t]) {
            let task = self.live.tasks[t].clone();
            let crashed = t == x.index() || task.status == TaskStatus::Crashed;
            let initial = self.initial_state(TaskId(t as u16));
            self.live.tasks[t] = task.stopped(crashed, initial);
            if let Some(w) = self.live.kafka_writers.get_mut(t) {
                *w = None; // the task's producer goes with it
            }
        }
        self.live.notifications.retain(|n| !region[n.task.index()]);
        let tasks = region.iter().filter(|r| **r).count() as u16;
        out.push(Event::RegionFailedOver { task: x, tasks, total: region.len() as u16, lost_in_flight: dropped });
        let pending: Vec<CheckpointId> = self.live.coordinator.pending.iter().map(|p| p.id).collect();
        for id in pending {
            self.abort(id, AbortReason::TaskFailure, out);
        }
        self.recompute_retention();
    }

    /// The restart of what is down (the whole job, or the failed regions): fresh tasks, the
    /// mechanism's saved state put back, in-flight data replayed first, sources rewound,
    /// two-phase-commit sinks recovered. Tasks that kept running keep their state.
    pub(crate) fn restore(&mut self, out: &mut Vec<Event>) {
        // The mechanism may answer the restore itself, or keep the master down through it.
        let master_stays_down = match self.mechanism().before_restore(self, out) {
            OnRestore::Done => return,
            OnRestore::Restart { master_stays_down } => master_stays_down,
        };
        // After a JobManager failure: a standby wins the election, or (no HA) a new JobManager
        // starts and, at the next restore, the job is submitted again.
        let mut takeover = Takeover::Restart;
        if self.live.down == Some(CrashScope::JobManager) && self.follows_high_availability() {
            match self.take_over_job(out) {
                Some(t) => takeover = t,
                None => return,
            }
        }
        let whole = self.live.down.is_some();
        self.restart(whole, takeover, master_stays_down, out);
    }

    /// The restart itself: of the whole job (`whole`), or of the tasks that are down; the
    /// master too, unless it `master_stays_down`.
    pub(crate) fn restart(&mut self, whole: bool, takeover: Takeover, master_stays_down: bool, out: &mut Vec<Event>) {
        let kept: Vec<Option<TaskRuntime>> = if whole {
            vec![None; self.live.tasks.len()]
        } else {
            self.live.tasks.iter().map(|t| (t.status == TaskStatus::Running).then(|| t.clone())).collect()
        };
        self.live.down = None;
        self.live.jobmanager_up = !master_stays_down;
        self.live.tasks = (0..self.graph.tasks.len()).map(|t| self.fresh_task(TaskId(t as u16))).collect();
        let (from, mut in_flight) = self.mechanism().restore(self);
        let restarted: Vec<bool> = kept.iter().map(Option::is_none).collect();
        // The history that counts rolls back with the state: to the restored snapshot, or to
        // nothing; a task that kept running keeps its own.
        for t in (0..restarted.len()).filter(|t| restarted[*t]) {
            self.effects.restarted(TaskId(t as u16), self.tick);
        }
        self.effects.restore_done();
        for (t, k) in kept.into_iter().enumerate() {
            if let Some(k) = k {
                self.live.tasks[t] = k;
            }
        }
        if matches!(from, RestoreFrom::Checkpoint { .. }) {
            self.stats.restored += 1;
        }
        if whole {
            out.push(Event::Restored { from });
        } else {
            let tasks = restarted.iter().filter(|r| **r).count() as u16;
            out.push(Event::RegionRestored { from, tasks });
        }
        // Unaligned in-flight data goes back on its channels before any new upstream data.
        in_flight.retain(|(c, _, _)| restarted[self.graph.channel(*c).to.index()]);
        crate::engine::core::stable_sort::sort_stable_by_key(&mut in_flight, |(c, seq, _)| (*c, *seq));
        in_flight.dedup_by_key(|(c, seq, _)| (*c, *seq));
        for (c, stored, rec) in in_flight {
            let seq = self.wire[c.index()].take_seq();
            self.live.channels[c.index()].queue.push_back(Item::Record { seq, rec: Record { replayed: true, ..rec } });
            out.push(Event::Replayed { channel: c, record: rec.id });
            // The restored sender had sent this record once: the replay is that sending now.
            let info = self.graph.channel(c);
            let sent = &mut self.live.tasks[info.from.index()].sent_before[info.output_index];
            *sent = sent.difference(&SeqSet::range(stored, stored + 1)).with(seq, seq + 1);
        }
        // The new incarnations send after the replayed records.
        for task in (0..self.live.tasks.len()).filter(|t| restarted[*t]) {
            let outs = &self.graph.tasks[task].out_channels;
            self.live.tasks[task].out_from = outs.iter().map(|c| self.wire[c.index()].next_seq).collect();
        }
        for s in self.graph.sources().filter(|s| restarted[s.index()]).collect::<Vec<_>>() {
            out.push(Event::Rewound { task: s, offset: self.source_offset(s) });
            self.socket_reconnect(s, out);
        }
        self.recover_sinks(&restarted, out);
        self.recompute_retention();
        self.failovers_ended(takeover, from);
    }

    /// Every task from the latest completed checkpoint, with the in-flight records stored in it;
    /// with none, every task starts empty and every source from offset 0.
    pub(crate) fn restore_latest_checkpoint(&mut self) -> (RestoreFrom, InFlight) {
        let Some(cp) = self.durable.storage.completed.last().cloned() else {
            return (RestoreFrom::Nothing, vec![]);
        };
        let mut in_flight = Vec::new();
        for s in &cp.snapshots {
            self.restore_task(s);
            self.live.tasks[s.task.index()].last_checkpoint = Some(cp.id);
            in_flight.extend(s.in_flight.iter().copied());
        }
        self.stats.latest_restored = Some(cp.id);
        (RestoreFrom::Checkpoint { checkpoint: cp.id }, in_flight)
    }

    /// A restart puts task `s.task` back to snapshot `s`: its state, and what that state had sent and
    /// received, after which the new incarnation's own sending and receiving follow; and the
    /// history that counts, back to what the snapshot reflects.
    pub fn restore_task(&mut self, s: &TaskSnapshot) {
        let task = &mut self.live.tasks[s.task.index()];
        task.state = s.state.clone();
        task.sent_before = s.sent.clone();
        task.received_before = s.received.clone();
        self.effects.restoring_from(s.task, s.tick);
    }
}
