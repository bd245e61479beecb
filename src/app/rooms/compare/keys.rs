//! Side by side's keys: the main screen's keys for its clock, acting on every run at once (Space,
//! → and ←, Home, E, X and R), and PageDown and PageUp in the lesson. Taken before the main screen
//! sees them, so X and R act on the room's runs; Escape closes the room (in presenter mode it first
//! leaves presenter mode, the main screen's key). A text field keeps its keys.

use web_sys::KeyboardEvent;

use crate::app::keys::in_text_field;
use crate::classroom::compare_room::CompareCommand;

/// What a key does: a command (Some(Some)), closing the room (Some(None)), or nothing (None).
pub fn room_key(e: &KeyboardEvent, lesson: bool, presenter: bool) -> Option<Option<CompareCommand>> {
    if in_text_field(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    Some(Some(match e.key().as_str() {
        "PageDown" if lesson => CompareCommand::LessonNext,
        "PageUp" if lesson => CompareCommand::LessonPrev,
        " " => CompareCommand::TogglePlay,
        "ArrowRight" => CompareCommand::Step,
        "ArrowLeft" => CompareCommand::Back,
        "Home" => CompareCommand::ToStart,
        "e" | "E" => CompareCommand::ToEnd,
        "x" | "X" => CompareCommand::CrashNow,
        "r" | "R" => CompareCommand::RestoreNow,
        "Escape" if !presenter => return Some(None),
        _ => return None,
    }))
}
