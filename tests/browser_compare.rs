//! Browser tests of the ◫ Side by side room (wasm-bindgen-test in headless Chromium). The room
//! is mounted by a small harness that owns the main screen's reducer, as the page's split point
//! does, and hands it `RoomProps`. Every figure of the cost table is read back from the page and
//! compared with the engine's own computation of the same comparison: `Lockstep`'s costs, as
//! `barrierscope compare --json` prints them. One test at a time owns the address bar and
//! storage, and each room is destroyed before the next is mounted (its keys listen on the
//! window).
#![cfg(target_arch = "wasm32")]

mod common;
use common::{click, document, find, storage, text};

use barrierscope::app::rooms::{compare, RoomProps};
use barrierscope::app::UiState;
use barrierscope::classroom::compare_lesson::{self, QUESTIONS};
use barrierscope::classroom::saved_comparison::{from_fragment, three_ways, SavedComparison};
use barrierscope::engine::comparison::{ComparisonFile, CrashPlace, Lockstep};
use std::collections::BTreeSet;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

#[derive(Properties, PartialEq, Default)]
struct HarnessProps {
    #[prop_or_default]
    presenter: bool,
}

#[component]
fn Harness(hp: &HarnessProps) -> Html {
    let state = use_reducer(UiState::initial);
    let closed = use_state(|| 0u32);
    let close = {
        let closed = closed.clone();
        Callback::from(move |_| closed.set(*closed + 1))
    };
    let props = RoomProps {
        lang: state.lang,
        presenter: state.presenter || hp.presenter,
        run: state.run(),
        dispatch: state.dispatcher(),
        close,
    };
    html! { <div class="harness" data-closed={closed.to_string()} data-lang={state.lang.id()}>{ compare::render(props) }</div> }
}

struct Mounted {
    root: Element,
    handle: Option<yew::AppHandle<Harness>>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            h.destroy();
        }
        self.root.remove();
    }
}

async fn mount_room(clear: bool) -> Mounted {
    mount_with(clear, false).await
}

async fn mount_with(clear: bool, presenter: bool) -> Mounted {
    if clear {
        storage().clear().unwrap();
    }
    let div = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&div).unwrap();
    let handle = yew::Renderer::<Harness>::with_root_and_props(div.clone(), HarnessProps { presenter }).render();
    yew::scheduler::flush().await;
    Mounted { root: div, handle: Some(handle) }
}

async fn key(k: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(k);
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    document().body().unwrap().dispatch_event(&ev).unwrap();
    yew::scheduler::flush().await;
}

async fn choose(root: &Element, selector: &str, value: &str) {
    let sel: HtmlSelectElement = find(root, selector).dyn_into().unwrap();
    sel.set_value(value);
    assert_eq!(sel.value(), value, "{selector} has an option {value}");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    sel.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    yew::scheduler::flush().await;
}

fn tick(root: &Element) -> u64 {
    find(root, "#cmp-room").get_attribute("data-tick").unwrap().parse().unwrap()
}

/// The engine's runs of `file` stepped to `tick`.
fn engine_at(file: &ComparisonFile, tick: u64) -> Lockstep {
    let mut l = Lockstep::new(file).unwrap();
    while l.tick < tick && l.step().unwrap() {}
    l
}

