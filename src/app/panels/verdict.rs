//! The verdict panel: the tallies (state, output, paths, order) and every record's fate against
//! the failure-free run, as a ledger table, or (presenter mode, a lesson) as chips. A row of the
//! table is a component of its own, so a step redraws only the rows it changed.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::text::{
    complete_help, complete_mark, complete_tip, order_help, order_mark, order_tip, verdict_mark_now, Lang,
};
use crate::app::ui_state::Shared;
use crate::engine::core::ledger::LedgerRow;
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
