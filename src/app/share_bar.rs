//! The share bar, around the simulator: lessons, presenter mode, a link that restores the run,
//! export and import as a JSON file; the notice under it; and the last run kept in the browser's
//! storage. (The classroom itself, which the bar drives, is `crate::classroom`.) The functions here
//! that reach the browser (storage, address bar, clipboard, download) are called from effects and
//! callbacks, never from the reducer.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::files::{copy_to_clipboard, download, export_button, import_button};
use super::lessons_part::with_lessons;
use super::room::Room;
use super::sharing_part::{with_sharing, Sharing};
use super::text::Lang;
use super::ui_state::{Dispatch, Msg, Shared};
use crate::classroom::{from_fragment, Command, LoadError, Notice, Origin, Session, CATALOGUE};

pub const STORAGE_KEY: &str = "barrierscope.run";

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

/// Opens a saved run; one that stands in a lesson waits for the lessons' part.
pub fn open_text(dispatch: &Dispatch, origin: Origin, text: Result<String, LoadError>) {
    let d = dispatch.clone();
    with_sharing(dispatch.clone(), move |s| match &text {
        Ok(t) if (s.in_lesson)(t) => with_lessons(d, Msg::Load(origin, text)),
        _ => d.dispatch(Msg::Load(origin, text)),
    });
}

/// The room a link opens: `#room=NAME`, optionally followed by `&` and what the room reads.
pub fn room_in_link() -> Option<Room> {
    let hash = window().location().hash().ok()?;
    let name = hash.strip_prefix("#room=")?;
    Room::from_id(name.split('&').next().unwrap_or(name))
}

/// Puts the open room in the address bar, or takes a closed one out (without a history entry). A
/// room's own part of the link (after `&`) stays while the room is open.
pub fn show_room_in_link(room: Option<Room>) {
    let loc = window().location();
    let hash = loc.hash().unwrap_or_default();
    let in_link = room_in_link();
    let wanted = match room {
        Some(r) if in_link == Some(r) => return,
        Some(r) => format!("#room={}", r.id()),
        None if in_link.is_some() || hash.starts_with("#room=") => String::new(),
        None => return,
    };
    super::address_bar::put(wanted.trim_start_matches('#'));
}

/// The saved run in the link the page was opened with, if any.
pub fn link_text() -> Option<Result<String, LoadError>> {
    let hash = window().location().hash().ok()?;
    if hash.len() <= 1 || hash.starts_with("#room=") {
        return None;
    }
    Some(from_fragment(&hash))
}

pub fn stored_text() -> Option<String> {
    window().local_storage().ok()??.get_item(STORAGE_KEY).ok()?
}

/// Keeps the run in the browser's storage (once the sharing part is there).
pub fn store(session: Rc<RefCell<Session>>, lang: Lang, dispatch: Dispatch) {
    with_sharing(dispatch, move |s| {
        if let Ok(Some(storage)) = window().local_storage() {
            let _ = storage.set_item(STORAGE_KEY, &(s.text)(&session.borrow(), lang));
        }
    });
}

/// Puts the run in the address bar (without a new history entry) and returns the full link. (The
/// caller copies it: [`copy_to_clipboard`].)
pub fn share_link(sharing: Sharing, session: &Session, lang: Lang) -> String {
    super::address_bar::put(&(sharing.fragment)(session, lang))
}

/// Offers the run as a JSON file download.
pub fn export(sharing: Sharing, session: &Session, lang: Lang) {
    let text = (sharing.text)(session, lang);
    download(
        &format!("barrierscope-{}-step-{}.json", session.config.job, session.timeline.position()),
        "application/json",
        &text,
    );
}

