//! The session itself: the run being watched (a [`Timeline`] of one configuration), the recent
//! narration, the lesson being followed, the notice, and the forks that can be undone; what it
//! answers about the run at the playhead.

use super::command::*;
use super::notice::*;
use crate::classroom::progress::Progress;
use crate::classroom::run_config::RunConfig;
use crate::engine::*;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepLog {
    pub step: usize,
    pub action: Action,
    pub events: Vec<Event>,
}

#[derive(Clone, Debug)]
pub struct Session {
    pub config: RunConfig,
    pub timeline: Timeline,
    /// Narration of the most recent steps up to the current one, oldest first.
    pub narration: Vec<StepLog>,
    pub notice: Option<Notice>,
    pub selected: Option<CheckpointId>,
    pub lesson: Option<Progress>,
    /// The learner acted or scrubbed during the lesson.
    pub took_over: bool,
    /// What each fork dropped, the latest last: [`Command::Undo`] brings it back.
    pub undo: Vec<Branch>,
    /// What each undo set aside, the latest last: [`Command::Redo`] puts it back.
    pub redo: Vec<Branch>,
    /// The run was restored into a changed program: the timeline starts at the restored job.
    pub change: Option<std::rc::Rc<crate::classroom::program_change::ProgramChange>>,
}

impl Session {
    pub fn new(config: RunConfig) -> Result<Session, ScenarioError> {
        let sim = config.scenario().sim()?;
        Ok(Session {
            config,
            timeline: Timeline::new(sim),
            narration: vec![],
            notice: None,
            selected: None,
            lesson: None,
            took_over: false,
            undo: vec![],
            redo: vec![],
            change: None,
        })
    }

    /// `flink run -s` with a changed program: a new session whose timeline starts at the job of
    /// `program`, restored from savepoint (or newest retained checkpoint) `from` of the run at the
    /// playhead. The run before is kept in [`Session::change`], so the new run saves and replays.
    pub fn restore_into(
        &self,
        from: CheckpointId,
        program: &crate::engine::core::dataflow::job_graph::JobSpec,
        allow_non_restored_state: bool,
    ) -> Result<(Session, crate::engine::program::rescale::RestorePlan), crate::engine::program::rescale::Refusal> {
        let (sim, plan, _) = self.sim().restore_into(from, program, allow_non_restored_state)?;
        let done = &self.timeline.actions()[..self.timeline.position()];
        let change = crate::classroom::program_change::ProgramChange {
            prior: self.change.as_ref().map(|c| Box::new((**c).clone())),
            before: done.iter().map(Action::code).collect::<Vec<_>>().join(" "),
            from: from.0,
            program: program.clone(),
            allow_non_restored_state,
        };
        let session = Session {
            config: self.config.clone(),
            timeline: Timeline::new(sim),
            narration: vec![],
            notice: Some(Notice::Done(Box::new([
                format!("A new job of the changed program started from snapshot {}: its ledger judges every record against this program's failure-free run.", from.0),
                format!("修改后程序的新作业已从快照 {} 启动：它的判定拿每条记录与这个程序的无故障运行比较。", from.0),
            ]))),
            selected: None,
            lesson: None,
            took_over: false,
            undo: vec![],
            redo: vec![],
            change: Some(std::rc::Rc::new(change)),
        };
        Ok((session, plan))
    }

    /// The steps acting now would drop: those after the playhead, when it is before the end.
    pub fn fork_preview(&self) -> Option<Steps> {
        let steps = self.timeline.fork_preview()?;
        Some(Steps { after: self.timeline.position(), steps: steps.count() })
    }

    pub fn sim(&self) -> &Sim {
        self.timeline.current()
    }

    pub fn at_end(&self) -> bool {
        self.timeline.position() == self.timeline.len()
    }

    /// Would ⇥ End do anything? Yes behind the end of the history, or when there is an end to
    /// run from there.
    pub fn can_run_to_end(&self) -> bool {
        !self.at_end() || self.has_end_to_run()
    }

    /// Would running on from the current state do anything? Not when every record is through,
    /// no checkpoint is in progress and no sink transaction waits for a checkpoint to commit it:
    /// the verdict is final.
    pub fn has_end_to_run(&self) -> bool {
        let sim = self.sim();
        sim.has_work()
            || (sim.strategy().uses_coordinator()
                && sim.running()
                && (!sim.pending().is_empty()
                    || sim.external().txns.iter().any(|t| {
                        !t.rows.is_empty() && matches!(t.status, TxnStatus::Open | TxnStatus::PreCommitted(_))
                    })))
    }
}
