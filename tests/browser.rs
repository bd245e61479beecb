//! Browser tests (wasm-bindgen-test in headless Chromium): the real app is mounted in a fresh
//! div and clicked through the a, b, c story; the engine's fingerprints equal the native ones.
#![cfg(target_arch = "wasm32")]

use std::collections::BTreeMap;

use barrierscope::engine::{fingerprint, Scenario};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::*;

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

/// Walks lesson 2 (per-task timers lose a, b, c) to its predict step, checks that Reveal waits
/// for every mark, marks a, b, c lost and the rest exactly once, reveals, and checks the
/// narration, the score and the verdict.
async fn walk_lesson_2(root: &Element, zh: bool) {
    choose(root, "#sel-lesson", "1").await;
    let lesson = find(root, "#lesson");
    assert_eq!(lesson.get_attribute("data-lesson").unwrap(), "timers-lose");
    if zh {
        assert!(text(root, "#lesson-title").contains("各自定时保存"), "{}", text(root, "#lesson-title"));
        assert!(text(root, "#lesson-say").contains("协调"));
    } else {
        assert!(text(root, "#lesson-title").contains("Per-task timers lose a, b, c"));
    }
    // Steps 2 and 3: the source reads a, b, c, then every timer fires.
    click(root, "#lesson-next").await;
    assert_eq!(find(root, "[data-channel=\"Source->Map\"]").get_attribute("data-queued").unwrap(), "3");
    click(root, "#lesson-next").await;
    let narration = text(root, "#narration");
    if zh {
        assert!(narration.contains("的定时器触发"), "{narration}");
    } else {
        assert!(narration.contains("timer fired: it saved its own state, uncoordinated"), "{narration}");
    }
    click(root, "#lesson-next").await;
    assert!(text(root, "[data-flag=\"in-transit\"]").contains("a b c"));
    click(root, "#lesson-next").await;
    // The predict step: nothing has crashed yet.
    assert!(root.query_selector("#predict").unwrap().is_some());
    assert!(text(root, "#lesson-next").contains(if zh { "揭晓" } else { "Reveal" }));
    // Every record starts unmarked, and Reveal waits until each one is marked.
    assert_eq!(find(root, "#predict-a").get_attribute("data-prediction").unwrap(), "unmarked");
    click(root, "#lesson-next").await;
    assert_eq!(find(root, "#lesson").get_attribute("data-revealed").unwrap(), "false");
    assert!(text(root, "#notice").contains(if zh { "还剩 8 条" } else { "Mark every record first: 8 left" }));
    // One click marks exactly once; a second makes it lost.
    for r in ["a", "b", "c"] {
        for _ in 0..2 {
            click(root, &format!("#predict-{r}")).await;
        }
        assert_eq!(find(root, &format!("#predict-{r}")).get_attribute("data-prediction").unwrap(), "lost");
    }
    click(root, "#lesson-next").await;
    assert!(text(root, "#notice").contains(if zh { "还剩 5 条" } else { "5 left" }));
    for r in ["d", "e", "f", "g", "h"] {
        click(root, &format!("#predict-{r}")).await;
        assert_eq!(find(root, &format!("#predict-{r}")).get_attribute("data-prediction").unwrap(), "exactly-once");
    }
    click(root, "#lesson-next").await;
    assert_eq!(find(root, "#lesson").get_attribute("data-revealed").unwrap(), "true");
    let score = find(root, "#score");
    assert_eq!(score.get_attribute("data-right").unwrap(), "8");
    assert_eq!(score.get_attribute("data-total").unwrap(), "8");
    let say = text(root, "#lesson-say");
    if zh {
        assert!(say.contains("丢失的是 a、b、c"), "{say}");
        assert!(text(root, "#score").contains("你预测对了 8 条记录中的 8 条"));
        assert!(text(root, "#score").contains("a：猜 丢失 · 实际 丢失 ✔"), "{}", text(root, "#score"));
        assert!(text(root, "#narration").contains("每个任务都从自己最近一次保存恢复。"));
        assert!(text(root, "#tally-state").contains("丢失"));
    } else {
        assert!(say.contains("Lost: a, b and c"), "{say}");
        assert!(text(root, "#score").contains("You predicted 8 of 8 records correctly."));
        assert!(text(root, "#score").contains("a: guessed lost · was lost ✔"), "{}", text(root, "#score"));
        assert!(text(root, "#tally-state").contains("lost"));
    }
    let v = verdicts(root);
    for r in ["a", "b", "c"] {
        assert_eq!(v[r], "lost", "{r}");
    }
    assert!(["d", "e", "f", "g", "h"].iter().all(|r| v[*r] == "exactly-once"), "{v:?}");
}