// How many figures the test compared.
thread_local! {
    static COMPARED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Every cell of the cost table against the engine's costs (the JSON `barrierscope compare
/// --json` prints under each run's "costs"): returns how many figures were compared.
fn check_table(root: &Element, expected: &Lockstep) -> usize {
    assert_eq!(tick(root), expected.tick);
    let runs: Vec<serde_json::Value> =
        expected.lanes.iter().map(|l| serde_json::to_value(l.costs()).unwrap()).collect();
    let cells = root.query_selector_all("#cmp-costs td[data-figure]").unwrap();
    let rows = root.query_selector_all("#cmp-costs tbody tr").unwrap().length() as usize;
    assert_eq!(cells.length() as usize, rows * runs.len(), "one cell per run and figure");
    for i in 0..cells.length() {
        let td: Element = cells.item(i).unwrap().dyn_into().unwrap();
        let figure = td.get_attribute("data-figure").unwrap();
        let run: usize = td.get_attribute("data-run").unwrap().parse().unwrap();
        let want = runs[run].pointer(&figure).unwrap_or_else(|| panic!("the engine has no figure {figure}"));
        let want = match want {
            serde_json::Value::Null => String::new(),
            serde_json::Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        assert_eq!(td.get_attribute("data-value").unwrap(), want, "run {run} {figure}");
        // What is shown says the same figure.
        let shown = td.text_content().unwrap();
        if !want.is_empty() && want.bytes().all(|b| b.is_ascii_digit()) {
            assert!(shown.starts_with(&want), "run {run} {figure}: shows {shown:?}, the engine says {want}");
        }
    }
    COMPARED.with(|c| c.set(c.get() + cells.length() as usize));
    cells.length() as usize
}

fn ids_are_unique(root: &Element) {
    let all = root.query_selector_all("[id]").unwrap();
    let mut seen = BTreeSet::new();
    for i in 0..all.length() {
        let el: Element = all.item(i).unwrap().dyn_into().unwrap();
        assert!(seen.insert(el.id()), "the id {:?} is used twice", el.id());
    }
    // Every label names a control that exists.
    let labels = root.query_selector_all("label[for]").unwrap();
    for i in 0..labels.length() {
        let el: Element = labels.item(i).unwrap().dyn_into().unwrap();
        let f = el.get_attribute("for").unwrap();
        assert!(seen.contains(&f), "a label is for {f:?}, which is not on the page");
    }
}

#[wasm_bindgen_test]
async fn the_room() {
    every_figure_is_the_engines_at_each_tick().await;
    x_and_r_move_the_crash_and_the_restore_for_every_run().await;
    presets_places_and_jobs().await;
    a_link_and_storage_reopen_the_comparison_and_bad_input_changes_nothing().await;
    the_lesson_predicts_then_reveals_in_chinese().await;
    on_a_projector_every_column_and_verdict_fits_1366_by_768().await;
    open_file_takes_scenarios_compare_files_and_names_a_bad_one().await;
    let n = COMPARED.with(|c| c.get());
    web_sys::console::log_1(&format!("{n} figures of the cost table compared with the engine's").into());
}

async fn every_figure_is_the_engines_at_each_tick() {
    web_sys::window().unwrap().location().set_hash("").unwrap();
    let m = mount_room(true).await;
    let root = &m.root;
    let file = three_ways();
    assert_eq!(find(root, "#cmp-room").get_attribute("data-runs").unwrap(), "3");
    assert!(text(root, "#cmp-run-0-title").contains("Flink (barriers)"));
    assert!(text(root, "#cmp-run-1-title").contains("Storm (acks)"));
    assert!(text(root, "#cmp-run-2-title").contains("Spark Streaming (WAL)"));
    let mut figures = check_table(root, &engine_at(&file, 0));
    ids_are_unique(root);
    for _ in 0..47 {
        click(root, "#cmp-step").await;
    }
    figures += check_table(root, &engine_at(&file, 47));
    // Past the crash: each run says what the crash meant in it.
    assert!(text(root, "#cmp-run-2").contains("executor 0 dies"), "{}", text(root, "#cmp-run-2"));
    assert_eq!(find(root, "#cmp-run-0 [data-task=\"Count\"]").get_attribute("data-status").unwrap(), "crashed");
    click(root, "#cmp-end").await;
    let end = Lockstep::run(&file).unwrap();
    figures += check_table(root, &end);
    assert_eq!(find(root, "#cmp-room").get_attribute("data-finished").unwrap(), "true");
    assert!(common::disabled(root, "#cmp-step") && common::disabled(root, "#cmp-crash"));
    // The README's reading of three-ways.json.
    let cell = |run: usize, f: &str| {
        find(root, &format!("#cmp-costs td[data-run=\"{run}\"][data-figure=\"{f}\"]")).text_content().unwrap()
    };
    assert_eq!(cell(1, "/reprocessed/records"), "1 (e)");
    assert_eq!(cell(2, "/bytes/written"), "560");
    // Issue 48: the verdict words are the main screen's, lower case (they were "LOST").
    assert!(cell(1, "/verdicts/state").contains("lost"), "{}", cell(1, "/verdicts/state"));
    ids_are_unique(root);
    // Back and forth: the clock replays the same runs.
    key("ArrowLeft").await;
    figures += check_table(root, &engine_at(&file, end.tick - 1));
    key("Home").await;
    assert_eq!(tick(root), 0);
    assert!(figures >= 4 * 27 * 3, "{figures} figures compared");
}

async fn x_and_r_move_the_crash_and_the_restore_for_every_run() {
    let m = mount_room(true).await;
    let root = &m.root;
    assert!(common::disabled(root, "#cmp-restore"), "nothing to restore before the crash");
    for _ in 0..20 {
        key("ArrowRight").await;
    }
    assert_eq!(tick(root), 20);
    key("x").await;
    let mut file = three_ways();
    file.crash.at = 20;
    file.restore.at = 22;
    check_table(root, &engine_at(&file, 21));
    assert!(text(root, "#cmp-tick").contains("crash at 20"), "{}", text(root, "#cmp-tick"));
    assert!(common::disabled(root, "#cmp-crash"), "one crash per comparison");
    assert_eq!(find(root, "#cmp-run-0").get_attribute("data-status").unwrap(), "down");
    key("r").await;
    file.restore.at = 21;
    check_table(root, &engine_at(&file, 22));
    assert!(common::disabled(root, "#cmp-restore"));
    key("e").await;
    check_table(root, &Lockstep::run(&file).unwrap());
    // Escape closes the room.
    key("Escape").await;
    assert_eq!(find(root, ".harness").get_attribute("data-closed").unwrap(), "1");
}

async fn presets_places_and_jobs() {
    let m = mount_room(true).await;
    let root = &m.root;
    choose(root, "#cmp-run-2-preset", "none").await;
    assert_eq!(find(root, "#cmp-room").get_attribute("data-runs").unwrap(), "2");
    assert!(root.query_selector("#cmp-run-2").unwrap().is_none());
    choose(root, "#cmp-run-1-preset", "5").await;
    choose(root, "#cmp-run-2-preset", "6").await;
    choose(root, "#cmp-place", "master").await;
    choose(root, "#cmp-job", "keyed-shuffle").await;
    choose(root, "#cmp-input", "6/5").await;
    let mut file = three_ways();
    file.configurations[1] = barrierscope::classroom::saved_comparison::PRESETS[5].configuration();
    file.configurations[2] = barrierscope::classroom::saved_comparison::PRESETS[6].configuration();
    file.crash.place = CrashPlace::Master;
    file.job = barrierscope::engine::runs::scenario::JobRef::Builtin("keyed-shuffle".into());
    file.input = barrierscope::classroom::saved_comparison::input_for("keyed-shuffle", 6, 5);
    file.name.clear();
    assert_eq!(tick(root), 0);
    click(root, "#cmp-end").await;
    let end = Lockstep::run(&file).unwrap();
    check_table(root, &end);
    ids_are_unique(root);
    assert!(text(root, "#cmp-run-1-title").contains("Storm, acking off"));
    // A restore before the crash is refused, and says why.
    let input: HtmlInputElement = find(root, "#cmp-restore-at").dyn_into().unwrap();
    input.set_value("3");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    input.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    yew::scheduler::flush().await;
    assert!(text(root, "#cmp-notice").contains("must come after the crash"), "{}", text(root, "#cmp-notice"));
    check_table(root, &end);
}

async fn a_link_and_storage_reopen_the_comparison_and_bad_input_changes_nothing() {
    let m = mount_room(true).await;
    let root = &m.root;
    for _ in 0..50 {
        click(root, "#cmp-step").await;
    }
    click(root, "#cmp-share").await;
    let url = find(root, "#cmp-link-text").dyn_into::<HtmlInputElement>().unwrap().value();
    let fragment = url.split_once('#').unwrap().1.to_string();
    assert!(fragment.starts_with("room=compare&run="), "{url}");
    let text_of_link = from_fragment(&fragment).unwrap().unwrap();
    let (saved, _) = SavedComparison::open("link", &text_of_link).unwrap();
    assert_eq!(saved.at, 50);
    drop(m);
    // The address bar holds the link: a fresh room opens at the same tick.
    let m = mount_room(true).await;
    assert_eq!(tick(&m.root), 50);
    assert!(text(&m.root, "#cmp-notice").contains("Opened the comparison from the link"));
    check_table(&m.root, &engine_at(&three_ways(), 50));
    drop(m);
    // A damaged link: says why, and the room opens what storage kept.
    web_sys::window().unwrap().location().set_hash("room=compare&run=bm90IGpzb24").unwrap();
    let m = mount_room(false).await;
    let notice = text(&m.root, "#cmp-notice");
    assert!(notice.contains("Could not open the link: it is not valid JSON"), "{notice}");
    assert_eq!(tick(&m.root), 50, "storage kept the last comparison");
    drop(m);
    web_sys::window().unwrap().location().set_hash("").unwrap();
    // A bad stored entry is named, and the room shows the three ways.
    storage().set_item(compare::STORAGE_KEY, "{\"barrierscope-compare\": 9}").unwrap();
    let m = mount_room(false).await;
    assert!(text(&m.root, "#cmp-notice").contains("version 9"), "{}", text(&m.root, "#cmp-notice"));
    assert_eq!(tick(&m.root), 0);
}

async fn the_lesson_predicts_then_reveals_in_chinese() {
    let m = mount_room(true).await;
    let root = &m.root;
    // Switch the page to Chinese through the main screen's reducer, as its button does.
    let harness_lang = || find(root, ".harness").get_attribute("data-lang").unwrap();
    assert_eq!(harness_lang(), "en");
    click(root, "#cmp-lesson-start").await;
    assert!(text(root, "#cmp-lesson-title").contains("Three ways to survive a crash"));
    // The one lesson bar: the main screen's frame, its step counted the same way.
    assert!(find(root, "#cmp-lesson").get_attribute("class").unwrap_or_default().split(' ').any(|c| c == "lesson-bar"));
    assert!(text(root, "#cmp-lesson-step").starts_with("step 1 of "), "{}", text(root, "#cmp-lesson-step"));
    click(root, "#cmp-lesson-next").await;
    assert!(common::disabled(root, "#cmp-lesson-next"), "reveal waits for every prediction");
    assert_eq!(text(root, "#cmp-lesson-wait"), "Predict all five to go on.");
    let guesses = [2usize, 1, 2, 0, 1];
    for (q, g) in QUESTIONS.iter().zip(guesses) {
        choose(root, &format!("#cmp-predict-{}", q.id), &g.to_string()).await;
    }
    assert!(!common::disabled(root, "#cmp-lesson-next"));
    click(root, "#cmp-lesson-next").await;
    let file = three_ways();
    assert_eq!(tick(root), file.crash.at + 1, "the lesson plays to the crash");
    let meanings = text(root, "#cmp-crash-meanings");
    assert!(meanings.contains("Storm (acks): crash Count: the worker running it dies"), "{meanings}");
    assert!(meanings.contains("executor 0 dies"), "{meanings}");
    click(root, "#cmp-lesson-next").await;
    let end = Lockstep::run(&file).unwrap();
    check_table(root, &end);
    let costs: Vec<_> = end.lanes.iter().map(|l| l.costs()).collect();
    for (q, g) in QUESTIONS.iter().zip(guesses) {
        let li = find(root, &format!("#cmp-reveal li[data-question=\"{}\"]", q.id));
        assert_eq!(
            li.get_attribute("data-right").unwrap(),
            compare_lesson::right(q, &costs, g).to_string(),
            "{}",
            q.id
        );
    }
    for _ in 0..4 {
        click(root, "#cmp-lesson-next").await;
    }
    let conclusion = text(root, "#cmp-conclusion");
    assert!(
        conclusion.contains("Storm (acks) cut per record: 1 record(s) retried, 54 control messages"),
        "{conclusion}"
    );
    ids_are_unique(root);
    // The same lesson in Chinese, from a fresh room at the same place (storage keeps it).
    drop(m);
    let m = mount_room(false).await;
    let root = &m.root;
    assert_eq!(
        find(root, "#cmp-lesson").get_attribute("data-step").unwrap(),
        "8",
        "step 8 of 8, counted from 1 as in every lesson bar"
    );
    let saved: SavedComparison =
        serde_json::from_str(&storage().get_item(compare::STORAGE_KEY).unwrap().unwrap()).unwrap();
    let mut zh = saved.clone();
    zh.lang = Some(barrierscope::engine::Lang::Zh);
    web_sys::window().unwrap().location().set_hash(&zh.to_fragment()).unwrap();
    drop(m);
    let m = mount_room(false).await;
    let root = &m.root;
    yew::scheduler::flush().await;
    assert_eq!(
        find(root, ".harness").get_attribute("data-lang").unwrap(),
        "zh",
        "a comparison opened in Chinese switches the page"
    );
    let conclusion = text(root, "#cmp-conclusion");
    assert!(conclusion.contains("按记录切分"), "{conclusion}");
    assert!(text(root, "#room-compare-title").contains("并排比较"));
    web_sys::window().unwrap().location().set_hash("").unwrap();
}

fn font_px(el: &Element) -> f64 {
    let window = web_sys::window().unwrap();
    let f: js_sys::Function = js_sys::Reflect::get(&window, &"getComputedStyle".into()).unwrap().dyn_into().unwrap();
    let style = f.call1(&window, el).unwrap();
    let size = js_sys::Reflect::get(&style, &"fontSize".into()).unwrap().as_string().unwrap();
    size.trim_end_matches("px").parse().unwrap()
}

fn shown(el: &Element) -> bool {
    let r = el.get_bounding_client_rect();
    r.width() > 0.0 && r.height() > 0.0
}

/// The smallest text on screen in the room, in CSS pixels: HTML text by its computed size, SVG
/// text by its size scaled as its drawing is (viewBox, "meet").
fn smallest_text(root: &Element) -> (f64, String) {
    let mut smallest = (f64::MAX, String::new());
    let all = root.query_selector_all(".cmp-room *").unwrap();
    for i in 0..all.length() {
        let el: Element = all.item(i).unwrap().dyn_into().unwrap();
        let own_text = (0..el.child_nodes().length()).filter_map(|c| el.child_nodes().item(c)).any(|n| {
            n.node_type() == web_sys::Node::TEXT_NODE && !n.text_content().unwrap_or_default().trim().is_empty()
        });
        if !own_text || !shown(&el) || el.closest("title, option, caption.sr-only").unwrap().is_some() {
            continue;
        }
        let mut px = font_px(&el);
        if let Some(svg) = el.closest("svg").unwrap() {
            let vb: Vec<f64> = svg.get_attribute("viewBox").unwrap().split(' ').map(|x| x.parse().unwrap()).collect();
            let r = svg.get_bounding_client_rect();
            px *= (r.width() / vb[2]).min(r.height() / vb[3]);
        }
        if px < smallest.0 {
            smallest = (px, el.text_content().unwrap_or_default());
        }
    }
    smallest
}

/// Every headline row of the table, every column and every run's verdicts are inside the room's
/// 1366×768 box.
fn fits(root: &Element, what: &str) {
    let room = find(root, "#cmp-room").get_bounding_client_rect();
    let inside = |el: &Element, name: &str| {
        let r = el.get_bounding_client_rect();
        assert!(
            r.bottom() <= room.bottom() + 0.5 && r.right() <= room.right() + 0.5 && r.top() >= room.top() - 0.5,
            "{what}: {name} ends at ({:.0}, {:.0}), outside the room's {:.0}×{:.0}",
            r.right() - room.left(),
            r.bottom() - room.top(),
            room.width(),
            room.height()
        );
    };
    let cells = root.query_selector_all("#cmp-costs tr:not(.detail) > *").unwrap();
    assert!(cells.length() >= 12 * 4, "{what}: the headline rows and the three columns");
    for i in 0..cells.length() {
        let el: Element = cells.item(i).unwrap().dyn_into().unwrap();
        assert!(shown(&el), "{what}: a headline cell is hidden");
        inside(&el, &format!("the cell {:?}", el.text_content().unwrap_or_default()));
    }
    for i in 0..3 {
        let v = find(root, &format!(".cmp-verdicts[data-run=\"{i}\"]"));
        assert!(shown(&v));
        inside(&v, &format!("run {}'s verdicts", i + 1));
        inside(&find(root, &format!("#cmp-draw-{i}")), &format!("run {}'s drawing", i + 1));
    }
    let (px, text) = smallest_text(root);
    assert!(px >= 16.0, "{what}: {text:?} is {px:.1} px");
    web_sys::console::log_1(&format!("{what}: everything fits; the smallest text is {px:.1} px ({text:?})").into());
}

async fn on_a_projector_every_column_and_verdict_fits_1366_by_768() {
    let window = web_sys::window().unwrap();
    assert_eq!(window.inner_width().unwrap().as_f64().unwrap(), 1366.0, "webdriver.json's window");
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(&format!(
        "{}\n.cmp-room.presenter {{ height: 768px !important; width: 1366px; }}",
        include_str!("../static/style.css")
    )));
    document().head().unwrap().append_child(&style).unwrap();
    let m = mount_with(true, true).await;
    let root = &m.root;
    assert!(find(root, "#cmp-room").class_name().contains("presenter"));
    fits(root, "tick 0");
    click(root, "#cmp-end").await;
    fits(root, "line-sink at the end");
    click(root, "#cmp-lesson-start").await;
    click(root, "#cmp-lesson-next").await;
    for q in QUESTIONS.iter() {
        choose(root, &format!("#cmp-predict-{}", q.id), "1").await;
    }
    fits(root, "the lesson's predictions");
    click(root, "#cmp-lesson-next").await;
    click(root, "#cmp-lesson-next").await;
    fits(root, "the lesson's reveal");
    click(root, "#cmp-lesson-exit").await;
    choose(root, "#cmp-job", "keyed-shuffle").await;
    click(root, "#cmp-end").await;
    fits(root, "keyed-shuffle at the end");
    drop(m);
    style.remove();
}

/// Lets the file readers call back.
async fn settle() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 60).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
    yew::scheduler::flush().await;
}

