//! The page's one live region: what a screen reader hears of the run. A step is said once (its
//! name, and the verdict when it changed); Play says that it plays, then, when it stops, how far it
//! went and the verdict, instead of every step; the words are the classroom's
//! (`classroom::announcement`).

use yew::prelude::*;

use std::rc::Rc;

use super::text::Lang;
use super::words_part::use_words;
use crate::engine::Ledger;

#[derive(Properties, PartialEq)]
pub struct AnnouncerProps {
    pub lang: Lang,
    pub playing: bool,
    /// The timeline's position and length.
    pub pos: usize,
    pub len: usize,
    /// Counts the changes to the run: a new value is something to say.
    pub revision: u64,
    /// The step at the position, in words ("Step 5: Source reads a").
    pub step: String,
    /// The verdict, said in words (`classroom::announcement::verdict_sentence`, which comes with
    /// the narration's words).
    pub ledger: Rc<Ledger>,
}

#[derive(Default)]
struct Said {
    /// What was last worked out, and for which run, position and play state.
    key: Option<(u64, usize, bool, Lang)>,
    text: String,
    /// The verdict as last said (the first render's is taken as said: the page shows it).
    verdict: Option<String>,
    /// Where Play started.
    play_from: Option<usize>,
}

#[component]
pub fn Announcer(p: &AnnouncerProps) -> Html {
    let said = use_mut_ref(Said::default);
    // The words come once something has happened; until they do, a step is said without its verdict.
    let words = use_words(p.revision > 0);
    let verdict = words.map(|w| (w.verdict)(&p.ledger, p.lang)).unwrap_or_default();
    let mut s = said.borrow_mut();
    let key = (p.revision, p.pos, p.playing, p.lang);
    if s.key != Some(key) {
        let first = s.key.is_none();
        s.key = Some(key);
        let l = p.lang;
        let changed = !verdict.is_empty() && s.verdict.as_deref() != Some(verdict.as_str());
        s.text = if first {
            String::new()
        } else if p.playing {
            // Said once when Play starts; unchanged while it plays, so nothing more is read.
            s.play_from.get_or_insert(p.pos.saturating_sub(1));
            l.t("Playing…", "正在播放…").to_string()
        } else if let Some(from) = s.play_from.take() {
            let played = words.map(|w| (w.played)(from, p.pos, p.len, l)).unwrap_or_default();
            format!("{played} {} {verdict}", p.step)
        } else if changed {
            format!("{} {verdict}", p.step)
        } else {
            p.step.clone()
        };
        if (!p.playing || first) && !verdict.is_empty() {
            s.verdict = Some(verdict);
        }
    }
    html! {
        <div id="announcer" class="sr-only" role="status" aria-live="polite" aria-atomic="true">{ s.text.clone() }</div>
    }
}
