//! The canvas: the job drawn in SVG. Tasks are boxes showing their state; channels are lanes with
//! their queued records (tokens labelled a, b, c, coloured by key) and barriers (numbered markers);
//! the JobManager's CheckpointCoordinator sits on top; the cut of the latest saves is drawn across
//! the tasks with in-transit and orphan records flagged. Tokens carry a key (channel and sequence
//! number), but they sit among unkeyed siblings, so Yew recreates them each step and they don't
//! glide yet.

use std::collections::BTreeMap;

use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::text::Lang;
use super::{Dispatch, Msg, Run};
use crate::classroom::Command;
use crate::engine::CutReport;
use crate::engine::OperatorKind;
use crate::engine::*;

pub const BOX_W: f64 = 240.0;
pub const BOX_H: f64 = 156.0;
const COL: f64 = 470.0;
const ROW: f64 = 214.0;
const TOP: f64 = 178.0;
const LEFT: f64 = 24.0;
const TOKEN_GAP: f64 = 38.0;
const EXTERNAL_GAP: f64 = 110.0;
const EXTERNAL_W: f64 = 270.0;

/// Colours for keys; none of them is a verdict colour.
pub const KEY_COLOURS: [&str; 6] = ["#1d4ed8", "#0f766e", "#7c3aed", "#be185d", "#a16207", "#334155"];

pub fn key_colour(k: KeyId) -> &'static str {
    KEY_COLOURS[k.index() % KEY_COLOURS.len()]
}

pub struct Layout {
    pub width: f64,
    pub height: f64,
    /// Top-left corner of each task's box.
    pub boxes: Vec<(f64, f64)>,
    /// Per channel: (x1, y1) at the producer, (x2, y2) at the consumer.
    pub lanes: Vec<(f64, f64, f64, f64)>,
    pub external: Option<(f64, f64)>,
}

pub fn layout(g: &JobGraph) -> Layout {
    // Depth of each operator: the longest path from a source.
    let ops = g.spec.operators.len();
    let mut depth = vec![0usize; ops];
    for t in &g.topo_order {
        let info = g.task(*t);
        for c in &info.inputs {
            let from = g.task(g.channel(*c).from).operator.index();
            depth[info.operator.index()] = depth[info.operator.index()].max(depth[from] + 1);
        }
    }
    let mut columns: BTreeMap<usize, Vec<TaskId>> = BTreeMap::new();
    for t in &g.topo_order {
        columns.entry(depth[g.task(*t).operator.index()]).or_default().push(*t);
    }
    let rows = columns.values().map(Vec::len).max().unwrap_or(1) as f64;
    let mut boxes = vec![(0.0, 0.0); g.tasks.len()];
    for (d, tasks) in &columns {
        let offset = (rows - tasks.len() as f64) * ROW / 2.0;
        for (i, t) in tasks.iter().enumerate() {
            boxes[t.index()] = (LEFT + *d as f64 * COL, TOP + offset + i as f64 * ROW);
        }
    }
    let lanes = g
        .channels
        .iter()
        .map(|c| {
            let (fx, fy) = boxes[c.from.index()];
            let (tx, ty) = boxes[c.to.index()];
            let spread = |i: usize, n: usize| (i as f64 - (n as f64 - 1.0) / 2.0) * (BOX_H / 2.0 / n.max(1) as f64);
            let out_n = g.task(c.from).out_channels.len();
            let in_n = g.task(c.to).inputs.len();
            (
                fx + BOX_W,
                fy + BOX_H / 2.0 + spread(c.output_index, out_n),
                tx,
                ty + BOX_H / 2.0 + spread(c.input_index, in_n),
            )
        })
        .collect();
    let columns_n = columns.len() as f64;
    let right = LEFT + (columns_n - 1.0) * COL + BOX_W;
    let external = g.has_sink().then(|| (right + EXTERNAL_GAP, TOP + (rows * ROW - BOX_H) / 2.0));
    let width = right + if external.is_some() { EXTERNAL_GAP + EXTERNAL_W } else { 0.0 } + 24.0;
    Layout { width: width.max(760.0), height: TOP + rows * ROW - (ROW - BOX_H) + 40.0, boxes, lanes, external }
}

