//! The page's state and its messages: what the one reducer holds ([`UiState`]), every click and
//! key as a [`Msg`], and what components are handed of it (the [`Run`] they draw, the
//! [`Dispatch`] they send through, [`Shared`] values compared by pointer). The reducer itself, which
//! reaches the parts of the page, is in `mod.rs`; this file knows none of them.

use std::cell::{Ref, RefCell};
use std::ops::Deref;
use std::rc::Rc;

use yew::prelude::*;

use super::decisive;
use super::room::Room;
use super::text::Lang;
use crate::classroom::{Command, LoadError, Origin, Session};

/// Play speeds: milliseconds between steps.
pub const SPEEDS: [u32; 8] = [1200, 800, 500, 320, 200, 120, 70, 35];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Narration,
    Checkpoints,
    External,
}

/// A value handed to components by pointer: two are equal when they are the same one (the run's
/// job graph, the session for the buttons that read it when pressed).
pub struct Shared<T>(pub Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The session as a component that draws it sees it: equal while it is the same session and has
/// not changed since.
#[derive(Clone)]
pub struct Run {
    session: Rc<RefCell<Session>>,
    revision: u64,
}

impl PartialEq for Run {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.session, &other.session) && self.revision == other.revision
    }
}

impl Run {
    pub fn session(&self) -> Ref<'_, Session> {
        self.session.borrow()
    }
}

/// What components hold to send messages; equal across renders.
pub type Dispatch = UseReducerDispatcher<UiState>;

#[derive(Clone)]
pub struct UiState {
    pub session: Rc<RefCell<Session>>,
    /// Counts the messages that may have changed the session.
    pub revision: u64,
    /// Counts every message.
    pub version: u64,
    pub playing: bool,
    pub speed: usize,
    pub tab: Tab,
    pub lang: Lang,
    pub presenter: bool,
    /// The screen is blanked (B, as in presentation software).
    pub blank: bool,
    /// The window's kind of screen, for the drawing (a phone's is drawn upright).
    pub screen: super::canvas::Screen,
    /// The link made by the Share button, shown for copying.
    pub link: Option<String>,
    /// Whether the browser copied that link to the clipboard (None: not answered yet).
    pub copied: Option<bool>,
    /// The room open over the run, if any (the run stays as it is underneath).
    pub room: Option<Room>,
    /// The run from the link or the browser's storage, to open once the sharing part is there
    /// (and the lessons', if it stands in one).
    pub deferred: Option<(Origin, Result<String, LoadError>)>,
    /// A counterexample's decisive steps, while its run is on screen.
    pub marks: Option<Rc<decisive::Marks>>,
}

impl PartialEq for UiState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.session, &other.session)
            && self.revision == other.revision
            && self.version == other.version
            && self.playing == other.playing
            && self.speed == other.speed
            && self.tab == other.tab
            && self.lang == other.lang
            && self.presenter == other.presenter
            && self.blank == other.blank
            && self.screen == other.screen
            && self.link == other.link
            && self.copied == other.copied
            && self.room == other.room
            && self.marks == other.marks
    }
}

pub enum Msg {
    Cmd(Command),
    /// Blank the screen or bring it back (B).
    Blank(bool),
    /// The window was resized to another kind of screen.
    Screen(super::canvas::Screen),
    /// On a predict step: cycle the mark of the record of this index (keys 1–9).
    PredictNth(usize),
    TogglePlay,
    Tick,
    Speed(usize),
    Tab(Tab),
    Lang(Lang),
    Presenter(bool),
    /// Open a saved run (from a link, a file or storage); the current run stays if it is bad.
    Load(Origin, Result<String, LoadError>),
    /// The Share button put the run in this link (and the link in the address bar).
    Shared(String),
    /// The browser copied the link to the clipboard, or refused to.
    Copied {
        url: String,
        ok: bool,
    },
    /// The Export button offered the run as a file.
    Exported,
    /// Deliver the oldest completion notification on its way (key N).
    NotifyFirst,
    /// Open a room over the run, or close it (None).
    Room(Option<Room>),
    /// Open a counterexample of the schedule explorer (saved-run text) in place of the run, with
    /// its decisive steps marked; the room closes.
    OpenMarked(Rc<(String, decisive::Marks)>),
    /// Hide the decisive steps.
    ClearMarks,
    /// A run restored into a changed program (the Program & savepoints room) replaces the run;
    /// the room stays open.
    Restored(Rc<Session>),
    /// The lessons' part could not be fetched.
    PartUnavailable,
    /// A part arrived whose words the main screen shows (the Storm and Spark Streaming bands).
    PartLoaded,
}

impl UiState {
    pub fn run(&self) -> Run {
        Run { session: self.session.clone(), revision: self.revision }
    }
}
