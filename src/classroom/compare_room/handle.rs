//! How Side by side's session carries out a command: the clock's (`clock.rs`), the form's
//! (`form.rs`), opened files, and the lesson's steps and predictions. Every command clears the link
//! the Share button made, and the notice (but Play's clock, its speed and Share itself leave it);
//! after it the runs are settled (marked finished when nothing is left) and Play stops at the end.

use crate::classroom::compare_lesson::{self, SavedCompareLesson, CRASH, PREDICT, REVEAL, STEPS};
use crate::classroom::compare_room::command::CompareCommand;
use crate::classroom::compare_room::notice::CompareNotice;
use crate::classroom::compare_room::session::{CompareSession, SPEEDS};
use crate::classroom::room_session::RoomSession;
use crate::classroom::saved_comparison::{open_files, three_ways, CompareError};
use crate::classroom::saved_run::Origin;
use crate::classroom::unread::Unread;

impl CompareSession {
    /// Carries out `c`. False when it changed nothing at all: Play's clock while paused, X or R
    /// refused, Next without a lesson or before every prediction is made.
    pub fn handle(&mut self, c: CompareCommand) -> bool {
        let refused = match &c {
            CompareCommand::Tick => !self.playing,
            CompareCommand::CrashNow => self.crash_refusal(crate::engine::Lang::En).is_some(),
            CompareCommand::RestoreNow => self.restore_refusal(crate::engine::Lang::En).is_some(),
            CompareCommand::LessonNext => !self.lesson.as_ref().is_some_and(|l| self.may_go_on(l)),
            _ => false,
        };
        if refused {
            return false;
        }
        self.link = None;
        if !matches!(c, CompareCommand::Tick | CompareCommand::Speed(_) | CompareCommand::Shared(_)) {
            self.notice = None;
        }
        match c {
            CompareCommand::Step => {
                self.step();
            }
            CompareCommand::Back => self.rebuild(self.tick().saturating_sub(1)),
            CompareCommand::ToStart => self.rebuild(0),
            CompareCommand::ToEnd => self.run_to_end(),
            CompareCommand::TogglePlay => self.playing = !self.playing && !self.at_end(),
            CompareCommand::Tick => {
                if !self.step() || self.at_end() {
                    self.playing = false;
                }
            }
            CompareCommand::Speed(s) => self.speed = s.min(SPEEDS.len() - 1),
            CompareCommand::CrashNow => {
                self.crash_now();
            }
            CompareCommand::RestoreNow => {
                self.restore_now();
            }
            CompareCommand::Job(job) => self.job(job),
            CompareCommand::Input(n, every) => self.input(n, every),
            CompareCommand::Run(i, preset) => self.run(i, preset),
            CompareCommand::Place(p) => self.place(&p),
            CompareCommand::CrashAt(t) => self.crash_at(t),
            CompareCommand::RestoreAt(t) => self.restore_at(t),
            CompareCommand::FromMain(job, settings) => self.from_main(job, *settings),
            CompareCommand::Open(files) => self.open(files),
            CompareCommand::Shared(url) => self.link = Some(url),
            CompareCommand::Dismiss => {}
            CompareCommand::LessonStart => self.lesson_start(),
            CompareCommand::LessonNext => self.lesson_next(),
            CompareCommand::LessonPrev => {
                if let Some(l) = self.lesson.as_mut() {
                    l.step = l.step.saturating_sub(1);
                }
            }
            CompareCommand::LessonClose => self.lesson = None,
            CompareCommand::Predict(q, run) => {
                if let Some(l) = self.lesson.as_mut().filter(|l| l.step == PREDICT) {
                    l.predictions.insert(q, run);
                }
            }
        }
        self.settle();
        if self.at_end() {
            self.playing = false;
        }
        self.version += 1;
        true
    }

    /// The chosen files opened as one comparison, or why not (nothing on screen changes).
    fn open(&mut self, files: Result<Vec<(String, String)>, Unread>) {
        let opened = match files {
            Ok(files) => open_files(&files),
            Err(Unread::TooLarge(n)) => Err(CompareError::TooLarge(n)),
            // As no text (the page reads a file it can't read as empty): not JSON.
            Err(Unread::NotText) => open_files(&[(String::new(), String::new())]),
        };
        match opened {
            Ok(opened) => {
                self.adopt(opened);
                self.notice = Some(CompareNotice::Opened(Origin::File));
            }
            Err(e) => self.notice = Some(CompareNotice::Refused(Origin::File, e)),
        }
    }

    /// Next ▶ is refused on the predict step until every question has its prediction.
    fn may_go_on(&self, l: &SavedCompareLesson) -> bool {
        !(l.step == PREDICT && l.predictions.len() < compare_lesson::QUESTIONS.len())
    }

    /// The lesson from its start, on the article's three ways at tick 0.
    fn lesson_start(&mut self) {
        self.file = three_ways();
        self.playing = false;
        self.rebuild(0);
        self.lesson = Some(SavedCompareLesson::default());
        self.notice = Some(CompareNotice::LessonSetUp);
    }

    /// The lesson's next step: to the crash's, the clock passes the crash; from the reveal on,
    /// the runs go to their end.
    fn lesson_next(&mut self) {
        let Some(mut lesson) = self.lesson.clone() else { return };
        if lesson.step + 1 < STEPS {
            lesson.step += 1;
        }
        self.playing = false;
        if lesson.step == CRASH && self.tick() <= self.file.crash.at {
            let t = self.file.crash.at + 1;
            self.go_to(t);
        }
        if lesson.step >= REVEAL {
            self.run_to_end();
        }
        self.lesson = Some(lesson);
    }
}

impl RoomSession for CompareSession {
    type Command = CompareCommand;
    fn handle(&mut self, command: CompareCommand) -> bool {
        CompareSession::handle(self, command)
    }
}
