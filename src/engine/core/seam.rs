//! The seam where a fault-tolerance mechanism plugs in: the [`Mechanism`] trait and what it is
//! handed. Each mechanism is one file or folder beside this one, with its catalogue row
//! (`catalogue.rs`); a run's settings pick the one it runs.
//!
//! The story the seam tells, run as a test: the same job and the same moves under two
//! mechanisms. Per-task timers save each task on its own clock, so a restore may put back tasks
//! that disagree about a record; aligned barriers cut the stream so that every task's snapshot
//! agrees, and the restore replays the rest exactly once.
//!
//! ```
//! use barrierscope::engine::{Action, Event, RestoreFrom, Scenario, Settings, Strategy, TaskId};
//!
//! let run = |strategy| {
//!     let mut sim = Scenario::builtin("line", Settings::new(strategy), 1).sim().unwrap();
//!     let (source, map, count) = (TaskId(0), TaskId(1), TaskId(2));
//!     for _ in 0..3 {
//!         sim.step(Action::Read { task: source }).unwrap(); // a, b, c onto Source->Map
//!     }
//!     match strategy {
//!         // Each task's own timer: the source saves "read 3", then Map processes a and saves.
//!         Strategy::Timers => {
//!             sim.step(Action::Timer { task: source }).unwrap();
//!             sim.step(Action::Auto).unwrap();
//!             sim.step(Action::Timer { task: map }).unwrap();
//!             sim.step(Action::Timer { task: count }).unwrap();
//!         }
//!         // The coordinator injects barrier 1 behind c; it flows with the records to the end.
//!         _ => {
//!             sim.step(Action::Checkpoint).unwrap();
//!             while sim.storage().completed.is_empty() {
//!                 sim.step(Action::Auto).unwrap();
//!             }
//!         }
//!     }
//!     sim.step(Action::Crash).unwrap();
//!     let restored = sim.step(Action::Restore).unwrap();
//!     while sim.has_work() {
//!         sim.step(Action::Auto).unwrap();
//!     }
//!     (restored, sim.ledger())
//! };
//!
//! // Timers: b and c were on Source->Map when the source saved past them, and Count saved
//! // before a arrived: after the restore nothing brings them back.
//! let (restored, timers) = run(Strategy::Timers);
//! assert!(restored.iter().any(|e| matches!(e, Event::Restored { from: RestoreFrom::OwnSaves })));
//! assert!(timers.state.lost > 0);
//!
//! // Aligned barriers: every task restored from checkpoint 1, each record exactly once.
//! let (restored, aligned) = run(Strategy::Aligned);
//! assert!(restored.iter().any(|e| matches!(e, Event::Restored { from: RestoreFrom::Checkpoint { .. } })));
//! assert_eq!((aligned.state.lost, aligned.state.duplicated), (0, 0));
//! ```

use crate::engine::core::action::{Action, CrashScope, Event, RestoreFrom};
use crate::engine::core::dataflow::record::{Barrier, Record};
use crate::engine::core::error::ActionError;
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::{ChannelId, CheckpointId, RecordId, TaskId};
use crate::engine::core::lang::Lang;
use crate::engine::core::own_state::Slot;
use crate::engine::core::sim::Sim;
use crate::engine::core::step::Step;
use crate::engine::settings::Settings;

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

/// What a failure does, once the mechanism has seen it ([`Mechanism::on_crash`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnCrash {
    /// The job fails over by its failover strategy: the failed task's pipelined region, or all.
    Failover,
    /// The whole job fails over, whatever the failover strategy (Storm's one worker).
    WholeJob,
    /// The mechanism has dealt with it; nothing else goes down (Spark's lost executor, Storm's
    /// Nimbus).
    Done,
}

/// Where a restore starts, once the mechanism has seen it ([`Mechanism::before_restore`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnRestore {
    /// The restart of what is down; `master_stays_down`: the master stays down after it (Storm's
    /// supervisors restart a worker while Nimbus is down).
    Restart { master_stays_down: bool },
    /// The mechanism has dealt with it (Nimbus came back): nothing restarts.
    Done,
}

