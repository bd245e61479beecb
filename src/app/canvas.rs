//! The canvas: the job drawn in SVG. Tasks are boxes showing their state; channels are lanes with
//! their queued records (tokens labelled a, b, c, coloured by key) and barriers (numbered
//! markers); the JobManager's CheckpointCoordinator sits beside them; the cut of the latest saves
//! joins the save markers (◉ n) with in-transit and orphan records flagged. A legend beside the
//! drawing says what each mark means.
//!
//! Where everything goes is [`layout::layout`], computed once per job and mode: every text has a
//! reserved place and every lane a corridor for its tokens, so nothing drawn overlaps. Presenter
//! mode uses a compact geometry in which the smallest text is 16 pixels on a 1366-pixel projector.
//! Tokens are keyed in a list of their own, so a step moves them (they glide) rather than
//! recreating them.

mod layout;

use crate::app::svg_number::{num, points};
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::classroom::Mark;

pub use crate::app::key_colours::{key_colour, KEY_COLOURS};
use crate::app::pressable::press;
use crate::app::svg_text::fit;
use super::text::kind_name;
use layout::{box_height, BANNER_H, ITEM_GAP, ROW, ROW0, TOKEN_H};
pub use layout::{shape, text_w, Layout, Rect, Screen, Shape};

use super::drawing_catalogue::drawing_for;
use super::mechanism_drawing::{MechanismDrawing, TaskButton};
use super::text::Lang;
use super::ui_state::{Dispatch, Msg, Run, Shared};
use crate::classroom::Command;
use crate::engine::CutReport;
use crate::engine::OperatorKind;
use crate::engine::*;

/// More records in flight than this and tokens move at once instead of gliding.
const BUSY: usize = 40;

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

/// Handlers the canvas calls; each takes an action and returns a callback.
#[derive(Clone, PartialEq)]
pub struct Handlers {
    pub act: Callback<Action>,
}

/// `head`, then as many of `labels` as fit in `max` units at `px` ("…" for the rest), then `tail`.
fn fit_labels(head: &str, labels: &[&str], tail: &str, max: f64, px: f64) -> String {
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
            // The finger's reach, past the drawn button: 44 units tall.
            <rect class="hit" x={num(x - 2.0)} y={num(y - 8.0)} width={num(w + 4.0)} height="44" />
            <rect x={num(x)} y={num(y)} width={num(w)} height="28" rx="6" />
            <text x={num(x + w / 2.0)} y={num(y + 20.0)} text-anchor="middle">{label}</text>
        </g>
    }
}

#[derive(Properties, PartialEq)]
pub struct CanvasProps {
    pub run: Run,
    pub lang: Lang,
    pub dispatch: Dispatch,
    /// Presenter mode: the compact geometry, and the legend folded away.
    #[prop_or_default]
    pub presenter: bool,
    /// The screen it is drawn for: a phone's gets the compact geometry, upright the job turned.
    #[prop_or_default]
    pub screen: layout::Screen,
}

