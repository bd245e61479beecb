//! The External system tab: the external system as a reader sees it, and the sink's
//! transactions.

use yew::prelude::*;

use crate::app::text::Lang;
use crate::engine::*;

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
            <p>{ format!("{}: {} {}", crate::app::text::sink_name(l, *sink), visible.len(), l.t("row(s) visible to a reader", "行对读者可见")) }</p>
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
