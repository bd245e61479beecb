//! How each task spent the last steps, as Flink's task metrics and its web UI's back pressure tab
//! show it: busy, backpressured and idle time in milliseconds per second (a window of steps stands
//! for the second), the back pressure level (OK up to 10 % backpressured, LOW up to 50 %, HIGH
//! above), and each task's input buffers where they are bounded (debloated, when buffer debloating
//! is on). Shown for a run that watches its flow: slow tasks, bounded channels or debloated
//! buffers.

use yew::prelude::*;

use crate::app::text::Lang;
use crate::engine::core::dataflow::task_time::WINDOW;
use crate::engine::{PressureLevel, TimeShares};

/// One task's row: its name, its window, its input buffers (None: unbounded or no input).
#[derive(Clone, PartialEq)]
pub struct TaskTimeRow {
    pub task: String,
    pub shares: TimeShares,
    pub buffers: Option<u32>,
    pub cost: u32,
}

pub fn task_time_table(rows: &[TaskTimeRow], l: Lang) -> Html {
    let level = |s: &TimeShares| match s.level() {
        PressureLevel::Ok => ("ok", "OK"),
        PressureLevel::Low => ("low", "LOW"),
        PressureLevel::High => ("high", "HIGH"),
    };
    html! {
        <table class="task-time" id="task-time">
            <caption>{ if l == Lang::Zh {
                format!("各任务最近 {WINDOW} 步的时间（这里 {WINDOW} 步代表一秒，单位：毫秒/秒），如 Flink 的 busyTimeMsPerSecond、backPressuredTimeMsPerSecond 和 idleTimeMsPerSecond")
            } else {
                format!("How each task spent its last {WINDOW} steps (standing for a second, in ms per second), as Flink's busyTimeMsPerSecond, backPressuredTimeMsPerSecond and idleTimeMsPerSecond")
            } }</caption>
            <thead><tr>
                <th scope="col">{ l.t("task", "任务") }</th>
                <th scope="col">{ l.t("steps a record", "每条记录步数") }</th>
                <th scope="col">{ l.t("busy", "繁忙") }</th>
                <th scope="col">{ l.t("backpressured", "反压") }</th>
                <th scope="col">{ l.t("idle", "空闲") }</th>
                <th scope="col">{ l.t("back pressure", "反压等级") }</th>
                <th scope="col">{ l.t("input buffers", "输入缓冲") }</th>
            </tr></thead>
            <tbody>{ for rows.iter().map(|r| {
                let s = &r.shares;
                let (class, word) = level(s);
                html! { <tr data-task={r.task.clone()}>
                    <th scope="row">{ r.task.clone() }</th>
                    <td>{ r.cost }</td>
                    <td>{ s.ms_per_second(s.busy) }</td>
                    <td>{ s.ms_per_second(s.backpressured) }</td>
                    <td>{ s.ms_per_second(s.idle) }</td>
                    <td class={classes!("level", class)} data-level={class}>{ word }</td>
                    <td>{ r.buffers.map_or("–".to_string(), |b| b.to_string()) }</td>
                </tr> }
            }) }</tbody>
        </table>
    }
}
