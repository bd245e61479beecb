//! Which actions are enabled now. [`Sim::check`] answers for any action and says why one is
//! not, in an [`ActionError`] the page and the command line word; [`Sim::enabled_fast`] answers
//! for the two actions of the hot path, a delivery and a read, without making an error (a test
//! keeps the two in agreement); [`Sim::enabled_steps`] lists what the scheduler may draw from,
//! in a fixed order, and [`Sim::draw_step`] draws, by the seeded PRNG. `Sim::apply` asks here
//! before it changes anything.

use crate::engine::core::action::Action;
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::kafka::faults::KafkaFault;
use crate::engine::core::dataflow::record::Item;
use crate::engine::core::error::{ActionError, KafkaRefusal};
use crate::engine::core::ids::{ChannelId, TaskId};
use crate::engine::core::sim::Sim;
use crate::engine::settings::kafka::MAX_MS_SETTING;
use crate::engine::settings::{SinkMode, SourceKind, Strategy};

fn err<T>(e: ActionError) -> Result<T, ActionError> {
    Err(e)
}

impl Sim {
    pub(crate) fn need_running(&self) -> Result<(), ActionError> {
        if self.stopped.is_some() {
            return err(ActionError::JobStopped);
        }
        match self.live.down {
            None => Ok(()),
            Some(_) => err(ActionError::JobDown),
        }
    }

    /// Task `t` is up: not in a failed region that is down.
    fn need_up(&self, t: TaskId) -> Result<(), ActionError> {
        if self.task_up(t) {
            Ok(())
        } else {
            err(ActionError::TaskDown { task: self.graph.task(t).name.clone() })
        }
    }

    /// Is `a` enabled now? The error says why not.
    pub fn check(&self, a: Action) -> Result<(), ActionError> {
        match a {
            Action::Deliver { channel } => {
                let Some(info) = self.graph.channels.get(channel.index()) else {
                    return err(ActionError::NoSuchChannel(channel.0));
                };
                self.need_running()?;
                self.need_up(info.to)?;
                let ch = &self.live.channels[channel.index()];
                if !ch.queue.is_empty() && !ch.blocked {
                    self.need_free(info.to)?;
                }
                match ch.queue.front() {
                    None => err(ActionError::ChannelEmpty { channel: info.name.clone() }),
                    Some(_) if ch.blocked => err(ActionError::ChannelBlocked {
                        channel: info.name.clone(),
                        task: self.graph.task(info.to).name.clone(),
                    }),
                    Some(Item::Record { .. }) => self.room(info.to),
                    Some(_) => Ok(()),
                }
            }
            Action::Read { task } => {
                let Some(info) = self.graph.tasks.get(task.index()) else {
                    return err(ActionError::NoSuchTask(task.0));
                };
                if info.kind != OperatorKind::Source {
                    return err(ActionError::NotASource { task: info.name.clone() });
                }
                self.need_running()?;
                self.need_up(task)?;
                // The mechanism first (stop-the-world's paused sources), then a stop with
                // savepoint, which stop-the-world's pause may go with.
                if self.hooks.checks_actions {
                    self.mechanism().check(self, a)?;
                }
                if let Some(id) = self.live.stopping {
                    return err(ActionError::Stopping { savepoint: id.0 });
                }
                if let Some(at) = self.socket_waits(task) {
                    return err(ActionError::NotArrived { task: info.name.clone(), at });
                }
                self.need_free(task)?;
                if self.next_read(task).is_none() {
                    return err(ActionError::LogExhausted { task: info.name.clone(), records: info.log.len() });
                }
                self.room(task)
            }
            Action::Checkpoint => {
                if !self.strategy().uses_coordinator() {
                    return err(ActionError::NoCheckpoints { strategy: self.strategy() });
                }
                self.need_running()?;
                match self.live.stopping {
                    Some(id) => err(ActionError::Stopping { savepoint: id.0 }),
                    None => Ok(()),
                }
            }
            Action::Savepoint | Action::StopWithSavepoint | Action::Cancel | Action::Resume { .. } => {
                self.check_job_control(a)
            }
            Action::Timer { task } => {
                if task.index() >= self.live.tasks.len() {
                    return err(ActionError::NoSuchTask(task.0));
                }
                self.check(Action::AllTimers)?;
                self.need_up(task)
            }
            Action::AllTimers => {
                if self.strategy() != Strategy::Timers {
                    return err(ActionError::NotTimers { strategy: self.strategy() });
                }
                self.need_running()
            }
            Action::Crash => self.need_running(),
            // Time passes whether the job runs or not (a socket's records arrive all the same).
            Action::Wait => Ok(()),
            Action::CutOff { .. } | Action::ZombieWrite { .. } | Action::PassTime { .. } => {
                self.check_kafka_fault(a.kafka_fault().expect("a Kafka fault"))
            }
            Action::CrashJobManager => {
                self.need_running()?;
                match self.hooks.checks_actions {
                    true => self.mechanism().check(self, a),
                    false => Ok(()),
                }
            }
            Action::CrashTask { task } => {
                if task.index() >= self.live.tasks.len() {
                    return err(ActionError::NoSuchTask(task.0));
                }
                self.need_running()?;
                self.need_up(task)
            }
            Action::Restore if self.stopped.is_some() => err(ActionError::JobStopped),
            Action::Restore => match self.live.down {
                Some(_) => Ok(()),
                None if self.region_down() || !self.live.jobmanager_up => Ok(()),
                None => err(ActionError::JobRunning),
            },
            Action::Mechanism { step } => {
                if step.task.index() >= self.live.tasks.len() {
                    return err(ActionError::NoSuchTask(step.task.0));
                }
                self.mechanism().check(self, a)
            }
            Action::Notify { task } => {
                let Some(info) = self.graph.tasks.get(task.index()) else {
                    return err(ActionError::NoSuchTask(task.0));
                };
                self.need_running()?;
                self.need_up(task)?;
                match self.next_notification(task) {
                    Some(_) => Ok(()),
                    None => err(ActionError::NoNotification { task: info.name.clone() }),
                }
            }
            Action::Auto => {
                if self.has_work() {
                    Ok(())
                } else {
                    err(ActionError::NothingToDo)
                }
            }
        }
    }

