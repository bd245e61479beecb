//! Browser tests of the ⚙ Program & savepoints room (wasm-bindgen-test in headless Chromium), on
//! the real app: stop keyed-count with a savepoint, rescale Count from 2 to 3 and restore; the
//! ring's keys must sit where `KeyGroupRangeAssignment` puts them, and the main run, stepped to
//! its end, must count every record exactly once. Then the line without uids: a Filter inserted
//! before Count is refused with Flink's message naming Count's generated id, and
//! `--allowNonRestoredState` drops exactly Count's state.
#![cfg(target_arch = "wasm32")]

mod common;
use common::{choose, clear_link, click, find, mount, run_to_end, text, until, verdicts, wait};

use barrierscope::engine::builtin;
use barrierscope::engine::core::dataflow::key_groups::subtask_for_key;
use barrierscope::engine::program::operator_id::operator_ids;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Opens the room on `job`, steps `steps` times, stops with a savepoint and runs until stopped.
async fn stopped(job: &str, steps: usize) -> Element {
    clear_link();
    let root = mount().await;
    click(&root, "#open-program").await;
    until(&root, "#program-job").await;
    choose(&root, "#program-job", job).await;
    for _ in 0..steps {
        click(&root, "#btn-step").await;
    }
    click(&root, "#btn-stop-savepoint").await;
    click(&root, "#btn-finish-stop").await;
    wait(10).await;
    assert!(text(&root, "#job-status").contains("stopped"), "{}", text(&root, "#job-status"));
    root
}

#[wasm_bindgen_test]
async fn rescale_count_from_two_to_three_and_every_record_counts_once() {
    let root = stopped("keyed-count", 6).await;
    click(&root, "#par-plus-Count").await;
    assert_eq!(text(&root, "#par-Count"), "3");
    let row = find(&root, "#mapping-table tr[data-operator=\"Count\"]");
    assert_eq!(row.get_attribute("data-fate").unwrap(), "kept");
    click(&root, "#btn-restore-into").await;
    until(&root, "#restore-result[data-result=\"restored\"]").await;
    let ring = find(&root, "#restore-result #key-ring");
    assert_eq!(
        (ring.get_attribute("data-old").unwrap(), ring.get_attribute("data-new").unwrap()),
        ("2".into(), "3".into())
    );
    let keys = root.query_selector_all("#restore-result .ring-key").unwrap();
    assert_eq!(keys.length(), 4);
    for i in 0..keys.length() {
        let g: Element = keys.item(i).unwrap().dyn_into().unwrap();
        let k = g.get_attribute("data-key").unwrap();
        assert_eq!(g.get_attribute("data-old").unwrap(), subtask_for_key(&k, 128, 2).to_string(), "{k}");
        assert_eq!(g.get_attribute("data-new").unwrap(), subtask_for_key(&k, 128, 3).to_string(), "{k}");
    }
    // The main run is the new program: Count has three subtasks on the canvas, and runs on.
    assert!(root.query_selector("g.task[data-task=\"Count[2]\"]").unwrap().is_some(), "the canvas shows Count[2]");
    run_to_end(&root).await;
    let v = verdicts(&root);
    assert_eq!(v.len(), 8);
    assert!(v.values().all(|x| x == "exactly-once"), "{v:?}");
    // Both languages.
    click(&root, "#btn-room-lang").await;
    assert!(text(&root, "#h-restore").contains("恢复"));
    click(&root, "#btn-room-lang").await;
}

#[wasm_bindgen_test]
async fn a_filter_without_uids_is_refused_and_allow_non_restored_state_drops_counts_state() {
    let root = stopped("line", 8).await;
    click(&root, "#btn-insert-filter").await;
    let count_id = operator_ids(&builtin("line").unwrap().spec)[2].hex();
    let msg = text(&root, "#flink-message");
    assert!(
        msg.contains(&format!("Cannot map checkpoint/savepoint state for operator {count_id} to the new program, because the operator is not available in the new program.")),
        "{msg}"
    );
    click(&root, "#btn-restore-into").await;
    until(&root, "#restore-result[data-result=\"refused\"]").await;
    assert!(text(&root, "#job-status").contains("stopped"), "a refused restore leaves the job as it was");
    let allow: HtmlInputElement = find(&root, "#allow-non-restored").dyn_into().unwrap();
    allow.click();
    yew::scheduler::flush().await;
    let fate = |op: &str| {
        find(&root, &format!("#mapping-table tr[data-operator=\"{op}\"]")).get_attribute("data-fate").unwrap()
    };
    assert_eq!((fate("Source"), fate("Map")), ("kept".into(), "kept".into()));
    assert_eq!(fate("Count"), "dropped");
    click(&root, "#btn-restore-into").await;
    until(&root, "#restore-result[data-result=\"restored\"]").await;
    run_to_end(&root).await;
    let v = verdicts(&root);
    assert!(v.values().any(|x| x == "lost"), "Count's dropped state is lost: {v:?}");
    assert!(v.values().all(|x| x == "lost" || x == "exactly-once"), "{v:?}");
}

/// Issue 49, item 4: on line-sink, without uids, an inserted Filter takes Count's generated id
/// (`StreamGraphHasherV2`): the mapping table gives Count's state to the Filter, which never reads
/// it ("unread"), and the restore goes through without `--allowNonRestoredState` and without a
/// refusal, as Flink's does.
#[wasm_bindgen_test]
async fn on_line_sink_a_filter_takes_counts_id_and_the_restore_is_silent() {
    let root = stopped("line-sink", 16).await;
    click(&root, "#btn-insert-filter").await;
    let fate = |op: &str| {
        find(&root, &format!("#mapping-table tr[data-operator=\"{op}\"]")).get_attribute("data-fate").unwrap()
    };
    assert_eq!(fate("Count"), "unread");
    assert!(root.query_selector("#flink-message").unwrap().is_none(), "no refusal");
    click(&root, "#btn-restore-into").await;
    until(&root, "#restore-result[data-result=\"restored\"]").await;
    run_to_end(&root).await;
    let v = verdicts(&root);
    assert!(v.values().all(|x| x == "lost" || x == "exactly-once"), "{v:?}");
}
