//! A learner's session: the run being watched (a [`Timeline`] of one scenario), the recent
//! narration, and the notice for the last refused action. The UI turns clicks and keys into
//! [`Command`]s and draws the session; nothing here knows of the browser, so it is tested natively.

use serde::{Deserialize, Serialize};

use crate::engine::scenario::describe;
use crate::engine::topology::builtin;
use crate::engine::*;

/// How many recent steps the narration keeps.
pub const NARRATION_STEPS: usize = 40;

/// Everything that defines a run besides its actions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunConfig {
    pub job: String,
    pub settings: Settings,
    pub seed: u64,
    /// Generated input with this many records per source partition; None: the job's own story.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<u32>,
}

/// At most this many generated records per source partition.
pub const MAX_GENERATED: u32 = 5000;

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig { job: "line".into(), settings: Settings::new(Strategy::Timers), seed: 1, records: None }
    }
}

impl RunConfig {
    pub fn scenario(&self) -> Scenario {
        let mut sc = Scenario::builtin(&self.job, self.settings.clone(), self.seed);
        if let (Some(n), Some(b)) = (self.records, builtin(&self.job)) {
            sc.input = Some(topology::generated_input(&b.spec, n.min(MAX_GENERATED) as usize));
        }
        sc
    }
    pub fn has_sink(&self) -> bool {
        builtin(&self.job).is_some_and(|b| b.spec.operators.iter().any(|o| o.kind == topology::OperatorKind::Sink))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Apply an action at the current step (forking if it is earlier than the end).
    Act(Action),
    /// Apply `Auto` only if something is left to do; stops play otherwise.
    Tick,
    Back,
    Forward,
    Seek(usize),
    Reset,
    Configure(RunConfig),
    /// Select a checkpoint in the Checkpoints tab and move to its trigger.
    SelectCheckpoint(CheckpointId),
    Dismiss,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepLog {
    pub step: usize,
    pub action: String,
    pub events: Vec<Event>,
}

#[derive(Clone, Debug)]
pub struct Session {
    pub config: RunConfig,
    pub timeline: Timeline,
    /// Narration of the most recent steps up to the current one, oldest first.
    pub narration: Vec<StepLog>,
    /// Why the last command was refused.
    pub notice: Option<String>,
    pub selected: Option<CheckpointId>,
}

impl Session {
    pub fn new(config: RunConfig) -> Result<Session, ScenarioError> {
        let sim = config.scenario().sim()?;
        Ok(Session { config, timeline: Timeline::new(sim), narration: vec![], notice: None, selected: None })
    }

    pub fn sim(&self) -> &Sim {
        self.timeline.current()
    }

    pub fn at_end(&self) -> bool {
        self.timeline.position() == self.timeline.len()
    }

    /// Carries out a command. Returns false if it was refused (the notice says why).
    pub fn handle(&mut self, cmd: Command) -> bool {
        self.notice = None;
        match cmd {
            Command::Act(a) => self.act(a),
            Command::Tick => {
                if self.at_end() {
                    self.sim().check(Action::Auto).is_ok() && self.act(Action::Auto)
                } else {
                    self.seek(self.timeline.position() + 1);
                    true
                }
            }
            Command::Back => {
                if self.timeline.position() == 0 {
                    self.notice = Some("Already at the first step.".into());
                    return false;
                }
                self.seek(self.timeline.position() - 1);
                true
            }
            Command::Forward => {
                if self.at_end() {
                    return self.act(Action::Auto);
                }
                self.seek(self.timeline.position() + 1);
                true
            }
            Command::Seek(step) => {
                self.seek(step);
                true
            }
            Command::Reset => {
                let config = self.config.clone();
                self.reconfigure(config)
            }
            Command::Configure(config) => self.reconfigure(config),
            Command::SelectCheckpoint(id) => {
                self.selected = Some(id);
                if let Some(r) = self.sim().stats.history.iter().find(|r| r.id == id) {
                    let step = r.trigger_tick as usize + 1;
                    self.seek(step);
                }
                true
            }
            Command::Dismiss => true,
        }
    }

    fn reconfigure(&mut self, config: RunConfig) -> bool {
        match Session::new(config) {
            Ok(s) => {
                *self = s;
                true
            }
            Err(e) => {
                self.notice = Some(e.to_string());
                false
            }
        }
    }

    fn act(&mut self, a: Action) -> bool {
        let label = describe(self.sim(), &a);
        match self.timeline.apply(a) {
            Ok(events) => {
                let step = self.timeline.position();
                // Auto resolves to a concrete action: name it by what it did.
                let action = if a == Action::Auto { format!("{label}: {}", auto_summary(&events, self.sim())) } else { label };
                self.narration.retain(|l| l.step < step);
                self.narration.push(StepLog { step, action, events });
                if self.narration.len() > NARRATION_STEPS {
                    self.narration.remove(0);
                }
                true
            }
            Err(e) => {
                self.notice = Some(format!("Can't {label}: {e}."));
                false
            }
        }
    }

    fn seek(&mut self, step: usize) {
        self.timeline.seek(step);
        let to = self.timeline.position();
        let from = to.saturating_sub(NARRATION_STEPS);
        let sim = self.timeline.initial().clone();
        self.narration = self
            .timeline
            .events_between(from, to)
            .into_iter()
            .map(|(i, events)| {
                let a = self.timeline.actions()[i];
                let label = describe(&sim, &a);
                let action = if a == Action::Auto { format!("{label}: {}", auto_summary(&events, &sim)) } else { label };
                StepLog { step: i + 1, action, events }
            })
            .collect();
    }
}

fn auto_summary(events: &[Event], sim: &Sim) -> String {
    let g = &sim.graph;
    match events.first() {
        Some(Event::Read { task, .. }) => format!("read {}", g.task(*task).name),
        Some(Event::Processed { channel, .. })
        | Some(Event::BarrierReceived { channel, .. })
        | Some(Event::BarrierIgnored { channel, .. }) => format!("deliver {}", g.channel(*channel).name),
        Some(Event::InFlightRecorded { channel, .. }) => format!("deliver {}", g.channel(*channel).name),
        Some(Event::Restored { .. }) => "restore".into(),
        _ => "step".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acting_back_and_fork() {
        let mut s = Session::new(RunConfig::default()).unwrap();
        assert!(s.handle(Command::Act(Action::Read { task: TaskId(0) })));
        assert!(s.handle(Command::Act(Action::Read { task: TaskId(0) })));
        assert_eq!(s.narration.len(), 2);
        assert!(s.narration[1].action.starts_with("read Source"));
        assert!(s.handle(Command::Back));
        assert_eq!(s.timeline.position(), 1);
        assert_eq!(s.narration.len(), 1);
        assert!(!s.handle(Command::Act(Action::Restore)));
        assert_eq!(s.notice.as_deref(), Some("Can't restore: the job is running; there is nothing to restore."));
        assert_eq!(s.timeline.len(), 2, "a refused action changes nothing");
        assert!(s.handle(Command::Act(Action::AllTimers)));
        assert_eq!(s.timeline.len(), 2, "acting at step 1 forked: steps 1 and the new 2");
        assert!(s.handle(Command::Back));
        assert!(s.handle(Command::Back));
        assert!(!s.handle(Command::Back));
    }

    #[test]
    fn selecting_a_checkpoint_moves_to_its_trigger() {
        let config = RunConfig { job: "line".into(), settings: Settings::new(Strategy::Aligned), seed: 1, records: None };
        let mut s = Session::new(config).unwrap();
        for _ in 0..3 {
            s.handle(Command::Act(Action::Auto));
        }
        s.handle(Command::Act(Action::Checkpoint));
        for _ in 0..5 {
            s.handle(Command::Act(Action::Auto));
        }
        s.handle(Command::SelectCheckpoint(CheckpointId(1)));
        assert_eq!(s.timeline.position(), 4);
        assert!(matches!(s.narration.last().unwrap().events[0], Event::CheckpointTriggered { .. }));
    }
}