/// Handlers the canvas calls; each takes an action and returns a callback.
#[derive(Clone, PartialEq)]
pub struct Handlers {
    pub act: Callback<Action>,
}

fn press(act: &Callback<Action>, a: Action) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let click = {
        let act = act.clone();
        Callback::from(move |e: MouseEvent| {
            e.stop_propagation();
            act.emit(a)
        })
    };
    let key = {
        let act = act.clone();
        // Enter only: Space plays and pauses wherever the focus is (see `belongs_to_run`).
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                e.prevent_default();
                e.stop_propagation();
                act.emit(a)
            }
        })
    };
    (click, key)
}

fn trunc(labels: &[&str], max: usize) -> String {
    let mut s = labels.iter().take(max).copied().collect::<Vec<_>>().join(" ");
    if labels.len() > max {
        s += " …";
    }
    s
}

/// A small button drawn inside a task box.
#[allow(clippy::too_many_arguments)]
fn chip(
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
            <rect x={x.to_string()} y={y.to_string()} width={w.to_string()} height="28" rx="6" />
            <text x={(x + w / 2.0).to_string()} y={(y + 19.0).to_string()} text-anchor="middle">{label}</text>
        </g>
    }
}

#[derive(Properties, PartialEq)]
pub struct CanvasProps {
    pub run: Run,
    pub lang: Lang,
    pub dispatch: Dispatch,
}

/// The job drawn in SVG.
#[component]
pub fn Canvas(props: &CanvasProps) -> Html {
    let session = props.run.session();
    let sim = session.sim();
    let lang = props.lang;
    let h = &Handlers {
        act: {
            let d = props.dispatch.clone();
            Callback::from(move |a: Action| d.dispatch(Msg::Cmd(Command::Act(a))))
        },
    };
    let g = &sim.graph;
    let lay = layout(g);
    let saved: Vec<Option<&TaskSnapshot>> = sim.restore_point();
    let cut = saved.iter().any(|s| s.is_some()).then(|| sim.cut_check(&saved));
    let running = sim.running();
    let aria = lang.t(
        "The dataflow job: tasks as boxes, channels as lanes carrying records and barriers",
        "数据流作业：任务为方框，通道为承载记录和屏障的管道",
    );
    // Storm: the acker's band under the job.
    let band = sim.storm().filter(|_| sim.settings.ackers > 0);
    let height = lay.height + if band.is_some() { super::acker_view::BAND_H } else { 0.0 };
    html! {
        <svg id="canvas" class="canvas" viewBox={format!("0 0 {} {}", lay.width.max(1560.0 * if band.is_some() { 1.0 } else { 0.0 }), height)} role="group" aria-label={aria}
             preserveAspectRatio="xMidYMin meet">
            <defs>
                <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <rect width="6" height="6" fill="#fde68a" />
                    <line x1="0" y1="0" x2="0" y2="6" stroke="#b45309" stroke-width="2" />
                </pattern>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" fill="#64748b" />
                </marker>
            </defs>
            { jobmanager(sim, lang) }
            { for g.channels.iter().enumerate().map(|(i, _)| lane(sim, ChannelId(i as u16), &lay, lang, h, cut.as_ref())) }
            { for g.tasks.iter().enumerate().map(|(i, _)| task_box(sim, TaskId(i as u16), &lay, lang, h, saved[i])) }
            { cut_line(sim, &lay, &saved, lang) }
            { lay.external.map(|(x, y)| external_box(sim, x, y, lang)).unwrap_or_default() }
            { band.map(|s| super::acker_view::acker_band(sim, s, lay.height, &h.act, lang)).unwrap_or_default() }
            { if !running { down_banner(sim, &lay, lang) } else if sim.region_down() { region_banner(sim, &lay, lang) } else { html!{} } }
        </svg>
    }
}

