//! A session saved to and opened from a [`SavedRun`] (a link, a file, the browser's storage), or
//! a lesson file: everything is checked before the current run is replaced, so a bad input names
//! its problem and loses nothing.

use super::command::*;
use super::notice::*;
use super::state::*;
use crate::classroom::saved_run::{LoadError, Origin, SavedLesson, SavedRun, SAVED_VERSION};
use crate::engine::*;

impl Session {
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
                checkpoint_guess: p.checkpoint_guess,
                took_over: self.took_over,
            }),
            lang,
            restore: self.change.as_ref().map(|c| (**c).clone()),
            lesson_file: self.lesson.as_ref().and_then(|p| crate::classroom::curriculum::file_text(p.lesson)),
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
            crate::classroom::curriculum::open_file(file).map_err(LoadError::LessonFile)?;
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
pub(super) fn lesson_to_open(text: &str) -> Option<Result<usize, crate::classroom::LessonError>> {
    if let Some(id) = text.strip_prefix("lesson:") {
        // A whole file in base64url, or a built-in lesson's id.
        let file = crate::classroom::from_base64url(id).and_then(|b| String::from_utf8(b).ok());
        if let Some(file) = file.filter(|t| crate::classroom::is_lesson_file(t)) {
            return Some(crate::classroom::curriculum::open_file(&file));
        }
        let i = crate::classroom::curriculum::builtins().iter().position(|l| l.id == id);
        return Some(i.ok_or_else(|| crate::classroom::LessonError {
            step: None,
            field: "id".into(),
            en: format!("no built-in lesson is called {:?}", id.chars().take(40).collect::<String>()),
            zh: format!("没有名为 {:?} 的内置课程", id.chars().take(40).collect::<String>()),
        }));
    }
    crate::classroom::is_lesson_file(text).then(|| crate::classroom::curriculum::open_file(text))
}
