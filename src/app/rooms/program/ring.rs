//! The key-group ring: the max parallelism's key groups around a circle, each coloured by the
//! subtask that owns it (`KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup`), before the
//! restore (inner ring) and after it (outer ring), with each key at its key group. A rescale
//! recolours whole arcs; a key never leaves its key group.

use yew::prelude::*;

use crate::app::svg_number::{fixed, num};
use crate::app::text::Lang;
use crate::engine::core::dataflow::key_groups::{assign_to_key_group, key_group_range, operator_index_for_key_group};

/// One colour per subtask (up to the simulator's 8), distinguishable in grey too.
const COLOURS: [&str; 8] = ["#2563eb", "#f59e0b", "#059669", "#db2777", "#7c3aed", "#0891b2", "#65a30d", "#dc2626"];

/// What the ring shows.
#[derive(Clone, Debug, PartialEq)]
pub struct RingSpec {
    pub operator: String,
    pub max_parallelism: u16,
    pub old_parallelism: u16,
    pub new_parallelism: u16,
    pub keys: Vec<String>,
}

fn arc(cx: f64, cy: f64, r0: f64, r1: f64, a0: f64, a1: f64) -> String {
    // A whole ring (one subtask owns every key group, parallelism 1): an SVG arc from a point back
    // to itself draws nothing, so the ring is drawn as two halves.
    if a1 - a0 >= std::f64::consts::TAU - 1e-9 {
        let mid = a0 + std::f64::consts::PI;
        return format!("{}{}", arc(cx, cy, r0, r1, a0, mid), arc(cx, cy, r0, r1, mid, a1));
    }
    let p = |r: f64, a: f64| (cx + r * a.sin(), cy - r * a.cos());
    let (x0, y0) = p(r1, a0);
    let (x1, y1) = p(r1, a1);
    let (x2, y2) = p(r0, a1);
    let (x3, y3) = p(r0, a0);
    let large = if a1 - a0 > std::f64::consts::PI { 1 } else { 0 };
    let (x0, y0, x1, y1) = (fixed(x0, 2), fixed(y0, 2), fixed(x1, 2), fixed(y1, 2));
    let (x2, y2, x3, y3) = (fixed(x2, 2), fixed(y2, 2), fixed(x3, 2), fixed(y3, 2));
    let (r0, r1) = (num(r0), num(r1));
    format!("M{x0} {y0}A{r1} {r1} 0 {large} 1 {x1} {y1}L{x2} {y2}A{r0} {r0} 0 {large} 0 {x3} {y3}Z")
}

fn ranges_text(l: Lang, max: u16, p: u16) -> Vec<(usize, String)> {
    (0..p)
        .map(|i| {
            let r = key_group_range(max, p, i);
            let t = match l {
                Lang::En => format!("subtask {i}: key groups {}–{}", r.start, r.end),
                Lang::Zh => format!("子任务 {i}：键组 {}–{}", r.start, r.end),
            };
            (i as usize, t)
        })
        .collect()
}

pub fn ring(spec: &RingSpec, l: Lang) -> Html {
    let m = spec.max_parallelism.max(1);
    let (cx, cy) = (280.0, 250.0);
    let step = std::f64::consts::TAU / m as f64;
    let segments = |p: u16, r0: f64, r1: f64| -> Html {
        // One path per owner's range: whole arcs, as whole key groups move.
        (0..p)
            .map(|i| {
                let r = key_group_range(m, p, i);
                let d = arc(cx, cy, r0, r1, r.start as f64 * step, (r.end as f64 + 1.0) * step);
                html! { <path d={d} fill={COLOURS[i as usize % 8]} stroke="#fff" stroke-width="1.5"><title>{ ranges_text(l, m, p)[i as usize].1.clone() }</title></path> }
            })
            .collect()
    };
    let keys: Html = spec
        .keys
        .iter()
        .map(|k| {
            let kg = assign_to_key_group(k, m);
            let a = (kg as f64 + 0.5) * step;
            let (x, y) = (cx + 196.0 * a.sin(), cy - 196.0 * a.cos());
            let (tx, ty) = (cx + 212.0 * a.sin(), cy - 212.0 * a.cos() + 7.0 - 4.0 * a.cos());
            let anchor = if a.sin() > 0.15 { "start" } else if a.sin() < -0.15 { "end" } else { "middle" };
            let (o, n) = (
                operator_index_for_key_group(m, spec.old_parallelism, kg),
                operator_index_for_key_group(m, spec.new_parallelism, kg),
            );
            let title = match l {
                Lang::En => format!("key {k}: key group {kg}, subtask {o} before, subtask {n} after"),
                Lang::Zh => format!("键 {k}：键组 {kg}，之前在子任务 {o}，之后在子任务 {n}"),
            };
            html! {
                <g class="ring-key" data-key={k.clone()} data-key-group={kg.to_string()} data-old={o.to_string()} data-new={n.to_string()}>
                    <title>{ title }</title>
                    <line x1={num(cx + 150.0 * a.sin())} y1={num(cy - 150.0 * a.cos())} x2={num(x)} y2={num(y)} stroke="#0f172a" stroke-width="2" />
                    <circle cx={num(x)} cy={num(y)} r="5" fill="#0f172a" />
                    <text x={num(tx)} y={num(ty)} text-anchor={anchor} class="ring-label">{ format!("{k}·{kg}") }</text>
                </g>
            }
        })
        .collect();
    let legend = |p: u16, head: &str, id: &str| -> Html {
        html! {
            <div class="ring-legend" id={id.to_string()}>
                <strong>{ head.to_string() }</strong>
                <ul>{ for ranges_text(l, m, p).into_iter().map(|(i, t)| html! {
                    <li><span class="swatch" style={format!("background:{}", COLOURS[i % 8])}></span>{ t }</li>
                }) }</ul>
            </div>
        }
    };
    let caption = match l {
        Lang::En => format!(
            "{}: {m} key groups (max parallelism). Inner ring: {} subtask(s) before; outer ring: {} after. Each key sits at its key group.",
            spec.operator, spec.old_parallelism, spec.new_parallelism
        ),
        Lang::Zh => format!(
            "{}：{m} 个键组（最大并行度）。内圈：之前 {} 个子任务；外圈：之后 {} 个。每个键位于它的键组。",
            spec.operator, spec.old_parallelism, spec.new_parallelism
        ),
    };
    html! {
        <figure class="key-ring" id="key-ring" data-max={m.to_string()} data-old={spec.old_parallelism.to_string()} data-new={spec.new_parallelism.to_string()}>
            <svg viewBox="0 0 560 500" role="img" aria-label={caption.clone()}>
                { segments(spec.old_parallelism, 100.0, 140.0) }
                { segments(spec.new_parallelism, 150.0, 190.0) }
                { keys }
            </svg>
            <figcaption>
                <p>{ caption }</p>
                { legend(spec.old_parallelism, l.t("Before", "之前"), "ring-before") }
                { legend(spec.new_parallelism, l.t("After", "之后"), "ring-after") }
            </figcaption>
        </figure>
    }
}
