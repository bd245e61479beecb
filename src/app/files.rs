//! What leaves the page for the learner's machine: a file offered as a download, a text put on the
//! clipboard. Called from callbacks, never from the reducer.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

/// Copies `text` to the clipboard, then calls `done(true)`; `done(false)` if the browser refuses
/// (no permission, the page not focused) or has no clipboard here (a page not served securely).
pub fn copy_to_clipboard(text: &str, done: impl FnOnce(bool) + 'static) {
    let navigator = window().navigator();
    let has_clipboard =
        js_sys::Reflect::get(&navigator, &"clipboard".into()).is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has_clipboard {
        done(false);
        return;
    }
    // The promise settles once, calling one of the two; the other is never called.
    let done = Rc::new(RefCell::new(Some(done)));
    let answer = |ok: bool| {
        let done = done.clone();
        Closure::once_into_js(move |_: wasm_bindgen::JsValue| {
            if let Some(f) = done.borrow_mut().take() {
                f(ok)
            }
        })
    };
    let promise = navigator.clipboard().write_text(text);
    // `promise.then(copied, refused)`, with functions that free themselves when called.
    if let Ok(then) = js_sys::Reflect::get(&promise, &"then".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) {
        let _ = then.call2(&promise, &answer(true), &answer(false));
    }
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    let doc = window().document().expect("document");
    if let Ok(a) = doc.create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// The one pair of file words, on the main screen and in every room, in both languages: "↓ Export"
/// writes what is on screen to a file, "↑ Import" opens one.
pub fn file_words(l: crate::app::text::Lang) -> (&'static str, &'static str) {
    (l.t("↓ Export", "↓ 导出"), l.t("↑ Import", "↑ 导入"))
}

/// The Export button: `title` says what the file holds.
pub fn export_button(
    id: &'static str,
    title: &str,
    onclick: yew::Callback<web_sys::MouseEvent>,
    l: crate::app::text::Lang,
) -> yew::Html {
    yew::html! {
        <button id={id} class="tool" onclick={onclick} title={title.to_string()}>{ file_words(l).0 }</button>
    }
}

/// The Import button: a file chooser behind the word; `label` names what it opens, for the
/// tooltip and for a screen reader.
pub fn import_button(
    id: &'static str,
    label: &str,
    multiple: bool,
    onchange: yew::Callback<web_sys::Event>,
    l: crate::app::text::Lang,
) -> yew::Html {
    yew::html! {
        <label class="tool import" title={label.to_string()}>{ file_words(l).1 }
            <input id={id} type="file" accept=".json,application/json" multiple={multiple} onchange={onchange} aria-label={label.to_string()} /></label>
    }
}