#[wasm_bindgen_test]
async fn lesson_2_in_english() {
    let root = mount().await;
    walk_lesson_2(&root, false).await;
}

#[wasm_bindgen_test]
async fn lesson_2_in_chinese() {
    let root = mount().await;
    click(&root, "#btn-lang").await;
    assert_eq!(find(&root, "#app").get_attribute("data-lang").unwrap(), "zh");
    walk_lesson_2(&root, true).await;
}

#[wasm_bindgen_test]
fn fingerprints_equal_native() {
    let fixture: BTreeMap<String, String> = serde_json::from_str(include_str!("fixtures/fingerprints.json")).unwrap();
    let files: [(&str, &str); 14] = [
        ("abc-barriers-exactly-once.json", include_str!("../scenarios/abc-barriers-exactly-once.json")),
        ("abc-timers-duplicated.json", include_str!("../scenarios/abc-timers-duplicated.json")),
        ("abc-timers-lost.json", include_str!("../scenarios/abc-timers-lost.json")),
        ("jobmanager-without-ha.json", include_str!("../scenarios/jobmanager-without-ha.json")),
        ("kafka-timeout-loses.json", include_str!("../scenarios/kafka-timeout-loses.json")),
        ("kafka-zombie-fenced.json", include_str!("../scenarios/kafka-zombie-fenced.json")),
        ("savepoint-stop-and-submit.json", include_str!("../scenarios/savepoint-stop-and-submit.json")),
        ("sink-two-phase-commit.json", include_str!("../scenarios/sink-two-phase-commit.json")),
        ("socket-flink-loses.json", include_str!("../scenarios/socket-flink-loses.json")),
        ("socket-spark-wal-keeps.json", include_str!("../scenarios/socket-spark-wal-keeps.json")),
        ("storm-crash-duplicates.json", include_str!("../scenarios/storm-crash-duplicates.json")),
        ("two-inputs-at-least-once.json", include_str!("../scenarios/two-inputs-at-least-once.json")),
        ("two-inputs-unaligned.json", include_str!("../scenarios/two-inputs-unaligned.json")),
        ("two-pipelines-region-failover.json", include_str!("../scenarios/two-pipelines-region-failover.json")),
    ];
    assert_eq!(files.len(), fixture.len(), "every scenario file is checked in the browser too");
    for (name, text) in files {
        let played = Scenario::from_json(text).unwrap().play().unwrap();
        let fp = format!("{:016x}", fingerprint(played.events.iter().flatten()));
        assert_eq!(fixture[name], fp, "{name}: wasm and native runs differ");
    }
}

