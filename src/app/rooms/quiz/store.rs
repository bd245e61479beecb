//! The quiz room's link and storage: `#room=quiz&set=N` names the set; the browser keeps the set
//! in progress and the finished sets' scores (`classroom::quiz::history`, which reads them
//! defensively). Storage that is unavailable or full is skipped: the quiz goes on without it.

use crate::classroom::quiz::history::{history_text, parse_history, set_in_link, Past, Progress, SetError, MAX_SET};

use super::at::At;

const PROGRESS_KEY: &str = "barrierscope.quiz.progress";
const HISTORY_KEY: &str = "barrierscope.quiz.history";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// A new set's seed, drawn by the browser (the set itself is then the engine's, from the seed).
pub fn fresh_seed() -> u64 {
    (js_sys::Math::random() * MAX_SET as f64) as u64 % (MAX_SET + 1)
}

/// Where the room opens: the set in the link (resumed where this browser left it, if it did),
/// else the set in progress in this browser, else a new set; and why the link's set was refused,
/// if it was.
pub fn initial() -> (At, Option<SetError>) {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let in_link = hash.strip_prefix("#room=quiz&").and_then(set_in_link);
    let kept = stored(PROGRESS_KEY).and_then(|t| Progress::parse(&t));
    match in_link {
        Some(Ok(set)) => match kept.filter(|p| p.set == set) {
            Some(p) => (At::resume(p), None),
            None => (At::start(set), None),
        },
        Some(Err(why)) => (kept.map_or_else(|| At::start(fresh_seed()), At::resume), Some(why)),
        None => (kept.map_or_else(|| At::start(fresh_seed()), At::resume), None),
    }
}

/// Keeps the set in progress, and puts the set in the address bar (no history entry).
pub fn keep(p: &Progress) {
    if let Some(s) = storage() {
        let _ = s.set_item(PROGRESS_KEY, &p.to_text());
    }
    crate::app::address_bar::put(&format!("room=quiz&set={}", p.set));
}

/// The finished sets this browser kept.
pub fn history() -> Vec<Past> {
    stored(HISTORY_KEY).map(|t| parse_history(&t)).unwrap_or_default()
}

/// Adds a finished set to the history; returns it.
pub fn remember(p: Past) -> Vec<Past> {
    let mut v = history();
    v.push(p);
    let text = history_text(&v);
    if let Some(s) = storage() {
        let _ = s.set_item(HISTORY_KEY, &text);
    }
    parse_history(&text)
}

/// The link that opens this set.
pub fn link(set: u64) -> String {
    let Some(w) = web_sys::window() else { return String::new() };
    let loc = w.location();
    format!(
        "{}{}{}#room=quiz&set={set}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    )
}
