//! Moving the keyboard focus without moving the page: a room or a question that takes the focus
//! when it opens leaves the scroll where it is (shared by the room loader and the quiz).

/// Moves the keyboard focus to `el` without scrolling the page to it.
pub fn focus_quietly(el: &web_sys::HtmlElement) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = el.focus_with_options(&options);
}
