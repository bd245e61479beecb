//! How the Batch room's session carries out a command: the playhead's (step, back, seek, to the
//! end, reset, play), the job's (a built-in job, where an RDD keeps its partitions, text to open)
//! and the lesson's (a step, a prediction, the reveal). A command clears the link the Share button
//! made and the last notice (but Play's clock, its speed and Share itself leave the notice), and
//! counts as a change to keep unless it only plays, shares or dismisses.

use std::rc::Rc;

use crate::classroom::batch_room::command::BatchCommand;
use crate::classroom::batch_room::notice::BatchNotice;
use crate::classroom::batch_room::session::{BatchSession, SPEEDS};
use crate::classroom::room_session::RoomSession;
use crate::classroom::unread::Unread;
use crate::engine::batch::{BatchAction, BatchLoadError, BatchRun, Keep, BATCH_LESSON};

impl BatchSession {
    /// Carries out `c`. False when it changed nothing at all: Play's clock while paused, or a lesson
    /// step past the last (PageDown there).
    pub fn handle(&mut self, c: BatchCommand) -> bool {
        match c {
            BatchCommand::Tick if !self.playing => return false,
            BatchCommand::Lesson(Some(step)) if step >= BATCH_LESSON.len() => return false,
            _ => {}
        }
        self.link = None;
        self.asked_lang = None;
        if !matches!(c, BatchCommand::Tick | BatchCommand::Speed(_) | BatchCommand::Shared(_)) {
            self.notice = None;
        }
        // Whether storage should keep the change: not when the command only plays, shares or
        // dismisses.
        let kept = match c {
            BatchCommand::Step => {
                self.step();
                true
            }
            BatchCommand::Act(a) => {
                self.act(a);
                true
            }
            BatchCommand::Back => {
                let at = self.run.at.saturating_sub(1);
                self.seek(at);
                true
            }
            BatchCommand::Seek(at) => {
                self.seek(at);
                true
            }
            BatchCommand::ToEnd => {
                self.to_end();
                true
            }
            BatchCommand::Reset => {
                self.run = Rc::new(BatchRun::new(self.run.spec.clone()).expect("a valid job"));
                self.playing = false;
                true
            }
            BatchCommand::TogglePlay => {
                self.toggle_play();
                false
            }
            BatchCommand::Tick => {
                if !self.step() || self.finished() {
                    self.playing = false;
                    self.notice = None;
                }
                true
            }
            BatchCommand::Speed(v) => {
                self.speed = v.min(SPEEDS.len() - 1);
                false
            }
            BatchCommand::Job(job) => {
                *self = BatchSession { speed: self.speed, ..BatchSession::with_job(&job) };
                true
            }
            BatchCommand::Keep(rdd, keep) => {
                self.keep(rdd, keep);
                true
            }
            BatchCommand::Open(origin, text) => {
                self.open(origin, text.map_err(load_error));
                true
            }
            BatchCommand::Lesson(Some(step)) => {
                self.lesson_go(step);
                true
            }
            BatchCommand::Lesson(None) => {
                self.lesson = None;
                true
            }
            BatchCommand::Predict(name) => {
                self.predict(name);
                true
            }
            BatchCommand::Reveal => {
                self.reveal();
                true
            }
            BatchCommand::Dismiss => false,
            BatchCommand::Shared(url) => {
                self.link = Some(url);
                false
            }
        };
        if kept {
            self.revision += 1;
        }
        true
    }

    /// An action at the playhead; refused, the notice says why and Play stops.
    fn act(&mut self, a: BatchAction) {
        if let Err(e) = Rc::make_mut(&mut self.run).act(a) {
            self.notice = Some(BatchNotice::Refused(e));
            self.playing = false;
        }
    }

    /// The playhead to step `at` of the history (clamped); Play stops.
    fn seek(&mut self, at: usize) {
        Rc::make_mut(&mut self.run).seek(at);
        self.playing = false;
    }

    /// To the end of the history, then every task through; Play stops.
    fn to_end(&mut self) {
        let run = Rc::make_mut(&mut self.run);
        let len = run.len();
        run.seek(len);
        run.run_to_end();
        self.playing = false;
    }

    /// Play, or pause; at the end of a finished job, the notice says there is nothing to play.
    fn toggle_play(&mut self) {
        if self.playing {
            self.playing = false;
        } else if self.finished() {
            self.notice = Some(BatchNotice::NothingToPlay);
        } else {
            self.playing = true;
        }
    }

    /// RDD `rdd` kept as `keep`: the same actions on the changed job, as far as they are still
    /// accepted.
    fn keep(&mut self, rdd: usize, keep: Keep) {
        let spec = self.run.spec.with_keep(rdd, keep);
        let mut run = BatchRun::new(spec).expect("a valid job");
        for &a in &self.run.actions[..self.run.at] {
            if run.act(a).is_err() {
                break;
            }
        }
        self.run = Rc::new(run);
        self.job.clear();
        self.playing = false;
    }

    /// Marks `name` as predicted, or unmarks it; not once the answer is revealed.
    fn predict(&mut self, name: String) {
        if let Some(l) = self.lesson.as_mut().filter(|l| !l.revealed) {
            if !l.prediction.remove(&name) {
                l.prediction.insert(name);
            }
        }
    }

    /// The answer: the job run to its end.
    fn reveal(&mut self) {
        if let Some(l) = self.lesson.as_mut() {
            l.revealed = true;
            Rc::make_mut(&mut self.run).run_to_end();
            self.playing = false;
        }
    }
}

/// The page's reason for not reading a file, as the batch file's reader words it.
fn load_error(why: Unread) -> BatchLoadError {
    match why {
        Unread::TooLarge(n) => BatchLoadError::TooLarge(n),
        Unread::NotText => BatchLoadError::Encoding,
    }
}

impl RoomSession for BatchSession {
    type Command = BatchCommand;
    fn handle(&mut self, command: BatchCommand) -> bool {
        BatchSession::handle(self, command)
    }
}
