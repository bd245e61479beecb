//! What the page listens to on its window, for as long as it is open: a key (`keys.rs`), the
//! address's hash (a link to a run or a room opened while the page is open), and a resize (a
//! phone turned, a window resized past a kind of screen, draws the job again).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::app::keys::{on_keydown, KeyModes};
use crate::app::screen::window_screen;
use crate::app::share_bar;
use crate::app::ui_state::{Dispatch, Msg};
use crate::classroom::Origin;

/// Keyboard control on the whole page, links opened while the page is open, and the kind of
/// screen; `modes` is kept current by the page without registering the listeners again.
#[hook]
pub fn use_window_listeners(dispatch: &Dispatch, modes: &Rc<RefCell<KeyModes>>) {
    let dispatch = dispatch.clone();
    let modes = modes.clone();
    use_effect_with((), move |_| {
        let window = web_sys::window().expect("window");
        let d = dispatch.clone();
        let keys = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| on_keydown(&e, *modes.borrow(), &d));
        let d_screen = dispatch.clone();
        let hash = Closure::<dyn Fn(web_sys::HashChangeEvent)>::new(move |_| {
            if let Some(room) = share_bar::room_in_link() {
                dispatch.dispatch(Msg::Room(Some(room)));
            } else if let Some(text) = share_bar::link_text() {
                share_bar::open_text(&dispatch, Origin::Link, text);
            }
        });
        // A phone turned, or a window resized past a kind of screen, draws the job again.
        let screen = {
            let d = d_screen;
            let last = std::cell::Cell::new(window_screen());
            Closure::<dyn Fn()>::new(move || {
                let now = window_screen();
                if now != last.replace(now) {
                    d.dispatch(Msg::Screen(now));
                }
            })
        };
        window.add_event_listener_with_callback("resize", screen.as_ref().unchecked_ref()).expect("listen");
        window.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref()).expect("listen");
        window.add_event_listener_with_callback("hashchange", hash.as_ref().unchecked_ref()).expect("listen");
        move || {
            let _ = window.remove_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref());
            let _ = window.remove_event_listener_with_callback("hashchange", hash.as_ref().unchecked_ref());
            let _ = window.remove_event_listener_with_callback("resize", screen.as_ref().unchecked_ref());
            drop(screen);
            drop(keys);
            drop(hash);
        }
    });
}
