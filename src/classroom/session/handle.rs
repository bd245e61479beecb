//! Carrying out a command: each [`Command`] changes the session or is refused with a notice
//! that says why; acting at an earlier step forks the run.

use super::command::*;
use super::fork::push_kept;
use super::notice::*;
use super::state::*;
use super::NARRATION_STEPS;
use crate::classroom::curriculum;
use crate::classroom::lessons::{Judge, OnDiagram};
use crate::classroom::number_fields::edit_field;
use crate::classroom::progress::{lesson_run, LessonRun, Progress};
use crate::classroom::run_config::RunConfig;
use crate::classroom::saved_run::MAX_SAVED_ACTIONS;
use crate::engine::*;

impl Session {
    /// At most this many steps for one run to the end.
    pub(super) const END_BUDGET: usize = MAX_SAVED_ACTIONS;

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
            Command::LessonNext => self.lesson_next(previous),
            Command::LessonPrev => self.lesson_prev(),
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
                Some(p) if p.awaiting_reveal() && !matches!(p.current().predict, Some(Judge::Checkpoint(_))) => {
                    p.predictions.insert(label, v);
                    true
                }
                _ => false,
            },
            Command::PredictCheckpoint(completes) => match &mut self.lesson {
                Some(p) if p.awaiting_reveal() && matches!(p.current().predict, Some(Judge::Checkpoint(_))) => {
                    p.checkpoint_guess = Some(completes);
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
    pub(super) fn go_to_lesson(&mut self, p: Progress) -> bool {
        match lesson_run(&p) {
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

    pub(super) fn reconfigure(&mut self, config: RunConfig) -> bool {
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

    pub(super) fn act(&mut self, a: Action) -> bool {
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
    pub(super) fn run_to_end(&mut self) -> bool {
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

    pub(super) fn seek(&mut self, step: usize) {
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

    /// Next ▶ (PageDown) in a lesson: reveal a prediction step (a second press in a row reveals
    /// without the records left unmarked), or go on once the step's cut is drawn.
    fn lesson_next(&mut self, previous: Option<Notice>) -> bool {
        let Some(mut p) = self.lesson.clone() else { return false };
        if p.awaiting_reveal() {
            // A record left unmarked (or no guess for a checkpoint): the first press says so; a
            // second press in a row (a presenter's clicker, which cannot mark) reveals without
            // them, and an unmarked record never scores.
            let ask = match p.current().predict {
                Some(Judge::Checkpoint(id)) => p.checkpoint_guess.is_none().then_some(Notice::PredictCheckpoint(id)),
                _ => match p.unmarked(self.sim().graph.records.iter().map(|r| r.label.as_str())) {
                    0 => None,
                    left => Some(Notice::MarkEveryRecord(left)),
                },
            };
            if let Some(ask) = ask.filter(|ask| previous.as_ref() != Some(ask)) {
                self.notice = Some(ask);
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
            p.checkpoint_guess = None;
            p.cuts.clear();
        } else {
            return false;
        }
        self.go_to_lesson(p)
    }

    /// ◀ Previous (PageUp) in a lesson: hide a reveal, or go back a step.
    fn lesson_prev(&mut self) -> bool {
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
}
