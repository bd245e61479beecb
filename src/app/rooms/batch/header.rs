//! The Batch room's own tools in the room's header (`rooms::room_head`): the job, the lesson, the
//! link, the file out and the file in.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::io;
use super::words::job_name;
use crate::app::files::{copy_to_clipboard, export_button, import_button};
use crate::app::rooms::held::Handle;
use crate::classroom::batch_room::{BatchCommand, BatchSession};
use crate::engine::batch::BATCH_JOBS;
use crate::engine::Lang;

/// The tools, for the session in `state`.
pub fn tools(state: &Handle<BatchSession>, l: Lang) -> Html {
    let s = state.get();
    let d = state.dispatcher();
    let on_job = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            d.dispatch(BatchCommand::Job(e.target_unchecked_into::<HtmlSelectElement>().value()))
        })
    };
    let on_lesson = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(BatchCommand::Lesson(Some(0))))
    };
    let on_share = {
        let (d, state) = (d.clone(), state.clone());
        Callback::from(move |_| {
            let url = io::share_link(&state.get(), l);
            copy_to_clipboard(&url, |_| {});
            d.dispatch(BatchCommand::Shared(url));
        })
    };
    let on_export = {
        let state = state.clone();
        Callback::from(move |_| io::export(&state.get(), l))
    };
    let on_import = {
        let d = d.clone();
        Callback::from(move |e: Event| io::import(&e.target_unchecked_into::<HtmlInputElement>(), d.clone()))
    };
    html! { <>
        <label>{ l.t("Job", "作业") }
            <select id="batch-job" onchange={on_job} aria-label={l.t("Batch job", "批处理作业")}>
                { for BATCH_JOBS.iter().map(|j| html!{ <option value={*j} selected={s.job == *j}>{ job_name(l, j) }</option> }) }
                if s.job.is_empty() { <option value="" selected=true disabled=true>{ job_name(l, "") }</option> }
            </select></label>
        // While the lesson runs, its frame has the way out (✕ Leave the lesson).
        if s.lesson.is_none() {
            <button id="batch-lesson" class="tool" onclick={on_lesson}>{ l.t("▶ Lesson: batch recovery", "▶ 课程：批处理恢复") }</button>
        }
        <button id="batch-share" class="tool" onclick={on_share} title={l.t("Put the batch run in a link", "把批处理运行放进链接")}>{ l.t("↗ Share link", "↗ 分享链接") }</button>
        { export_button("batch-export", l.t("Download the batch run as a JSON file", "把批处理运行下载为 JSON 文件"), on_export, l) }
        { import_button("batch-import", l.t("Import a batch run from a JSON file", "从 JSON 文件导入批处理运行"), false, on_import, l) }
        { s.link.clone().map(|url| html!{
            <input id="batch-share-url" class="share-url" type="text" readonly=true value={url} aria-label={l.t("Link to this batch run", "此批处理运行的链接")} />
        }).unwrap_or_default() }
    </> }
}
