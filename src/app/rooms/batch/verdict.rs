//! What recovery cost: the headline (every word exactly once, or not yet, or not), the cost table
//! against the failure-free run (task runs, records read again, partitions recomputed, reads from
//! memory and checkpoints, FetchFailed), and the ledger of every output word.

use yew::prelude::*;

use super::words::verdict_mark;
use crate::engine::batch::{BatchLedger, BatchRun, BatchSim, BatchVerdict, Cost};
use crate::engine::Lang;

pub fn verdict(run: &BatchRun, l: Lang) -> Html {
    let ledger = run.ledger();
    html! {
        <section class="panel verdict" aria-labelledby="batch-verdict-title">
            <h2 id="batch-verdict-title">{ l.t("What recovery cost", "恢复的代价") }</h2>
            <p id="batch-headline" class={classes!("headline", ledger.exactly_once().then_some("exactly-once"))} data-exactly-once={ledger.exactly_once().to_string()}>{ headline(&ledger, l) }</p>
            { cost_table(run.sim().cost(), run.baseline, matches!(run.sim(), BatchSim::Hadoop(_)), l) }
            { ledger_table(&ledger, l) }
        </section>
    }
}

fn headline(ledger: &BatchLedger, l: Lang) -> String {
    let written = ledger.rows.iter().filter(|r| !r.written.is_empty()).count();
    if ledger.exactly_once() {
        l.t("✓ Every word written exactly once", "✓ 每个词都恰好写出一次").to_string()
    } else if ledger.rows.iter().all(|r| matches!(r.verdict, BatchVerdict::ExactlyOnce | BatchVerdict::Pending)) {
        format!(
            "… {written} / {} {}",
            ledger.rows.len(),
            l.t("words written, each once so far", "个词已写出，目前都只一次")
        )
    } else {
        l.t("✗ Some words are not exactly once", "✗ 有的词不是精确一次").to_string()
    }
}

/// This run's counts against the failure-free run's (`base`).
fn cost_table(cost: Cost, base: Cost, hadoop: bool, l: Lang) -> Html {
    let row = |id: &'static str, label: &'static str, now: u32, free: u32| {
        html! {
        <tr id={id}><th scope="row">{ label }</th><td>{ now }</td><td>{ free }</td></tr> }
    };
    html! {
        <table id="batch-cost" class="ledger batch-cost">
            <thead><tr><th scope="col">{ l.t("count", "计数") }</th><th scope="col">{ l.t("this run", "本次运行") }</th><th scope="col">{ l.t("failure-free", "无故障") }</th></tr></thead>
            <tbody>
                { row("batch-cost-tasks", l.t("task runs", "任务运行次数"), cost.task_runs, base.task_runs) }
                if hadoop {
                    { row("batch-cost-maps", l.t("map runs", "map 运行次数"), cost.map_runs, base.map_runs) }
                    { row("batch-cost-reduces", l.t("reduce runs", "reduce 运行次数"), cost.reduce_runs, base.reduce_runs) }
                    { row("batch-cost-records", l.t("records read again", "重读的记录"), cost.records_recomputed, 0) }
                } else {
                    { row("batch-cost-computed", l.t("partitions computed", "计算的分区"), cost.partitions_computed, base.partitions_computed) }
                    { row("batch-cost-recomputed", l.t("partitions recomputed", "重算的分区"), cost.partitions_recomputed, 0) }
                    { row("batch-cost-records", l.t("records recomputed", "重算的记录"), cost.records_recomputed, 0) }
                    { row("batch-cost-memory", l.t("read from memory", "从内存读取"), cost.cache_reads, base.cache_reads) }
                    { row("batch-cost-checkpoint", l.t("read from checkpoints", "从检查点读取"), cost.checkpoint_reads, base.checkpoint_reads) }
                    { row("batch-cost-fetch", l.t("FetchFailed", "FetchFailed"), cost.fetch_failures, 0) }
                }
            </tbody>
        </table>
    }
}

/// Every output word: its count, what was written, its verdict.
fn ledger_table(ledger: &BatchLedger, l: Lang) -> Html {
    html! {
        <div class="ledger-scroll" tabindex="0" role="region" aria-label={l.t("Ledger of the output words", "输出词账本")}>
            <table id="batch-ledger" class="ledger">
                <caption class="sr-only">{ l.t("Every output record: written exactly once?", "每条输出记录：是否恰好写出一次？") }</caption>
                <thead><tr><th scope="col">{ l.t("word", "词") }</th><th scope="col">{ l.t("count", "计数") }</th><th scope="col">{ l.t("written", "写出") }</th><th scope="col">{ l.t("verdict", "判定") }</th></tr></thead>
                <tbody>{ for ledger.rows.iter().map(|r| {
                    let (mark, word) = verdict_mark(l, r.verdict);
                    html! { <tr data-record={r.key.clone()} data-verdict={r.verdict.id()}>
                        <td>{ r.key.clone() }</td><td>{ r.expected }</td>
                        <td>{ r.written.iter().map(u64::to_string).collect::<Vec<_>>().join(", ") }</td>
                        <td class={classes!("v", r.verdict.id())}>{ format!("{mark} {word}") }</td></tr> }
                }) }</tbody>
            </table>
        </div>
    }
}
