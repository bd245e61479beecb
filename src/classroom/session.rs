//! A learner's session: the run being watched (a [`Timeline`] of one configuration), the recent
//! narration, the lesson being followed, and the notice for the last refused command. The UI
//! turns clicks and keys into [`Command`]s and draws the session; nothing here knows of the
//! browser, so it is tested natively. A session also saves to and loads from a [`SavedRun`]:
//! loading checks everything before the current run is replaced, so a bad link, file or stored
//! entry names its problem and loses nothing.
//!
//! Acting at an earlier step forks the run: the later steps are dropped. Before that, the
//! session says which steps would go ([`Session::fork_preview`]); after it, [`Command::Undo`]
//! (Ctrl+Z) brings the dropped steps back exactly, and [`Command::Redo`] puts back what the undo
//! set aside. The forks are kept as a stack (the latest [`MAX_FORKS_KEPT`]), so several undos walk
//! back through several forks; a new fork clears what could be redone.

use serde::{Deserialize, Serialize};

use super::curriculum;
use super::lessons::OnDiagram;
use super::progress::{run_for, CutAttempt, LessonRun, Progress};
use super::run_config::RunConfig;
use super::saved_run::{LoadError, Origin, SavedLesson, SavedRun, MAX_SAVED_ACTIONS, SAVED_VERSION};
use super::settings_form::{edit_field, FieldNote, SettingField};
use crate::engine::*;

/// How many recent steps the narration keeps.
pub const NARRATION_STEPS: usize = 40;

/// How many forks can be undone (and undos redone); older ones are forgotten.
pub const MAX_FORKS_KEPT: usize = 32;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Apply an action at the current step (forking if it is earlier than the end).
    Act(Action),
    /// Bring back the steps the latest fork dropped, with the playhead where it was then; the
    /// steps since the fork are set aside for [`Command::Redo`].
    Undo,
    /// Put back the steps the latest undo set aside.
    Redo,
    /// Play: move on one step (through the history, or a new seeded step at the end).
    Tick,
    /// Run to the end at once: to the end of the history, then every record through and a final
    /// checkpoint where the strategy takes them ([`Sim::run_to_end`], the script word `end`). Each
    /// step is recorded in the timeline like any other.
    ToEnd,
    Back,
    Forward,
    Seek(usize),
    Reset,
    Configure(RunConfig),
    /// A number typed into a Settings field (None: the browser could not read a number). Out of
    /// range, it is clamped and the notice says so; no whole number, it is refused and nothing
    /// changes; a value that leaves the configuration as it is keeps the run.
    EditSetting(SettingField, Option<String>),
    /// Select a checkpoint in the Checkpoints tab and move to its trigger.
    SelectCheckpoint(CheckpointId),
    Dismiss,
    StartLesson(usize),
    LessonNext,
    LessonPrev,
    /// Drop the learner's own moves and go back to where the lesson stands.
    LessonResume,
    LessonExit,
    /// Mark a record's predicted fate on a predict step.
    Predict(String, Verdict),
    /// On a lesson step where the learner draws cuts: a cut checked after its prediction (sent
    /// by the space-time room, which classifies it). Refused on any other step, and for a cut
    /// already checked.
    CheckCut(CutAttempt),
}

/// Some steps of the history, numbered from 1: the `steps` steps after step `after`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Steps {
    pub after: usize,
    pub steps: usize,
}

impl Steps {
    pub fn first(&self) -> usize {
        self.after + 1
    }
    pub fn last(&self) -> usize {
        self.after + self.steps
    }
}

/// The last notice for the learner: why something was refused, or what was opened (worded in
/// `wording.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Refused {
        action: String,
        action_zh: String,
        error: ActionError,
    },
    AtFirstStep,
    NothingToPlay,
    /// Reveal was asked for with this many records still unmarked.
    MarkEveryRecord(usize),
    /// Next was asked for on a drawing step before a consistent cut was checked.
    DrawConsistentCut,
    Config(ScenarioError),
    LoadFailed {
        origin: Origin,
        error: LoadError,
        /// Why, in English and in Chinese, worded where the run is read (the sharing part of the
        /// page), so the first screen holds none of the load errors' words.
        why: Box<[String; 2]>,
    },
    Opened(Origin),
    /// What a part of the page did, worded there (English, Chinese), so the first screen holds
    /// none of its words: a lesson file or link opened its lesson; a restore into a changed
    /// program started a new job.
    Done(Box<[String; 2]>),
    LessonError(String),
    /// Acting at an earlier step dropped these steps; Undo brings them back.
    Forked(Steps),
    /// Undo brought these steps back, the playhead at `at`, and set `set_aside` steps aside.
    Undone {
        back: Steps,
        at: usize,
        set_aside: usize,
    },
    /// Redo put these steps back, the playhead at `at`, and set `set_aside` steps aside.
    Redone {
        back: Steps,
        at: usize,
        set_aside: usize,
    },
    NothingToUndo,
    NothingToRedo,
    /// A Settings field clamped or refused a value.
    Setting(FieldNote),
    /// A part of the page (the lessons, saved runs) could not be fetched.
    PartUnavailable,
    /// Run to the end stopped at its step cap with work still to do.
    Unfinished(Unfinished),
}

