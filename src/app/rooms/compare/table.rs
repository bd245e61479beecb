//! The live cost table: one column per run, one row per figure of
//! [`Costs`](crate::engine::comparison::Costs), as the runs stand at the room's clock. Every
//! cell carries the figure's place in the engine's JSON (`data-figure`, a JSON pointer into the
//! `costs` that `barrierscope compare --json` prints) and its value (`data-value`), so a test
//! reads each figure back against the engine's own computation.

use yew::prelude::*;

use crate::engine::comparison::Costs;
use crate::engine::{Completeness, Lang, Order, Verdict};

/// A row: the figure's JSON pointer, its name in both languages, and whether it is a detail
/// (folded away on a projector).
pub struct Row {
    pub figure: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
    pub detail: bool,
}

const fn row(figure: &'static str, en: &'static str, zh: &'static str, detail: bool) -> Row {
    Row { figure, en, zh, detail }
}

pub const ROWS: [Row; 27] = [
    row("/steps", "steps taken", "已走步数", true),
    row("/reprocessed/records", "records re-processed after the crash", "崩溃后重新处理的记录", false),
    row("/reprocessed/steps", "reads and processing steps repeated", "重复的读取与处理步", true),
    row("/reprocessed/last_tick", "the last one at tick", "最后一次所在的拍", true),
    row("/bytes/written", "bytes written for fault tolerance", "为容错写入的字节", false),
    row("/bytes/checkpoints", "checkpoints", "检查点", true),
    row("/bytes/write_ahead_log", "write-ahead log", "预写日志", true),
    row("/bytes/state_checkpoints", "state checkpoints", "状态检查点", true),
    row("/bytes/metadata_checkpoints", "metadata checkpoints", "元数据检查点", true),
    row("/bytes/offset_commits", "offset commits", "偏移量提交", true),
    row("/bytes/peak_held", "bytes held at the peak", "峰值时保存的字节", false),
    row("/bytes/acker_table_peak", "acker table at its peak (memory)", "acker 表峰值（内存）", true),
    row("/messages/total", "control messages", "控制消息", false),
    row("/messages/barriers", "barriers on the data channels", "数据通道上的屏障", true),
    row("/messages/cancel_markers", "cancel markers", "取消标记", true),
    row("/messages/coordinator", "to and from the coordinator", "与协调器往来", true),
    row("/messages/acker", "to and from the acker", "与 acker 往来", true),
    row("/messages/driver", "to and from the driver", "与 driver 往来", true),
    row("/latency/median", "latency, arrival to visible: median (steps)", "从到达到可见的延迟：中位数（步）", false),
    row("/latency/worst", "latency: worst (steps)", "延迟：最差（步）", false),
    row("/latency/seen", "records a reader saw", "读者看到的记录", true),
    row("/recovery/steps_down", "steps from the crash to running", "从崩溃到恢复运行的步数", false),
    row("/recovery/running_tick", "running again at tick", "恢复运行所在的拍", true),
    row("/verdicts/state", "verdict: state", "结论：状态", false),
    row("/verdicts/output", "verdict: output", "结论：输出", false),
    row("/verdicts/complete", "verdict: complete", "结论：完整", false),
    row("/verdicts/order", "verdict: order", "结论：顺序", false),
];

/// The verdict's id, mark and word: the main screen's words (`text::verdict_mark`), so every room
/// says a verdict the same way.
fn verdict(l: Lang, v: Verdict) -> (&'static str, &'static str, &'static str) {
    let (mark, word) = crate::app::text::verdict_mark(l, v);
    (v.id(), mark, word)
}

