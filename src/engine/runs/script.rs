//! Scripts: the one interpreter that plays actions written in words ("read Source", "deliver
//! Source->Map", "notify Sink", "ack Map", "answer Source", "auto 5", "end"), used by scenario files, the lessons, the property tests and the
//! benchmark workload alike. A line names tasks and channels; [`Sim::resolve`] turns it into
//! concrete [`Action`]s against the current run; [`Sim::play_line`] applies them and hands each
//! step's events on.

use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::dataflow::kafka::faults::KafkaFault;
use crate::engine::core::error::ActionError;
use crate::engine::core::ids::TaskId;
use crate::engine::core::sim::Sim;
use crate::engine::core::step::Step;

/// One line of an action script, naming tasks and channels.
/// In a scenario file it is written as `script_json.rs` says (`"checkpoint"`,
/// `{"deliver": "Source->Map"}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptAction {
    Deliver(String),
    Read(String),
    Checkpoint,
    Timer(String),
    AllTimers,
    Crash,
    CrashTask(String),
    CrashJobManager,
    Restore,
    /// Deliver the oldest checkpoint-complete notification on its way to this task.
    Notify(String),
    /// A step of a mechanism's own (`core::step`): its letter, and the task. Written in the word
    /// its catalogue row gives it (Storm's `q` is `{"ack": "Map"}`), else as `{"step": ["q", "Map"]}`.
    Step(char, String),
    /// One step in which only time passes (a socket's records arrive, the driver cuts batches).
    Wait,
    /// Up to this many seeded scheduler steps (each a delivery, a read, a notification, or a
    /// restore when down); stops early when nothing is left to do.
    Auto(u32),
    /// Every remaining record through, then a final checkpoint (see [`Sim::run_to_end`]).
    RunToEnd,
    /// The user triggers a savepoint.
    Savepoint,
    /// Stop with savepoint: a final savepoint, then the job finishes.
    StopWithSavepoint,
    /// The user cancels the job.
    Cancel,
    /// Submit the stopped job again from this savepoint (or the newest retained checkpoint).
    Resume(u64),
    /// The Kafka sink's task is cut off from the JobManager and goes on as a zombie.
    CutOff(String),
    /// The zombie of this Kafka sink task writes its next record.
    ZombieWrite(String),
    /// This many milliseconds pass on the Kafka broker's clock.
    PassTime(u64),
}

impl ScriptAction {
    /// The script line that plays `a` in job `g`, naming its task or channel (`Auto` is one auto
    /// step). [`Sim::resolve`] turns it back into `a`.
    pub fn of(g: &JobGraph, a: Action) -> ScriptAction {
        let task = |t: TaskId| g.task(t).name.clone();
        match a {
            Action::Deliver { channel } => ScriptAction::Deliver(g.channel(channel).name.clone()),
            Action::Read { task: t } => ScriptAction::Read(task(t)),
            Action::Checkpoint => ScriptAction::Checkpoint,
            Action::Timer { task: t } => ScriptAction::Timer(task(t)),
            Action::AllTimers => ScriptAction::AllTimers,
            Action::Crash => ScriptAction::Crash,
            Action::CrashTask { task: t } => ScriptAction::CrashTask(task(t)),
            Action::CrashJobManager => ScriptAction::CrashJobManager,
            Action::Restore => ScriptAction::Restore,
            Action::Notify { task: t } => ScriptAction::Notify(task(t)),
            Action::Mechanism { step } => ScriptAction::Step(step.kind, task(step.task)),
            Action::Wait => ScriptAction::Wait,
            Action::Auto => ScriptAction::Auto(1),
            Action::Savepoint => ScriptAction::Savepoint,
            Action::StopWithSavepoint => ScriptAction::StopWithSavepoint,
            Action::Cancel => ScriptAction::Cancel,
            Action::Resume { from } => ScriptAction::Resume(from.0),
            Action::CutOff { .. } | Action::ZombieWrite { .. } | Action::PassTime { .. } => {
                match a.kafka_fault().expect("a Kafka fault") {
                    KafkaFault::CutOff { task: t } => ScriptAction::CutOff(task(t)),
                    KafkaFault::ZombieWrite { task: t } => ScriptAction::ZombieWrite(task(t)),
                    KafkaFault::PassTime { ms } => ScriptAction::PassTime(ms),
                }
            }
        }
    }
}

