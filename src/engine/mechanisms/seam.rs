//! The seam where a fault-tolerance mechanism plugs in: the [`Mechanism`] trait and what it is
//! handed. Each mechanism is one file beside this one; `mod.rs` picks the one a job runs.

use crate::engine::action::{Event, RestoreFrom};
use crate::engine::dataflow::record::{Barrier, Record};
use crate::engine::ids::{ChannelId, CheckpointId, RecordId, TaskId};
use crate::engine::sim::Sim;

/// Where a barrier arrived: at `task`, on `channel`, its input number `input`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub task: TaskId,
    pub channel: ChannelId,
    pub input: usize,
}

/// In-flight records a restore puts back on their channels before any new upstream data:
/// (channel, sequence number when stored, record).
pub type InFlight = Vec<(ChannelId, u64, Record)>;

/// The seam where a fault-tolerance mechanism plugs in.
///
/// **What a mechanism is told.** The engine calls it, always with the whole [`Sim`], when:
/// - the CheckpointCoordinator triggers checkpoint n ([`Mechanism::on_trigger`]);
/// - a record is about to reach a task's operator ([`Mechanism::on_record`]);
/// - a barrier reaches a task that has not already snapshotted or given up its checkpoint
///   ([`Mechanism::on_barrier`]), or a cancel marker reaches a task
///   ([`Mechanism::on_cancel`], Flink's `processCancellationBarrier`);
/// - the coordinator aborts checkpoint n ([`Mechanism::on_abort`], Flink's
///   `notifyCheckpointAborted`);
/// - the logical clock ticks while the job runs ([`Mechanism::on_tick`]), after every action;
/// - the job restarts after a crash ([`Mechanism::restore`]);
/// - a mechanism that follows every tuple ([`Mechanism::tracks_tuples`], Storm's acker): a source
///   read and emitted a record ([`Mechanism::on_read`]), a task processed one
///   ([`Mechanism::after_record`]), and which offset a source reads next ([`Mechanism::next_read`]).
///
/// A crash is not a call. A mechanism keeps its per-task progress in the live part of the run
/// (the tasks), which the crash drops whole; what it wants after a crash it must have put in
/// durable storage, and [`Mechanism::restore`] is where it reads it back.
///
/// **What it may do.** Take a task's snapshot, forward barriers, block and unblock input
/// channels, store in-flight records, acknowledge or decline to the coordinator (or save to
/// storage directly, for per-task timers), send cancel markers, pause the sources, and report each
/// as an [`Event`]. It never moves records itself: delivering and reading stay the dataflow's.
pub trait Mechanism: Sync {
    /// Checkpoint `id` was triggered. By default the sources snapshot their offsets and emit the
    /// barrier (the coordinator's `triggerCheckpoint` reaching each source task).
    fn on_trigger(&self, sim: &mut Sim, id: CheckpointId, out: &mut Vec<Event>) {
        sim.start_at_sources(id, out);
    }
    /// Record number `seq` of channel `c` is about to be processed by the channel's consumer.
    /// Returns whether the consumer processes it: only the barrier-handler lab drops a record.
    fn on_record(&self, _sim: &mut Sim, _c: ChannelId, _seq: u64, _rec: Record, _out: &mut Vec<Event>) -> bool {
        true
    }
    /// Do the sources emit their barriers unaligned (Flink's `CheckpointOptions.forConfig`)? By
    /// default, aligned.
    fn unaligned_at_sources(&self, _sim: &Sim) -> bool {
        false
    }
    /// A barrier arrived (see [`Arrival`]). The handler that accepts it notes it in the
    /// statistics (`Sim::note_barrier`); one it ignores counts nowhere.
    fn on_barrier(&self, _sim: &mut Sim, at: Arrival, barrier: Barrier, out: &mut Vec<Event>) {
        out.push(Event::BarrierIgnored { task: at.task, channel: at.channel, checkpoint: barrier.checkpoint });
    }
    /// A cancel marker for checkpoint `id` arrived. By default it is dropped: only the barrier
    /// handlers that decline checkpoints (aligned and unaligned) send or heed markers.
    fn on_cancel(&self, _sim: &mut Sim, at: Arrival, id: CheckpointId, out: &mut Vec<Event>) {
        out.push(Event::CancelMarkerReceived { task: at.task, channel: at.channel, checkpoint: id, fresh: false });
    }
    /// The coordinator aborted checkpoint `id` and tells task `t`. A barrier handler goes on
    /// collecting the checkpoint's barriers, as Flink's does; it takes no snapshot for it.
    fn on_abort(&self, _sim: &mut Sim, _t: TaskId, _id: CheckpointId, _out: &mut Vec<Event>) {}
    /// The logical clock ticked while the job runs.
    fn on_tick(&self, _sim: &mut Sim, _out: &mut Vec<Event>) {}
    /// The job restarts: the tasks are fresh; put back each task's saved state and say where it
    /// came from. By default, every task from the latest completed checkpoint, and the in-flight
    /// records stored with it.
    fn restore(&self, sim: &mut Sim) -> (RestoreFrom, InFlight) {
        sim.restore_latest_checkpoint()
    }
    /// Does this mechanism follow every tuple it is handed (Storm's acker)? Only then does the
    /// dataflow collect what each read and each processed record emitted and call
    /// [`Mechanism::on_read`] and [`Mechanism::after_record`]; the barrier handlers skip that work.
    fn tracks_tuples(&self) -> bool {
        false
    }
    /// The offset source `t` reads next, or None when it has nothing to read. By default the next
    /// offset of its log; a spout that replays failed tuples reads those first.
    fn next_read(&self, sim: &Sim, t: TaskId) -> Option<u32> {
        sim.next_in_log(t)
    }
    /// Source `t` read `record` at `offset` and emitted it as `children` (channel, sequence
    /// number). Called only when [`Mechanism::tracks_tuples`].
    fn on_read(&self, _sim: &mut Sim, _t: TaskId, _offset: u32, _record: RecordId, _children: &[(ChannelId, u64)], _out: &mut Vec<Event>) {}
    /// Task `t` processed record `seq` of channel `c` and emitted `children`. Called only when
    /// [`Mechanism::tracks_tuples`].
    #[allow(clippy::too_many_arguments)]
    fn after_record(&self, _sim: &mut Sim, _t: TaskId, _c: ChannelId, _seq: u64, _record: RecordId, _children: &[(ChannelId, u64)], _out: &mut Vec<Event>) {}
    /// Does a checkpoint of this mechanism store in-flight records (unaligned)?
    fn stores_in_flight(&self) -> bool {
        false
    }
}
