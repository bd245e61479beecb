//! Flink's Checkpoints tab: the counts, the latest checkpoints, one checkpoint per subtask, and
//! the failovers (what failed, the steps down, how the job came back and from what). It shows the
//! whole history as of its last step, whatever step the timeline shows; its chart
//! (`checkpoint_chart.rs`), and, for a run that watches its flow, each task's time at the step the
//! timeline shows (`task_time_table.rs`).

use crate::engine::mechanisms::catalogue::carried::MechanismRestore;
use crate::engine::mechanisms::spark::events::SparkRestore;
use crate::engine::mechanisms::storm::events::StormRestore;
use yew::prelude::*;

use super::checkpoint_chart::checkpoint_chart;
use super::task_time_table::{task_time_table, TaskTimeRow};
use crate::app::text::Lang;
use crate::app::ui_state::{Dispatch, Msg, Shared};
use crate::classroom::{Command, Session};
use crate::engine::*;

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
    /// The checkpoint timeout, in steps.
    timeout: u64,
    /// Each task's time at the step the timeline shows, for a run that watches its flow.
    flow: Option<Vec<TaskTimeRow>>,
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
            timeout: last.settings.checkpoint_timeout,
            flow: flow_rows(session.sim()),
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
    let flow = v.flow.as_ref().map(|rows| task_time_table(rows, l)).unwrap_or_default();
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
            { checkpoint_chart(&stats.history, v.end, v.timeout, l, &props.dispatch) }
            { flow }
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

/// Each task's row of the task-time table, for a run that watches its flow.
fn flow_rows(sim: &Sim) -> Option<Vec<TaskTimeRow>> {
    sim.watches_flow().then(|| {
        (0..sim.graph.tasks.len())
            .map(|i| {
                let t = TaskId(i as u16);
                let info = sim.graph.task(t);
                TaskTimeRow {
                    task: info.name.clone(),
                    shares: sim.time_shares(t),
                    buffers: info.inputs.first().and_then(|c| sim.channel_buffers(*c)),
                    cost: sim.record_cost(t),
                }
            })
            .collect()
    })
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
        FailureCause::MasterAlone => l.t("Nimbus died", "Nimbus 故障").to_string(),
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
        Some(RestoreFrom::Mechanism(MechanismRestore::Storm(StormRestore::Committed))) => {
            l.t("the committed offsets", "已提交的偏移量").to_string()
        }
        Some(RestoreFrom::Mechanism(MechanismRestore::Spark(SparkRestore::MetadataCheckpoint { .. }))) => {
            l.t("the metadata checkpoint", "元数据检查点").to_string()
        }
        Some(RestoreFrom::Mechanism(MechanismRestore::Structured(_))) => {
            l.t("the checkpoint location's offset and commit logs", "检查点目录里的偏移日志和提交日志").to_string()
        }
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
