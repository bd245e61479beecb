//! The simulation: one deterministic run of a job. [`Sim::apply`] is the only way state changes;
//! it takes an [`Action`], checks that it is enabled, carries it out atomically (a task processes
//! one record or barrier at a time, as a Flink task's mailbox does), lets the logical clock tick
//! (timers, periodic triggers, timeouts) and reports [`Event`]s.
//!
//! A `Sim` is the job's configuration (graph, settings, seed), the logical clock, and three parts:
//! - [`Live`], which a crash destroys, and [`Durable`], which survives it (crash and restore
//!   are in `crate::engine::core::recovery`);
//! - the observer's record, which the job never reads: each channel's log of sequence numbers
//!   and fates (for the cut check), what took effect at each task and still counts (for order and
//!   completeness, `crate::engine::core::history`), the read high-water marks (to mark re-reads as replays),
//!   and the checkpoint statistics.
//!
//! What happens to a record is the dataflow's (`crate::engine::core::dataflow`); what is saved and restored is
//! the mechanism's (`crate::engine::mechanisms`), chosen by the strategy.

use std::rc::Rc;

use crate::engine::core::action::{Action, CrashScope, Event};
use crate::engine::core::dataflow::channel::{Channel, ChannelLog};
use crate::engine::core::dataflow::external_system::ExternalSystem;
use crate::engine::core::dataflow::flow::Flow;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::dataflow::record::Item;
use crate::engine::core::dataflow::task::{TaskRuntime, TaskStatus};
use crate::engine::core::error::{ActionError, ScenarioError};
use crate::engine::core::history::{EffectLog, PlaceCounts};
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::{ChannelId, CheckpointId, RecordId, TaskId};
use crate::engine::core::own_state::Slot;
use crate::engine::core::rng::Rng;
use crate::engine::jobmanager::checkpoint::{CheckpointIdCounter, Coordinator};
use crate::engine::jobmanager::checkpoint::{Notification, PendingCheckpoint};
use crate::engine::jobmanager::high_availability::Masters;
use crate::engine::jobmanager::savepoint_kinds::{JobEnd, Savepoint};
use crate::engine::jobmanager::stats::CheckpointStats;
use crate::engine::jobmanager::storage::CheckpointStorage;
use crate::engine::settings::handler::HandlerLab;
use crate::engine::settings::{Settings, SinkMode, Strategy, TimerSpec};

#[derive(Clone, Debug)]
pub struct Sim {
    pub graph: Rc<JobGraph>,
    pub settings: Rc<Settings>,
    pub seed: u64,
    pub(crate) timers: Rc<Vec<TimerSpec>>,
    pub expected: Rc<Expected>,
    /// Logical clock: one tick per applied action.
    pub tick: u64,
    pub(crate) rng: Rng,
    /// The job was stopped with a savepoint or cancelled, and not submitted again.
    pub(crate) stopped: Option<JobEnd>,
    /// What a crash destroys.
    pub(crate) live: Live,
    /// What survives every crash.
    pub(crate) durable: Durable,
    /// The observer: per channel, sequence numbers and what became of each record.
    pub(crate) wire: Vec<ChannelLog>,
    /// The observer: what took effect at each task, and what of it still counts after restores.
    pub(crate) effects: EffectLog,
    /// The observer: per source, one past the highest offset ever read (to mark re-reads as replays).
    pub(crate) read_high_water: Vec<u32>,
    /// The observer: the Checkpoints tab's statistics.
    pub stats: CheckpointStats,
    pub(crate) scratch: Vec<Action>,
    /// The seam's optional hooks the mechanism answers (`core::hooks`), read at the start.
    pub(crate) hooks: Hooks,
    /// What the current read or record emitted: (channel, sequence number).
    pub(crate) emitted: Vec<(ChannelId, u64)>,
    /// A handler of the barrier-handler lab, in place of the strategy's mechanism (which is
    /// otherwise its catalogue row's: `Sim::mechanism`).
    pub(crate) handler: Option<&'static HandlerLab>,
    /// What the run watches of its flow: slow tasks, bounded or debloated channels
    /// (`core::dataflow::flow`).
    pub(crate) flow: Flow,
}

