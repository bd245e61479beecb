//! The panels beside and under the canvas: the verdict (per-record ledger), the narration, the
//! Flink-style Checkpoints tab, checkpoint storage and the external system as a reader sees it.
//! Each is a component that gets the part of the run it shows, so a step that leaves that part as
//! it was does not draw the panel again.

use std::rc::Rc;

use yew::prelude::*;

use super::text::{
    complete_help, complete_mark, complete_tip, order_help, order_mark, order_tip, verdict_mark_now, Lang,
};
use super::ui_state::{Dispatch, Msg, Run, Shared};
use super::words_part::{use_words, Words};
use crate::classroom::{step_title, Command, Session};
use crate::engine::ledger::LedgerRow;
use crate::engine::*;

/// The ledger lists at most this many records unless more are lost or duplicated.
const LEDGER_ROWS: usize = 100;
/// Presenter mode shows at most this many records as chips.
const CHIPS: usize = 24;

fn verdict_class(v: Verdict) -> &'static str {
    v.id()
}

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    pub ledger: Rc<Ledger>,
    pub graph: Shared<JobGraph>,
    pub lang: Lang,
    /// The job is down: undecided records wait for the restore.
    pub down: bool,
    /// Presenter mode or a lesson: each record is a chip (its label and its fate) instead of a
    /// table row, and the tallies name only the counts that are not zero, so the whole verdict fits
    /// beside or under the canvas on a projector, and beside the lesson on a laptop.
    #[prop_or_default]
    pub chips: bool,
}

