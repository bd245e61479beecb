//! The room loader: the one seam between the main screen and the rooms. Each room's code sits
//! behind a fallible split point (`wasm_split_helpers`, with the page built by
//! `scripts/wasm-bindgen`): calling it fetches the room's part of the WebAssembly the first time
//! and returns the room's drawing function, which the main module then calls like its own. Tests
//! and native builds have no split (the cargo feature `split` is off): the same functions return
//! at once.
//!
//! [`RoomDoor`] shows a room while it loads: "Loading…" in the page's language, then the room with
//! the keyboard focus on it; if the part cannot be fetched (offline before it was ever cached, a
//! server error), a message and a Retry button. The run on the main screen is never touched.

use std::fmt;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::rooms::RoomProps;
use super::text::Lang;

/// What a room's part hands back: the function that draws the room.
pub type RoomView = fn(RoomProps) -> Html;

/// The room's part could not be fetched or instantiated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartError;

impl fmt::Display for PartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the room's part of the page could not be loaded")
    }
}

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for PartError {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        PartError
    }
}

/// One split point: `part!(name -> Type { body })`, or `part!(name, path::to::render)` for a
/// part that draws a room or a piece. With the `split` feature the body, and all that only it
/// reaches, goes into the part `split_<name>.wasm`; without it the same async function returns at
/// once.
macro_rules! part {
    ($name:ident -> $ty:ty $body:block) => {
        #[cfg(feature = "split")]
        #[wasm_split_helpers::wasm_split($name, fallible)]
        fn $name() -> Result<$ty, PartError> $body
        #[cfg(not(feature = "split"))]
        async fn $name() -> Result<$ty, PartError> $body
    };
    ($name:ident, $render:path) => {
        part!($name -> RoomView { Ok($render) });
    };
}

part!(pyflink, super::rooms::pyflink::render);
part!(batch, super::rooms::batch::render);
part!(compare, super::rooms::compare::render);
part!(spacetime, super::rooms::spacetime::render);
part!(explorer, super::rooms::explorer::render);
part!(program, super::rooms::program::render);
part!(quiz, super::rooms::quiz::render);

// The lessons' words, which the part registers (`classroom::curriculum::loaded`), and the lesson
// bar that draws them.
part!(lessons -> RoomView {
    crate::classroom::curriculum::register();
    Ok(super::pieces::lesson_bar)
});

/// Saved runs: reading one (a link, a file, the browser's storage) and writing one. The first
/// screen needs neither until the learner shares, exports, imports or changes the run, or opens
/// the page on a link or with a run kept from before; then this part loads, once.
#[derive(Clone, Copy)]
pub struct Sharing {
    /// Opens a saved run in place of the session (`classroom::open_run`).
    pub open: fn(
        &mut crate::classroom::Session,
        crate::classroom::Origin,
        Result<String, crate::classroom::LoadError>,
    ) -> Option<Lang>,
    /// The run as the JSON of a saved run.
    pub text: fn(&crate::classroom::Session, Lang) -> String,
    /// The run as a link's fragment (`run=…`).
    pub fragment: fn(&crate::classroom::Session, Lang) -> String,
    /// Whether a saved run stands in a lesson, or the text is a lesson (it then waits for the
    /// lessons too).
    pub in_lesson: fn(&str) -> bool,
}

fn sharing_fns() -> Sharing {
    use crate::classroom::{open_run, to_fragment, SavedRun};
    Sharing {
        open: open_run,
        text: |s, l| serde_json::to_string(&s.save(l)).unwrap_or_default(),
        fragment: |s, l| to_fragment(&s.save(l)),
        in_lesson: |t| {
            crate::classroom::is_lesson_file(t) || t.starts_with("lesson:") || SavedRun::parse(t).is_ok_and(|s| s.lesson.is_some())
        },
    }
}

part!(sharing -> Sharing { Ok(sharing_fns()) });

thread_local! {
    static SHARING: std::cell::Cell<Option<Sharing>> = const { std::cell::Cell::new(None) };
}

/// The sharing part, if it is already there.
pub fn sharing_now() -> Option<Sharing> {
    SHARING.with(|s| s.get())
}