/// How the work running now takes effect ([`OwnSteps::rerun`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rerun {
    /// As the first time: state and output.
    Full,
    /// Recomputed to rebuild state; its output was written before (Spark's lineage).
    StateOnly,
    /// Run again for its output; the state already holds it (a batch whose state RDD was read
    /// back from Spark's state checkpoint).
    OutputOnly,
}

/// The seam where a fault-tolerance mechanism plugs in.
///
/// **What every mechanism is told.** The engine calls it, always with the whole [`Sim`], when:
/// - the run starts ([`Mechanism::start`]), and which optional hooks it answers
///   ([`Mechanism::hooks`]);
/// - the CheckpointCoordinator triggers checkpoint n ([`Mechanism::on_trigger`]) or aborts it
///   ([`Mechanism::on_abort`], Flink's `notifyCheckpointAborted`);
/// - the logical clock ticks while the job runs ([`Mechanism::on_tick`]), after every action;
/// - a failure ([`Mechanism::on_crash`], [`Mechanism::crash_event`]) and a restore
///   ([`Mechanism::before_restore`]), before the job fails over or restarts; the job restarts
///   after a crash ([`Mechanism::restore`]);
/// - any action may be refused by it ([`Mechanism::check`]).
///
/// **Its optional parts, by purpose.** Each is a trait of its own, which a mechanism of that kind
/// implements and hands over (`Some(self)`); without it, the engine does what a mechanism without
/// that part needs, and asks nothing:
/// - [`BarrierHandler`] ([`Mechanism::barrier_handler`]): what reaches a task on its channels, a
///   record ([`BarrierHandler::on_record`]), a barrier ([`BarrierHandler::on_barrier`]) or a
///   cancel marker ([`BarrierHandler::on_cancel`], Flink's `processCancellationBarrier`). Flink's
///   aligned and unaligned handlers, the barrier tracker, the lab's handlers.
/// - [`OwnSources`] ([`Mechanism::own_sources`]): sources that read, commit and replay on the
///   mechanism's own terms ([`OwnSources::next_read`], [`OwnSources::on_read`]), and a mechanism
///   that follows every record it is handed ([`OwnSources::after_record`]). Storm's spouts, Spark's
///   receivers, the toy's changelog.
/// - [`OwnSteps`] ([`Mechanism::own_steps`]): steps of its own the scheduler draws and the learner
///   clicks ([`OwnSteps::steps`], [`OwnSteps::apply_step`]), waiting for time
///   ([`OwnSteps::awaits_time`]) and work run again ([`OwnSteps::rerun`]). Storm's messages to and
///   from the acker, Spark's driver.
///
/// [`Hooks`] says which calls of those parts it answers, given the run's settings, so the hot paths
/// skip the rest.
///
/// **What it owns.** Its state is in two slots ([`crate::engine::core::own_state`]), which it
/// fills at the start ([`Mechanism::start`]): the live one goes with the job at a crash, whole,
/// and the durable one survives. Its per-task barrier progress lives in the tasks, which a crash
/// drops too; what it wants after a crash it must have put in durable storage, and
/// [`Mechanism::restore`] is where it reads it back.
///
/// **What it may do.** Take a task's snapshot, forward barriers, block and unblock input
/// channels, store in-flight records, acknowledge or decline to the coordinator (or save to
/// storage directly, for per-task timers), send cancel markers, pause the sources (by refusing
/// their reads, as stop-the-world does), and report each as an [`Event`]. It never moves records
/// itself: delivering and reading stay the dataflow's.
pub trait Mechanism: Sync {
    /// Which optional hooks it answers ([`Hooks`]), read once at the start: only then does the
    /// engine call [`Mechanism::check`] for a read or a JobManager crash, [`OwnSteps::steps`],
    /// [`OwnSteps::awaits_time`] and [`OwnSteps::rerun`]. With `follows_records` (Storm's
    /// acker) the dataflow collects what each processed record emitted (`Sim::emitted`) and calls
    /// [`OwnSources::after_record`]; the barrier handlers skip that work. The engine calls
    /// [`Mechanism::on_tick`] only with `ticks`, which may depend on the run's settings.
    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks::default()
    }
    /// The run starts: fill the mechanism's own slots (`sim.live.mechanism`,
    /// `sim.durable.mechanism`).
    fn start(&self, _sim: &mut Sim) {}
    /// Checkpoint `id` was triggered. By default the sources snapshot their offsets and emit the
    /// barrier (the coordinator's `triggerCheckpoint` reaching each source task).
    fn on_trigger(&self, sim: &mut Sim, id: CheckpointId, out: &mut Vec<Event>) {
        sim.start_at_sources(id, out);
    }
    /// The coordinator aborted checkpoint `id` and tells task `t`. A barrier handler goes on
    /// collecting the checkpoint's barriers, as Flink's does; it takes no snapshot for it.
    fn on_abort(&self, _sim: &mut Sim, _t: TaskId, _id: CheckpointId, _out: &mut Vec<Event>) {}
    /// The logical clock ticked while the job runs.
    fn on_tick(&self, _sim: &mut Sim, _out: &mut Vec<Event>) {}
    /// A failure of `scope` happened: the mechanism may deal with it itself, or say how much of
    /// the job fails over.
    fn on_crash(&self, _sim: &mut Sim, _scope: CrashScope, _out: &mut Vec<Event>) -> OnCrash {
        OnCrash::Failover
    }
    /// What the failure of the whole job is called, given the live slot it took (Spark: the
    /// driver was lost, with its blocks).
    fn crash_event(&self, _lost: &Slot, scope: CrashScope, lost_in_flight: u32) -> Event {
        Event::Crashed { scope, lost_in_flight }
    }
    /// A restore was asked for: the mechanism may answer it itself.
    fn before_restore(&self, _sim: &mut Sim, _out: &mut Vec<Event>) -> OnRestore {
        OnRestore::Restart { master_stays_down: false }
    }
    /// The job restarts: the tasks are fresh; put back each task's saved state and say where it
    /// came from. By default, every task from the latest completed checkpoint, and the in-flight
    /// records stored with it.
    fn restore(&self, sim: &mut Sim) -> (RestoreFrom, InFlight) {
        sim.restore_latest_checkpoint()
    }
    /// May `a` be taken now, as far as this mechanism goes? Called after the job's own checks of
    /// a read and a JobManager crash, for every step of the mechanism's own, and by the
    /// coordinator before each trigger, as [`Action::Checkpoint`]: a refusal refuses the trigger
    /// (stop-the-world while its sources are paused). The engine asks only a mechanism with
    /// [`Hooks::checks_actions`], but for a step of its own, which it always checks.
    fn check(&self, sim: &Sim, a: Action) -> Result<(), ActionError> {
        match a {
            Action::Mechanism { step } => Err(ActionError::NoSuchStep { step: step.kind, strategy: sim.strategy() }),
            _ => Ok(()),
        }
    }

    /// Its barrier handler, if barriers reach its tasks. None: a barrier that arrives is ignored
    /// (`BarrierIgnored`), a cancel marker dropped, every record processed.
    fn barrier_handler(&self) -> Option<&dyn BarrierHandler> {
        None
    }
    /// Its own sources, if they read, commit or replay otherwise than a log read in order. None:
    /// each source reads its log's next offset and emits the record; nothing is committed.
    fn own_sources(&self) -> Option<&dyn OwnSources> {
        None
    }
    /// Its own steps, waiting for time and work run again, if it has any. None: no step of its
    /// own, nothing to wait for, everything takes effect as the first time.
    fn own_steps(&self) -> Option<&dyn OwnSteps> {
        None
    }
}

