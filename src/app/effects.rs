//! What the page does besides drawing, each when what it depends on changes: the first screen
//! prerendered at build time taken away once the app has drawn its own, the narration's words
//! fetched once the page is interactive, the last run kept in this browser, a run from the link
//! opened once its parts are there, the open room in the address bar, the focus back to the button
//! that opened a room, and Play's one step per interval.

use gloo_timers::callback::Interval;
use yew::prelude::*;

use crate::app::focus::focus_first;
use crate::app::room::Room;
use crate::app::share_bar;
use crate::app::ui_state::{Msg, UiState, SPEEDS};
use crate::app::words_part;

/// The page's effects, on the page's state.
#[hook]
pub fn use_page_effects(state: &UseReducerHandle<UiState>) {
    let dispatch = state.dispatcher();
    // The first screen that the build prerendered into the page (`scripts/prerender.mjs`) gives
    // its place to the app's own once the app has drawn it, and the starting notice goes.
    use_effect_with((), |_| show_first_screen());
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
                share_bar::store(state.session.clone(), state.lang, dispatch);
            }
        });
    }
    // A run from the link or storage that stands in a lesson opens once the lessons are there.
    {
        let dispatch = dispatch.clone();
        let deferred = state.deferred.clone();
        use_effect_with((), move |_| {
            if let Some((origin, text)) = deferred {
                share_bar::open_text(&dispatch, origin, text);
            }
        });
    }
    // The open room is in the address bar (#room=NAME), so a reload or a link opens it again.
    use_effect_with(state.room, |&room| share_bar::show_room_in_link(room));
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
}

/// Shows the app's first screen in place of the prerendered copy, in one step, so that no frame
/// shows both or neither and nothing on the page moves; the starting notice goes with the copy.
fn show_first_screen() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(root) = doc.get_element_by_id("app-root") {
        let _ = root.remove_attribute("hidden");
    }
    for id in ["prerender", "boot"] {
        if let Some(e) = doc.get_element_by_id(id) {
            e.remove();
        }
    }
}