/// Storm: a read sends init to the acker; stepping it there shows the tree's XOR value; the map's
/// ack follows; the value is the XOR of the edges still open.
#[wasm_bindgen_test]
async fn storm_steps_an_ack_to_the_acker() {
    let root = mount().await;
    choose(&root, "#sel-job", "line").await;
    choose(&root, "#sel-strategy", "storm-acker").await;
    click(&root, "#read-Source").await;
    assert!(text(&root, "[data-ack-row=\"Source → acker\"]").contains("init a"));
    click(&root, "[data-ack-row=\"Source → acker\"]").await;
    let row = find(&root, ".acker-row[data-root]");
    let val = row.get_attribute("data-val").unwrap();
    assert_ne!(val, "0000000000000000", "one edge open: Source->Map's tuple");
    click(&root, "[data-channel=\"Source->Map\"] .lane-hit").await;
    click(&root, "[data-ack-row=\"Map → acker\"]").await;
    let after = find(&root, ".acker-row[data-root]").get_attribute("data-val").unwrap();
    assert_ne!(after, val, "Map's ack XORed its input out and its child in");
    click(&root, "[data-channel=\"Map->Count\"] .lane-hit").await;
    click(&root, "[data-ack-row=\"Count → acker\"]").await;
    assert!(root.query_selector(".acker-row[data-root]").unwrap().is_none(), "the tree reached 0 and left the table");
    assert!(text(&root, "[data-ack-row=\"acker → Source\"]").contains("✓ a"));
    click(&root, "[data-ack-row=\"acker → Source\"]").await;
    assert!(text(&root, "[data-spout=\"Source\"]").contains("committed offset 1"));
    assert!(text(&root, "#narration").contains("forgot it"));
}

/// Issue 10: Spark Streaming on the page. The receiver stores a, b, c as blocks, the driver cuts
/// batch 1 at step 4 and its job runs (stepped by clicking the lanes); then on a socket with the
/// write-ahead log the driver dies and the log brings every record back, exactly once.
#[wasm_bindgen_test]
async fn spark_streaming_cuts_a_batch_and_its_log_survives_the_driver() {
    let root = mount().await;
    choose(&root, "#sel-job", "line-sink").await;
    choose(&root, "#sel-strategy", "spark-streaming").await;
    for _ in 0..3 {
        click(&root, "#read-Source").await;
    }
    assert_eq!(root.query_selector_all("#spark-band .spark-block.unallocated").unwrap().length(), 3);
    click(&root, "#btn-wait").await;
    let band = text(&root, "#spark-band");
    assert!(band.contains("batch 1 @4") && band.contains("running"), "{band}");
    for ch in ["Source->Map", "Map->Count", "Count->Sink"] {
        for _ in 0..3 {
            click(&root, &format!("[data-channel=\"{ch}\"] .lane-hit")).await;
        }
    }
    assert!(text(&root, "#spark-band").contains("batch 1: scheduling delay 0"), "{}", text(&root, "#spark-band"));
    choose(&root, "#sel-source", "socket").await;
    choose(&root, "#sel-wal", "on").await;
    assert_eq!(
        find(&root, "#read-Source").get_attribute("aria-disabled").as_deref(),
        Some("true"),
        "a receiver on a socket stores by itself"
    );
    for _ in 0..3 {
        click(&root, "#btn-wait").await;
    }
    click(&root, "#btn-crash-jm").await;
    assert!(text(&root, "#spark-band").contains("down"));
    assert_eq!(root.query_selector_all("#spark-band .spark-block[data-wal=\"true\"]").unwrap().length(), 4);
    click(&root, "#btn-restore").await;
    run_to_end(&root).await;
    let v = verdicts(&root);
    assert!(v.values().all(|x| x == "exactly-once"), "{v:?}");
    assert!(text(&root, "#storage").contains("metadata checkpoint"), "{}", text(&root, "#storage"));
}

