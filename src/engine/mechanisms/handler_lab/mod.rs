//! The barrier-handler lab: a checkpoint-barrier handler composed from four choices, after the
//! first article's remark that once barriers are understood any policy can be chosen (do not
//! align; snapshot on every barrier; drop records until the last barrier comes), each with its
//! own guarantee. Flink's handlers are points in this space:
//!
//! | choice | aligned | barrier tracker (at-least-once) | unaligned |
//! |---|---|---|---|
//! | on the first barrier | wait | wait | snapshot now |
//! | records on an input after its barrier | block and buffer | process | process |
//! | on the last barrier | snapshot | snapshot | forward only |
//! | in-flight records in the snapshot | (none to store) | (none to store) | yes |
//!
//! What each choice does at a task, for checkpoint n:
//! - **On the first barrier**, *snapshot now*: the task snapshots at once and forwards the
//!   barrier; with in-flight records, ahead of the records in its output queues, which the
//!   snapshot stores (Chandy-Lamport's marker rule, FLIP-76's overtaking barrier). *Wait*: nothing
//!   yet.
//! - **Records arriving on an input after its barrier**, until the last barrier: *block* the input
//!   (they wait in the channel, as alignment does), *process* them (they are after the barrier
//!   but go into the state; a snapshot taken at the last barrier counts them), or *drop* them.
//! - **On the last barrier**, *snapshot*: the task snapshots (again, if it did at the first) and
//!   forwards the barrier if it has not; *forward only*: the snapshot taken at the first barrier
//!   stands (so this choice needs *snapshot now*). Then it acknowledges and unblocks its inputs.
//! - **In-flight records**: with a snapshot taken at the first barrier, the records that arrive on
//!   an input still waiting for its barrier are recorded with it (and processed), and replayed on
//!   restore. Without a snapshot at the first barrier there is nothing in flight to record.
//!
//! The lab runs on the CheckpointCoordinator of strategy `aligned`, one checkpoint at a time;
//! it takes a checkpoint's barriers as they come and, since the explorer's runs abort no
//! checkpoint while the job runs, it does not handle cancel markers or aborts. The explorer
//! classifies a handler (`crate::engine::explorer::lab`). A run takes a lab handler in place of
//! its strategy's when its settings name one (`"handler"`): the ⋔ Every schedule room's
//! **▶ Use on the canvas** opens such a run on the main screen.
//!
//! What a handler is (the four choices, their words, the guarantee each keeps) is data, in
//! `settings/handler.rs` (a run's settings may name one); this file runs one.

pub use crate::engine::settings::handler::{
    AfterBarrier, Guarantee, Handler, HandlerLab, OnFirstBarrier, OnLastBarrier,
};

use super::barriers::{snapshot_and_forward, unblock_inputs};
use super::progress::Alignment;
use crate::engine::core::action::{Event, SnapshotKind};
use crate::engine::core::dataflow::record::{Barrier, Record};
use crate::engine::core::error::ScenarioError;
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::ChannelId;
use crate::engine::core::seam::{Arrival, BarrierHandler, Mechanism};
use crate::engine::core::sim::Sim;
use crate::engine::settings::Settings;
use crate::engine::settings::Strategy;

/// A composed barrier handler ([`HandlerLab`], one of a fixed table) as a [`Mechanism`].
impl Mechanism for HandlerLab {
    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks { hears_records: true, ..Hooks::default() }
    }
    fn barrier_handler(&self) -> Option<&dyn BarrierHandler> {
        Some(self)
    }
}

