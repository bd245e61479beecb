//! What the pointer and the keys do on a diagram: a click on an arrow moves the run to its send
//! (then to its receipt), or in a lesson's drawing step goes through to the task line under it;
//! a task line takes a click, or ← → and Enter when focused, to set its point of the cut.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::drawing::{Scene, W};
use crate::app::ui_state::{Dispatch, Msg};
use crate::classroom::Command;
use crate::engine::space_time::Diagram;

/// A click on arrow `i` of `d` moves the run to its send; clicked again there (`pos`), to its
/// receipt.
fn seek_on_arrow(dispatch: Dispatch, d: Rc<Diagram>, pos: u64) -> Callback<(usize, MouseEvent)> {
    Callback::from(move |(i, _): (usize, MouseEvent)| {
        let m = d.messages[i];
        let to = match m.received_at {
            Some(r) if pos == m.sent_at => r,
            _ => m.sent_at,
        };
        dispatch.dispatch(Msg::Cmd(Command::Seek(to as usize)));
    })
}

/// A click on an arrow handed to the task line under the pointer (the line's hit area, whose id
/// starts with `prefix`), as if the arrow were not there; a click between lines does nothing.
fn through_to_line(on_line: Callback<(usize, MouseEvent)>, prefix: &'static str) -> Callback<(usize, MouseEvent)> {
    Callback::from(move |(_, e): (usize, MouseEvent)| {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        let under = doc.elements_from_point(e.client_x() as f32, e.client_y() as f32);
        let line = under
            .iter()
            .filter_map(|el| el.dyn_into::<web_sys::Element>().ok())
            .find_map(|el| el.id().strip_prefix(prefix).and_then(|t| t.parse::<usize>().ok()));
        if let Some(t) = line {
            on_line.emit((t, e));
        }
    })
}

/// A drawing's task lines as controls: a click sets the line's point at the step under the
/// pointer; on a focused line ← → (PageUp / PageDown by 10, Home, End) move the cursor and Enter
/// or Space set the point. `svg` is the drawing's element id.
pub fn line_callbacks(
    points: &UseStateHandle<Vec<Option<u64>>>,
    cursor: &UseStateHandle<Option<(usize, u64)>>,
    svg: &'static str,
    d: Rc<Diagram>,
    presenter: bool,
    sc: Rc<(u64, u64, u64)>,
    n: usize,
) -> (Callback<(usize, MouseEvent)>, Callback<(usize, KeyboardEvent)>) {
    let pos = sc.2;
    let pts: Vec<Option<u64>> = if points.len() == n { (**points).clone() } else { vec![None; n] };
    let set_point = {
        let points = points.clone();
        move |t: usize, p: u64| {
            let mut v = if points.len() == n { (*points).clone() } else { vec![None; n] };
            v[t] = Some(p);
            points.set(v);
        }
    };
    let on_line = {
        let set_point = set_point.clone();
        let cursor = cursor.clone();
        Callback::from(move |(t, e): (usize, MouseEvent)| {
            let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|doc| doc.get_element_by_id(svg))
            else {
                return;
            };
            let rect = el.get_bounding_client_rect();
            let x = (e.client_x() as f64 - rect.left()) * W / rect.width().max(1.0);
            let (from, to, pos) = *sc;
            let p = step_scene(&d, presenter, pos, from, to).step_at(x);
            cursor.set(Some((t, p)));
            set_point(t, p);
        })
    };
    let on_line_key = {
        let cursor = cursor.clone();
        Callback::from(move |(t, e): (usize, KeyboardEvent)| {
            let here = match *cursor {
                Some((ct, p)) if ct == t => p,
                _ => pts[t].unwrap_or(pos),
            };
            let next = match e.key().as_str() {
                "ArrowLeft" => here.saturating_sub(1),
                "ArrowRight" => (here + 1).min(pos),
                "PageDown" => here.saturating_sub(10),
                "PageUp" => (here + 10).min(pos),
                "Home" => 0,
                "End" => pos,
                "Enter" | " " => {
                    set_point(t, here);
                    cursor.set(Some((t, here)));
                    e.prevent_default();
                    e.stop_propagation();
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            cursor.set(Some((t, next)));
        })
    };
    (on_line, on_line_key)
}

/// A scene with only the geometry, to turn a click into a step.
fn step_scene(d: &Diagram, presenter: bool, pos: u64, from: u64, to: u64) -> Scene<'_> {
    Scene::bare("st", d, presenter, pos, from, to)
}

/// The room's own keys: ← and → step the run and E goes to its end (on a task line they move its
/// point instead); a form field keeps its keys.
pub fn room_keys(dispatch: Dispatch) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        let on_field = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().to_ascii_lowercase().as_str(), "input" | "select" | "textarea"));
        if on_field || e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        let c = match e.key().as_str() {
            "ArrowRight" => Command::Forward,
            "ArrowLeft" => Command::Back,
            "e" | "E" => Command::ToEnd,
            _ => return,
        };
        e.prevent_default();
        dispatch.dispatch(Msg::Cmd(c));
    })
}

/// What a click on an arrow does: in a lesson's drawing step it goes through to the line under it
/// (whose hit area's id starts with `prefix`); anywhere else it moves the run to the arrow.
pub fn on_arrow(
    drawing_step: bool,
    on_line: &Callback<(usize, MouseEvent)>,
    prefix: &'static str,
    dispatch: &Dispatch,
    d: Rc<Diagram>,
    pos: u64,
) -> Callback<(usize, MouseEvent)> {
    if drawing_step {
        through_to_line(on_line.clone(), prefix)
    } else {
        seek_on_arrow(dispatch.clone(), d, pos)
    }
}
