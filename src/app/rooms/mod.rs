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
        Callback::from(move |_| d.dispatch(crate::app::ui_state::Msg::Lang(if l == Lang::En { Lang::Zh } else { Lang::En })))
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
pub mod program;
pub mod pyflink;
pub mod quiz;
pub mod spacetime;
