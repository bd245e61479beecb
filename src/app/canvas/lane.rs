//! A channel drawn as a lane: its bed, its queued records (tokens, keyed so that a step moves
//! them) and barriers, and the labels beside it (in transit, orphan, blocked).

use super::layout::{text_w, Layout};
use super::layout::{ITEM_GAP, TOKEN_H};
use super::parts::*;
use crate::app::key_colours::key_colour;
use crate::app::pressable::press;
use crate::app::svg_number::{num, points};
use crate::app::svg_text::fit;
use crate::app::text::Lang;
use crate::engine::CutReport;
use crate::engine::*;
use yew::prelude::*;

/// The width of an item on a lane.
pub(super) fn item_w(lay: &Layout, item: &Item) -> f64 {
    match item {
        Item::Record { .. } => lay.token_w,
        Item::Barrier(b) if b.unaligned => text_w(&format!("{}⇥u", b.checkpoint.0), 16.0) + 12.0,
        Item::Barrier(_) => 26.0,
        Item::Cancel(id) => text_w(&format!("✕{}", id.0), 16.0) + 12.0,
    }
}

pub(super) fn lane(sim: &Sim, c: ChannelId, lay: &Layout, l: Lang, h: &Handlers) -> Html {
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
    // A bounded channel's buffers, and whether they are all taken (its sender is backpressured).
    let cap = sim.channel_buffers(c);
    let full = cap.is_some_and(|cap| n >= cap as usize);
    let title = match cap {
        Some(cap) => format!("{title} — {}", buffers_words(n, cap, l)),
        None => title,
    };
    let falling = geo.back.1.abs() > geo.back.0.abs();
    // The channel as a screen reader names it: what is on it, head first (the first twelve).
    let on_it = spoken(sim, c, l);
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
        drawn_item(g, c, item, style, ch.blocked, falling, lay, l)
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
        <g class={classes!("lane", ch.blocked.then_some("blocked"), full.then_some("full"), enabled.is_ok().then_some("ready"))} data-channel={info.name.clone()}
           data-blocked={ch.blocked.to_string()} data-queued={n.to_string()} data-capacity={cap.map(|c| c.to_string())}
           role="group" aria-label={on_it}>
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
pub(super) fn lane_labels(sim: &Sim, c: ChannelId, lay: &Layout, l: Lang, cut: Option<&CutReport>) -> Html {
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
            2 if r.w >= super::layout::FLAG_W => {
                lines.extend([(full, "flag-line"), (fit(second, max, 16.0), "flag-line")])
            }
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

/// A bounded channel's fill: "2 of 3 buffers taken", or "full: 3 of 3 buffers taken".
fn buffers_words(n: usize, cap: u32, l: Lang) -> String {
    let full = n >= cap as usize;
    match l {
        Lang::Zh => format!("{}{n}/{cap} 个缓冲已占用", if full { "已满：" } else { "" }),
        _ => format!("{}{n} of {cap} buffers taken", if full { "full: " } else { "" }),
    }
}

/// The channel as a screen reader names it: what is on it, head first (the first twelve), and a
/// bounded channel's fill.
fn spoken(sim: &Sim, c: ChannelId, l: Lang) -> String {
    let said = spoken_items(sim, c, l);
    match sim.channel_buffers(c) {
        Some(cap) => {
            format!("{said}{}{}", if l == Lang::Zh { "；" } else { "; " }, buffers_words(sim.queue(c).len(), cap, l))
        }
        None => said,
    }
}

fn spoken_items(sim: &Sim, c: ChannelId, l: Lang) -> String {
    let g = &sim.graph;
    let info = g.channel(c);
    let ch = &sim.channels()[c.index()];
    let n = ch.queue.len();
    let items: Vec<String> = ch
        .queue
        .iter()
        .take(12)
        .map(|item| match item {
            Item::Record { rec, .. } => g.label(rec.id).to_string(),
            Item::Barrier(b) => format!("{} {}", l.t("barrier", "屏障"), b.checkpoint.0),
            Item::Cancel(id) => format!("{} {}", l.t("cancel marker", "取消标记"), id.0),
        })
        .collect();
    let more = if n > 12 { format!(" …(+{})", n - 12) } else { String::new() };
    match (n, l) {
        (0, Lang::Zh) => format!("通道 {}：空", info.name),
        (0, _) => format!("channel {}: empty", info.name),
        (_, Lang::Zh) => format!(
            "通道 {}：{n} 项在途，队首起：{}{more}{}",
            info.name,
            items.join("、"),
            if ch.blocked { "（阻塞）" } else { "" }
        ),
        (_, _) => format!(
            "channel {}: {n} on the way, head first: {}{more}{}",
            info.name,
            items.join(", "),
            if ch.blocked { " (blocked)" } else { "" }
        ),
    }
}

/// One item on a lane, at its place (`style`): a record's token (coloured by key, marked when
/// buffered behind a barrier or replayed), a barrier across the lane (an unaligned one marked
/// ⇥u), or a cancel marker.
#[allow(clippy::too_many_arguments)]
fn drawn_item(
    g: &JobGraph,
    c: ChannelId,
    item: &Item,
    style: String,
    buffered: bool,
    falling: bool,
    lay: &Layout,
    l: Lang,
) -> Html {
    match item {
        Item::Record { seq, rec } => {
            let label = g.label(rec.id);
            let key = g.record(rec.id).key;
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
}
