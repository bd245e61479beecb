//! The space-time diagram as SVG, after the figures of Chandy and Lamport's "Distributed
//! Snapshots" (1985): one line per task, steps left to right, one arrow per message, ◉ saves,
//! ✖ crashes as breaks, ⟳ restores as new segments, the cuts as lines through one point per task.
//! Every label goes through one [`Placer`], which never puts a label over another: a record's
//! label that finds no free spot along its arrow is left out (its arrow keeps its colour, its
//! dash and its tooltip), and the view says how many were left out.

use yew::prelude::*;

use crate::app::key_colours::key_colour;
use crate::app::svg_number::{num, points, within};
use crate::app::text::Lang;
use crate::engine::space_time::{Carries, Diagram, MarkKind, Message};
use crate::engine::{Crossing, RecordId};

pub const W: f64 = 1200.0;
const LEFT: f64 = 180.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 56.0;
/// At most this many arrows are drawn in view (all barriers and marked arrows always are).
pub const MAX_ARROWS: usize = 80;

/// The drawing's own style, inside the SVG so that an exported file looks the same on a slide.
const STYLE: &str = "\
.st-svg{font-family:system-ui,'Segoe UI','Noto Sans CJK SC','PingFang SC',sans-serif;background:#fff}\
.st-grid{stroke:#e2e8f0;stroke-width:1}\
.st-now{stroke:#0f172a;stroke-width:2;stroke-dasharray:3 3}\
.st-line{stroke:#334155;stroke-width:4;stroke-linecap:round}\
.st-ne-line{stroke:#7c3aed;stroke-width:2;stroke-dasharray:4 4}.st-ne{fill:#7c3aed;font-weight:800}\
.st-task{font-weight:700;fill:#0f172a}\
.st-tick{fill:#475569}\
.st-save{fill:#0369a1;font-weight:700}circle.st-save{stroke:#fff;stroke-width:2}\
.st-crash{fill:#b91c1c;font-weight:700}.st-restore{fill:#15803d;font-weight:700}\
.st-cut-current{fill:none;stroke:#7c3aed;stroke-width:12;stroke-linejoin:round;opacity:.3}\
.st-cut-drawn{fill:none;stroke:#0f766e;stroke-width:12;stroke-linejoin:round;opacity:.35}\
.st-point{fill:#0f766e}.st-cursor{fill:none;stroke:#0f766e;stroke-width:3}\
.st-hit{fill:transparent;cursor:crosshair;outline:none}.st-hit:focus{fill:rgba(15,118,110,.06);stroke:#0f766e;stroke-width:2;stroke-dasharray:6 4}\
.st-arrow{cursor:pointer}.st-arrow line{stroke-width:2.5}.st-arrow .st-hit-arrow{stroke:transparent;stroke-width:14}\
.st-arrow.barrier line{stroke-width:3}.st-arrow.in-flight line{stroke-dasharray:2 5}\
.st-arrow.orphan line{stroke:#b91c1c;stroke-width:6}.st-arrow.in-transit line{stroke:#c2410c;stroke-width:6;stroke-dasharray:9 5}\
.st-arrow .st-hit-arrow{stroke:transparent}\
.st-arrow.lit line{stroke-width:7}.st-arrow.lit .st-arrow-label{font-weight:800;text-decoration:underline}\
.st-bundle{fill:#475569;font-weight:700;paint-order:stroke;stroke:#fff;stroke-width:4px}\
.st-arrow-label{fill:#0f172a;paint-order:stroke;stroke:#fff;stroke-width:4px;font-weight:600}\
.st-arrow.orphan .st-arrow-label{fill:#b91c1c}.st-arrow.in-transit .st-arrow-label{fill:#c2410c}\
";

