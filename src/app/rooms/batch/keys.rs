//! The Batch room's keys: → or S steps, ← goes back, Space plays and pauses, F fails the running
//! task, a digit loses that node or executor, E runs to the end; in the lesson PageDown and PageUp
//! (and → ← in presenter mode) go through its steps. Escape (back to the run) and P (presenter
//! mode) are the page's, as in every room; a text field keeps its keys.

use web_sys::KeyboardEvent;

use crate::app::keys::in_text_field;
use crate::classroom::batch_room::BatchCommand;
use crate::engine::batch::BatchAction;

/// What a key does in the room, at lesson step `lesson` (None: no lesson) and in presenter mode or
/// not.
pub fn room_key(e: &KeyboardEvent, lesson: Option<usize>, presenter: bool) -> Option<BatchCommand> {
    if in_text_field(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let next = lesson.map(|s| BatchCommand::Lesson(Some(s + 1)));
    let prev = lesson.map(|s| BatchCommand::Lesson(Some(s.saturating_sub(1))));
    Some(match e.key().as_str() {
        "PageDown" if lesson.is_some() => next?,
        "PageUp" if lesson.is_some() => prev?,
        "ArrowRight" if lesson.is_some() && presenter => next?,
        "ArrowLeft" if lesson.is_some() && presenter => prev?,
        "ArrowRight" | "s" | "S" => BatchCommand::Step,
        "ArrowLeft" => BatchCommand::Back,
        " " => BatchCommand::TogglePlay,
        "f" | "F" => BatchCommand::Act(BatchAction::FailTask),
        "e" | "E" => BatchCommand::ToEnd,
        k if k.len() == 1 && k.as_bytes()[0].is_ascii_digit() => {
            BatchCommand::Act(BatchAction::Crash(k.as_bytes()[0] - b'0'))
        }
        _ => return None,
    })
}