fn jobmanager(sim: &Sim, l: Lang) -> Html {
    let up = sim.jobmanager_up();
    let strategy = sim.strategy();
    let line2 = if strategy.uses_coordinator() {
        let pending: Vec<String> = sim
            .pending()
            .iter()
            .map(|p| format!("{} {} ({}/{})", l.t("chk", "检查点"), p.id.0, p.acked, p.snapshots.len()))
            .collect();
        if pending.is_empty() {
            l.t("pending: none", "进行中：无").to_string()
        } else {
            format!("{} {}", l.t("pending:", "进行中："), pending.join(", "))
        }
    } else if strategy == Strategy::Timers {
        l.t("no coordination: each task's own timer saves it", "无协调：各任务按自己的定时器保存").to_string()
    } else if strategy == Strategy::StormAcker {
        if up {
            l.t("Nimbus: assigns workers; not on the data path", "Nimbus：分配 worker，不在数据路径上").to_string()
        } else {
            l.t("Nimbus down: workers keep processing; reassignment waits", "Nimbus 故障：worker 继续处理，重新分配需等待").to_string()
        }
    } else {
        l.t("nothing is saved", "不保存任何状态").to_string()
    };
    let line3 = if strategy.uses_coordinator() {
        let done: Vec<String> = sim.storage().completed.iter().map(|c| format!("{} ✓", c.id.0)).collect();
        format!(
            "{} {}",
            l.t("completed (retained):", "已完成（保留）："),
            if done.is_empty() { l.t("none", "无").to_string() } else { done.join(", ") }
        )
    } else if strategy == Strategy::Timers {
        l.t("restore: each task from its own latest save", "恢复：每个任务用自己最近的保存").to_string()
    } else if strategy == Strategy::StormAcker {
        l.t("no state is saved: a restarted bolt starts empty", "不保存状态：重启的 bolt 从空开始").to_string()
    } else {
        l.t("restore: every task starts empty", "恢复：每个任务从空开始").to_string()
    };
    let notify: Vec<String> = sim
        .notifications()
        .iter()
        .map(|n| {
            format!(
                "{} {}: {} {}",
                l.t("notify", "通知"),
                sim.graph.task(n.task).name,
                l.t("chk", "检查点"),
                n.checkpoint.0
            )
        })
        .collect();
    let line3 = if notify.is_empty() { line3 } else { format!("{line3} · ✉ {}", notify.join(", ")) };
    let stw = sim.stop_the_world().map(|(id, _)| {
        format!("{} {}", l.t("❚❚ sources paused for stop-the-world checkpoint", "❚❚ 源已暂停，等待全局快照"), id.0)
    });
    html! {
        <g id="jobmanager" class={classes!("jobmanager", (!up).then_some("down"))} data-up={up.to_string()}>
            <rect x="24" y="12" width="640" height="112" rx="10" />
            <text class="jm-title" x="40" y="42">
                { match (strategy == Strategy::StormAcker, up) {
                    (true, true) => l.t("Storm · Nimbus", "Storm · Nimbus"),
                    (true, false) => l.t("✖ Nimbus down", "✖ Nimbus 故障"),
                    (false, true) => l.t("JobManager · CheckpointCoordinator", "JobManager · 检查点协调器"),
                    (false, false) => l.t("✖ JobManager down", "✖ JobManager 故障"),
                } }
            </text>
            <text class="jm-line" x="40" y="72" id="jm-pending">{ line2 }</text>
            <text class="jm-line" x="40" y="100" id="jm-completed">{ stw.unwrap_or(line3) }</text>
        </g>
    }
}

