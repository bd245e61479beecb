//! The browser entry point, built by trunk for wasm32. Natively it only points there.

#[cfg(target_arch = "wasm32")]
fn main() {
    barrierscope::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("barrierscope-web is the browser app: serve it with `trunk serve` (see the README).");
    std::process::exit(2);
}

/// Hooks for the browser benchmark (`e2e/bench.mjs`): the same engine workload that criterion
/// measures natively, timed from JavaScript.
#[cfg(target_arch = "wasm32")]
mod bench {
    use std::cell::RefCell;

    use barrierscope::engine::{workload, Sim};
    use wasm_bindgen::prelude::wasm_bindgen;

    thread_local! {
        static PREPARED: RefCell<Option<Sim>> = const { RefCell::new(None) };
    }

    /// Builds the workload's starting state (not timed).
    #[wasm_bindgen]
    pub fn bench_engine_prepare(per_partition: u32) {
        PREPARED.with(|p| *p.borrow_mut() = Some(workload::start(per_partition as usize)));
    }

    /// Runs the prepared workload to the end; returns the number of steps (timed by the caller).
    #[wasm_bindgen]
    pub fn bench_engine_run() -> f64 {
        PREPARED.with(|p| p.borrow_mut().as_mut().map_or(0.0, |sim| workload::run(sim) as f64))
    }
}
