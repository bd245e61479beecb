//! A mechanism's drawing: what the canvas draws differently for one fault-tolerance mechanism: its
//! band under the job, the JobManager box's title and lines, a button of its own in each task and
//! the crash button's words, the down banner's words. The canvas asks the drawing for these
//! parts and names no strategy; `drawing_catalogue.rs` says which drawing each strategy has.
//! Flink's barrier handlers and "no snapshots" draw with [`MechanismDrawing::DEFAULT`].

use super::bands_part::{BandFn, Bands};
use super::text::Lang;
use crate::engine::{Action, CrashScope, Sim, TaskId};

/// One of a task's own buttons: (action, label, symbol, tooltip, id prefix). The compact
/// geometry shows the symbol only.
pub type TaskButton = (Action, &'static str, &'static str, &'static str, &'static str);

/// A band under the job. Its drawing comes in the bands part, fetched when the strategy is first
/// chosen (with the mechanism's words in the narration and the Storage panel).
pub struct BandDrawing {
    /// Whether the band shows now (`compact`: presenter mode's geometry).
    pub shows: fn(&Sim, bool) -> bool,
    /// The band, picked from the loaded part: it draws the band (or presenter mode's strip) at a
    /// top and width, and says the height it takes.
    pub pick: fn(Bands) -> BandFn,
    /// The height kept for the band while its part loads.
    pub wait_height: fn(bool) -> f64,
    /// The narrowest the canvas draws while the band shows (presenter mode keeps its width).
    pub min_width: f32,
}

/// The parts of the canvas a mechanism draws its own way.
pub struct MechanismDrawing {
    /// Its band under the job, if it has one.
    pub band: Option<BandDrawing>,
    /// What the JobManager's box says: its title, where the mechanism's master has another name,
    /// and its second and third lines.
    pub jobmanager: fn(&Sim, Lang) -> (Option<&'static str>, String, String),
    /// In task `t`: a button of the mechanism's own (between Read and Notify), and what the crash
    /// button says it crashes.
    pub task: fn(TaskId, Lang) -> (Option<TaskButton>, &'static str),
    /// The down banner's two lines, for a crash the mechanism words its own way.
    pub down_banner: fn(CrashScope, Lang) -> Option<(&'static str, &'static str)>,
}

impl MechanismDrawing {
    /// The drawing of Flink's barrier handlers and of "no snapshots": no band, the
    /// CheckpointCoordinator's pending and completed checkpoints (or what a restore starts from).
    pub const DEFAULT: MechanismDrawing = MechanismDrawing {
        band: None,
        jobmanager: coordinator_lines,
        task: |_, l| (None, crash_task(l)),
        down_banner: |_, _| None,
    };
}

/// What a task's crash button says by default.
pub fn crash_task(l: Lang) -> &'static str {
    l.t("Crash the task", "使任务崩溃：")
}

/// The CheckpointCoordinator's checkpoints in progress and those completed; with no coordinator,
/// that nothing is saved.
fn coordinator_lines(sim: &Sim, l: Lang) -> (Option<&'static str>, String, String) {
    if !sim.strategy().uses_coordinator() {
        return (
            None,
            l.t("nothing is saved", "不保存任何状态").to_string(),
            l.t("restore: every task starts empty", "恢复：每个任务从空开始").to_string(),
        );
    }
    let pending: Vec<String> = sim
        .pending()
        .iter()
        .map(|p| format!("{} {} ({}/{})", l.t("chk", "检查点"), p.id.0, p.acked, p.snapshots.len()))
        .collect();
    let line2 = if pending.is_empty() {
        l.t("pending: none", "进行中：无").to_string()
    } else {
        format!("{} {}", l.t("pending:", "进行中："), pending.join(", "))
    };
    let done: Vec<String> = sim.storage().completed.iter().map(|c| format!("{} ✓", c.id.0)).collect();
    let line3 = format!(
        "{} {}",
        l.t("completed (retained):", "已完成（保留）："),
        if done.is_empty() { l.t("none", "无").to_string() } else { done.join(", ") }
    );
    (None, line2, line3)
}