/// What the drawing is handed.
pub struct Scene<'a> {
    /// The prefix of the drawing's element ids: `st` for the run's, `st2` for the compared run's.
    pub id: &'static str,
    pub d: &'a Diagram,
    pub labels: &'a [String],
    pub lang: Lang,
    pub presenter: bool,
    /// The playhead: what happened after it is not drawn.
    pub pos: u64,
    /// The steps in view.
    pub from: u64,
    pub to: u64,
    /// Per message: whether it is drawn (thinning).
    pub keep: &'a [bool],
    /// Per message: how it crosses the current cut and the drawn cut.
    pub current: &'a [Option<Crossing>],
    pub drawn: &'a [Option<Crossing>],
    /// The current cut (the restore point now), the drawn cut's points, and the point being moved.
    pub current_cut: Option<&'a [Option<u64>]>,
    pub drawn_cut: &'a [Option<u64>],
    pub cursor: Option<(usize, u64)>,
    pub hovered: Option<RecordId>,
    pub on_hover: Callback<Option<RecordId>>,
    /// A click on arrow `i`, with the click (where it fell).
    pub on_arrow: Callback<(usize, MouseEvent)>,
    pub on_line: Callback<(usize, MouseEvent)>,
    pub on_line_key: Callback<(usize, KeyboardEvent)>,
    /// Steps marked ≠ (the compared run did not take them).
    pub differs: &'a [u64],
    /// A drawing that only shows (the quiz's): no task line takes a cut's point.
    pub still: bool,
}

impl<'a> Scene<'a> {
    /// The geometry alone: no labels, arrows kept, crossings, cuts or callbacks.
    pub fn bare(id: &'static str, d: &'a Diagram, presenter: bool, pos: u64, from: u64, to: u64) -> Scene<'a> {
        Scene {
            id,
            d,
            labels: &[],
            lang: Lang::En,
            presenter,
            pos,
            from,
            to,
            keep: &[],
            current: &[],
            drawn: &[],
            current_cut: None,
            drawn_cut: &[],
            cursor: None,
            hovered: None,
            on_hover: Callback::noop(),
            on_arrow: Callback::noop(),
            on_line: Callback::noop(),
            on_line_key: Callback::noop(),
            differs: &[],
            still: false,
        }
    }
    pub fn font(&self) -> f64 {
        if self.presenter {
            21.0
        } else {
            16.0
        }
    }
    pub fn row(&self) -> f64 {
        if self.presenter {
            112.0
        } else {
            88.0
        }
    }
    pub fn height(&self) -> f64 {
        TOP + self.row() * self.d.tasks.len() as f64 + 24.0
    }
    fn y(&self, t: usize) -> f64 {
        TOP + self.row() * (t as f64 + 0.5)
    }
    /// The x of the boundary after step `p`.
    pub fn x(&self, p: f64) -> f64 {
        let span = (self.to - self.from).max(1) as f64;
        LEFT + (p - self.from as f64) * (W - LEFT - RIGHT) / span
    }
    /// The step boundary nearest to `x` (in the drawing's units), within the view and the run.
    pub fn step_at(&self, x: f64) -> u64 {
        let span = (self.to - self.from).max(1) as f64;
        let p = self.from as f64 + (x - LEFT) * span / (W - LEFT - RIGHT);
        (p.round().max(self.from as f64) as u64).min(self.to.min(self.pos))
    }
}

/// The labels placed so far: a new one goes only where it touches none.
#[derive(Default)]
pub struct Placer {
    boxes: Vec<(f64, f64, f64, f64)>,
}

/// A label's width at `font`: CJK characters are square, the others about 0.62 of the font size.
pub fn text_width(s: &str, font: f64) -> f64 {
    s.chars().map(|c| if (c as u32) > 0x2e80 { font * 1.05 } else { font * 0.64 }).sum()
}

impl Placer {
    /// Places a label centred at (x, y) if it overlaps no other (with a margin); returns whether
    /// it did.
    pub fn place(&mut self, text: &str, x: f64, y: f64, font: f64) -> bool {
        let (w, h) = (text_width(text, font) + 8.0, font * 1.3);
        let b = (x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0);
        if b.0 < 0.0 || b.2 > W || self.boxes.iter().any(|o| b.0 < o.2 && o.0 < b.2 && b.1 < o.3 && o.1 < b.3) {
            return false;
        }
        self.boxes.push(b);
        true
    }
}

fn label(text: String, x: f64, y: f64, class: &'static str) -> Html {
    html! { <text x={num(x)} y={num(y)} class={class} text-anchor="middle" dominant-baseline="central">{ text }</text> }
}

/// The symbol of a crossing, as the ledger writes the outcome it leads to: ⊕ (counted again,
/// duplicated) for an orphan, ✗ (lost) for a record in transit.
pub fn crossing_symbol(c: Crossing) -> &'static str {
    match c {
        Crossing::Orphan => "⊕",
        Crossing::InTransit => "✗",
    }
}

