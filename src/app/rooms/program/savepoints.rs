//! Taking savepoints of the run on the main screen: the job to run, Take a savepoint, Stop with
//! savepoint and run until the job stops, why a button is refused (in view, with the way forward
//! when the strategy has no checkpoint coordinator), the job's status, and the savepoints on their
//! way.

use yew::prelude::*;

use crate::app::text::Lang;
use crate::app::ui_state::{Dispatch, Msg};
use crate::classroom::{Command, RunConfig, Session};
use crate::engine::{Action, Sim, Strategy};

use super::mapping::refused_lines;

/// The jobs offered: the line without uids, the line with them, and the keyed job to rescale.
const JOBS: [&str; 4] = ["line", "line-sink", "line-uids", "keyed-count"];

/// Step 1 of the room: the job on the main screen and its savepoint buttons.
pub fn job_section(session: &Session, dispatch: &Dispatch, l: Lang) -> Html {
    let sim = session.sim();
    // The job.
    let job = session.config.job.clone();
    let on_job = {
        let (dispatch, config) = (dispatch.clone(), session.config.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            let mut settings = config.settings.clone();
            if !settings.strategy.uses_coordinator() {
                settings.strategy = Strategy::Aligned;
            }
            dispatch.dispatch(Msg::Cmd(Command::Configure(RunConfig {
                job: v,
                settings,
                seed: config.seed,
                records: None,
            })));
        })
    };
    // The savepoints.
    let act = |a: Action| {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::Act(a))))
    };
    let why = |a: Action| sim.check(a).err().map(|e| e.message(l));
    let (why_sp, why_stop) = (why(Action::Savepoint), why(Action::StopWithSavepoint));
    let can_finish = sim.stopping().is_some() && session.can_run_to_end();
    let on_finish = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::ToEnd)))
    };
    // The way forward when the savepoint buttons are refused for want of checkpoints: the same
    // job and input under aligned barriers, a new run (issue 48: no dead ends).
    let no_coordinator = !sim.strategy().uses_coordinator();
    let on_aligned = {
        let (dispatch, config) = (dispatch.clone(), session.config.clone());
        Callback::from(move |_: MouseEvent| {
            let mut settings = config.settings.clone();
            settings.strategy = Strategy::Aligned;
            dispatch.dispatch(Msg::Cmd(Command::Configure(RunConfig {
                job: config.job.clone(),
                settings,
                seed: config.seed,
                records: None,
            })))
        })
    };
    html! {
        <section class="program-step" aria-labelledby="h-job">
            <h2 id="h-job">{ l.t("1. The job on the main screen", "1. 主屏幕上的作业") }</h2>
            <label>{ l.t("Start a new run of ", "开始新的运行：") }
                <select id="program-job" data-autofocus="true" onchange={on_job}>
                    { for JOBS.iter().map(|j| html! { <option value={*j} selected={job == *j}>{ crate::app::text::job_name(l, j) }</option> }) }
                    { if !JOBS.contains(&job.as_str()) { html! { <option value={job.clone()} selected=true>{ crate::app::text::job_name(l, &job) }</option> } } else { html! {} } }
                </select>
            </label>
            <div class="room-actions">
                <button class="tool" id="btn-savepoint" disabled={why_sp.is_some()} title={why_sp.clone().unwrap_or_else(|| l.t("flink savepoint: the job runs on", "flink savepoint：作业继续运行").into())}
                    onclick={act(Action::Savepoint)}>{ l.t("Take a savepoint", "做一个保存点") }</button>
                <button class="tool" id="btn-stop-savepoint" disabled={why_stop.is_some()} title={why_stop.clone().unwrap_or_else(|| l.t("flink stop: a final savepoint, then the job finishes", "flink stop：最后一个保存点，然后作业结束").into())}
                    onclick={act(Action::StopWithSavepoint)}>{ l.t("Stop with savepoint", "带保存点停止") }</button>
                <button class="tool" id="btn-finish-stop" disabled={!can_finish}
                    title={if can_finish { l.t("Run on until the stop's savepoint completes and the job finishes", "继续运行，直到停止的保存点完成、作业结束") } else { l.t("Nothing is stopping: stop with a savepoint first", "没有正在进行的停止：请先带保存点停止") }}
                    onclick={on_finish}>{ l.t("⇥ Run until the job stops", "⇥ 运行到作业停止") }</button>
            </div>
            // Why a button is refused, in view, not only in its tooltip; and the way forward.
            if why_sp.is_some() || why_stop.is_some() {
                <div class="room-why" id="savepoint-why" role="status">
                    { for refused_lines(&why_sp, &why_stop, l).into_iter().map(|t| html! { <p>{ t }</p> }) }
                    if no_coordinator {
                        <p>{ l.t("A savepoint is a checkpoint the user triggers, so it needs Flink's checkpoint coordinator.",
                                 "保存点是用户触发的检查点，所以需要 Flink 的检查点协调器。") }</p>
                        <button class="tool primary" id="btn-switch-aligned" onclick={on_aligned.clone()}>
                            { l.t("⇄ Switch to aligned barriers (a new run of this job)", "⇄ 改用对齐屏障（这个作业的新运行）") }</button>
                    }
                </div>
            }
            <p id="job-status" class="muted">{ match (session.sim().stopped(), session.sim().stopping(), l) {
                (Some(_), _, Lang::En) => "The job is stopped.".to_string(),
                (Some(_), _, Lang::Zh) => "作业已停止。".to_string(),
                (None, Some(id), Lang::En) => format!("The job is stopping: savepoint {} is on its way.", id.0),
                (None, Some(id), Lang::Zh) => format!("作业正在停止：保存点 {} 正在进行。", id.0),
                (None, None, Lang::En) => "The job is running.".to_string(),
                (None, None, Lang::Zh) => "作业正在运行。".to_string(),
            } }</p>
        </section>
    }
}

