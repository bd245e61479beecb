//! Work sliced across animation frames: a search runs a little in each frame, at most
//! [`FRAME_BUDGET_MS`] of it, so the page keeps drawing and answering input while it runs; a
//! newer generation (Cancel, another search) stops the older at its next frame. The figures of a
//! search (frames, milliseconds of computing, the longest slice) are kept for the page to show.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// At most this many milliseconds of work in one frame.
pub const FRAME_BUDGET_MS: f64 = 10.0;

/// The page's clock, in milliseconds.
pub fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// What a sliced job has cost so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cost {
    pub frames: u32,
    /// Milliseconds of computing, summed over the frames.
    pub busy_ms: f64,
    /// The longest slice, in milliseconds.
    pub longest_ms: f64,
    /// Slices longer than [`FRAME_BUDGET_MS`], and the longest single step (a slice runs at
    /// least one): a long slice of short steps was interrupted (another process on the CPU, the
    /// browser's garbage collector), one of a long step was not.
    pub over_budget: u32,
    pub longest_step_ms: f64,
    /// From the start to the end, in milliseconds (frames included).
    pub wall_ms: f64,
}

/// Runs `step` (which does a small piece of work and says whether all is done) as often as fits in
/// each frame's budget, frame after frame, until it is done or `generation` moves on; `frame` is
/// told the cost after every frame, and whether the work is done.
pub fn in_frames(generation: Rc<Cell<u32>>, step: impl FnMut() -> bool + 'static, frame: impl Fn(Cost, bool) + 'static) {
    let mine = generation.get();
    let job = Job { generation, mine, step: Box::new(step), frame: Box::new(frame), cost: Cost::default(), start: now(), step_ms: 0.0 };
    schedule(job);
}

struct Job {
    generation: Rc<Cell<u32>>,
    mine: u32,
    step: Box<dyn FnMut() -> bool>,
    frame: Box<dyn Fn(Cost, bool)>,
    cost: Cost,
    start: f64,
    /// The longest step lately, decaying: what the next step may take.
    step_ms: f64,
}

fn schedule(mut job: Job) {
    let cb = Closure::once_into_js(move || {
        if job.generation.get() != job.mine {
            return;
        }
        let t0 = now();
        // A step is not started unless the longest one seen lately still fits in the budget.
        let done = loop {
            let s0 = now();
            let done = (job.step)();
            let s1 = now();
            job.step_ms = (s1 - s0).max(job.step_ms * 0.9);
            job.cost.longest_step_ms = job.cost.longest_step_ms.max(s1 - s0);
            if done || s1 - t0 + job.step_ms >= FRAME_BUDGET_MS {
                break done;
            }
        };
        let t1 = now();
        job.cost.frames += 1;
        job.cost.busy_ms += t1 - t0;
        job.cost.longest_ms = job.cost.longest_ms.max(t1 - t0);
        job.cost.over_budget += u32::from(t1 - t0 > FRAME_BUDGET_MS);
        job.cost.wall_ms = t1 - job.start;
        (job.frame)(job.cost, done);
        if !done {
            schedule(job);
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.request_animation_frame(cb.unchecked_ref());
    }
}
