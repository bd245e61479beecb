//! The page's one reducer: it owns the learner's session and does nothing else. Every click and
//! key is a [`Msg`]; the reducer hands the session its command, or changes what the page shows
//! (the tab, the language, presenter mode, a room), and counts a revision when the run changed.
//! What reaches outside the page state happens in effects and callbacks (`effects.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::app::room::Room;
use crate::app::screen::{embedded, window_screen};
use crate::app::text::Lang;
use crate::app::ui_state::{Msg, Tab, UiState, SPEEDS};
use crate::app::{share_bar, sharing_part};
use crate::classroom::{Command, LoadError, Notice, Origin, RunConfig, Session};
use crate::engine::Action;

/// The notification the N key delivers: the oldest on its way; with none, one to the first sink
/// (or task), refused with the reason.
fn first_notification(sim: &crate::engine::Sim) -> Action {
    let task = sim.notifications().first().map(|n| n.task).unwrap_or_else(|| {
        let sink = sim.graph.tasks.iter().position(|t| t.kind == crate::engine::OperatorKind::Sink);
        crate::engine::TaskId(sink.unwrap_or(0) as u16)
    });
    Action::Notify { task }
}

impl UiState {
    pub fn new(config: RunConfig) -> UiState {
        // A match, not `expect`: one use of `ScenarioError`'s `Debug` less in the main module (20 bytes
        // gzipped; the engine's own uses keep the `Debug` itself).
        let session = Session::new(config).unwrap_or_else(|_| match Session::new(RunConfig::default()) {
            Ok(session) => session,
            Err(_) => panic!("the default run is valid"),
        });
        UiState {
            session: Rc::new(RefCell::new(session)),
            revision: 0,
            version: 0,
            playing: false,
            speed: 3,
            tab: Tab::Narration,
            lang: Lang::En,
            presenter: false,
            blank: false,
            screen: window_screen(),
            link: None,
            copied: None,
            room: None,
            deferred: None,
            marks: None,
        }
    }

    /// The first state of the page: the run in the link, else the last run kept in this browser,
    /// else the a, b, c story. A bad link or stored entry says why and leaves the story.
    pub fn initial() -> UiState {
        let mut state = UiState::new(RunConfig::default());
        // Embedded in a slide (`?embed`): presenter mode, always (style.css hides the rest).
        state.presenter = embedded();
        // The run to open is read at once; it opens as soon as the sharing part is there (the page
        // says it is ready only then).
        state.deferred = if let Some(room) = share_bar::room_in_link() {
            state.room = Some(room);
            share_bar::stored_text().map(|t| (Origin::Storage, Ok(t)))
        } else if let Some(text) = share_bar::link_text() {
            Some((Origin::Link, text))
        } else {
            share_bar::stored_text().map(|t| (Origin::Storage, Ok(t)))
        };
        state
    }

    fn open(&mut self, origin: Origin, text: Result<String, LoadError>) {
        self.deferred = None;
        let Some(sharing) = sharing_part::sharing_now() else {
            self.session.borrow_mut().notice = Some(Notice::PartUnavailable);
            return;
        };
        let opened = (sharing.open)(&mut self.session.borrow_mut(), origin, text);
        if let Some(lang) = opened {
            self.lang = lang;
            self.playing = false;
        }
        // A lesson opened from a file or a link starts paused, in the page's language.
        if matches!(self.session.borrow().notice, Some(Notice::Done(_))) {
            self.playing = false;
        }
    }
}