impl Sim {
    /// A run of `graph` under `settings`, before any action; `seed` drives the scheduler's
    /// [`Action::Auto`] choices. Refuses settings that don't fit the job.
    ///
    /// ```
    /// use barrierscope::engine::{builtin, Action, Event, JobGraph, Settings, Sim, Strategy};
    ///
    /// let job = builtin("line").unwrap();
    /// let graph = JobGraph::build(&job.spec, &job.input).unwrap();
    /// let mut sim = Sim::new(graph, Settings::new(Strategy::Aligned), 7).unwrap();
    /// let source = sim.graph.task_by_name("Source").unwrap();
    /// let events = sim.step(Action::Read { task: source }).unwrap();
    /// assert!(matches!(events[0], Event::Read { offset: 0, .. }));
    /// // A refused action changes nothing and says why.
    /// assert!(sim.step(Action::Restore).is_err());
    /// ```
    pub fn new(graph: JobGraph, settings: Settings, seed: u64) -> Result<Sim, ScenarioError> {
        settings.validate(&graph)?;
        let graph = Rc::new(graph);
        let expected = Rc::new(Sim::failure_free(&graph, settings.sink));
        Ok(Sim::with_expected(graph, settings, seed, expected))
    }

    pub(crate) fn with_expected(graph: Rc<JobGraph>, settings: Settings, seed: u64, expected: Rc<Expected>) -> Sim {
        let timers = graph.tasks.iter().map(|t| settings.timers.get(&t.name).copied().unwrap_or_default()).collect();
        let flow = Flow::of(&settings, &graph);
        let lab_handler = settings.handler.map(|h| h.mechanism());
        let mut sim = Sim {
            live: Live { channels: vec![Channel::default(); graph.channels.len()], ..Live::default() },
            durable: Durable {
                storage: CheckpointStorage { completed: vec![], saves: vec![vec![]; graph.tasks.len()] },
                ..Durable::default()
            },
            wire: vec![ChannelLog::default(); graph.channels.len()],
            effects: EffectLog::new(graph.tasks.len()),
            read_high_water: vec![0; graph.tasks.len()],
            graph,
            settings: Rc::new(settings),
            seed,
            timers: Rc::new(timers),
            expected,
            tick: 0,
            rng: Rng::new(seed),
            stopped: None,
            stats: CheckpointStats::default(),
            scratch: Vec::new(),
            hooks: Hooks::default(),
            emitted: Vec::new(),
            // A lab handler named in the settings (checked by `Settings::validate`).
            handler: lab_handler,
            flow,
        };
        sim.hooks = sim.mechanism().hooks(&sim.settings);
        sim.hooks.broker = sim.settings.sink == SinkMode::Kafka;
        sim.hooks.clock = sim.hooks.ticks || sim.hooks.broker;
        sim.mechanism().start(&mut sim);
        sim.live.tasks = (0..sim.graph.tasks.len()).map(|i| sim.fresh_task(TaskId(i as u16))).collect();
        if sim.settings.sink == SinkMode::Kafka {
            sim.kafka_start();
        }
        sim.recompute_retention();
        sim
    }

    /// The tasks: operator state, status, and where each stands in a checkpoint (volatile).
    pub fn tasks(&self) -> &[TaskRuntime] {
        &self.live.tasks
    }
    /// The channels between tasks: FIFO queues of records and barriers (volatile).
    pub fn channels(&self) -> &[Channel] {
        &self.live.channels
    }
    /// Durable checkpoint storage: completed checkpoints and timer saves.
    pub fn storage(&self) -> &CheckpointStorage {
        &self.durable.storage
    }
    /// The system the sinks write to, outside the job (durable).
    pub fn external(&self) -> &ExternalSystem {
        &self.durable.external
    }
    /// The CheckpointCoordinator's checkpoints in progress (volatile: lost with the JobManager).
    pub fn pending(&self) -> &[PendingCheckpoint] {
        &self.live.coordinator.pending
    }
    /// Why the job is down as a whole, if it is.
    pub fn down(&self) -> Option<CrashScope> {
        self.live.down
    }
    /// Is task `t` running? (Not while the job is down, nor while its failed region is.)
    pub fn task_up(&self, t: TaskId) -> bool {
        self.live.tasks[t.index()].status == TaskStatus::Running
    }
    /// A failed pipelined region is down while the rest of the job runs (region failover).
    pub fn region_down(&self) -> bool {
        self.live.down.is_none()
            && self.stopped.is_none()
            && self.live.tasks.iter().any(|t| t.status != TaskStatus::Running)
    }
    /// The completion notifications on their way from the JobManager, oldest first (volatile).
    pub fn notifications(&self) -> &[Notification] {
        &self.live.notifications
    }
    pub fn jobmanager_up(&self) -> bool {
        self.live.jobmanager_up
    }
    /// The JobManagers as the HA services see them: the leader, the last election, a job waiting
    /// to be resubmitted.
    pub fn masters(&self) -> &Masters {
        &self.durable.masters
    }
    pub fn strategy(&self) -> Strategy {
        self.settings.strategy
    }
    /// Is the job up (not down as a whole)? A failed region may still be down: see
    /// [`Sim::region_down`].
    pub fn running(&self) -> bool {
        self.live.down.is_none()
    }
    pub fn timer(&self, t: TaskId) -> TimerSpec {
        self.timers[t.index()]
    }

