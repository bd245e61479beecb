//! The page's keys: the one rule for which keys are the run's (never a text field's), the
//! shortcuts (Space plays, → steps, C checkpoints, X crashes, a clicker's PageDown steps a lesson,
//! …), and what a keydown does on the main screen, in a room, or on a blanked screen.

use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

use crate::app::room::Room;
use crate::app::ui_state::{Dispatch, Msg};
use crate::classroom::Command;
use crate::engine::Action;

/// What the keyboard listener needs to know of the page: a lesson is open, presenter mode, a room
/// is open, the screen is blanked.
#[derive(Clone, Copy, Default)]
pub struct KeyModes {
    pub lesson: bool,
    pub presenter: bool,
    pub in_room: bool,
    pub blank: bool,
}

/// A keydown anywhere on the page.
pub fn on_keydown(e: &KeyboardEvent, modes: KeyModes, d: &Dispatch) {
    let KeyModes { lesson, presenter, in_room, blank } = modes;
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
        if !(in_text_field(e) || e.ctrl_key() || e.meta_key() || e.alt_key()) {
            match e.key().as_str() {
                "Escape" => d.dispatch(Msg::Room(None)),
                "p" | "P" => d.dispatch(Msg::Presenter(!presenter)),
                _ => return,
            }
            e.prevent_default();
        }
        return;
    }
    let (taken, msg) = key_action(e, lesson, presenter);
    if taken {
        e.prevent_default();
    }
    if let Some(msg) = msg {
        d.dispatch(msg);
    }
}

/// Whether the key's target is a text field, where every key is the field's: an `input` that
/// takes typing (text, number, search, …), a `textarea`, or editable content.
pub fn in_text_field(e: &KeyboardEvent) -> bool {
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