/// What a script does with an action that is not enabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnRefusal {
    /// Stop with [`ScriptError::Refused`] (scenario files and lessons).
    Stop,
    /// Skip it and go on (random schedules in the property tests).
    Skip,
}

/// Why a script line could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptError {
    /// A task or channel name the job doesn't have; the message lists the names it has.
    NoSuchName(String),
    /// The action was refused; the run is as it was before the action.
    Refused { action: Action, error: ActionError },
    /// The line would take the script past its step budget.
    TooLong,
}

/// Final checkpoints a run to the end takes at most, each after the one before was aborted.
const FINAL_CHECKPOINT_TRIES: usize = 3;

impl Sim {
    /// Resolves one script line against the current state into concrete actions.
    pub fn resolve(&self, a: &ScriptAction) -> Result<Vec<Action>, String> {
        let g = &self.graph;
        let task = |name: &str| {
            g.task_by_name(name).ok_or_else(|| {
                format!(
                    "no task is named {name:?}; the tasks are {}",
                    g.tasks.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
                )
            })
        };
        Ok(match a {
            ScriptAction::Deliver(name) => vec![Action::Deliver {
                channel: g.channel_by_name(name).ok_or_else(|| {
                    format!(
                        "no channel is named {name:?}; the channels are {}",
                        g.channels.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
                    )
                })?,
            }],
            ScriptAction::Read(name) => vec![Action::Read { task: task(name)? }],
            ScriptAction::Checkpoint => vec![Action::Checkpoint],
            ScriptAction::Timer(name) => vec![Action::Timer { task: task(name)? }],
            ScriptAction::AllTimers => vec![Action::AllTimers],
            ScriptAction::Crash => vec![Action::Crash],
            ScriptAction::CrashTask(name) => vec![Action::CrashTask { task: task(name)? }],
            ScriptAction::CrashJobManager => vec![Action::CrashJobManager],
            ScriptAction::Restore => vec![Action::Restore],
            ScriptAction::Notify(name) => vec![Action::Notify { task: task(name)? }],
            ScriptAction::Step(kind, name) => vec![Action::Mechanism { step: Step { kind: *kind, task: task(name)? } }],
            ScriptAction::Auto(n) => vec![Action::Auto; *n as usize],
            ScriptAction::Wait => vec![Action::Wait],
            ScriptAction::RunToEnd => vec![],
            ScriptAction::Savepoint => vec![Action::Savepoint],
            ScriptAction::StopWithSavepoint => vec![Action::StopWithSavepoint],
            ScriptAction::Cancel => vec![Action::Cancel],
            ScriptAction::Resume(id) => vec![Action::Resume { from: crate::engine::core::ids::CheckpointId(*id) }],
            ScriptAction::CutOff(name) => vec![Action::CutOff { task: task(name)? }],
            ScriptAction::ZombieWrite(name) => {
                vec![Action::ZombieWrite { task: task(name)? }]
            }
            ScriptAction::PassTime(ms) => vec![Action::PassTime { ms: *ms }],
        })
    }

    /// Plays one script line, at most `budget` steps, handing each step's action and events to
    /// `each`. `auto N` stops early when nothing is left to do; `end` runs to the end
    /// ([`Sim::run_to_end`]). Returns the number of steps taken.
    pub fn play_line(
        &mut self,
        line: &ScriptAction,
        budget: usize,
        on_refusal: OnRefusal,
        each: &mut dyn FnMut(Action, &[Event]),
    ) -> Result<usize, ScriptError> {
        let mut events = Vec::new();
        match line {
            ScriptAction::RunToEnd => Ok(self.run_to_end_each(budget, each)),
            ScriptAction::Auto(n) => {
                let mut taken = 0;
                // A refused Auto means nothing is left to do, and changes nothing.
                while taken < (*n as usize).min(budget) && self.apply(Action::Auto, &mut events).is_ok() {
                    each(Action::Auto, &events);
                    events.clear();
                    taken += 1;
                }
                Ok(taken)
            }
            other => {
                let resolved = self.resolve(other).map_err(ScriptError::NoSuchName)?;
                if resolved.len() > budget {
                    return Err(ScriptError::TooLong);
                }
                let mut taken = 0;
                for a in resolved {
                    events.clear();
                    match self.apply(a, &mut events) {
                        Ok(()) => {
                            each(a, &events);
                            taken += 1;
                        }
                        Err(_) if on_refusal == OnRefusal::Skip => {}
                        Err(error) => return Err(ScriptError::Refused { action: a, error }),
                    }
                }
                Ok(taken)
            }
        }
    }

