//! A task drawn as a box: its name, status and state, a source's log strip (with how many records
//! it hides), its save mark, and its own buttons.

use super::layout::{box_height, ROW, ROW0};
use super::layout::{text_w, Layout};
use super::parts::*;
use crate::app::key_colours::key_colour;
use crate::app::mechanism_drawing::{MechanismDrawing, TaskButton};
use crate::app::svg_number::num;
use crate::app::svg_text::fit;
use crate::app::text::kind_name;
use crate::app::text::Lang;
use crate::engine::core::dataflow::task_time::WINDOW;
use crate::engine::OperatorKind;
use crate::engine::*;
use yew::prelude::*;

/// Which records of a source's log of `len` the strip of `cells` shows, around the record at
/// `focus` (two before it where there are): the first shown, how many, and whether a cell at the
/// left or the right says how many it hides there.
pub fn log_window(len: usize, cells: usize, focus: usize) -> (usize, usize, bool, bool) {
    if len <= cells {
        return (0, len, false, false);
    }
    let wanted = focus.saturating_sub(2);
    if wanted == 0 {
        (0, cells - 1, false, true)
    } else if wanted + cells - 1 >= len {
        (len - (cells - 1), cells - 1, true, false)
    } else {
        let take = cells.saturating_sub(2).max(1);
        (wanted.min(len - take - 1).max(1), take, true, true)
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn task_box(
    sim: &Sim,
    drawing: &MechanismDrawing,
    t: TaskId,
    lay: &Layout,
    l: Lang,
    h: &Handlers,
    saved: Option<(&TaskSnapshot, u64)>,
    resume: Option<u32>,
) -> Html {
    let g = &sim.graph;
    let info = g.task(t);
    let rt = &sim.tasks()[t.index()];
    let (x, y) = lay.boxes[t.index()];
    let (bw, bh) = (lay.box_w, lay.box_h);
    let status = match rt.status {
        TaskStatus::Running => "running",
        TaskStatus::Crashed => "crashed",
        TaskStatus::Canceled => "canceled",
    };
    let lines = state_lines(sim, t, lay, l);
    // Alignment / recording badge, under the box.
    let badge = alignment_badge(sim, t, lay, l);
    // Source: the log strip. Read records are dimmed; the next one is outlined while the task
    // runs. While it is down, the outline marks where a restore would resume, never where it
    // stopped (the restore may rewind, or skip ahead).
    let strip = log_strip(sim, t, lay, l, resume);
    // The task's own buttons, left to right: (action, label, symbol, tooltip, id prefix). The
    // compact geometry shows the symbols only; the tooltip and the label for screen readers
    // always say the whole.
    let chips = task_buttons(sim, drawing, t, lay, l, h);
    let snap_mark = saved.map(|(s, first)| save_mark(t, lay, l, s, first));
    let name_w = text_w(&info.name, 21.0);
    let kind = kind_name(l, &info.kind);
    let flow = flow_mark(sim, t, l);
    // Walked by a screen reader as a structure: the job, then each task by its name, kind and
    // state (then what it shows), then each channel with what is on it.
    let said = format!(
        "{} ({kind}): {}{}",
        info.name,
        match (rt.status, l) {
            (TaskStatus::Running, _) => l.t("running", "运行中"),
            (TaskStatus::Crashed, _) => l.t("crashed, its state lost", "已崩溃，状态丢失"),
            (TaskStatus::Canceled, _) => l.t("canceled", "已取消"),
        },
        saved
            .map(|(s, first)| match (s.tick + 1).saturating_sub(first) {
                0 => format!("; {}", l.t("saved before this job was submitted", "保存于这个作业提交之前")),
                n => format!("; {} {n}", l.t("saved at step", "保存于第")) + l.t("", " 步"),
            })
            .unwrap_or_default()
    ) + &flow.as_ref().map(|f| format!("; {}", f.said)).unwrap_or_default();
    // The corner: what the task does in a run that watches its flow (its symbol alone where the
    // word does not fit), else the task's kind where it fits.
    let fits = |text: &str| name_w + text_w(text, 16.0) + 40.0 <= bw;
    let corner = match &flow {
        Some(f) => {
            let text = if fits(&f.short) { f.short.clone() } else { f.short.chars().take(1).collect() };
            Some((text, classes!("task-kind", "flow", f.class), Some(f.class)))
        }
        None => Some((kind.to_string(), classes!("task-kind"), None)).filter(|(text, _, _)| fits(text)),
    };
    html! {
        <g class={classes!("task", status)} data-task={info.name.clone()} data-status={status} role="group" aria-label={said}>
            <rect class="task-box" x={num(x)} y={num(y)} width={num(bw)} height={num(bh)} rx="12" />
            <text class="task-name" x={num(x + 14.0)} y={num(y + 28.0)}>{ fit(&info.name, bw - 28.0, 21.0) }</text>
            { match corner {
                Some((text, class, flow)) => html!{ <text class={class} data-flow={flow} x={num(x + bw - 14.0)} y={num(y + 28.0)} text-anchor="end">{ text }</text> },
                None => html!{},
              } }
            { for lines }
            { strip.unwrap_or_default() }
            { for chips }
            { badge.unwrap_or_default() }
            { snap_mark.unwrap_or_default() }
        </g>
    }
}

/// What a task of a run that watches its flow is doing, as Flink's metrics class it: its short
/// word for the box's corner, its class, and what a screen reader hears.
struct FlowMark {
    short: String,
    class: &'static str,
    said: String,
}

fn flow_mark(sim: &Sim, t: TaskId, l: Lang) -> Option<FlowMark> {
    if !sim.watches_flow() {
        return None;
    }
    let class = sim.task_class(t)?;
    let shares = sim.time_shares(t);
    let pct = |n: u32| shares.ms_per_second(n) / 10;
    let window = format!(
        "{} {}%, {} {}%, {} {}%",
        l.t("busy", "繁忙"),
        pct(shares.busy),
        l.t("backpressured", "反压"),
        pct(shares.backpressured),
        l.t("idle", "空闲"),
        pct(shares.idle)
    );
    let now: String = match class {
        TaskClass::Busy => match sim.busy_until(t) {
            Some(until) => {
                format!("{} {until}", l.t("busy with a record until step", "正在处理一条记录，直到第")) + l.t("", " 步")
            }
            None => l.t("busy", "繁忙").into(),
        },
        TaskClass::Backpressured => {
            l.t("backpressured: an output channel is full", "受到反压：一个输出通道已满").into()
        }
        TaskClass::Idle => l.t("idle: nothing to take", "空闲：没有可处理的数据").into(),
    };
    // The mark, with the steps left on the record in hand while busy.
    let short = match sim.busy_until(t) {
        Some(until) => format!("{} {}", class.mark(l), until - sim.tick),
        None => class.mark(l).to_string(),
    };
    let class = class.id();
    Some(FlowMark {
        short,
        class,
        said: format!("{now} ({} {WINDOW} {} {window})", l.t("the last", "最近"), l.t("steps:", "步：")),
    })
}

/// The lines of state inside the box: a source's offset, a keyed operator's counts (as many as
/// fit, then how many keys more), a sink's open and pre-committed transactions, or what a
/// stateless task does.
fn state_lines(sim: &Sim, t: TaskId, lay: &Layout, l: Lang) -> Vec<Html> {
    let g = &sim.graph;
    let info = g.task(t);
    let rt = &sim.tasks()[t.index()];
    let (x, y) = lay.boxes[t.index()];
    let (bw, bh) = (lay.box_w, lay.box_h);
    let rows = (((bh - box_height(1)) / ROW).round() as usize) + 1;
    let text_max = bw - 28.0;
    let mut lines: Vec<Html> = Vec::new();
    let line = |i: usize, text: String, class: &'static str| {
        html! { <text class={classes!("state", class)} x={num(x + 14.0)} y={num(y + ROW0 + i as f64 * ROW)}>{ fit(&text, text_max, lay.state_px()) }</text> }
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
            let word = if info.kind == OperatorKind::Count { l.t("count", "计数") } else { l.t("sum", "求和") };
            let shown = if entries.len() > rows { rows - 1 } else { rows };
            for (i, (k, e)) in entries.iter().enumerate().take(shown) {
                let v = if info.kind == OperatorKind::Count { e.contributors.len() as i64 } else { e.sum };
                let labels: Vec<&str> = e.contributors.iter().map(|r| g.label(*r)).collect();
                let text =
                    fit_labels(&format!("{word}({})={v} {{", g.key_name(*k)), &labels, "}", text_max, lay.state_px());
                lines.push(html! { <text class="state main" x={num(x + 14.0)} y={num(y + ROW0 + i as f64 * ROW)}>{ text }</text> });
            }
            if entries.len() > shown {
                lines.push(line(shown, format!("+{} {}", entries.len() - shown, l.t("more keys", "个键")), "muted"));
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
            if !pending.is_empty() && rows > 1 {
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
                _ => l.t("no state to save", "无状态，无需保存").into(),
            };
            lines.push(line(0, text, "muted"));
        }
    }
    lines
}

/// The badge under the box while the task aligns, records in-flight data, or still collects the
/// barriers of an aborted checkpoint.
fn alignment_badge(sim: &Sim, t: TaskId, lay: &Layout, l: Lang) -> Option<Html> {
    let rt = &sim.tasks()[t.index()];
    let bw = lay.box_w;
    Alignment::of(rt).map(|a| {
        let id = a.checkpoint.0;
        let (short, long) = if a.cancelled {
            (
                format!("{} {id} {}", l.t("◌ chk", "◌ 检查点"), l.t("aborted", "已中止")),
                format!(
                    "{} {id} {}",
                    l.t("Checkpoint", "检查点"),
                    l.t("was aborted: the task still collects its barriers", "已中止：任务仍在收集它的屏障")
                ),
            )
        } else if a.unaligned.is_some() {
            (
                format!("{} {id}", l.t("● recording chk", "● 记录检查点")),
                format!(
                    "{} {id}: {}",
                    l.t("Recording in-flight data for checkpoint", "为检查点记录在途数据："),
                    a.waiting()
                ),
            )
        } else {
            (
                format!("{} {id}: {} {}", l.t("◐ aligning", "◐ 对齐"), a.waiting(), l.t("to go", "个未到")),
                format!(
                    "{} {id}: {} {}",
                    l.t("Aligning checkpoint", "对齐检查点"),
                    a.waiting(),
                    l.t("input(s) still to deliver its barrier", "个输入的屏障未到")
                ),
            )
        };
        let r = lay.badge(t.index());
        html! { <text class="badge" x={num(r.x + 14.0)} y={num(r.y + 21.0)} data-aligning={id.to_string()}>
        <title>{ long }</title>{ fit(&short, bw - 24.0, 16.0) }</text> }
    })
}

/// A source's log strip. Read records are dimmed; the next one is outlined while the task runs.
/// While it is down, the outline marks where a restore would resume (`resume`), never where it
/// stopped (the restore may rewind, or skip ahead).
fn log_strip(sim: &Sim, t: TaskId, lay: &Layout, l: Lang, resume: Option<u32>) -> Option<Html> {
    let g = &sim.graph;
    let info = g.task(t);
    let rt = &sim.tasks()[t.index()];
    let (x, y) = lay.boxes[t.index()];
    (info.kind == OperatorKind::Source).then(|| {
        let running = rt.status == TaskStatus::Running;
        let off = sim.source_offset(t) as usize;
        let mark = if running { Some(off) } else { resume.map(|r| r as usize) };
        let focus = mark.unwrap_or(off);
        let (start, take, left, right) = log_window(info.log.len(), lay.cells, focus);
        let cy = y + ROW0 + ROW;
        let cw = lay.cell_w;
        let first = usize::from(left);
        // A log longer than the strip says how many records it hides on each side.
        let hidden = |at: usize, n: usize, before: bool| {
            let cx = x + 14.0 + cw / 2.0 + at as f64 * (cw + 4.0);
            let tip = match (l, before) {
                (Lang::Zh, true) => format!("前面还有 {n} 条记录未显示"),
                (Lang::Zh, false) => format!("后面还有 {n} 条记录未显示"),
                (_, true) => format!("{n} earlier records not shown"),
                (_, false) => format!("{n} more records not shown"),
            };
            html! {
                <g class="log-more" data-hidden={n.to_string()} data-side={if before { "before" } else { "after" }}>
                    <title>{ tip.clone() }</title>
                    <rect x={num(cx - cw / 2.0)} y={num(cy - 18.0)} width={num(cw)} height="24" rx="4" />
                    <text x={num(cx)} y={num(cy)} text-anchor="middle" aria-label={tip}>{ if n > 99 { "+".to_string() } else { format!("+{n}") } }</text>
                </g>
            }
        };
        html! {
            <g class="log-strip">
            if left { { hidden(0, start, true) } }
            if right { { hidden(first + take, info.log.len() - start - take, false) } }
            { for info.log.iter().enumerate().skip(start).take(take).map(|(i, r)| {
                let cx = x + 14.0 + cw / 2.0 + (first + i - start) as f64 * (cw + 4.0);
                let read = running && i < off;
                let class = if mark == Some(i) { Some(if running { "next" } else { "resume" }) } else { None };
                html! {
                    <g class={classes!("log-cell", read.then_some("read"), class)}>
                        { match class {
                            Some("next") => html!{ <title>{ format!("{} {}", l.t("next record to read:", "下一条要读取的记录："), g.label(*r)) }</title> },
                            Some(_) => html!{ <title>{ format!("{} {}", l.t("a restore resumes reading here:", "恢复后从这里继续读取："), g.label(*r)) }</title> },
                            None => html!{},
                        } }
                        <rect x={num(cx - cw / 2.0)} y={num(cy - 18.0)} width={num(cw)} height="24" rx="4" fill={key_colour(g.record(*r).key)} />
                        <text x={num(cx)} y={num(cy)} text-anchor="middle">{ g.label(*r) }</text>
                    </g>
                }
            }) }
            </g>
        }
    })
}

/// The task's own buttons, left to right: (action, label, symbol, tooltip, id prefix). The
/// compact geometry shows the symbols only; the tooltip and the label for screen readers always
/// say the whole.
fn task_buttons(sim: &Sim, drawing: &MechanismDrawing, t: TaskId, lay: &Layout, l: Lang, h: &Handlers) -> Vec<Html> {
    let g = &sim.graph;
    let info = g.task(t);
    let (x, y) = lay.boxes[t.index()];
    let (bw, bh) = (lay.box_w, lay.box_h);
    let mut specs: Vec<TaskButton> = Vec::new();
    if info.kind == OperatorKind::Source {
        specs.push((
            Action::Read { task: t },
            l.t("Read ▸", "读取 ▸"),
            "▸",
            l.t("Read the next record into", "读取下一条记录："),
            "read",
        ));
    }
    specs.extend(drawing.task_button.map(|button| button(t, l)));
    if info.kind == OperatorKind::Sink && sim.settings.sink == SinkMode::TwoPhaseCommit {
        let tip = l.t("Deliver the checkpoint-complete notification to", "投递检查点完成通知：");
        specs.push((Action::Notify { task: t }, l.t("✉ Notify", "✉ 通知"), "✉", tip, "notify"));
    }
    specs.push((
        Action::CrashTask { task: t },
        l.t("✖ Crash", "✖ 崩溃"),
        "✖",
        drawing.crash_tip.map_or_else(|| l.t("Crash the task", "使任务崩溃："), |tip| tip(l)),
        "crash",
    ));
    let compact = lay.compact;
    let shown = move |s: &TaskButton| -> &'static str {
        if compact {
            s.2
        } else {
            s.1
        }
    };
    let widths: Vec<f64> =
        specs.iter().map(|s| if lay.compact { 34.0 } else { text_w(shown(s), 16.0) + 14.0 }).collect();
    let room = bw - 20.0 - 5.0 * (specs.len() - 1) as f64;
    let squeeze = (room / widths.iter().sum::<f64>()).min(1.0);
    let cy = y + bh - 36.0;
    let mut cx = x + 10.0;
    let mut chips = Vec::new();
    for (spec, w) in specs.iter().zip(widths) {
        let w = (w * squeeze).floor();
        let (a, _, _, tip, id) = *spec;
        let title = format!("{tip} {}", info.name);
        chips.push(chip(&h.act, a, sim, cx, cy, w, shown(spec), title, format!("{id}-{}", info.name), l));
        cx += w + 5.0;
    }
    chips
}

/// The save mark (◉ n) beside the box: the step of the save a restore would use now, counted from
/// the timeline's first step (a save from before this job was submitted is step 0).
fn save_mark(t: TaskId, lay: &Layout, l: Lang, s: &TaskSnapshot, first: u64) -> Html {
    let r = lay.snap(t.index());
    // A save from before this job was submitted (the state it started from) is step 0.
    let n = (s.tick + 1).saturating_sub(first);
    let title = match n {
        0 => l
            .t(
                "Saved before this job was submitted: it started from this state",
                "保存于这个作业提交之前：它从这个状态开始",
            )
            .to_string(),
        n => format!("{} {n}", l.t("Saved at step", "保存于第几步：")),
    };
    html! { <g class="snap-mark" data-snapshot-step={s.tick.to_string()}>
        <title>{ title }</title>
        <rect x={num(r.x)} y={num(r.y)} width={num(r.w)} height={num(r.h)} rx="13" />
        <text x={num(r.cx())} y={num(r.y + 19.0)} text-anchor="middle">{ format!("◉ {n}") }</text>
    </g> }
}
