//! Work sliced across animation frames: a search runs a little in each frame, at most
//! [`FRAME_BUDGET_MS`] of it, so the page keeps drawing and answering input while it runs; a
//! newer generation (Cancel, another search) stops the older at its next frame. The explorer
//! room's searches and its handler lab run so, and the quiz room draws its set so. The figures of a
//! search (frames, milliseconds of computing, the longest slice) are kept for the page to show.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
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

/// What a step says of the work left after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Left {
    Done,
    /// More steps, the next as short as the last ones.
    More,
    /// More steps, and the next is a long one (the search builds a counterexample, the lab starts
    /// a probe): it waits for a frame of its own rather than overrun this one.
    LongNext,
}

/// Runs `step` (which does a small piece of work and says what is left) as often as fits in
/// each frame's budget, frame after frame, until it is done or `generation` moves on; `frame` is
/// told the cost after every frame, and whether the work is done. Jobs take their turns: one
/// started while another runs waits until that one is done or cancelled, so no frame holds the
/// slices of two (a search and the lab's probes never add up in one frame).
pub fn in_frames(
    generation: Rc<Cell<u32>>,
    step: impl FnMut() -> Left + 'static,
    frame: impl Fn(Cost, bool) + 'static,
) {
    start(generation, Box::new(step), Box::new(frame), false);
}

/// [`in_frames`] for work nobody waits for (the room's warm-up): it gives way to any job started
/// after it, which drops it, so a learner's search never waits behind it.
pub fn in_spare_frames(step: impl FnMut() -> Left + 'static, done: impl Fn(Cost) + 'static) {
    let frame = move |cost, finished| {
        if finished {
            done(cost);
        }
    };
    start(Rc::new(Cell::new(0)), Box::new(step), Box::new(frame), true);
}

fn start(generation: Rc<Cell<u32>>, step: Box<dyn FnMut() -> Left>, frame: Box<dyn Fn(Cost, bool)>, gives_way: bool) {
    let mine = generation.get();
    let job = Job {
        generation,
        mine,
        step,
        frame,
        cost: Cost::default(),
        start: now(),
        step_ms: 0.0,
        long: false,
        gives_way,
    };
    JOBS.with(|jobs| {
        let mut jobs = jobs.borrow_mut();
        if !gives_way {
            jobs.retain(|j| !j.gives_way);
        }
        jobs.push_back(job);
    });
    schedule();
}

thread_local! {
    /// The jobs, in their turn: the first one runs.
    static JOBS: RefCell<VecDeque<Job>> = const { RefCell::new(VecDeque::new()) };
    /// A frame is asked for and has not come yet.
    static ASKED: Cell<bool> = const { Cell::new(false) };
}

struct Job {
    generation: Rc<Cell<u32>>,
    mine: u32,
    step: Box<dyn FnMut() -> Left>,
    frame: Box<dyn Fn(Cost, bool)>,
    cost: Cost,
    start: f64,
    /// The longest short step lately, decaying: what the next step may take.
    step_ms: f64,
    /// The next step is a long one.
    long: bool,
    /// Dropped when another job starts ([`in_spare_frames`]).
    gives_way: bool,
}

/// Asks for a frame for the queue, unless one is asked for already.
fn schedule() {
    if ASKED.with(|a| a.replace(true)) {
        return;
    }
    let cb = Closure::once_into_js(move || {
        ASKED.with(|a| a.set(false));
        // The first job not cancelled runs this frame; it stays out of the queue while it runs,
        // so a job started by its own callbacks waits behind it.
        let next = JOBS.with(|jobs| {
            let mut jobs = jobs.borrow_mut();
            while jobs.front().is_some_and(|j| j.generation.get() != j.mine) {
                jobs.pop_front();
            }
            jobs.pop_front()
        });
        let Some(mut job) = next else { return };
        let done = slice(&mut job);
        (job.frame)(job.cost, done);
        let more = JOBS.with(|jobs| {
            let mut jobs = jobs.borrow_mut();
            if !done && job.generation.get() == job.mine {
                jobs.push_front(job);
            }
            !jobs.is_empty()
        });
        if more {
            schedule();
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.request_animation_frame(cb.unchecked_ref());
    }
}

/// One frame of a job: its steps while they fit in the budget. A step is not started unless twice
/// the longest short one seen lately still fits (a step may take longer than the last ones), and
/// a long one only at the start of a frame. Whether the job is done.
fn slice(job: &mut Job) -> bool {
    let t0 = now();
    let done = loop {
        let s0 = now();
        let left = (job.step)();
        let s1 = now();
        if !job.long {
            job.step_ms = (s1 - s0).max(job.step_ms * 0.9);
        }
        job.long = left == Left::LongNext;
        job.cost.longest_step_ms = job.cost.longest_step_ms.max(s1 - s0);
        if left != Left::More || s1 - t0 + 2.0 * job.step_ms >= FRAME_BUDGET_MS {
            break left == Left::Done;
        }
    };
    let t1 = now();
    job.cost.frames += 1;
    job.cost.busy_ms += t1 - t0;
    job.cost.longest_ms = job.cost.longest_ms.max(t1 - t0);
    job.cost.over_budget += u32::from(t1 - t0 > FRAME_BUDGET_MS);
    job.cost.wall_ms = t1 - job.start;
    done
}