/// Chooses files in ↑ Open file, as the file dialog does (a DataTransfer's list).
async fn open_files(root: &Element, files: &[(&str, &str)]) {
    use js_sys::{Array, Reflect};
    let window = web_sys::window().unwrap();
    let ctor = |name: &str| -> js_sys::Function { Reflect::get(&window, &name.into()).unwrap().dyn_into().unwrap() };
    let dt = Reflect::construct(&ctor("DataTransfer"), &Array::new()).unwrap();
    let items = Reflect::get(&dt, &"items".into()).unwrap();
    let add: js_sys::Function = Reflect::get(&items, &"add".into()).unwrap().dyn_into().unwrap();
    for (name, text) in files {
        let parts = Array::of1(&(*text).into());
        let file = Reflect::construct(&ctor("File"), &Array::of2(&parts, &(*name).into())).unwrap();
        add.call1(&items, &file).unwrap();
    }
    let input = find(root, "#cmp-open-file");
    Reflect::set(&input, &"files".into(), &Reflect::get(&dt, &"files".into()).unwrap()).unwrap();
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let version =
        |root: &Element| root.query_selector("#cmp-notice").unwrap().map(|n| n.text_content().unwrap_or_default());
    let before = version(root);
    // Clear the notice first, so that the same message twice is seen arriving.
    if before.is_some() {
        click(root, "#cmp-notice-close").await;
    }
    input.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    for _ in 0..50 {
        settle().await;
        if version(root).is_some() {
            return;
        }
    }
    panic!("the files were not opened within 3 s");
}

