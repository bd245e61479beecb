//! The room's one reducer: the comparison being built (a [`ComparisonFile`]), its runs stepped
//! to the room's clock, play, the lesson's place and the notice. Every click and key is a
//! [`RoomMsg`]; what reaches the browser (storage, the address bar, a download) happens in
//! effects and callbacks.
//!
//! The clock is the lockstep's tick. X and R move the crash and the restore to the tick the
//! learner stands at, then take that tick's step: the comparison stays a plan that a file, a link
//! and `barrierscope compare` replay the same way.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use crate::classroom::compare_lesson::{self, CRASH, PREDICT, REVEAL, STEPS};
use crate::classroom::saved_comparison::{
    input_choice, input_for, job_choice, three_ways, CompareError, Preset, SavedCompareLesson, SavedComparison,
    MAX_ROOM_TICKS, PRESETS,
};
use crate::engine::comparison::{ComparisonFile, Configuration, CrashPlace, Lockstep, MAX_CONFIGURATIONS};
use crate::engine::scenario::JobRef;
use crate::engine::{Lang, Settings};

/// Where opened text came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Link,
    File,
    Storage,
    /// The lesson set up its comparison.
    Lesson,
}

/// What the room says above its runs.
#[derive(Clone, Debug, PartialEq)]
pub enum RoomNotice {
    /// Opened text could not be opened: nothing on screen changed.
    Refused(Source, CompareError),
    /// A change the room refused, in both languages.
    Said(String, String),
    Opened(Source),
}

pub enum RoomMsg {
    Step,
    Back,
    ToStart,
    ToEnd,
    TogglePlay,
    Tick,
    Speed(usize),
    CrashNow,
    RestoreNow,
    Job(String),
    Input(usize, u64),
    /// Run `i` takes this preset, or (None) is removed.
    Run(usize, Option<usize>),
    /// `"cluster"`, `"master"` or a task's name.
    Place(String),
    CrashAt(u64),
    RestoreAt(u64),
    /// The main screen's job and settings as the first run.
    FromMain(String, Box<Settings>),
    Open(Source, Result<Box<(SavedComparison, Lockstep)>, CompareError>),
    Shared(String),
    Dismiss,
    LessonStart,
    LessonNext,
    LessonPrev,
    LessonClose,
    Predict(String, usize),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LessonState {
    pub step: usize,
    pub predictions: BTreeMap<String, usize>,
}

#[derive(Clone)]
pub struct RoomState {
    pub file: ComparisonFile,
    pub lock: Rc<RefCell<Lockstep>>,
    pub playing: bool,
    pub speed: usize,
    pub notice: Option<RoomNotice>,
    pub lesson: Option<LessonState>,
    pub link: Option<String>,
    /// The language of the comparison last opened, if it had one.
    pub lang: Option<Lang>,
    /// Counts every message.
    pub version: u64,
}

impl PartialEq for RoomState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.lock, &other.lock) && self.version == other.version
    }
}

/// Play speeds: milliseconds between ticks.
pub const SPEEDS: [u32; 5] = [600, 300, 150, 70, 30];

impl RoomState {
    pub fn new(file: ComparisonFile, lang: Option<Lang>) -> RoomState {
        let lock = Lockstep::new(&file).unwrap_or_else(|_| Lockstep::new(&three_ways()).expect("three ways runs"));
        RoomState {
            file,
            lock: Rc::new(RefCell::new(lock)),
            playing: false,
            speed: 2,
            notice: None,
            lesson: None,
            link: None,
            lang,
            version: 0,
        }
    }

    /// The room's first state: the comparison in the link, else the last one kept in this
    /// browser, else the article's three ways. A bad link or entry says why and is not used.
    pub fn initial(link: Option<Result<String, CompareError>>, stored: Option<String>, lang: Lang) -> RoomState {
        let mut state = RoomState::new(three_ways(), Some(lang));
        let mut refused = None;
        if let Some(text) = link {
            match text.and_then(|t| SavedComparison::open("link", &t)) {
                Ok(opened) => {
                    state.adopt(opened);
                    state.notice = Some(RoomNotice::Opened(Source::Link));
                    return state;
                }
                Err(e) => refused = Some(RoomNotice::Refused(Source::Link, e)),
            }
        }
        if let Some(text) = stored {
            match SavedComparison::open("storage", &text) {
                Ok(opened) => state.adopt(opened),
                Err(e) => refused = refused.or(Some(RoomNotice::Refused(Source::Storage, e))),
            }
        }
        state.notice = refused;
        state
    }

    fn adopt(&mut self, (saved, lock): (SavedComparison, Lockstep)) {
        self.file = saved.comparison;
        self.lock = Rc::new(RefCell::new(lock));
        self.lang = saved.lang;
        self.lesson = saved.lesson.map(|l| LessonState { step: l.step, predictions: l.predictions });
        self.playing = false;
    }

    pub fn tick(&self) -> u64 {
        self.lock.borrow().tick
    }