fn lane(sim: &Sim, c: ChannelId, lay: &Layout, l: Lang, h: &Handlers, cut: Option<&CutReport>) -> Html {
    let g = &sim.graph;
    let info = g.channel(c);
    let ch = &sim.channels()[c.index()];
    let (x1, y1, x2, y2) = lay.lanes[c.index()];
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let capacity = ((len - 40.0) / TOKEN_GAP).floor().max(1.0) as usize;
    let head_action = Action::Deliver { channel: c };
    let enabled = sim.check(head_action);
    let (onclick, onkeydown) = press(&h.act, head_action);
    let head_label = match ch.queue.front() {
        Some(Item::Record { rec, .. }) => g.label(rec.id).to_string(),
        Some(Item::Barrier(b)) => format!("{} {}", l.t("barrier", "屏障"), b.checkpoint.0),
        Some(Item::Cancel(id)) => format!("{} {}", l.t("cancel marker", "取消标记"), id.0),
        None => l.t("nothing", "无").to_string(),
    };
    let aria = format!("{} {} ({})", l.t("Deliver the head of", "投递通道队首："), info.name, head_label);
    let title = match &enabled {
        Ok(()) => aria.clone(),
        Err(e) => format!("{} — {}", info.name, e.message(l)),
    };
    let n = ch.queue.len();
    let shown = n.min(capacity);
    let tokens = ch.queue.iter().take(shown).enumerate().map(|(i, item)| {
        let d = 26.0 + i as f64 * TOKEN_GAP;
        let (x, y) = (x2 - ux * d, y2 - uy * d);
        let style = format!("transform: translate({x:.1}px, {y:.1}px)");
        match item {
            Item::Record { seq, rec } => {
                let label = g.label(rec.id);
                let key = g.record(rec.id).key;
                let buffered = ch.blocked;
                html! {
                    <g key={format!("r{}-{}", c.0, seq)} class={classes!("token", buffered.then_some("buffered"), rec.replayed.then_some("replayed"))}
                       style={style} data-record={label.to_string()} data-seq={seq.to_string()}>
                        <title>{ format!("{label} ({} {}) {}", l.t("key", "键"), g.key_name(key),
                            if buffered { l.t("— buffered behind the barrier", "——在屏障后缓存") } else if rec.replayed { l.t("— replayed", "——重放") } else { "" }) }</title>
                        <circle r="16" fill={key_colour(key)} />
                        <text y="6" text-anchor="middle">{ label }</text>
                    </g>
                }
            }
            Item::Barrier(b) => html! {
                <g key={format!("b{}-{}", c.0, b.checkpoint.0)} class={classes!("barrier", b.unaligned.then_some("unaligned"))} style={style} data-checkpoint={b.checkpoint.0.to_string()}>
                    <title>{ if b.unaligned {
                        format!("{} {} {}", l.t("unaligned checkpoint barrier", "非对齐检查点屏障"), b.checkpoint.0, l.t("(overtakes records)", "（越过记录）"))
                    } else {
                        format!("{} {}", l.t("checkpoint barrier", "检查点屏障"), b.checkpoint.0)
                    } }</title>
                    <rect x="-5" y="-22" width="10" height="44" rx="2" />
                    <circle cy="-30" r="11" />
                    <text y="-25" text-anchor="middle">{ b.checkpoint.0 }</text>
                    { if b.unaligned { html!{ <text class="barrier-mark" x="-12" y="-32" text-anchor="end">{ "⇥u" }</text> } } else { html!{} } }
                </g>
            },
            Item::Cancel(id) => html! {
                <g key={format!("x{}-{}", c.0, id.0)} class="barrier cancel-marker" style={style} data-cancel={id.0.to_string()}>
                    <title>{ format!("{} {}", l.t("cancel marker for checkpoint", "检查点取消标记"), id.0) }</title>
                    <path class="cross" d="M -9 -18 L 9 18 M 9 -18 L -9 18" />
                    <circle cy="-30" r="11" />
                    <text y="-25" text-anchor="middle">{ format!("✕{}", id.0) }</text>
                </g>
            },
        }
    });
    let more = (n > shown).then(|| {
        let d = 26.0 + shown as f64 * TOKEN_GAP;
        html! { <text class="more" x={(x2 - ux * d).to_string()} y={(y2 - uy * d + 5.0).to_string()} text-anchor="middle">{ format!("+{}", n - shown) }</text> }
    });
    // Flags from the cut: records in transit (lost on restore) or orphans (counted twice).
    let flag = cut.and_then(|cut| cut.channels.iter().find(|cc| cc.channel == c)).and_then(|cc| {
        let names = |v: &Vec<RecordId>| v.iter().map(|r| g.label(*r)).collect::<Vec<_>>();
        // Beside the lane, on the side away from where it heads, so a flag never sits on a
        // neighbouring lane of the same consumer.
        let side = if y2 > y1 + 1.0 { -58.0 } else { 42.0 };
        let (mx, my) = ((x1 + x2) / 2.0 - if y2 > y1 + 1.0 { 20.0 } else { 0.0 }, (y1 + y2) / 2.0 + side);
        let two = |class: &'static str, flag: &'static str, first: String, second: &'static str| html! {
            <text class={classes!("flag", class)} x={mx.to_string()} y={my.to_string()} text-anchor="middle" data-flag={flag}>
                <tspan x={mx.to_string()}>{ first }</tspan>
                <tspan x={mx.to_string()} dy="19">{ second }</tspan>
            </text>
        };
        if !cc.in_transit.is_empty() {
            Some(two("in-transit", "in-transit", format!("{} {}", l.t("⚠ in transit:", "⚠ 在途："), trunc(&names(&cc.in_transit), 5)),
                l.t("saved by no one", "无人保存")))
        } else if !cc.orphans.is_empty() {
            Some(two("orphan", "orphan", format!("{} {}", l.t("⚠ orphans:", "⚠ 孤儿消息："), trunc(&names(&cc.orphans), 5)),
                l.t("counted, will be sent again", "已计入，会再次发送")))
        } else if !cc.stored.is_empty() {
            Some(two("stored", "stored", format!("{} {}", l.t("◉ stored in-flight:", "◉ 已存在途数据："), trunc(&names(&cc.stored), 5)),
                l.t("replayed on restore", "恢复时重放")))
        } else {
            None
        }
    });
    html! {
        <g class={classes!("lane", ch.blocked.then_some("blocked"), enabled.is_ok().then_some("ready"))} data-channel={info.name.clone()}
           data-blocked={ch.blocked.to_string()} data-queued={n.to_string()}>
            <g role="button" tabindex={if enabled.is_ok() { "0" } else { "-1" }} aria-label={aria} aria-disabled={enabled.is_err().to_string()}
               onclick={enabled.is_ok().then_some(onclick)} onkeydown={enabled.is_ok().then_some(onkeydown)} class="lane-hit">
                <title>{ title }</title>
                <line x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} class="lane-bed" />
                <line x1={x1.to_string()} y1={y1.to_string()} x2={(x2 - ux * 4.0).to_string()} y2={(y2 - uy * 4.0).to_string()} class="lane-line" marker-end="url(#arrow)" />
                { for tokens }
                { more.unwrap_or_default() }
            </g>
            { if ch.blocked {
                html! { <text class="blocked-label" x={((x1 + x2) / 2.0).to_string()} y={((y1 + y2) / 2.0 - 30.0).to_string()} text-anchor="middle">
                    { l.t("⊘ blocked: aligning", "⊘ 阻塞：对齐中") }</text> }
              } else { html!{} } }
            { flag.unwrap_or_default() }
        </g>
    }
}

