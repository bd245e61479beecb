//! Browser test of the batch room (wasm-bindgen-test in headless Chromium): the room is mounted
//! in a fresh div by a small wrapper that owns the page's reducer (for the language, presenter
//! mode and the dispatch a room is handed), and clicked through a recomputation: the article's
//! figure, executor 0 lost while P10 runs, FetchFailed, the parent stage resubmitted for P00
//! alone, every word exactly once; then the keyboard, both languages, presenter mode, the lesson's
//! prediction, storage and the link.
#![cfg(target_arch = "wasm32")]

use barrierscope::app::rooms::{batch, RoomProps};
use barrierscope::app::UiState;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement};
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::{choose, click, document, find, key, storage, text};

#[component]
fn Wrapper() -> Html {
    let state = use_reducer(UiState::initial);
    let props = RoomProps {
        lang: state.lang,
        presenter: state.presenter,
        run: state.run(),
        dispatch: state.dispatcher(),
        close: Callback::noop(),
    };
    batch::render(props)
}

/// A mounted room; dropped at the end of a test, it unmounts (and lets go of the keyboard).
struct Mounted(Element, Option<yew::AppHandle<Wrapper>>);

impl std::ops::Deref for Mounted {
    type Target = Element;
    fn deref(&self) -> &Element {
        &self.0
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(h) = self.1.take() {
            h.destroy();
        }
        self.0.remove();
    }
}

async fn mount_room() -> Mounted {
    let div = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&div).unwrap();
    let handle = yew::Renderer::<Wrapper>::with_root(div.clone()).render();
    yew::scheduler::flush().await;
    Mounted(div, Some(handle))
}

fn clear_hash() {
    let w = web_sys::window().unwrap();
    let loc = w.location();
    let url = format!("{}{}", loc.origin().unwrap(), loc.pathname().unwrap());
    w.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url)).unwrap();
}

async fn fresh() -> Mounted {
    storage().clear().unwrap();
    clear_hash();
    mount_room().await
}

fn attr(root: &Element, sel: &str, name: &str) -> String {
    find(root, sel).get_attribute(name).unwrap_or_default()
}

async fn steps(root: &Element, n: usize) {
    for _ in 0..n {
        click(root, "#batch-step").await;
    }
}

fn verdicts(root: &Element) -> Vec<String> {
    let rows = root.query_selector_all("#batch-ledger tbody tr").unwrap();
    (0..rows.length())
        .map(|i| rows.item(i).unwrap().dyn_into::<Element>().unwrap().get_attribute("data-verdict").unwrap())
        .collect()
}

#[wasm_bindgen_test]
async fn losing_executor_0_recomputes_p00_and_p10_only() {
    let root = fresh().await;
    assert_eq!(attr(&root, "#batch-room", "data-engine"), "spark");
    // Stage 0: L0 W0 P00 and its shuffle output, L1 W1 P01 and its; then P10 on executor 0.
    steps(&root, 9).await;
    assert_eq!(attr(&root, "#batch-cell-P10", "data-state"), "now");
    assert_eq!(attr(&root, "#batch-cell-P00", "data-state"), "shuffle");
    click(&root, "#batch-crash-0").await;
    assert_eq!(attr(&root, "#batch-cell-P00", "data-state"), "lost");
    assert_eq!(attr(&root, "#batch-cell-P01", "data-state"), "shuffle", "P01's output lives on executor 1");
    assert!(text(&root, "#batch-narration").contains("Executor 0 was lost"));
    click(&root, "#batch-step").await;
    assert!(text(&root, "#batch-narration").contains("FetchFailed"), "{}", text(&root, "#batch-narration"));
    // The resubmitted map task climbs the lineage: L0 first, P00 still to compute (dashed).
    click(&root, "#batch-step").await;
    assert_eq!(attr(&root, "#batch-cell-L0", "data-state"), "now");
    assert_eq!(attr(&root, "#batch-cell-P00", "data-state"), "to-compute");
    assert!(text(&root, "#batch-narration").contains("resubmits stage 0"));
    click(&root, "#batch-end").await;
    for (part, times) in
        [("L0", "2"), ("W0", "2"), ("P00", "2"), ("P10", "2"), ("L1", "1"), ("W1", "1"), ("P01", "1"), ("P11", "1")]
    {
        assert_eq!(attr(&root, &format!("#batch-cell-{part}"), "data-computed"), times, "{part}");
    }
    assert!(text(&root, "#batch-cost-recomputed").contains('4'));
    assert_eq!(attr(&root, "#batch-headline", "data-exactly-once"), "true");
    let v = verdicts(&root);
    assert_eq!(v.len(), 12);
    assert!(v.iter().all(|x| x == "exactly-once"), "{v:?}");
}