/// The verdict: the tallies and the per-record ledger against the failure-free run.
#[component]
pub fn VerdictPanel(props: &VerdictProps) -> Html {
    let (ledger, l, down) = (&props.ledger, props.lang, props.down);
    let head = |t: &Tally| {
        let v = t.headline();
        let (sym, word) = verdict_mark_now(l, v, down);
        html! { <span class={classes!("headline", verdict_class(v))}>{ format!("{sym} {word}") }</span> }
    };
    // The counts: in presenter mode only those that are not zero, so the tally fits a line.
    let counts = |parts: &[(u32, &str)]| {
        parts
            .iter()
            .filter(|(n, _)| !props.chips || *n > 0)
            .map(|(n, w)| format!("{n} {w}"))
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let tally = |t: &Tally| {
        counts(&[
            (t.exactly_once, l.t("exactly once", "精确一次")),
            (t.lost, l.t("lost", "丢失")),
            (t.duplicated, l.t("duplicated", "重复")),
            (t.pending, if down { l.t("waiting for the restore", "等待恢复") } else { l.t("on the way", "处理中") }),
        ])
    };
    let on_the_way = if down { l.t("waiting for the restore", "等待恢复") } else { l.t("on the way", "处理中") };
    let complete = &ledger.complete;
    let (cs, cw) = complete_mark(l, complete.headline(), down);
    let complete_count = counts(&[
        (complete.complete, l.t("complete", "完整")),
        (complete.incomplete, l.t("incomplete", "不完整")),
        (complete.pending, on_the_way),
    ]);
    let order = &ledger.order;
    let (os, ow) = order_mark(l, order.headline(), down);
    let order_count = counts(&[
        (order.in_order, l.t("in order", "有序")),
        (order.out_of_order, l.t("out of order", "乱序")),
        (order.pending, on_the_way),
    ]);
    let has_ext = ledger.external.is_some();
    // A big generated input: list every lost, duplicated, incomplete or out-of-order record, then
    // others up to the cap.
    let notable = |r: &&LedgerRow| {
        matches!(r.state_verdict, Verdict::Lost | Verdict::Duplicated)
            || matches!(r.external_verdict, Some(Verdict::Lost | Verdict::Duplicated))
            || r.complete_verdict == Completeness::Incomplete
            || r.order_verdict == Order::OutOfOrder
    };
    let mut room = LEDGER_ROWS.saturating_sub(ledger.rows.iter().filter(notable).count());
    let shown: Vec<usize> = (0..ledger.rows.len())
        .filter(|i| {
            let r = &&ledger.rows[*i];
            notable(r) || {
                let keep = room > 0;
                room = room.saturating_sub(1);
                keep
            }
        })
        .collect();
    let hidden = ledger.rows.len() - shown.len();
    html! {
        <section id="verdict" class="panel verdict" aria-labelledby="verdict-title">
            <h2 id="verdict-title">{ l.t("Verdict: every record", "判定：每条记录") }</h2>
            <p class="tally" id="tally-state"><span class="tally-label">{ l.t("State", "状态") }</span>{ head(&ledger.state) }
                <span class="tally-count">{ tally(&ledger.state) }</span></p>
            { ledger.external.as_ref().map(|e| html! {
                <p class="tally" id="tally-external"><span class="tally-label">{ l.t("Output", "输出") }</span>{ head(e) }
                    <span class="tally-count">{ tally(e) }</span></p>
            }).unwrap_or_default() }
            <p class="tally" id="tally-complete" title={complete_help(l)}><span class="tally-label">{ l.t("Paths", "路径") }</span>
                <span class={classes!("headline", complete_class(complete.headline()))}>{ format!("{cs} {cw}") }</span>
                <span class="tally-count">{ complete_count }</span></p>
            <p class="tally" id="tally-order" title={order_help(l)}><span class="tally-label">{ l.t("Order", "顺序") }</span>
                <span class={classes!("headline", order_class(order.headline()))}>{ format!("{os} {ow}") }</span>
                <span class="tally-count">{ order_count }</span></p>
            if props.chips {
                { record_chips(ledger, &shown, l, down) }
            } else {
            <div class="ledger-scroll" tabindex="0" role="region" aria-label={l.t("Per-record ledger", "逐条记录账本")}>
            <table id="ledger" class="ledger">
                <caption class="sr-only">{ l.t("Per-record ledger against the failure-free run", "与无故障运行对比的逐条记录账本") }</caption>
                <thead><tr>
                    <th scope="col">{ l.t("record", "记录") }</th>
                    <th scope="col">{ l.t("key", "键") }</th>
                    <th scope="col" title={l.t("times reflected in operator state / in the failure-free run", "在算子状态中出现的次数 / 无故障运行中")}>{ l.t("in state", "状态中") }</th>
                    { if has_ext { html!{ <th scope="col" title={l.t("times a reader sees it / in the failure-free run", "读者看到的次数 / 无故障运行中")}>{ l.t("in output", "输出中") }</th> } } else { html!{} } }
                    <th scope="col" class="col-paths-order"><span title={complete_help(l)}>{ l.t("paths", "路径") }</span>
                        { " · " }<span title={order_help(l)}>{ l.t("order", "顺序") }</span></th>
                </tr></thead>
                <tbody>
                // A row per record, keyed by it, in a list of their own: a step redraws the rows it
                // changed.
                <>{ for shown.into_iter().map(|i| html! {
                    <LedgerRowView key={i} ledger={props.ledger.clone()} index={i} graph={props.graph.clone()} lang={l} down={down} />
                }) }</>
                </tbody>
            </table>
            { if hidden > 0 { html!{ <p class="muted" id="ledger-more">{ if l == Lang::Zh {
                format!("另有 {hidden} 条记录未列出（精确一次或处理中）；丢失、重复、不完整和乱序的记录全部列出。")
              } else {
                format!("{hidden} more records not listed (exactly once or on their way); every lost, duplicated, incomplete or out-of-order record is listed.")
              } }</p> } } else { html!{} } }
            </div>
            }
        </section>
    }
}

/// The records as chips, for presenter mode: a row of them (with an external system, one for the
/// state and one for what a reader sees), each its label and its fate's symbol, with a mark for
/// a record that is incomplete or out of order. Read aloud, each says its fate in words.
fn record_chips(ledger: &Ledger, shown: &[usize], l: Lang, down: bool) -> Html {
    // A big generated input: the notable records first (as the table lists them), up to a row's
    // worth more, and how many are left out.
    let shown = &shown[..shown.len().min(CHIPS)];
    let more = ledger.rows.len() - shown.len();
    let more = (more > 0).then(|| {
        html! { <li class="rec-chip more" id="verdict-more">{ if l == Lang::Zh {
            format!("另有 {more} 条")
        } else {
            format!("+{more} more")
        } }</li> }
    });
    let chip = |r: &LedgerRow, v: Verdict, n: u32, of: u32| {
        let (sym, word) = verdict_mark_now(l, v, down);
        let (cs, cw) = complete_mark(l, r.complete_verdict, down);
        let (os, ow) = order_mark(l, r.order_verdict, down);
        // Paths and order only where they add to the fate: a lost record is incomplete anyway.
        let extra: String = [
            (r.complete_verdict == Completeness::Incomplete && v != Verdict::Lost).then_some(cs),
            (r.order_verdict == Order::OutOfOrder).then_some(os),
        ]
        .into_iter()
        .flatten()
        .map(|m| format!(" ·{m}"))
        .collect();
        let said = if l == Lang::Zh {
            format!("{}：{word}（{n}/{of}），{cw}，{ow}", r.label)
        } else {
            format!("{}: {word} ({n} of {of}), {cw}, {ow}", r.label)
        };
        html! {
            <li class={classes!("rec-chip", verdict_class(v))} data-record={r.label.clone()} data-verdict={v.id()}
                data-complete={r.complete_verdict.id()} data-order={r.order_verdict.id()} aria-label={said.clone()} title={said}>
                <span aria-hidden="true">{ format!("{} {sym}{extra}", r.label) }</span>
            </li>
        }
    };
    let row = |id: &'static str, label: Option<&'static str>, chips: Html| {
        html! {
            <div class="chip-row" id={id}>
                if let Some(label) = label { <span class="tally-label">{ label }</span> }
                <ul class="rec-chips" aria-label={label.unwrap_or(l.t("Each record", "每条记录"))}>{ chips }</ul>
            </div>
        }
    };
    let rows = || shown.iter().map(|&i| &ledger.rows[i]);
    let state =
        rows().map(|r| chip(r, r.state_verdict, r.state, r.expected_state)).chain(more.clone()).collect::<Html>();
    match ledger.external.is_some() {
        false => row("verdict-records", None, state),
        true => html! { <div id="verdict-records">
            { row("verdict-records-state", Some(l.t("State", "状态")), state) }
            { row("verdict-records-output", Some(l.t("Output", "输出")), rows().filter_map(|r| {
                r.external_verdict.map(|v| chip(r, v, r.external, r.expected_external))
            }).chain(more).collect::<Html>()) }
        </div> },
    }
}

/// One row of the ledger: `ledger.rows[index]`.
#[derive(Properties)]
pub struct LedgerRowProps {
    pub ledger: Rc<Ledger>,
    pub index: usize,
    pub graph: Shared<JobGraph>,
    pub lang: Lang,
    pub down: bool,
}

impl PartialEq for LedgerRowProps {
    fn eq(&self, other: &Self) -> bool {
        self.ledger.rows[self.index] == other.ledger.rows[other.index]
            && self.graph == other.graph
            && self.lang == other.lang
            && self.down == other.down
    }
}

#[component]
fn LedgerRowView(props: &LedgerRowProps) -> Html {
    let (r, l) = (&props.ledger.rows[props.index], props.lang);
    let colour = crate::app::key_colours::key_colour(props.graph.record(r.record).key);
    let (ss, sw) = verdict_mark_now(l, r.state_verdict, props.down);
    let (cs, cw) = complete_mark(l, r.complete_verdict, props.down);
    let (os, ow) = order_mark(l, r.order_verdict, props.down);
    let g = &props.graph;
    html! {
        <tr data-record={r.label.clone()} data-verdict={r.state_verdict.id()}
            data-external={r.external_verdict.map(|v| v.id()).unwrap_or("none")}
            data-complete={r.complete_verdict.id()} data-order={r.order_verdict.id()}>
            <th scope="row"><span class="rec-dot" style={format!("background:{colour}")}></span>{ r.label.clone() }</th>
            <td>{ r.key.clone() }</td>
            // The count and the word may go on two lines when the panel is narrow, never apart
            // within either.
            <td class={classes!("v", verdict_class(r.state_verdict))}>
                <span>{ format!("{ss} {}/{}", r.state, r.expected_state) }</span>{ " " }<span>{ sw }</span></td>
            { match r.external_verdict {
                Some(v) => { let (es, ew) = verdict_mark_now(l, v, props.down); html!{
                    <td class={classes!("v", verdict_class(v))}>
                        <span>{ format!("{es} {}/{}", r.external, r.expected_external) }</span>{ " " }<span>{ ew }</span></td> } }
                None => html!{},
            } }
            // Completeness over order, stacked in one cell: the ledger stays narrow enough for the
            // panel.
            <td class="v2">
                <span class={classes!("mark", complete_class(r.complete_verdict))} data-what="complete"
                    title={complete_tip(l, g, r.complete_verdict, &r.incomplete_at, props.down)}>{ format!("{cs}\u{a0}{cw}") }</span>
                <span class="sr-only">{ "; " }</span>
                <span class={classes!("mark", order_class(r.order_verdict))} data-what="order"
                    title={order_tip(l, g, r.order_verdict, &r.out_of_order_at, props.down)}>{ format!("{os}\u{a0}{ow}") }</span>
            </td>
        </tr>
    }
}

fn complete_class(v: Completeness) -> &'static str {
    match v {
        Completeness::Complete => "v-complete",
        Completeness::Incomplete => "v-incomplete",
        Completeness::Pending => "pending",
    }
}

