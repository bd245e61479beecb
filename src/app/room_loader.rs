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

/// One split point per room: `part!(name, path::to::render)`. With the `split` feature the
/// function's body, and all that only it reaches, goes into the part `split_<name>.wasm`.
macro_rules! part {
    ($name:ident, $render:path) => {
        #[cfg(feature = "split")]
        #[wasm_split_helpers::wasm_split($name, fallible)]
        fn $name() -> Result<RoomView, PartError> {
            Ok($render)
        }
        #[cfg(not(feature = "split"))]
        async fn $name() -> Result<RoomView, PartError> {
            Ok($render)
        }
    };
}

part!(pyflink, super::rooms::pyflink::render);

/// The lessons' words: the part registers them (`classroom::curriculum::loaded`).
#[cfg(feature = "split")]
#[wasm_split_helpers::wasm_split(lessons, fallible)]
fn lessons() -> Result<(), PartError> {
    crate::classroom::curriculum::register();
    Ok(())
}
#[cfg(not(feature = "split"))]
async fn lessons() -> Result<(), PartError> {
    crate::classroom::curriculum::register();
    Ok(())
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
            Ok(()) => then,
            Err(_) => super::Msg::LessonsUnavailable,
        })
    });
}
part!(tab_checkpoints, super::pieces::checkpoints);
part!(tab_external, super::pieces::external);

/// The rooms, each behind its own part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Room {
    PyFlink,
}

impl Room {
    pub const ALL: [Room; 1] = [Room::PyFlink];

    /// The room's name in links (`#room=…`) and element ids.
    pub fn id(self) -> &'static str {
        match self {
            Room::PyFlink => "pyflink",
        }
    }

    pub fn from_id(id: &str) -> Option<Room> {
        Room::ALL.into_iter().find(|r| r.id() == id)
    }

    pub fn title(self, l: Lang) -> &'static str {
        match self {
            Room::PyFlink => l.t("Run it on a real Flink (PyFlink)", "在真实的 Flink 上运行（PyFlink）"),
        }
    }

    /// The label of the button that opens it.
    pub fn button(self, l: Lang) -> &'static str {
        match self {
            Room::PyFlink => l.t("⇪ Run on Flink", "⇪ 在 Flink 上运行"),
        }
    }

    /// Fetches the room's part (once; a failure is not remembered, so Retry fetches again).
    pub async fn load(self) -> Result<RoomView, PartError> {
        match self {
            Room::PyFlink => pyflink().await,
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

/// Fetches the part for `key` (again when the key changes, or on retry) and tells where it stands.
#[hook]
fn use_part<K: PartialEq + Copy + 'static>(key: K, fetch: fn(K) -> Fetch) -> (Loading, Callback<()>) {
    let state = use_state(|| Loading::Fetching);
    let attempt = use_state(|| 0u32);
    {
        let state = state.clone();
        use_effect_with((key, *attempt), move |&(key, _)| {
            state.set(Loading::Fetching);
            wasm_bindgen_futures::spawn_local(async move {
                state.set(match fetch(key).await {
                    Ok(view) => Loading::Ready(view),
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
}

/// Shows a room: loading, failed with Retry, or open (with the focus on it).
#[component]
pub fn RoomDoor(props: &DoorProps) -> Html {
    let (state, retry) = use_part(props.room, |r| Box::pin(r.load()));
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
    html! {
        <section id={format!("room-{id}")} class="room" ref={here} tabindex="-1" aria-labelledby={format!("room-{id}-title")}
            data-room={id} data-loaded={matches!(state, Loading::Ready(_)).to_string()}>
            <header class="room-head">
                <h2 id={format!("room-{id}-title")}>{ props.room.title(l) }</h2>
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
}

impl Piece {
    pub const ALL: [Piece; 2] = [Piece::CheckpointsTab, Piece::ExternalTab];

    pub fn id(self) -> &'static str {
        match self {
            Piece::CheckpointsTab => "tab-checkpoints",
            Piece::ExternalTab => "tab-external",
        }
    }
    async fn load(self) -> Result<RoomView, PartError> {
        match self {
            Piece::CheckpointsTab => tab_checkpoints().await,
            Piece::ExternalTab => tab_external().await,
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
    let (state, retry) = use_part(props.piece, |p| Box::pin(p.load()));
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