/// The job drawn in SVG, and its legend.
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
    let two_phase = sim.settings.sink == SinkMode::TwoPhaseCommit;
    let lay = use_memo((Shared(g.clone()), props.presenter, props.screen, two_phase), |(g, presenter, screen, two_phase)| {
        layout::layout(g, *presenter, *screen, *two_phase)
    });
    let lay = &*lay;
    let saved: Vec<Option<&TaskSnapshot>> = sim.restore_point();
    // The timeline's steps count from its first: a job submitted again from a savepoint counts
    // from its submission, and so do its save marks.
    let first_tick = session.timeline.initial().tick;
    let cut = saved.iter().any(|s| s.is_some()).then(|| sim.cut_check(&saved));
    let running = sim.running();
    // Where each stopped source would read next after a restore now (never where it stopped).
    let resume: Vec<Option<u32>> = {
        let stopped = g.sources().any(|s| sim.tasks()[s.index()].status != TaskStatus::Running);
        let mut after = None;
        if stopped && sim.check(Action::Restore).is_ok() {
            let mut s = sim.clone();
            if s.step(Action::Restore).is_ok() {
                after = Some(s);
            }
        }
        (0..g.tasks.len())
            .map(|t| {
                let t = TaskId(t as u16);
                (g.task(t).kind == OperatorKind::Source && sim.tasks()[t.index()].status != TaskStatus::Running)
                    .then(|| after.as_ref().map(|s| s.source_offset(t)))
                    .flatten()
            })
            .collect()
    };
    let aria = lang.t(
        "The dataflow job: tasks as boxes, channels as lanes carrying records and barriers",
        "数据流作业：任务为方框，通道为承载记录和屏障的管道",
    );
    let shape = if lay.shape == Shape::Wide { "wide" } else { "tall" };
    // With many records in flight tokens move at once: a glide repaints the drawing every frame.
    let busy = sim.channels().iter().map(|c| c.queue.len()).sum::<usize>() > BUSY;
    // The mechanism's band under the job; its drawing and words load with the strategy, band
    // shown or not.
    let drawing = drawing_for(sim.strategy());
    let shows = drawing.band.as_ref().filter(|d| (d.shows)(sim, lay.compact));
    let redraw = {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.dispatch(Msg::PartLoaded))
    };
    let (bands, retry_bands) = super::bands_part::use_bands(drawing.band.is_some(), redraw);
    let waiting = |top: f64| match bands {
        Ok(_) => html! {},
        Err(fetching) => html! {
            <g class="band-wait" role="status">
                <text x="28" y={num(top + 40.0)} class="band-wait-text">{ if fetching {
                    lang.t("Loading the drawing…", "正在加载图示…")
                } else {
                    lang.t("This drawing could not be loaded: the network is off. Your run is kept.", "图示没能加载：网络已断开。你的运行仍然保留。")
                } }</text>
                if !fetching {
                    <text id="retry-bands" x="28" y={num(top + 72.0)} class="band-retry" role="button" tabindex="0"
                        onclick={retry_bands.reform(|_| ())}
                        onkeydown={{ let r = retry_bands.clone(); Callback::from(move |e: KeyboardEvent| if e.key() == "Enter" { r.emit(()) }) }}>
                        { lang.t("↻ Retry", "↻ 重试") }</text>
                }
            </g>
        },
    };
    let width = match shows {
        Some(d) if !lay.compact => lay.width.max(f64::from(d.min_width)),
        _ => lay.width,
    };
    // The band takes the height it says (while its drawing loads, the height kept for the wait).
    let band = shows.map(|d| match bands {
        Ok(b) => (d.pick)(b)(sim, lay.height, width, &h.act, lang, lay.compact),
        Err(_) => (waiting(lay.height), (d.wait_height)(lay.compact)),
    });
    let height = lay.height + band.as_ref().map_or(0.0, |(_, h)| *h);
    html! { <>
        <svg id="canvas" class={classes!("canvas", lay.compact.then_some("compact"), busy.then_some("busy"))} viewBox={format!("0 0 {} {}", num(width), num(height))} role="group" aria-label={aria}
             preserveAspectRatio={if props.presenter { "xMidYMid meet" } else { "xMidYMin meet" }} data-shape={shape}
             data-upright={(props.screen == layout::Screen::Portrait && !props.presenter).to_string()}>
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" fill="#64748b" />
                </marker>
            </defs>
            { for g.channels.iter().enumerate().map(|(i, _)| lane(sim, ChannelId(i as u16), lay, lang, h)) }
            { cut_line(lay, &saved, lang) }
            { for g.tasks.iter().enumerate().map(|(i, _)| task_box(sim, drawing, TaskId(i as u16), lay, lang, h, saved[i].map(|s| (s, first_tick)), resume[i])) }
            { for g.channels.iter().enumerate().map(|(i, _)| lane_labels(sim, ChannelId(i as u16), lay, lang, cut.as_ref())) }
            { jobmanager(sim, drawing, lay, lang) }
            { lay.external.map(|(r, s)| external_box(sim, lay, r, s, lang)).unwrap_or_default() }
            { band.map(|(band, _)| band).unwrap_or_default() }
            { if !running { down_banner(sim, drawing, lay, lang) } else if sim.region_down() { region_banner(sim, lay, lang) } else { html!{} } }
        </svg>
        <Legend lang={lang} presenter={props.presenter} marks={crate::classroom::marks(&sim.settings)} />
    </> }
}

