//! What the room says about the cut the learner drew: whether it is consistent (Chandy and
//! Lamport: no message received before the cut yet sent after it), every arrow that crosses it
//! with its steps, and what a restore from it did to each record (`engine::drawn_cut`: a copy of
//! the run crashed after the latest point, put back from the drawn snapshots by the strategy's
//! own restore, run to its end, judged by the ledger).

use yew::prelude::*;

use super::crossings::Judged;
use super::drawing::{crossing_symbol, crossing_word};
use crate::app::text::{verdict_mark, Lang};
use crate::engine::{Crossing, CutReport, CutRestore, DrawnCut, DrawnCutError, RecordId, Verdict};

/// The error of a cut that can't be classified or restored from, in the page's language.
pub fn error_text(l: Lang, e: &DrawnCutError) -> String {
    match e {
        DrawnCutError::Points { tasks, given } => match l {
            Lang::En => format!("the job has {tasks} tasks; set one point per task ({given} set)"),
            Lang::Zh => format!("作业有 {tasks} 个任务；每个任务设一个点（已设 {given} 个）"),
        },
        DrawnCutError::PastTheEnd { task, point, steps } => match l {
            Lang::En => format!("{task}: step {point} is past the end of the run ({steps} steps)"),
            Lang::Zh => format!("{task}：第 {point} 步超出了运行的末尾（共 {steps} 步）"),
        },
        DrawnCutError::TaskDown { task, point } => match l {
            Lang::En => format!("{task} is not running after step {point}: it has no state to cut there. Move its point to where its line is drawn."),
            Lang::Zh => format!("{task} 在第 {point} 步之后没有运行：那里没有可切的状态。请把它的点移到线画出的地方。"),
        },
        DrawnCutError::Unsupported(why) => match l {
            Lang::En => format!("A restore from a drawn cut is not possible with this run: {why}."),
            Lang::Zh => format!("这次运行无法从画出的切面恢复：{}。", unsupported_zh(why)),
        },
    }
}

fn unsupported_zh(why: &str) -> &'static str {
    if why.contains("sink") {
        "画出的快照没有预提交的事务，两阶段提交或事务型 sink 不能从它恢复"
    } else if why.contains("lab") {
        "屏障处理实验的运行不能从画出的切面恢复"
    } else if why.contains("refused") {
        "引擎拒绝了这次恢复"
    } else {
        "需要一个恢复任务快照的策略（定时快照或检查点策略）"
    }
}

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    /// The prefix of its element ids: `st` for the run's cut, `st2` for the compared run's.
    pub id: &'static str,
    pub lang: Lang,
    pub cut: Result<DrawnCut, String>,
    pub restore: Option<Result<CutRestore, String>>,
    pub hovered: Option<RecordId>,
    pub on_hover: Callback<Option<RecordId>>,
}

