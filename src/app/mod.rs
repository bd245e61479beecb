//! The browser app: a thin Yew layer over [`crate::classroom::Session`]. One reducer owns the
//! session and does nothing else: every click and key becomes a [`Msg`], and what reaches outside
//! the page state (storage, the address bar, the clipboard, a download) happens in effects and
//! callbacks. The page is a tree of components whose props compare cheaply, so a step redraws the
//! parts it changed and Yew skips the rest.

pub mod acker_view;
pub mod announcer;
pub mod bands_part;
pub mod canvas;
pub mod classroom;
pub mod controls;
pub mod decisive;
pub mod decisive_view;
pub mod drawing_catalogue;
pub mod files;
pub mod focus;
pub mod key_colours;
pub mod lesson_bar;
pub mod lesson_frame;
pub mod lessons_part;
pub mod mechanism_drawing;
pub mod panels;
pub mod pieces;
pub mod pressable;
pub mod room;
pub mod room_loader;
pub mod rooms;
pub mod settings_form;
pub mod sharing_part;
pub mod spark_drawing;
pub mod spark_view;
pub mod split_point;
pub mod storm_drawing;
pub mod svg_number;
pub mod svg_text;
pub mod text;
pub mod timers_drawing;
pub mod ui_state;
pub mod words_part;

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Interval;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::classroom::{Command, LoadError, Notice, Origin, RunConfig, Session};
use crate::engine::Action;
use room::Room;
use room_loader::{Piece, PieceSlot, RoomDoor};
use text::Lang;
pub use ui_state::{Dispatch, Msg, Run, Shared, Tab, UiState, SPEEDS};

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
        let session =
            Session::new(config).unwrap_or_else(|_| Session::new(RunConfig::default()).expect("default runs"));
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
        state.deferred = if let Some(room) = classroom::room_in_link() {
            state.room = Some(room);
            classroom::stored_text().map(|t| (Origin::Storage, Ok(t)))
        } else if let Some(text) = classroom::link_text() {
            Some((Origin::Link, text))
        } else {
            classroom::stored_text().map(|t| (Origin::Storage, Ok(t)))
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
                let label = s.sim().graph.records.get(n).map(|r| r.label.clone());
                let current =
                    label.as_ref().and_then(|l| s.lesson.as_ref().and_then(|p| p.predictions.get(l).copied()));
                match label {
                    Some(label) if s.lesson.as_ref().is_some_and(|p| p.awaiting_reveal()) => {
                        s.handle(Command::Predict(label, crate::classroom::next_guess(current)));
                    }
                    _ => session_changed = false,
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

/// Whether the page is embedded in a slide: `?embed` in its address. It then shows only the
/// canvas, the step controls and the lesson, and takes its run or lesson from the link.
pub fn embedded() -> bool {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    search.trim_start_matches('?').split('&').any(|p| p == "embed" || p.starts_with("embed="))
}

/// Mounts the app on the page, replacing the loading notice.
pub fn start() {
    let doc = web_sys::window().and_then(|w| w.document()).expect("a document");
    if embedded() {
        if let Some(html) = doc.document_element() {
            let _ = html.set_attribute("data-embed", "");
        }
    }
    if let Some(boot) = doc.get_element_by_id("boot") {
        boot.remove();
    }
    let root = doc.create_element("div").expect("div");
    root.set_id("app-root");
    doc.body().expect("body").append_child(&root).expect("append");
    yew::Renderer::<App>::with_root(root).render();
}

/// The kind of screen of the window, by its width.
fn window_screen() -> canvas::Screen {
    let width = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(1366.0);
    canvas::Screen::of_width(width)
}

/// Moves the focus to the first of these elements that is shown.
fn focus_first(ids: &[&str]) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    for id in ids {
        let Some(el) = doc.get_element_by_id(id) else { continue };
        if el.get_client_rects().length() == 0 {
            continue;
        }
        if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
            let _ = el.focus();
            return;
        }
    }
}

/// Whether the key's target is a text field, where every key is the field's: an `input` that
/// takes typing (text, number, search, …), a `textarea`, or editable content.
fn in_text_field(e: &KeyboardEvent) -> bool {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return false };
    match el.tag_name().to_ascii_lowercase().as_str() {
        "input" => !matches!(
            el.get_attribute("type").unwrap_or_default().to_ascii_lowercase().as_str(),
            "range" | "button" | "submit" | "reset" | "checkbox" | "radio" | "file" | "color" | "image"
        ),
        "textarea" => true,
        _ => el.is_content_editable(),
    }
}