#[wasm_bindgen_test]
async fn keys_languages_presenter_and_hadoop() {
    let root = fresh().await;
    key("ArrowRight").await;
    key("ArrowRight").await;
    assert_eq!(attr(&root, "#batch-room", "data-step"), "2");
    key("ArrowLeft").await;
    assert_eq!(attr(&root, "#batch-room", "data-step"), "1");
    key("f").await;
    assert!(text(&root, "#batch-narration").contains("failed on executor 0"));
    click(&root, "#btn-room-lang").await;
    assert_eq!(attr(&root, "#batch-room", "data-lang"), "zh");
    assert!(text(&root, "#batch-narration").contains("失败"), "{}", text(&root, "#batch-narration"));
    click(&root, "#btn-room-lang").await;
    // Presenter mode is the page's (P and Escape are the page's keys in every room); the switch
    // is in the header every room shows (issue 48).
    click(&root, "#btn-room-presenter").await;
    assert_eq!(attr(&root, "#batch-room", "data-presenter"), "true");
    assert!(attr(&root, "#batch-room", "class").contains("presenter"));
    click(&root, "#btn-room-presenter").await;
    assert_eq!(attr(&root, "#batch-room", "data-presenter"), "false");
    // Hadoop: a reduce fails after the maps, only the reduce runs again.
    choose(&root, "#batch-job", "hadoop-wordcount").await;
    assert_eq!(attr(&root, "#batch-room", "data-engine"), "hadoop");
    steps(&root, 7).await;
    assert_eq!(attr(&root, "#batch-task-R0", "data-state"), "running");
    click(&root, "#batch-fail").await;
    click(&root, "#batch-end").await;
    assert_eq!(attr(&root, "#batch-task-R0", "data-attempts"), "2");
    for m in ["M0", "M1", "M2"] {
        assert_eq!(attr(&root, &format!("#batch-task-{m}"), "data-attempts"), "1", "{m}");
    }
    assert_eq!(attr(&root, "#batch-headline", "data-exactly-once"), "true");
}

#[wasm_bindgen_test]
async fn the_lesson_predicts_then_reveals() {
    let root = fresh().await;
    click(&root, "#batch-lesson").await;
    assert!(text(&root, "#batch-lesson-title").contains("Batch: re-run the task, recompute the lineage"));
    let focused =
        || web_sys::window().unwrap().document().unwrap().active_element().map(|e| e.id()).unwrap_or_default();
    assert_eq!(focused(), "batch-lesson-bar", "the lesson takes the focus from the button that gave way to it");
    for _ in 0..7 {
        click(&root, "#batch-lesson-next").await;
    }
    assert!(text(&root, "#batch-lesson-title").contains("Predict"));
    assert!(find(&root, "#batch-reveal").has_attribute("disabled"), "reveal waits for a prediction");
    // The article's answer: P00 and P01 both.
    for p in ["P10", "P00", "P01"] {
        click(&root, &format!("#batch-predict-{p}")).await;
    }
    click(&root, "#batch-reveal").await;
    let score = text(&root, "#batch-score");
    assert!(score.contains("L0 P00 P10 W0") && score.contains("2/4") && score.contains("wrongly picked: 1"), "{score}");
    assert_eq!(attr(&root, "#batch-headline", "data-exactly-once"), "true");
    click(&root, "#batch-lesson-next").await;
    assert!(text(&root, "#batch-lesson-say").contains("The article says P00 and P01 are both recomputed"));
    for _ in 0..5 {
        click(&root, "#batch-lesson-next").await;
    }
    assert!(text(&root, "#batch-lesson-say").contains("micro-batch"));
    assert!(root.query_selector("#batch-to-streaming").unwrap().is_some());
    // PageDown on the last step keeps the lesson there.
    key("PageDown").await;
    assert!(text(&root, "#batch-lesson-say").contains("micro-batch"));
    click(&root, "#btn-room-lang").await;
    assert!(
        text(&root, "#batch-lesson-title").contains("批处理：重跑任务，按血统重算"),
        "{}",
        text(&root, "#batch-lesson-title")
    );
    assert!(text(&root, "#batch-lesson-say").contains("微批"));
    key("PageUp").await;
    assert_eq!(text(&root, "#batch-lesson-step"), "第 13 / 14 步");
    click(&root, "#btn-room-lang").await;
    // The one lesson bar: the main screen's frame, with its way out.
    assert!(find(&root, "#batch-lesson-bar")
        .get_attribute("class")
        .unwrap_or_default()
        .split(' ')
        .any(|c| c == "lesson-bar"));
    assert_eq!(text(&root, "#batch-lesson-step"), "step 13 of 14");
    click(&root, "#batch-lesson-exit").await;
    assert!(root.query_selector("#batch-lesson-bar").unwrap().is_none(), "✕ Leave the lesson leaves it");
    assert_eq!(focused(), "batch-lesson", "the focus returns to the lesson's button");
}

#[wasm_bindgen_test]
async fn storage_and_links_reopen_the_run_and_a_bad_link_loses_nothing() {
    let root = fresh().await;
    choose(&root, "#batch-keep-P0", "checkpoint").await;
    steps(&root, 5).await;
    let kept = storage().get_item(batch::STORAGE_KEY).unwrap().expect("the run is stored");
    assert!(kept.contains("\"checkpoint\""), "{kept}");
    // Mounted again, the room reopens the stored run.
    let again = mount_room().await;
    assert_eq!(attr(&again, "#batch-room", "data-step"), "5");
    click(&root, "#batch-share").await;
    let url = find(&root, "#batch-share-url").dyn_into::<HtmlInputElement>().unwrap().value();
    assert!(url.contains("#room=batch&run="), "{url}");
    storage().clear().unwrap();
    let linked = mount_room().await;
    assert_eq!(attr(&linked, "#batch-room", "data-step"), "5");
    assert!(text(&linked, "#batch-notice").contains("Opened the batch run from the link"));
    // A damaged link says why; the room shows the default figure, nothing else lost.
    let w = web_sys::window().unwrap();
    w.history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#room=batch&run=%%bad"))
        .unwrap();
    let bad = mount_room().await;
    assert!(text(&bad, "#batch-notice").contains("damaged"), "{}", text(&bad, "#batch-notice"));
    assert_eq!(attr(&bad, "#batch-room", "data-step"), "0");
    clear_hash();
}