/// Calls `then` with the sharing part, fetching it first if need be; if it cannot be fetched,
/// the notice says so and nothing else changes.
pub fn with_sharing(dispatch: super::Dispatch, then: impl FnOnce(Sharing) + 'static) {
    if let Some(s) = sharing_now() {
        then(s);
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match sharing().await {
            Ok(s) => {
                SHARING.with(|c| c.set(Some(s)));
                then(s)
            }
            Err(_) => dispatch.dispatch(super::Msg::PartUnavailable),
        }
    });
}

/// The drawings only Storm and Spark Streaming need: the acker's band and the micro-batches'
/// band under the job. They load when the strategy first needs them.
#[derive(Clone, Copy)]
pub struct Bands {
    pub acker_band: AckerBand,
    pub acker_strip: AckerBand,
    pub batch_band: BatchBand,
    pub batch_strip: BatchBand,
    /// The narration of their events (`engine::wording::narrate_storm_spark`).
    pub narrate: fn(&crate::engine::Event, &crate::engine::JobGraph, Lang) -> String,
    /// Spark's lines in the Storage panel, and its metadata line in the JobManager's box.
    pub storage_lines: fn(&crate::engine::Sim, Lang) -> Vec<String>,
    pub metadata_short: fn(&crate::engine::Sim, Lang) -> String,
}

type AckerBand = fn(
    &crate::engine::Sim,
    &crate::engine::mechanisms::storm::tuple_tree::StormRuntime,
    f64,
    f64,
    &Callback<crate::engine::Action>,
    Lang,
) -> Html;
/// Spark's band, and the height its wrapped lines take.
type BatchBand = fn(
    &crate::engine::Sim,
    Option<&crate::engine::mechanisms::spark::received_blocks::SparkRuntime>,
    f64,
    f64,
    Lang,
) -> (Html, f64);

fn band_fns() -> Bands {
    use super::{acker_view, spark_view};
    Bands {
        acker_band: acker_view::acker_band,
        acker_strip: acker_view::acker_strip,
        batch_band: spark_view::batch_band,
        batch_strip: spark_view::batch_strip,
        narrate: crate::engine::wording::narrate_storm_spark,
        storage_lines: spark_view::storage_lines,
        metadata_short: spark_view::metadata_short,
    }
}

part!(bands -> Bands { Ok(band_fns()) });

thread_local! {
    static BANDS: std::cell::Cell<Option<Bands>> = const { std::cell::Cell::new(None) };
}

/// The bands, if they are already there.
pub fn bands_now() -> Option<Bands> {
    BANDS.with(|b| b.get())
}

/// The bands, once loaded; while `needed` and not yet there, fetches them (`Err(true)` while
/// fetching, `Err(false)` if the fetch failed, with a retry). `loaded` is called when they arrive
/// (the page redraws, so the narration gets their words too).
#[hook]
pub fn use_bands(needed: bool, loaded: Callback<()>) -> (Result<Bands, bool>, Callback<()>) {
    let state = use_state(|| BANDS.with(|b| b.get()).ok_or(true));
    let attempt = use_state(|| 0u32);
    {
        let state = state.clone();
        use_effect_with((needed, *attempt), move |&(needed, _)| {
            if !needed || BANDS.with(|b| b.get()).is_some() {
                if let Some(b) = BANDS.with(|b| b.get()) {
                    state.set(Ok(b));
                }
                return;
            }
            state.set(Err(true));
            wasm_bindgen_futures::spawn_local(async move {
                state.set(match bands().await {
                    Ok(b) => {
                        BANDS.with(|c| c.set(Some(b)));
                        loaded.emit(());
                        Ok(b)
                    }
                    Err(_) => Err(false),
                });
            });
        });
    }
    (*state, Callback::from(move |_| attempt.set(*attempt + 1)))
}

