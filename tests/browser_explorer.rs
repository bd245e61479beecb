//! Browser tests of the ⋔ Every schedule room (wasm-bindgen-test in headless Chromium), on the
//! real app: explore a preset across animation frames, compare the table with the engine's own
//! search of the same study, open the shortest loss on the canvas, step it to the verdict the
//! explorer promised, and classify a handler in the lab as theory says.
#![cfg(target_arch = "wasm32")]

mod common;
use common::{choose, clear_link, click, find, mount, text, until};

use barrierscope::classroom::RunConfig;
use barrierscope::engine::explorer::lab::{classify, Candidate};
use barrierscope::engine::explorer::Explorer;
use barrierscope::engine::mechanisms::handler_lab::Handler;
use barrierscope::engine::{FaultBudget, Settings, Strategy};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

fn data(root: &Element, selector: &str, name: &str) -> String {
    find(root, selector).get_attribute(&format!("data-{name}")).unwrap_or_default()
}

#[wasm_bindgen_test]
async fn explore_open_the_counterexample_and_step_it() {
    clear_link();
    let root = mount().await;
    click(&root, "#open-explorer").await;
    until(&root, "#xp-study").await;
    choose(&root, "#xp-study", "timers-abc").await;
    click(&root, "#xp-explore").await;
    until(&root, "#xp-schedules[data-state=\"done\"]").await;
    // The engine's own search of the same study, natively in this test.
    let config = RunConfig { job: "line".into(), settings: Settings::new(Strategy::Timers), seed: 1, records: Some(3) };
    let mut ex = Explorer::new(config.scenario().sim().unwrap(), FaultBudget::default()).unwrap();
    while !ex.run(1000).done {}
    let r = ex.report().unwrap();
    assert_eq!(data(&root, "#xp-summary", "states"), r.states.to_string());
    assert_eq!(data(&root, "#xp-summary", "schedules"), r.schedules.to_string());
    assert_eq!(data(&root, "#xp-row-state", "lost"), r.state.lost.to_string());
    assert_eq!(data(&root, "#xp-row-state", "duplicated"), r.state.duplicated.to_string());
    assert_eq!(data(&root, "#xp-history", "incomplete"), r.history.incomplete.to_string());
    assert_eq!(data(&root, "#xp-history", "out-of-order"), r.history.out_of_order.to_string());
    for id in ["incomplete", "out-of-order"] {
        let c = r.counterexamples.iter().find(|c| c.bad.id() == id).unwrap();
        assert_eq!(data(&root, &format!("#xp-cx-{id}"), "steps"), c.schedule.len().to_string(), "{id}");
    }
    assert!(data(&root, "#xp-summary", "frames").parse::<u32>().unwrap() >= 1);
    let lost = r.counterexamples.iter().find(|c| c.bad.id() == "state-lost").unwrap();
    assert_eq!(data(&root, "#xp-cx-state-lost", "steps"), lost.schedule.len().to_string());

    click(&root, "#xp-cx-state-lost-open").await;
    until(&root, "#decisive-note").await;
    let marks: Vec<String> = {
        let list = root.query_selector_all(".decisive-mark").unwrap();
        (0..list.length())
            .map(|i| list.item(i).unwrap().dyn_into::<Element>().unwrap().get_attribute("data-step").unwrap())
            .collect()
    };
    let want: Vec<String> = lost.story.decisive.iter().map(|d| d.step.to_string()).collect();
    assert_eq!(marks, want, "the decisive steps are marked");
    assert_eq!(data(&root, "#app", "step"), "0");
    for _ in 0..lost.schedule.len() {
        click(&root, "#btn-step").await;
    }
    assert_eq!(data(&root, "#app", "step"), lost.schedule.len().to_string());
    for r in ["a", "b", "c"] {
        assert_eq!(data(&root, &format!("#verdict tr[data-record=\"{r}\"]"), "verdict"), "lost", "{r}");
    }
    assert!(text(&root, "#decisive-note").contains("in transit"));
    // Another run drops the marks.
    click(&root, "#decisive-close").await;
    assert!(root.query_selector("#decisive-note").unwrap().is_none());
    root.remove();
}

#[wasm_bindgen_test]
async fn the_lab_classifies_the_tracker_as_at_least_once() {
    clear_link();
    let root = mount().await;
    click(&root, "#open-explorer").await;
    until(&root, "#xp-tab-lab").await;
    click(&root, "#xp-tab-lab").await;
    click(&root, "#lab-preset-tracker").await;
    click(&root, "#lab-classify").await;
    until(&root, "#lab-verdict").await;
    let want = classify(Candidate::Handler(Handler::TRACKER)).unwrap();
    assert_eq!(data(&root, "#lab-verdict", "guarantee"), want.guarantee.id());
    assert_eq!(want.guarantee.id(), "at least once");
    root.remove();
}