/// Whether a key is the run's to take: the one rule for every key. Outside a text field, the
/// run's keys act on the run wherever the focus is (a button, a select, a slider, a lane on the
/// canvas), and the focused element never sees them: the plain keys without Ctrl, Alt or Meta,
/// and the chords Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y (⌘ on a Mac). In a text field every key is the
/// field's, Ctrl+Z too (it undoes the typing).
fn belongs_to_run(e: &KeyboardEvent) -> bool {
    !in_text_field(e) && (!(e.ctrl_key() || e.meta_key() || e.alt_key()) || undo_chord(e).is_some())
}

/// Ctrl+Z (undo a fork), Ctrl+Shift+Z or Ctrl+Y (redo), ⌘ for Ctrl on a Mac.
fn undo_chord(e: &KeyboardEvent) -> Option<Command> {
    if !(e.ctrl_key() || e.meta_key()) || e.alt_key() {
        return None;
    }
    match e.key().as_str() {
        "z" | "Z" if e.shift_key() => Some(Command::Redo),
        "z" | "Z" => Some(Command::Undo),
        "y" | "Y" if !e.shift_key() => Some(Command::Redo),
        _ => None,
    }
}

/// Whether the focus is on a control rather than on the page itself.
fn on_control(e: &KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| !matches!(el.tag_name().to_ascii_lowercase().as_str(), "body" | "html"))
}

/// What a keydown does: whether the app takes it (the focused element and the browser do nothing
/// with it), and the message for the run, if any. A run key with nothing to do now (PageDown
/// without a lesson) is still taken from a focused control, so it never changes a select or a
/// slider instead; on the page itself it keeps its meaning (PageDown scrolls).
fn key_action(e: &KeyboardEvent, lesson: bool, presenter: bool) -> (bool, Option<Msg>) {
    match shortcut(e, lesson, presenter) {
        Some(msg) => (true, Some(msg)),
        None => (on_control(e) && shortcut(e, true, true).is_some(), None),
    }
}

/// The keyboard shortcuts. With a lesson open, PageDown/PageUp (a presenter's clicker) step the
/// lesson, and so do the arrows in presenter mode.
fn shortcut(e: &KeyboardEvent, lesson: bool, presenter: bool) -> Option<Msg> {
    if !belongs_to_run(e) {
        return None;
    }
    if let Some(cmd) = undo_chord(e) {
        return Some(Msg::Cmd(cmd));
    }
    let lesson_keys = lesson && presenter;
    let key = e.key();
    // In a lesson, 1–9 mark the record of that number on a predict step (the reducer ignores them
    // on any other step).
    if lesson {
        if let Some(n) = key.parse::<usize>().ok().filter(|n| (1..=9).contains(n)) {
            return Some(Msg::PredictNth(n - 1));
        }
    }
    Some(match key.as_str() {
        // A presenter's clicker sends PageDown and PageUp (some send the arrows, or B and . to
        // blank the screen). Space goes on with the lesson too: it never leaves one.
        "PageDown" if lesson => Msg::Cmd(Command::LessonNext),
        "PageUp" if lesson => Msg::Cmd(Command::LessonPrev),
        " " if lesson => Msg::Cmd(Command::LessonNext),
        "ArrowRight" if lesson_keys => Msg::Cmd(Command::LessonNext),
        "ArrowLeft" if lesson_keys => Msg::Cmd(Command::LessonPrev),
        "b" | "B" | "." => Msg::Blank(true),
        " " => Msg::TogglePlay,
        "ArrowRight" => Msg::Cmd(Command::Forward),
        "ArrowLeft" => Msg::Cmd(Command::Back),
        "c" | "C" => Msg::Cmd(Command::Act(Action::Checkpoint)),
        "t" | "T" => Msg::Cmd(Command::Act(Action::AllTimers)),
        "x" | "X" => Msg::Cmd(Command::Act(Action::Crash)),
        "j" | "J" => Msg::Cmd(Command::Act(Action::CrashJobManager)),
        "r" | "R" => Msg::Cmd(Command::Act(Action::Restore)),
        "w" | "W" => Msg::Cmd(Command::Act(Action::Wait)),
        "n" | "N" => Msg::NotifyFirst,
        "e" | "E" => Msg::Cmd(Command::ToEnd),
        "d" | "D" => Msg::Room(Some(Room::SpaceTime)),
        "p" | "P" => Msg::Presenter(!presenter),
        "Escape" if presenter => Msg::Presenter(false),
        _ => return None,
    })
}