/// Sends `then` once the lessons are there, fetching their part first if need be; if it cannot be
/// fetched, the notice says so and the run stays as it is.
pub fn with_lessons(dispatch: super::Dispatch, then: super::Msg) {
    if crate::classroom::curriculum::loaded().is_some() {
        dispatch.dispatch(then);
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        dispatch.dispatch(match lessons().await {
            Ok(_) => then,
            Err(_) => super::Msg::PartUnavailable,
        })
    });
}
part!(tab_checkpoints, super::pieces::checkpoints);
part!(tab_external, super::pieces::external);
part!(settings_form, super::pieces::settings);

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
            Room::Batch => l.t("Batch: re-run the task, recompute the lineage", "批处理：重跑任务，按血缘重算"),
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
    fn has_own_bar(self) -> bool {
        matches!(self, Room::Batch | Room::Compare)
    }

    /// The label of the button that opens it.
    pub fn button(self, l: Lang) -> &'static str {
        match self {
            Room::Batch => l.t("▦ Batch recovery", "▦ 批处理恢复"),
            Room::Compare => l.t("◫ Side by side", "◫ 并排比较"),
            Room::PyFlink => l.t("⇪ Run on Flink", "⇪ 在 Flink 上运行"),
            Room::SpaceTime => l.t("⧖ Space-time", "⧖ 时空图"),
            Room::Explorer => l.t("⋔ Every schedule", "⋔ 所有调度"),
            Room::Program => l.t("⚙ Program & savepoints", "⚙ 程序与保存点"),
            Room::Quiz => l.t("✎ Quiz", "✎ 测验"),
        }
    }

    /// Fetches the room's part (once; a failure is not remembered, so Retry fetches again).
    pub async fn load(self) -> Result<RoomView, PartError> {
        match self {
            Room::Batch => batch().await,
            Room::Compare => compare().await,
            Room::PyFlink => pyflink().await,
            Room::SpaceTime => spacetime().await,
            Room::Explorer => explorer().await,
            Room::Program => program().await,
            Room::Quiz => quiz().await,
        }
    }
}

/// A part's state on screen: being fetched, failed (Retry fetches again), or ready to draw.
#[derive(Clone, Copy)]
pub enum Loading {
    Fetching,
    Ready(RoomView),
    Failed,
}

type Fetch = std::pin::Pin<Box<dyn std::future::Future<Output = Result<RoomView, PartError>>>>;

thread_local! {
    /// The parts already loaded, by name: drawn at once when shown again.
    static LOADED: std::cell::RefCell<Vec<(&'static str, RoomView)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn loaded_view(id: &'static str) -> Option<RoomView> {
    LOADED.with(|l| l.borrow().iter().find(|(n, _)| *n == id).map(|&(_, v)| v))
}

/// Fetches the part named `id` (again when it changes, or on retry) and tells where it stands; a
/// part already loaded is drawn at once.
#[hook]
fn use_part<K: PartialEq + Copy + 'static>(key: K, id: &'static str, fetch: fn(K) -> Fetch) -> (Loading, Callback<()>) {
    let state = use_state(|| loaded_view(id).map_or(Loading::Fetching, Loading::Ready));
    let attempt = use_state(|| 0u32);
    {
        let state = state.clone();
        use_effect_with((key, id, *attempt), move |&(key, id, _)| {
            if let Some(view) = loaded_view(id) {
                state.set(Loading::Ready(view));
                return;
            }
            state.set(Loading::Fetching);
            wasm_bindgen_futures::spawn_local(async move {
                state.set(match fetch(key).await {
                    Ok(view) => {
                        LOADED.with(|l| l.borrow_mut().push((id, view)));
                        Loading::Ready(view)
                    }
                    Err(_) => Loading::Failed,
                });
            });
        });
    }
    let retry = Callback::from(move |_| attempt.set(*attempt + 1));
    (*state, retry)
}

fn failed_message(l: Lang) -> &'static str {
    l.t(
        "This part of the page could not be loaded: the network is off, or the server did not answer. Your run is kept.",
        "页面的这一部分没能加载：网络已断开，或服务器没有响应。你的运行仍然保留。",
    )
}

#[derive(Properties, PartialEq, Clone)]
pub struct DoorProps {
    pub room: Room,
    pub inner: RoomProps,
    /// False while the run from the link or storage is still to open: the room shows "Loading…"
    /// until then, so it never draws the default run first (a reload with `#room=` in the link).
    pub run_ready: bool,
}