fn order_class(v: Order) -> &'static str {
    match v {
        Order::InOrder => "v-in-order",
        Order::OutOfOrder => "v-out-of-order",
        Order::Pending => "pending",
    }
}

#[derive(Properties, PartialEq)]
pub struct RunProps {
    pub run: Run,
    pub lang: Lang,
}

/// What happened: the last steps in plain words, newest first. Each step is drawn once.
/// One event in words: the dataflow's and Flink's come with the words part, Storm's and Spark
/// Streaming's with their bands' part; "…" while the part is on its way.
fn words(said: Option<Words>, e: &crate::engine::Event, g: &JobGraph, l: Lang) -> String {
    let waiting = || l.t("…", "…").to_string();
    let Some(w) = said else { return waiting() };
    (w.narrate)(e, g, l)
        .unwrap_or_else(|| super::bands_part::bands_now().map_or_else(waiting, |b| (b.narrate)(e, g, l)))
}

#[component]
pub fn NarrationPanel(props: &RunProps) -> Html {
    let l = props.lang;
    let session = props.run.session();
    let sim = session.sim();
    let said = use_words(!session.narration.is_empty());
    html! {
        <ol id="narration" class="narration" reversed=true>
            { if session.narration.is_empty() {
                html!{ <li class="hint">{ l.t(
                    "Nothing has happened yet. Click a source's Read button, a channel, or press → to step.",
                    "尚未发生任何事。点击数据源的“读取”、某个通道，或按 → 单步执行。") }</li> }
              } else { html!{} } }
            // Keyed by step, in a list of their own (keys among unkeyed siblings are not used). A
            // step is drawn again only if its words change.
            <>{ for session.narration.iter().rev().map(|s| html! {
                <NarrationStep key={s.step} step={s.step} title={step_title(sim, s, l)}
                    lines={s.events.iter().map(|e| words(said, e, &sim.graph, l)).collect::<Vec<_>>()} lang={l} />
            }) }</>
        </ol>
    }
}

