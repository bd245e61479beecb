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
            Room::SpaceTime => l.t("Space-time diagram: every message an arrow, the cut a line", "时空图：每条消息一个箭头，切面一条线"),
            Room::Explorer => l.t(
                "Every schedule: the schedule explorer and the barrier-handler lab",
                "所有调度：调度探索器与屏障处理实验室",
            ),
            Room::Program => l.t(
                "Program & savepoints: restore into a changed program",
                "程序与保存点：恢复到修改后的程序",
            ),
            Room::Quiz => l.t("Quiz: questions drawn from the engine, graded by it", "测验：由引擎出题、由引擎判分"),
        }
    }

    /// Whether the room, once open, draws its own title bar (its language, presenter and back
    /// buttons); the loader's bar then gives way to it.
    pub fn has_own_bar(self) -> bool {
        matches!(self, Room::Batch | Room::Compare)
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

/// The header every room shows, written once: the room's title, the room's own tools (`tools`,
/// none for most rooms), the language switch, presenter mode and the one way back (Esc). The room
/// loader draws it over every room; a room with tools of its own (Side by side's files, the batch
/// room's job and lesson) draws it itself with them, and the loader gives way (`has_own_bar`).
pub fn room_head(room: Room, p: &super::rooms::RoomProps, tools: yew::Html) -> yew::Html {
    use yew::prelude::*;
    let l = p.lang;
    let close = p.close.clone();
    html! {
        <header class="room-head">
            <h1 id={format!("room-{}-title", room.id())}>{ room.title(l) }</h1>
            <div class="room-tools">{ tools }
            <button id="btn-room-lang" class="tool lang" onclick={p.switch_lang()} lang={l.t("zh-Hans", "en")}
                aria-label={l.t("切换到中文", "Switch to English")}>{ l.t("中文", "English") }</button>
            <button id="btn-room-presenter" class={classes!("tool", p.presenter.then_some("on"))} onclick={p.toggle_presenter()}
                aria-pressed={p.presenter.to_string()} aria-keyshortcuts="P"
                title={l.t("Presenter mode: large type, high contrast (P)", "演示模式：大字号、高对比度（P）")}>
                { l.t("▣ Presenter", "▣ 演示模式") }</button>
            <button id="btn-room-close" class="tool" aria-keyshortcuts="Escape"
                title={l.t("Back to the run (Esc)", "回到运行（Esc）")}
                onclick={Callback::from(move |_: MouseEvent| close.emit(()))}>{ back_words(l) }</button>
            </div>
        </header>
    }
}
