//! A mark on a drawing that acts like a button: a click, or Enter with the focus on it, takes the
//! action it stands for (the canvas's tokens and barriers, the acker's messages).

use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::engine::Action;

pub fn press(act: &Callback<Action>, a: Action) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let click = {
        let act = act.clone();
        Callback::from(move |e: MouseEvent| {
            e.stop_propagation();
            act.emit(a)
        })
    };
    let key = {
        let act = act.clone();
        // Enter only: Space plays and pauses wherever the focus is (see `belongs_to_run`).
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                e.prevent_default();
                e.stop_propagation();
                act.emit(a)
            }
        })
    };
    (click, key)
}