pub fn crossing_word(l: Lang, c: Crossing) -> &'static str {
    match c {
        Crossing::Orphan => l.t("orphan", "孤儿消息"),
        Crossing::InTransit => l.t("in transit", "在途"),
    }
}

/// The drawing, and how many record labels were left out for want of room.
pub fn draw(s: &Scene) -> (Html, usize) {
    let d = s.d;
    let l = s.lang;
    let font = s.font();
    let h = s.height();
    let mut placer = Placer::default();
    let mut texts: Vec<Html> = Vec::new();
    let mut shapes: Vec<Html> = Vec::new();
    let right = s.x(s.to as f64);
    // The axis: step numbers, every `every` steps.
    let span = (s.to - s.from).max(1);
    let every = [1u64, 2, 5, 10, 20, 50, 100, 200, 500].into_iter().find(|e| span / e <= 14).unwrap_or(1000);
    let first = s.from.div_ceil(every) * every;
    // ≠ where the compared run did not take the step: a dashed line, and the mark in the step row
    // (placed before the step numbers, which give way to it).
    for &p in s.differs.iter().filter(|&&p| p >= s.from && p <= s.to) {
        let x = s.x(p as f64 - 0.5);
        shapes.push(html! { <line x1={num(x)} x2={num(x)} y1={num(TOP - 8.0)} y2={num(h - 16.0)} class="st-ne-line" data-step={p.to_string()} /> });
        if placer.place("≠", x, TOP - 24.0, font) {
            texts.push(label("≠".to_string(), x, TOP - 24.0, "st-ne"));
        }
    }
    for p in (first..=s.to).step_by(every as usize) {
        let x = s.x(p as f64);
        shapes.push(html! { <line x1={num(x)} x2={num(x)} y1={num(TOP - 8.0)} y2={num(h - 16.0)} class="st-grid" /> });
        if placer.place(&p.to_string(), x, TOP - 24.0, font) {
            texts.push(label(p.to_string(), x, TOP - 24.0, "st-tick"));
        }
    }
    // The playhead.
    if s.pos >= s.from && s.pos <= s.to {
        let x = s.x(s.pos as f64);
        shapes.push(html! { <line x1={num(x)} x2={num(x)} y1={num(TOP - 8.0)} y2={num(h - 8.0)} class="st-now" /> });
    }
    // The task lines: a segment while the task runs, broken at each crash.
    task_lines(s, &mut placer, &mut texts, &mut shapes, right, font);
    // Saves, crashes and restores.
    for m in d.marks.iter().filter(|m| m.step <= s.pos && m.step >= s.from && m.step <= s.to) {
        let (x, y) = (s.x(m.step as f64 - 0.5), s.y(m.task.index()));
        let (sym, class, text) = match m.kind {
            MarkKind::Save(Some(c)) => ("◉", "st-save", format!("◉{}", c.0)),
            MarkKind::Save(None) => ("◉", "st-save", "◉".to_string()),
            MarkKind::Crash => ("✖", "st-crash", "✖".to_string()),
            MarkKind::Restore => ("⟳", "st-restore", "⟳".to_string()),
        };
        shapes.push(html! { <circle cx={num(x)} cy={num(y)} r="6" class={class}><title>{ mark_title(l, m.kind) }</title></circle> });
        let ly = y - font * 1.1;
        if placer.place(&text, x, ly, font) {
            texts.push(label(text, x, ly, class));
        } else if placer.place(sym, x, ly, font) {
            texts.push(label(sym.to_string(), x, ly, class));
        }
    }
    // The cuts.
    let cut_line =
        |pts: Vec<(f64, f64)>, class: &'static str| html! { <polyline points={points(&pts)} class={class} /> };
    if let Some(cut) = s.current_cut {
        let pts: Vec<(f64, f64)> = cut
            .iter()
            .enumerate()
            .filter_map(|(t, p)| p.map(|p| (within(s.x(p as f64), LEFT, right), s.y(t))))
            .collect();
        if pts.len() > 1 {
            shapes.push(cut_line(pts, "st-cut-current"));
        }
    }
    let drawn: Vec<(f64, f64)> = s
        .drawn_cut
        .iter()
        .enumerate()
        .filter_map(|(t, p)| p.map(|p| (within(s.x(p as f64), LEFT, right), s.y(t))))
        .collect();
    if drawn.len() > 1 {
        shapes.push(cut_line(drawn.clone(), "st-cut-drawn"));
    }
    for (x, y) in &drawn {
        shapes.push(html! { <rect x={num(x - 5.0)} y={num(y - 16.0)} width="10" height="32" class="st-point" /> });
    }
    if let Some((t, p)) = s.cursor {
        let (x, y) = (s.x(p as f64), s.y(t));
        shapes.push(html! { <rect x={num(x - 6.0)} y={num(y - 20.0)} width="12" height="40" class="st-cursor" /> });
    }
    // The arrows: the marked ones last, so they lie on top.
    let mut hidden = 0;
    let mut order: Vec<usize> = (0..d.messages.len()).filter(|&i| s.keep.get(i).copied().unwrap_or(false)).collect();
    order.retain(|&i| d.messages[i].sent_at <= s.pos);
    // The unmarked, then the marked, each in the order they came (a partition, not a sort: a sort
    // brings its own copy of Rust's sorting code into the part, issue 52).
    let (mut order, marked): (Vec<usize>, Vec<usize>) =
        order.into_iter().partition(|&i| s.drawn[i].is_none() && s.current[i].is_none());
    order.extend(marked);
    order.reverse();
    let mut arrows = Vec::new();
    for i in order {
        let m = &d.messages[i];
        let (html, placed) = arrow(s, i, m, &mut placer);
        if !placed && matches!(m.carries, Carries::Record { .. }) {
            hidden += 1;
        }
        arrows.push(html);
    }
    arrows.reverse();
    // The thinned records, bundled: per channel, how many in view are not drawn, written half way
    // between its two lines at the playhead's side.
    bundles(s, &mut placer, &mut texts, right, font);
    let clip = html! {
        <clipPath id={format!("{}-clip", s.id)}><rect x={num(LEFT)} y="0" width={num(right - LEFT)} height={num(h)} /></clipPath>
    };
    let lines = hit_lines(s, right);
    let view = html! {
        <svg id={format!("{}-svg", s.id)} xmlns="http://www.w3.org/2000/svg" viewBox={format!("0 0 {} {}", num(W), num(h))}
            class={classes!("st-svg", s.presenter.then_some("presenter"))} role="group" style={format!("font-size:{}px", num(font))}
            aria-label={l.t("Space-time diagram: one line per task, one arrow per message", "时空图：每个任务一条线，每条消息一个箭头")}>
            <style>{ STYLE }</style>
            <defs>
                { clip }
                <marker id={format!("{}-head", s.id)} viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="14" markerHeight="14" orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 z" fill="context-stroke" /></marker>
            </defs>
            <g class="st-back">{ for shapes }</g>
            { for lines }
            <g clip-path={format!("url(#{}-clip)", s.id)} class="st-arrows">{ for arrows }</g>
            <g class="st-labels">{ for texts }</g>
        </svg>
    };
    (view, hidden)
}