    /// Have the runs all finished (or reached the room's limit)?
    pub fn at_end(&self) -> bool {
        let l = self.lock.borrow();
        l.finished() || l.tick >= MAX_ROOM_TICKS
    }

    /// The comparison with the clock, as a link, a file and storage keep it.
    pub fn saved(&self) -> SavedComparison {
        let mut s = SavedComparison::new(self.file.clone(), self.tick(), self.lang);
        s.lesson =
            self.lesson.as_ref().map(|l| SavedCompareLesson { step: l.step, predictions: l.predictions.clone() });
        s
    }

    /// Why X is refused now, if it is.
    pub fn crash_refusal(&self, l: Lang) -> Option<&'static str> {
        if self.tick() > self.file.crash.at {
            Some(l.t(
                "the runs have crashed already: a comparison has one crash",
                "各运行已经崩溃过：一个比较只有一次崩溃",
            ))
        } else if self.at_end() {
            Some(l.t("the runs have finished", "各运行已经结束"))
        } else {
            None
        }
    }

    /// Why R is refused now, if it is.
    pub fn restore_refusal(&self, l: Lang) -> Option<&'static str> {
        if self.tick() <= self.file.crash.at {
            Some(l.t("nothing to restore: the crash has not struck yet", "无可恢复：崩溃尚未发生"))
        } else if self.tick() >= self.file.restore.at {
            Some(l.t("the restore has come already", "恢复已经进行过"))
        } else {
            None
        }
    }

    /// The runs of `file` stepped to `tick` (or to their end, if sooner).
    fn rebuild(&mut self, tick: u64) {
        let mut l = match Lockstep::new(&self.file) {
            Ok(l) => l,
            Err(_) => return,
        };
        while l.tick < tick && l.step().unwrap_or(false) {}
        self.lock = Rc::new(RefCell::new(l));
    }

    /// A new comparison from the form: refused, with the reason, if it can't run; else the
    /// clock goes back to 0.
    fn change(&mut self, f: impl FnOnce(&mut ComparisonFile)) {
        let mut file = self.file.clone();
        f(&mut file);
        if let Err(e) = Lockstep::new(&file) {
            let en = e.to_string();
            self.notice = Some(RoomNotice::Said(format!("Not changed: {en}"), format!("未更改：{en}")));
            return;
        }
        self.file = file;
        self.file.name.clear();
        self.file.description.clear();
        self.playing = false;
        self.rebuild(0);
    }

    fn step(&mut self) -> bool {
        if self.at_end() {
            return false;
        }
        let mut l = self.lock.borrow_mut();
        l.step().unwrap_or(false)
    }

    /// Marks the runs finished when they have nothing left to do, so that Step and Play are
    /// refused at the end rather than doing nothing (the lockstep finds out by trying a tick).
    fn settle(&mut self) {
        let mut probe = self.lock.borrow().clone();
        if !probe.finished() && !probe.step().unwrap_or(true) {
            self.lock = Rc::new(RefCell::new(probe));
        }
    }

    fn run_to_end(&mut self) {
        while self.step() {}
    }

    /// Steps (or goes back) to `tick`.
    fn go_to(&mut self, tick: u64) {
        if tick < self.tick() {
            self.rebuild(tick);
        }
        while self.tick() < tick && self.step() {}
    }
}

/// The crash place a form value names.
pub fn place_of(value: &str) -> CrashPlace {
    match value {
        "cluster" => CrashPlace::Cluster,
        "master" => CrashPlace::Master,
        task => CrashPlace::WorkerRunning(task.to_string()),
    }
}

pub fn place_value(p: &CrashPlace) -> String {
    match p {
        CrashPlace::Cluster => "cluster".into(),
        CrashPlace::Master => "master".into(),
        CrashPlace::WorkerRunning(t) => t.clone(),
    }
}

impl Reducible for RoomState {
    type Action = RoomMsg;

