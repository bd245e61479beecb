//! Where the saved state goes in the program being edited: the snapshots a stopped job can be
//! submitted again from, the live preview of a restore (each saved operator's id and its state's
//! fate, or Flink's refusal, and the key-group ring), and their words.

use yew::prelude::*;

use super::ring::RingSpec;
use crate::app::text::Lang;
use crate::engine::core::dataflow::job_graph::JobSpec;
use crate::engine::program::operator_id::operator_ids;
use crate::engine::program::rescale::{fresh_state, plan, pointer, MappingRow, Refusal, StateFate};
use crate::engine::{CheckpointId, Sim};

/// The snapshots a stopped job can be submitted again from: its savepoints, and its newest
/// retained checkpoint. (id, is a savepoint, the line shown)
pub fn snapshots(sim: &Sim, l: Lang) -> Vec<(u64, bool, String)> {
    let mut v: Vec<(u64, bool, String)> = sim
        .savepoints()
        .iter()
        .map(|s| {
            let id = s.checkpoint.id.0;
            let t = match (l, s.stop) {
                (Lang::En, false) => format!("savepoint {id} (step {})", s.checkpoint.completed_tick),
                (Lang::En, true) => format!("savepoint {id}, taken by the stop (step {})", s.checkpoint.completed_tick),
                (Lang::Zh, false) => format!("保存点 {id}（第 {} 步）", s.checkpoint.completed_tick),
                (Lang::Zh, true) => format!("保存点 {id}，停止时所做（第 {} 步）", s.checkpoint.completed_tick),
            };
            (id, true, t)
        })
        .collect();
    if let Some(c) = sim.storage().completed.last() {
        let t = match l {
            Lang::En => format!("retained checkpoint {} (step {})", c.id.0, c.completed_tick),
            Lang::Zh => format!("保留的检查点 {}（第 {} 步）", c.id.0, c.completed_tick),
        };
        v.push((c.id.0, false, t));
    }
    v
}

/// The mapping table of a restore of `sim`'s snapshot `from` into `spec`: its rows and, if the
/// restore is refused, why. Refused for want of `--allowNonRestoredState`, the rows are those the
/// option would give, with the refused operator marked.
pub fn preview(
    sim: &Sim,
    from: u64,
    saved: bool,
    spec: &JobSpec,
    allow: bool,
) -> (Vec<MappingRow>, Option<Refusal>, Option<RingSpec>) {
    let cp = match saved {
        true => sim.savepoints().iter().find(|s| s.checkpoint.id.0 == from).map(|s| &s.checkpoint),
        false => sim.storage().completed.last(),
    };
    let Some(cp) = cp else { return (vec![], None, None) };
    let sink = sim.settings.sink;
    let at = pointer(CheckpointId(from), saved);
    let run = |allow: bool| plan(&sim.graph, cp, &at, spec, allow, |g, t| fresh_state(g, t, sink));
    let (rows, refusal, graph) = match run(allow) {
        Ok(p) => (p.rows, None, Some(p.graph)),
        Err(r @ Refusal::NotAvailable { .. }) => match run(true) {
            Ok(p) => {
                let rows = p
                    .rows
                    .into_iter()
                    .map(|mut row| {
                        if row.fate == StateFate::Dropped {
                            row.fate = StateFate::Refused;
                        }
                        row
                    })
                    .collect();
                (rows, Some(r), None)
            }
            Err(other) => (vec![], Some(other), None),
        },
        Err(r) => (vec![], Some(r), None),
    };
    let ring = ring_of(sim, spec, graph.as_ref().map(|g| &g.max_parallelism[..]));
    (rows, refusal, ring)
}

/// The ring for the first keyed operator of the run, as the new program would have it.
pub fn ring_of(sim: &Sim, spec: &JobSpec, new_max: Option<&[u16]>) -> Option<RingSpec> {
    let g = &sim.graph;
    let (oi, op) = g.spec.operators.iter().enumerate().find(|(_, o)| o.kind.is_stateful())?;
    let id = operator_ids(&g.spec)[oi];
    let new_ids = operator_ids(spec);
    let ni = new_ids.iter().position(|h| *h == id);
    let new_p = ni.map_or(op.parallelism, |i| spec.operators[i].parallelism);
    let max = match (ni, new_max) {
        (Some(i), Some(m)) => m[i],
        _ => g.max_parallelism[oi],
    };
    Some(RingSpec {
        operator: op.name.clone(),
        max_parallelism: max,
        old_parallelism: op.parallelism.min(max),
        new_parallelism: new_p.min(max).max(1),
        keys: g.keys.clone(),
    })
}

pub fn fate_text(f: StateFate, l: Lang) -> &'static str {
    match f {
        StateFate::Kept => l.t("state kept", "状态保留"),
        StateFate::Dropped => l.t("state dropped (--allowNonRestoredState)", "状态丢弃（--allowNonRestoredState）"),
        StateFate::SkippedEmpty => l.t("no state: skipped", "无状态：跳过"),
        StateFate::Refused => l.t("refused: no operator has this id", "拒绝：没有算子有这个 id"),
        StateFate::Unread => l.t(
            "restored into an operator that never reads it: lost, without a refusal",
            "恢复给了一个从不读取它的算子：丢失，且没有拒绝",
        ),
    }
}