async fn open_file_takes_scenarios_compare_files_and_names_a_bad_one() {
    let m = mount_room(true).await;
    let root = &m.root;
    open_files(
        root,
        &[
            ("flink-barriers.json", include_str!("../scenarios/compare/flink-barriers.json")),
            ("storm-acks.json", include_str!("../scenarios/compare/storm-acks.json")),
            ("spark-wal.json", include_str!("../scenarios/compare/spark-wal.json")),
        ],
    )
    .await;
    assert!(text(root, "#cmp-notice").contains("Opened the comparison from the file"), "{}", text(root, "#cmp-notice"));
    let three = ComparisonFile::from_json(include_str!("../scenarios/compare/three-ways.json")).unwrap();
    click(root, "#cmp-end").await;
    // Three scenario files stand for three-ways.json: the same table.
    check_table(root, &Lockstep::run(&three).unwrap());
    open_files(root, &[("flink-sinks.json", include_str!("../scenarios/compare/flink-sinks.json"))]).await;
    assert!(text(root, "#cmp-run-2-title").contains("Flink, upsert"));
    assert_eq!(tick(root), 0);
    let sinks = ComparisonFile::from_json(include_str!("../scenarios/compare/flink-sinks.json")).unwrap();
    check_table(root, &engine_at(&sinks, 0));
    // A bad file says why, and nothing on screen changes.
    click(root, "#cmp-step").await;
    open_files(root, &[("bad.json", "{\"barrierscope-compare\": 1, \"comparison\": 3}")]).await;
    let notice = text(root, "#cmp-notice");
    assert!(notice.contains("Could not open the file") && notice.contains("Nothing on screen changed"), "{notice}");
    check_table(root, &engine_at(&sinks, 1));
    open_files(root, &[("a.json", "{}"), ("b.json", "{}"), ("c.json", "{}"), ("d.json", "{}")]).await;
    assert!(text(root, "#cmp-notice").contains("4 files were chosen"), "{}", text(root, "#cmp-notice"));
    assert!(text(root, "#cmp-run-2-title").contains("Flink, upsert"));
    // A comparison file has no language: the page keeps its own.
    click(root, "#btn-room-lang").await;
    assert_eq!(find(root, ".harness").get_attribute("data-lang").unwrap(), "zh");
    open_files(root, &[("three-ways.json", include_str!("../scenarios/compare/three-ways.json"))]).await;
    assert!(text(root, "#cmp-notice").contains("已打开"), "{}", text(root, "#cmp-notice"));
    assert_eq!(find(root, ".harness").get_attribute("data-lang").unwrap(), "zh");
    assert!(text(root, "#cmp-run-1-title").contains("Storm（逐条确认）"));
    click(root, "#btn-room-lang").await;
}
