//! What the room reaches outside the page state: its storage entry, its link, a download, and
//! the files the learner opens. Called from effects and callbacks; the session
//! (`classroom::compare_room`) only ever sees text and commands.

use std::cell::RefCell;
use std::rc::Rc;

use crate::app::rooms::held::Dispatcher;
use crate::classroom::compare_room::{CompareCommand, CompareSession};
use crate::classroom::saved_comparison::{from_fragment, CompareError, SavedComparison, MAX_COMPARE_BYTES};
use crate::classroom::unread::Unread;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The room's entry in the browser's storage.
pub const STORAGE_KEY: &str = "barrierscope.compare";

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

/// The comparison in the page's link, if the link opens the room with one.
pub fn link_text() -> Option<Result<String, CompareError>> {
    let hash = window().location().hash().ok()?;
    from_fragment(&hash)
}

pub fn stored_text() -> Option<String> {
    window().local_storage().ok()??.get_item(STORAGE_KEY).ok()?
}

pub fn store(saved: &SavedComparison) {
    if let Ok(Some(storage)) = window().local_storage() {
        let _ = storage.set_item(STORAGE_KEY, &saved.to_json());
    }
}

/// Puts the comparison in the address bar (without a new history entry) and returns the link.
pub fn share_link(saved: &SavedComparison) -> String {
    crate::app::address_bar::put(&saved.to_fragment())
}

/// Offers the comparison as a JSON file.
pub fn download(saved: &SavedComparison) {
    let name = format!("barrierscope-compare-tick-{}.json", saved.at);
    crate::app::files::download(&name, "application/json", &saved.to_json());
}

/// A file's name and text.
type NamedText = (String, String);

/// Reads the chosen files (one to three) and hands them to the session to open as one comparison
/// (a file the browser can't read is handed as no text).
pub fn open_chosen(input: &web_sys::HtmlInputElement, dispatch: Dispatcher<CompareSession>) {
    let Some(list) = input.files() else { return };
    // The list empties when the input is cleared: take the files first.
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
    input.set_value("");
    let n = files.len();
    if n == 0 {
        return;
    }
    if let Some(big) = files.iter().find(|f| f.size() > MAX_COMPARE_BYTES as f64) {
        dispatch.dispatch(CompareCommand::Open(Err(Unread::TooLarge(big.size() as usize))));
        return;
    }
    // Each reader calls its onload once; the last one to finish opens them all.
    let texts: Rc<RefCell<Vec<Option<NamedText>>>> = Rc::new(RefCell::new(vec![None; n]));
    for (i, file) in files.into_iter().enumerate() {
        let Ok(reader) = web_sys::FileReader::new() else { return };
        let r = reader.clone();
        let texts = texts.clone();
        let dispatch = dispatch.clone();
        let name = file.name();
        let onload = Closure::once_into_js(move |_: web_sys::ProgressEvent| {
            let text = r.result().ok().and_then(|v| v.as_string()).unwrap_or_default();
            texts.borrow_mut()[i] = Some((name, text));
            if texts.borrow().iter().all(Option::is_some) {
                let all: Vec<(String, String)> = texts.borrow_mut().drain(..).flatten().collect();
                dispatch.dispatch(CompareCommand::Open(Ok(all)));
            }
        });
        reader.set_onload(Some(onload.unchecked_ref()));
        let _ = reader.read_as_text(&file);
    }
}