fn jobmanager(sim: &Sim, drawing: &MechanismDrawing, lay: &Layout, l: Lang) -> Html {
    let up = sim.jobmanager_up();
    let max = lay.jm.w - 28.0;
    let (title, line2, line3) = match drawing.jobmanager {
        Some(words) => words(sim, l),
        None => coordinator_lines(sim, l),
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
    let takes_ha = sim.strategy().takes(Setting::HighAvailability);
    let ha = takes_ha.then(|| high_availability(sim, l));
    let stw = sim.stop_the_world().map(|(id, _)| {
        format!("{} {}", l.t("❚❚ sources paused for stop-the-world checkpoint", "❚❚ 源已暂停，等待全局快照"), id.0)
    });
    let r = lay.jm;
    let full = format!("{line2}\n{}", stw.clone().unwrap_or_else(|| line3.clone()));
    html! {
        <g id="jobmanager" class={classes!("jobmanager", (!up).then_some("down"))} data-up={up.to_string()}
            data-leader={takes_ha.then(|| sim.masters().leader.letter())}
            data-ha={takes_ha.then(|| sim.settings.high_availability.id())}
            data-submission={sim.masters().submission.to_string()}>
            <title>{ full }</title>
            <rect x={num(r.x)} y={num(r.y)} width={num(r.w)} height={num(r.h)} rx="10" />
            <text class="jm-title" x={num(r.x + 14.0)} y={num(r.y + 25.0)} id="jm-title">
                { fit(&title.map(str::to_string).unwrap_or_else(|| match (&ha, up) {
                    (Some((title, _)), _) => title.clone(),
                    (None, true) => l.t("JobManager · CheckpointCoordinator", "JobManager · 检查点协调器").to_string(),
                    (None, false) => l.t("✖ JobManager down", "✖ JobManager 故障").to_string(),
                }), max, 19.0) }
            </text>
            // With nothing pending (always so while the JobManager is down), the line tells what
            // high availability holds instead.
            { match ha.as_ref().map(|(_, line)| line).filter(|_| sim.pending().is_empty()) {
                Some(line) => html! { <text class="jm-line jm-ha" x={num(r.x + 14.0)} y={num(r.y + 48.0)} id="jm-ha">{ fit(line, max, 17.0) }</text> },
                None => html! { <text class="jm-line" x={num(r.x + 14.0)} y={num(r.y + 48.0)} id="jm-pending">{ fit(&line2, max, 17.0) }</text> },
            } }
            <text class="jm-line" x={num(r.x + 14.0)} y={num(r.y + 70.0)} id="jm-completed">{ fit(&stw.unwrap_or(line3), max, 17.0) }</text>
        </g>
    }
}

/// The JobManager box's second and third lines by default: the CheckpointCoordinator's
/// checkpoints in progress and those completed; with no coordinator, that nothing is saved.
fn coordinator_lines(sim: &Sim, l: Lang) -> (Option<&'static str>, String, String) {
    if !sim.strategy().uses_coordinator() {
        return (
            None,
            l.t("nothing is saved", "不保存任何状态").to_string(),
            l.t("restore: every task starts empty", "恢复：每个任务从空开始").to_string(),
        );
    }
    let pending: Vec<String> = sim
        .pending()
        .iter()
        .map(|p| format!("{} {} ({}/{})", l.t("chk", "检查点"), p.id.0, p.acked, p.snapshots.len()))
        .collect();
    let line2 = if pending.is_empty() {
        l.t("pending: none", "进行中：无").to_string()
    } else {
        format!("{} {}", l.t("pending:", "进行中："), pending.join(", "))
    };
    let done: Vec<String> = sim.storage().completed.iter().map(|c| format!("{} ✓", c.id.0)).collect();
    let line3 = format!(
        "{} {}",
        l.t("completed (retained):", "已完成（保留）："),
        if done.is_empty() { l.t("none", "无").to_string() } else { done.join(", ") }
    );
    (None, line2, line3)
}

/// The JobManager box's title and HA line under a checkpointing strategy: the leader and the
/// standby and the switch between them (with a standby), or the one JobManager, the failed job and
/// its resubmission (without HA).
fn high_availability(sim: &Sim, l: Lang) -> (String, String) {
    let m = sim.masters();
    let (leader, standby) = (m.leader.letter(), m.leader.other().letter());
    let latest = sim.storage().completed.last().map(|c| c.id.0);
    let chk = |id: Option<u64>| match id {
        Some(id) => format!("{} {id}", l.t("chk", "检查点")),
        None => l.t("no checkpoint", "无检查点").to_string(),
    };
    let zh = l == Lang::Zh;
    let down = sim.down() == Some(CrashScope::JobManager);
    match sim.settings.high_availability {
        HighAvailability::Standby if down => (
            if zh { format!("{leader} ✖ · {standby}（备用）将赢得选举") } else { format!("{leader} ✖ · {standby} (standby) wins the election") },
            if zh { format!("HA 存储：作业图，指针 → {}", chk(latest)) } else { format!("HA store: job graph, pointer → {}", chk(latest)) },
        ),
        HighAvailability::Standby => (
            if zh { format!("JobManager {leader}（主）· {standby}（备用）") } else { format!("JobManager {leader} (leader) · {standby} (standby)") },
            match m.elected_at {
                Some(t) if zh => format!("{leader} 于第 {} 步当选 · HA 指针 → {}", t + 1, chk(sim.stats.latest_restored.map(|c| c.0))),
                Some(t) => format!("{leader} elected at step {} · HA pointer → {}", t + 1, chk(sim.stats.latest_restored.map(|c| c.0))),
                None if zh => format!("HA 存储：作业图，指针 → {}", chk(latest)),
                None => format!("HA store: job graph, pointer → {}", chk(latest)),
            },
        ),
        HighAvailability::None if down && m.awaiting_resubmission => (
            l.t("New JobManager (no HA) · no job", "新的 JobManager（无高可用）· 无作业").to_string(),
            match latest {
                Some(id) if zh => format!("R 重新提交：从保留的检查点 {id} 恢复，编号从 {} 继续", id + 1),
                Some(id) => format!("R: from retained chk {id}, ids continue at {}", id + 1),
                None => l.t("resubmit (R): from nothing, ids from 1", "重新提交（R）：从零开始，编号从 1 开始").to_string(),
            },
        ),
        HighAvailability::None if down => (
            l.t("✖ JobManager down: the job failed", "✖ JobManager 故障：作业失败").to_string(),
            match latest {
                Some(id) if zh => format!("检查点 {id} 已外部化保留；R 启动新的 JobManager"),
                Some(id) => format!("chk {id} retained; R starts a new JobManager"),
                None => l.t("no checkpoint retained; R starts a JobManager", "没有保留的检查点；R 启动 JobManager").to_string(),
            },
        ),
        HighAvailability::None => (
            if m.submission > 1 && zh {
                format!("JobManager（无高可用）· 第 {} 次提交", m.submission)
            } else if m.submission > 1 {
                format!("JobManager (no HA) · submission {}", m.submission)
            } else {
                l.t("JobManager (no HA, no standby)", "JobManager（无高可用，无备用）").to_string()
            },
            l.t("checkpoints only in its memory: its failure fails the job", "检查点只在它的内存里：它一故障，作业就失败").to_string(),
        ),
    }
}

/// The width of an item on a lane.
fn item_w(lay: &Layout, item: &Item) -> f64 {
    match item {
        Item::Record { .. } => lay.token_w,
        Item::Barrier(b) if b.unaligned => text_w(&format!("{}⇥u", b.checkpoint.0), 16.0) + 12.0,
        Item::Barrier(_) => 26.0,
        Item::Cancel(id) => text_w(&format!("✕{}", id.0), 16.0) + 12.0,
    }
}

fn lane(sim: &Sim, c: ChannelId, lay: &Layout, l: Lang, h: &Handlers) -> Html {
    let g = &sim.graph;
    let info = g.channel(c);
    let ch = &sim.channels()[c.index()];
    let geo = &lay.lanes[c.index()];
    // The visible line stops a little short of the consumer, where the arrow's tip is.
    let mut tip = geo.path.clone();
    if let Some(last) = tip.last_mut() {
        *last = (last.0 + geo.back.0 * 4.0, last.1 + geo.back.1 * 4.0);
    }
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
    let falling = geo.back.1.abs() > geo.back.0.abs();
    // The channel as a screen reader names it: what is on it, head first (the first twelve).
    let on_it = {
        let items: Vec<String> = ch.queue.iter().take(12).map(|item| match item {
            Item::Record { rec, .. } => g.label(rec.id).to_string(),
            Item::Barrier(b) => format!("{} {}", l.t("barrier", "屏障"), b.checkpoint.0),
            Item::Cancel(id) => format!("{} {}", l.t("cancel marker", "取消标记"), id.0),
        }).collect();
        let more = if n > 12 { format!(" …(+{})", n - 12) } else { String::new() };
        match (n, l) {
            (0, Lang::Zh) => format!("通道 {}：空", info.name),
            (0, _) => format!("channel {}: empty", info.name),
            (_, Lang::Zh) => format!("通道 {}：{n} 项在途，队首起：{}{more}{}", info.name, items.join("、"), if ch.blocked { "（阻塞）" } else { "" }),
            (_, _) => format!("channel {}: {n} on the way, head first: {}{more}{}", info.name, items.join(", "), if ch.blocked { " (blocked)" } else { "" }),
        }
    };
    // Items from the head at the consumer's end back along the corridor; "+n" for the rest.
    let (c0, c1) = geo.corridor;
    let mut placed: Vec<(f64, f64)> = Vec::new();
    let mut d = c0;
    for item in ch.queue.iter() {
        let w = item_w(lay, item);
        if d + w > c1 {
            break;
        }
        placed.push((d + w / 2.0, w));
        d += w + ITEM_GAP;
    }
    let more = (placed.len() < n).then(|| {
        let label = |shown: usize| format!("+{}", n - shown);
        loop {
            let end = placed.last().map(|(m, w)| m + w / 2.0 + ITEM_GAP).unwrap_or(c0);
            let w = text_w(&label(placed.len()), 16.0);
            if end + w <= c1 || placed.is_empty() {
                break (label(placed.len()), end + w / 2.0);
            }
            placed.pop();
        }
    });
    let tokens = ch.queue.iter().zip(&placed).map(|(item, (d, _))| {
        let (x, y) = geo.at(*d);
        let style = format!("transform: translate({}px, {}px)", num(x), num(y));
        match item {
            Item::Record { seq, rec } => {
                let label = g.label(rec.id);
                let key = g.record(rec.id).key;
                let buffered = ch.blocked;
                let w = lay.token_w;
                html! {
                    <g key={format!("r{}-{}", c.0, seq)} class={classes!("token", buffered.then_some("buffered"), rec.replayed.then_some("replayed"))}
                       style={style} data-record={label.to_string()} data-seq={seq.to_string()}>
                        <title>{ format!("{label} ({} {}) {}", l.t("key", "键"), g.key_name(key),
                            if buffered { l.t("— buffered behind the barrier", "——在屏障后缓存") } else if rec.replayed { l.t("— replayed", "——重放") } else { "" }) }</title>
                        <rect class="tok" x={num(-w / 2.0)} y={num(-TOKEN_H / 2.0)} width={num(w)} height={num(TOKEN_H)}
                            rx={num(TOKEN_H / 2.0)} fill={key_colour(key)} />
                        <text y="6" text-anchor="middle">{ label }</text>
                    </g>
                }
            }
            Item::Barrier(b) => {
                let id = b.checkpoint.0;
                html! {
                    <g key={format!("b{}-{}", c.0, id)} class={classes!("barrier", b.unaligned.then_some("unaligned"))} style={style} data-checkpoint={id.to_string()}>
                        <title>{ if b.unaligned {
                            format!("{} {} {}", l.t("unaligned checkpoint barrier", "非对齐检查点屏障"), id, l.t("(overtakes records)", "（越过记录）"))
                        } else {
                            format!("{} {}", l.t("checkpoint barrier", "检查点屏障"), id)
                        } }</title>
                        // Across its lane: upright on a level lane, level on a falling one.
                        if falling { <rect class="bar" x="-22" y="-4" width="44" height="8" rx="2" /> }
                        else { <rect class="bar" x="-4" y="-22" width="8" height="44" rx="2" /> }
                        { if b.unaligned {
                            let w = item_w(lay, item);
                            html! { <>
                                <rect class="mark" x={num(-w / 2.0)} y="-13" width={num(w)} height="26" rx="13" />
                                <text y="6" text-anchor="middle">{ id }<tspan class="barrier-mark">{ "⇥u" }</tspan></text>
                            </> }
                        } else {
                            html! { <>
                                <circle class="mark" r="13" />
                                <text y="6" text-anchor="middle">{ id }</text>
                            </> }
                        } }
                    </g>
                }
            }
            Item::Cancel(id) => {
                let w = item_w(lay, item);
                html! {
                    <g key={format!("x{}-{}", c.0, id.0)} class="barrier cancel-marker" style={style} data-cancel={id.0.to_string()}>
                        <title>{ format!("{} {}", l.t("cancel marker for checkpoint", "检查点取消标记"), id.0) }</title>
                        <path class="cross" d="M -8 -20 L 8 20 M 8 -20 L -8 20" />
                        <rect class="mark" x={num(-w / 2.0)} y="-13" width={num(w)} height="26" rx="13" />
                        <text y="6" text-anchor="middle">{ format!("✕{}", id.0) }</text>
                    </g>
                }
            }
        }
    });
    // "+n" on a white pill, so the lane's line does not run through it.
    let more = more.map(|(label, d)| {
        let (x, y) = geo.at(d);
        let w = text_w(&label, 16.0);
        html! { <g class="more" data-more={(n - placed.len()).to_string()}>
            <rect x={num(x - w / 2.0)} y={num(y - 12.0)} width={num(w)} height="24" rx="8" />
            <text x={num(x)} y={num(y + 6.0)} text-anchor="middle">{ label }</text>
        </g> }
    });
    html! {
        <g class={classes!("lane", ch.blocked.then_some("blocked"), enabled.is_ok().then_some("ready"))} data-channel={info.name.clone()}
           data-blocked={ch.blocked.to_string()} data-queued={n.to_string()} role="group" aria-label={on_it}>
            <g role="button" tabindex={if enabled.is_ok() { "0" } else { "-1" }} aria-label={aria} aria-disabled={enabled.is_err().to_string()}
               onclick={enabled.is_ok().then_some(onclick)} onkeydown={enabled.is_ok().then_some(onkeydown)} class="lane-hit">
                <title>{ title }</title>
                <polyline points={points(&geo.path)} class="lane-bed" />
                <polyline points={points(&tip)} class="lane-line" marker-end="url(#arrow)" />
                // The tokens alone in a keyed list: a step moves them instead of recreating them.
                <g class="items">{ for tokens }</g>
                { more.unwrap_or_default() }
            </g>
        </g>
    }
}

/// What is written beside a lane, in the place the layout reserved for it: the cut's flag and
/// "⊘ blocked" while the lane is blocked during alignment. A place away from its lane starts with
/// the channel's name, and has a dotted leader to the lane when one fits.
fn lane_labels(sim: &Sim, c: ChannelId, lay: &Layout, l: Lang, cut: Option<&CutReport>) -> Html {
    let g = &sim.graph;
    let ch = &sim.channels()[c.index()];
    let geo = &lay.lanes[c.index()];
    let name = &g.channel(c).name;
    let r = geo.flag;
    let max = r.w - 8.0;
    let names = |v: &Vec<RecordId>| v.iter().map(|r| g.label(*r)).collect::<Vec<&str>>();
    // The cut's flag: (class, head, records, explanation).
    let flag = cut.and_then(|cut| cut.channels.iter().find(|cc| cc.channel == c)).and_then(|cc| {
        if !cc.in_transit.is_empty() {
            Some((
                "in-transit",
                l.t("⚠ in transit: ", "⚠ 在途："),
                names(&cc.in_transit),
                l.t("saved by no one", "无人保存"),
            ))
        } else if !cc.orphans.is_empty() {
            Some((
                "orphan",
                l.t("⚠ orphans: ", "⚠ 孤儿消息："),
                names(&cc.orphans),
                l.t("counted, will be sent again", "已计入，会再次发送"),
            ))
        } else if !cc.stored.is_empty() {
            Some((
                "stored",
                l.t("◉ stored in-flight: ", "◉ 已存在途数据："),
                names(&cc.stored),
                l.t("replayed on restore", "恢复时重放"),
            ))
        } else {
            None
        }
    });
    if flag.is_none() && !ch.blocked {
        return html! {};
    }
    let blocked_word = l.t("⊘ blocked", "⊘ 阻塞");
    let mut lines: Vec<(String, &'static str)> = Vec::new();
    if !geo.flag_near {
        lines.push((fit(name, max, 16.0), "lane-name"));
    }
    if ch.blocked {
        lines.push((blocked_word.to_string(), "blocked-label"));
    }
    let mut title = Vec::new();
    if ch.blocked {
        title.push(l.t("blocked: the task waits for this checkpoint's barrier on its other inputs; the records behind the barrier here are buffered",
            "阻塞：任务在其他输入上等待本检查点的屏障；此处屏障后的记录被缓存").to_string());
    }
    if let Some((_, head, labels, second)) = &flag {
        title.push(format!("{}{} — {second}", head, labels.join(" ")));
        let full = fit_labels(head, labels, "", max, 16.0);
        match 2 - lines.len().min(2) {
            2 if r.w >= layout::FLAG_W => lines.extend([(full, "flag-line"), (fit(second, max, 16.0), "flag-line")]),
            2 => lines.extend([
                (head.trim_end().to_string(), "flag-line"),
                (fit_labels("", labels, "", max, 16.0), "flag-line"),
            ]),
            1 => lines.push((full, "flag-line")),
            _ => {
                let last = lines.len() - 1;
                lines[last] = (fit_labels(&format!("{blocked_word} · {head}"), labels, "", max, 16.0), "flag-line");
            }
        }
    }
    let class = flag.as_ref().map(|f| f.0);
    let leader = geo.leader.map(|((x1, y1), (x2, y2))| {
        html! { <line class="flag-leader" x1={num(x1)} y1={num(y1)} x2={num(x2)} y2={num(y2)} /> }
    });
    html! {
        <g class={classes!("flag", class, ch.blocked.then_some("blocked"))} data-flag={class} data-lane-label={name.clone()}>
            <title>{ format!("{name}: {}", title.join(" · ")) }</title>
            { leader.unwrap_or_default() }
            { for lines.into_iter().enumerate().map(|(i, (text, class))| html! {
                <text class={class} x={num(r.cx())} y={num(r.y + 18.0 + 22.0 * i as f64)} text-anchor="middle">{ text }</text>
            }) }
        </g>
    }
}

#[allow(clippy::too_many_arguments)]
fn task_box(
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
    // Alignment / recording badge, under the box.
    let badge = Alignment::of(rt).map(|a| {
        let id = a.checkpoint.0;
        let (short, long) = if a.cancelled {
            (format!("{} {id} {}", l.t("◌ chk", "◌ 检查点"), l.t("aborted", "已中止")),
             format!("{} {id} {}", l.t("Checkpoint", "检查点"), l.t("was aborted: the task still collects its barriers", "已中止：任务仍在收集它的屏障")))
        } else if a.unaligned.is_some() {
            (format!("{} {id}", l.t("● recording chk", "● 记录检查点")),
             format!("{} {id}: {}", l.t("Recording in-flight data for checkpoint", "为检查点记录在途数据："), a.waiting()))
        } else {
            (format!("{} {id}: {} {}", l.t("◐ aligning", "◐ 对齐"), a.waiting(), l.t("to go", "个未到")),
             format!("{} {id}: {} {}", l.t("Aligning checkpoint", "对齐检查点"), a.waiting(), l.t("input(s) still to deliver its barrier", "个输入的屏障未到")))
        };
        let r = lay.badge(t.index());
        html! { <text class="badge" x={num(r.x + 14.0)} y={num(r.y + 21.0)} data-aligning={id.to_string()}>
            <title>{ long }</title>{ fit(&short, bw - 24.0, 16.0) }</text> }
    });
    // Source: the log strip. Read records are dimmed; the next one is outlined while the task
    // runs. While it is down, the outline marks where a restore would resume, never where it
    // stopped (the restore may rewind, or skip ahead).
    let strip = (info.kind == OperatorKind::Source).then(|| {
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
    });
    // The task's own buttons, left to right: (action, label, symbol, tooltip, id prefix). The
    // compact geometry shows the symbols only; the tooltip and the label for screen readers
    // always say the whole.
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
    let snap_mark = saved.map(|(s, first)| {
        let r = lay.snap(t.index());
        // A save from before this job was submitted (the state it started from) is step 0.
        let n = (s.tick + 1).saturating_sub(first);
        let title = match n {
            0 => l.t("Saved before this job was submitted: it started from this state", "保存于这个作业提交之前：它从这个状态开始").to_string(),
            n => format!("{} {n}", l.t("Saved at step", "保存于第几步：")),
        };
        html! { <g class="snap-mark" data-snapshot-step={s.tick.to_string()}>
            <title>{ title }</title>
            <rect x={num(r.x)} y={num(r.y)} width={num(r.w)} height={num(r.h)} rx="13" />
            <text x={num(r.cx())} y={num(r.y + 19.0)} text-anchor="middle">{ format!("◉ {n}") }</text>
        </g> }
    });
    let name_w = text_w(&info.name, 21.0);
    let kind = kind_name(l, &info.kind);
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
        saved.map(|(s, first)| match (s.tick + 1).saturating_sub(first) {
            0 => format!("; {}", l.t("saved before this job was submitted", "保存于这个作业提交之前")),
            n => format!("; {} {n}", l.t("saved at step", "保存于第")) + l.t("", " 步"),
        }).unwrap_or_default()
    );
    html! {
        <g class={classes!("task", status)} data-task={info.name.clone()} data-status={status} role="group" aria-label={said}>
            <rect class="task-box" x={num(x)} y={num(y)} width={num(bw)} height={num(bh)} rx="12" />
            <text class="task-name" x={num(x + 14.0)} y={num(y + 28.0)}>{ fit(&info.name, bw - 28.0, 21.0) }</text>
            { if name_w + text_w(kind, 16.0) + 40.0 <= bw {
                html!{ <text class="task-kind" x={num(x + bw - 14.0)} y={num(y + 28.0)} text-anchor="end">{ kind }</text> }
              } else { html!{} } }
            { for lines }
            { strip.unwrap_or_default() }
            { for chips }
            { badge.unwrap_or_default() }
            { snap_mark.unwrap_or_default() }
        </g>
    }
}

/// The cut: dashed runs joining the save markers of the tasks that have one. A run along the
/// top row's markers (the spine), and from it a run down the gutter right of a column to each
/// marker lower in it: places the layout keeps clear of text and tokens. Every run ends at the
/// edge of a marker, never across its number.
fn cut_line(lay: &Layout, saved: &[Option<&TaskSnapshot>], l: Lang) -> Html {
    let marks: Vec<usize> = (0..saved.len()).filter(|t| saved[*t].is_some()).collect();
    if marks.len() < 2 {
        return html! {};
    }
    let sky = lay.sky;
    let mut runs: Vec<String> = Vec::new();
    // Stops along the spine: a top-row marker (its left and right ends) or a tooth (one x).
    let mut stops: Vec<(f64, f64)> = Vec::new();
    let mut teeth: crate::engine::sorted_vec::SortedMap<usize, f64> = Default::default();
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
    crate::engine::stable_sort::sort_stable_by(&mut stops, |a, b| a.0.total_cmp(&b.0));
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

fn external_box(sim: &Sim, lay: &Layout, r: Rect, sink: TaskId, l: Lang) -> Html {
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
    let tail: Vec<&str> = labels.iter().rev().take(12).rev().copied().collect();
    let (sx, sy) = lay.boxes[sink.index()];
    let ax = sx + lay.box_w - 16.0;
    let max = r.w - 28.0;
    let seen = format!("{} {}", visible.len(), l.t("row(s) a reader sees", "行对读者可见"));
    let seen_short = format!("{} {}", visible.len(), l.t("row(s) seen", "行可见"));
    let px = lay.state_px();
    let rows = if tail.len() < labels.len() {
        fit_labels("… ", &tail, "", max, px)
    } else {
        fit_labels("", &tail, "", max, px)
    };
    html! {
        <g class="external" id="external-box">
            <title>{ format!("{}: {seen}", l.t("External system", "外部系统")) }</title>
            <line class="to-external" x1={num(ax)} y1={num(sy + lay.box_h)} x2={num(ax)} y2={num(r.y - 4.0)} marker-end="url(#arrow)" />
            <rect x={num(r.x)} y={num(r.y)} width={num(r.w)} height={num(r.h)} rx="12" />
            <text class="task-name" x={num(r.x + 14.0)} y={num(r.y + 28.0)}>{ l.t("External system", "外部系统") }</text>
            <text class="state muted" x={num(r.x + 14.0)} y={num(r.y + ROW0)}>{ super::text::sink_name(l, mode) }</text>
            <text class="state main seen" x={num(r.x + 14.0)} y={num(r.y + ROW0 + ROW)}>{ if text_w(&seen, 16.0) <= max { seen.clone() } else { seen_short } }</text>
            { if rows.is_empty() { html!{} } else {
                html!{ <text class="state" x={num(r.x + 14.0)} y={num(r.y + ROW0 + 2.0 * ROW)}>{ rows }</text> } } }
            { if mode == SinkMode::TwoPhaseCommit {
                html!{ <text class="state muted" x={num(r.x + 14.0)} y={num(r.y + ROW0 + 3.0 * ROW)}>
                    { { let full = format!("{} {}", open, l.t("row(s) uncommitted, invisible", "行未提交，不可见"));
                      if text_w(&full, px) <= max { full } else { format!("{} {}", open, l.t("uncommitted", "未提交")) } } }</text> }
              } else { html!{} } }
        </g>
    }
}

fn down_banner(sim: &Sim, drawing: &MechanismDrawing, lay: &Layout, l: Lang) -> Html {
    if let Some((why, hint)) = sim.down().zip(drawing.down_banner).and_then(|(scope, words)| words(scope, l)) {
        return banner(lay, "down-banner", why.into(), hint.into());
    }
    let why = match sim.down() {
        Some(CrashScope::Cluster) => l.t("✖ The cluster crashed.", "✖ 集群崩溃。"),
        Some(CrashScope::Task(_)) => l.t("✖ A task crashed: the job fails over.", "✖ 任务崩溃，作业需要故障转移。"),
        Some(CrashScope::JobManager) if sim.strategy().takes(Setting::HighAvailability) => {
            let (a, b) = (sim.masters().leader.letter(), sim.masters().leader.other().letter());
            let (why, hint) = match (sim.settings.high_availability, sim.masters().awaiting_resubmission) {
                (HighAvailability::Standby, _) => match l {
                    Lang::Zh => (format!("✖ JobManager {a} 故障。"), format!("按 R：{b} 接管。")),
                    _ => (format!("✖ JobManager {a} failed."), format!("Press R: {b} takes over.")),
                },
                (HighAvailability::None, false) => (
                    l.t("✖ The job failed (no HA).", "✖ 作业失败（无高可用）。").to_string(),
                    l.t("R starts a JobManager.", "按 R 启动 JobManager。").to_string(),
                ),
                (HighAvailability::None, true) => (
                    l.t("No job is running.", "没有作业在运行。").to_string(),
                    l.t("Press R to resubmit it.", "按 R 重新提交作业。").to_string(),
                ),
            };
            return banner(lay, "down-banner", why, hint);
        }
        Some(CrashScope::JobManager) => l.t("✖ The JobManager crashed.", "✖ JobManager 崩溃。"),
        Some(CrashScope::Global) => l.t("✖ Too many failed checkpoints: failover.", "✖ 检查点失败次数过多，故障转移。"),
        None => "",
    };
    banner(lay, "down-banner", why.to_string(), l.t("Press Restore (R).", "按“恢复”（R）。").to_string())
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
    let (first, second) = match l {
        Lang::Zh => (format!("{failed} 所在的区域正在重启"), "按“恢复”（R）".to_string()),
        _ => (format!("Region of {failed} is restarting"), "— press Restore (R)".to_string()),
    };
    banner(lay, "region-banner", first, second)
}

fn banner(lay: &Layout, id: &'static str, first: String, second: String) -> Html {
    let r = lay.banner;
    let max = r.w - 20.0;
    html! {
        <g class="down-banner" id={id} role="status">
            <rect x={num(r.x)} y={num(r.y)} width={num(r.w)} height={num(BANNER_H)} rx="10" />
            <text x={num(r.cx())} y={num(r.y + 24.0)} text-anchor="middle">
                <tspan x={num(r.cx())}>{ fit(&first, max, 18.0) }</tspan>
                <tspan x={num(r.cx())} dy="23">{ fit(&second, max, 18.0) }</tspan>
            </text>
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct LegendProps {
    lang: Lang,
    presenter: bool,
    /// The marks the current strategy draws (`crate::classroom::legend`): the legend explains
    /// those and no others.
    marks: Vec<Mark>,
}

/// The legend: what the marks on the canvas mean, drawn with the canvas's own marks, only those
/// the current strategy draws. Open beside the drawing; folded into a button in presenter mode.
/// A component of its own: a step does not draw it again (only a change of strategy does).
#[component]
fn Legend(props: &LegendProps) -> Html {
    let (l, presenter) = (props.lang, props.presenter);
    let item = |glyph: Html, w: u32, text: &'static str| {
        html! {
            <li><svg class="legend-glyph" viewBox={format!("0 0 {w} 48")} style={format!("aspect-ratio: {w} / 48")} aria-hidden="true">{ glyph }</svg>
                <span>{ text }</span></li>
        }
    };
    // The glyphs have classes of their own ("g-…"), styled like the canvas's marks, so a query
    // for the canvas's tokens or markers never finds them.
    let token = |class: &'static str| {
        html! { <g class={classes!("g-token", class)} transform="translate(24 24)">
        <rect class="tok" x="-17" y="-17" width="34" height="34" rx="17" fill={KEY_COLOURS[0]} />
        <text y="6" text-anchor="middle">{ "a" }</text></g> }
    };
    let tracker = props.marks.contains(&Mark::Barrier) && !props.marks.contains(&Mark::Buffered);
    let one = |m: &Mark| match m {
        Mark::Save => item(
            html! { <g class="g-snap"><rect x="4" y="10" width="76" height="26" rx="13" /><text x="42" y="29" text-anchor="middle">{ "◉ 4" }</text></g> },
            84,
            l.t("◉ n: the task saved its state at step n", "◉ n：任务在第 n 步保存了状态"),
        ),
        Mark::Cut => item(
            html! { <g class="g-cut"><polyline points="4,24 76,24" /></g> },
            80,
            l.t("the cut: joins the saves a restore would use", "切面：连接恢复将使用的保存"),
        ),
        Mark::Buffered => item(
            token("buffered"),
            48,
            l.t("ring: buffered behind a barrier while its task aligns", "圆环：任务对齐时在屏障后缓存"),
        ),
        Mark::Replayed => item(token("replayed"), 48, l.t("dashes: replayed after a restore", "虚线：恢复后重放")),
        Mark::Barrier => item(
            html! { <g class="g-barrier" transform="translate(24 24)"><rect class="bar" x="-4" y="-22" width="8" height="44" rx="2" />
            <circle class="mark" r="13" /><text y="6" text-anchor="middle">{ "1" }</text></g> },
            48,
            if tracker {
                l.t(
                    "filled: checkpoint barrier n (not aligned: nothing waits for it)",
                    "实心：检查点 n 的屏障（不对齐：没有输入等它）",
                )
            } else {
                l.t("filled: checkpoint barrier n (aligned)", "实心：检查点 n 的屏障（对齐）")
            },
        ),
        Mark::UnalignedBarrier => item(
            html! { <g class="g-barrier unaligned" transform="translate(30 24)"><rect class="bar" x="-4" y="-22" width="8" height="44" rx="2" />
            <rect class="mark" x="-26" y="-13" width="52" height="26" rx="13" /><text y="6" text-anchor="middle">{ "1" }<tspan class="barrier-mark">{ "⇥u" }</tspan></text></g> },
            60,
            l.t("hollow, ⇥u: unaligned barrier, overtakes records", "空心、⇥u：非对齐屏障，越过记录"),
        ),
        Mark::CancelMarker => item(
            html! { <g class="g-barrier cancel-marker" transform="translate(26 24)"><path class="cross" d="M -8 -20 L 8 20 M 8 -20 L -8 20" />
            <rect class="mark" x="-20" y="-13" width="40" height="26" rx="13" /><text y="6" text-anchor="middle">{ "✕1" }</text></g> },
            52,
            l.t("✕n: cancel marker, checkpoint n was declined", "✕n：取消标记，检查点 n 被拒绝"),
        ),
        Mark::NextRecord => item(
            html! { <g class="g-cell next"><rect x="10" y="10" width="28" height="28" rx="4" fill={KEY_COLOURS[0]} /><text x="24" y="30" text-anchor="middle">{ "d" }</text></g> },
            48,
            l.t("outlined: the next record a source reads", "描边：源下一条要读取的记录"),
        ),
        Mark::TupleTree => item(
            html! { <g class="g-tree"><text x="4" y="30">{ "9e37… ← a" }</text></g> },
            110,
            l.t(
                "a tuple tree in the acker's table: its root's XOR value, 0 when every tuple is acked",
                "acker 表中的元组树：根的 XOR 值，所有元组都确认后为 0",
            ),
        ),
        Mark::AckMessage => item(
            html! { <g class="g-ack-msg"><rect x="4" y="10" width="92" height="28" rx="8" /><text x="50" y="30" text-anchor="middle">{ "ack a" }</text></g> },
            100,
            l.t(
                "init / ack: a message on its way to the acker (click its row to deliver it)",
                "init / ack：发往 acker 的消息（点它所在的行即可送达）",
            ),
        ),
        Mark::Block => item(
            html! { <g class="g-spark-block"><rect x="4" y="10" width="104" height="26" rx="13" /><text x="56" y="29" text-anchor="middle">{ "a ▪0 ✎" }</text></g> },
            112,
            l.t(
                "a block: ▪0 ▪1 a copy in executor 0 / 1, ✎ in the write-ahead log",
                "块：▪0 ▪1 执行器 0/1 中的副本，✎ 在预写日志中",
            ),
        ),
        Mark::Batch => item(
            html! { <g class="g-batch"><text x="4" y="30">{ l.t("batch 1 ▶", "批次 1 ▶") }</text></g> },
            110,
            l.t(
                "batch k ▶: the driver's batch job running (the others queue behind it)",
                "批次 k ▶：驱动器正在运行的批次作业（其余在后面排队）",
            ),
        ),
    };
    html! {
        <details class="legend" id="legend" open={!presenter} data-marks={props.marks.len().to_string()}>
            <summary>{ l.t("Legend: what the marks mean", "图例：各标记的含义") }</summary>
            <ul>
                { for props.marks.iter().map(one) }
            </ul>
        </details>
    }
}