/// A barrier handler: what reaches a task on its channels (Flink's `CheckpointBarrierHandler`).
pub trait BarrierHandler: Sync {
    /// Do the sources emit their barriers unaligned (Flink's `CheckpointOptions.forConfig`)? By
    /// default, aligned.
    fn unaligned_at_sources(&self, _sim: &Sim) -> bool {
        false
    }
    /// Does a checkpoint of this handler store in-flight records (unaligned)?
    fn stores_in_flight(&self) -> bool {
        false
    }
    /// Record number `seq` of channel `c` is about to be processed by the channel's consumer.
    /// Returns whether the consumer processes it: only the barrier-handler lab drops a record.
    /// Called only with [`Hooks::hears_records`].
    fn on_record(&self, _sim: &mut Sim, _c: ChannelId, _seq: u64, _rec: Record, _out: &mut Vec<Event>) -> bool {
        true
    }
    /// A barrier arrived (see [`Arrival`]) at a task that has not already snapshotted or given up
    /// its checkpoint. The handler that accepts it notes it in the statistics
    /// (`Sim::note_barrier`); one it ignores counts nowhere.
    fn on_barrier(&self, sim: &mut Sim, at: Arrival, barrier: Barrier, out: &mut Vec<Event>);
    /// A cancel marker for checkpoint `id` arrived. By default it is dropped: only the barrier
    /// handlers that decline checkpoints (aligned and unaligned) send or heed markers.
    fn on_cancel(&self, _sim: &mut Sim, at: Arrival, id: CheckpointId, out: &mut Vec<Event>) {
        out.push(Event::CancelMarkerReceived { task: at.task, channel: at.channel, checkpoint: id, fresh: false });
    }
}

