//! The batch room's own state: the run, the playhead's play mode, the lesson position and the last
//! notice, changed only by [`RoomMsg`]s through one reducer.

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::batch::format::{BatchLessonAt, Opened};
use crate::engine::batch::{batch_job, BatchAction, BatchFile, BatchLoadError, BatchRun, Keep, Refusal, BATCH_LESSON};
use crate::engine::Lang;

/// Where a batch text came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Link,
    File,
    Storage,
}

/// The last thing to tell the learner.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    Refused(Refusal),
    NotOpened(Origin, BatchLoadError),
    Opened(Origin),
    NothingToPlay,
}

/// The lesson position in the room.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonAt {
    pub step: usize,
    pub revealed: bool,
    pub prediction: crate::engine::sorted_vec::SortedSet<String>,
}

impl LessonAt {
    pub fn saved(&self) -> BatchLessonAt {
        BatchLessonAt {
            step: self.step,
            revealed: self.revealed,
            prediction: self.prediction.iter().cloned().collect(),
        }
    }
}

pub enum RoomMsg {
    /// Step: forward through the history, or a new step at its end.
    Step,
    Act(BatchAction),
    Back,
    Seek(usize),
    ToEnd,
    Reset,
    TogglePlay,
    Tick,
    Speed(usize),
    /// A built-in job from the menu.
    Job(String),
    Keep(usize, Keep),
    Load(Origin, Result<String, BatchLoadError>),
    Lesson(Option<usize>),
    Predict(String),
    Reveal,
    Dismiss,
    Shared(String),
}

/// Play speeds: milliseconds between steps.
pub const SPEEDS: [u32; 5] = [1200, 800, 500, 300, 150];

#[derive(Clone)]
pub struct RoomState {
    pub run: Rc<BatchRun>,
    /// Counts the changes to the run or the lesson (what storage keeps).
    pub revision: u64,
    pub playing: bool,
    pub speed: usize,
    /// The built-in job shown ("" for one opened from a file or a link).
    pub job: String,
    pub lesson: Option<LessonAt>,
    pub notice: Option<Notice>,
    /// The link the Share button made.
    pub link: Option<String>,
    /// The language a file or a link asked for, for the room to hand to the page.
    pub asked_lang: Option<Lang>,
}

impl PartialEq for RoomState {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.run, &o.run)
            && self.revision == o.revision
            && self.playing == o.playing
            && self.speed == o.speed
            && self.job == o.job
            && self.lesson == o.lesson
            && self.notice == o.notice
            && self.link == o.link
            && self.asked_lang == o.asked_lang
    }
}

pub const DEFAULT_JOB: &str = "spark-figure";

impl RoomState {
    pub fn with_job(job: &str) -> RoomState {
        let spec = batch_job(job).unwrap_or_else(|| batch_job(DEFAULT_JOB).expect("built in"));
        RoomState {
            run: Rc::new(BatchRun::new(spec).expect("built-in jobs are valid")),
            revision: 0,
            playing: false,
            speed: 2,
            job: job.to_string(),
            lesson: None,
            notice: None,
            link: None,
            asked_lang: None,
        }
    }

    /// The first state: the run in the link, else the one kept in this browser, else the Spark
    /// figure. A bad link says why and leaves the figure.
    pub fn initial(link: Option<Result<String, BatchLoadError>>, stored: Option<String>) -> RoomState {
        let mut s = RoomState::with_job(DEFAULT_JOB);
        if let Some(text) = link {
            s.open(Origin::Link, text);
        } else if let Some(text) = stored {
            s.open(Origin::Storage, Ok(text));
            if s.notice == Some(Notice::Opened(Origin::Storage)) {
                s.notice = None;
            }
        }
        s
    }

    fn open(&mut self, origin: Origin, text: Result<String, BatchLoadError>) {
        match text.and_then(|t| BatchFile::open(&t, BATCH_LESSON.len())) {
            Ok(Opened { run, lang, lesson, .. }) => {
                let job = crate::engine::batch::BATCH_JOBS
                    .iter()
                    .find(|j| batch_job(j).as_ref() == Some(&run.spec))
                    .map_or(String::new(), |j| j.to_string());
                self.run = Rc::new(run);
                self.job = job;
                self.lesson =
                    lesson.map(|l| LessonAt { step: l.step, revealed: l.revealed, prediction: l.prediction.into() });
                self.asked_lang = Some(lang);
                self.playing = false;
                self.notice = Some(Notice::Opened(origin));
            }
            // Nothing on screen is lost: the run stays as it was.
            Err(e) => self.notice = Some(Notice::NotOpened(origin, e)),
        }
    }

