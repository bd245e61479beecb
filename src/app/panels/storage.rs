//! The checkpoint storage panel: what a restore would find (each task's own saves under timers,
//! the completed checkpoints and the user's savepoints under a coordinator, Spark Streaming's
//! checkpoint directory and log), each snapshot's state in words.

use yew::prelude::*;

use crate::app::text::Lang;
use crate::app::ui_state::Shared;
use crate::engine::*;

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
            // What the mechanism keeps its own way, and where a restore starts: its row's words.
            let words = props.strategy.row().keeps.as_ref().map(|k| (k.saved.get(l), k.restore.get(l)));
            let (saved, restore) = words.unwrap_or_default();
            html! { <p class="hint">{ format!("{saved} · {}{restore}", l.t("restore: ", "恢复：")) }</p> }
        }
    };
    html! {
        <section id="storage" class="panel storage" aria-labelledby="storage-title">
            <h2 id="storage-title">{ l.t("Checkpoint storage (survives crashes)", "检查点存储（崩溃后仍在）") }</h2>
            { body }
        </section>
    }
}
