//! Failure and recovery, and the line between what a crash destroys and what survives it.
//!
//! A run holds two parts, kept apart by type, as stateright's actor model separates an actor's
//! state (lost on `Crash`) from its storage (read back on `Recover`):
//! - [`Live`]: the running job. Tasks (operator state, barrier progress, channel positions),
//!   channels with their in-flight records, and the CheckpointCoordinator's pending checkpoints
//!   in the JobManager's memory. A crash drops it whole.
//! - [`Durable`]: checkpoint storage (completed checkpoints and timer saves), the checkpoint id
//!   counter, and the external system the sinks write to. The sources' logs are durable too
//!   (a Kafka topic outside the job); they live in the job graph, which nothing changes.
//!
//! A crash of the cluster, of one task (Flink's full failover: every task restarts) or of the
//! JobManager stops the job: the live part is replaced, its in-flight records are lost, its
//! pending checkpoints are aborted. The restore starts fresh tasks and lets the mechanism put
//! back what it saved ([`super::mechanisms::Mechanism::restore`]); in-flight records stored with
//! an unaligned checkpoint go back on their channels first; sources report where they rewound
//! to; two-phase-commit sinks recover and commit.

use serde::{Deserialize, Serialize};

use crate::engine::action::{AbortReason, CrashScope, Event, RestoreFrom};
use crate::engine::coordinator::{CheckpointIdCounter, Coordinator};
use crate::engine::dataflow::channel::{Channel, Fate, SeqSet};
use crate::engine::dataflow::record::{Item, Record};
use crate::engine::dataflow::sink::ExternalSystem;
use crate::engine::dataflow::task::TaskRuntime;
use crate::engine::ids::TaskId;
use crate::engine::mechanisms::InFlight;
use crate::engine::sim::Sim;
use crate::engine::storage::CheckpointStorage;

/// What a crash destroys: the running job.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Live {
    pub tasks: Vec<TaskRuntime>,
    pub channels: Vec<Channel>,
    pub coordinator: Coordinator,
}

/// What survives every crash.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Durable {
    pub storage: CheckpointStorage,
    pub checkpoint_ids: CheckpointIdCounter,
    pub external: ExternalSystem,
}

impl Sim {
    /// The crash: the live part is gone. Its in-flight records are lost, its tasks stop (the
    /// learner still sees what a canceled task held until the restart), and its pending
    /// checkpoints are aborted.
    pub(crate) fn crash(&mut self, scope: CrashScope, out: &mut Vec<Event>) {
        let lost = std::mem::take(&mut self.live);
        let mut dropped = 0;
        for (c, ch) in lost.channels.into_iter().enumerate() {
            for it in ch.queue {
                if let Item::Record { seq, rec } = it {
                    dropped += 1;
                    self.wire[c].retain(seq, rec, Fate::Dropped);
                }
            }
        }
        self.live.channels = vec![Channel::default(); self.graph.channels.len()];
        for (t, task) in lost.tasks.into_iter().enumerate() {
            let crashed = match scope {
                CrashScope::Cluster => true,
                CrashScope::Task(x) => x.index() == t,
                CrashScope::JobManager => false,
            };
            let initial = self.initial_state(TaskId(t as u16));
            self.live.tasks.push(task.stopped(crashed, initial));
        }
        out.push(Event::Crashed { scope, lost_in_flight: dropped });
        self.down = Some(scope);
        let reason = if scope == CrashScope::JobManager {
            self.jobmanager_up = false;
            AbortReason::JobManagerFailure
        } else {
            AbortReason::TaskFailure
        };
        for p in lost.coordinator.pending {
            self.record_abort(p.id, reason, out);
            self.end_stop_the_world(lost.coordinator.stop_the_world, p.id, out);
            self.recompute_retention();
        }
    }

    /// The restart: fresh tasks, the mechanism's saved state put back, in-flight data replayed
    /// first, sources rewound, two-phase-commit sinks recovered.
    pub(crate) fn restore(&mut self, out: &mut Vec<Event>) {
        self.down = None;
        self.jobmanager_up = true;
        self.live.tasks = (0..self.graph.tasks.len()).map(|t| self.fresh_task(TaskId(t as u16))).collect();
        let (from, mut in_flight) = self.mechanism().restore(self);
        if matches!(from, RestoreFrom::Checkpoint { .. }) {
            self.stats.restored += 1;
        }
        out.push(Event::Restored { from });
        // Unaligned in-flight data goes back on its channels before any new upstream data.
        in_flight.sort_by_key(|(c, seq, _)| (*c, *seq));
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
        for task in 0..self.live.tasks.len() {
            let outs = &self.graph.tasks[task].out_channels;
            self.live.tasks[task].out_from = outs.iter().map(|c| self.wire[c.index()].next_seq).collect();
        }
        for s in self.graph.sources().collect::<Vec<_>>() {
            out.push(Event::Rewound { task: s, offset: self.source_offset(s) });
        }
        self.recover_sinks(out);
        self.recompute_retention();
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
}