/// Reads the chosen file and opens its text (or says why it cannot).
pub fn import(input: &web_sys::HtmlInputElement, dispatch: Dispatch) {
    let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
    input.set_value("");
    if file.size() > crate::classroom::MAX_SAVED_BYTES as f64 {
        open_text(&dispatch, Origin::File, Err(LoadError::TooLarge(file.size() as usize)));
        return;
    }
    let Ok(reader) = web_sys::FileReader::new() else { return };
    let r = reader.clone();
    // A FileReader calls onload once; a once-closure frees itself when it has been called.
    let onload = Closure::once_into_js(move |_: web_sys::ProgressEvent| {
        let text = r.result().ok().and_then(|v| v.as_string());
        open_text(&dispatch, Origin::File, text.ok_or(LoadError::Encoding));
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}

#[derive(Properties, PartialEq)]
pub struct ShareBarProps {
    /// Read when Share or Export is pressed.
    pub session: Shared<RefCell<Session>>,
    /// The open lesson, if any.
    pub lesson: Option<usize>,
    /// The title of the lesson opened from a file or a link, if one is open.
    #[prop_or_default]
    pub file_lesson: Option<crate::classroom::Text>,
    pub presenter: bool,
    /// The link made by the Share button, shown for copying.
    pub link: Option<String>,
    /// Whether the browser copied it (None: not answered yet).
    pub copied: Option<bool>,
    pub lang: Lang,
    pub dispatch: Dispatch,
    /// The rooms' buttons, at the end of the bar.
    #[prop_or_default]
    pub rooms: Html,
}

/// Lessons and sharing: the lesson menu, presenter mode, share link, export and import.
#[component]
pub fn ShareBar(props: &ShareBarProps) -> Html {
    let l = props.lang;
    let d = &props.dispatch;
    // The menu shows the lesson that runs, not the last one picked: the pick goes back to the
    // running lesson, and the new lesson shows when it runs (the `~value` property: the options'
    // `selected` attributes stop counting once an option has been picked).
    let running = props.lesson.map_or_else(|| "none".to_string(), |i| i.to_string());
    let on_lesson = {
        let d = d.clone();
        let running = running.clone();
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<web_sys::HtmlSelectElement>();
            let picked = select.value();
            select.set_value(&running);
            match picked.parse() {
                Ok(i) => with_lessons(d.clone(), Msg::Cmd(Command::StartLesson(i))),
                Err(_) => d.dispatch(Msg::Cmd(Command::LessonExit)),
            }
        })
    };
    let presenter_toggle = {
        let d = d.clone();
        let on = props.presenter;
        Callback::from(move |_| d.dispatch(Msg::Presenter(!on)))
    };
    let on_share = {
        let (d, session) = (d.clone(), props.session.clone());
        Callback::from(move |_| {
            let (d, session) = (d.clone(), session.clone());
            with_sharing(d.clone(), move |s| {
                let url = share_link(s, &session.borrow(), l);
                d.dispatch(Msg::Shared(url.clone()));
                let (d, text) = (d.clone(), url.clone());
                copy_to_clipboard(&text, move |ok| d.dispatch(Msg::Copied { url, ok }));
            });
        })
    };
    // Refused: the link is selected, for copying by hand.
    use_effect_with(props.copied, |copied| {
        if *copied == Some(false) {
            let field = window().document().and_then(|d| d.get_element_by_id("share-url"));
            if let Some(input) = field.and_then(|f| f.dyn_into::<HtmlInputElement>().ok()) {
                let _ = input.focus();
                input.select();
            }
        }
    });
    let on_export = {
        let (d, session) = (d.clone(), props.session.clone());
        Callback::from(move |_| {
            let (d, session) = (d.clone(), session.clone());
            with_sharing(d.clone(), move |s| {
                export(s, &session.borrow(), l);
                d.dispatch(Msg::Exported);
            });
        })
    };
    let on_import = {
        let d = d.clone();
        Callback::from(move |e: Event| import(&e.target_unchecked_into::<HtmlInputElement>(), d.clone()))
    };
    let lesson = props.lesson;
    html! {
        <div class="sharebar" role="region" aria-label={l.t("Lessons and sharing", "课程与分享")}>
            <label>{ l.t("Lesson", "课程") }
                <select id="sel-lesson" ~value={running} onchange={on_lesson} aria-label={l.t("Guided lesson", "引导课程")}>
                    <option value="none" selected={lesson.is_none()}>{ l.t("Free play (no lesson)", "自由操作（无课程）") }</option>
                    { for CATALOGUE.iter().enumerate().map(|(i, x)| html!{
                        <option value={i.to_string()} selected={lesson == Some(i)}>{ if l == Lang::Zh { x.title.zh } else { x.title.en } }</option> }) }
                    // A lesson opened from a file or a link, after the built-in ones.
                    { for props.file_lesson.map(|t| html!{
                        <option id="opt-file-lesson" value={CATALOGUE.len().to_string()} selected={lesson == Some(CATALOGUE.len())}>
                            { if l == Lang::Zh { format!("来自文件：{}", t.zh) } else { format!("From a file: {}", t.en) } }</option> }) }
                </select></label>
            <button id="btn-presenter" class={classes!("tool", props.presenter.then_some("on"))} onclick={presenter_toggle}
                aria-pressed={props.presenter.to_string()} aria-keyshortcuts="P" title={l.t("Presenter mode: large type, high contrast (P, Esc to leave)", "演示模式：大字号、高对比度（P，Esc 退出）")}>
                { l.t("▣ Presenter", "▣ 演示模式") }</button>
            <button id="btn-share" class="tool" onclick={on_share} title={l.t("Put the whole run in a link", "把整个运行放进一个链接")}>{ l.t("↗ Share link", "↗ 分享链接") }</button>
            { export_button("btn-export", l.t("Download the run as a JSON file", "把运行下载为 JSON 文件"), on_export, l) }
            { import_button("inp-import", l.t("Import a run or a lesson from a JSON file", "从 JSON 文件导入运行或课程"), false, on_import, l) }
            { props.link.clone().map(|url| html!{
                <input id="share-url" class="share-url" type="text" readonly=true value={url} aria-label={l.t("Link to this run", "此运行的链接")}
                    aria-describedby="share-status" />
            }).unwrap_or_default() }
            <span id="share-status" class={classes!("share-status", (props.copied == Some(false)).then_some("refused"))} role="status"
                data-copied={props.copied.map_or("", |ok| if ok { "yes" } else { "no" })}>{ match (&props.link, props.copied) {
                (Some(_), Some(true)) => l.t("✓ Link copied", "✓ 链接已复制"),
                (Some(_), Some(false)) => l.t(
                    "The browser did not let the page copy: the link is selected, press Ctrl+C to copy it.",
                    "浏览器不允许本页复制：链接已选中，按 Ctrl+C 复制。"),
                _ => "",
            } }</span>
            { props.rooms.clone() }
        </div>
    }
}