/// The verdict on the drawn cut.
#[component]
pub fn CutVerdict(props: &VerdictProps) -> Html {
    let l = props.lang;
    let cut = match &props.cut {
        Ok(c) => c,
        Err(e) => {
            return html! { <div id={format!("{}-verdict", props.id)} class="st-verdict refused" role="status">{ e.clone() }</div> }
        }
    };
    let hover = |r: RecordId| {
        let (a, b) = (props.on_hover.clone(), props.on_hover.clone());
        (Callback::from(move |_: MouseEvent| a.emit(Some(r))), Callback::from(move |_: MouseEvent| b.emit(None)))
    };
    let lit = |r: RecordId| (props.hovered == Some(r)).then_some("lit");
    let head = if cut.consistent() {
        l.t(
            "✓ Consistent: no arrow crosses the cut from the future into the past.",
            "✓ 一致：没有箭头从未来穿过切面回到过去。",
        )
    } else {
        l.t(
            "✗ Inconsistent: an arrow is received before the cut but sent after it.",
            "✗ 不一致：有箭头在切面之前被接收，却在切面之后才发送。",
        )
    };
    let arrows = cut.arrows.iter().map(|a| {
        let (enter, leave) = hover(a.record);
        let recv = match a.received_at {
            Some(r) => match l {
                Lang::En => format!("received at step {r}"),
                Lang::Zh => format!("第 {r} 步接收"),
            },
            None => l.t("never received", "从未接收").to_string(),
        };
        let sent = a.sent_at.unwrap_or(0);
        let why = match (a.crossing, l) {
            (Crossing::Orphan, Lang::En) => "counted before the cut, sent again after a restore from it",
            (Crossing::Orphan, Lang::Zh) => "在切面前已计入，从它恢复后会再次发送",
            (Crossing::InTransit, Lang::En) => {
                "sent before the cut, saved by no one: a restore from it never delivers it"
            }
            (Crossing::InTransit, Lang::Zh) => "在切面前已发送，无人保存：从它恢复后不会再投递",
        };
        let step = match l {
            Lang::En => format!("sent at step {sent}, {recv}"),
            Lang::Zh => format!("第 {sent} 步发送，{recv}"),
        };
        html! {
            <li class={classes!(if a.crossing == Crossing::Orphan { "orphan" } else { "in-transit" }, lit(a.record))}
                data-record={a.label.clone()} onmouseenter={enter} onmouseleave={leave}>
                <b>{ format!("{} {} {}", crossing_symbol(a.crossing), crossing_word(l, a.crossing), a.label) }</b>
                { format!(" — {} · {step} · {why}", a.channel_name) }
            </li>
        }
    });
    let restore = match &props.restore {
        None => html! {},
        Some(Err(e)) => html! { <p id={format!("{}-restore", props.id)} class="refused">{ e.clone() }</p> },
        Some(Ok(r)) => {
            let rows = r.ledger.rows.iter().map(|row| {
                let (sym, word) = verdict_mark(l, row.state_verdict);
                let orphan = cut.arrows.iter().find(|a| a.record == row.record && a.crossing == Crossing::Orphan);
                let transit = cut.arrows.iter().find(|a| a.record == row.record && a.crossing == Crossing::InTransit);
                let note = match (orphan, transit) {
                    (Some(o), Some(t)) => match l {
                        Lang::En => format!(
                            "an orphan on {} and in transit on {}: the restore sends it again on {} (once more there), and the copy \
                             in transit on {} is never delivered (once less there). The two cancel{}.",
                            o.channel_name, t.channel_name, o.channel_name, t.channel_name,
                            if row.state_verdict == Verdict::ExactlyOnce { ": the ledger counts it exactly once" } else { "" }),
                        Lang::Zh => format!(
                            "在 {} 上是孤儿消息，在 {} 上在途：恢复后它在 {} 上被再次发送（那里多一次），而在 {} 上在途的那份不会被投递（那里少一次）。两者相抵{}。",
                            o.channel_name, t.channel_name, o.channel_name, t.channel_name,
                            if row.state_verdict == Verdict::ExactlyOnce { "：账本记为精确一次" } else { "" }),
                    },
                    (Some(o), None) => match l {
                        Lang::En => format!("an orphan on {}: counted, and sent again", o.channel_name),
                        Lang::Zh => format!("在 {} 上是孤儿消息：已计入，又被再次发送", o.channel_name),
                    },
                    (None, Some(t)) => match l {
                        Lang::En => format!("in transit on {}: saved by no one", t.channel_name),
                        Lang::Zh => format!("在 {} 上在途：无人保存", t.channel_name),
                    },
                    (None, None) => String::new(),
                };
                let (enter, leave) = hover(row.record);
                html! {
                    <tr class={classes!(format!("v-{}", row.state_verdict.id()), lit(row.record))} data-record={row.label.clone()}
                        onmouseenter={enter} onmouseleave={leave}>
                        <td>{ row.label.clone() }</td>
                        <td>{ format!("{}/{}", row.state, row.expected_state) }</td>
                        <td>{ format!("{sym} {word}") }</td>
                        <td>{ note }</td>
                    </tr>
                }
            });
            let intro = match l {
                Lang::En => format!(
                    "A restore from this cut: a copy of the run crashed after step {}, every task put back to its state at its point, \
                     then run to its end ({} steps). The ledger then says:",
                    r.crashed_after, r.steps_to_end),
                Lang::Zh => format!(
                    "从这个切面恢复：运行的一个副本在第 {} 步之后崩溃，每个任务恢复到它的点上的状态，然后运行到结束（{} 步）。账本随后显示：",
                    r.crashed_after, r.steps_to_end),
            };
            html! {
                <div id={format!("{}-restore", props.id)}>
                    <p>{ intro }</p>
                    <table class="st-ledger">
                        <thead><tr>
                            <th>{ l.t("record", "记录") }</th>
                            <th>{ l.t("in state / failure-free", "状态中 / 无故障") }</th>
                            <th>{ l.t("verdict", "判定") }</th>
                            <th>{ l.t("why", "原因") }</th>
                        </tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
            }
        }
    };
    html! {
        <div id={format!("{}-verdict", props.id)} class={classes!("st-verdict", if cut.consistent() { "consistent" } else { "inconsistent" })}
            role="status" aria-live="polite" data-consistent={cut.consistent().to_string()}>
            <p class="st-head"><b>{ head }</b></p>
            if cut.arrows.is_empty() {
                <p>{ l.t("No arrow crosses it: nothing in transit, no orphan.", "没有箭头穿过它：没有在途记录，也没有孤儿消息。") }</p>
            } else {
                <ul id={format!("{}-crossing", props.id)} class="st-crossing">{ for arrows }</ul>
            }
            { restore }
        </div>
    }
}

/// The verdict on the learner's cut: how to draw one while points are missing, then
/// [`CutVerdict`].
pub fn your_cut(
    judged: &Judged,
    set: usize,
    n: usize,
    hovered: Option<RecordId>,
    on_hover: &Callback<Option<RecordId>>,
    l: Lang,
) -> Html {
    match judged {
        None => html! {
            <p id="st-verdict" class="st-verdict pending" role="status" aria-live="polite">{ match l {
                Lang::En => format!("Draw your own cut: click one point on each task line, or Tab to a line, move with ← →, and press Enter. {set} of {n} set."),
                Lang::Zh => format!("画出你自己的切面：在每条任务线上点一个点，或按 Tab 到一条线，用 ← → 移动，按 Enter 确定。已设 {set} / {n}。"),
            } }</p>
        },
        Some((cut, restore)) => {
            let cut = cut.clone().map_err(|e| error_text(l, &e));
            let restore = restore.clone().map(|r| r.map_err(|e| error_text(l, &e)));
            html! { <CutVerdict id="st" lang={l} {cut} {restore} hovered={hovered} on_hover={on_hover.clone()} /> }
        }
    }
}

/// The line under the diagram about the restore point now: the orphans and records in transit it
/// has, or that there is none yet.
pub fn restore_point_words(current: Option<&CutReport>, l: Lang) -> String {
    match current {
        None => {
            l.t("No restore point yet: no task has saved its state.", "还没有恢复点：没有任务保存过状态。").to_string()
        }
        Some(c) => {
            let (o, t) = (c.orphans().len(), c.in_transit().len());
            match l {
                Lang::En => format!("The solid purple line is the restore point now (the saves a restore would use): {o} ⊕ orphan, {t} ✗ in transit."),
                Lang::Zh => format!("紫色实线是现在的恢复点（恢复会用到的快照）：{o} 条 ⊕ 孤儿消息，{t} 条 ✗ 在途。"),
            }
        }
    }
}
