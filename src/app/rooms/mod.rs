//! Rooms: parts of the page that load when opened. A room is a view, with the engine code only it
//! needs, behind one fallible split point (see `room_loader.rs`); the main screen never reaches its
//! code, so the first visit never fetches it.
//!
//! Every room is handed the same [`RoomProps`] and is drawn by its `render` function. The rooms:
//! `pyflink` (run it on a real Flink), `batch` (Hadoop's re-run and Spark's lineage),
//! `compare` (Flink, Storm and Spark Streaming side by side), `spacetime` (the run as a
//! space-time diagram, with cuts the learner draws) and `explorer` (every schedule of a small
//! job, and the barrier-handler lab), `program` (savepoints, a job editor, and the restore into
//! the changed program) and `quiz` (ten questions drawn from the engine, graded by it).

use yew::prelude::*;

use super::text::Lang;
use crate::app::ui_state::{Dispatch, Run};

/// What every room is handed.
#[derive(Properties, PartialEq, Clone)]
pub struct RoomProps {
    pub lang: Lang,
    pub presenter: bool,
    /// The run on the main screen. A room reads it; it changes it only by dispatching.
    pub run: Run,
    pub dispatch: Dispatch,
    /// Close the room, back to the main screen.
    pub close: Callback<()>,
}

impl RoomProps {
    /// The page's language switch, for a room's own controls.
    pub fn switch_lang(&self) -> Callback<MouseEvent> {
        let (d, l) = (self.dispatch.clone(), self.lang);
        Callback::from(move |_| {
            d.dispatch(crate::app::ui_state::Msg::Lang(if l == Lang::En { Lang::Zh } else { Lang::En }))
        })
    }
    /// Presenter mode on or off.
    pub fn toggle_presenter(&self) -> Callback<MouseEvent> {
        let (d, on) = (self.dispatch.clone(), self.presenter);
        Callback::from(move |_| d.dispatch(crate::app::ui_state::Msg::Presenter(!on)))
    }
}

pub mod batch;
pub mod compare;
pub mod explorer;
pub mod held;
pub mod program;
pub mod pyflink;
pub mod quiz;
pub mod slices;
pub mod spacetime;
pub mod window_keys;

/// The header every room shows, written once: the room's title, the room's own tools (`tools`,
/// none for most rooms), the language switch, presenter mode and the one way back (Esc). Each room
/// draws it at its top, so it comes with the rooms' parts and not the first visit's module; while
/// a room loads, the loader shows its title and the way back in the same place.
pub fn room_head(room: crate::app::room::Room, p: &RoomProps, tools: yew::Html) -> yew::Html {
    use yew::prelude::*;
    let l = p.lang;
    html! {
        <header class="room-head">
            <h1 id={format!("room-{}-title", room.id())}>{ room.title(l) }</h1>
            <div class="room-tools">{ tools }
            { lang_button(p) }
            <button id="btn-room-presenter" class={classes!("tool", p.presenter.then_some("on"))} onclick={p.toggle_presenter()}
                aria-pressed={p.presenter.to_string()} aria-keyshortcuts="P"
                title={l.t("Presenter mode: large type, high contrast (P)", "演示模式：大字号、高对比度（P）")}>
                { l.t("▣ Presenter", "▣ 演示模式") }</button>
            { back_button(p) }
            </div>
        </header>
    }
}

/// The header's language switch (also in the loader's header while a room loads or fails, so a
/// "could not be loaded" can be read in the other language).
pub fn lang_button(p: &RoomProps) -> yew::Html {
    use yew::prelude::*;
    let l = p.lang;
    html! {
        <button id="btn-room-lang" class="tool lang" onclick={p.switch_lang()} lang={l.t("zh-Hans", "en")}
            aria-label={l.t("切换到中文", "Switch to English")}>{ l.t("中文", "English") }</button>
    }
}

/// The one way back to the run (Esc).
pub fn back_button(p: &RoomProps) -> yew::Html {
    use yew::prelude::*;
    let l = p.lang;
    let close = p.close.clone();
    html! {
        <button id="btn-room-close" class="tool" aria-keyshortcuts="Escape"
            title={l.t("Back to the run (Esc)", "回到运行（Esc）")}
            onclick={Callback::from(move |_: MouseEvent| close.emit(()))}>{ crate::app::room::back_words(l) }</button>
    }
}
