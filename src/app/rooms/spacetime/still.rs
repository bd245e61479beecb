//! A run as a space-time diagram that only shows: every task a line, every record and barrier an
//! arrow, the saves, the crash and the restore, with no cut to draw and nothing to click. The
//! quiz's first question type shows its schedule with it (issue 35), beside the list of steps.
//! Its code is the space-time room's drawing, which the two parts of the page share.

use yew::prelude::*;

use super::drawing::{draw, Scene, MAX_ARROWS};
use crate::app::text::Lang;
use crate::engine::space_time::{diagram, thin};
use crate::engine::Timeline;

/// The whole of `tl`, up to its last step, as a diagram with the caption `caption`.
pub fn still(tl: &Timeline, lang: Lang, presenter: bool, caption: &str) -> Html {
    let d = diagram(tl);
    let pos = tl.len() as u64;
    let to = pos.max(10);
    let must = vec![false; d.messages.len()];
    let keep = thin(&d, 0, to, &must, MAX_ARROWS);
    let none = vec![None; d.messages.len()];
    let labels: Vec<String> = tl.current().graph.records.iter().map(|r| r.label.clone()).collect();
    let scene = Scene {
        labels: &labels,
        lang,
        keep: &keep,
        current: &none,
        drawn: &none,
        still: true,
        ..Scene::bare("st-quiz", &d, presenter, pos, 0, to)
    };
    let (svg, _) = draw(&scene);
    html! {
        <figure class="quiz-diagram" id="quiz-diagram" data-arrows={keep.iter().filter(|k| **k).count().to_string()}>
            { svg }
            <figcaption>{ caption.to_string() }</figcaption>
        </figure>
    }
}