    /// `check(a).is_ok()` for the two actions of the hot path, a delivery and a read (but for
    /// the read's offset, which `apply` asks the mechanism for), without building an error: an
    /// enabled one skips [`Sim::check`], which runs only to say why an action is not enabled
    /// (`tests/properties.rs` checks that the two agree at every step). Every other action
    /// answers false and goes through `check`.
    #[inline]
    pub fn enabled_fast(&self, a: Action) -> bool {
        let running = self.stopped.is_none() && self.live.down.is_none();
        match a {
            Action::Deliver { channel } => {
                running
                    && self.graph.channels.get(channel.index()).is_some_and(|info| self.task_up(info.to))
                    && self.deliverable(channel)
            }
            // All but the mechanism's next offset, which `apply` asks for once.
            Action::Read { task } => {
                running
                    && self.graph.tasks.get(task.index()).is_some_and(|info| info.kind == OperatorKind::Source)
                    && (self.settings.source == SourceKind::ReplayableLog || self.socket_waits(task).is_none())
                    && self.may_read(task)
            }
            _ => false,
        }
    }

    /// Is there anything for the scheduler to do: a delivery, a read, a notification, or (the job
    /// or a region is down) the restore? `check(Action::Auto).is_ok()`, without allocating.
    pub fn has_work(&self) -> bool {
        self.stopped.is_none() && self.has_work_running()
    }

    fn has_work_running(&self) -> bool {
        self.live.down.is_some()
            || (0..self.live.channels.len()).any(|c| self.deliverable(ChannelId(c as u16)))
            || self.graph.sources().any(|task| self.readable(task))
            || !self.live.notifications.is_empty()
            || self.region_down()
            || (self.hooks.own_steps && self.own_step_due())
            || self.awaits_time()
    }

    /// Is something due later that only time brings: a socket's next record, or what the
    /// mechanism waits for (`OwnSteps::awaits_time`)?
    pub fn awaits_time(&self) -> bool {
        self.live.down.is_none()
            && ((self.hooks.waits_for_time && self.mechanism().own_steps().is_some_and(|s| s.awaits_time(self)))
                || self.graph.sources().any(|s| self.task_up(s) && self.socket_waits(s).is_some())
                || self.some_task_busy())
    }

    /// The steps the scheduler may draw from now, in a fixed order: deliveries, reads,
    /// notifications (one per task that has one on its way), and the restore of a failed region;
    /// only the restore while the job is down.
    pub fn enabled_steps(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.stopped.is_some() {
            return;
        }
        if self.live.down.is_some() {
            out.push(Action::Restore);
            return;
        }
        for c in 0..self.live.channels.len() {
            let channel = ChannelId(c as u16);
            if self.deliverable(channel) {
                out.push(Action::Deliver { channel });
            }
        }
        for task in self.graph.sources() {
            if self.readable(task) {
                out.push(Action::Read { task });
            }
        }
        if !self.live.notifications.is_empty() {
            for t in 0..self.live.tasks.len() {
                let task = TaskId(t as u16);
                if self.next_notification(task).is_some() {
                    out.push(Action::Notify { task });
                }
            }
        }
        if let Some(steps) = self.mechanism().own_steps().filter(|s| self.hooks.own_steps && s.pending_work(self)) {
            steps.steps(self, out);
        }
        if self.region_down() {
            out.push(Action::Restore);
        }
        if self.awaits_time() {
            out.push(Action::Wait);
        }
    }

    /// The scheduler's draw (Auto's, the lockstep's): uniform over `choices`, by the seeded PRNG.
    pub fn draw_step(&mut self, choices: &[Action]) -> Action {
        choices[self.rng.below(choices.len() as u64) as usize]
    }
}

impl Sim {
    /// A fault of the Kafka sink's: only under `sink: kafka`; a cut-off needs a running sink
    /// task, a zombie's write a zombie that can write.
    #[cold]
    #[inline(never)]
    fn check_kafka_fault(&self, f: KafkaFault) -> Result<(), ActionError> {
        if self.settings.sink != SinkMode::Kafka {
            return err(ActionError::Kafka(KafkaRefusal::NotKafka));
        }
        let sink = |task: TaskId| match self.graph.tasks.get(task.index()) {
            None => err(ActionError::NoSuchTask(task.0)),
            Some(info) if info.kind != OperatorKind::Sink => {
                err(ActionError::Kafka(KafkaRefusal::NotASink { task: info.name.clone() }))
            }
            Some(_) => Ok(()),
        };
        match f {
            KafkaFault::CutOff { task } => {
                sink(task)?;
                self.need_running()?;
                self.need_up(task)
            }
            KafkaFault::ZombieWrite { task } => {
                sink(task)?;
                match self.zombie(task) {
                    Some(_) => Ok(()),
                    None => {
                        err(ActionError::Kafka(KafkaRefusal::NoZombie { task: self.graph.task(task).name.clone() }))
                    }
                }
            }
            KafkaFault::PassTime { ms } if ms == 0 || ms > MAX_MS_SETTING => {
                err(ActionError::Kafka(KafkaRefusal::PassTime { max: MAX_MS_SETTING }))
            }
            KafkaFault::PassTime { .. } => Ok(()),
        }
    }
}