/// One arrow, its label placed if there is room: (the drawing, whether the label was placed).
fn arrow(s: &Scene, i: usize, m: &Message, placer: &mut Placer) -> (Html, bool) {
    let l = s.lang;
    let font = s.font();
    let (x1, y1) = (s.x(m.sent_at as f64 - 0.5), s.y(m.from.index()));
    let received = m.received_at.filter(|r| *r <= s.pos);
    // Not (yet) received: drawn half way to the receiver, dotted, to the playhead, or to the
    // crash that lost it.
    let lost = s.d.marks.iter().find(|k| {
        (k.task == m.to || k.task == m.from) && k.kind == MarkKind::Crash && k.step >= m.sent_at && k.step <= s.pos
    });
    let (x2, y2) = match (received, lost) {
        (Some(r), _) => (s.x(r as f64 - 0.5), s.y(m.to.index())),
        (None, Some(k)) => (s.x(k.step as f64 - 0.5), (y1 + s.y(m.to.index())) / 2.0),
        (None, None) => (s.x(s.pos as f64), (y1 + s.y(m.to.index())) / 2.0),
    };
    let crossing = s.drawn[i].or(s.current[i]);
    let record = m.record();
    let lit = record.is_some() && record == s.hovered;
    let (colour, text) = match m.carries {
        Carries::Record { record, key } => (key_colour(key).to_string(), s.labels[record.0 as usize].clone()),
        Carries::Barrier(c) => ("#111827".to_string(), format!("▮{}", c.0)),
    };
    let text = match crossing {
        Some(c) => format!("{}{text}", crossing_symbol(c)),
        None => text,
    };
    let class = classes!(
        "st-arrow",
        matches!(m.carries, Carries::Barrier(_)).then_some("barrier"),
        received.is_none().then_some("in-flight"),
        crossing.map(|c| if c == Crossing::Orphan { "orphan" } else { "in-transit" }),
        lit.then_some("lit")
    );
    let mut placed = None;
    for t in [0.5, 0.3, 0.7, 0.18, 0.82] {
        let (x, y) = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
        if x >= LEFT && x <= W - RIGHT && placer.place(&text, x, y, font) {
            placed = Some((x, y));
            break;
        }
    }
    let title = {
        let what = match m.carries {
            Carries::Record { .. } => format!("{} {}", l.t("record", "记录"), text),
            Carries::Barrier(c) => format!("{} {}", l.t("barrier of checkpoint", "检查点屏障"), c.0),
        };
        let got = match m.received_at {
            Some(r) => format!("{} {r}", l.t("received at step", "接收于第几步："),),
            None => l.t("never received", "从未接收").to_string(),
        };
        let cross = crossing.map(|c| format!(" — {}", crossing_word(l, c))).unwrap_or_default();
        format!("{what}: {} {} · {got}{cross}", l.t("sent at step", "发送于第几步："), m.sent_at)
    };
    let (on_enter, on_leave, on_click) = {
        let (h1, h2, c) = (s.on_hover.clone(), s.on_hover.clone(), s.on_arrow.clone());
        (
            Callback::from(move |_: MouseEvent| h1.emit(record)),
            Callback::from(move |_: MouseEvent| h2.emit(None)),
            Callback::from(move |e: MouseEvent| c.emit((i, e))),
        )
    };
    let html = html! {
        <g class={class} data-record={record.map(|r| s.labels[r.0 as usize].clone())} data-message={i.to_string()}
            data-from={m.from.index().to_string()} onmouseenter={on_enter} onmouseleave={on_leave} onclick={on_click}>
            <title>{ title }</title>
            <line x1={num(x1)} y1={num(y1)} x2={num(x2)} y2={num(y2)} class="st-hit-arrow" />
            <line x1={num(x1)} y1={num(y1)} x2={num(x2)} y2={num(y2)} stroke={colour} marker-end={received.map(|_| format!("url(#{}-head)", s.id))} />
            if let Some((x, y)) = placed {
                <text x={num(x)} y={num(y)} text-anchor="middle" dominant-baseline="central" class="st-arrow-label">{ text }</text>
            }
        </g>
    };
    (html, placed.is_some())
}