impl BarrierHandler for HandlerLab {
    /// The sources snapshot at the trigger; with in-flight records their barrier overtakes their
    /// output queues, as an unaligned source's does.
    fn unaligned_at_sources(&self, _sim: &Sim) -> bool {
        self.handler.first == OnFirstBarrier::SnapshotNow && self.handler.in_flight
    }
    fn stores_in_flight(&self) -> bool {
        self.handler.in_flight
    }
    /// Before a record reaches the operator: on an input whose barrier has come, drop it if the
    /// handler drops; on one still waiting, record it with the early snapshot if it stores
    /// in-flight records.
    fn on_record(&self, sim: &mut Sim, c: ChannelId, seq: u64, rec: Record, out: &mut Vec<Event>) -> bool {
        let info = sim.graph.channel(c);
        let (t, input) = (info.to, info.input_index);
        let Some(al) = Alignment::of_mut(&mut sim.live.tasks[t.index()]) else { return true };
        if al.received[input] {
            if self.handler.after == AfterBarrier::Drop {
                out.push(Event::RecordDiscarded { task: t, channel: c, record: rec.id, checkpoint: al.checkpoint });
                return false;
            }
        } else if let Some(snap) = al.unaligned.as_mut().filter(|_| self.handler.in_flight) {
            snap.in_flight.push((c, seq, rec));
            out.push(Event::InFlightRecorded { task: t, channel: c, record: rec.id });
        }
        true
    }
    fn on_barrier(&self, sim: &mut Sim, at: Arrival, barrier: Barrier, out: &mut Vec<Event>) {
        let Arrival { task: t, channel: c, input } = at;
        let id = barrier.checkpoint;
        let h = self.handler;
        sim.note_barrier(t, id);
        let n = sim.graph.task(t).inputs.len();
        let task = &mut sim.live.tasks[t.index()];
        if Alignment::of(task).is_some_and(|a| a.checkpoint != id) {
            // One checkpoint at a time: a barrier of another abandons the older.
            Alignment::end(task);
            unblock_inputs(sim, t, out);
        }
        let (first, al) = Alignment::count(&mut sim.live.tasks[t.index()].mechanism, barrier, input, n);
        let waiting = al.waiting();
        out.push(Event::BarrierReceived { task: t, channel: c, checkpoint: id, first, waiting });
        if first && h.first == OnFirstBarrier::SnapshotNow {
            let b = Barrier { unaligned: h.in_flight, ..barrier };
            let kind = if h.in_flight { SnapshotKind::Unaligned } else { SnapshotKind::Aligned };
            let snap = snapshot_and_forward(sim, t, b, kind, out);
            Alignment::of_mut(&mut sim.live.tasks[t.index()]).expect("collecting").unaligned = Some(Box::new(snap));
        }
        if waiting > 0 {
            if h.after == AfterBarrier::Block {
                sim.live.channels[c.index()].blocked = true;
                out.push(Event::ChannelBlocked { channel: c, checkpoint: id });
            }
            return;
        }
        let al = Alignment::end(&mut sim.live.tasks[t.index()]).expect("collecting");
        sim.live.tasks[t.index()].last_checkpoint = Some(id);
        unblock_inputs(sim, t, out);
        let snap = match (h.last, al.unaligned) {
            // A task with one input: its first barrier is its last, and it has just snapshotted.
            (_, Some(early)) if first => *early,
            (OnLastBarrier::ForwardOnly, Some(early)) => *early,
            (OnLastBarrier::Snapshot, Some(_)) => {
                // Again, at the last barrier: the barrier went on at the first.
                let snap = sim.take_snapshot(t, Some(id), out);
                out.push(Event::SnapshotTaken { task: t, checkpoint: Some(id), kind: SnapshotKind::Aligned });
                snap
            }
            (_, None) => {
                let b = Barrier { unaligned: false, ..barrier };
                snapshot_and_forward(sim, t, b, SnapshotKind::Aligned, out)
            }
        };
        sim.acknowledge(t, id, snap, out);
    }
}

impl Sim {
    /// This run, before any action, with `handler` in place of its strategy's barrier handler.
    /// It runs on the CheckpointCoordinator of strategy `aligned`, one checkpoint at a time, without
    /// an alignment timeout.
    pub fn with_handler(mut self, handler: Handler) -> Result<Sim, ScenarioError> {
        let bad = |m: &str| Err(ScenarioError::Settings(format!("the barrier-handler lab: {m}")));
        if let Err(why) = handler.check() {
            return bad(why);
        }
        let s = &self.settings;
        if s.strategy != Strategy::Aligned || s.max_concurrent_checkpoints != 1 || s.alignment_timeout.is_some() {
            return bad(
                "it runs on strategy aligned's coordinator, one checkpoint at a time, without an alignment timeout",
            );
        }
        if self.tick != 0 {
            return bad("a run takes its handler before its first step");
        }
        let lab = handler.mechanism();
        self.handler = Some(lab);
        self.hooks = lab.hooks(&self.settings);
        Ok(self)
    }
}