impl Reducible for UiState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut next = (*self).clone();
        // The link shows until the next message (but the clipboard's answer about it).
        if !matches!(&msg, Msg::Copied { url, .. } if self.link.as_ref() == Some(url)) {
            next.link = None;
            next.copied = None;
        }
        let mut session_changed = true;
        let msg = match msg {
            Msg::NotifyFirst => Msg::Cmd(Command::Act(first_notification(next.session.borrow().sim()))),
            msg => msg,
        };
        match msg {
            Msg::Cmd(cmd) => {
                let reconfig = matches!(cmd, Command::Configure(_) | Command::Reset);
                let acted = matches!(cmd, Command::Act(_));
                let ok = next.session.borrow_mut().handle(cmd);
                if reconfig || (acted && !ok) {
                    next.playing = false;
                }
                // A lesson step without the diagram goes back to the run (the space-time room shows
                // the lesson bar only on the steps that use it).
                let diagram = next.session.borrow().lesson.as_ref().map(|p| p.current().diagram);
                if next.room == Some(Room::SpaceTime) && diagram.is_some_and(|d| d == crate::classroom::OnDiagram::No) {
                    next.room = None;
                }
            }
            Msg::TogglePlay => {
                if next.playing {
                    next.playing = false;
                    session_changed = false;
                } else {
                    let mut s = next.session.borrow_mut();
                    if s.at_end() && !s.sim().has_work() {
                        s.notice = Some(Notice::NothingToPlay);
                    } else {
                        s.notice = None;
                        next.playing = true;
                    }
                }
            }
            Msg::Tick => {
                if !next.playing {
                    return self;
                }
                if !next.session.borrow_mut().handle(Command::Tick) {
                    next.playing = false;
                }
            }
            Msg::OpenMarked(opened) => {
                let (text, marks) = &*opened;
                next.open(Origin::Link, Ok(text.clone()));
                let mut s = next.session.borrow_mut();
                if matches!(s.notice, Some(Notice::Opened(_))) && marks.fit(s.timeline.actions()) {
                    s.notice = None;
                    next.marks = Some(Rc::new(marks.clone()));
                    next.room = None;
                }
            }
            Msg::ClearMarks => next.marks = None,
            Msg::Restored(session) => {
                next.marks = None;
                next.playing = false;
                *next.session.borrow_mut() = (*session).clone();
            }
            Msg::Load(origin, text) => {
                next.marks = None;
                next.open(origin, text);
                // The last run kept in this browser reopens without a word, as at the start.
                if origin == Origin::Storage && matches!(next.session.borrow().notice, Some(Notice::Opened(_))) {
                    next.session.borrow_mut().notice = None;
                }
            }
            Msg::Speed(s) => {
                next.speed = s.min(SPEEDS.len() - 1);
                session_changed = false;
            }
            Msg::Tab(t) => {
                next.tab = t;
                session_changed = false;
            }
            Msg::Lang(l) => {
                next.lang = l;
                session_changed = false;
            }
            Msg::Presenter(on) => {
                next.presenter = on || embedded();
                session_changed = false;
            }
            Msg::Shared(url) => {
                next.link = Some(url);
                session_changed = false;
            }
            Msg::Copied { ok, .. } => {
                next.copied = next.link.is_some().then_some(ok);
                session_changed = false;
            }
            Msg::PartUnavailable => {
                next.deferred = None;
                next.session.borrow_mut().notice = Some(Notice::PartUnavailable);
            }
            Msg::Room(room) => {
                next.room = room;
                next.playing &= room.is_none();
                session_changed = false;
            }
            Msg::Screen(screen) => {
                next.screen = screen;
                session_changed = false;
            }
            Msg::Blank(on) => {
                next.blank = on;
                session_changed = false;
            }
            Msg::PredictNth(n) => {
                let mut s = next.session.borrow_mut();
                let awaiting = s.lesson.as_ref().filter(|p| p.awaiting_reveal()).map(|p| p.current().predict);
                match awaiting {
                    // A checkpoint's prediction: 1 completes, 2 fails.
                    Some(Some(crate::classroom::Judge::Checkpoint(_))) if n < 2 => {
                        s.handle(Command::PredictCheckpoint(n == 0));
                    }
                    Some(Some(crate::classroom::Judge::Checkpoint(_))) => session_changed = false,
                    Some(_) => {
                        let label = s.sim().graph.records.get(n).map(|r| r.label.clone());
                        let current =
                            label.as_ref().and_then(|l| s.lesson.as_ref().and_then(|p| p.predictions.get(l).copied()));
                        match label {
                            Some(label) => {
                                s.handle(Command::Predict(label, crate::classroom::next_guess(current)));
                            }
                            None => session_changed = false,
                        }
                    }
                    None => session_changed = false,
                }
            }
            Msg::PartLoaded => {}
            Msg::Exported | Msg::NotifyFirst => session_changed = false,
        }
        if next.marks.as_ref().is_some_and(|m| !m.fit(next.session.borrow().timeline.actions())) {
            next.marks = None;
        }
        if session_changed {
            next.revision += 1;
        }
        next.version += 1;
        Rc::new(next)
    }
}