impl Notice {
    /// A run that could not be opened from `origin`, and why.
    pub fn load_failed(origin: Origin, error: LoadError) -> Notice {
        let why = Box::new([error.message(Lang::En), error.message(Lang::Zh)]);
        Notice::LoadFailed { origin, error, why }
    }

    pub fn is_error(&self) -> bool {
        match self {
            Notice::Opened(_)
            | Notice::Done(_)
            | Notice::Forked(_)
            | Notice::Undone { .. }
            | Notice::Redone { .. }
            => false,
            Notice::Setting(note) => note.is_refusal(),
            _ => true,
        }
    }
}

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
    pub change: Option<std::rc::Rc<super::program_change::ProgramChange>>,
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
        program: &crate::engine::dataflow::job_graph::JobSpec,
        allow_non_restored_state: bool,
    ) -> Result<(Session, crate::engine::rescale::RestorePlan), crate::engine::rescale::Refusal> {
        let (sim, plan, _) = self.sim().restore_into(from, program, allow_non_restored_state)?;
        let done = &self.timeline.actions()[..self.timeline.position()];
        let change = super::program_change::ProgramChange {
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

    /// Carries out a command. Returns false if it was refused (the notice says why).
    pub fn handle(&mut self, cmd: Command) -> bool {
        let previous = self.notice.take();
        match cmd {
            Command::Act(a) => self.act(a),
            Command::Undo => match self.undo.pop() {
                Some(branch) => self.swap(branch, true),
                None => {
                    self.notice = Some(Notice::NothingToUndo);
                    false
                }
            },
            Command::Redo => match self.redo.pop() {
                Some(branch) => self.swap(branch, false),
                None => {
                    self.notice = Some(Notice::NothingToRedo);
                    false
                }
            },
            Command::Tick => {
                if self.at_end() {
                    self.sim().has_work() && self.act(Action::Auto)
                } else {
                    self.seek(self.timeline.position() + 1);
                    true
                }
            }
            Command::ToEnd => self.run_to_end(),
            Command::Back => {
                if self.timeline.position() == 0 {
                    self.notice = Some(Notice::AtFirstStep);
                    return false;
                }
                self.took_over |= self.lesson.is_some();
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
                self.took_over |= self.lesson.is_some() && step != self.timeline.position();
                self.seek(step);
                true
            }
            Command::Reset => {
                let config = self.config.clone();
                self.reconfigure(config)
            }
            Command::Configure(config) => self.reconfigure(config),
            Command::EditSetting(field, typed) => match edit_field(&self.config, field, typed.as_deref()) {
                Err(note) => {
                    self.notice = Some(Notice::Setting(note));
                    false
                }
                Ok((config, note)) => {
                    let ok = config == self.config || self.reconfigure(config);
                    if ok {
                        self.notice = note.map(Notice::Setting);
                    }
                    ok
                }
            },
            Command::SelectCheckpoint(id) => {
                self.selected = Some(id);
                // From the whole history: a checkpoint triggered after the playhead too.
                if let Some(r) = self.timeline.last().stats.history.iter().find(|r| r.id == id) {
                    let step = r.trigger_tick as usize + 1;
                    self.took_over |= self.lesson.is_some();
                    self.seek(step);
                }
                true
            }
            Command::Dismiss => true,
            Command::StartLesson(i) => {
                if i >= curriculum::loaded().map_or(0, <[_]>::len) {
                    return false;
                }
                self.go_to_lesson(Progress::new(i))
            }
            Command::LessonNext => {
                let Some(mut p) = self.lesson.clone() else { return false };
                if p.awaiting_reveal() {
                    let left = p.unmarked(self.sim().graph.records.iter().map(|r| r.label.as_str()));
                    // A record left unmarked: the first press says how many; a second press in a
                    // row (a presenter's clicker, which cannot mark) reveals without them, and an
                    // unmarked record never scores.
                    if left > 0 && previous != Some(Notice::MarkEveryRecord(left)) {
                        self.notice = Some(Notice::MarkEveryRecord(left));
                        return false;
                    }
                    p.revealed = true;
                } else if !p.cut_found() {
                    self.notice = Some(Notice::DrawConsistentCut);
                    return false;
                } else if p.step + 1 < p.lesson().steps.len() {
                    p.step += 1;
                    p.revealed = false;
                    p.predictions.clear();
                    p.cuts.clear();
                } else {
                    return false;
                }
                self.go_to_lesson(p)
            }
            Command::LessonPrev => {
                let Some(mut p) = self.lesson.clone() else { return false };
                if p.current().predict.is_some() && p.revealed {
                    p.revealed = false;
                } else if p.step > 0 {
                    p.step -= 1;
                    p.revealed = p.current().predict.is_some();
                    p.cuts.clear();
                } else {
                    return false;
                }
                self.go_to_lesson(p)
            }
            Command::LessonResume => match self.lesson.clone() {
                Some(p) => self.go_to_lesson(p),
                None => false,
            },
            Command::LessonExit => {
                self.lesson = None;
                self.took_over = false;
                true
            }
            Command::Predict(label, v) => match &mut self.lesson {
                Some(p) if p.awaiting_reveal() => {
                    p.predictions.insert(label, v);
                    true
                }
                _ => false,
            },
            Command::CheckCut(attempt) => match &mut self.lesson {
                Some(p)
                    if p.current().diagram == OnDiagram::Draw
                        && !self.took_over
                        && !p.cuts.iter().any(|c| c.points == attempt.points) =>
                {
                    p.cuts.push(attempt);
                    if p.cut_found() && matches!(self.notice, Some(Notice::DrawConsistentCut)) {
                        self.notice = None;
                    }
                    true
                }
                _ => false,
            },
        }
    }

    /// Rebuilds the run to stand where the lesson `p` stands.
    fn go_to_lesson(&mut self, p: Progress) -> bool {
        match run_for(&p) {
            Ok(LessonRun { config, start, actions, change }) => match Timeline::from_actions(start, &actions) {
                Ok(tl) => {
                    self.config = config;
                    self.timeline = tl;
                    self.change = change.map(std::rc::Rc::new);
                    self.selected = None;
                    self.lesson = Some(p);
                    self.took_over = false;
                    self.undo.clear();
                    self.redo.clear();
                    let end = self.timeline.len();
                    self.seek(end);
                    true
                }
                Err((i, e)) => {
                    self.notice = Some(Notice::LessonError(format!("lesson action #{}: {e}", i + 1)));
                    false
                }
            },
            Err(e) => {
                self.notice = Some(Notice::LessonError(e));
                false
            }
        }
    }

    fn reconfigure(&mut self, config: RunConfig) -> bool {
        match Session::new(config) {
            Ok(s) => {
                *self = s;
                true
            }
            Err(e) => {
                self.notice = Some(Notice::Config(e));
                false
            }
        }
    }

    fn act(&mut self, a: Action) -> bool {
        let g = &self.sim().graph;
        let (action, action_zh) = (describe(g, &a, Lang::En), describe(g, &a, Lang::Zh));
        let mut events = Vec::new();
        match self.timeline.apply_forking(a, &mut events) {
            Ok(dropped) => {
                let step = self.timeline.position();
                self.took_over |= self.lesson.is_some();
                if let Some(branch) = dropped {
                    self.notice = Some(Notice::Forked(Steps { after: branch.from, steps: branch.actions.len() }));
                    push_kept(&mut self.undo, branch);
                    self.redo.clear();
                }
                self.narration.retain(|l| l.step < step);
                self.narration.push(StepLog { step, action: a, events });
                if self.narration.len() > NARRATION_STEPS {
                    self.narration.remove(0);
                }
                true
            }
            Err(error) => {
                self.notice = Some(Notice::Refused { action, action_zh, error });
                false
            }
        }
    }

    /// Puts a branch kept by a fork or an undo back in place, and keeps what it replaces for the
    /// opposite command.
    fn swap(&mut self, branch: Branch, undoing: bool) -> bool {
        let back = Steps { after: branch.from, steps: branch.actions.len() };
        match self.timeline.swap_branch(branch) {
            Ok(set_aside) => {
                let (at, n) = (self.timeline.position(), set_aside.actions.len());
                push_kept(if undoing { &mut self.redo } else { &mut self.undo }, set_aside);
                self.took_over |= self.lesson.is_some();
                self.seek(at);
                self.notice = Some(if undoing {
                    Notice::Undone { back, at, set_aside: n }
                } else {
                    Notice::Redone { back, at, set_aside: n }
                });
                true
            }
            // Not a branch of this history (the stacks are cleared whenever the history is
            // replaced, so this does not happen): nothing changes.
            Err(_) => {
                self.notice = Some(if undoing { Notice::NothingToUndo } else { Notice::NothingToRedo });
                false
            }
        }
    }

    /// At most this many steps for one run to the end.
    const END_BUDGET: usize = MAX_SAVED_ACTIONS;

    fn run_to_end(&mut self) -> bool {
        // Behind the end of the history, first go to its end: the recorded steps are kept, not
        // forked away.
        if !self.at_end() {
            self.took_over |= self.lesson.is_some();
            let end = self.timeline.len();
            self.seek(end);
            if !self.has_end_to_run() {
                return true;
            }
        }
        if !self.has_end_to_run() {
            self.notice = Some(Notice::NothingToPlay);
            return false;
        }
        // The engine decides the steps on a copy; the timeline then records each of them, so
        // Back, the scrubber and a shared link see them as ordinary steps.
        let mut sim = self.sim().clone();
        let budget = Self::END_BUDGET.saturating_sub(self.timeline.position());
        let mut watch = EndWatch::default();
        let mut actions = Vec::new();
        sim.run_to_end_each(budget, &mut |a, ev| {
            actions.push(a);
            watch.observe(ev);
        });
        // A run cut short by the cap says so, and why.
        self.notice = watch.unfinished(&sim, budget).map(Notice::Unfinished);
        let mut scratch = Vec::new();
        for a in actions {
            scratch.clear();
            self.timeline.apply_into(a, &mut scratch).expect("the engine's own steps replay");
        }
        self.took_over |= self.lesson.is_some();
        let end = self.timeline.position();
        self.seek(end);
        true
    }

    fn seek(&mut self, step: usize) {
        self.timeline.seek(step);
        let to = self.timeline.position();
        let from = to.saturating_sub(NARRATION_STEPS);
        self.narration = self
            .timeline
            .events_between(from, to)
            .into_iter()
            .map(|(i, events)| StepLog { step: i + 1, action: self.timeline.actions()[i], events })
            .collect();
    }

    // ----- saving and loading ----------------------------------------------------------------

    pub fn save(&self, lang: Lang) -> SavedRun {
        SavedRun {
            barrierscope: SAVED_VERSION,
            job: self.config.job.clone(),
            settings: self.config.settings.clone(),
            seed: self.config.seed,
            records: self.config.records,
            actions: self.timeline.actions().iter().map(Action::code).collect::<Vec<_>>().join(" "),
            at: self.timeline.position(),
            lesson: self.lesson.as_ref().map(|p| SavedLesson {
                id: p.lesson().id.to_string(),
                step: p.step,
                revealed: p.revealed,
                predictions: p.predictions.clone(),
                took_over: self.took_over,
            }),
            lang,
            restore: self.change.as_ref().map(|c| (**c).clone()),
            lesson_file: self.lesson.as_ref().and_then(|p| super::curriculum::file_text(p.lesson)),
        }
    }

    /// Checks a saved run in full and builds the session it describes, paused at its playhead.
    pub fn load(text: &str) -> Result<(Session, Lang), LoadError> {
        let saved = SavedRun::parse(text)?;
        let mut session = Session::new(saved.config()).map_err(LoadError::Config)?;
        if let Some(change) = &saved.restore {
            let start = change.start(&session.config).map_err(LoadError::Config)?;
            session.timeline = Timeline::new(start);
            session.change = Some(std::rc::Rc::new(change.clone()));
        }
        let timeline = saved.timeline(session.sim().clone())?;
        if let Some(file) = &saved.lesson_file {
            super::curriculum::open_file(file).map_err(LoadError::LessonFile)?;
        }
        if let Some(l) = &saved.lesson {
            session.lesson = Some(l.progress(&session.sim().graph)?);
            session.took_over = l.took_over;
        }
        session.timeline = timeline;
        session.seek(saved.at);
        Ok((session, saved.lang))
    }
}

/// Opens the run in `text` (read from `origin`) in place of `current`. A run that is refused
/// leaves `current` exactly as it was, with the reason in its notice; an opened one replaces it,
/// paused at its playhead. Returns the language the run was saved in, if it opened.
///
/// A lesson file opens its lesson at the first step instead (as does `lesson:ID`, what a
/// `#lesson=ID` link gives for a built-in lesson); a broken one names the step and the field.
pub fn open_run(current: &mut Session, origin: Origin, text: Result<String, LoadError>) -> Option<Lang> {
    if let Ok(t) = &text {
        if let Some(i) = lesson_to_open(t) {
            let opened = i.map_err(LoadError::LessonFile).and_then(|i| {
                let mut next = current.clone();
                next.notice = None;
                if next.handle(Command::StartLesson(i)) && next.lesson.is_some() {
                    Ok(next)
                } else {
                    Err(LoadError::Lesson(next.notice.map(|n| n.message(Lang::En)).unwrap_or_default()))
                }
            });
            match opened {
                Ok(mut next) => {
                    let title = next.lesson.as_ref().expect("opened").lesson().title;
                    next.notice = Some(Notice::lesson_opened(title, origin));
                    *current = next;
                }
                Err(error) => current.notice = Some(Notice::load_failed(origin, error)),
            }
            return None;
        }
    }
    match text.and_then(|t| Session::load(&t)) {
        Ok((mut session, lang)) => {
            session.notice = Some(Notice::Opened(origin));
            *current = session;
            Some(lang)
        }
        Err(error) => {
            current.notice = Some(Notice::load_failed(origin, error));
            None
        }
    }
}

/// The lesson `text` opens, if it is a lesson file or `lesson:ID`: its place among the lessons.
fn lesson_to_open(text: &str) -> Option<Result<usize, super::LessonError>> {
    if let Some(id) = text.strip_prefix("lesson:") {
        // A whole file in base64url, or a built-in lesson's id.
        let file = super::from_base64url(id).and_then(|b| String::from_utf8(b).ok());
        if let Some(file) = file.filter(|t| super::is_lesson_file(t)) {
            return Some(super::curriculum::open_file(&file));
        }
        let i = super::curriculum::builtins().iter().position(|l| l.id == id);
        return Some(i.ok_or_else(|| super::LessonError {
            step: None,
            field: "id".into(),
            en: format!("no built-in lesson is called {:?}", id.chars().take(40).collect::<String>()),
            zh: format!("没有名为 {:?} 的内置课程", id.chars().take(40).collect::<String>()),
        }));
    }
    super::is_lesson_file(text).then(|| super::curriculum::open_file(text))
}

/// Pushes onto a stack of kept branches, forgetting the oldest past [`MAX_FORKS_KEPT`].
fn push_kept(stack: &mut Vec<Branch>, branch: Branch) {
    stack.push(branch);
    if stack.len() > MAX_FORKS_KEPT {
        stack.remove(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::saved_run::{from_fragment, to_fragment};
    use crate::classroom::score;

    #[test]
    fn acting_back_and_fork() {
        let mut s = Session::new(RunConfig::default()).unwrap();
        assert!(s.handle(Command::Act(Action::Read { task: TaskId(0) })));
        assert!(s.handle(Command::Act(Action::Read { task: TaskId(0) })));
        assert_eq!(s.narration.len(), 2);
        assert!(s.handle(Command::Back));
        assert_eq!(s.timeline.position(), 1);
        assert_eq!(s.narration.len(), 1);
        assert!(!s.handle(Command::Act(Action::Restore)));
        assert_eq!(
            s.notice.as_ref().unwrap().message(Lang::En),
            "Can't restore: the job is running; there is nothing to restore."
        );
        assert_eq!(s.notice.as_ref().unwrap().message(Lang::Zh), "无法恢复：作业正在运行，没有需要恢复的东西。");
        assert_eq!(s.timeline.len(), 2, "a refused action changes nothing");
        assert!(s.handle(Command::Act(Action::AllTimers)));
        assert_eq!(s.timeline.len(), 2, "acting at step 1 forked: steps 1 and the new 2");
        assert!(s.handle(Command::Back));
        assert!(s.handle(Command::Back));
        assert!(!s.handle(Command::Back));
    }

    #[test]
    fn the_steps_a_fork_drops_are_named_before_and_after_in_both_languages() {
        let mut s = Session::new(RunConfig::default()).unwrap();
        for _ in 0..3 {
            s.handle(Command::Act(Action::Read { task: TaskId(0) }));
        }
        s.handle(Command::Act(Action::AllTimers));
        s.handle(Command::Act(Action::Crash));
        assert_eq!(s.fork_preview(), None, "at the end nothing would be dropped");
        s.handle(Command::Seek(3));
        let preview = s.fork_preview().unwrap();
        assert_eq!(
            preview.fork_warning(Lang::En),
            "Acting at this step drops steps 4–5 (2 steps). Step, Play and End keep them; Ctrl+Z brings them back."
        );
        assert!(preview.fork_warning(Lang::Zh).contains("第 4–5 步（共 2 步）"));
        s.handle(Command::Seek(4));
        assert!(s.fork_preview().unwrap().fork_warning(Lang::En).starts_with("Acting at this step drops step 5. "));
        s.handle(Command::Seek(3));
        assert!(s.handle(Command::Act(Action::Crash)));
        let forked = s.notice.clone().unwrap();
        assert!(!forked.is_error());
        assert_eq!(
            forked.message(Lang::En),
            "Forked the run at step 3: steps 4–5 (2 steps) dropped. Undo (Ctrl+Z) brings them back."
        );
        assert!(s.handle(Command::Undo));
        assert_eq!(
            s.notice.as_ref().unwrap().message(Lang::En),
            "Brought back steps 4–5 (2 steps); you are at step 3. The 1 step(s) after the fork are set aside: Redo (Ctrl+Y) puts them back."
        );
        assert!(s.notice.as_ref().unwrap().message(Lang::Zh).contains("已找回第 4–5 步"));
    }

    #[test]
    fn several_forks_undo_one_by_one_and_a_new_fork_clears_redo() {
        let mut s = Session::new(RunConfig::default()).unwrap();
        for _ in 0..6 {
            s.handle(Command::Act(Action::Read { task: TaskId(0) }));
        }
        let h0 = s.timeline.actions().to_vec();
        s.handle(Command::Seek(4));
        s.handle(Command::Act(Action::AllTimers));
        let h1 = s.timeline.actions().to_vec();
        s.handle(Command::Seek(2));
        s.handle(Command::Act(Action::Crash));
        assert_eq!(s.undo.len(), 2);
        assert!(s.handle(Command::Undo));
        assert_eq!((s.timeline.actions(), s.timeline.position()), (&h1[..], 2));
        assert!(s.handle(Command::Undo));
        assert_eq!((s.timeline.actions(), s.timeline.position()), (&h0[..], 4));
        assert_eq!(s.redo.len(), 2);
        assert!(s.handle(Command::Redo));
        assert_eq!((s.timeline.actions(), s.timeline.position()), (&h1[..], 2), "where the undo was made");
        s.handle(Command::Seek(1));
        s.handle(Command::Act(Action::AllTimers));
        assert!(s.redo.is_empty(), "a new fork: nothing to redo");
        assert!(!s.handle(Command::Redo));
        assert_eq!(s.notice, Some(Notice::NothingToRedo));
        // A new run forgets the forks of the old one.
        s.handle(Command::Reset);
        assert!(s.undo.is_empty() && !s.handle(Command::Undo));
    }

    #[test]
    fn a_settings_field_says_when_it_clamps_or_refuses_and_loses_nothing_else() {
        let config = RunConfig { settings: Settings::new(Strategy::Aligned), ..RunConfig::default() };
        let mut s = Session::new(config).unwrap();
        s.handle(Command::EditSetting(SettingField::ChannelCapacity, Some("3".into())));
        s.handle(Command::Act(Action::Read { task: TaskId(0) }));
        // Refused: nothing changes, the run is kept.
        assert!(!s.handle(Command::EditSetting(SettingField::Seed, Some("2.5".into()))));
        assert_eq!(
            s.notice.as_ref().unwrap().message(Lang::En),
            "Seed: \"2.5\" is not a whole number; nothing changed."
        );
        assert!(s.notice.as_ref().unwrap().is_error());
        assert_eq!((s.timeline.len(), s.config.seed, s.config.settings.channel_capacity), (1, 1, Some(3)));
        assert!(!s.handle(Command::EditSetting(SettingField::Records, None)));
        assert_eq!(s.notice.as_ref().unwrap().message(Lang::Zh), "每个源分区的记录数：输入的不是数字；没有任何改动。");
        // Clamped: the run starts again with the limit, the other settings kept, and says so.
        assert!(s.handle(Command::EditSetting(SettingField::Records, Some("9000".into()))));
        assert_eq!(
            s.notice.as_ref().unwrap().message(Lang::En),
            "Records per source partition: 9000 is above the maximum 5000; using 5000."
        );
        assert!(s.notice.as_ref().unwrap().message(Lang::Zh).contains("9000 超过上限 5000，改用 5000"));
        assert_eq!((s.config.records, s.config.settings.channel_capacity, s.timeline.len()), (Some(5000), Some(3), 0));
        // The same value again changes no setting: the run is kept.
        s.handle(Command::Act(Action::Read { task: TaskId(0) }));
        assert!(s.handle(Command::EditSetting(SettingField::Records, Some("7000".into()))));
        assert!(matches!(s.notice, Some(Notice::Setting(FieldNote::Clamped { limit: 5000, .. }))));
        assert_eq!(s.timeline.len(), 1, "the run is kept");
    }

    #[test]
    fn selecting_a_checkpoint_moves_to_its_trigger() {
        let config =
            RunConfig { job: "line".into(), settings: Settings::new(Strategy::Aligned), seed: 1, records: None };
        let mut s = Session::new(config).unwrap();
        for _ in 0..3 {
            s.handle(Command::Act(Action::Auto));
        }
        s.handle(Command::Act(Action::Checkpoint));
        assert!(s.handle(Command::ToEnd), "to the end, with a final checkpoint");
        let history = s.timeline.last().stats.history.clone();
        assert!(history.len() >= 2, "{history:?}");
        s.handle(Command::SelectCheckpoint(CheckpointId(1)));
        assert_eq!(s.timeline.position(), 4);
        assert!(matches!(s.narration.last().unwrap().events[0], Event::CheckpointTriggered { .. }));
        // A checkpoint triggered after the playhead is selected from the whole history too.
        let later = history.last().unwrap();
        assert!(s.handle(Command::SelectCheckpoint(later.id)));
        assert_eq!((s.selected, s.timeline.position()), (Some(later.id), later.trigger_tick as usize + 1));
    }

    #[test]
    fn a_saved_run_restores_the_same_frame() {
        let mut s = Session::new(RunConfig::default()).unwrap();
        for _ in 0..3 {
            s.handle(Command::Act(Action::Read { task: TaskId(0) }));
        }
        s.handle(Command::Act(Action::AllTimers));
        s.handle(Command::Act(Action::Crash));
        s.handle(Command::Back);
        let saved = s.save(Lang::Zh);
        let text = from_fragment(&to_fragment(&saved)).unwrap();
        let (t, lang) = Session::load(&text).unwrap();
        assert_eq!(lang, Lang::Zh);
        assert_eq!(t.timeline.position(), 4);
        assert_eq!(t.timeline.len(), 5);
        assert_eq!(t.sim().channels(), s.sim().channels());
        assert_eq!(t.sim().ledger(), s.sim().ledger());
        assert_eq!(t.save(Lang::Zh), saved);
    }

    /// Lesson 14's drawing step: Next waits for a consistent cut (with the notice saying so); a
    /// checked cut is kept with its prediction, the same cut is not counted twice, and a check is
    /// refused on a step that draws nothing.
    #[test]
    fn the_drawing_step_waits_for_a_consistent_cut() {
        let mut s = Session::new(RunConfig::default()).unwrap();
        let i = curriculum::builtins().iter().position(|l| l.id == "draw-a-cut").unwrap();
        assert!(s.handle(Command::StartLesson(i)));
        let attempt = |points: Vec<u64>, predicted_consistent, consistent| CutAttempt {
            points,
            predicted_consistent,
            consistent,
            crossing: 3,
        };
        assert!(!s.handle(Command::CheckCut(attempt(vec![0, 11, 11], false, false))), "not a drawing step");
        while s.lesson.as_ref().unwrap().current().diagram != OnDiagram::Draw {
            assert!(s.handle(Command::LessonNext));
        }
        let step = s.lesson.as_ref().unwrap().step;
        assert!(!s.handle(Command::LessonNext));
        assert_eq!(s.notice, Some(Notice::DrawConsistentCut));
        assert!(s.notice.as_ref().unwrap().message(Lang::Zh).contains("一致的切面"));
        assert!(s.handle(Command::CheckCut(attempt(vec![0, 11, 11], true, false))));
        assert!(!s.handle(Command::CheckCut(attempt(vec![0, 11, 11], false, false))), "checked already");
        assert!(!s.handle(Command::LessonNext), "still no consistent cut");
        assert!(s.handle(Command::CheckCut(attempt(vec![11, 11, 11], true, true))));
        assert_eq!(s.lesson.as_ref().unwrap().cut_score(), (1, 2));
        assert!(s.handle(Command::LessonNext));
        let p = s.lesson.as_ref().unwrap();
        assert_eq!((p.step, p.cuts.len()), (step + 1, 0), "the next step starts with no cuts");
    }

    #[test]
    fn reveal_waits_until_every_record_is_marked() {
        let mut s = Session::new(RunConfig::default()).unwrap();
        assert!(s.handle(Command::StartLesson(1)));
        while !s.lesson.as_ref().unwrap().awaiting_reveal() {
            assert!(s.handle(Command::LessonNext));
        }
        let before = s.timeline.len();
        assert!(!s.handle(Command::LessonNext), "no reveal without marks");
        assert_eq!(s.notice, Some(Notice::MarkEveryRecord(8)));
        assert_eq!(
            s.notice.as_ref().unwrap().message(Lang::En),
            "Mark every record first: 8 left. Click a record or press its number (1–9) to mark it, or press PageDown again to reveal without marking."
        );
        assert!(s.notice.as_ref().unwrap().message(Lang::Zh).contains("还剩 8 条"));
        assert!(!s.lesson.as_ref().unwrap().revealed && s.timeline.len() == before, "nothing played");
        for r in ["a", "b", "c"] {
            assert!(s.handle(Command::Predict(r.into(), Verdict::Lost)));
        }
        assert!(!s.handle(Command::LessonNext));
        assert_eq!(s.notice, Some(Notice::MarkEveryRecord(5)));
        for r in ["d", "e", "f", "g", "h"] {
            assert!(s.handle(Command::Predict(r.into(), Verdict::ExactlyOnce)));
        }
        assert!(s.handle(Command::LessonNext), "every record marked: the reveal");
        let p = s.lesson.clone().unwrap();
        assert!(p.revealed);
        let (rows, right) = score(s.sim(), p.current().predict.unwrap(), &p.predictions);
        assert_eq!((rows.len(), right), (8, 8));
    }

    /// Issue 48, 2: a clicker cannot mark records. The first PageDown at a predict step says how
    /// many are left; a second in a row reveals without them, and the unmarked never score. Model:
    /// the reveal with every record marked shows the same run.
    #[test]
    fn a_second_press_reveals_without_the_missing_marks() {
        let mut s = Session::new(RunConfig::default()).unwrap();
        assert!(s.handle(Command::StartLesson(1)));
        while !s.lesson.as_ref().unwrap().awaiting_reveal() {
            assert!(s.handle(Command::LessonNext));
        }
        let mut marked = s.clone();
        assert!(s.handle(Command::Predict("a".into(), Verdict::Lost)));
        assert!(!s.handle(Command::LessonNext), "the first press only says how many are left");
        assert_eq!(s.notice, Some(Notice::MarkEveryRecord(7)));
        assert!(s.notice.as_ref().unwrap().message(Lang::En).contains("again"));
        assert!(s.handle(Command::LessonNext), "the second press reveals");
        let p = s.lesson.clone().unwrap();
        assert!(p.revealed);
        let (rows, right) = score(s.sim(), p.current().predict.unwrap(), &p.predictions);
        assert_eq!((rows.len(), right), (8, 1), "only the one marked record can score");
        for r in ["a", "b", "c", "d", "e", "f", "g", "h"] {
            assert!(marked.handle(Command::Predict(r.into(), Verdict::ExactlyOnce)));
        }
        assert!(marked.handle(Command::LessonNext));
        assert_eq!(marked.sim().ledger(), s.sim().ledger(), "the same run either way");
    }

    /// Issue 26, 7, on the page: Storm with message-timeout 4 replays without end; To the end
    /// stops at the page's cap and the notice says the run did not finish, and why. Model: the
    /// same run with the default timeout finishes with no notice.
    #[test]
    fn to_the_end_says_when_the_run_stops_at_its_cap() {
        for (timeout, stops) in [(4, true), (100, false)] {
            let mut settings = Settings::new(Strategy::StormAcker);
            settings.message_timeout = timeout;
            let config = RunConfig { job: "line-sink".into(), settings, seed: 1, records: None };
            let mut s = Session::new(config).unwrap();
            assert!(s.handle(Command::ToEnd));
            match &s.notice {
                Some(Notice::Unfinished(u)) => {
                    assert!(stops, "timeout {timeout}: {u:?}");
                    assert_eq!(u.steps, Session::END_BUDGET);
                    assert!(matches!(u.cause, UnfinishedCause::TreesTimeOut { timeout: 4, .. }));
                    assert!(u.message(Lang::Zh).contains("超时"), "{}", u.message(Lang::Zh));
                }
                other => assert!(!stops && other.is_none(), "timeout {timeout}: {other:?}"),
            }
        }
    }

    #[test]
    fn to_the_end_at_once_in_ordinary_steps() {
        let config = RunConfig {
            job: "keyed-shuffle".into(),
            settings: Settings::new(Strategy::Aligned).for_job(false),
            seed: 1,
            records: Some(150),
        };
        let mut s = Session::new(config).unwrap();
        assert!(s.has_end_to_run());
        assert!(s.handle(Command::Act(Action::Auto)));
        assert!(s.handle(Command::ToEnd));
        assert!(s.at_end() && s.timeline.len() > 600, "{} steps", s.timeline.len());
        assert!(!s.has_end_to_run(), "nothing left after the end");
        assert!(s.sim().ledger().rows.iter().all(|r| r.state_verdict == Verdict::ExactlyOnce));
        assert!(matches!(s.timeline.actions().last(), Some(Action::Auto | Action::Checkpoint)));
        assert!(s.sim().stats.history.iter().any(|r| r.status == CheckpointStatus::Completed), "a final checkpoint");
        assert!(!s.handle(Command::ToEnd));
        assert_eq!(s.notice, Some(Notice::NothingToPlay));
        // The steps are ordinary steps: back, and a saved run restores them.
        let end = s.timeline.len();
        assert!(s.handle(Command::Back));
        assert_eq!(s.timeline.position(), end - 1);
        let (t, _) = Session::load(&serde_json::to_string(&s.save(Lang::En)).unwrap()).unwrap();
        assert_eq!((t.timeline.position(), t.timeline.len()), (end - 1, end));
        // From an earlier step it goes to the end of the history, which it keeps.
        assert!(s.handle(Command::Seek(1)));
        assert!(s.handle(Command::ToEnd));
        assert_eq!((s.timeline.position(), s.timeline.len()), (end, end));
    }

    #[test]
    fn to_the_end_commits_a_two_phase_sink() {
        let config = RunConfig {
            job: "line-sink".into(),
            settings: Settings::new(Strategy::Aligned)
                .for_job(true)
                .edited(crate::engine::settings::Edit::Sink(SinkMode::TwoPhaseCommit)),
            ..RunConfig::default()
        };
        let mut s = Session::new(config).unwrap();
        assert!(s.handle(Command::ToEnd));
        assert!(!s.has_end_to_run());
        let ledger = s.sim().ledger();
        assert!(ledger.rows.iter().all(|r| r.external_verdict == Some(Verdict::ExactlyOnce)), "{ledger:?}");
    }
}