/// Shows a room: loading, failed with Retry, or open (with the focus on it).
#[component]
pub fn RoomDoor(props: &DoorProps) -> Html {
    let (state, retry) = use_part(props.room, props.room.id(), |r| Box::pin(r.load()));
    let state = match state {
        Loading::Ready(_) if !props.run_ready => Loading::Fetching,
        s => s,
    };
    let here = use_node_ref();
    // The keyboard focus goes to the room once it is open, and to Retry if it failed.
    {
        let here = here.clone();
        let phase = match state {
            Loading::Fetching => 0u8,
            Loading::Ready(_) => 1,
            Loading::Failed => 2,
        };
        use_effect_with(phase, move |_| {
            if let Some(el) = here.cast::<web_sys::HtmlElement>() {
                let target = el.query_selector("[data-autofocus]").ok().flatten().and_then(|e| e.dyn_into().ok());
                let _ = target.unwrap_or(el).focus();
            }
        });
    }
    let l = props.inner.lang;
    let id = props.room.id();
    let body = match state {
        Loading::Fetching => html! {
            <p class="room-status" role="status" aria-live="polite">{ l.t("Loading…", "加载中…") }</p>
        },
        Loading::Failed => html! {
            <div class="room-status room-failed" role="alert">
                <p>{ failed_message(l) }</p>
                <button id={format!("retry-{id}")} class="tool" data-autofocus="true"
                    onclick={retry.reform(|_| ())}>{ l.t("↻ Retry", "↻ 重试") }</button>
            </div>
        },
        Loading::Ready(view) => view(props.inner.clone()),
    };
    let close = props.inner.close.clone();
    let own_bar = props.room.has_own_bar() && matches!(state, Loading::Ready(_));
    html! {
        <section id={format!("room-{id}")} class="room" role="main" ref={here} tabindex="-1" aria-label={props.room.title(l)}
            data-room={id} data-loaded={matches!(state, Loading::Ready(_)).to_string()}>
            if !own_bar {
            <header class="room-head">
                <h1 id={format!("room-{id}-title")}>{ props.room.title(l) }</h1>
                <button id="btn-room-lang" class="tool lang" onclick={props.inner.switch_lang()}
                    aria-label={l.t("切换到中文", "Switch to English")}>{ l.t("中文", "English") }</button>
                <button id="btn-room-presenter" class="tool" onclick={props.inner.toggle_presenter()}
                    aria-pressed={props.inner.presenter.to_string()} aria-keyshortcuts="P"
                    title={l.t("Presenter mode: large type, high contrast (P)", "演示模式：大字号、高对比度（P）")}>
                    { l.t("▣ Presenter", "▣ 演示模式") }</button>
                <button id="btn-room-close" class="tool" aria-keyshortcuts="Escape"
                    title={l.t("Back to the run (Esc)", "回到运行（Esc）")}
                    onclick={Callback::from(move |_| close.emit(()))}>{ l.t("← Back to the run", "← 回到运行") }</button>
            </header>
            }
            { body }
        </section>
    }
}

/// Pieces of the main screen that load when first shown (a tab's body, a drawing only some
/// strategies use): drawn in place, with "Loading…" or a Retry button in their own spot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// The Checkpoints tab (Flink's checkpoint statistics and the failovers).
    CheckpointsTab,
    /// The External system tab (what an outside reader of the sink sees).
    ExternalTab,
    /// The settings form behind the Settings button.
    Settings,
    /// The lesson bar (in the lessons' part, with their words).
    LessonBar,
}

impl Piece {
    pub const ALL: [Piece; 4] = [Piece::CheckpointsTab, Piece::ExternalTab, Piece::Settings, Piece::LessonBar];

    pub fn id(self) -> &'static str {
        match self {
            Piece::CheckpointsTab => "tab-checkpoints",
            Piece::ExternalTab => "tab-external",
            Piece::Settings => "settings",
            Piece::LessonBar => "lesson-bar",
        }
    }
    async fn load(self) -> Result<RoomView, PartError> {
        match self {
            Piece::CheckpointsTab => tab_checkpoints().await,
            Piece::ExternalTab => tab_external().await,
            Piece::Settings => settings_form().await,
            Piece::LessonBar => lessons().await,
        }
    }
}

#[derive(Properties, PartialEq, Clone)]
pub struct SlotProps {
    pub piece: Piece,
    pub inner: RoomProps,
}

/// Draws a piece in place once its part is there.
#[component]
pub fn PieceSlot(props: &SlotProps) -> Html {
    let (state, retry) = use_part(props.piece, props.piece.id(), |p| Box::pin(p.load()));
    let l = props.inner.lang;
    match state {
        Loading::Fetching => html! { <p class="piece-status" role="status">{ l.t("Loading…", "加载中…") }</p> },
        Loading::Failed => html! {
            <div class="piece-status room-failed" role="alert">
                <p>{ failed_message(l) }</p>
                <button id={format!("retry-{}", props.piece.id())} class="tool" onclick={retry.reform(|_| ())}>{ l.t("↻ Retry", "↻ 重试") }</button>
            </div>
        },
        Loading::Ready(view) => view(props.inner.clone()),
    }
}
