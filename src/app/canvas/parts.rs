//! Helpers the canvas's pieces share: the handlers a drawing calls, a line of labels fitted to
//! a width, and a small button drawn inside a task box.

use super::layout::text_w;
use crate::app::pressable::press;
use crate::app::svg_number::num;
use crate::app::text::Lang;
use crate::engine::*;
use yew::prelude::*;

/// Handlers the canvas calls; each takes an action and returns a callback.
#[derive(Clone, PartialEq)]
pub struct Handlers {
    pub act: Callback<Action>,
}

/// `head`, then as many of `labels` as fit in `max` units at `px` ("…" for the rest), then `tail`.
pub(super) fn fit_labels(head: &str, labels: &[&str], tail: &str, max: f64, px: f64) -> String {
    let ellipsis = text_w(" …", px);
    let mut w = text_w(head, px) + text_w(tail, px);
    let mut n = 0;
    for (i, label) in labels.iter().enumerate() {
        let add = text_w(label, px) + if i > 0 { text_w(" ", px) } else { 0.0 };
        let rest = if i + 1 < labels.len() { ellipsis } else { 0.0 };
        if w + add + rest > max {
            break;
        }
        w += add;
        n += 1;
    }
    let more = match (n < labels.len(), n) {
        (false, _) => "",
        (true, 0) => "…",
        (true, _) => " …",
    };
    format!("{head}{}{more}{tail}", labels[..n].join(" "))
}

/// A small button drawn inside a task box.
#[allow(clippy::too_many_arguments)]
pub(super) fn chip(
    act: &Callback<Action>,
    a: Action,
    sim: &Sim,
    x: f64,
    y: f64,
    w: f64,
    label: &str,
    aria: String,
    id: String,
    l: Lang,
) -> Html {
    let enabled = sim.check(a);
    let (onclick, onkeydown) = press(act, a);
    let disabled = enabled.is_err();
    let title = match &enabled {
        Ok(()) => aria.clone(),
        Err(e) => format!("{aria} — {}", e.message(l)),
    };
    html! {
        <g class={classes!("chip", disabled.then_some("disabled"))} role="button" tabindex={if disabled { "-1" } else { "0" }}
           aria-label={aria} aria-disabled={disabled.to_string()} id={id}
           onclick={(!disabled).then_some(onclick)} onkeydown={(!disabled).then_some(onkeydown)}>
            <title>{title}</title>
            // The finger's reach, past the drawn button: 44 units tall.
            <rect class="hit" x={num(x - 2.0)} y={num(y - 8.0)} width={num(w + 4.0)} height="44" />
            <rect x={num(x)} y={num(y)} width={num(w)} height="28" rx="6" />
            <text x={num(x + w / 2.0)} y={num(y + 20.0)} text-anchor="middle">{label}</text>
        </g>
    }
}