/// One step of the narration in words: what it was, and a line per event.
#[derive(Properties, PartialEq)]
pub struct NarrationStepProps {
    pub step: usize,
    pub title: String,
    pub lines: Vec<String>,
    pub lang: Lang,
}

#[component]
fn NarrationStep(props: &NarrationStepProps) -> Html {
    let (step, l) = (props.step, props.lang);
    html! {
        <li data-step={step.to_string()}>
            <span class="step-no">{ format!("{} {}", l.t("Step", "第"), step) }{ l.t("", " 步") }</span>
            // A space between the two, so a screen reader says "Step 5 take…", not "Step 5take…".
            { " " }<span class="step-action">{ props.title.clone() }</span>
            <ul>{ for props.lines.iter().map(|line| html!{ <li>{ line.clone() }</li> }) }</ul>
        </li>
    }
}

fn abort_reason_short_zh(r: crate::engine::AbortReason) -> &'static str {
    use crate::engine::AbortReason::*;
    match r {
        Subsumed => "被取代",
        DeclinedSubsumed => "被拒绝（更新的屏障）",
        DeclinedOnCancellationBarrier => "被拒绝（取消标记）",
        Expired => "超时",
        TaskFailure => "任务失败",
        JobManagerFailure => "JobManager 故障",
        JobFailure => "作业故障",
        CoordinatorSuspend => "为停止并保存而暂停",
        CoordinatorShutdown => "作业被取消",
    }
}

fn status_text(l: Lang, s: CheckpointStatus) -> String {
    match s {
        CheckpointStatus::InProgress => l.t("in progress", "进行中").into(),
        CheckpointStatus::Completed => l.t("✓ completed", "✓ 已完成").into(),
        CheckpointStatus::Failed(r) => format!(
            "{} {}",
            l.t("✗ failed:", "✗ 失败："),
            if l == Lang::Zh { abort_reason_short_zh(r) } else { r.id() }
        ),
    }
}

/// What the Checkpoints tab shows: the whole history's checkpoints, as of its last step, whatever
/// step the timeline shows (a checkpoint clicked keeps its completed figures, and the later ones
/// stay listed).
#[derive(PartialEq)]
pub struct CheckpointsView {
    coordinated: bool,
    stats: CheckpointStats,
    /// The clock at the end of the history, while a checkpoint is in progress (its duration grows).
    now: u64,
    selected: Option<CheckpointId>,
    graph: Shared<JobGraph>,
    /// The step the timeline shows, when it is before the end (`end`): checkpoints triggered from
    /// it on are later than what the canvas shows.
    at: Option<u64>,
    end: u64,
}

