//! The room loader: the one seam between the main screen and the rooms. Each room's code, and
//! each piece of the main screen that loads when first shown, sits behind a fallible split point
//! (`split_point.rs`): calling it fetches its part of the WebAssembly the first time and returns
//! its drawing function, which the main module then calls like its own.
//!
//! [`RoomDoor`] shows a room while it loads: "Loading…" in the page's language, then the room with
//! the keyboard focus on it; if the part cannot be fetched (offline before it was ever cached, a
//! server error), a message and a Retry button. The run on the main screen is never touched.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::focus::focus_quietly;
use super::room::Room;
use super::rooms::RoomProps;
use super::split_point::{part, PartError, RoomView};
use super::text::Lang;

part!(pyflink, super::rooms::pyflink::render);
part!(batch, super::rooms::batch::render);
part!(compare, super::rooms::compare::render);
part!(spacetime, super::rooms::spacetime::render);
part!(explorer, super::rooms::explorer::render);
part!(program, super::rooms::program::render);
part!(quiz, super::rooms::quiz::render);

// The main screen's pieces: the tabs beside the narration and the settings form (the lesson bar
// comes with the lessons' words, `lessons_part.rs`).
part!(tab_checkpoints, super::pieces::checkpoints);
part!(tab_external, super::pieces::external);
part!(settings_form, super::pieces::settings);

/// Fetches the room's part (once; a failure is not remembered, so Retry fetches again).
async fn load(room: Room) -> Result<RoomView, PartError> {
    match room {
        Room::Batch => batch().await,
        Room::Compare => compare().await,
        Room::PyFlink => pyflink().await,
        Room::SpaceTime => spacetime().await,
        Room::Explorer => explorer().await,
        Room::Program => program().await,
        Room::Quiz => quiz().await,
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
    let (state, retry) = use_part(props.room, props.room.id(), |r| Box::pin(load(r)));
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
        // The focus moves without scrolling: the room opens at its title (a room's first control
        // may sit far down, under its figure).
        use_effect_with(phase, move |_| {
            if let Some(el) = here.cast::<web_sys::HtmlElement>() {
                let target: Option<web_sys::HtmlElement> =
                    el.query_selector("[data-autofocus]").ok().flatten().and_then(|e| e.dyn_into().ok());
                focus_quietly(target.as_ref().unwrap_or(&el));
                el.scroll_into_view();
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
    // A loaded room draws its own header (`rooms::room_head`, in the rooms' parts); until then the
    // room's title, the language switch and the way back stand in its place.
    let loaded = matches!(state, Loading::Ready(_));
    html! {
        <section id={format!("room-{id}")} class="room" role="main" ref={here} tabindex="-1" aria-label={props.room.title(l)}
            data-room={id} data-loaded={matches!(state, Loading::Ready(_)).to_string()}>
            if !loaded {
                <header class="room-head">
                    <h1 id={format!("room-{id}-title")}>{ props.room.title(l) }</h1>
                    <div class="room-tools">{ super::rooms::lang_button(&props.inner) }{ super::rooms::back_button(&props.inner) }</div>
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
            Piece::LessonBar => super::lessons_part::lesson_bar().await,
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