/// The last notice: why something was refused, or what was opened; after a fork, an Undo button,
/// and after an undo that set steps aside, a Redo button.
pub fn notice_bar(
    notice: Option<&Notice>,
    words: Option<super::words_part::Words>,
    l: Lang,
    dispatch: &Dispatch,
) -> Html {
    let cmd = |c: Command| {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(c.clone())))
    };
    let action = match notice {
        Some(Notice::Forked(_)) | Some(Notice::Redone { set_aside: 1.., .. }) => html! {
            <button id="btn-undo-fork" class="tool" onclick={cmd(Command::Undo)} aria-keyshortcuts="Control+Z"
                title={l.t("Bring the dropped steps back (Ctrl+Z)", "找回被丢弃的步骤（Ctrl+Z）")}>{ l.t("↩ Undo", "↩ 撤销") }</button>
        },
        Some(Notice::Undone { set_aside: 1.., .. }) => html! {
            <button id="btn-redo-fork" class="tool" onclick={cmd(Command::Redo)} aria-keyshortcuts="Control+Y"
                title={l.t("Put back the steps the undo set aside (Ctrl+Y)", "放回撤销时暂存的步骤（Ctrl+Y）")}>{ l.t("↪ Redo", "↪ 重做") }</button>
        },
        _ => html! {},
    };
    html! {
        <div id="notice" class={classes!("notice", notice.is_some().then_some("shown"),
                notice.is_some_and(|n| !n.is_error()).then_some("info"))} role="alert">
            { notice.map(|n| html!{ <>
                <span>{ words.map_or_else(|| "…".to_string(), |w| (w.notice)(n, l)) }</span>
                { action }
                <button class="dismiss" onclick={cmd(Command::Dismiss)} aria-label={l.t("Dismiss", "关闭")}>{"×"}</button>
            </> }).unwrap_or_default() }
        </div>
    }
}