impl CheckpointsView {
    pub fn of(session: &Session) -> CheckpointsView {
        let last = session.timeline.last();
        let open = last.stats.history.iter().any(|r| r.end_tick.is_none());
        CheckpointsView {
            coordinated: last.strategy().uses_coordinator(),
            stats: last.stats.clone(),
            now: if open { last.tick } else { 0 },
            selected: session.selected,
            graph: Shared(last.graph.clone()),
            at: (!session.at_end()).then_some(session.sim().tick),
            end: last.tick,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct CheckpointsProps {
    pub view: CheckpointsView,
    pub lang: Lang,
    pub dispatch: Dispatch,
}

/// Flink's Checkpoints tab: counts, the latest checkpoints, and one checkpoint per subtask.
#[component]
pub fn CheckpointsPanel(props: &CheckpointsProps) -> Html {
    let (v, l) = (&props.view, props.lang);
    if !v.coordinated {
        return html! { <>
            <p class="hint" id="checkpoints">{ l.t(
            "This strategy takes no checkpoints. Choose aligned, at-least-once, unaligned or stop-the-world to see the CheckpointCoordinator at work.",
            "此策略不做检查点。选择对齐、至少一次、非对齐或全局暂停，即可看到检查点协调器的工作。") }</p>
            { failovers(v, l) }
        </> };
    }
    let stats = &v.stats;
    let c = stats.counts();
    let selected = v.selected.and_then(|id| stats.history.iter().find(|r| r.id == id));
    let g = &*v.graph;
    let later = |r: &CheckpointRecord| v.at.is_some_and(|at| r.trigger_tick >= at);
    html! {
        <div id="checkpoints" class="checkpoints">
            { v.at.map(|at| html! { <p class="muted" id="checkpoints-as-of">{ if l == Lang::Zh {
                format!("表中是整个历史到最后一步（第 {} 步）的检查点；时间线在第 {at} 步，之后触发的检查点标为“之后”。", v.end)
              } else {
                format!("The table shows the whole history, as of its last step ({}); the timeline is at step {at}. Checkpoints triggered after it are marked later.", v.end)
              } }</p> }).unwrap_or_default() }
            <p class="counts">{ format!("{} {} · {} {} · {} {} · {} {} · {} {}",
                l.t("triggered", "已触发"), c.triggered, l.t("in progress", "进行中"), c.in_progress,
                l.t("completed", "已完成"), c.completed, l.t("failed", "失败"), c.failed, l.t("restored", "已恢复"), c.restored) }</p>
            <table class="history">
                <thead><tr>
                    <th scope="col">{"ID"}</th><th scope="col">{ l.t("status", "状态") }</th><th scope="col">{ l.t("acknowledged", "已确认") }</th>
                    <th scope="col">{ l.t("trigger step", "触发步") }</th><th scope="col">{ l.t("latest ack", "最后确认") }</th>
                    <th scope="col">{ l.t("end to end (steps)", "端到端（步）") }</th><th scope="col">{ l.t("state size (B)", "状态大小（字节）") }</th>
                    <th scope="col">{ l.t("persisted in-flight", "持久化在途记录") }</th><th scope="col">{ l.t("stall", "停顿") }</th>
                </tr></thead>
                <tbody>
                { for stats.history.iter().rev().take(10).map(|r| {
                    let id = r.id;
                    let d = props.dispatch.clone();
                    let onclick = Callback::from(move |_| d.dispatch(Msg::Cmd(Command::SelectCheckpoint(id))));
                    let is_sel = v.selected == Some(id);
                    let later = later(r);
                    html! {
                        <tr data-checkpoint={id.0.to_string()} class={classes!(is_sel.then_some("selected"), later.then_some("later"))}
                            data-later={later.to_string()}>
                            <td><button class="linkish" onclick={onclick} aria-pressed={is_sel.to_string()}
                                title={l.t("Move the timeline to this checkpoint's trigger", "把时间线移到此检查点的触发时刻")}>{ id.0 }</button>
                                { if later { html!{ <span class="later-mark">{ l.t(" later", " 之后") }</span> } } else { html!{} } }</td>
                            <td>{ status_text(l, r.status) }</td>
                            <td>{ format!("{}/{}", r.acked, r.total) }</td>
                            <td>{ r.trigger_tick + 1 }</td>
                            <td>{ r.latest_ack.map_or("–".to_string(), |t| (t + 1).to_string()) }</td>
                            <td>{ r.duration(v.now) }</td>
                            <td>{ r.state_size }</td>
                            <td>{ r.in_flight }</td>
                            <td>{ r.stall.map_or("–".to_string(), |s| s.to_string()) }</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            { selected.map(|r| html! {
                <table class="subtasks" id="subtasks">
                    <caption>{ format!("{} {} — {}", l.t("Checkpoint", "检查点"), r.id.0, l.t("per subtask", "各子任务")) }</caption>
                    <thead><tr><th scope="col">{ l.t("task", "任务") }</th><th scope="col">{ l.t("acknowledged at", "确认于") }</th>
                        <th scope="col">{ l.t("start delay", "启动延迟") }</th><th scope="col">{ l.t("alignment", "对齐耗时") }</th>
                        <th scope="col">{ l.t("unaligned", "非对齐") }</th><th scope="col">{ l.t("state (B)", "状态（字节）") }</th>
                        <th scope="col">{ l.t("in-flight", "在途") }</th></tr></thead>
                    <tbody>{ for r.subtasks.iter().enumerate().map(|(i, s)| html! {
                        <tr><th scope="row">{ g.tasks[i].name.clone() }</th>
                            <td>{ s.ack_tick.map_or("–".to_string(), |t| (t + 1).to_string()) }</td>
                            <td>{ s.start_delay.map_or("–".to_string(), |v| v.to_string()) }</td>
                            <td>{ s.alignment.map_or("–".to_string(), |v| v.to_string()) }</td>
                            <td>{ if s.unaligned { l.t("yes", "是") } else { l.t("no", "否") } }</td>
                            <td>{ s.state_size }</td><td>{ s.in_flight }</td></tr>
                    }) }</tbody>
                </table>
            }).unwrap_or_default() }
            { failovers(v, l) }
        </div>
    }
}

/// The failovers of the run: what failed, the step it failed and the step the job ran again, the
/// steps between, how it came back (restarted tasks, a standby's election, a resubmission) and
/// from what; and the checkpoints of the job's earlier submissions (no HA: a resubmitted job is a
/// new job). So a JobManager failure with and without a standby compare in steps.
fn failovers(v: &CheckpointsView, l: Lang) -> Html {
    let stats = &v.stats;
    if stats.failovers.is_empty() && stats.earlier_submissions.is_empty() {
        return html! {};
    }
    let g = &*v.graph;
    let cause = |c: FailureCause| match c {
        FailureCause::Cluster => l.t("the cluster crashed", "集群崩溃").to_string(),
        FailureCause::Task(t) => {
            format!("{} {}", g.task(t).name, l.t("failed (every task restarts)", "失败（所有任务重启）"))
        }
        FailureCause::Region(t) => {
            format!("{} {}", g.task(t).name, l.t("failed (its region restarts)", "失败（其区域重启）"))
        }
        FailureCause::JobManager => l.t("the JobManager failed", "JobManager 故障").to_string(),
        FailureCause::JobManagerWithStandby => {
            l.t("the JobManager failed (a standby waits)", "JobManager 故障（有备用）").to_string()
        }
        FailureCause::JobManagerWithoutHa => {
            l.t("the JobManager failed (no HA: the job fails)", "JobManager 故障（无高可用：作业失败）").to_string()
        }
        FailureCause::Nimbus => l.t("Nimbus died", "Nimbus 故障").to_string(),
        FailureCause::TooManyFailedCheckpoints => l.t("too many failed checkpoints", "失败的检查点过多").to_string(),
    };
    let how = |t: Option<Takeover>| match t {
        None => l.t("still down", "仍在停止").to_string(),
        Some(Takeover::Restart) => l.t("the tasks restarted", "任务重启").to_string(),
        Some(Takeover::Election { leader }) => match l {
            Lang::Zh => format!("{} 赢得选举", leader.letter()),
            _ => format!("{} won the election", leader.letter()),
        },
        Some(Takeover::Resubmission { submission }) => match l {
            Lang::Zh => format!("新 JobManager，重新提交（第 {submission} 次提交）"),
            _ => format!("a new JobManager, then resubmitted (submission {submission})"),
        },
        Some(Takeover::KeptRunning) => {
            l.t("nothing stopped: the workers kept running", "什么都没停：worker 继续运行").to_string()
        }
    };
    let from = |r: Option<RestoreFrom>| match r {
        None => "–".to_string(),
        Some(RestoreFrom::Checkpoint { checkpoint }) => format!("{} {}", l.t("checkpoint", "检查点"), checkpoint.0),
        Some(RestoreFrom::Nothing) => l.t("nothing (empty state, offset 0)", "无（空状态，偏移量 0）").to_string(),
        Some(RestoreFrom::OwnSaves) => l.t("each task's own save", "各任务自己的保存").to_string(),
        Some(RestoreFrom::Policy) => l.t("the restart policy", "重启策略").to_string(),
        Some(RestoreFrom::Committed) => l.t("the committed offsets", "已提交的偏移量").to_string(),
        Some(RestoreFrom::MetadataCheckpoint { .. }) => l.t("the metadata checkpoint", "元数据检查点").to_string(),
    };
    let later = |f: &FailoverRecord| v.at.is_some_and(|at| f.failed_tick >= at);
    html! {
        <div class="failovers">
            { for stats.earlier_submissions.iter().enumerate().map(|(i, h)| {
                let rows: Vec<String> = h.iter().map(|r| format!("{} {}", r.id.0, status_text(l, r.status))).collect();
                let rows = if rows.is_empty() { l.t("none", "无").to_string() } else { rows.join(" · ") };
                html! { <p class="muted earlier-submission" data-submission={(i + 1).to_string()}>{ match l {
                    Lang::Zh => format!("第 {} 次提交（已失败的作业）的检查点：{rows}", i + 1),
                    _ => format!("Checkpoints of submission {} (the failed job): {rows}", i + 1),
                } }</p> }
            }) }
            { if stats.failovers.is_empty() { html!{} } else { html! {
                <table class="failovers-table" id="failovers">
                    <caption>{ l.t("Failovers: steps from the failure to running again", "故障转移：从故障到重新运行的步数") }</caption>
                    <thead><tr>
                        <th scope="col">{ l.t("what failed", "故障") }</th>
                        <th scope="col">{ l.t("steps down (failed → running)", "停止步数（故障 → 运行）") }</th>
                        <th scope="col">{ l.t("how it came back", "如何恢复") }</th><th scope="col">{ l.t("restored from", "恢复自") }</th>
                    </tr></thead>
                    <tbody>{ for stats.failovers.iter().map(|f| html! {
                        <tr class={classes!(later(f).then_some("later"))} data-steps-down={f.steps_down().map(|s| s.to_string())}>
                            <td>{ cause(f.cause) }</td>
                            <td class="steps">{ match (f.steps_down(), f.running_tick) {
                                (Some(n), Some(t)) => format!("{n} ({} → {})", f.failed_tick + 1, t + 1),
                                _ => format!("– ({} → …)", f.failed_tick + 1),
                            } }</td>
                            <td>{ how(f.takeover) }</td>
                            <td>{ from(f.restored) }</td>
                        </tr>
                    }) }</tbody>
                </table>
            } } }
        </div>
    }
}

fn describe_state(g: &JobGraph, s: &OpState, l: Lang) -> String {
    match s {
        OpState::Source { next_offset } => format!("{} {next_offset}", l.t("offset", "偏移量")),
        OpState::Stateless => l.t("stateless", "无状态").into(),
        OpState::Keyed { entries } => {
            if entries.is_empty() {
                return l.t("empty", "空").into();
            }
            entries
                .iter()
                .map(|(k, e)| {
                    let labels: Vec<&str> = e.contributors.iter().map(|r| g.label(*r)).collect();
                    format!("{}={} {{{}}}", g.key_name(*k), e.contributors.len(), labels.join(" "))
                })
                .collect::<Vec<_>>()
                .join("; ")
        }
        OpState::Sink { pending, .. } => {
            if pending.is_empty() {
                l.t("no pre-committed transactions", "无预提交事务").into()
            } else {
                format!(
                    "{} {}",
                    l.t("pre-committed:", "已预提交："),
                    pending
                        .iter()
                        .map(|(c, t)| format!("T{} ({} {})", t.0, l.t("chk", "检查点"), c.0))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct StorageProps {
    pub storage: CheckpointStorage,
    /// Spark Streaming: what its checkpoint directory and write-ahead log hold, a line each.
    pub spark: Vec<String>,
    pub strategy: Strategy,
    pub graph: Shared<JobGraph>,
    pub lang: Lang,
    /// The user's savepoints (they outlive the job, in the user's directory).
    #[prop_or_default]
    pub savepoints: Vec<crate::engine::Savepoint>,
    /// How the job ended, if it was stopped or cancelled.
    #[prop_or_default]
    pub stopped: Option<crate::engine::JobEnd>,
    /// The engine's step at the timeline's first step: a job submitted again from a savepoint
    /// counts its steps from there, and so do the steps shown here.
    #[prop_or_default]
    pub first_tick: u64,
}

/// Checkpoint storage: what a restore would find.
#[component]
pub fn StoragePanel(props: &StorageProps) -> Html {
    let (storage, g, l) = (&props.storage, &*props.graph, props.lang);
    let snap_rows = |snaps: Vec<&TaskSnapshot>| {
        html! { <ul class="snapshots">{ for snaps.into_iter().map(|s| {
            let inflight: Vec<String> = s.in_flight.iter().map(|(c, _, r)| format!("{} ({})", g.label(r.id), g.channel(*c).name)).collect();
            html! { <li><strong>{ g.task(s.task).name.clone() }</strong>{ ": " }{ describe_state(g, &s.state, l) }
                { if inflight.is_empty() { html!{} } else { html!{ <span class="inflight">{ format!(" · {} {}", l.t("in-flight:", "在途："), inflight.join(", ")) }</span> } } }
            </li> }
        }) }</ul> }
    };
    let body = match props.strategy {
        Strategy::Timers => {
            let any = storage.saves.iter().any(|s| !s.is_empty());
            if !any {
                html! { <p class="hint">{ l.t("No task has saved yet. Fire a timer (◷ Save) or all timers (T).", "还没有任务保存过。触发定时器（◷ 保存）或全部定时器（T）。") }</p> }
            } else {
                html! { <>
                    <p class="muted">{ l.t("Each task's latest own save (used on restore):", "各任务自己最近一次保存（恢复时使用）：") }</p>
                    { snap_rows(storage.saves.iter().filter_map(|s| s.last()).collect()) }
                    <ul class="snapshots">{ for storage.saves.iter().enumerate().filter(|(_, s)| !s.is_empty()).map(|(i, s)|
                        html!{ <li class="muted">{ format!("{} {} {}", g.tasks[i].name, l.t("saved at step", "保存于第"), s.iter().map(|x| (x.tick + 1).to_string()).collect::<Vec<_>>().join(", ")) }</li> }) }</ul>
                </> }
            }
        }
        s if s.uses_coordinator() => {
            // A step of this timeline (a job submitted again counts from its submission); a save
            // from before it is named by its savepoint.
            let step = |tick: u64| tick.checked_sub(props.first_tick).map(|t| t + 1);
            let at = |what: (&'static str, &'static str), tick: u64| match step(tick) {
                Some(n) => format!("{} {n}", l.t(what.0, what.1)),
                None => l.t("before this job was submitted", "在这个作业提交之前").to_string(),
            };
            let checkpoints = if storage.completed.is_empty() {
                let hint = match props.stopped {
                    Some(_) => l.t(
                        "No checkpoint is kept: a job that ended deletes its checkpoints. Its savepoints stay.",
                        "没有保留的检查点：作业结束时会删除它的检查点。它的保存点仍在。",
                    ),
                    None => l.t(
                        "No completed checkpoint yet. Trigger one (C) and deliver its barriers.",
                        "还没有已完成的检查点。触发一个（C）并投递其屏障。",
                    ),
                };
                html! { <p class="hint" id="storage-no-checkpoint">{ hint }</p> }
            } else {
                html! { <>{ for storage.completed.iter().rev().map(|c| html! {
                    <div class="stored-checkpoint" data-checkpoint={c.id.0.to_string()}>
                        <h3>{ format!("chk-{}/_metadata · {}", c.id.0, at(("completed at step", "完成于第"), c.completed_tick)) }{ if l == Lang::Zh && step(c.completed_tick).is_some() { " 步" } else { "" } }</h3>
                        { snap_rows(c.snapshots.iter().collect()) }
                    </div>
                }) }</> }
            };
            html! { <>
                { checkpoints }
                { for props.savepoints.iter().rev().map(|sp| {
                    let c = &sp.checkpoint;
                    let what = match (l, sp.stop) {
                        (Lang::En, false) => format!("savepoint {} (yours: it outlives the job)", c.id.0),
                        (Lang::En, true) => format!("savepoint {}, taken by the stop (yours: it outlives the job)", c.id.0),
                        (Lang::Zh, false) => format!("保存点 {}（属于你：作业结束后仍在）", c.id.0),
                        (Lang::Zh, true) => format!("保存点 {}，停止时所做（属于你：作业结束后仍在）", c.id.0),
                    };
                    html! {
                        <div class="stored-checkpoint stored-savepoint" data-savepoint={c.id.0.to_string()}>
                            <h3>{ format!("{what} · {}", at(("completed at step", "完成于第"), c.completed_tick)) }{ if l == Lang::Zh && step(c.completed_tick).is_some() { " 步" } else { "" } }</h3>
                            { snap_rows(c.snapshots.iter().collect()) }
                        </div>
                    }
                }) }
            </> }
        }
        Strategy::SparkStreaming => {
            html! { <ul class="snapshots">{ for props.spark.iter().map(|x| html! { <li>{ x.clone() }</li> }) }</ul> }
        }
        _ => {
            html! { <p class="hint">{ l.t("Nothing is saved with this strategy: a restore starts every task empty.", "此策略不保存任何状态：恢复时每个任务都从空开始。") }</p> }
        }
    };
    html! {
        <section id="storage" class="panel storage" aria-labelledby="storage-title">
            <h2 id="storage-title">{ l.t("Checkpoint storage (survives crashes)", "检查点存储（崩溃后仍在）") }</h2>
            { body }
        </section>
    }
}

/// The external system as a reader sees it, and the sink's transactions (drawn with the tab).
pub fn external_panel(sim: &Sim, l: Lang) -> Html {
    let (external, sink, g) = (sim.external(), &sim.settings.sink, &*sim.graph);
    if !g.has_sink() {
        return html! { <p class="hint" id="external">{ l.t(
        "This job has no sink. Choose line-sink or keyed-shuffle to watch an external system.",
        "此作业没有输出端。选择 line-sink 或 keyed-shuffle 来观察外部系统。") }</p> };
    }
    let visible = external.visible();
    html! {
        <div id="external" class="external-panel">
            <p>{ format!("{}: {} {}", super::text::sink_name(l, *sink), visible.len(), l.t("row(s) visible to a reader", "行对读者可见")) }</p>
            <p class="rows">{ for visible.iter().map(|r| html!{
                <span class="row-chip" style={format!("border-color:{}", crate::app::key_colours::key_colour(g.record(r.record).key))}>{ format!("{}={}", g.label(r.record), r.value) }</span> }) }</p>
            { if external.txns.is_empty() { html!{} } else { html! {
                <table class="txns"><thead><tr><th scope="col">{ l.t("transaction", "事务") }</th><th scope="col">{ l.t("status", "状态") }</th><th scope="col">{ l.t("rows", "行") }</th></tr></thead>
                <tbody>{ for external.txns.iter().rev().take(12).map(|t| html! {
                    <tr data-txn={t.id.0.to_string()}><td>{ format!("T{}", t.id.0) }</td>
                        <td>{ match t.status {
                            TxnStatus::Open => l.t("open (invisible)", "打开（不可见）").to_string(),
                            TxnStatus::PreCommitted(c) => format!("{} {}", l.t("pre-committed for chk", "已为检查点预提交"), c.0),
                            TxnStatus::Committed => l.t("✓ committed (visible)", "✓ 已提交（可见）").to_string(),
                            TxnStatus::Aborted => l.t("✗ aborted (never visible)", "✗ 已中止（永不可见）").to_string(),
                        } }</td>
                        <td>{ t.rows.iter().map(|r| g.label(r.record)).collect::<Vec<_>>().join(" ") }</td></tr>
                }) }</tbody></table>
            } } }
        </div>
    }
}
