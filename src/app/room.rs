//! The rooms: the pages that open over the run, each behind its own part (`room_loader.rs`), with
//! the name a link uses (`#room=…`), the title and the button that opens it.

use super::text::Lang;

/// The rooms, each behind its own part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Room {
    /// Batch recovery: Hadoop re-runs the failed task, Spark recomputes from lineage.
    Batch,
    /// One input, one crash: Flink, Storm and Spark Streaming in lockstep.
    Compare,
    /// The run on screen as a PyFlink job.
    PyFlink,
    /// The run as a space-time diagram; the learner draws cuts.
    SpaceTime,
    /// Every schedule of a small job, and the barrier-handler lab.
    Explorer,
    /// Savepoints, a job editor, and the restore into the changed program.
    Program,
    /// Ten questions drawn from the engine, graded by it.
    Quiz,
}

impl Room {
    pub const ALL: [Room; 7] =
        [Room::Batch, Room::Compare, Room::SpaceTime, Room::Explorer, Room::Program, Room::Quiz, Room::PyFlink];

    /// The room's name in links (`#room=…`) and element ids.
    pub fn id(self) -> &'static str {
        match self {
            Room::Batch => "batch",
            Room::Compare => "compare",
            Room::PyFlink => "pyflink",
            Room::SpaceTime => "spacetime",
            Room::Explorer => "explorer",
            Room::Program => "program",
            Room::Quiz => "quiz",
        }
    }

    pub fn from_id(id: &str) -> Option<Room> {
        Room::ALL.into_iter().find(|r| r.id() == id)
    }

    pub fn title(self, l: Lang) -> &'static str {
        match self {
            Room::Batch => l.t("Batch: re-run the task, recompute the lineage", "批处理：重跑任务，按血统重算"),
            Room::Compare => {
                l.t("Side by side: one input, one crash, three systems", "并排比较：同一输入、同一崩溃、三个系统")
            }
            Room::PyFlink => l.t("Run it on a real Flink (PyFlink)", "在真实的 Flink 上运行（PyFlink）"),
            Room::SpaceTime => l.t(
                "Space-time diagram: every message an arrow, the cut a line",
                "时空图：每条消息一个箭头，切面一条线",
            ),
            Room::Explorer => l.t(
                "Every schedule: the schedule explorer and the barrier-handler lab",
                "所有调度：调度探索器与屏障处理实验室",
            ),
            Room::Program => {
                l.t("Program & savepoints: restore into a changed program", "程序与保存点：恢复到修改后的程序")
            }
            Room::Quiz => l.t("Quiz: questions drawn from the engine, graded by it", "测验：由引擎出题、由引擎判分"),
        }
    }

    /// The label of the button that opens it.
    pub fn button(self, l: Lang) -> &'static str {
        match self {
            Room::Batch => l.t("▦ Batch recovery", "▦ 批处理恢复"),
            Room::Compare => l.t("◫ Side by side", "◫ 并排比较"),
            Room::PyFlink => l.t("⇪ Run on Flink", "⇪ 在 Flink 上运行"),
            Room::SpaceTime => l.t("⇶ Space-time", "⇶ 时空图"),
            Room::Explorer => l.t("⋔ Every schedule", "⋔ 所有调度"),
            Room::Program => l.t("⚙ Program & savepoints", "⚙ 程序与保存点"),
            Room::Quiz => l.t("✎ Quiz", "✎ 测验"),
        }
    }
}

/// The one way back from any room to the run, in the page's language (issue 48: one label for
/// going back, wherever the learner is).
pub fn back_words(l: Lang) -> &'static str {
    l.t("← Back to the run", "← 回到运行")
}
