//! Moving the keyboard focus without moving the page: a room or a question that takes the focus
//! when it opens leaves the scroll where it is (shared by the room loader and the quiz); and back
//! from a room, to the first shown of the buttons that could have opened it.

use wasm_bindgen::JsCast;

/// Moves the keyboard focus to `el` without scrolling the page to it.
pub fn focus_quietly(el: &web_sys::HtmlElement) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = el.focus_with_options(&options);
}

/// Moves the focus to the first of these elements that is shown.
pub fn focus_first(ids: &[&str]) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    for id in ids {
        let Some(el) = doc.get_element_by_id(id) else { continue };
        if el.get_client_rects().length() == 0 {
            continue;
        }
        if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
            let _ = el.focus();
            return;
        }
    }
}
