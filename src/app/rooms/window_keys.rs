//! A room's keys, taken from the window for as long as the room is open, so that they act wherever
//! the focus is. Taken in the capture phase, a room's key comes before the page's own listener
//! (Side by side's X and R act on its runs, not on the main screen's); taken as it bubbles, the
//! page's keys (Escape, P) come first (the Batch room).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Calls the latest `on_key` (the one handed at the last render) with every key pressed while the
/// room is open; `capture`: before the page's own listeners.
#[hook]
pub fn use_window_keys(capture: bool, on_key: Callback<KeyboardEvent>) {
    let latest = use_mut_ref(|| on_key.clone());
    *latest.borrow_mut() = on_key;
    use_effect_with((), move |_| {
        let window = web_sys::window().expect("window");
        let keys = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
            // Not borrowed while it runs: the room may draw again (and hand a new one) meanwhile.
            let on_key = latest.borrow().clone();
            on_key.emit(e)
        });
        let _ = window.add_event_listener_with_callback_and_bool("keydown", keys.as_ref().unchecked_ref(), capture);
        move || {
            let _ =
                window.remove_event_listener_with_callback_and_bool("keydown", keys.as_ref().unchecked_ref(), capture);
            drop(keys);
        }
    });
}
