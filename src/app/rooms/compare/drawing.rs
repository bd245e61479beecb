//! One run drawn compactly: the tasks as boxes by depth (sources on the left), each with its
//! status and state, the channels between them with what they carry (record labels, barriers as
//! |n|), and a line for the mechanism's own parts (the CheckpointCoordinator, Storm's acker,
//! Spark's blocks and batches). Three of these sit side by side, so nothing here has an id but
//! the drawing itself (`cmp-draw-N`): the runs' marks are found by their data attributes.

use yew::prelude::*;

use crate::app::svg_number::num;
use crate::engine::comparison::Lane;
use crate::engine::{ChannelId, Item, Lang, OpState, OperatorKind, Sim, Strategy, TaskId, TaskStatus};

/// The drawing's geometry: on a projector the boxes are larger, and so is the text in them (see
/// style.css), so that it stays 16 px or more when the drawing shrinks to a third of the height.
#[derive(Clone, Copy)]
struct Geometry {
    box_w: f64,
    box_h: f64,
    gap_x: f64,
    gap_y: f64,
    name_y: f64,
    state_y: f64,
    queue: usize,
}

const PAD: f64 = 8.0;
const NORMAL: Geometry =
    Geometry { box_w: 96.0, box_h: 66.0, gap_x: 44.0, gap_y: 20.0, name_y: 24.0, state_y: 50.0, queue: 4 };
const PROJECTOR: Geometry =
    Geometry { box_w: 124.0, box_h: 58.0, gap_x: 56.0, gap_y: 8.0, name_y: 24.0, state_y: 49.0, queue: 2 };

/// Each task's column (its depth from the sources) and row.
fn places(sim: &Sim) -> (Vec<(usize, usize)>, usize, usize) {
    let g = &sim.graph;
    let mut depth = vec![0usize; g.tasks.len()];
    for t in &g.topo_order {
        for c in &g.task(*t).out_channels {
            let to = g.channels[c.index()].to.index();
            depth[to] = depth[to].max(depth[t.index()] + 1);
        }
    }
    let cols = depth.iter().max().map_or(1, |d| d + 1);
    let mut rows = vec![0usize; cols];
    let mut at = Vec::new();
    for d in &depth {
        at.push((*d, rows[*d]));
        rows[*d] += 1;
    }
    let max_rows = rows.into_iter().max().unwrap_or(1);
    (at, cols, max_rows)
}

fn state_words(sim: &Sim, t: TaskId, l: Lang) -> String {
    let rt = &sim.tasks()[t.index()];
    if sim.graph.task(t).kind == OperatorKind::Sink && !matches!(rt.state, OpState::Sink { .. }) {
        // An append or upsert sink: what a reader sees.
        let rows = sim.external().visible().iter().filter(|r| r.sink == t).count();
        return format!("{} {rows}", l.t("out", "输出"));
    }
    match &rt.state {
        OpState::Source { next_offset } => format!("{} {next_offset}", l.t("offset", "偏移")),
        OpState::Stateless => String::new(),
        OpState::Keyed { entries } => {
            let parts: Vec<String> =
                entries.iter().map(|(k, e)| format!("{}={}", sim.graph.key_name(*k), e.sum)).collect();
            if parts.is_empty() {
                l.t("empty", "空").into()
            } else {
                parts.join(" ")
            }
        }
        OpState::Sink { open, pending } => {
            let rows = sim.external().visible().iter().filter(|r| r.sink == t).count();
            let mut s = format!("{} {rows}", l.t("out", "输出"));
            if open.is_some() || !pending.is_empty() {
                s += &format!(" · {} {}", l.t("txn", "事务"), pending.len() + usize::from(open.is_some()));
            }
            s
        }
    }
    .chars()
    .take(14)
    .collect()
}

fn status(sim: &Sim, t: TaskId, l: Lang) -> (&'static str, &'static str, &'static str) {
    match sim.tasks()[t.index()].status {
        TaskStatus::Running => ("running", "", l.t("running", "运行中")),
        TaskStatus::Crashed => ("crashed", "✖ ", l.t("crashed", "已崩溃")),
        TaskStatus::Canceled => ("canceled", "‖ ", l.t("stopped", "已停止")),
    }
}

fn queue_words(sim: &Sim, c: ChannelId, most: usize) -> (usize, String) {
    let q = sim.queue(c);
    let words: Vec<String> = q
        .iter()
        .take(most)
        .map(|it| match it {
            Item::Record { rec, .. } => sim.record_label(rec.id).to_string(),
            Item::Barrier(b) => format!("|{}|", b.checkpoint.0),
            Item::Cancel(id) => format!("✕{}", id.0),
        })
        .collect();
    let more = if q.len() > most { " …" } else { "" };
    (q.len(), format!("{}{more}", words.join(" ")))
}

