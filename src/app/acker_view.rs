//! Storm's acker on the canvas: a band under the job with the acker task and its table of pending
//! tuple trees (each root's XOR value in hex and the edges it stands for), each spout's pending
//! tuples, replays due and committed offset, and the messages on their way, one row per sender:
//! `__ack_init` and `__ack_ack` to the acker, the acker's answers to the spouts. A row is a
//! channel: clicking it (or Enter on it) delivers its oldest message, as a lane does for records.

use crate::app::svg_number::{num, within};
use yew::prelude::*;

use super::text::Lang;
use crate::app::legend_item::legend_item;
use crate::engine::mechanisms::marks::Mark;
use crate::engine::mechanisms::storm::steps::{from_acker, to_acker};
use crate::engine::mechanisms::storm::tuple_tree::{short_hex, AckMessage, StormRuntime};
use crate::engine::{Action, Sim, TaskId};

/// Height of the band, in canvas units.
pub const BAND_H: f64 = 250.0;
/// Height of the compact strip presenter mode draws instead: two lines of large type, so the
/// drawing above keeps its size on a projector.
pub const STRIP_H: f64 = 104.0;

/// The band's height: the full band, or the compact strip.
pub fn band_height(compact: bool) -> f64 {
    if compact {
        STRIP_H
    } else {
        BAND_H
    }
}

/// The narrowest the band draws in: the acker and a row of three messages beside it.
pub const MIN_W: f64 = 1180.0;
const ROW_H: f64 = 34.0;
const MSG_W: f64 = 106.0;
const LABEL_W: f64 = 250.0;

fn hex(x: u64) -> String {
    if x == 0 {
        "0".into()
    } else {
        format!("{}…", short_hex(x))
    }
}

/// One row of messages from `from` to `to`, `w` wide: a button that delivers the oldest, then
/// the messages, oldest first.
#[allow(clippy::too_many_arguments)]
fn message_row(
    sim: &Sim,
    a: Action,
    y: f64,
    x: f64,
    w: f64,
    label: String,
    items: Vec<String>,
    act: &Callback<Action>,
    l: Lang,
) -> Html {
    let enabled = sim.check(a);
    let aria = format!("{} {}", l.t("Deliver the oldest message:", "投递最早的消息："), label);
    let title = match &enabled {
        Ok(()) => aria.clone(),
        Err(e) => format!("{aria} — {}", e.message(l)),
    };
    let (click, key) = crate::app::pressable::press(act, a);
    let ok = enabled.is_ok();
    let room = (((w - LABEL_W - 40.0) / MSG_W).floor() as usize).max(1);
    let shown = items.len().min(room);
    html! {
        <g class={classes!("ack-row", ok.then_some("ready"))} role="button" tabindex={if ok { "0" } else { "-1" }}
           aria-label={aria} aria-disabled={(!ok).to_string()} data-ack-row={label.clone()}
           onclick={ok.then_some(click)} onkeydown={ok.then_some(key)}>
            <title>{ title }</title>
            <rect class="ack-row-bed" x={num(x)} y={num(y - 24.0)} width={num(w)} height={num(ROW_H - 4.0)} rx="8" />
            <text class="ack-row-label" x={num(x + 12.0)} y={num(y)}>{ format!("{label} ▸") }</text>
            { for items.iter().take(shown).enumerate().map(|(i, m)| html! {
                <g class="ack-msg">
                    <rect x={num(x + LABEL_W + i as f64 * MSG_W)} y={num(y - 20.0)} width={num(MSG_W - 6.0)} height="24" rx="12" />
                    <text x={num(x + LABEL_W + (MSG_W - 6.0) / 2.0 + i as f64 * MSG_W)} y={num(y - 3.0)} text-anchor="middle">{ m.clone() }</text>
                </g>
            }) }
            { if items.len() > shown { html!{ <text class="ack-more" x={num(x + LABEL_W + shown as f64 * MSG_W)} y={num(y)}>{ format!("+{}", items.len() - shown) }</text> } } else { html!{} } }
        </g>
    }
}