    // ----- applying actions ------------------------------------------------------------------

    /// Applies `a` and returns its events. On error nothing changed.
    pub fn step(&mut self, a: Action) -> Result<Vec<Event>, ActionError> {
        let mut out = Vec::new();
        self.apply(a, &mut out)?;
        Ok(out)
    }

    /// Applies `a`, appending its events to `out`. On error nothing changed.
    ///
    /// ```
    /// use barrierscope::engine::{Action, Scenario, Settings, Strategy};
    ///
    /// let mut sim = Scenario::builtin("line", Settings::new(Strategy::Aligned), 1).sim().unwrap();
    /// let mut events = Vec::new();
    /// sim.apply(Action::Checkpoint, &mut events).unwrap();
    /// // The coordinator triggers checkpoint 1 and the source snapshots its offset at once.
    /// assert_eq!(sim.stats.counts().triggered, 1);
    /// while sim.has_work() {
    ///     sim.apply(Action::Auto, &mut events).unwrap();
    /// }
    /// assert_eq!(sim.stats.counts().completed, 1);
    /// assert_eq!(sim.ledger().state.lost, 0);
    /// ```
    pub fn apply(&mut self, a: Action, out: &mut Vec<Event>) -> Result<(), ActionError> {
        let a = if matches!(a, Action::Auto) {
            let mut choices = std::mem::take(&mut self.scratch);
            self.enabled_steps(&mut choices);
            if choices.is_empty() {
                self.scratch = choices;
                return self.check(Action::Auto);
            }
            let pick = self.draw_step(&choices);
            self.scratch = choices;
            pick
        } else if self.enabled_fast(a) {
            a
        } else {
            self.check(a)?;
            a
        };
        match a {
            Action::Deliver { channel } => self.deliver(channel, out),
            // The read asks the mechanism for its offset once, here: a checked read has one, and
            // one the fast check passed without it is refused now, with nothing changed.
            Action::Read { task } => match self.next_read(task) {
                Some(offset) => self.read_at(task, offset, out),
                None => return self.check(a),
            },
            Action::Checkpoint => self.trigger(out),
            Action::Timer { task } => self.fire_timer(task, out),
            Action::AllTimers => {
                for t in 0..self.live.tasks.len() {
                    self.fire_timer(TaskId(t as u16), out);
                }
            }
            Action::Crash => self.crash(CrashScope::Cluster, out),
            Action::CrashTask { task } => self.crash(CrashScope::Task(task), out),
            Action::CrashJobManager => self.crash(CrashScope::JobManager, out),
            Action::Restore => self.restore(out),
            Action::Notify { task } => self.deliver_notification(task, out),
            Action::Mechanism { step } => match self.mechanism().own_steps() {
                Some(steps) => steps.apply_step(self, step, out),
                None => unreachable!("a step {} is refused by the check", step.kind),
            },
            Action::Wait => out.push(Event::Waited),
            Action::CutOff { .. } | Action::ZombieWrite { .. } | Action::PassTime { .. } => {
                self.kafka_fault(a.kafka_fault().expect("a Kafka fault"), out)
            }
            Action::Savepoint => self.trigger_savepoint(false, out),
            Action::StopWithSavepoint => self.trigger_savepoint(true, out),
            Action::Cancel => self.cancel(out),
            Action::Resume { from } => self.resume(from, out),
            Action::Auto => unreachable!("Auto resolves to a concrete action"),
        }
        self.end_step(out);
        Ok(())
    }

