//! The cut: the line joining the save marks a restore would use now.

use super::layout::Layout;
use crate::app::svg_number::points;
use crate::app::text::Lang;
use crate::engine::*;
use yew::prelude::*;

/// The cut: dashed runs joining the save markers of the tasks that have one. A run along the
/// top row's markers (the spine), and from it a run down the gutter right of a column to each
/// marker lower in it: places the layout keeps clear of text and tokens. Every run ends at the
/// edge of a marker, never across its number.
pub(super) fn cut_line(lay: &Layout, saved: &[Option<&TaskSnapshot>], l: Lang) -> Html {
    let marks: Vec<usize> = (0..saved.len()).filter(|t| saved[*t].is_some()).collect();
    if marks.len() < 2 {
        return html! {};
    }
    let sky = lay.sky;
    let mut runs: Vec<String> = Vec::new();
    // Stops along the spine: a top-row marker (its left and right ends) or a tooth (one x).
    let mut stops: Vec<(f64, f64)> = Vec::new();
    let mut teeth: crate::engine::core::sorted_vec::SortedMap<usize, f64> = Default::default();
    for t in &marks {
        let r = lay.snap(*t);
        let cy = r.y + r.h / 2.0;
        if (cy - sky).abs() < 1.0 {
            stops.push((r.x, r.right()));
        } else {
            let col = lay.column[*t];
            let gx = lay.gutters[col];
            runs.push(points(&[(gx, cy), (r.right(), cy)]));
            let low = teeth.get_or_insert_with(col, || cy);
            *low = low.max(cy);
        }
    }
    for (col, low) in teeth.iter() {
        let gx = lay.gutters[*col];
        runs.push(points(&[(gx, sky), (gx, *low)]));
        stops.push((gx, gx));
    }
    crate::engine::core::stable_sort::sort_stable_by(&mut stops, |a, b| a.0.total_cmp(&b.0));
    for w in stops.windows(2) {
        if w[1].0 - w[0].1 > 1.0 {
            runs.push(points(&[(w[0].1, sky), (w[1].0, sky)]));
        }
    }
    html! {
        <g class="cut" id="cut">
            <title>{ l.t("The cut: the saves a restore would use", "切面：恢复将使用的保存") }</title>
            { for runs.into_iter().map(|p| html! { <polyline class="cut-run" points={p} /> }) }
        </g>
    }
}