    /// Drives the run to its end: every record through, then (with a checkpointing strategy) one
    /// final checkpoint so that two-phase-commit sinks commit, as Flink does when bounded input
    /// ends. Each step is an ordinary `Auto` or `Checkpoint` action (the auto steps restore what
    /// is down and deliver the completion notifications); returns them all.
    pub fn run_to_end(&mut self, limit: usize, out: &mut Vec<Event>) -> Vec<Action> {
        let mut done = Vec::new();
        self.run_to_end_each(limit, &mut |a, events| {
            done.push(a);
            out.extend_from_slice(events);
        });
        done
    }

    /// [`Sim::run_to_end`], handing each step's action and events to `each`; returns the number
    /// of steps taken.
    pub fn run_to_end_each(&mut self, limit: usize, each: &mut dyn FnMut(Action, &[Event])) -> usize {
        let mut taken = 0;
        let mut events = Vec::new();
        let mut step = |sim: &mut Sim, a: Action, taken: &mut usize| {
            events.clear();
            sim.apply(a, &mut events).expect("enabled");
            each(a, &events);
            *taken += 1;
        };
        // With a periodic trigger (checkpoint-interval) as short as a checkpoint's round trip,
        // every completion may be followed at once by the next trigger, so a barrier is always on
        // its way. Once every record has settled, the drain ends when a checkpoint triggered after
        // that has completed and been notified (the final one) and none is in progress, or, if
        // the trigger keeps one in progress, when a second has completed.
        let periodic = self.strategy().uses_coordinator() && self.settings.checkpoint_interval.is_some();
        let mut settled_at = None;
        let mut drain = |sim: &mut Sim, taken: &mut usize, step: &mut dyn FnMut(&mut Sim, Action, &mut usize)| {
            while *taken < limit && sim.has_work() {
                if periodic && sim.records_settled() {
                    let since = *settled_at.get_or_insert(sim.tick);
                    let after = sim
                        .stats
                        .history
                        .iter()
                        .filter(|r| {
                            r.status == crate::engine::jobmanager::stats::CheckpointStatus::Completed
                                && r.trigger_tick >= since
                        })
                        .count();
                    let idle = sim.live.coordinator.pending.is_empty();
                    if sim.live.notifications.is_empty() && ((after >= 1 && idle) || after >= 2) {
                        return true;
                    }
                } else {
                    settled_at = None;
                }
                step(sim, Action::Auto, taken);
            }
            false
        };
        let mut finished = drain(self, &mut taken, &mut step);
        // A job that stopped (with a savepoint, or cancelled) has nothing left to run and takes
        // no final checkpoint.
        if self.strategy().uses_coordinator() && self.running() && self.stopped.is_none() && !finished {
            while !self.live.coordinator.pending.is_empty() && taken < limit {
                // Nothing left to deliver but a checkpoint still pending: let time pass until it
                // expires (its barriers were lost). The expiry may fail the job over
                // (tolerable-failed-checkpoints); the drain then restores it. A wait, not a
                // trigger: a trigger would queue behind it.
                step(self, Action::Wait, &mut taken);
                finished = drain(self, &mut taken, &mut step);
                if finished {
                    return taken;
                }
            }
            // The final checkpoint. A failure while it is pending aborts it (a Kafka transaction
            // that outlived its timeout fails its sink task), and the drain runs the restarted job
            // to its end again: it takes another final checkpoint, until one completes (three tries).
            for _ in 0..FINAL_CHECKPOINT_TRIES {
                if taken >= limit || !self.running() || self.check(Action::Checkpoint).is_err() {
                    break;
                }
                let before = self.stats.counts().completed;
                step(self, Action::Checkpoint, &mut taken);
                drain(self, &mut taken, &mut step);
                if self.stats.counts().completed > before {
                    break;
                }
            }
        }
        taken
    }

    /// Every record has settled: no source has more of its log to read (nor a socket anything
    /// still to come), and no record is on its way in a channel. Only barriers, cancel markers and
    /// notifications may still move.
    pub(crate) fn records_settled(&self) -> bool {
        self.live.down.is_none()
            && !self.graph.sources().any(|t| self.next_read(t).is_some() || self.socket_waits(t).is_some())
            && self.live.channels.iter().all(|c| {
                c.queue.iter().all(|i| !matches!(i, crate::engine::core::dataflow::record::Item::Record { .. }))
            })
    }
}
