//! The lesson catalogue: each lesson's id and title, which the lesson menu lists from the first
//! screen. The lessons themselves (their steps and words, the files under `lessons/`) are in a part
//! of the page that loads when a lesson opens.

use super::lessons::Text;

/// A lesson as the menu lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: &'static str,
    pub title: Text,
}

const fn entry(id: &'static str, en: &'static str, zh: &'static str) -> Entry {
    Entry { id, title: Text { en, zh } }
}

/// The lessons in their order, one per file under `lessons/` (in the files' order), read by
/// `build.rs`; `curriculum::loaded` has one lesson for each, at the same place.
pub const CATALOGUE: &[Entry] = include!(concat!(env!("OUT_DIR"), "/lesson_catalogue.rs"));