#[component]
pub fn App() -> Html {
    let state = use_reducer(UiState::initial);
    let dispatch = state.dispatcher();
    // What the keyboard listener needs to know, kept current without re-registering it.
    let modes = use_mut_ref(|| (false, false, false, false));
    *modes.borrow_mut() = (state.session.borrow().lesson.is_some(), state.presenter, state.room.is_some(), state.blank);

    // Keyboard control on the whole page, and links opened while the page is open.
    {
        let dispatch = dispatch.clone();
        let modes = modes.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("window");
            let d = dispatch.clone();
            let keys = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                let (lesson, presenter, in_room, blank) = *modes.borrow();
                // A blank screen (B) comes back at any key, which does nothing else, as in
                // presentation software.
                if blank {
                    if !matches!(e.key().as_str(), "Shift" | "Control" | "Alt" | "Meta") {
                        e.prevent_default();
                        d.dispatch(Msg::Blank(false));
                    }
                    return;
                }
                // In a room the run's keys are the room's; Escape goes back to the run.
                if in_room {
                    if !(in_text_field(&e) || e.ctrl_key() || e.meta_key() || e.alt_key()) {
                        match e.key().as_str() {
                            "Escape" => d.dispatch(Msg::Room(None)),
                            "p" | "P" => d.dispatch(Msg::Presenter(!presenter)),
                            _ => return,
                        }
                        e.prevent_default();
                    }
                    return;
                }
                let (taken, msg) = key_action(&e, lesson, presenter);
                if taken {
                    e.prevent_default();
                }
                if let Some(msg) = msg {
                    d.dispatch(msg);
                }
            });
            let d_screen = dispatch.clone();
            let hash = Closure::<dyn Fn(web_sys::HashChangeEvent)>::new(move |_| {
                if let Some(room) = classroom::room_in_link() {
                    dispatch.dispatch(Msg::Room(Some(room)));
                } else if let Some(text) = classroom::link_text() {
                    classroom::open_text(&dispatch, Origin::Link, text);
                }
            });
            // A phone turned, or a window resized past a kind of screen, draws the job again.
            let screen = {
                let d = d_screen;
                let last = std::cell::Cell::new(window_screen());
                Closure::<dyn Fn()>::new(move || {
                    let now = window_screen();
                    if now != last.replace(now) {
                        d.dispatch(Msg::Screen(now));
                    }
                })
            };
            window.add_event_listener_with_callback("resize", screen.as_ref().unchecked_ref()).expect("listen");
            window.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref()).expect("listen");
            window.add_event_listener_with_callback("hashchange", hash.as_ref().unchecked_ref()).expect("listen");
            move || {
                let _ = window.remove_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref());
                let _ = window.remove_event_listener_with_callback("hashchange", hash.as_ref().unchecked_ref());
                let _ = window.remove_event_listener_with_callback("resize", screen.as_ref().unchecked_ref());
                drop(screen);
                drop(keys);
                drop(hash);
            }
        });
    }
    // The narration's words: fetched once the page has drawn and is interactive (the first screen
    // needs none), or at the first step if that comes sooner (`words_part::use_words`).
    use_effect_with((), |_| {
        let later = gloo_timers::callback::Timeout::new(words_part::AFTER_INTERACTIVE_MS, || {
            words_part::fetch_words(Callback::noop())
        });
        move || drop(later)
    });
    // Keep the last run in this browser (not on every step while playing).
    {
        let state = state.clone();
        let dispatch = dispatch.clone();
        use_effect_with((state.version, state.playing), move |&(version, playing)| {
            // Nothing to keep before the first change (a first visit fetches no sharing part).
            if !playing && version > 0 && state.deferred.is_none() {
                classroom::store(state.session.clone(), state.lang, dispatch);
            }
        });
    }
    // A run from the link or storage that stands in a lesson opens once the lessons are there.
    {
        let dispatch = dispatch.clone();
        let deferred = state.deferred.clone();
        use_effect_with((), move |_| {
            if let Some((origin, text)) = deferred {
                classroom::open_text(&dispatch, origin, text);
            }
        });
    }
    // The open room is in the address bar (#room=NAME), so a reload or a link opens it again.
    use_effect_with(state.room, |&room| classroom::show_room_in_link(room));
    // Back from a room, the focus returns to the button that opened it (in presenter mode, to the
    // fold of the rooms' buttons when that is closed), never to the page's body.
    {
        let was = use_mut_ref(|| None::<Room>);
        use_effect_with(state.room, move |&room| {
            let closed = was.replace(room);
            if let (None, Some(closed)) = (room, closed) {
                focus_first(&[&format!("open-{}", closed.id()), "rooms-fold"]);
            }
        });
    }
    // Play: one step per interval, dropped when paused or the speed changes.
    {
        let dispatch = dispatch.clone();
        use_effect_with((state.playing, state.speed), move |&(playing, speed)| {
            let interval = playing.then(|| Interval::new(SPEEDS[speed], move || dispatch.dispatch(Msg::Tick)));
            move || drop(interval)
        });
    }

    let run = state.run();
    // The notice's words come with the narration's (`words_part.rs`).
    let notice_words = words_part::use_words(state.session.borrow().notice.is_some());

    let l = state.lang;
    let session = state.session.borrow();
    let sim = session.sim();
    let graph = Shared(sim.graph.clone());
    let pos = session.timeline.position();
    let len = session.timeline.len();
    // What a piece or a room is handed.
    let piece_props = {
        let d = dispatch.clone();
        rooms::RoomProps {
            lang: l,
            presenter: state.presenter,
            run: run.clone(),
            dispatch: dispatch.clone(),
            close: Callback::from(move |_| d.dispatch(Msg::Room(None))),
        }
    };
    let ledger = Rc::new(sim.ledger());
    // What the live region says of the step at the playhead.
    let step_words = match session.narration.last() {
        Some(s) if l == Lang::Zh => format!("第 {} 步：{}。", s.step, crate::classroom::step_title(sim, s, l)),
        Some(s) => format!("Step {}: {}.", s.step, crate::classroom::step_title(sim, s, l)),
        None => l.t("At the start of the run.", "在运行的开始。").to_string(),
    };
    let tab_button = |t: Tab, id: &'static str, label: &'static str| {
        let d = dispatch.clone();
        let selected = state.tab == t;
        html! {
            <button role="tab" id={id} aria-selected={selected.to_string()} class={classes!("tab", selected.then_some("selected"))}
                onclick={Callback::from(move |_| d.dispatch(Msg::Tab(t)))}>{ label }</button>
        }
    };

    html! {
        // The page's layout follows the lesson, the drawing's shape and the sink (see style.css).
        <ContextProvider<rooms::RoomProps> context={piece_props.clone()}>
        <div id="app" class={classes!("app", state.playing.then_some("playing"), state.presenter.then_some("presenter"),
                session.lesson.is_some().then_some("in-lesson"), (canvas::shape(&sim.graph) == canvas::Shape::Tall).then_some("tall"),
                sim.graph.has_sink().then_some("with-sink"), state.room.is_some().then_some("in-room"),
                (state.room == Some(Room::SpaceTime) && session.lesson.is_some()).then_some("lesson-in-room"))} data-ready={state.deferred.is_none().to_string()}
             lang={if l == Lang::Zh { "zh-Hans" } else { "en" }} data-lang={l.id()} data-presenter={state.presenter.to_string()}
             data-step={pos.to_string()} data-steps={len.to_string()}>
            // The run's controls; presenter mode packs them into two compact rows.
            <div class="chrome">
                <controls::Controls run={run.clone()} lang={l} playing={state.playing} speed={state.speed} dispatch={dispatch.clone()}
                    marks={state.marks.clone()} />
                <classroom::ShareBar session={Shared(state.session.clone())} lesson={session.lesson.as_ref().map(|p| p.lesson)}
                    file_lesson={session.lesson.as_ref().filter(|p| p.lesson >= crate::classroom::CATALOGUE.len()).map(|p| p.lesson().title)}
                    presenter={state.presenter} link={state.link.clone()} copied={state.copied} lang={l} dispatch={dispatch.clone()}
                    rooms={rooms_menu(l, state.presenter || state.screen == canvas::Screen::Portrait || session.lesson.is_some(), &dispatch)} />
            </div>
            { classroom::notice_bar(session.notice.as_ref(), notice_words, l, &dispatch) }
            <announcer::Announcer lang={l} playing={state.playing} pos={pos} len={len} revision={state.revision}
                step={step_words} ledger={ledger.clone()} />
            if session.lesson.is_some() { <PieceSlot piece={Piece::LessonBar} inner={piece_props.clone()} /> }
            <main class="workspace">
                <div class="canvas-wrap"><canvas::Canvas run={run.clone()} lang={l} dispatch={dispatch.clone()} presenter={state.presenter} screen={state.screen} /></div>
                <div class="tabs">
                    <div role="tablist" aria-label={l.t("Details", "详情")}>
                        { tab_button(Tab::Narration, "tab-narration", l.t("What happened", "发生了什么")) }
                        { tab_button(Tab::Checkpoints, "tab-checkpoints", l.t("Checkpoints", "检查点")) }
                        { tab_button(Tab::External, "tab-external", l.t("External system", "外部系统")) }
                    </div>
                    <div role="tabpanel" class="tab-body" tabindex="0" aria-labelledby={match state.tab {
                        Tab::Narration => "tab-narration",
                        Tab::Checkpoints => "tab-checkpoints",
                        Tab::External => "tab-external",
                    }}>
                        { match state.tab {
                            Tab::Narration => html! { <panels::NarrationPanel run={run.clone()} lang={l} /> },
                            Tab::Checkpoints => html! { <PieceSlot piece={Piece::CheckpointsTab} inner={piece_props.clone()} /> },
                            Tab::External => html! { <PieceSlot piece={Piece::ExternalTab} inner={piece_props.clone()} /> },
                        } }
                    </div>
                </div>
                // The panels get the part of the run they show: one whose part did not change is not
                // drawn again.
                <panels::VerdictPanel ledger={ledger.clone()} graph={graph.clone()} lang={l} down={sim.down().is_some()} chips={state.presenter || session.lesson.is_some()} />
                <panels::StoragePanel storage={sim.storage().clone()} spark={bands_part::bands_now().map(|b| (b.storage_lines)(sim, l)).unwrap_or_default()} strategy={sim.strategy()} graph={graph} lang={l}
                    savepoints={sim.savepoints().to_vec()} stopped={sim.stopped()} first_tick={session.timeline.initial().tick} />
            </main>
            { state.room.map(|room| html! { <RoomDoor {room} inner={piece_props.clone()} run_ready={state.deferred.is_none()} /> }).unwrap_or_default() }
            // B blanks the screen, as presentation software does; any key or a click brings it back.
            if state.blank {
                <div id="blank" class="blank" role="button" tabindex="-1" aria-label={l.t("Blank screen: press any key to come back", "黑屏：按任意键返回")}
                    onclick={{ let d = dispatch.clone(); Callback::from(move |_| d.dispatch(Msg::Blank(false))) }}></div>
            }
        </div>
        </ContextProvider<rooms::RoomProps>>
    }
}

