//! Browser tests (wasm-bindgen-test in headless Chromium): the real app is mounted in a fresh
//! div and clicked through the a, b, c story; the engine's fingerprints equal the native ones.
#![cfg(target_arch = "wasm32")]

use std::collections::BTreeMap;

use barrierscope::app::App;
use barrierscope::engine::{fingerprint, Scenario};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Mounts a fresh app in its own div and returns the div.
async fn mount() -> Element {
    let div = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&div).unwrap();
    yew::Renderer::<App>::with_root(div.clone()).render();
    yew::scheduler::flush().await;
    div
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no element matches {selector}"))
}

async fn click(root: &Element, selector: &str) {
    let el = find(root, selector);
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
    el.dispatch_event(&ev).unwrap();
    yew::scheduler::flush().await;
}

async fn key(key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    web_sys::window().unwrap().dispatch_event(&ev).unwrap();
    yew::scheduler::flush().await;
}

async fn choose(root: &Element, selector: &str, value: &str) {
    let sel: HtmlSelectElement = find(root, selector).dyn_into().unwrap();
    sel.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    sel.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    yew::scheduler::flush().await;
}

fn disabled(root: &Element, selector: &str) -> bool {
    find(root, selector).has_attribute("disabled")
}

fn verdicts(root: &Element) -> BTreeMap<String, String> {
    let rows = root.query_selector_all("#ledger tbody tr").unwrap();
    (0..rows.length())
        .map(|i| {
            let tr: Element = rows.item(i).unwrap().dyn_into().unwrap();
            (tr.get_attribute("data-record").unwrap(), tr.get_attribute("data-verdict").unwrap())
        })
        .collect()
}

/// Steps until nothing is left to do.
async fn run_to_end(root: &Element) {
    for _ in 0..200 {
        if disabled(root, "#btn-step") {
            return;
        }
        click(root, "#btn-step").await;
    }
    panic!("the run did not end");
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn timers_then_crash_then_restore_lose_abc() {
    let root = mount().await;
    assert_eq!(find(&root, "#sel-strategy").dyn_into::<HtmlSelectElement>().unwrap().value(), "timers");
    for _ in 0..3 {
        click(&root, "#read-Source").await;
    }
    assert_eq!(find(&root, "[data-channel=\"Source->Map\"]").get_attribute("data-queued").unwrap(), "3");
    click(&root, "#btn-timers").await;
    // The cut of the saves flags a, b, c in transit.
    assert!(text(&root, "[data-flag=\"in-transit\"]").contains("a b c"));
    click(&root, "#btn-crash").await;
    assert_eq!(find(&root, "[data-task=\"Count\"]").get_attribute("data-status").unwrap(), "crashed");
    assert!(disabled(&root, "#btn-crash"));
    click(&root, "#btn-restore").await;
    run_to_end(&root).await;
    let v = verdicts(&root);
    for r in ["a", "b", "c"] {
        assert_eq!(v[r], "lost", "{r}");
    }
    for r in ["d", "e", "f", "g", "h"] {
        assert_eq!(v[r], "exactly-once", "{r}");
    }
    assert!(text(&root, "#tally-state").contains("lost"));
    let narration = text(&root, "#narration");
    assert!(narration.contains("Restored each task from its own latest save."), "{narration}");
}

#[wasm_bindgen_test]
async fn the_barrier_version_is_exactly_once() {
    let root = mount().await;
    choose(&root, "#sel-strategy", "aligned").await;
    for _ in 0..3 {
        click(&root, "#read-Source").await;
    }
    click(&root, "#btn-checkpoint").await;
    assert!(find(&root, "[data-channel=\"Source->Map\"] .barrier").get_attribute("data-checkpoint").unwrap() == "1");
    // Deliver a, b, c and the barrier through both channels by clicking the lanes.
    for ch in ["Source->Map", "Map->Count"] {
        for _ in 0..4 {
            click(&root, &format!("[data-channel=\"{ch}\"] .lane-hit")).await;
        }
    }
    assert!(text(&root, "#jm-completed").contains("1 ✓"));
    click(&root, "#read-Source").await;
    click(&root, "#btn-crash").await;
    click(&root, "#btn-restore").await;
    run_to_end(&root).await;
    let v = verdicts(&root);
    assert_eq!(v.len(), 8);
    assert!(v.values().all(|x| x == "exactly-once"), "{v:?}");
    let narration = text(&root, "#narration");
    assert!(narration.contains("Restored every task from completed checkpoint 1."), "{narration}");
}

#[wasm_bindgen_test]
async fn keyboard_steps_back_and_forks() {
    let root = mount().await;
    choose(&root, "#sel-strategy", "aligned").await;
    key("ArrowRight").await;
    key("ArrowRight").await;
    let app = find(&root, "#app");
    assert_eq!(app.get_attribute("data-step").unwrap(), "2");
    key("ArrowLeft").await;
    assert_eq!(app.get_attribute("data-step").unwrap(), "1");
    assert_eq!(app.get_attribute("data-steps").unwrap(), "2");
    key("c").await;
    assert_eq!(app.get_attribute("data-steps").unwrap(), "2", "acting at step 1 forked the run");
    assert!(text(&root, "#jm-pending").contains("1"));
    key("x").await;
    assert_eq!(find(&root, "#jobmanager").get_attribute("data-up").unwrap(), "true");
    assert!(find(&root, "#down-banner").text_content().unwrap().contains("Restore"));
    key("r").await;
    assert!(root.query_selector("#down-banner").unwrap().is_none());
    // A refused action says why and changes nothing.
    let steps = app.get_attribute("data-steps").unwrap();
    key("r").await;
    assert!(text(&root, "#notice").contains("nothing to restore"));
    assert_eq!(app.get_attribute("data-steps").unwrap(), steps);
    let _ = root.dyn_ref::<HtmlElement>();
}

#[wasm_bindgen_test]
fn fingerprints_equal_native() {
    let fixture: BTreeMap<String, String> = serde_json::from_str(include_str!("fixtures/fingerprints.json")).unwrap();
    let files: [(&str, &str); 6] = [
        ("abc-barriers-exactly-once.json", include_str!("../scenarios/abc-barriers-exactly-once.json")),
        ("abc-timers-duplicated.json", include_str!("../scenarios/abc-timers-duplicated.json")),
        ("abc-timers-lost.json", include_str!("../scenarios/abc-timers-lost.json")),
        ("sink-two-phase-commit.json", include_str!("../scenarios/sink-two-phase-commit.json")),
        ("two-inputs-at-least-once.json", include_str!("../scenarios/two-inputs-at-least-once.json")),
        ("two-inputs-unaligned.json", include_str!("../scenarios/two-inputs-unaligned.json")),
    ];
    assert_eq!(files.len(), fixture.len(), "every scenario file is checked in the browser too");
    for (name, text) in files {
        let played = Scenario::from_json(text).unwrap().play().unwrap();
        let fp = format!("{:016x}", fingerprint(played.events.iter().flatten()));
        assert_eq!(fixture[name], fp, "{name}: wasm and native runs differ");
    }
}
