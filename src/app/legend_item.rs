//! One line of the legend: a mark drawn as the canvas draws it, and what it means. The legend
//! (`canvas/legend.rs`) draws the marks every strategy shares; Storm's and Spark's bands draw
//! theirs (`acker_view.rs`, `spark_view.rs`), in the part that comes with the strategy.

use yew::prelude::*;

/// The legend's line for a glyph `w` units wide (48 high) that means `text`.
pub fn legend_item(glyph: Html, w: u32, text: &'static str) -> Html {
    html! {
        <li><svg class="legend-glyph" viewBox={format!("0 0 {w} 48")} style={format!("aspect-ratio: {w} / 48")} aria-hidden="true">{ glyph }</svg>
            <span>{ text }</span></li>
    }
}