/// The rooms, each a button that opens it over the run (its part of the page loads then), and the
/// ? Help link to the book's "Using the page" (its Chinese page in Chinese), in a new tab so the run
/// stays. In presenter mode they fold into one button, so the drawing keeps its height on a
/// projector; so they do in a lesson and on a phone held upright, so the job comes sooner.
fn rooms_menu(l: Lang, presenter: bool, dispatch: &Dispatch) -> Html {
    let nav = html! {
        <nav class="rooms-menu" aria-label={l.t("Rooms", "展厅")}>
            { for Room::ALL.into_iter().map(|room| {
                let d = dispatch.clone();
                html! {
                    <button id={format!("open-{}", room.id())} class="tool"
                        onclick={Callback::from(move |_| d.dispatch(Msg::Room(Some(room))))}>{ room.button(l) }</button>
                }
            }) }
            <a id="help-link" class="tool" target="_blank" rel="noopener"
                href={l.t("docs/using-the-page.html", "docs/zh/classroom.html")}
                title={l.t("The book: using the page, the lessons, presenter mode (opens in a new tab)", "手册：页面、课程与演示模式（在新标签页中打开）")}>
                { l.t("? Help", "? 帮助") }</a>
        </nav>
    };
    if presenter {
        html! { <details class="rooms-fold"><summary id="rooms-fold">{ l.t("▤ Rooms", "▤ 展厅") }</summary>{ nav }</details> }
    } else {
        nav
    }
}