/// Sources on the mechanism's own terms: what they read, commit and will still bring (Storm's
/// spouts, Spark's receivers), and a mechanism that follows every record it is handed.
pub trait OwnSources: Sync {
    /// The offset source `t` reads next, or None when it has nothing to read. By default the next
    /// offset of its log; a spout that replays failed tuples reads those first.
    fn next_read(&self, sim: &Sim, t: TaskId) -> Option<u32> {
        sim.next_in_log(t)
    }
    /// Source `t` read `rec` at `offset`. By default it reports the read and emits the record on
    /// its outputs.
    fn on_read(&self, sim: &mut Sim, t: TaskId, offset: u32, rec: Record, out: &mut Vec<Event>) {
        sim.read_and_emit(t, offset, rec, out);
    }
    /// Task `t` processed record `seq` of channel `c` and emitted `children`. Called only when
    /// [`Hooks::follows_records`].
    #[allow(clippy::too_many_arguments)]
    fn after_record(
        &self,
        _sim: &mut Sim,
        _t: TaskId,
        _c: ChannelId,
        _seq: u64,
        _record: RecordId,
        _children: &[(ChannelId, u64)],
        _out: &mut Vec<Event>,
    ) {
    }
    /// The offset source `t` committed to its log, where a restart resumes: only Storm's spouts
    /// and Spark's receivers commit.
    fn committed_offset(&self, _sim: &Sim, _t: TaskId) -> u32 {
        0
    }
    /// Marks the source records the mechanism will still bring (a tuple Storm will replay, a
    /// block Spark will process).
    fn on_its_way(&self, _sim: &Sim, _v: &mut [bool]) {}
}

/// Steps of the mechanism's own (Storm's messages to and from the acker), time it waits for and
/// work it runs again (Spark Streaming's driver). Its refusals are [`Mechanism::check`]'s.
pub trait OwnSteps: Sync {
    /// Is a step of the mechanism's own due ([`OwnSteps::steps`] not empty)? Without allocating.
    fn pending_work(&self, _sim: &Sim) -> bool {
        false
    }
    /// The mechanism's own steps that are enabled, in a fixed order.
    fn steps(&self, _sim: &Sim, _out: &mut Vec<Action>) {}
    /// Carries out a step of its own, which [`Mechanism::check`] accepted.
    fn apply_step(&self, _sim: &mut Sim, step: Step, _out: &mut Vec<Event>) {
        unreachable!("a step {} is refused by the check", step.kind)
    }
    /// How a step of its own is said (`deliver Source's message to the acker`), or None if it
    /// has no such step.
    fn step_words(&self, _step: Step, _task: &str, _lang: Lang) -> Option<String> {
        None
    }
    /// Does the mechanism wait for something only time brings (Spark's driver cutting a batch)?
    fn awaits_time(&self, _sim: &Sim) -> bool {
        false
    }
    /// How the work running now takes effect: by default as the first time.
    fn rerun(&self, _sim: &Sim) -> Rerun {
        Rerun::Full
    }
}