/// Step 2 of the room: the savepoints on their way (with a Step button), and the snapshot to
/// restore from, `chosen` among `snaps`.
pub fn savepoints_section(
    sim: &Sim,
    snaps: &[(u64, bool, String)],
    chosen: &Option<(u64, bool, String)>,
    on_from: Callback<Event>,
    dispatch: &Dispatch,
    l: Lang,
) -> Html {
    // The savepoints on their way: a savepoint shows at once, with its barriers still travelling.
    let pending: Vec<(u64, bool, u16)> = sim
        .pending()
        .iter()
        .filter_map(|p| p.savepoint.map(|k| (p.id.0, k == crate::engine::SavepointType::Suspend, p.acked)))
        .collect();
    let tasks = sim.graph.tasks.len();
    let on_step = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::Forward)))
    };
    html! {
        <section class="program-step" aria-labelledby="h-snap">
            <h2 id="h-snap">{ l.t("2. Savepoints and retained checkpoints", "2. 保存点与保留的检查点") }</h2>
            if !pending.is_empty() {
                <ul class="savepoints-pending" id="savepoints-pending" role="status">
                    { for pending.iter().map(|&(id, stop, acked)| html! {
                        <li data-savepoint={id.to_string()}>{ match (l, stop) {
                            (Lang::En, false) => format!("Savepoint {id} is on its way: its barriers travel with the records, {acked} of {tasks} tasks have saved. Step the run to complete it."),
                            (Lang::En, true) => format!("Stop with savepoint {id} is on its way: the sources read nothing more, {acked} of {tasks} tasks have saved. Step the run, or run until the job stops."),
                            (Lang::Zh, false) => format!("保存点 {id} 正在进行：它的屏障随记录传递，{tasks} 个任务中已有 {acked} 个保存。单步运行即可完成它。"),
                            (Lang::Zh, true) => format!("带保存点停止（保存点 {id}）正在进行：数据源不再读取，{tasks} 个任务中已有 {acked} 个保存。单步运行，或运行到作业停止。"),
                        } }</li>
                    }) }
                </ul>
                <div class="room-actions">
                    <button class="tool primary" id="btn-program-step" onclick={on_step.clone()}>{ l.t("Step ▶", "单步 ▶") }</button>
                </div>
            }
            { if snaps.is_empty() { html! { <p id="no-savepoints" class="muted">{ if pending.is_empty() { l.t("None yet.", "还没有。") } else { l.t("None completed yet.", "还没有完成的。") } }</p> } } else { html! {
                <label>{ l.t("Restore from ", "恢复自：") }
                    <select id="restore-from" onchange={on_from}>
                        { for snaps.iter().map(|s| html! { <option value={s.0.to_string()} selected={chosen.as_ref().map(|c| c.0) == Some(s.0)}>{ s.2.clone() }</option> }) }
                    </select>
                </label>
            } } }
        </section>
    }
}
