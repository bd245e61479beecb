//! Answering a question: a click or a number key ticks an option (one, or several where the
//! question takes several), Submit grades the ticked ones, Next goes on to the next question or,
//! after the tenth, to the score kept in the browser; Enter submits, then goes on.

use std::rc::Rc;

use web_sys::{HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use super::at::{right_count, At};
use super::store;
use crate::classroom::quiz::history::Past;
use crate::classroom::quiz::{QuizSet, SET_SIZE};

/// Ticks option `i` of the current question (the only one, unless it takes several), or unticks it.
pub(super) fn toggle(at: &UseStateHandle<At>, set: &Rc<QuizSet>) -> Callback<usize> {
    let (at, set) = (at.clone(), set.clone());
    Callback::from(move |i: usize| {
        let Some(q) = set.questions.get(at.index()) else { return };
        if at.graded.is_some() || at.done || i >= q.choices.len() {
            return;
        }
        let mut next = (*at).clone();
        if q.several {
            if let Some(p) = next.ticked.iter().position(|&j| j == i) {
                next.ticked.remove(p);
            } else {
                next.ticked.push(i);
            }
        } else {
            next.ticked = vec![i];
        }
        at.set(next);
    })
}

/// Grades the ticked options.
pub(super) fn submit(at: &UseStateHandle<At>, set: &Rc<QuizSet>) -> Callback<()> {
    let (at, set) = (at.clone(), set.clone());
    Callback::from(move |()| {
        let Some(q) = set.questions.get(at.index()) else { return };
        if at.graded.is_some() || at.done || at.ticked.is_empty() {
            return;
        }
        let mut next = (*at).clone();
        let g = q.grade(&next.ticked);
        next.answers.push(g.right);
        next.graded = Some(g);
        at.set(next);
    })
}

/// On to the next question, or to the score after the last (kept with the past scores).
pub(super) fn next(at: &UseStateHandle<At>, history: &UseStateHandle<Vec<Past>>) -> Callback<()> {
    let (at, history) = (at.clone(), history.clone());
    Callback::from(move |()| {
        if at.graded.is_none() {
            return;
        }
        let mut n = (*at).clone();
        n.graded = None;
        n.ticked.clear();
        if n.answers.len() >= SET_SIZE {
            n.done = true;
            let past = Past { set: n.set, right: right_count(&n.answers), of: n.answers.len() };
            history.set(store::remember(past));
        }
        at.set(n);
    })
}

/// Number keys tick options; Enter submits, then goes on (outside the set-number field).
pub(super) fn quiz_keys(
    toggle: &Callback<usize>,
    submit: &Callback<()>,
    next: &Callback<()>,
    at: &UseStateHandle<At>,
) -> Callback<KeyboardEvent> {
    let (toggle, submit, next, at) = (toggle.clone(), submit.clone(), next.clone(), at.clone());
    Callback::from(move |e: KeyboardEvent| {
        let in_field = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlInputElement>(t).ok())
            .is_some_and(|i| i.type_() == "text");
        if in_field || e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        let key = e.key();
        // 1 to 9 tick the first nine options, 0 the tenth (a two-input job has ten records).
        if let Some(d) = key.parse::<usize>().ok().filter(|_| key.len() == 1) {
            toggle.emit(if d == 0 { 9 } else { d - 1 });
            e.prevent_default();
        } else if key == "Enter" && !at.done {
            if at.graded.is_some() {
                next.emit(());
            } else {
                submit.emit(());
            }
            e.prevent_default();
        }
    })
}
