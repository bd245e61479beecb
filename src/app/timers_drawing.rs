//! The per-task timers' drawing on the canvas: in each task a button that fires its own snapshot
//! timer. (The JobManager's box says what its row says: no coordination, each task's own saves.)

use super::mechanism_drawing::MechanismDrawing;
use crate::engine::Action;

pub static TIMERS: MechanismDrawing = MechanismDrawing {
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
