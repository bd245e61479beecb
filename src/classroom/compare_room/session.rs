//! Side by side's session: the comparison being built (a [`ComparisonFile`]: one job, one input,
//! one crash, up to three runs), its runs stepped to the room's clock (a [`Lockstep`]), Play, the
//! lesson's place, the notice, the link the Share button made and the language of what was last
//! opened. The room draws it and sends it [`CompareCommand`](crate::classroom::compare_room::CompareCommand)s;
//! what a link, a file and storage keep is [`CompareSession::saved`].
//!
//! The clock is the lockstep's tick. X and R move the crash and the restore to the tick the
//! learner stands at, then take that tick's step: the comparison stays a plan that a file, a link
//! and `barrierscope compare` replay the same way.

use crate::classroom::compare_lesson::SavedCompareLesson;
use crate::classroom::compare_room::notice::CompareNotice;
use crate::classroom::saved_comparison::{three_ways, CompareError, SavedComparison, MAX_ROOM_TICKS};
use crate::classroom::saved_run::Origin;
use crate::engine::comparison::{ComparisonFile, Lockstep};
use crate::engine::Lang;

/// Play speeds: milliseconds between ticks.
pub const SPEEDS: [u32; 5] = [600, 300, 150, 70, 30];

#[derive(Clone, Debug)]
pub struct CompareSession {
    pub file: ComparisonFile,
    /// The runs of `file`, stepped to the clock.
    pub lock: Lockstep,
    pub playing: bool,
    /// An index into [`SPEEDS`].
    pub speed: usize,
    pub notice: Option<CompareNotice>,
    /// The learner's place in the lesson, as it is saved.
    pub lesson: Option<SavedCompareLesson>,
    pub link: Option<String>,
    /// The language of the comparison last opened, if it had one.
    pub lang: Option<Lang>,
    /// Counts every command carried out.
    pub version: u64,
}

impl CompareSession {
    /// `file`'s runs at tick 0 (the article's three ways if `file` can't run).
    pub fn new(file: ComparisonFile, lang: Option<Lang>) -> CompareSession {
        let lock = Lockstep::new(&file).unwrap_or_else(|_| Lockstep::new(&three_ways()).expect("three ways runs"));
        CompareSession {
            file,
            lock,
            playing: false,
            speed: 2,
            notice: None,
            lesson: None,
            link: None,
            lang,
            version: 0,
        }
    }

    /// The room's first session: the comparison in the link, else the last one kept in this
    /// browser, else the article's three ways. A bad link or entry says why and is not used.
    pub fn initial(link: Option<Result<String, CompareError>>, stored: Option<String>, lang: Lang) -> CompareSession {
        let mut session = CompareSession::new(three_ways(), Some(lang));
        let mut refused = None;
        if let Some(text) = link {
            match text.and_then(|t| SavedComparison::open("link", &t)) {
                Ok(opened) => {
                    session.adopt(opened);
                    session.notice = Some(CompareNotice::Opened(Origin::Link));
                    return session;
                }
                Err(e) => refused = Some(CompareNotice::Refused(Origin::Link, e)),
            }
        }
        if let Some(text) = stored {
            match SavedComparison::open("storage", &text) {
                Ok(opened) => session.adopt(opened),
                Err(e) => refused = refused.or(Some(CompareNotice::Refused(Origin::Storage, e))),
            }
        }
        session.notice = refused;
        session
    }

    /// An opened comparison, at its saved clock and lesson place.
    pub(super) fn adopt(&mut self, (saved, lock): (SavedComparison, Lockstep)) {
        self.file = saved.comparison;
        self.lock = lock;
        self.lang = saved.lang;
        self.lesson = saved.lesson;
        self.playing = false;
    }

    /// The clock: the next tick.
    pub fn tick(&self) -> u64 {
        self.lock.tick
    }

    /// Have the runs all finished (or reached the room's limit)?
    pub fn at_end(&self) -> bool {
        self.lock.finished() || self.lock.tick >= MAX_ROOM_TICKS
    }

    /// The comparison with the clock, as a link, a file and storage keep it.
    pub fn saved(&self) -> SavedComparison {
        let mut s = SavedComparison::new(self.file.clone(), self.tick(), self.lang);
        s.lesson = self.lesson.clone();
        s
    }
}
