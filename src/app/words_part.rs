//! The words part: the narration of the dataflow's and Flink's events
//! (`engine::wording::narrate_common`), in a part of its own. The first screen needs none of it
//! (nothing has happened yet), so the page fetches it once it is interactive, not before:
//! on a slow connection the job can be stepped while the words are still on their way, and a
//! step's lines read "…" until they come. A fetch that fails is tried again at the next step.
//! Storm's and Spark Streaming's words come with their bands (`bands_part.rs`). The notices'
//! sentences and the live region's verdict come here too: both follow something the learner did.

use std::cell::{Cell, RefCell};

use yew::prelude::*;

use super::split_point::part;
use super::text::Lang;
use crate::engine::{Event, JobGraph};

/// The narration the words part brings.
#[derive(Clone, Copy)]
pub struct Words {
    /// One sentence for an event of the dataflow, Flink's barrier handlers and coordinator, or
    /// the savepoints; None for Storm's and Spark Streaming's.
    pub narrate: fn(&Event, &JobGraph, Lang) -> Option<String>,
    /// What the live region says of the verdict and of a Play (`classroom::announcement`): said
    /// only after a step, so it comes with the narration.
    pub verdict: fn(&crate::engine::Ledger, Lang) -> String,
    pub played: fn(usize, usize, usize, Lang) -> String,
    /// The notice bar's sentence (`classroom::wording`): a notice follows an action or an opened
    /// link, so the bar asks for the words when it has one and reads "…" for the moment they take.
    pub notice: fn(&crate::classroom::Notice, Lang) -> String,
}

const WORDS_FNS: Words = Words {
    narrate: crate::engine::wording::narrate_common,
    verdict: crate::classroom::announcement::verdict_sentence,
    played: crate::classroom::announcement::played_sentence,
    notice: crate::classroom::Notice::message,
};

part!(words -> Words { Ok(WORDS_FNS) });

thread_local! {
    static WORDS: Cell<Option<Words>> = const { Cell::new(None) };
    static FETCHING: Cell<bool> = const { Cell::new(false) };
    static WAITING: RefCell<Vec<Callback<()>>> = const { RefCell::new(Vec::new()) };
}

/// The words, if they are already there. Without the split (tests, native builds) they always
/// are: nothing is fetched.
pub fn words_now() -> Option<Words> {
    #[cfg(not(feature = "split"))]
    return Some(WORDS_FNS);
    #[cfg(feature = "split")]
    WORDS.with(|w| w.get())
}

/// Fetches the words unless they are there or on their way; `arrived` is called when they come.
/// A fetch that fails calls nothing (the next draw that needs them asks again, so an offline page
/// does not ask in a loop).
pub fn fetch_words(arrived: Callback<()>) {
    if words_now().is_some() {
        arrived.emit(());
        return;
    }
    WAITING.with(|w| w.borrow_mut().push(arrived));
    if FETCHING.with(|f| f.replace(true)) {
        return;
    }
    wasm_bindgen_futures::spawn_local(async {
        let got = words().await.ok();
        WORDS.with(|c| c.set(got));
        FETCHING.with(|f| f.set(false));
        let waiting = WAITING.with(|w| std::mem::take(&mut *w.borrow_mut()));
        if got.is_some() {
            waiting.iter().for_each(|cb| cb.emit(()));
        }
    });
}

/// How long after the page has drawn it fetches the words, unless a step needs them sooner.
pub const AFTER_INTERACTIVE_MS: u32 = 250;

/// The words for a component that draws them: while `needed`, fetched if need be (again at each
/// draw while they are missing), and drawn again when they arrive.
#[hook]
pub fn use_words(needed: bool) -> Option<Words> {
    let redraw = use_force_update();
    let now = words_now();
    use_effect(move || {
        if needed && now.is_none() {
            fetch_words(Callback::from(move |_| redraw.force_update()));
        }
    });
    now
}