fn mark_title(l: Lang, k: MarkKind) -> String {
    match k {
        MarkKind::Save(Some(c)) => format!("{} {}", l.t("◉ saved its state for checkpoint", "◉ 为检查点保存状态"), c.0),
        MarkKind::Save(None) => l.t("◉ saved its state (its own timer)", "◉ 保存状态（自己的定时器）").to_string(),
        MarkKind::Crash => l.t("✖ crashed: the line breaks", "✖ 崩溃：线在此断开").to_string(),
        MarkKind::Restore => l.t("⟳ restored from a save: a new segment", "⟳ 从保存恢复：新的一段").to_string(),
    }
}

/// `s`, cut with … to fit `max` at `font`.
fn fit(s: &str, max: f64, font: f64) -> String {
    if text_width(s, font) <= max {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        if text_width(&out, font) + text_width("…", font) + text_width(&c.to_string(), font) > max {
            break;
        }
        out.push(c);
    }
    out + "…"
}

/// The task lines: a segment while the task runs, broken at each crash, and each task's name.
fn task_lines(s: &Scene, placer: &mut Placer, texts: &mut Vec<Html>, shapes: &mut Vec<Html>, right: f64, font: f64) {
    let d = s.d;
    for (t, name) in d.tasks.iter().enumerate() {
        let y = s.y(t);
        let task = crate::engine::TaskId(t as u16);
        let mut start = Some(0u64);
        let mut segs = Vec::new();
        for m in d.marks.iter().filter(|m| m.task == task && m.step <= s.pos) {
            match (m.kind, start) {
                (MarkKind::Crash, Some(a)) => {
                    segs.push((a, m.step as f64 - 0.5));
                    start = None;
                }
                (MarkKind::Restore, None) => start = Some(m.step),
                _ => {}
            }
        }
        if let Some(a) = start {
            segs.push((a, s.pos as f64));
        }
        for (a, b) in segs {
            let (x1, x2) = (s.x(a as f64).max(LEFT), s.x(b).min(right));
            if x2 > x1 {
                shapes.push(html! { <line x1={num(x1)} x2={num(x2)} y1={num(y)} y2={num(y)} class="st-line" /> });
            }
        }
        let fitted = fit(name, LEFT - 16.0, font);
        placer.place(&fitted, LEFT - 12.0 - text_width(&fitted, font) / 2.0, y, font);
        texts.push(html! { <text x={num(LEFT - 12.0)} y={num(y)} class="st-task" text-anchor="end" dominant-baseline="central">{ fitted }</text> });
    }
}

