//! What reaches outside the room: the link (`#room=batch&run=…`), the browser's storage
//! (`barrierscope.batch`), the exported file and the imported one. Called from effects and
//! callbacks; the session (`classroom::batch_room`) only ever sees text and commands.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use crate::app::rooms::held::Dispatcher;
use crate::classroom::batch_room::{BatchCommand, BatchSession};
use crate::classroom::unread::Unread;
use crate::classroom::Origin;
use crate::engine::batch::format::{from_link_fragment, to_link_fragment, MAX_BATCH_BYTES};
use crate::engine::batch::BatchLoadError;
use crate::engine::Lang;

/// The key of the last batch run in the browser's storage.
pub const STORAGE_KEY: &str = "barrierscope.batch";

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

/// The batch run in the address bar's link, if it is the batch room's (`#room=batch&run=…`).
pub fn link_text() -> Option<Result<String, BatchLoadError>> {
    from_link_fragment(&window().location().hash().ok()?)
}

pub fn stored_text() -> Option<String> {
    window().local_storage().ok()??.get_item(STORAGE_KEY).ok()?
}

pub fn store(session: &BatchSession, lang: Lang) {
    if let Ok(Some(storage)) = window().local_storage() {
        let _ = storage.set_item(STORAGE_KEY, &session.file(lang).to_text());
    }
}

/// Puts the run in the address bar (without a new history entry) and returns the link.
pub fn share_link(session: &BatchSession, lang: Lang) -> String {
    crate::app::address_bar::put(&to_link_fragment(&session.file(lang).to_text()))
}

/// Offers the run as a JSON file.
pub fn export(session: &BatchSession, lang: Lang) {
    let name = format!("barrierscope-batch-step-{}.json", session.run.at);
    crate::app::files::download(&name, "application/json", &session.file(lang).to_text());
}

/// Reads the chosen file and opens it, or says why it cannot.
pub fn import(input: &web_sys::HtmlInputElement, dispatch: Dispatcher<BatchSession>) {
    let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
    input.set_value("");
    if file.size() > MAX_BATCH_BYTES as f64 {
        dispatch.dispatch(BatchCommand::Open(Origin::File, Err(Unread::TooLarge(file.size() as usize))));
        return;
    }
    let Ok(reader) = web_sys::FileReader::new() else { return };
    let r = reader.clone();
    let onload = Closure::once_into_js(move |_: web_sys::ProgressEvent| {
        let text = r.result().ok().and_then(|v| v.as_string());
        dispatch.dispatch(BatchCommand::Open(Origin::File, text.ok_or(Unread::NotText)));
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}
