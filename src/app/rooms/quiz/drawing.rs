//! The quiz's set, drawn a piece at a time: its first question at once, the others in slices
//! across animation frames (`rooms/slices.rs`). A question of type 3 explores every schedule of
//! four strategies, which on the diamond takes longer than a frame, so the room opens at once and
//! the page never waits for the set; the questions are [`QuizSet::new`]'s, in the same order
//! ([`SetDraw`]).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use yew::prelude::*;

use crate::app::rooms::slices::{in_frames, Left};
use crate::classroom::quiz::{QuizSet, SetDraw};

/// The schedule explorer's states a piece of the set's drawing may expand: a few milliseconds.
const STATES_PER_STEP: usize = 200;

/// The set of `seed` as far as it is drawn, and whether it is all drawn. The room draws again
/// each time a question is added, until the set is complete; another seed, or the room closed,
/// stops the drawing at its next frame.
#[hook]
pub(super) fn use_drawn_set(seed: u64) -> (Rc<QuizSet>, bool) {
    let draw = use_memo(seed, |&s| {
        let draw = Rc::new(RefCell::new(SetDraw::new(s)));
        while draw.borrow().set.questions.is_empty() && draw.borrow_mut().step(STATES_PER_STEP) {}
        draw
    });
    // How far the drawing is (questions drawn, and whether all are): the room draws again when it
    // moves.
    let drawn = use_state_eq(|| (0usize, false));
    let generation = use_mut_ref(|| Rc::new(Cell::new(0u32)));
    {
        let (draw, drawn, generation) = ((*draw).clone(), drawn.clone(), generation.borrow().clone());
        use_effect_with(seed, move |_| {
            generation.set(generation.get().wrapping_add(1));
            let how_far = move |d: &SetDraw| (d.set.questions.len(), d.done());
            drawn.set(how_far(&draw.borrow()));
            if !draw.borrow().done() {
                let d = draw.clone();
                in_frames(
                    generation.clone(),
                    move || if d.borrow_mut().step(STATES_PER_STEP) { Left::More } else { Left::Done },
                    move |_, _| drawn.set(how_far(&draw.borrow())),
                );
            }
            move || generation.set(generation.get().wrapping_add(1))
        });
    }
    let complete = draw.borrow().done();
    let set = use_memo((seed, draw.borrow().set.questions.len(), complete), |_| draw.borrow().set.clone());
    (set, complete)
}
