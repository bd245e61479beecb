//! Pieces: parts of the main screen that load when first shown (see `room_loader.rs`), each drawn
//! from the run as a room is. The tabs beside the narration are the first: most learners open
//! them later, or never.

use yew::prelude::*;

use super::panels::{external_panel, CheckpointsPanel, CheckpointsView};
use super::rooms::RoomProps;

/// The Checkpoints tab.
pub fn checkpoints(p: RoomProps) -> Html {
    let session = p.run.session();
    html! { <CheckpointsPanel view={CheckpointsView::of(&session)} lang={p.lang} dispatch={p.dispatch.clone()} /> }
}

/// The External system tab.
pub fn external(p: RoomProps) -> Html {
    external_panel(p.run.session().sim(), p.lang)
}
