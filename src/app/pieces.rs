//! Pieces: parts of the main screen that load when first shown (see `room_loader.rs`), each drawn
//! from the run as a room is. The tabs beside the narration are the first: most learners open
//! them later, or never. (The lesson bar is a piece too, in `lesson_bar.rs`.)

use yew::prelude::*;

use super::panels::{external_panel, CheckpointsPanel, CheckpointsView};
use super::rooms::RoomProps;

/// The Checkpoints tab.
pub fn checkpoints(p: RoomProps) -> Html {
    let session = p.run.session();
    html! { <CheckpointsPanel view={CheckpointsView::of(&session)} lang={p.lang} dispatch={p.dispatch.clone()} /> }
}

/// The settings form behind the Settings button.
pub fn settings(p: RoomProps) -> Html {
    let session = p.run.session();
    super::settings_form::settings_grid(
        &session.config,
        &session.sim().graph,
        session.notice.as_ref(),
        p.lang,
        &p.dispatch,
    )
}

/// The External system tab.
pub fn external(p: RoomProps) -> Html {
    external_panel(p.run.session().sim(), p.lang)
}