    fn lesson_go(&mut self, step: usize) {
        let s = &BATCH_LESSON[step];
        self.run = Rc::new(s.run());
        self.job = s.job.to_string();
        self.lesson = Some(LessonAt { step, ..LessonAt::default() });
        self.playing = false;
    }

    /// The file of what is on screen.
    pub fn file(&self, lang: Lang) -> BatchFile {
        BatchFile::of(&self.run, lang, self.lesson.as_ref().map(LessonAt::saved))
    }

    fn step(&mut self) -> bool {
        let run = Rc::make_mut(&mut self.run);
        if run.at < run.len() {
            let at = run.at + 1;
            run.seek(at);
            return true;
        }
        match run.act(BatchAction::Step) {
            Ok(()) => true,
            Err(e) => {
                self.notice = Some(Notice::Refused(e));
                false
            }
        }
    }
}

impl Reducible for RoomState {
    type Action = RoomMsg;

    fn reduce(self: Rc<Self>, msg: RoomMsg) -> Rc<Self> {
        let mut s = (*self).clone();
        s.link = None;
        s.asked_lang = None;
        let mut changed = true;
        if !matches!(msg, RoomMsg::Tick | RoomMsg::Speed(_) | RoomMsg::Shared(_)) {
            s.notice = None;
        }
        match msg {
            RoomMsg::Step => {
                s.step();
            }
            RoomMsg::Act(a) => {
                if let Err(e) = Rc::make_mut(&mut s.run).act(a) {
                    s.notice = Some(Notice::Refused(e));
                    s.playing = false;
                }
            }
            RoomMsg::Back => {
                let run = Rc::make_mut(&mut s.run);
                let at = run.at.saturating_sub(1);
                run.seek(at);
                s.playing = false;
            }
            RoomMsg::Seek(at) => {
                Rc::make_mut(&mut s.run).seek(at);
                s.playing = false;
            }
            RoomMsg::ToEnd => {
                let run = Rc::make_mut(&mut s.run);
                let len = run.len();
                run.seek(len);
                run.run_to_end();
                s.playing = false;
            }
            RoomMsg::Reset => {
                let spec = s.run.spec.clone();
                s.run = Rc::new(BatchRun::new(spec).expect("a valid job"));
                s.playing = false;
            }
            RoomMsg::TogglePlay => {
                changed = false;
                if s.playing {
                    s.playing = false;
                } else if s.run.sim().done() && s.run.at == s.run.len() {
                    s.notice = Some(Notice::NothingToPlay);
                } else {
                    s.playing = true;
                }
            }
            RoomMsg::Tick => {
                if !s.playing {
                    return self;
                }
                if !s.step() || (s.run.sim().done() && s.run.at == s.run.len()) {
                    s.playing = false;
                    s.notice = None;
                }
            }
            RoomMsg::Speed(v) => {
                s.speed = v.min(SPEEDS.len() - 1);
                changed = false;
            }
            RoomMsg::Job(job) => {
                s = RoomState { speed: s.speed, ..RoomState::with_job(&job) };
            }
            RoomMsg::Keep(rdd, keep) => {
                let spec = s.run.spec.with_keep(rdd, keep);
                let actions = s.run.actions[..s.run.at].to_vec();
                // The same actions on the changed job, as far as they are still accepted.
                let mut run = BatchRun::new(spec).expect("a valid job");
                for a in actions {
                    if run.act(a).is_err() {
                        break;
                    }
                }
                s.run = Rc::new(run);
                s.job.clear();
                s.playing = false;
            }
            RoomMsg::Load(origin, text) => s.open(origin, text),
            RoomMsg::Lesson(Some(step)) if step < BATCH_LESSON.len() => s.lesson_go(step),
            // Past the last step (PageDown there): the lesson stays where it is.
            RoomMsg::Lesson(Some(_)) => return self,
            RoomMsg::Lesson(None) => s.lesson = None,
            RoomMsg::Predict(name) => {
                if let Some(l) = s.lesson.as_mut().filter(|l| !l.revealed) {
                    if !l.prediction.remove(&name) {
                        l.prediction.insert(name);
                    }
                }
            }
            RoomMsg::Reveal => {
                if let Some(l) = s.lesson.as_mut() {
                    l.revealed = true;
                    Rc::make_mut(&mut s.run).run_to_end();
                    s.playing = false;
                }
            }
            RoomMsg::Dismiss => changed = false,
            RoomMsg::Shared(url) => {
                s.link = Some(url);
                changed = false;
            }
        }
        if changed {
            s.revision += 1;
        }
        Rc::new(s)
    }
}
