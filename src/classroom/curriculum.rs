//! The built-in lessons, in English and Simplified Chinese: the files under `lessons/`, in the
//! lesson-file format a teacher writes too (`lesson_file.rs`). They retell the two articles in
//! `shared/seeds` with the vocabulary of `shared/reference/checkpointing-mechanisms.md`;
//! `lesson_check.rs` plays each one through and checks what its words claim, and the tests in
//! `curriculum/` check each lesson's reveals against the engine. `build.rs` lists the files; their texts are
//! parsed when the lessons' part of the page loads, so the first screen never fetches their words.
//! A lesson opened from a file or a link joins them, after the built-in ones.

use std::cell::Cell;

use super::lesson_file::{self, LessonError};
use super::lessons::Lesson;

/// The built-in lesson files: name and text, in the catalogue's order.
pub const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/lesson_files.rs"));

/// The built-in lessons, parsed (once per thread: a page has one).
fn parse_builtins() -> &'static [Lesson] {
    let lessons: Vec<Lesson> = FILES
        .iter()
        .map(|(name, text)| {
            lesson_file::parse(text)
                .unwrap_or_else(|e| panic!("lessons/{name}: {}", e.message(crate::engine::Lang::En)))
        })
        .collect();
    Box::leak(lessons.into_boxed_slice())
}

thread_local! {
    static BUILTINS: Cell<Option<&'static [Lesson]>> = const { Cell::new(None) };
    /// The built-in lessons and, after them, the lesson opened from a file (with its text).
    static LOADED: Cell<Option<&'static [Lesson]>> = const { Cell::new(None) };
    static FILE_TEXT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

fn builtins_now() -> &'static [Lesson] {
    BUILTINS.with(|b| match b.get() {
        Some(l) => l,
        None => {
            let l = parse_builtins();
            b.set(Some(l));
            l
        }
    })
}

/// The built-in lessons (natively and in tests; in the split page only once [`register`]ed).
pub fn builtins() -> &'static [Lesson] {
    loaded().map_or(&[], |l| &l[..FILES.len().min(l.len())])
}

/// The lessons, once they are there. Natively and in tests they always are. In the split page
/// they are in the lessons' part (`app/room_loader.rs`), which registers them when it loads: the
/// first screen never fetches their words.
pub fn loaded() -> Option<&'static [Lesson]> {
    if let Some(l) = LOADED.with(Cell::get) {
        return Some(l);
    }
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return None;
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    {
        register();
        LOADED.with(Cell::get)
    }
}

/// Makes the lessons available: called by the lessons' part when it loads.
pub fn register() {
    if LOADED.with(Cell::get).is_none() {
        LOADED.with(|l| l.set(Some(builtins_now())));
    }
}

/// Opens a lesson file: it joins the built-in lessons (in place of the last file opened).
/// Returns its place in [`loaded`]; a broken file leaves the lessons as they were.
pub fn open_file(text: &str) -> Result<usize, LessonError> {
    // A built-in lesson's own file is that lesson.
    if let Some(i) = FILES.iter().position(|(_, t)| *t == text) {
        return Ok(i);
    }
    let lesson = lesson_file::parse(text)?;
    let mut all: Vec<Lesson> = builtins_now().to_vec();
    all.push(lesson);
    LOADED.with(|l| l.set(Some(Box::leak(all.into_boxed_slice()))));
    FILE_TEXT.with(|t| *t.borrow_mut() = Some(text.to_string()));
    Ok(FILES.len())
}

/// The text of lesson `i`, if it was opened from a file (a saved run keeps it, so its link or
/// file opens the lesson too).
pub fn file_text(i: usize) -> Option<String> {
    (i >= FILES.len()).then(|| FILE_TEXT.with(|t| t.borrow().clone())).flatten()
}

#[cfg(test)]
mod every_lesson;
#[cfg(test)]
mod play;
#[cfg(test)]
mod program_lessons;
#[cfg(test)]
mod sink_and_master_lessons;
#[cfg(test)]
mod snapshot_lessons;
#[cfg(test)]
mod storm_spark_lessons;
