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

    use barrierscope::engine::{runs::workload, Sim};
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

/// The soak (`e2e/bench.mjs`): a learner's session left playing for a very long time.
#[cfg(target_arch = "wasm32")]
mod soak {
    use std::cell::RefCell;

    use barrierscope::classroom::{Command, RunConfig, Session};
    use barrierscope::engine::{Action, Settings, Strategy};
    use wasm_bindgen::prelude::wasm_bindgen;

    /// A crash and a restore every this many steps; a checkpoint every tenth of that.
    const CRASH_EVERY: u64 = 5_000;

    thread_local! {
        static SOAK: RefCell<Option<(Session, u64, u64)>> = const { RefCell::new(None) };
    }

    fn fresh() -> Session {
        let mut settings = Settings::new(Strategy::Aligned);
        settings.checkpoint_interval = Some(CRASH_EVERY / 10);
        let config = RunConfig { job: "keyed-shuffle".into(), settings, seed: 7, records: Some(2_000) };
        Session::new(config).expect("keyed-shuffle runs")
    }

    /// Plays `steps` more automatic steps of keyed-shuffle under aligned checkpoints (every 500
    /// steps), with a crash and a restore every 5,000; a run with nothing left to do starts
    /// over, as a learner's Reset does. Returns the runs started so far.
    #[wasm_bindgen]
    pub fn soak_steps(steps: u32) -> f64 {
        SOAK.with(|s| {
            let mut s = s.borrow_mut();
            let (session, done, runs) = s.get_or_insert_with(|| (fresh(), 0, 1));
            for _ in 0..steps {
                *done += 1;
                if *done % CRASH_EVERY == 0 {
                    session.handle(Command::Act(Action::Crash));
                    session.handle(Command::Act(Action::Restore));
                } else if !session.handle(Command::Tick) {
                    *session = fresh();
                    *runs += 1;
                }
            }
            *runs as f64
        })
    }

    /// The wasm module's linear memory, in bytes.
    #[wasm_bindgen]
    pub fn wasm_memory_bytes() -> f64 {
        (core::arch::wasm32::memory_size(0) * 65536) as f64
    }
}