    fn reduce(self: Rc<Self>, msg: RoomMsg) -> Rc<Self> {
        let mut next = (*self).clone();
        next.link = None;
        if !matches!(msg, RoomMsg::Tick | RoomMsg::Speed(_) | RoomMsg::Shared(_)) {
            next.notice = None;
        }
        match msg {
            RoomMsg::Step => {
                next.step();
            }
            RoomMsg::Back => {
                let t = next.tick().saturating_sub(1);
                next.rebuild(t);
            }
            RoomMsg::ToStart => next.rebuild(0),
            RoomMsg::ToEnd => next.run_to_end(),
            RoomMsg::TogglePlay => next.playing = !next.playing && !next.at_end(),
            RoomMsg::Tick => {
                if !next.playing {
                    return self;
                }
                if !next.step() || next.at_end() {
                    next.playing = false;
                }
            }
            RoomMsg::Speed(s) => next.speed = s.min(SPEEDS.len() - 1),
            RoomMsg::CrashNow => {
                if next.crash_refusal(Lang::En).is_some() {
                    return self;
                }
                let t = next.tick();
                let gap = next.file.restore.at - next.file.crash.at;
                next.file.crash.at = t;
                next.file.restore.at = t + gap;
                next.rebuild(t);
                next.step();
            }
            RoomMsg::RestoreNow => {
                if next.restore_refusal(Lang::En).is_some() {
                    return self;
                }
                let t = next.tick();
                next.file.restore.at = t;
                next.rebuild(t);
                next.step();
            }
            RoomMsg::Job(job) => next.change(|f| {
                let (n, every) = input_choice(f).unwrap_or((10, 10));
                f.job = JobRef::Builtin(job.clone());
                f.input = input_for(&job, n, every);
                if let CrashPlace::WorkerRunning(_) = f.crash.place {
                    let count = if job == "keyed-shuffle" { "Count[0]" } else { "Count" };
                    f.crash.place = CrashPlace::WorkerRunning(count.into());
                }
            }),
            RoomMsg::Input(n, every) => next.change(|f| {
                let job = job_choice(f).unwrap_or("line-sink");
                f.job = JobRef::Builtin(job.into());
                f.input = input_for(job, n, every);
            }),
            RoomMsg::Run(i, preset) => next.change(|f| match preset {
                Some(p) if i < f.configurations.len() => f.configurations[i] = PRESETS[p].configuration(),
                Some(p) if i < MAX_CONFIGURATIONS => f.configurations.push(PRESETS[p].configuration()),
                None if i < f.configurations.len() && f.configurations.len() > 1 => {
                    f.configurations.remove(i);
                }
                _ => {}
            }),
            RoomMsg::Place(p) => next.change(|f| f.crash.place = place_of(&p)),
            RoomMsg::CrashAt(t) => next.change(|f| {
                let gap = f.restore.at.saturating_sub(f.crash.at).max(1);
                f.crash.at = t;
                if f.restore.at <= t {
                    f.restore.at = t + gap;
                }
            }),
            RoomMsg::RestoreAt(t) => next.change(|f| f.restore.at = t),
            RoomMsg::FromMain(job, settings) => {
                if !crate::classroom::saved_comparison::JOBS.contains(&job.as_str()) {
                    next.notice = Some(RoomNotice::Said(
                        format!("The main screen runs {job}; the side-by-side view runs line-sink or keyed-shuffle."),
                        format!("主界面运行的是 {job}；并排视图只运行 line-sink 或 keyed-shuffle。"),
                    ));
                } else {
                    next.change(|f| {
                        if job_choice(f) != Some(job.as_str()) {
                            let (n, every) = input_choice(f).unwrap_or((10, 10));
                            f.job = JobRef::Builtin(job.clone());
                            f.input = input_for(&job, n, every);
                            if let CrashPlace::WorkerRunning(_) = f.crash.place {
                                let count = if job == "keyed-shuffle" { "Count[0]" } else { "Count" };
                                f.crash.place = CrashPlace::WorkerRunning(count.into());
                            }
                        }
                        f.configurations[0] =
                            Configuration { name: "The main screen's run".into(), settings: *settings };
                    });
                }
            }
            RoomMsg::Open(source, Ok(opened)) => {
                next.adopt(*opened);
                next.notice = Some(RoomNotice::Opened(source));
            }
            RoomMsg::Open(source, Err(e)) => next.notice = Some(RoomNotice::Refused(source, e)),
            RoomMsg::Shared(url) => next.link = Some(url),
            RoomMsg::Dismiss => {}
            RoomMsg::LessonStart => {
                next.file = three_ways();
                next.playing = false;
                next.rebuild(0);
                next.lesson = Some(LessonState::default());
                next.notice = Some(RoomNotice::Opened(Source::Lesson));
            }
            RoomMsg::LessonNext => {
                let Some(mut lesson) = next.lesson.clone() else { return self };
                if lesson.step == PREDICT && lesson.predictions.len() < compare_lesson::QUESTIONS.len() {
                    return self;
                }
                if lesson.step + 1 < STEPS {
                    lesson.step += 1;
                }
                next.playing = false;
                if lesson.step == CRASH && next.tick() <= next.file.crash.at {
                    let t = next.file.crash.at + 1;
                    next.go_to(t);
                }
                if lesson.step >= REVEAL {
                    next.run_to_end();
                }
                next.lesson = Some(lesson);
            }
            RoomMsg::LessonPrev => {
                if let Some(l) = next.lesson.as_mut() {
                    l.step = l.step.saturating_sub(1);
                }
            }
            RoomMsg::LessonClose => next.lesson = None,
            RoomMsg::Predict(q, run) => {
                if let Some(l) = next.lesson.as_mut() {
                    if l.step == PREDICT {
                        l.predictions.insert(q, run);
                    }
                }
            }
        }
        next.settle();
        if next.at_end() {
            next.playing = false;
        }
        next.version += 1;
        Rc::new(next)
    }
}

/// The preset index a configuration is, if it is one.
pub fn preset_index(c: &Configuration) -> Option<usize> {
    Preset::of(c).and_then(|p| PRESETS.iter().position(|x| x.id == p.id))
}
