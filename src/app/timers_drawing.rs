//! The per-task timers' drawing on the canvas: no coordinator in the JobManager's box, and in
//! each task a button that fires its own snapshot timer.

use super::mechanism_drawing::MechanismDrawing;
use crate::engine::Action;

pub static TIMERS: MechanismDrawing = MechanismDrawing {
    jobmanager: Some(|_, l| {
        (
            None,
            l.t("no coordination: each task's own timer saves it", "无协调：各任务按自己的定时器保存").to_string(),
            l.t("restore: each task from its own latest save", "恢复：每个任务用自己最近的保存").to_string(),
        )
    }),
    task_button: Some(|task, l| {
        (
            Action::Timer { task },
            l.t("◷ Save", "◷ 保存"),
            "◷",
            l.t("Fire the snapshot timer of", "触发定时快照："),
            "timer",
        )
    }),
    ..MechanismDrawing::DEFAULT
};
