//! The lessons' part: their words, which it registers (`classroom::curriculum::loaded`), what
//! plays a lesson's script lines to where the learner stands (`classroom::progress::run_for`),
//! and the lesson bar that draws them, fetched when a lesson first opens.

use super::split_point::{part, PartError, RoomView};
use crate::classroom::progress::{register_run_for, RunFor};

/// What the lessons' part hands back besides the words it registers. The runner comes back as a
/// value, not stored by the part itself: a function the page reaches only through what a part
/// returned stays in that part (a store the optimiser can see would call it directly from the
/// main module).
#[derive(Clone, Copy)]
pub struct Lessons {
    /// The lesson bar.
    pub bar: RoomView,
    /// What plays a lesson to where the learner stands.
    pub run_for: RunFor,
}

part!(lessons -> Lessons {
    crate::classroom::curriculum::register();
    Ok(Lessons { bar: super::lesson_bar::piece, run_for: crate::classroom::progress::run_for })
});

/// The lessons' part, fetched if need be, with its runner registered for the session
/// (`classroom::progress::lesson_run`); hands back the lesson bar.
pub(crate) async fn lesson_bar() -> Result<RoomView, PartError> {
    let got = lessons().await?;
    register_run_for(got.run_for);
    Ok(got.bar)
}

/// Sends `then` once the lessons are there, fetching their part first if need be; if it cannot be
/// fetched, the notice says so and the run stays as it is.
pub fn with_lessons(dispatch: super::ui_state::Dispatch, then: super::ui_state::Msg) {
    if crate::classroom::curriculum::loaded().is_some() {
        dispatch.dispatch(then);
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        dispatch.dispatch(match lesson_bar().await {
            Ok(_) => then,
            Err(_) => super::ui_state::Msg::PartUnavailable,
        })
    });
}