/// The band, or presenter mode's strip (`compact`), and the height it takes.
pub fn band(sim: &Sim, top: f64, width: f64, act: &Callback<Action>, l: Lang, compact: bool) -> (Html, f64) {
    let Some(storm) = sim.storm() else {
        return (Html::default(), 0.0);
    };
    let band =
        if compact { acker_strip(sim, storm, top, width, act, l) } else { acker_band(sim, storm, top, width, act, l) };
    (band, band_height(compact))
}

/// The band: the acker with its pending trees on the left, the spouts' bookkeeping and the
/// message rows on the right. `top` is where it starts on the canvas, `width` the canvas's width.
fn acker_band(sim: &Sim, storm: &StormRuntime, top: f64, width: f64, act: &Callback<Action>, l: Lang) -> Html {
    let g = &sim.graph;
    let acker_w = within(width * 0.4, 420.0, 560.0);
    let rows_w = width - acker_w - 60.0 - 24.0;
    let entries = storm.acker.entries();
    let rows: Vec<Html> = entries
        .iter()
        .take(5)
        .enumerate()
        .map(|(i, (root, e))| {
            let who = e.spout.map(|(_, _, r)| g.label(r).to_string()).unwrap_or_else(|| l.t("init not yet in", "init 未到").into());
            let open: Vec<String> = e.open.iter().map(|x| short_hex(*x)).collect();
            let open = if open.len() > 3 { format!("{} …", open[..3].join(" ")) } else { open.join(" ") };
            html! {
                <text class="acker-row" x="40" y={num(top + 84.0 + i as f64 * 30.0)} data-root={format!("{root:016x}")} data-val={format!("{:016x}", e.val)}>
                    <title>{ format!("root {root:016x}, value {:016x}", e.val) }</title>
                    { crate::app::svg_text::fit(&format!("{} {} ({who}): {} {} · {} {{{open}}}", l.t("tree", "树"), hex(*root), l.t("value", "值"), hex(e.val), l.t("open edges", "未确认的边")), acker_w - 32.0, 17.0) }
                </text>
            }
        })
        .collect();
    let more = entries.len().saturating_sub(5);
    let mut lines: Vec<Html> = Vec::new();
    let mut y = top + 40.0;
    let x = acker_w + 60.0;
    for s in g.sources() {
        let spout = &storm.spouts[s.index()];
        let pending: Vec<String> = spout.pending.entries().iter().map(|(_, (_, r))| g.label(*r).to_string()).collect();
        let retry: Vec<&str> = spout.retry.iter().map(|o| g.label(g.task(s).log[*o as usize])).collect();
        let text = format!(
            "{}: {} {} · {} {} · {} {}",
            g.task(s).name,
            l.t("waiting for acks", "等待确认"),
            if pending.is_empty() { "—".to_string() } else { pending.join(" ") },
            l.t("to replay", "待重放"),
            if retry.is_empty() { "—".to_string() } else { retry.join(" ") },
            l.t("committed offset", "已提交偏移量"),
            sim.committed_offset(s)
        );
        lines.push(html! { <text class="spout-line" x={num(x)} y={num(y)} data-spout={g.task(s).name.clone()}>
        <title>{ text.clone() }</title>{ crate::app::svg_text::fit(&text, rows_w, 17.0) }</text> });
        y += 28.0;
    }
    let mut message_rows: Vec<Html> = Vec::new();
    for (t, q) in storm.to_acker.iter().enumerate().filter(|(_, q)| !q.is_empty()) {
        let task = TaskId(t as u16);
        let items = q
            .iter()
            .map(|m| match m {
                AckMessage::Init { record, .. } => format!("init {}", g.label(*record)),
                AckMessage::Ack { record, .. } => format!("ack {}", g.label(*record)),
            })
            .collect();
        let label = format!("{} → acker", g.task(task).name);
        message_rows.push(message_row(sim, to_acker(task), 0.0, x, rows_w, label, items, act, l));
    }
    for (t, q) in storm.to_spout.iter().enumerate().filter(|(_, q)| !q.is_empty()) {
        let task = TaskId(t as u16);
        let items = q.iter().map(|a| format!("✓ {}", g.label(a.record))).collect();
        let label = format!("acker → {}", g.task(task).name);
        message_rows.push(message_row(sim, from_acker(task), 0.0, x, rows_w, label, items, act, l));
    }
    let shown_rows = message_rows.len().min(5);
    let hidden = message_rows.len() - shown_rows;
    let rows_html = message_rows.into_iter().take(shown_rows).enumerate().map(|(i, r)| {
        html! { <g transform={format!("translate(0 {})", num(y + 30.0 + i as f64 * ROW_H))}>{ r }</g> }
    });
    let nothing = storm.messages_to_acker() == 0 && storm.to_spout.iter().all(|q| q.is_empty());
    html! {
        <g id="acker-band" class="acker-band" aria-label={l.t("Storm's acker and its messages", "Storm 的 acker 及其消息")} role="group">
            <rect class="acker-box" x="24" y={num(top + 8.0)} width={num(acker_w)} height={num(BAND_H - 20.0)} rx="12" />
            <text class="task-name" x="40" y={num(top + 40.0)}>{ l.t("Acker", "Acker") }</text>
            <text class="task-kind" x={num(acker_w + 8.0)} y={num(top + 40.0)} text-anchor="end">
                { l.t("XOR of each pending tree", "每棵进行中的树的异或值") }</text>
            { if rows.is_empty() {
                html!{ <text class="acker-row muted" x="40" y={num(top + 84.0)}>{ l.t("no pending trees", "没有进行中的树") }</text> }
              } else { html!{ { for rows } } } }
            { if more > 0 { html!{ <text class="acker-row muted" x="40" y={num(top + 84.0 + 5.0 * 30.0)}>{ format!("+{more} {}", l.t("more trees", "棵树")) }</text> } } else { html!{} } }
            { for lines }
            { for rows_html }
            { if nothing { html!{ <text class="spout-line muted" x={num(x)} y={num(y + 16.0)}>{ l.t("no acker messages on their way", "没有在途的 acker 消息") }</text> } } else { html!{} } }
            { if hidden > 0 { html!{ <text class="spout-line muted" x={num(x)} y={num(y + 30.0 + 5.0 * ROW_H)}>{ format!("+{hidden} {}", l.t("more senders", "个发送方")) }</text> } } else { html!{} } }
        </g>
    }
}

