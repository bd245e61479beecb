//! The schedule explorer in the browser: the time to explore every schedule of the a/b/c `line`
//! job (three records, one round of snapshots, one crash at any moment, then the restore and the
//! rest of the run), in WebAssembly in headless Chromium, beside `cargo bench --bench engine --
//! "explore line"`, which times the same search natively. It also prints how the time grows
//! with one record more.
//!
//!     CHROMEDRIVER=/usr/bin/chromedriver cargo bench --target wasm32-unknown-unknown --bench explore_browser
#![cfg(target_arch = "wasm32")]

use barrierscope::engine::explorer::Completion;
use barrierscope::engine::*;
use wasm_bindgen_test::{console_log, wasm_bindgen_bench, wasm_bindgen_test_configure, Criterion, Instant};

wasm_bindgen_test_configure!(run_in_browser);

/// The native benchmark's search, with its canonical completion.
fn explore_line(strategy: Strategy, records: usize) -> explorer::Report {
    workload::explore_line(strategy, records, Completion::Canonical)
}

/// Each search timed `RUNS` times; the median and the fastest are printed. Criterion's own loop
/// is not used: it keeps the page busy for seconds at a time, longer than the WebDriver that
/// drives the browser waits for an answer.
const RUNS: usize = 15;

#[wasm_bindgen_bench]
fn explore(_c: &mut Criterion) {
    // Warm up first: V8 runs a module's first calls in its baseline compiler and swaps in the
    // optimised code later, which made the first search timed look twice as slow.
    for _ in 0..5 {
        for strategy in [Strategy::Timers, Strategy::Aligned] {
            explore_line(strategy, 4);
        }
    }
    for strategy in [Strategy::Timers, Strategy::Aligned] {
        let mut medians = Vec::new();
        for records in [3, 4] {
            let r = explore_line(strategy, records);
            let mut ms: Vec<f64> = (0..RUNS)
                .map(|_| {
                    let t = Instant::now();
                    assert_eq!(explore_line(strategy, records).states, r.states);
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            medians.push(ms[RUNS / 2]);
            console_log!(
                "explore line in wasm: {}, {records} records: {} states, {} schedules; median {:.1} ms, fastest {:.1} ms ({RUNS} runs)",
                strategy.id(),
                r.states,
                r.schedules,
                ms[RUNS / 2],
                ms[0]
            );
        }
        console_log!(
            "explore line in wasm: {}: one record more takes {:.1}x as long",
            strategy.id(),
            medians[1] / medians[0]
        );
    }
}