    /// What follows every action: the clock's work, a stop with savepoint's end, the next tick.
    #[inline(always)]
    fn end_step(&mut self, out: &mut Vec<Event>) {
        // Most steps: nothing for the coordinator or the mechanism to do on the clock.
        if self.live.stopping.is_none() && !self.hooks.clock && !self.flow.watched && self.coordinator_quiet() {
            self.tick += 1;
        } else {
            self.end_step_on_the_clock(out);
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(never))]
    fn end_step_on_the_clock(&mut self, out: &mut Vec<Event>) {
        if self.hooks.broker {
            self.kafka_step_end(out);
        }
        self.after_tick(out);
        if self.live.stopping.is_some() {
            self.finish_stop(out);
        }
        self.tick += 1;
    }

    /// What the logical clock does after each action while the job runs: the coordinator's
    /// periodic trigger and timeouts (an expiry may fail the job over), then the mechanism's own
    /// clock (timers, the alignment timeout, the stop-the-world drain).
    fn after_tick(&mut self, out: &mut Vec<Event>) {
        if self.live.down.is_some() {
            return;
        }
        if self.flow.watched {
            self.watch_flow();
        }
        self.coordinator_tick(out);
        if self.live.down.is_some() {
            return;
        }
        if self.hooks.ticks {
            self.mechanism().on_tick(self, out);
        }
    }

    /// The running job goes, whole: a fresh `Live` takes its place and the old one is handed
    /// back for what the caller keeps of it. The JobManager's process outlives the job, so
    /// `jobmanager_up` is carried over here, the one place every crash and every end of the job
    /// passes through.
    pub(crate) fn take_live(&mut self) -> Live {
        let lost = std::mem::take(&mut self.live);
        self.live.jobmanager_up = lost.jobmanager_up;
        lost
    }

    // ----- what the canvas reads -------------------------------------------------------------

    /// The channel's queue, head first.
    pub fn queue(&self, c: ChannelId) -> &std::collections::VecDeque<Item> {
        &self.live.channels[c.index()].queue
    }

    pub fn record_label(&self, r: RecordId) -> &str {
        self.graph.label(r)
    }
}

/// What a crash destroys: the running job.
#[derive(Clone, Debug)]
#[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq, Eq))]
pub struct Live {
    /// Why the job is down as a whole, if it is. (A failed pipelined region is down while the
    /// rest runs: its tasks are not running, and `down` is None.)
    pub down: Option<CrashScope>,
    /// The JobManager's process is up. It outlives the job it runs: `Sim::take_live` carries it
    /// into the next `Live`.
    pub jobmanager_up: bool,
    pub tasks: Vec<TaskRuntime>,
    pub channels: Vec<Channel>,
    pub coordinator: Coordinator,
    /// `notifyCheckpointComplete` messages on their way from the JobManager, oldest first.
    pub notifications: Vec<Notification>,
    /// The mechanism's own live state (`core::own_state`), gone with the job.
    pub mechanism: Slot,
    /// A stop with savepoint in progress: its synchronous savepoint.
    pub stopping: Option<CheckpointId>,
    /// The Kafka sink's producers, one per sink task (`sink: kafka`): gone with the job.
    pub kafka_writers: Vec<Option<crate::engine::core::dataflow::kafka::producer::Producer>>,
}

impl Default for Live {
    /// A job before it starts: up, with its JobManager up, and nothing in it yet.
    fn default() -> Live {
        Live {
            down: None,
            jobmanager_up: true,
            tasks: Vec::new(),
            channels: Vec::new(),
            coordinator: Coordinator::default(),
            notifications: Vec::new(),
            mechanism: Slot::default(),
            stopping: None,
            kafka_writers: Vec::new(),
        }
    }
}

/// What survives every crash.
#[derive(Clone, Debug, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(PartialEq, Eq))]
pub struct Durable {
    pub storage: CheckpointStorage,
    pub checkpoint_ids: CheckpointIdCounter,
    pub external: ExternalSystem,
    /// The mechanism's own durable state (`core::own_state`), which every crash leaves.
    pub mechanism: Slot,
    /// The JobManagers: which leads (as the HA services keep it), and (no HA) whether the job
    /// waits to be submitted again.
    pub masters: Masters,
    /// The user's savepoints (the savepoint directory, outside the job).
    pub savepoints: Vec<Savepoint>,
}

/// What the failure-free run of the same input yields, per source record: how often it is
/// reflected in operator state and in the sinks' external output, and how often it took effect
/// at each task input (for completeness).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub state: Vec<u32>,
    pub external: Vec<u32>,
    pub places: PlaceCounts,
}