fn task_box(sim: &Sim, t: TaskId, lay: &Layout, l: Lang, h: &Handlers, saved: Option<&TaskSnapshot>) -> Html {
    let g = &sim.graph;
    let info = g.task(t);
    let rt = &sim.tasks()[t.index()];
    let (x, y) = lay.boxes[t.index()];
    let status = match rt.status {
        TaskStatus::Running => "running",
        TaskStatus::Crashed => "crashed",
        TaskStatus::Canceled => "canceled",
    };
    let mut lines: Vec<Html> = Vec::new();
    let line = |i: usize, text: String, class: &'static str| {
        html! { <text class={classes!("state", class)} x={(x + 14.0).to_string()} y={(y + 62.0 + i as f64 * 24.0).to_string()}>{ text }</text> }
    };
    match (&rt.status, &rt.state) {
        (TaskStatus::Crashed, _) => {
            lines.push(line(0, l.t("✖ crashed: state lost", "✖ 崩溃：状态丢失").into(), "lost"))
        }
        (_, OpState::Source { next_offset }) => {
            lines.push(line(0, format!("{} {} / {}", l.t("offset", "偏移量"), next_offset, info.log.len()), "main"));
        }
        (_, OpState::Keyed { entries }) => {
            if entries.is_empty() {
                lines.push(line(0, l.t("no counts yet", "尚无计数").into(), "muted"));
            }
            let word = if info.kind == OperatorKind::Count { "count" } else { "sum" };
            for (i, (k, e)) in entries.iter().enumerate().take(3) {
                let v = if info.kind == OperatorKind::Count { e.contributors.len() as i64 } else { e.sum };
                let labels: Vec<&str> = e.contributors.iter().map(|r| g.label(*r)).collect();
                lines.push(line(i, format!("{word}({})={v} {{{}}}", g.key_name(*k), trunc(&labels, 5)), "main"));
            }
            if entries.len() > 3 {
                lines.push(line(3, format!("+{} {}", entries.len() - 3, l.t("more keys", "个键")), "muted"));
            }
        }
        (_, OpState::Sink { open, pending }) => {
            let open_rows = open.map(|x| sim.external().txns[x.0 as usize].rows.len()).unwrap_or(0);
            lines.push(line(
                0,
                match open {
                    Some(x) => {
                        format!("{} T{}: {} {}", l.t("open txn", "打开的事务"), x.0, open_rows, l.t("row(s)", "行"))
                    }
                    None => l.t("no open transaction", "无打开的事务").into(),
                },
                "main",
            ));
            if !pending.is_empty() {
                let p: Vec<String> =
                    pending.iter().map(|(c, x)| format!("T{} ({} {})", x.0, l.t("chk", "检查点"), c.0)).collect();
                lines.push(line(1, format!("{} {}", l.t("pre-committed:", "已预提交："), p.join(" ")), "muted"));
            }
        }
        (_, OpState::Stateless) => {
            let text = match &info.kind {
                OperatorKind::Filter { .. } => format!(
                    "{} {}",
                    l.t("keeps key", "保留键"),
                    info.keep.iter().map(|k| g.key_name(*k)).collect::<Vec<_>>().join(", ")
                ),
                OperatorKind::Sink => {
                    let rows = sim.external().visible().iter().filter(|r| r.sink == t).count();
                    format!("{} {} {}", l.t("wrote", "已写出"), rows, l.t("row(s)", "行"))
                }
                _ => l.t("stateless: passes records on", "无状态：转发记录").into(),
            };
            lines.push(line(0, text, "muted"));
        }
    }
    // Alignment / recording badge.
    let badge = rt.alignment.as_ref().map(|a| {
        let text = if a.cancelled {
            format!("{} {} {}", l.t("◌ collecting chk", "◌ 收集检查点"), a.checkpoint.0, l.t("(aborted)", "（已中止）"))
        } else if a.unaligned.is_some() {
            format!("{} {}: {}", l.t("● recording in-flight for chk", "● 记录在途数据，检查点"), a.checkpoint.0, a.waiting())
        } else {
            format!("{} {}: {} {}", l.t("◐ aligning chk", "◐ 对齐检查点"), a.checkpoint.0, a.waiting(), l.t("input(s) to go", "个输入未到"))
        };
        html! { <text class="badge" x={(x + 14.0).to_string()} y={(y + BOX_H + 22.0).to_string()} data-aligning={a.checkpoint.0.to_string()}>{ text }</text> }
    });
    // Source: the log strip with read records dimmed.
    let strip = (info.kind == OperatorKind::Source).then(|| {
        let off = sim.source_offset(t) as usize;
        let max = 9usize;
        let start = off.saturating_sub(3).min(info.log.len().saturating_sub(max));
        html! {
            <g class="log-strip" aria-hidden="true">
            { for info.log.iter().enumerate().skip(start).take(max).map(|(i, r)| {
                let cx = x + 20.0 + (i - start) as f64 * 24.0;
                let cy = y + 92.0;
                let read = i < off;
                html! {
                    <g class={classes!("log-cell", read.then_some("read"), (i == off).then_some("next"))}>
                        <rect x={(cx - 10.0).to_string()} y={(cy - 11.0).to_string()} width="20" height="22" rx="4" fill={key_colour(g.record(*r).key)} />
                        <text x={cx.to_string()} y={(cy + 5.0).to_string()} text-anchor="middle">{ g.label(*r) }</text>
                    </g>
                }
            }) }
            </g>
        }
    });
    // The task's own buttons, left to right: (action, width, label, tooltip, id prefix).
    let mut specs: Vec<(Action, f64, &str, &str, &str)> = Vec::new();
    if info.kind == OperatorKind::Source {
        let tip = l.t("Read the next record into", "读取下一条记录：");
        specs.push((Action::Read { task: t }, 72.0, l.t("Read ▸", "读取 ▸"), tip, "read"));
    }
    if sim.strategy() == Strategy::Timers {
        let tip = l.t("Fire the snapshot timer of", "触发定时快照：");
        specs.push((Action::Timer { task: t }, 78.0, l.t("◷ Save", "◷ 保存"), tip, "timer"));
    }
    if info.kind == OperatorKind::Sink && sim.settings.sink == SinkMode::TwoPhaseCommit {
        let tip = l.t("Deliver the checkpoint-complete notification to", "投递检查点完成通知：");
        specs.push((Action::Notify { task: t }, 84.0, l.t("✉ Notify", "✉ 通知"), tip, "notify"));
    }
    specs.push((
        Action::CrashTask { task: t },
        72.0,
        l.t("✖ Crash", "✖ 崩溃"),
        l.t("Crash the task", "使任务崩溃："),
        "crash",
    ));
    let cy = y + BOX_H - 36.0;
    let mut cx = x + 10.0;
    let mut chips = Vec::new();
    for (a, w, label, tip, id) in specs {
        let title = format!("{tip} {}", info.name);
        chips.push(chip(&h.act, a, sim, cx, cy, w, label, title, format!("{id}-{}", info.name), l));
        cx += w + 6.0;
    }
    let snap_mark = saved.map(|s| {
        html! { <g class="snap-mark" data-snapshot-step={s.tick.to_string()}>
            <title>{ format!("{} {}", l.t("Saved at step", "保存于第几步："), s.tick + 1) }</title>
            <rect x={(x + BOX_W - 76.0).to_string()} y={(y - 22.0).to_string()} width="72" height="26" rx="13" />
            <text x={(x + BOX_W - 40.0).to_string()} y={(y - 4.0).to_string()} text-anchor="middle">{ format!("◉ {}", s.tick + 1) }</text>
        </g> }
    });
    html! {
        <g class={classes!("task", status)} data-task={info.name.clone()} data-status={status}>
            <rect class="task-box" x={x.to_string()} y={y.to_string()} width={BOX_W.to_string()} height={BOX_H.to_string()} rx="12" />
            <text class="task-name" x={(x + 14.0).to_string()} y={(y + 30.0).to_string()}>{ info.name.clone() }</text>
            <text class="task-kind" x={(x + BOX_W - 14.0).to_string()} y={(y + 30.0).to_string()} text-anchor="end">{ kind_name(l, &info.kind) }</text>
            { for lines }
            { strip.unwrap_or_default() }
            { for chips }
            { badge.unwrap_or_default() }
            { snap_mark.unwrap_or_default() }
        </g>
    }
}