/// The thinned records, bundled: per channel, how many in view are not drawn ("+n"), written half
/// way between its two lines at the playhead's side.
fn bundles(s: &Scene, placer: &mut Placer, texts: &mut Vec<Html>, right: f64, font: f64) {
    let (d, l) = (s.d, s.lang);
    let mut bundles: Vec<(usize, usize)> = Vec::new();
    for (i, m) in d.messages.iter().enumerate() {
        let in_view = m.sent_at <= s.pos.min(s.to) && m.received_at.is_none_or(|r| r >= s.from);
        if in_view && !s.keep.get(i).copied().unwrap_or(true) {
            match bundles.iter_mut().find(|b| b.0 == m.channel.index()) {
                Some(b) => b.1 += 1,
                None => bundles.push((m.channel.index(), 1)),
            }
        }
    }
    for (c, count) in bundles {
        let m = d.messages.iter().find(|m| m.channel.index() == c).expect("counted from a message");
        let text = format!("+{count}");
        let y = (s.y(m.from.index()) + s.y(m.to.index())) / 2.0;
        let x = right - text_width(&text, font) / 2.0 - 10.0;
        if placer.place(&text, x, y, font) {
            texts.push(html! {
                <text x={num(x)} y={num(y)} class="st-bundle" text-anchor="middle" dominant-baseline="central">
                    <title>{ match l {
                        Lang::En => format!("{count} more records on this channel, thinned out: zoom in to see them"),
                        Lang::Zh => format!("此通道上另有 {count} 条记录被稀疏省略：放大即可看到"),
                    } }</title>{ text }</text>
            });
        }
    }
}

/// Each task line's hit area, a slider for its point of the cut (none on a still diagram).
fn hit_lines(s: &Scene, right: f64) -> Vec<Html> {
    let (d, l) = (s.d, s.lang);
    let hit_h = s.row();
    (0..if s.still { 0 } else { d.tasks.len() })
        .map(|t| {
        let y = s.y(t);
        let on_line = s.on_line.clone();
        let on_key = s.on_line_key.clone();
        let point = s.drawn_cut.get(t).copied().flatten();
        let name = d.tasks[t].clone();
        html! {
            <rect id={format!("{}-line-{t}", s.id)} class="st-hit" x={num(LEFT)} y={num(y - hit_h / 2.0)} width={num(right - LEFT)} height={num(hit_h)}
                tabindex="0" role="slider" aria-valuemin="0" aria-valuemax={s.pos.to_string()}
                // A slider always has a value (axe: aria-required-attr): no point set yet reads as step 0, "not set".
                aria-valuenow={point.unwrap_or(0).to_string()}
                aria-valuetext={match point {
                    Some(p) if l == Lang::Zh => format!("第 {p} 步"),
                    Some(p) => format!("step {p}"),
                    None => l.t("no point set yet", "尚未设点").to_string(),
                }}
                aria-label={format!("{} {name}", l.t("Cut point on the line of", "切面点：任务"))}
                data-task={t.to_string()}
                onclick={Callback::from(move |e: MouseEvent| on_line.emit((t, e)))}
                onkeydown={Callback::from(move |e: KeyboardEvent| on_key.emit((t, e)))} />
        }
        })
        .collect()
}
