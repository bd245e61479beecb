//! Browser tests of sharing (their own page, since links and storage are global): a link
//! restores the same frame, the last run survives a reload, and a bad link or stored entry names
//! its problem and changes nothing. One sequential test, so nothing else touches the address bar
//! or the storage meanwhile.
#![cfg(target_arch = "wasm32")]

mod common;
use common::*;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

/// Lets a hashchange event reach the app (it fires asynchronously).
async fn settle() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 30).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
    yew::scheduler::flush().await;
}

fn steps(root: &Element) -> String {
    find(root, "#app").get_attribute("data-steps").unwrap()
}

#[wasm_bindgen_test]
async fn links_and_storage() {
    a_link_restores_the_same_frame_and_a_bad_link_changes_nothing().await;
    the_last_run_survives_a_reload_and_a_bad_entry_is_named().await;
}

async fn a_link_restores_the_same_frame_and_a_bad_link_changes_nothing() {
    let root = mount().await;
    choose(&root, "#sel-lesson", "1").await;
    for _ in 0..3 {
        click(&root, "#lesson-next").await;
    }
    click(&root, "#btn-lang").await;
    click(&root, "#btn-share").await;
    let url = find(&root, "#share-url").dyn_into::<web_sys::HtmlInputElement>().unwrap().value();
    assert!(url.contains("#run="), "{url}");
    let step = find(&root, "#app").get_attribute("data-step").unwrap();
    let ledger = verdicts(&root);
    // Open the link in a fresh app: same step, lesson step, language and verdict.
    let copy = mount().await;
    assert_eq!(find(&copy, "#app").get_attribute("data-step").unwrap(), step);
    assert_eq!(find(&copy, "#lesson").get_attribute("data-step").unwrap(), "4");
    assert_eq!(find(&copy, "#app").get_attribute("data-lang").unwrap(), "zh");
    assert_eq!(verdicts(&copy), ledger);
    assert!(text(&copy, "#notice").contains("已打开链接"));
    // A broken link: the app says why and shows the story, untouched.
    web_sys::window().unwrap().location().set_hash("run=bm90IGpzb24").unwrap();
    let broken = mount().await;
    assert!(
        text(&broken, "#notice").contains("Couldn't open the link: it is not a valid JSON run"),
        "{}",
        text(&broken, "#notice")
    );
    assert_eq!(steps(&broken), "0");
    // The same broken link arriving while a run is open leaves that run as it was.
    click(&broken, "#read-Source").await;
    web_sys::window().unwrap().location().set_hash("run=%%%").unwrap();
    settle().await;
    assert_eq!(steps(&broken), "1");
    assert!(text(&broken, "#notice").contains("not a Barrierscope link"), "{}", text(&broken, "#notice"));
    let h = web_sys::window().unwrap().history().unwrap();
    h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#")).unwrap();
}

async fn the_last_run_survives_a_reload_and_a_bad_entry_is_named() {
    let root = mount().await;
    for _ in 0..2 {
        click(&root, "#read-Source").await;
    }
    let saved = storage().get_item("barrierscope.run").unwrap().expect("the run is kept");
    assert!(saved.contains("\"actions\":\"r0 r0\""), "{saved}");
    let again = mount_keeping_storage().await;
    assert_eq!(steps(&again), "2", "{} / {saved}", text(&again, "#notice"));
    for (bad, words) in [
        ("{\"barrierscope\": 3}", "format version 3"),
        ("not json at all", "not a valid JSON run"),
        (
            "{\"barrierscope\":1,\"job\":\"line\",\"settings\":{},\"seed\":1,\"actions\":\"R\",\"at\":0}",
            "action #1 (restore) is not enabled",
        ),
    ] {
        storage().set_item("barrierscope.run", bad).unwrap();
        let app = mount_keeping_storage().await;
        let notice = text(&app, "#notice");
        assert!(notice.contains("Couldn't open the run saved in this browser") && notice.contains(words), "{notice}");
        assert_eq!(steps(&app), "0");
    }
    storage().clear().unwrap();
}