/// Issue 50: the toy mechanism (`mechanisms/state_log.rs`) is on the page through its own file
/// and one catalogue line: its menu entry says it is a toy, in both languages; a run under it draws
/// on the canvas; the legend shows its one mark; a refusal names it; and a crash with a record on
/// a channel loses that record and duplicates nothing, as theory says.
#[wasm_bindgen_test]
async fn the_toy_mechanism_is_offered_on_the_page() {
    let root = mount().await;
    choose(&root, "#sel-job", "line").await;
    let option = find(&root, "#sel-strategy option[value=\"state-log\"]").text_content().unwrap_or_default();
    assert!(option.contains("a toy"), "{option}");
    choose(&root, "#sel-strategy", "state-log").await;
    assert_eq!(find(&root, "#legend").get_attribute("data-marks").as_deref(), Some("1"), "only the next record");
    // With no coordinator, the JobManager's box and the Storage panel say what the row says it
    // keeps: not "nothing is saved".
    assert!(text(&root, "#jm-pending").contains("logs its state after every record"), "{}", text(&root, "#jm-pending"));
    assert!(text(&root, "#jm-completed").contains("from its latest log entry"), "{}", text(&root, "#jm-completed"));
    assert!(text(&root, "#storage").contains("logs its state"), "{}", text(&root, "#storage"));
    let refusal = find(&root, "#btn-checkpoint").get_attribute("title").unwrap_or_default();
    assert!(refusal.contains("the per-record state log"), "the refusal names it: {refusal}");
    click(&root, "#read-Source").await;
    click(&root, "#btn-crash").await;
    click(&root, "#btn-restore").await;
    run_to_end(&root).await;
    let v = verdicts(&root);
    assert_eq!(v.values().filter(|x| *x == "lost").count(), 1, "{v:?}");
    assert!(v.values().all(|x| x != "duplicated"), "{v:?}");
    click(&root, "#btn-lang").await;
    let zh = find(&root, "#sel-strategy option[value=\"state-log\"]").text_content().unwrap_or_default();
    assert!(zh.contains("玩具"), "{zh}");
}

/// Issue 55: Structured Streaming is offered on the page: its menu entry in both languages, the
/// driver in the JobManager's place with its two logs, a read refused before the driver has
/// written the batch's offsets, and a driver crash in the middle of batch 0 after which the batch
/// runs again with the same offsets, so that no record is lost or duplicated.
#[wasm_bindgen_test]
async fn structured_streaming_is_offered_on_the_page() {
    let root = mount().await;
    choose(&root, "#sel-job", "line-sink").await;
    let option = find(&root, "#sel-strategy option[value=\"structured-streaming\"]").text_content().unwrap_or_default();
    assert!(option.contains("offset and commit logs"), "{option}");
    choose(&root, "#sel-strategy", "structured-streaming").await;
    // Its sink menu and the sink mode's are kept in step.
    open_settings(&root).await;
    let value = |sel: &str| find(&root, sel).dyn_into::<HtmlSelectElement>().unwrap().value();
    assert_eq!(value("#sel-output-sink"), "foreach", "append is a foreach writer");
    choose(&root, "#sel-output-sink", "foreach-batch").await;
    assert_eq!(value("#sel-sink"), "transactional");
    choose(&root, "#sel-sink", "append").await;
    assert_eq!(value("#sel-output-sink"), "foreach");
    assert!(text(&root, "#jm-title").contains("Spark driver"), "{}", text(&root, "#jm-title"));
    let refusal = text(&root, "#read-Source title");
    assert!(refusal.contains("has not written offsets/0 yet"), "the read is refused, and why: {refusal}");
    click(&root, "#btn-wait").await;
    assert!(text(&root, "#jm-pending").contains("offsets/0"), "{}", text(&root, "#jm-pending"));
    // The band lists the checkpoint location: offsets/0 names the source's range, running.
    let band = text(&root, "#structured-band");
    assert!(band.contains("offsets/0: Source 0–2 ▶") && band.contains("driver: batch 0 running"), "{band}");
    click(&root, "#read-Source").await;
    click(&root, "#btn-crash-jm").await;
    let band = text(&root, "#structured-band");
    assert!(band.contains("a restart now: batch 0 again, same offsets"), "{band}");
    assert!(text(&root, "#btn-crash-jm").contains("Crash driver"), "{}", text(&root, "#btn-crash-jm"));
    click(&root, "#btn-restore").await;
    run_to_end(&root).await;
    let v = verdicts(&root);
    assert!(!v.is_empty() && v.values().all(|x| x != "lost" && x != "duplicated"), "{v:?}");
    assert!(text(&root, "#jm-pending").contains("commits/"), "{}", text(&root, "#jm-pending"));
    assert!(text(&root, "#structured-band").contains("commits/0"), "{}", text(&root, "#structured-band"));
    click(&root, "#btn-lang").await;
    let zh = find(&root, "#sel-strategy option[value=\"structured-streaming\"]").text_content().unwrap_or_default();
    assert!(zh.contains("结构化流"), "{zh}");
}
