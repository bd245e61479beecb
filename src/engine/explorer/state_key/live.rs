//! The live run's part of a state's key: per task its status, operator state and barrier
//! progress (alignment, the tracker's counts, the newest checkpoint handled, the aborted ones,
//! the round-robin position); per channel its queue and whether it is blocked; the
//! CheckpointCoordinator's pending checkpoints with the snapshots acknowledged so far, its aborted
//! ids and its failures; a stop-the-world in progress (the mechanism's own live state); the
//! notifications on their way. A snapshot is keyed here wherever it is held (see the module note
//! of [`super`]).

use super::KeyWriter;
use crate::engine::core::dataflow::channel::Channel;
use crate::engine::core::dataflow::record::{Barrier, Item, Record};
use crate::engine::core::dataflow::state::{KeyedEntry, OpState};
use crate::engine::core::dataflow::task::{TaskRuntime, TaskStatus};
use crate::engine::core::sim::Live;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::jobmanager::checkpoint::{Coordinator, FailureCounter, Notification, PendingCheckpoint};
use crate::engine::jobmanager::savepoint_kinds::SavepointType;
use crate::engine::mechanisms::progress::{Alignment, BarrierCount, Tracker};
use crate::engine::mechanisms::stop_the_world::Paused;

impl KeyWriter<'_> {
    pub(super) fn live(&mut self, l: &Live) {
        // The Kafka sink's producers never are: the explorer refuses the Kafka sink.
        let Live {
            down,
            jobmanager_up,
            tasks,
            channels,
            coordinator,
            notifications,
            mechanism,
            stopping,
            kafka_writers: _,
        } = l;
        // Whether the job and its JobManager are up: keyed with the rest of the run (`KeyWriter::sim`).
        let _ = (down, jobmanager_up);
        self.opt_u64(stopping.map(|c| c.0));
        self.len(tasks.len());
        for t in tasks {
            self.task(t);
        }
        self.len(channels.len());
        for (i, c) in channels.iter().enumerate() {
            self.channel(i, c);
        }
        self.coordinator(coordinator, mechanism.get::<Paused>());
        self.len(notifications.len());
        for Notification { task, checkpoint } in notifications {
            self.u64(task.0 as u64);
            self.u64(checkpoint.0);
        }
        // A mechanism's own state counts by being there: stop-the-world's pause is keyed in full
        // with the coordinator, and the explorer refuses the strategies that keep more (Storm's
        // acker, Spark Streaming's driver).
        self.bool(!mechanism.is_empty());
    }

    fn task(&mut self, t: &TaskRuntime) {
        let TaskRuntime {
            status,
            state,
            in_pos,
            received_before,
            in_from,
            sent_before,
            out_from,
            mechanism: _,
            last_checkpoint,
            aborted,
            rr,
            busy_until,
            time,
        } = t;
        // Slow tasks and debloated buffers: when the task is free again, and its window.
        if self.scope.flow {
            self.u64(*busy_until);
            self.u64(time.buffers as u64);
            for &slot in time.slots() {
                self.u8(slot);
            }
        }
        self.u8(match status {
            TaskStatus::Running => 0,
            TaskStatus::Crashed => 1,
            TaskStatus::Canceled => 2,
        });
        self.op_state(state);
        // What each incarnation sent and received, by sequence number: the cut check's.
        let _ = (in_pos, received_before, in_from, sent_before, out_from);
        // The task's slot for the mechanism's own state holds the barrier handlers' alignment or
        // the tracker's counts (the explorer explores only the barrier handlers).
        match Alignment::of(t) {
            None => self.u8(0),
            Some(a) => {
                self.u8(1);
                self.alignment(a);
            }
        }
        self.tracker(Tracker::of(t).unwrap_or(&Tracker::default()));
        self.opt_u64(last_checkpoint.map(|c| c.0));
        self.len(aborted.len());
        for c in aborted.iter() {
            self.u64(c.0);
        }
        self.u64(*rr as u64);
    }

    fn op_state(&mut self, s: &OpState) {
        match s {
            OpState::Source { next_offset } => {
                self.u8(0);
                self.u64(*next_offset as u64);
            }
            OpState::Stateless => self.u8(1),
            OpState::Keyed { entries } => {
                self.u8(2);
                self.len(entries.len());
                for (k, e) in entries.iter() {
                    let KeyedEntry { contributors, sum } = e;
                    self.u64(k.0 as u64);
                    self.len(contributors.len());
                    for r in contributors {
                        self.u64(r.0 as u64);
                    }
                    self.i64(*sum);
                }
            }
            OpState::Sink { open, pending } => {
                self.u8(3);
                self.opt_u64(open.map(|t| t.0 as u64));
                self.len(pending.len());
                for (c, t) in pending {
                    self.u64(c.0);
                    self.u64(t.0 as u64);
                }
            }
        }
    }

    fn alignment(&mut self, a: &Alignment) {
        let Alignment { checkpoint, timestamp, timeoutable, received, unaligned, cancelled } = a;
        self.u64(checkpoint.0);
        self.tick(*timestamp);
        self.bool(*timeoutable);
        self.len(received.len());
        for r in received {
            self.bool(*r);
        }
        match unaligned {
            None => self.u8(0),
            Some(s) => {
                self.u8(1);
                self.snapshot(s);
            }
        }
        self.bool(*cancelled);
    }

    fn tracker(&mut self, t: &Tracker) {
        let Tracker { pending, latest } = t;
        self.len(pending.len());
        for BarrierCount { checkpoint, count } in pending {
            self.u64(checkpoint.0);
            self.u64(*count as u64);
        }
        self.opt_u64(latest.map(|c| c.0));
    }

    pub(super) fn snapshot(&mut self, s: &TaskSnapshot) {
        let TaskSnapshot { task, state, checkpoint, tick, sent, received, in_flight } = s;
        self.u64(task.0 as u64);
        self.op_state(state);
        self.opt_u64(checkpoint.map(|c| c.0));
        self.tick(*tick);
        // What the saved state had sent and received: the cut check's.
        let _ = (sent, received);
        // What it reflects of its task's history that counts, per input, and the rank of its step.
        let rank = self.history.snapshot_ticks[task.index()].binary_search(tick).expect("every snapshot was collected");
        self.len(rank);
        let sim = self.sim;
        for c in &sim.graph.task(*task).inputs {
            let n = self.history.counted[c.index()].partition_point(|e| e.step <= *tick);
            self.history_summary(c.index(), n);
        }
        self.len(in_flight.len());
        for (c, seq, rec) in in_flight {
            self.u64(c.0 as u64);
            self.seq(c.index(), *seq);
            self.record(rec);
        }
    }

    fn record(&mut self, r: &Record) {
        let Record { id, value, replayed } = r;
        self.u64(id.0 as u64);
        self.i64(*value);
        // A replay is marked for the narration only.
        let _ = replayed;
    }

    fn channel(&mut self, index: usize, c: &Channel) {
        let Channel { queue, blocked } = c;
        self.bool(*blocked);
        self.len(queue.len());
        for item in queue {
            match item {
                Item::Record { seq, rec } => {
                    self.u8(0);
                    self.seq(index, *seq);
                    self.record(rec);
                }
                Item::Barrier(b) => {
                    let Barrier { checkpoint, timestamp, unaligned, timeoutable } = b;
                    self.u8(1);
                    self.u64(checkpoint.0);
                    self.tick(*timestamp);
                    self.bool(*unaligned);
                    self.bool(*timeoutable);
                }
                Item::Cancel(c) => {
                    self.u8(2);
                    self.u64(c.0);
                }
            }
        }
    }

    /// The coordinator, with a stop-the-world pause (which holds its triggers back) keyed among
    /// its parts.
    fn coordinator(&mut self, c: &Coordinator, stop_the_world: Option<&Paused>) {
        let Coordinator { pending, aborted, failures, queued } = c;
        self.u64(u64::from(*queued));
        self.len(pending.len());
        for p in pending {
            let PendingCheckpoint { id, trigger_tick, snapshots, acked, savepoint } = p;
            self.u8(match savepoint {
                None => 0,
                Some(SavepointType::Savepoint) => 1,
                Some(SavepointType::Suspend) => 2,
            });
            self.u64(id.0);
            self.tick(*trigger_tick);
            self.u64(*acked as u64);
            self.len(snapshots.len());
            for s in snapshots {
                match s {
                    None => self.u8(0),
                    Some(s) => {
                        self.u8(1);
                        self.snapshot(s);
                    }
                }
            }
        }
        self.len(aborted.len());
        for a in aborted.iter() {
            self.u64(a.0);
        }
        match stop_the_world {
            None => self.u8(0),
            Some(Paused { checkpoint, since }) => {
                self.u8(1);
                self.u64(checkpoint.0);
                self.tick(*since);
            }
        }
        let FailureCounter { consecutive, last_succeeded } = failures;
        self.u64(*consecutive as u64);
        self.opt_u64(last_succeeded.map(|c| c.0));
    }
}