/// A refusal in the page's language. Flink's own refusals are quoted as Flink logs them, in
/// English, after a sentence that says what they mean.
pub fn refusal_text(r: &Refusal, l: Lang) -> (String, Option<String>) {
    let flink = |en: &'static str, zh: &'static str| (l.t(en, zh).to_string(), Some(r.message()));
    match r {
        Refusal::NotAvailable { operator, .. } => match l {
            Lang::En => (format!("Flink refuses: the saved state of {operator} has no operator with its id in the new program."), Some(r.message())),
            Lang::Zh => (format!("Flink 拒绝恢复：{operator} 保存的状态在新程序里找不到同 id 的算子。"), Some(r.message())),
        },
        Refusal::MaxParallelismMismatch { .. } => flink(
            "Flink refuses: the new program sets another max parallelism, which would move keys between key groups.",
            "Flink 拒绝恢复：新程序设置了不同的最大并行度，这会让键换到别的键组。",
        ),
        Refusal::MaxParallelismTooLow { .. } => flink(
            "Flink refuses: the saved state has fewer key groups than the new parallelism has subtasks.",
            "Flink 拒绝恢复：保存的状态的键组数少于新并行度的子任务数。",
        ),
        Refusal::Action(e) => (e.message(l), None),
        Refusal::Build(e) => (e.to_string(), None),
        _ => match l {
            Lang::En => (r.message(), None),
            Lang::Zh => (
                match r.id() {
                    "source-rescaled" => "模拟器的限制：每个源子任务读一个日志分区，源的并行度不能改。".into(),
                    "not-key-group-routed" => "这个键控算子的输入没有按键分区（forward、rebalance 或 broadcast 边，模拟器允许它们接入 count），不能改并行度：Flink 只在 keyBy 之后的键控流上保存键控状态，扩缩容移动的是它的键组；请把它的输入边改为 hash（keyBy）。".into(),
                    "kind-changed" => "模拟器的限制：这个 id 的算子种类变了，读不了保存的状态。".into(),
                    "channel-state" => "模拟器的限制：快照里存有通道中的记录（非对齐），不能恢复到修改后的程序；Flink 的保存点总是对齐的。".into(),
                    _ => "模拟器的限制：sink 的并行度不能改。".into(),
                },
                Some(r.message()),
            ),
        },
    }
}

/// Why Take a savepoint and Stop with savepoint are refused, one line for both when the reason is
/// the same.
pub fn refused_lines(sp: &Option<String>, stop: &Option<String>, l: Lang) -> Vec<String> {
    let line = |what: &str, why: &str| match l {
        Lang::En => format!("{what}: {why}."),
        Lang::Zh => format!("{what}：{why}。"),
    };
    match (sp, stop) {
        (Some(a), Some(b)) if a == b => vec![line(l.t("No savepoint now", "现在不能做保存点"), a)],
        _ => [(sp, l.t("Take a savepoint", "做一个保存点")), (stop, l.t("Stop with savepoint", "带保存点停止"))]
            .into_iter()
            .filter_map(|(w, what)| w.as_ref().map(|w| line(what, w)))
            .collect(),
    }
}

pub fn mapping_table(rows: &[MappingRow], spec: &JobSpec, l: Lang) -> Html {
    let new_ids = operator_ids(spec);
    let fresh: Vec<(String, String)> = spec
        .operators
        .iter()
        .zip(&new_ids)
        .filter(|(o, _)| !rows.iter().any(|r| r.target.as_deref() == Some(o.name.as_str())))
        .map(|(o, h)| (o.name.clone(), h.hex()))
        .collect();
    html! {
        <table class="mapping" id="mapping-table">
            <caption>{ l.t("How state finds its operator: by operator id only", "状态如何找到它的算子：只看算子 id") }</caption>
            <thead><tr>
                <th scope="col">{ l.t("Saved operator", "保存的算子") }</th>
                <th scope="col">{ l.t("Operator id", "算子 id") }</th>
                <th scope="col">{ l.t("New operator with that id", "新程序中同 id 的算子") }</th>
                <th scope="col">{ l.t("Parallelism", "并行度") }</th>
                <th scope="col">{ l.t("State", "状态") }</th>
            </tr></thead>
            <tbody>
                { for rows.iter().map(|r| html! {
                    <tr class={classes!("fate", r.fate.id())} data-operator={r.operator.clone()} data-fate={r.fate.id()}>
                        <td>{ &r.operator }</td>
                        <td><code>{ r.id.hex() }</code></td>
                        <td>{ r.target.clone().unwrap_or_else(|| l.t("— none —", "— 无 —").into()) }</td>
                        <td>{ match r.new_parallelism { Some(n) if n != r.old_parallelism => format!("{} → {n}", r.old_parallelism), _ => r.old_parallelism.to_string() } }</td>
                        <td>{ if r.fate == StateFate::Kept && !r.has_state { l.t("no state to map (id found)", "没有要映射的状态（找到 id）") } else { fate_text(r.fate, l) } }</td>
                    </tr>
                }) }
                { for fresh.iter().map(|(n, h)| html! {
                    <tr class="fate new" data-operator={n.clone()} data-fate="new">
                        <td>{ l.t("(not in the snapshot)", "（快照中没有）") }</td>
                        <td><code>{ h.clone() }</code></td>
                        <td>{ n.clone() }</td>
                        <td>{ "" }</td>
                        <td>{ l.t("starts empty", "从空状态开始") }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}