pub fn kind_name(l: Lang, k: &OperatorKind) -> &'static str {
    match k {
        OperatorKind::Source => l.t("source", "数据源"),
        OperatorKind::Map => l.t("map", "映射"),
        OperatorKind::Filter { .. } => l.t("filter", "过滤"),
        OperatorKind::Count => l.t("keyed count", "按键计数"),
        OperatorKind::Sum => l.t("keyed sum", "按键求和"),
        OperatorKind::Sink => l.t("sink", "输出"),
    }
}

/// The cut: a dashed line through the save marker of every task that has one.
fn cut_line(_sim: &Sim, lay: &Layout, saved: &[Option<&TaskSnapshot>], l: Lang) -> Html {
    let mut pts: Vec<(f64, f64)> = saved
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|_| (lay.boxes[i].0 + BOX_W - 40.0, lay.boxes[i].1 - 9.0)))
        .collect();
    if pts.len() < 2 {
        return html! {};
    }
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let d: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    let (lx, ly) = pts[0];
    html! {
        <g class="cut" id="cut">
            <polyline points={d.join(" ")} />
            <text x={(lx - 36.0).to_string()} y={(ly - 22.0).to_string()}>{ l.t("the cut: the saves a restore would use", "切面：恢复将使用的保存") }</text>
        </g>
    }
}