/// The mechanism's own parts in a line.
pub fn mechanism_line(sim: &Sim, l: Lang) -> String {
    match sim.strategy() {
        Strategy::StormAcker => {
            let trees = sim.storm().map_or(0, |s| s.acker.len());
            if sim.settings.mechanism.storm.ackers == 0 {
                l.t("acker: off (no tuple is tracked)", "acker：关闭（不跟踪任何元组）").into()
            } else {
                format!("{} {trees}", l.t("acker: pending tuple trees", "acker：未完成的元组树"))
            }
        }
        Strategy::SparkStreaming => {
            let d = sim.durable_spark();
            let jobs = sim.spark().map_or(0, |s| s.jobs.len());
            format!(
                "{} {} · {} {jobs} · {} {}",
                l.t("batches done", "已完成批次"),
                d.batches.len(),
                l.t("running", "运行中"),
                l.t("WAL blocks", "WAL 块"),
                d.wal.len()
            )
        }
        s if s.uses_coordinator() => {
            let done = sim.storage().completed.last().map(|c| c.id.0);
            let pending: Vec<String> = sim.pending().iter().map(|p| p.id.0.to_string()).collect();
            format!(
                "{} {} · {} {}",
                l.t("latest completed checkpoint", "最近完成的检查点"),
                done.map_or("-".into(), |d| d.to_string()),
                l.t("pending", "进行中"),
                if pending.is_empty() { "-".into() } else { pending.join(", ") }
            )
        }
        _ => String::new(),
    }
}

/// The run's drawing: an SVG with one id, `cmp-draw-{index}`.
pub fn drawing(index: usize, lane: &Lane, title: &str, presenter: bool, l: Lang) -> Html {
    let geo = if presenter { PROJECTOR } else { NORMAL };
    let Geometry { box_w, box_h, gap_x, gap_y, .. } = geo;
    let sim = &lane.sim;
    let g = &sim.graph;
    let (at, cols, rows) = places(sim);
    let width = PAD * 2.0 + cols as f64 * box_w + (cols - 1) as f64 * gap_x;
    let height = PAD * 2.0 + rows as f64 * box_h + (rows - 1) as f64 * gap_y;
    let pos = |t: usize| {
        let (c, r) = at[t];
        // Columns with fewer tasks are centred.
        let in_col = at.iter().filter(|(cc, _)| *cc == c).count();
        let offset = (rows - in_col) as f64 * (box_h + gap_y) / 2.0;
        (PAD + c as f64 * (box_w + gap_x), PAD + offset + r as f64 * (box_h + gap_y))
    };
    let channels = g.channels.iter().enumerate().map(|(i, ch)| {
        let (fx, fy) = pos(ch.from.index());
        let (tx, ty) = pos(ch.to.index());
        let (x1, y1, x2, y2) = (fx + box_w, fy + box_h / 2.0, tx, ty + box_h / 2.0);
        let (n, words) = queue_words(sim, ChannelId(i as u16), geo.queue);
        html! {
            <g class="cmp-channel" data-channel={ch.name.clone()} data-queued={n.to_string()}>
                <line class="cmp-lane" x1={num(x1)} y1={num(y1)} x2={num(x2 - 4.0)} y2={num(y2)} />
                if n > 0 {
                    <text class="cmp-queue" x={num((x1 + x2) / 2.0)} y={num((y1 + y2) / 2.0 - 6.0)} text-anchor="middle">{ words }</text>
                }
            </g>
        }
    });
    let tasks = g.tasks.iter().enumerate().map(|(i, t)| {
        let (x, y) = pos(i);
        let (status_id, mark, status_word) = status(sim, TaskId(i as u16), l);
        let state = state_words(sim, TaskId(i as u16), l);
        let source = t.kind == OperatorKind::Source;
        html! {
            <g class={classes!("cmp-task", status_id)} data-task={t.name.clone()} data-status={status_id}>
                <title>{ format!("{}: {status_word}", t.name) }</title>
                <rect x={num(x)} y={num(y)} width={num(box_w)} height={num(box_h)} rx="8" />
                <text class="cmp-task-name" x={num(x + 8.0)} y={num(y + geo.name_y)}>{ format!("{mark}{}", t.name) }</text>
                <text class="cmp-task-state" x={num(x + 8.0)} y={num(y + geo.state_y)}>
                    { if state.is_empty() && !source { status_word.to_string() } else { state } }
                </text>
            </g>
        }
    });
    let aria = format!("{}: {}", title, l.t("the job as this run stands", "此运行当前的作业状态"));
    html! {
        <svg id={format!("cmp-draw-{index}")} class="cmp-drawing" viewBox={format!("0 0 {} {}", num(width), num(height))}
             role="img" aria-label={aria} preserveAspectRatio="xMidYMid meet">
            { for channels }
            { for tasks }
        </svg>
    }
}
