//! Side by side's own tools in the room's header (`rooms::room_head`): the lesson, the comparison
//! in from files, out to a file, and into a link.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::io;
use crate::app::files::{copy_to_clipboard, export_button, import_button};
use crate::app::rooms::held::Handle;
use crate::classroom::compare_lesson;
use crate::classroom::compare_room::{CompareCommand, CompareSession};
use crate::classroom::saved_comparison::SavedComparison;
use crate::engine::Lang;

/// What a link, a file and storage keep: the session's comparison, in the page's language.
pub fn saved(state: &Handle<CompareSession>, l: Lang) -> SavedComparison {
    let mut s = state.get().saved();
    s.lang = Some(l);
    s
}

pub fn tools(state: &Handle<CompareSession>, l: Lang) -> Html {
    let d = state.dispatcher();
    let lesson_start = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(CompareCommand::LessonStart))
    };
    let on_open = {
        let d = d.clone();
        Callback::from(move |e: Event| io::open_chosen(&e.target_unchecked_into::<HtmlInputElement>(), d.clone()))
    };
    let on_save = {
        let state = state.clone();
        Callback::from(move |_| io::download(&saved(&state, l)))
    };
    let on_share = {
        let state = state.clone();
        Callback::from(move |_| {
            let url = io::share_link(&saved(&state, l));
            copy_to_clipboard(&url, |_| {});
            d.dispatch(CompareCommand::Shared(url));
        })
    };
    html! { <>
        // While the lesson runs, its frame has the way out (✕ Leave the lesson).
        if state.get().lesson.is_none() {
            <button class="tool" id="cmp-lesson-start" onclick={lesson_start}>{ format!("▶ {}: {}", l.t("Lesson", "课程"), compare_lesson::title(l)) }</button>
        }
        { import_button("cmp-open-file", l.t("Import a comparison, or one to three scenario files", "导入一个比较，或一到三个场景文件"), true, on_open, l) }
        { export_button("cmp-save", l.t("Download the comparison as a JSON file", "把比较下载为 JSON 文件"), on_save, l) }
        <button class="tool" id="cmp-share" onclick={on_share}>{ l.t("↗ Share link", "↗ 分享链接") }</button>
    </> }
}