fn external_box(sim: &Sim, x: f64, y: f64, l: Lang) -> Html {
    let g = &sim.graph;
    let visible = sim.external().visible();
    let labels: Vec<&str> = visible.iter().map(|r| g.label(r.record)).collect();
    let mode = sim.settings.sink;
    let open: usize = sim
        .external()
        .txns
        .iter()
        .filter(|t| matches!(t.status, TxnStatus::Open | TxnStatus::PreCommitted(_)))
        .map(|t| t.rows.len())
        .sum();
    let tail: Vec<&str> = labels.iter().rev().take(10).rev().copied().collect();
    // Arrows from each sink to the external system.
    let lay = layout(g);
    let arrows = g.tasks.iter().enumerate().filter(|(_, t)| t.kind == OperatorKind::Sink).map(|(i, _)| {
        let (sx, sy) = lay.boxes[i];
        html! { <line class="to-external" x1={(sx + BOX_W).to_string()} y1={(sy + BOX_H / 2.0).to_string()}
        x2={(x - 6.0).to_string()} y2={(y + BOX_H / 2.0).to_string()} marker-end="url(#arrow)" /> }
    });
    html! {
        <g class="external" id="external-box">
            { for arrows }
            <rect x={x.to_string()} y={y.to_string()} width={EXTERNAL_W.to_string()} height={BOX_H.to_string()} rx="12" />
            <text class="task-name" x={(x + 14.0).to_string()} y={(y + 30.0).to_string()}>{ l.t("External system", "外部系统") }</text>
            <text class="state muted" x={(x + 14.0).to_string()} y={(y + 56.0).to_string()}>{ super::text::sink_name(l, mode) }</text>
            <text class="state main" x={(x + 14.0).to_string()} y={(y + 84.0).to_string()}>
                { format!("{} {}", visible.len(), l.t("row(s) a reader sees", "行对读者可见")) }</text>
            <text class="state" x={(x + 14.0).to_string()} y={(y + 110.0).to_string()}>{ trunc(&tail, 10) }</text>
            { if mode == SinkMode::TwoPhaseCommit {
                html!{ <text class="state muted" x={(x + 14.0).to_string()} y={(y + 136.0).to_string()}>
                    { format!("{} {}", open, l.t("row(s) uncommitted, invisible", "行未提交，不可见")) }</text> }
              } else { html!{} } }
        </g>
    }
}