/// Presenter mode's compact strip: one line with the acker's trees and each spout's commit, one
/// line of buttons, one per sender with messages on their way ("Map ▸ ack b +1"), each
/// delivering its oldest message.
fn acker_strip(sim: &Sim, storm: &StormRuntime, top: f64, width: f64, act: &Callback<Action>, l: Lang) -> Html {
    use crate::app::svg_text::fit;
    let g = &sim.graph;
    let px = 20.0;
    let trees: Vec<String> = storm
        .acker
        .entries()
        .iter()
        .map(|(_, e)| {
            let who = e.spout.map(|(_, _, r)| g.label(r).to_string()).unwrap_or_else(|| "?".into());
            format!("{who} {}", hex(e.val))
        })
        .collect();
    let spouts: Vec<String> = g
        .sources()
        .map(|s| {
            let retry: Vec<&str> =
                storm.spouts[s.index()].retry.iter().map(|o| g.label(g.task(s).log[*o as usize])).collect();
            let again = if retry.is_empty() {
                String::new()
            } else {
                format!(" · {} {}", l.t("replay", "重放"), retry.join(" "))
            };
            format!("{} {} {}{again}", g.task(s).name, l.t("committed", "已提交"), sim.committed_offset(s))
        })
        .collect();
    let line = format!(
        "{}: {} · {}",
        l.t("Acker", "Acker"),
        if trees.is_empty() { l.t("no trees", "无进行中的树").to_string() } else { trees.join(", ") },
        spouts.join(" · ")
    );
    let mut chips: Vec<(Action, String, String)> = Vec::new();
    for (t, q) in storm.to_acker.iter().enumerate().filter(|(_, q)| !q.is_empty()) {
        let head = match &q[0] {
            AckMessage::Init { record, .. } => format!("init {}", g.label(*record)),
            AckMessage::Ack { record, .. } => format!("ack {}", g.label(*record)),
        };
        let more = if q.len() > 1 { format!(" +{}", q.len() - 1) } else { String::new() };
        let task = TaskId(t as u16);
        chips.push((
            to_acker(task),
            format!("{} → acker", g.task(task).name),
            format!("{} ▸ {head}{more}", g.task(task).name),
        ));
    }
    for (t, q) in storm.to_spout.iter().enumerate().filter(|(_, q)| !q.is_empty()) {
        let task = TaskId(t as u16);
        let more = if q.len() > 1 { format!(" +{}", q.len() - 1) } else { String::new() };
        chips.push((
            from_acker(task),
            format!("acker → {}", g.task(task).name),
            format!("acker ▸ {} ✓ {}{more}", g.task(task).name, g.label(q[0].record)),
        ));
    }
    let mut x = 24.0;
    let y = top + 58.0;
    let mut drawn = Vec::new();
    for (a, row, label) in chips {
        let w = crate::app::svg_text::text_w(&label, px) + 24.0;
        if x + w > width - 24.0 {
            break;
        }
        let ok = sim.check(a).is_ok();
        let (click, key) = crate::app::pressable::press(act, a);
        drawn.push(html! {
            <g class={classes!("ack-row", "ack-chip", ok.then_some("ready"))} role="button" tabindex={if ok { "0" } else { "-1" }}
               aria-label={format!("{} {row}", l.t("Deliver the oldest message:", "投递最早的消息："))} data-ack-row={row.clone()}
               onclick={ok.then_some(click)} onkeydown={ok.then_some(key)}>
                <title>{ row }</title>
                <rect class="ack-row-bed" x={num(x)} y={num(y)} width={num(w)} height="34" rx="8" />
                <text class="ack-strip-text" x={num(x + 12.0)} y={num(y + 24.0)}>{ label }</text>
            </g>
        });
        x += w + 10.0;
    }
    html! {
        <g id="acker-band" class="acker-band compact" aria-label={l.t("Storm's acker and its messages", "Storm 的 acker 及其消息")} role="group">
            <rect class="acker-box" x="16" y={num(top + 4.0)} width={num(width - 32.0)} height={num(STRIP_H - 8.0)} rx="10" />
            <text class="ack-strip-text" x="28" y={num(top + 38.0)}><title>{ line.clone() }</title>{ fit(&line, width - 56.0, px) }</text>
            { for drawn }
        </g>
    }
}

