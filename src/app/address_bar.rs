//! The address bar: where a run, a room or a study is put as a link, without a new history entry,
//! so that copying the address shares what is on screen and Back still leaves the page. Every
//! room writes its link here, in one form: the page's origin, path and query, then `#` and the
//! fragment.

/// Puts `fragment` (without its `#`; empty: no fragment at all) in the address bar, replacing
/// the current entry, and returns the whole link.
pub fn put(fragment: &str) -> String {
    let Some(w) = web_sys::window() else { return String::new() };
    let loc = w.location();
    let mut url = format!(
        "{}{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    if !fragment.is_empty() {
        url.push('#');
        url.push_str(fragment);
    }
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
    url
}
