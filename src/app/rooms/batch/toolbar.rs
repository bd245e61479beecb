//! The Batch room's toolbar: back, step, play and its speed, to the end, reset, the timeline, and
//! the failures (the running task's, a node's or an executor's).

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::app::rooms::held::Dispatcher;
use crate::classroom::batch_room::{BatchCommand, BatchSession, SPEEDS};
use crate::engine::batch::{BatchAction, BatchSim};
use crate::engine::Lang;

/// A button's action: always the same command.
fn send(d: &Dispatcher<BatchSession>, c: BatchCommand) -> Callback<MouseEvent> {
    let d = d.clone();
    Callback::from(move |_| d.dispatch(c.clone()))
}

pub fn toolbar(s: &BatchSession, l: Lang, d: &Dispatcher<BatchSession>) -> Html {
    let run = &s.run;
    let sim = run.sim();
    let hadoop = matches!(sim, BatchSim::Hadoop(_));
    let can_step = !s.finished();
    let on_seek = {
        let d = d.clone();
        Callback::from(move |e: InputEvent| {
            if let Ok(v) = e.target_unchecked_into::<HtmlInputElement>().value().parse() {
                d.dispatch(BatchCommand::Seek(v));
            }
        })
    };
    let on_speed = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            d.dispatch(BatchCommand::Speed(e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(2)))
        })
    };
    html! {
        <nav class="toolbar" aria-label={l.t("Batch run controls", "批处理运行控制")}>
            <div class="group">
                <button id="batch-back" class="tool" onclick={send(d, BatchCommand::Back)} disabled={run.at == 0} aria-keyshortcuts="ArrowLeft">{ l.t("◀ Back", "◀ 后退") }</button>
                <button id="batch-step" class="tool primary" onclick={send(d, BatchCommand::Step)} disabled={!can_step} aria-keyshortcuts="ArrowRight">
                    { if hadoop { l.t("Step: next task ▶", "单步：下一任务 ▶") } else { l.t("Step: next partition ▶", "单步：下一分区 ▶") } }</button>
                <button id="batch-play" class="tool" onclick={send(d, BatchCommand::TogglePlay)} aria-pressed={s.playing.to_string()} aria-keyshortcuts="Space">
                    { if s.playing { l.t("❚❚ Pause", "❚❚ 暂停") } else { l.t("▷ Play", "▷ 播放") } }</button>
                <button id="batch-end" class="tool" onclick={send(d, BatchCommand::ToEnd)} disabled={!can_step} aria-keyshortcuts="E">{ l.t("⇥ To the end", "⇥ 到结尾") }</button>
                <button id="batch-reset" class="tool" onclick={send(d, BatchCommand::Reset)}>{ l.t("↺ Reset", "↺ 重置") }</button>
                <label class="speed">{ l.t("Speed", "速度") }
                    <select id="batch-speed" onchange={on_speed}>
                        { for (0..SPEEDS.len()).map(|i| html!{ <option value={i.to_string()} selected={s.speed == i}>{ format!("{}×", i + 1) }</option> }) }
                    </select></label>
            </div>
            <div class="group timeline">
                <label for="batch-timeline">{ format!("{} {} / {}", l.t("Step", "步"), run.at, run.len()) }</label>
                <input id="batch-timeline" type="range" min="0" max={run.len().to_string()} value={run.at.to_string()} oninput={on_seek}
                    aria-label={l.t("Timeline", "时间线")} aria-valuetext={format!("{} / {}", run.at, run.len())} />
            </div>
            { failures(sim, l, d) }
        </nav>
    }
}

/// The failures: the running task's, and each node's (Hadoop) or executor's (Spark).
fn failures(sim: &BatchSim, l: Lang, d: &Dispatcher<BatchSession>) -> Html {
    let hadoop = matches!(sim, BatchSim::Hadoop(_));
    let up = |k: u8| match sim {
        BatchSim::Hadoop(h) => h.nodes[k as usize],
        BatchSim::Spark(_) => true,
    };
    html! {
        <div class="group">
            <button id="batch-fail" class="tool danger" onclick={send(d, BatchCommand::Act(BatchAction::FailTask))} disabled={!sim.running()} aria-keyshortcuts="F"
                title={l.t("The running task's process dies; its machine lives on", "正在运行的任务进程崩溃；它所在的机器还在")}>{ l.t("✗ Fail the task", "✗ 让任务失败") }</button>
            { for (0..sim.machines()).map(|k| {
                let label = if hadoop { format!("{} {k}", l.t("✗ Lose node", "✗ 丢失节点")) } else { format!("{} {k}", l.t("✗ Lose executor", "✗ 丢失执行器")) };
                html!{ <button id={format!("batch-crash-{k}")} class="tool danger" disabled={!up(k)} aria-keyshortcuts={k.to_string()}
                    onclick={send(d, BatchCommand::Act(BatchAction::Crash(k)))}>{ label }</button> }
            }) }
        </div>
    }
}