/// The legend's lines for Storm's marks: a tuple tree in the acker's table, a message to the acker.
pub fn legend(m: Mark, l: Lang) -> Html {
    match m {
        Mark::TupleTree => legend_item(
            html! { <g class="g-tree"><text x="4" y="30">{ "9e37… ← a" }</text></g> },
            110,
            l.t(
                "a tuple tree in the acker's table: its root's XOR value, 0 when every tuple is acked",
                "acker 表中的元组树：根的 XOR 值，所有元组都确认后为 0",
            ),
        ),
        Mark::AckMessage => legend_item(
            html! { <g class="g-ack-msg"><rect x="4" y="10" width="92" height="28" rx="8" /><text x="50" y="30" text-anchor="middle">{ "ack a" }</text></g> },
            100,
            l.t(
                "init / ack: a message on its way to the acker (click its row to deliver it)",
                "init / ack：发往 acker 的消息（点它所在的行即可送达）",
            ),
        ),
        other => super::spark_view::legend(other, l),
    }
}

/// Nimbus's lines in the JobManager's place: it assigns workers and is not on the data path, and
/// no state is saved.
pub fn nimbus_lines(sim: &Sim, l: Lang) -> (String, String) {
    let line2 = if sim.jobmanager_up() {
        l.t("Nimbus: assigns workers; not on the data path", "Nimbus：分配 worker，不在数据路径上")
    } else {
        l.t("Nimbus down: workers keep processing; reassignment waits", "Nimbus 故障：worker 继续处理，重新分配需等待")
    };
    (
        line2.to_string(),
        l.t("no state is saved: a restarted bolt starts empty", "不保存状态：重启的 bolt 从空开始").to_string(),
    )
}