/// The value (as the engine's JSON spells it) and the cell's text.
pub fn cell(figure: &str, c: &Costs, crashed: bool, l: Lang) -> (String, String, Option<&'static str>) {
    let n = |v: u64| (v.to_string(), v.to_string(), None);
    let opt = |v: Option<u64>, none: &str| v.map_or((String::new(), none.to_string(), None), n);
    let dash = "-";
    match figure {
        "/steps" => n(c.steps),
        "/reprocessed/records" => {
            let r = &c.reprocessed;
            let text = if r.records == 0 { "0".into() } else { format!("{} ({})", r.records, r.labels.join(" ")) };
            (r.records.to_string(), text, None)
        }
        "/reprocessed/steps" => n(u64::from(c.reprocessed.steps)),
        "/reprocessed/last_tick" => opt(c.reprocessed.last_tick, dash),
        "/bytes/written" => n(c.bytes.written),
        "/bytes/checkpoints" => n(c.bytes.checkpoints),
        "/bytes/write_ahead_log" => n(c.bytes.write_ahead_log),
        "/bytes/state_checkpoints" => n(c.bytes.state_checkpoints),
        "/bytes/metadata_checkpoints" => n(c.bytes.metadata_checkpoints),
        "/bytes/offset_commits" => n(c.bytes.offset_commits),
        "/bytes/peak_held" => n(c.bytes.peak_held),
        "/bytes/acker_table_peak" => n(c.bytes.acker_table_peak),
        "/messages/total" => n(c.messages.total),
        "/messages/barriers" => n(c.messages.barriers),
        "/messages/cancel_markers" => n(c.messages.cancel_markers),
        "/messages/coordinator" => n(c.messages.coordinator),
        "/messages/acker" => n(c.messages.acker),
        "/messages/driver" => n(c.messages.driver),
        "/latency/median" => opt(c.latency.median, dash),
        "/latency/worst" => opt(c.latency.worst, dash),
        "/latency/seen" => {
            (c.latency.seen.to_string(), format!("{} {} {}", c.latency.seen, l.t("of", "/"), c.latency.of), None)
        }
        "/recovery/steps_down" => {
            let none = if crashed { l.t("still down", "仍在停机") } else { l.t("no crash yet", "尚未崩溃") };
            opt(c.recovery.steps_down, none)
        }
        "/recovery/running_tick" => opt(c.recovery.running_tick, dash),
        "/verdicts/state" => {
            let (id, mark, word) = verdict(l, c.verdicts.state);
            (id.into(), format!("{mark} {word}"), Some(id))
        }
        "/verdicts/output" => match c.verdicts.output {
            Some(v) => {
                let (id, mark, word) = verdict(l, v);
                (id.into(), format!("{mark} {word}"), Some(id))
            }
            None => (String::new(), l.t("no sink", "没有输出端").into(), None),
        },
        "/verdicts/complete" => {
            let (mark, word) = crate::app::text::complete_mark(l, c.verdicts.complete, false);
            let (id, class) = match c.verdicts.complete {
                Completeness::Complete => ("complete", "exactly-once"),
                Completeness::Incomplete => ("incomplete", "lost"),
                Completeness::Pending => ("pending", "pending"),
            };
            (id.into(), format!("{mark} {word}"), Some(class))
        }
        "/verdicts/order" => {
            let (mark, word) = crate::app::text::order_mark(l, c.verdicts.order, false);
            let (id, class) = match c.verdicts.order {
                Order::InOrder => ("in-order", "exactly-once"),
                Order::OutOfOrder => ("out-of-order", "duplicated"),
                Order::Pending => ("pending", "pending"),
            };
            (id.into(), format!("{mark} {word}"), Some(class))
        }
        _ => (String::new(), String::new(), None),
    }
}

/// The table: `titles` head the columns, `costs` fill them.
pub fn cost_table(titles: &[String], costs: &[Costs], crashed: bool, tick: u64, l: Lang) -> Html {
    let caption = match l {
        Lang::En => format!("What each run paid for surviving the crash, at tick {tick}"),
        Lang::Zh => format!("每个运行为从崩溃中恢复付出的代价（第 {tick} 拍）"),
    };
    html! {
        <table id="cmp-costs" class="cmp-costs" data-tick={tick.to_string()}>
            <caption>{ caption }</caption>
            <thead>
                <tr>
                    <th scope="col">{ l.t("figure", "指标") }</th>
                    { for titles.iter().enumerate().map(|(i, t)| html! { <th scope="col" data-run={i.to_string()}>{ t.clone() }</th> }) }
                </tr>
            </thead>
            <tbody>
                { for ROWS.iter().map(|r| html! {
                    <tr class={classes!(r.detail.then_some("detail"))} data-figure={r.figure}>
                        <th scope="row">{ l.t(r.en, r.zh) }</th>
                        { for costs.iter().enumerate().map(|(i, c)| {
                            let (value, text, class) = cell(r.figure, c, crashed, l);
                            html! { <td data-run={i.to_string()} data-figure={r.figure} data-value={value} class={classes!(class)}>{ text }</td> }
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}
