//! The sharing part: reading a saved run (a link, a file, the browser's storage) and writing one,
//! fetched the first time the learner shares, exports, imports or changes the run, or opens the
//! page on a link or with a run kept from before.

use super::split_point::part;
use super::text::Lang;

/// Saved runs: reading one (a link, a file, the browser's storage) and writing one. The first
/// screen needs neither until the learner shares, exports, imports or changes the run, or opens
/// the page on a link or with a run kept from before; then this part loads, once.
#[derive(Clone, Copy)]
pub struct Sharing {
    /// Opens a saved run in place of the session (`classroom::open_run`).
    pub open: fn(
        &mut crate::classroom::Session,
        crate::classroom::Origin,
        Result<String, crate::classroom::LoadError>,
    ) -> Option<Lang>,
    /// The run as the JSON of a saved run.
    pub text: fn(&crate::classroom::Session, Lang) -> String,
    /// The run as a link's fragment (`run=…`).
    pub fragment: fn(&crate::classroom::Session, Lang) -> String,
    /// Whether a saved run stands in a lesson, or the text is a lesson (it then waits for the
    /// lessons too).
    pub in_lesson: fn(&str) -> bool,
}

fn sharing_fns() -> Sharing {
    use crate::classroom::{open_run, to_fragment, SavedRun};
    Sharing {
        open: open_run,
        text: |s, l| serde_json::to_string(&s.save(l)).unwrap_or_default(),
        fragment: |s, l| to_fragment(&s.save(l)),
        in_lesson: |t| {
            crate::classroom::is_lesson_file(t)
                || t.starts_with("lesson:")
                || SavedRun::parse(t).is_ok_and(|s| s.lesson.is_some())
        },
    }
}

part!(sharing -> Sharing { Ok(sharing_fns()) });

thread_local! {
    static SHARING: std::cell::Cell<Option<Sharing>> = const { std::cell::Cell::new(None) };
}

/// The sharing part, if it is already there.
pub fn sharing_now() -> Option<Sharing> {
    SHARING.with(|s| s.get())
}

/// Calls `then` with the sharing part, fetching it first if need be; if it cannot be fetched,
/// the notice says so and nothing else changes.
pub fn with_sharing(dispatch: super::ui_state::Dispatch, then: impl FnOnce(Sharing) + 'static) {
    if let Some(s) = sharing_now() {
        then(s);
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match sharing().await {
            Ok(s) => {
                SHARING.with(|c| c.set(Some(s)));
                then(s)
            }
            Err(_) => dispatch.dispatch(super::ui_state::Msg::PartUnavailable),
        }
    });
}
