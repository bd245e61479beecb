//! The Batch room's session: the batch run on screen (a [`BatchRun`]: the job, its actions and the
//! playhead), Play and its speed, the lesson's place, the last notice and the link the Share button
//! made. The room draws it and sends it [`BatchCommand`](crate::classroom::batch_room::BatchCommand)s
//! (`handle.rs`); a batch file (a link, a download, the browser's storage) is [`BatchSession::file`].

use std::rc::Rc;

use crate::classroom::batch_room::lesson::LessonAt;
use crate::classroom::batch_room::notice::BatchNotice;
use crate::classroom::saved_run::Origin;
use crate::engine::batch::format::Opened;
use crate::engine::batch::{batch_job, BatchAction, BatchFile, BatchLoadError, BatchRun, BATCH_JOBS, BATCH_LESSON};
use crate::engine::Lang;

/// Play speeds: milliseconds between steps.
pub const SPEEDS: [u32; 5] = [1200, 800, 500, 300, 150];

/// The job the room opens with.
pub const DEFAULT_JOB: &str = "spark-figure";

#[derive(Clone, Debug, PartialEq)]
pub struct BatchSession {
    /// Shared with the copies a page keeps; changed only through `Rc::make_mut`.
    pub run: Rc<BatchRun>,
    /// Counts the changes to the run or the lesson (what storage keeps).
    pub revision: u64,
    pub playing: bool,
    /// An index into [`SPEEDS`].
    pub speed: usize,
    /// The built-in job shown ("" for one opened from a file or a link).
    pub job: String,
    pub lesson: Option<LessonAt>,
    pub notice: Option<BatchNotice>,
    /// The link the Share button made.
    pub link: Option<String>,
    /// The language a file or a link asked for, for the room to hand to the page.
    pub asked_lang: Option<Lang>,
}

impl BatchSession {
    /// Built-in job `job` (the default one if there is no such job) at its start.
    pub fn with_job(job: &str) -> BatchSession {
        let spec = batch_job(job).unwrap_or_else(|| batch_job(DEFAULT_JOB).expect("built in"));
        BatchSession {
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

    /// The first session: the run in the link, else the one kept in this browser, else the Spark
    /// figure. A bad link says why and leaves the figure.
    pub fn initial(link: Option<Result<String, BatchLoadError>>, stored: Option<String>) -> BatchSession {
        let mut s = BatchSession::with_job(DEFAULT_JOB);
        if let Some(text) = link {
            s.open(Origin::Link, text);
        } else if let Some(text) = stored {
            s.open(Origin::Storage, Ok(text));
            if s.notice == Some(BatchNotice::Opened(Origin::Storage)) {
                s.notice = None;
            }
        }
        s
    }

    /// Opens batch text, or says why not; nothing on screen is lost when it can't be opened.
    pub(super) fn open(&mut self, origin: Origin, text: Result<String, BatchLoadError>) {
        match text.and_then(|t| BatchFile::open(&t, BATCH_LESSON.len())) {
            Ok(Opened { run, lang, lesson, .. }) => {
                let job = BATCH_JOBS
                    .iter()
                    .find(|j| batch_job(j).as_ref() == Some(&run.spec))
                    .map_or(String::new(), |j| j.to_string());
                self.run = Rc::new(run);
                self.job = job;
                self.lesson = lesson.map(LessonAt::of);
                self.asked_lang = Some(lang);
                self.playing = false;
                self.notice = Some(BatchNotice::Opened(origin));
            }
            Err(e) => self.notice = Some(BatchNotice::NotOpened(origin, e)),
        }
    }

    /// The lesson's step `step`: its run, from its job's start.
    pub(super) fn lesson_go(&mut self, step: usize) {
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

    /// Is the playhead at the end of a finished job (nothing left to step)?
    pub fn finished(&self) -> bool {
        self.run.sim().done() && self.run.at == self.run.len()
    }

    /// One step on: through the history, or a new step at its end. False when it was refused (the
    /// notice says why).
    pub(super) fn step(&mut self) -> bool {
        let run = Rc::make_mut(&mut self.run);
        if run.at < run.len() {
            let at = run.at + 1;
            run.seek(at);
            return true;
        }
        match run.act(BatchAction::Step) {
            Ok(()) => true,
            Err(e) => {
                self.notice = Some(BatchNotice::Refused(e));
                false
            }
        }
    }
}