fn down_banner(sim: &Sim, lay: &Layout, l: Lang) -> Html {
    let why = match sim.down() {
        Some(CrashScope::Cluster) => l.t("The cluster crashed. Press Restore (R).", "集群崩溃。按“恢复”（R）。"),
        Some(CrashScope::Task(_)) => l.t(
            "A task crashed; the job must fail over. Press Restore (R).",
            "任务崩溃，作业需要故障转移。按“恢复”（R）。",
        ),
        Some(CrashScope::JobManager) => {
            l.t("The JobManager crashed. Press Restore (R).", "JobManager 崩溃。按“恢复”（R）。")
        }
        Some(CrashScope::Global) => l.t(
            "Too many checkpoints failed; the job fails over. Press Restore (R).",
            "检查点失败次数过多，作业进行故障转移。按“恢复”（R）。",
        ),
        None => "",
    };
    banner(lay, "down-banner", why.to_string())
}

/// A failed pipelined region is down while the rest of the job runs.
fn region_banner(sim: &Sim, lay: &Layout, l: Lang) -> Html {
    let tasks = sim.tasks();
    let failed = tasks
        .iter()
        .position(|t| t.status == TaskStatus::Crashed)
        .or_else(|| tasks.iter().position(|t| t.status != TaskStatus::Running))
        .map(|i| sim.graph.tasks[i].name.as_str())
        .unwrap_or("?");
    let why = match l {
        Lang::Zh => format!("{failed} 所在的区域正在重启——按“恢复”（R）"),
        _ => format!("Region of {failed} is restarting — press Restore (R)"),
    };
    banner(lay, "region-banner", why)
}

fn banner(lay: &Layout, id: &'static str, why: String) -> Html {
    let x = 688.0;
    let w = (lay.width - x - 16.0).max(300.0);
    html! {
        <g class="down-banner" id={id} role="status">
            <rect x={x.to_string()} y="12" width={w.to_string()} height="56" rx="10" />
            <text x={(x + w / 2.0).to_string()} y="47" text-anchor="middle">{ why }</text>
        </g>
    }
}
