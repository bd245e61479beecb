//! The key-group ring: the max parallelism's key groups around a circle, each coloured by the
//! subtask that owns it (`KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup`), before the
//! restore (inner ring) and after it (outer ring), with each key at its key group. A rescale
//! recolours whole arcs; a key never leaves its key group.

use yew::prelude::*;

use crate::app::svg_number::{fixed, num};
use crate::app::text::Lang;
use crate::engine::core::dataflow::key_groups::{assign_to_key_group, key_group_range, operator_index_for_key_group};
use trig::{cos, sin};

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
    let p = |r: f64, a: f64| (cx + r * sin(a), cy - r * cos(a));
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
            let (x, y) = (cx + 196.0 * sin(a), cy - 196.0 * cos(a));
            let (tx, ty) = (cx + 212.0 * sin(a), cy - 212.0 * cos(a) + 7.0 - 4.0 * cos(a));
            let anchor = if sin(a) > 0.15 { "start" } else if sin(a) < -0.15 { "end" } else { "middle" };
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
                    <line x1={num(cx + 150.0 * sin(a))} y1={num(cy - 150.0 * cos(a))} x2={num(x)} y2={num(y)} stroke="#0f172a" stroke-width="2" />
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

/// The ring's sine and cosine: Rust's `f64::sin` and `f64::cos` as the page's wasm computes them
/// (the compiler's libm, a port of musl's, itself FreeBSD's msun), written out for the angles
/// the ring draws (|a| below 2^20 · π/2; the ring's are at most 4π), without the reduction of
/// huge arguments that the library carries and the ring never needs: about 3 KB gzipped less in
/// the part (issue 52). The same operations in the same order, so the same bits: checked against
/// the libm crate (0.2.16) on 35 million angles up to 8π, those near every multiple of π/2 and
/// the ring's own for every max parallelism up to 4,096.
#[allow(clippy::excessive_precision)]
mod trig {
    const INV_PIO2: f64 = 6.36619772367581382433e-01;
    const TO_INT: f64 = 1.5 / f64::EPSILON;
    const PIO2_1: f64 = 1.57079632673412561417e+00;
    const PIO2_1T: f64 = 6.07710050650619224932e-11;
    const PIO2_2: f64 = 6.07710050630396597660e-11;
    const PIO2_2T: f64 = 2.02226624879595063154e-21;
    const PIO2_3: f64 = 2.02226624871116645580e-21;
    const PIO2_3T: f64 = 8.47842766036889956997e-32;

    fn high(x: f64) -> u32 {
        (x.to_bits() >> 32) as u32 & 0x7fffffff
    }

    /// x − n·π/2 as y0 + y1, and n (libm's `rem_pio2` below its large case).
    fn rem_pio2(x: f64) -> (i32, f64, f64) {
        let ix = high(x);
        let k = match ix {
            _ if ix <= 0x400f6a7a && (ix & 0xfffff) != 0x921fb => {
                if ix <= 0x4002d97c {
                    1.0
                } else {
                    2.0
                }
            }
            _ if ix > 0x400f6a7a && ix <= 0x401c463b && ix != 0x4012d97c && ix != 0x401921fb => {
                if ix <= 0x4015fdbc {
                    3.0
                } else {
                    4.0
                }
            }
            _ => 0.0,
        };
        if k != 0.0 {
            let s = if x.is_sign_negative() { -1.0 } else { 1.0 };
            let z = x - s * (k * PIO2_1);
            let y0 = z - s * (k * PIO2_1T);
            let y1 = (z - y0) - s * (k * PIO2_1T);
            return ((s * k) as i32, y0, y1);
        }
        let f_n = (x * INV_PIO2 + TO_INT) - TO_INT;
        let n = f_n as i32;
        let mut r = x - f_n * PIO2_1;
        let mut w = f_n * PIO2_1T;
        let mut y0 = r - w;
        let ex = (ix >> 20) as i32;
        if ex - ((y0.to_bits() >> 52) as i32 & 0x7ff) > 16 {
            let t = r;
            w = f_n * PIO2_2;
            r = t - w;
            w = f_n * PIO2_2T - ((t - r) - w);
            y0 = r - w;
            if ex - ((y0.to_bits() >> 52) as i32 & 0x7ff) > 49 {
                let t = r;
                w = f_n * PIO2_3;
                r = t - w;
                w = f_n * PIO2_3T - ((t - r) - w);
                y0 = r - w;
            }
        }
        (n, y0, (r - y0) - w)
    }

    fn k_sin(x: f64, y: f64, iy: i32) -> f64 {
        let z = x * x;
        let v = z * x;
        let w = z * z;
        let r = 8.33333333332248946124e-03
            + z * (-1.98412698298579493134e-04 + z * 2.75573137070700676789e-06)
            + z * w * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10);
        const S1: f64 = -1.66666666666666324348e-01;
        if iy == 0 {
            x + v * (S1 + z * r)
        } else {
            x - ((z * (0.5 * y - v * r) - y) - v * S1)
        }
    }

    fn k_cos(x: f64, y: f64) -> f64 {
        let z = x * x;
        let w = z * z;
        let r = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * 2.48015872894767294178e-05))
            + w * w
                * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11));
        let hz = 0.5 * z;
        let w = 1.0 - hz;
        w + (((1.0 - w) - hz) + (z * r - x * y))
    }

    pub fn sin(x: f64) -> f64 {
        let ix = high(x);
        if ix <= 0x3fe921fb {
            return if ix < 0x3e500000 { x } else { k_sin(x, 0.0, 0) };
        }
        if ix >= 0x7ff00000 {
            return x - x;
        }
        let (n, y0, y1) = rem_pio2(x);
        match n & 3 {
            0 => k_sin(y0, y1, 1),
            1 => k_cos(y0, y1),
            2 => -k_sin(y0, y1, 1),
            _ => -k_cos(y0, y1),
        }
    }

    pub fn cos(x: f64) -> f64 {
        let ix = high(x);
        if ix <= 0x3fe921fb {
            return if ix < 0x3e46a09e && x as i32 == 0 { 1.0 } else { k_cos(x, 0.0) };
        }
        if ix >= 0x7ff00000 {
            return x - x;
        }
        let (n, y0, y1) = rem_pio2(x);
        match n & 3 {
            0 => k_cos(y0, y1),
            1 => -k_sin(y0, y1, 1),
            2 => -k_cos(y0, y1),
            _ => k_sin(y0, y1, 1),
        }
    }
}
