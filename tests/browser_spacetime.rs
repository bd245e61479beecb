//! Browser test of the space-time room (wasm-bindgen-test in headless Chromium): the real app,
//! stepped, the room opened with D, a cut drawn by clicks on the task lines, and the verdict the
//! room shows checked against the engine's own classification of the same cut on the same run
//! (a session given the same commands), and the restore's ledger against `drawn_cut::restore_from`.
#![cfg(target_arch = "wasm32")]

use barrierscope::classroom::{Command, RunConfig, Session};
use barrierscope::engine::verdict::drawn_cut::{classify, restore_from};
use barrierscope::engine::Crossing;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::{click, find, key, mount, settle};

/// Clicks task line `t` at `frac` of its width, as a mouse would.
async fn click_line(root: &Element, t: usize, frac: f64) {
    let line = find(root, &format!("#st-line-{t}"));
    let r = line.get_bounding_client_rect();
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_client_x((r.left() + r.width() * frac) as i32);
    init.set_client_y((r.top() + r.height() / 2.0) as i32);
    let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
    line.dispatch_event(&ev).unwrap();
    yew::scheduler::flush().await;
}

fn points(root: &Element) -> Vec<u64> {
    (0..3)
        .map(|t| find(root, &format!("#st-line-{t}")).get_attribute("aria-valuenow").unwrap().parse().unwrap())
        .collect()
}

#[wasm_bindgen_test]
async fn a_cut_drawn_by_clicks_gets_the_engines_verdict() {
    let root = mount().await;
    let mut model = Session::new(RunConfig::default()).unwrap();
    for _ in 0..12 {
        click(&root, "#btn-step").await;
        model.handle(Command::Forward);
    }
    key("d").await;
    for _ in 0..5 {
        settle().await;
    }
    assert!(root.query_selector("#st-svg").unwrap().is_some(), "D opened the diagram");
    // Source early, Map and Count late: Map has received what Source sent after its point.
    for (t, frac) in [(0, 0.15), (1, 0.95), (2, 0.95)] {
        click_line(&root, t, frac).await;
    }
    settle().await;
    let pts = points(&root);
    assert!(pts[0] < pts[1], "the clicks set the points where they fell: {pts:?}");
    let cut = classify(&model.timeline, &pts).unwrap();
    let verdict = find(&root, "#st-verdict");
    assert_eq!(verdict.get_attribute("data-consistent").unwrap(), cut.consistent().to_string());
    assert!(!cut.consistent(), "a cut with Source far behind Map has orphans");
    let named: Vec<(String, String)> = {
        let list = root.query_selector_all("#st-crossing li").unwrap();
        (0..list.length())
            .map(|i| {
                let li: Element = list.item(i).unwrap().dyn_into().unwrap();
                (li.get_attribute("data-record").unwrap(), li.class_name())
            })
            .collect()
    };
    let expected: Vec<(String, String)> = cut
        .arrows
        .iter()
        .map(|a| (a.label.clone(), if a.crossing == Crossing::Orphan { "orphan" } else { "in-transit" }.to_string()))
        .collect();
    assert_eq!(
        named.iter().map(|(r, c)| (r.clone(), c.split(' ').next().unwrap().to_string())).collect::<Vec<_>>(),
        expected
    );
    // The restore's ledger, row by row.
    let (_, restore) = restore_from(&model.timeline, &pts, 20_000).unwrap();
    for row in &restore.ledger.rows {
        let tr = find(&root, &format!(".st-ledger tr[data-record=\"{}\"]", row.label));
        assert!(
            tr.class_name().contains(&format!("v-{}", row.state_verdict.id())),
            "{}: {}",
            row.label,
            tr.class_name()
        );
    }
    // A consistent cut: every line at the same step.
    click(&root, "#st-clear").await;
    for t in 0..3 {
        click_line(&root, t, 0.5).await;
    }
    settle().await;
    let pts = points(&root);
    assert!(pts.iter().all(|p| *p == pts[0]), "{pts:?}");
    assert!(classify(&model.timeline, &pts).unwrap().consistent());
    assert_eq!(find(&root, "#st-verdict").get_attribute("data-consistent").unwrap(), "true");
}
