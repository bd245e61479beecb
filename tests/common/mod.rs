//! Helpers shared by the browser test files: mount the real app in a fresh div, click, choose,
//! press keys, read the verdict.
#![allow(dead_code)]

use std::collections::BTreeMap;

use barrierscope::app::App;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlSelectElement};

pub fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Mounts a fresh app in its own div and returns the div. Storage starts empty unless a test
/// put something there on purpose (`mount_keeping_storage`).
pub async fn mount() -> Element {
    storage().clear().unwrap();
    mount_keeping_storage().await
}

pub fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

pub async fn mount_keeping_storage() -> Element {
    let div = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&div).unwrap();
    yew::Renderer::<App>::with_root(div.clone()).render();
    yew::scheduler::flush().await;
    div
}

pub fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no element matches {selector}"))
}

pub async fn click(root: &Element, selector: &str) {
    let el = find(root, selector);
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
    yew::scheduler::flush().await;
}

pub async fn key(key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    web_sys::window().unwrap().dispatch_event(&ev).unwrap();
    yew::scheduler::flush().await;
}

/// Lets the browser run its queued tasks (a part's load, a toggle event), then Yew its renders.
pub async fn settle() {
    wait(0).await;
}

/// Waits `ms` milliseconds of the browser's clock, then lets Yew render.
pub async fn wait(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
    yew::scheduler::flush().await;
}

/// Waits (up to 10 s) until `selector` matches under `root`: a room's part is fetched, a sliced
/// search ends.
pub async fn until(root: &Element, selector: &str) {
    for _ in 0..400 {
        if root.query_selector(selector).unwrap().is_some() {
            return;
        }
        wait(25).await;
    }
    panic!("{selector} never appeared");
}

/// Takes the hash off the address bar, so a test starts without a room or a run in it (rooms keep
/// their study there).
pub fn clear_link() {
    let w = web_sys::window().unwrap();
    let path = w.location().pathname().unwrap();
    w.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path)).unwrap();
}

/// Opens Settings, whose form loads the first time it opens (a piece of the page).
pub async fn open_settings(root: &Element) {
    let details = find(root, "details.more-settings");
    if !details.has_attribute("open") {
        details.set_attribute("open", "").unwrap();
    }
    for _ in 0..20 {
        if root.query_selector(".settings-grid label").unwrap().is_some() {
            return;
        }
        settle().await;
    }
    panic!("the settings form did not load");
}

/// Chooses `value` in a select; one in the settings form opens Settings first.
pub async fn choose(root: &Element, selector: &str, value: &str) {
    if root.query_selector(selector).unwrap().is_none() {
        open_settings(root).await;
    }
    let sel: HtmlSelectElement = find(root, selector).dyn_into().unwrap();
    sel.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    sel.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    yew::scheduler::flush().await;
}

pub fn disabled(root: &Element, selector: &str) -> bool {
    find(root, selector).has_attribute("disabled")
}

/// Each record's state verdict: from the ledger's table, or (in a lesson and in presenter mode)
/// from the verdict's record chips.
pub fn verdicts(root: &Element) -> BTreeMap<String, String> {
    let mut rows = root.query_selector_all("#ledger tbody tr").unwrap();
    if rows.length() == 0 {
        rows = root
            .query_selector_all("#verdict-records-state li[data-record], #verdict-records > ul > li[data-record]")
            .unwrap();
    }
    (0..rows.length())
        .map(|i| {
            let tr: Element = rows.item(i).unwrap().dyn_into().unwrap();
            (tr.get_attribute("data-record").unwrap(), tr.get_attribute("data-verdict").unwrap())
        })
        .collect()
}

/// Steps until nothing is left to do.
pub async fn run_to_end(root: &Element) {
    for _ in 0..200 {
        if disabled(root, "#btn-step") {
            return;
        }
        click(root, "#btn-step").await;
    }
    panic!("the run did not end");
}

pub fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}
