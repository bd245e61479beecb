//! The lessons' part: their words, which it registers (`classroom::curriculum::loaded`), and the
//! lesson bar that draws them, fetched when a lesson first opens.

use super::split_point::{part, RoomView};

part!(pub(crate) lessons -> RoomView {
    crate::classroom::curriculum::register();
    Ok(super::lesson_bar::piece)
});

/// Sends `then` once the lessons are there, fetching their part first if need be; if it cannot be
/// fetched, the notice says so and the run stays as it is.
pub fn with_lessons(dispatch: super::ui_state::Dispatch, then: super::ui_state::Msg) {
    if crate::classroom::curriculum::loaded().is_some() {
        dispatch.dispatch(then);
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        dispatch.dispatch(match lessons().await {
            Ok(_) => then,
            Err(_) => super::ui_state::Msg::PartUnavailable,
        })
    });
}
