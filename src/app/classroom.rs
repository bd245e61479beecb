//! The classroom around the simulator: the share bar (lessons, presenter mode, a link that
//! restores the run, export and import as a JSON file), the notice, the lesson bar (narrated
//! steps, predict-then-reveal), and the last run kept in the browser's storage. The functions here
//! that reach the browser (storage, address bar, clipboard, download) are called from effects and
//! callbacks, never from the reducer.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::room_loader::{with_sharing, Sharing};
use super::text::{verdict_mark, Lang};
use super::{Dispatch, Msg, Shared};
use crate::classroom::{
    from_fragment, next_guess, score, Command, Judge, LoadError, Notice, OnDiagram, Origin, Session, CATALOGUE,
};
use crate::engine::ledger::Verdict;

pub const STORAGE_KEY: &str = "barrierscope.run";

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

/// Opens a saved run; one that stands in a lesson waits for the lessons' part.
pub fn open_text(dispatch: &Dispatch, origin: Origin, text: Result<String, LoadError>) {
    let d = dispatch.clone();
    with_sharing(dispatch.clone(), move |s| match &text {
        Ok(t) if (s.in_lesson)(t) => super::room_loader::with_lessons(d, Msg::Load(origin, text)),
        _ => d.dispatch(Msg::Load(origin, text)),
    });
}

/// The room a link opens: `#room=NAME`, optionally followed by `&` and what the room reads.
pub fn room_in_link() -> Option<super::room_loader::Room> {
    let hash = window().location().hash().ok()?;
    let name = hash.strip_prefix("#room=")?;
    super::room_loader::Room::from_id(name.split('&').next().unwrap_or(name))
}

/// Puts the open room in the address bar, or takes a closed one out (without a history entry). A
/// room's own part of the link (after `&`) stays while the room is open.
pub fn show_room_in_link(room: Option<super::room_loader::Room>) {
    let loc = window().location();
    let hash = loc.hash().unwrap_or_default();
    let in_link = room_in_link();
    let wanted = match room {
        Some(r) if in_link == Some(r) => return,
        Some(r) => format!("#room={}", r.id()),
        None if in_link.is_some() || hash.starts_with("#room=") => String::new(),
        None => return,
    };
    let url = format!("{}{}", loc.pathname().unwrap_or_default(), loc.search().unwrap_or_default());
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{url}{wanted}")));
    }
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
    let fragment = (sharing.fragment)(session, lang);
    let loc = window().location();
    let base = format!(
        "{}{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    let url = format!("{base}#{fragment}");
    if let Ok(h) = window().history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
    url
}

/// Copies `text` to the clipboard, then calls `done(true)`; `done(false)` if the browser refuses
/// (no permission, the page not focused) or has no clipboard here (a page not served securely).
pub fn copy_to_clipboard(text: &str, done: impl FnOnce(bool) + 'static) {
    let navigator = window().navigator();
    let has_clipboard =
        js_sys::Reflect::get(&navigator, &"clipboard".into()).is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has_clipboard {
        done(false);
        return;
    }
    // The promise settles once, calling one of the two; the other is never called.
    let done = Rc::new(RefCell::new(Some(done)));
    let answer = |ok: bool| {
        let done = done.clone();
        Closure::once_into_js(move |_: wasm_bindgen::JsValue| {
            if let Some(f) = done.borrow_mut().take() {
                f(ok)
            }
        })
    };
    let promise = navigator.clipboard().write_text(text);
    // `promise.then(copied, refused)`, with functions that free themselves when called.
    if let Ok(then) = js_sys::Reflect::get(&promise, &"then".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) {
        let _ = then.call2(&promise, &answer(true), &answer(false));
    }
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

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    let doc = window().document().expect("document");
    if let Ok(a) = doc.create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
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

/// A prediction chip's mark: a symbol and a word, "?" while unmarked.
fn guess_mark(l: Lang, v: Option<Verdict>) -> (&'static str, &'static str) {
    match v {
        Some(v) => verdict_mark(l, v),
        None => ("?", l.t("not marked yet", "尚未标记")),
    }
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
                Ok(i) => super::room_loader::with_lessons(d.clone(), Msg::Cmd(Command::StartLesson(i))),
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
            <button id="btn-export" class="tool" onclick={on_export} title={l.t("Download the run as a JSON file", "把运行下载为 JSON 文件")}>{ l.t("↓ Export", "↓ 导出") }</button>
            <label class="tool import" title={l.t("Open a run or a lesson from a JSON file", "从 JSON 文件打开运行或课程")}>{ l.t("↑ Import", "↑ 导入") }
                <input id="inp-import" type="file" accept=".json,application/json" onchange={on_import} aria-label={l.t("Import a run or lesson file", "导入运行或课程文件")} /></label>
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
pub fn notice_bar(notice: Option<&Notice>, l: Lang, dispatch: &Dispatch) -> Html {
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
                <span>{ n.message(l) }</span>
                { action }
                <button class="dismiss" onclick={cmd(Command::Dismiss)} aria-label={l.t("Dismiss", "关闭")}>{"×"}</button>
            </> }).unwrap_or_default() }
        </div>
    }
}

/// The lesson bar: title, step, narration, predict-then-reveal, navigation. In presenter mode the
/// score's per-record chips fold after a reveal (the verdict beside the canvas shows each record),
/// so the canvas keeps its height.
pub fn lesson_bar(session: &Session, l: Lang, presenter: bool, dispatch: &Dispatch) -> Html {
    let Some(p) = &session.lesson else { return html! {} };
    let lesson = p.lesson();
    let step = p.current();
    let n = lesson.steps.len();
    let zh = l == Lang::Zh;
    let pick = |t: &crate::classroom::Text| if zh { t.zh } else { t.en };
    let say = match (step.reveal, p.revealed) {
        (Some(r), true) => pick(&r),
        _ => pick(&step.say),
    };
    let cmd = |c: Command| {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(c.clone())))
    };
    let judge = step.predict;
    let sim = session.sim();
    let predict_ui = if p.awaiting_reveal() {
        let judge_word = match judge {
            Some(Judge::Output) => l.t("in the output a reader sees", "在读者看到的输出中"),
            _ => l.t("in the counts", "在计数中"),
        };
        let left = p.unmarked(sim.graph.records.iter().map(|r| r.label.as_str()));
        html! {
            <div class="predict" id="predict" role="group" aria-label={l.t("Your prediction", "你的预测")} data-left={left.to_string()}>
                <p class="predict-help">{ format!("{} {} — {}", l.t("Predict each record's fate", "预测每条记录的命运"), judge_word,
                    l.t("every record starts unmarked (?); click it to cycle ✓ exactly once → ✗ lost → ⊕ duplicated.",
                        "每条记录起初未标记（?）；点击它切换：✓ 精确一次 → ✗ 丢失 → ⊕ 重复。")) }</p>
                <div class="predict-records">
                { for sim.graph.records.iter().map(|r| {
                    let v = p.predictions.get(&r.label).copied();
                    let (sym, word) = guess_mark(l, v);
                    let id = v.map_or("unmarked", Verdict::id);
                    let label = r.label.clone();
                    let onclick = { let d = dispatch.clone(); let label = label.clone(); Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::Predict(label.clone(), next_guess(v))))) };
                    html! {
                        <button class={classes!("predict-chip", id)} id={format!("predict-{label}")} data-prediction={id} onclick={onclick}
                            aria-label={format!("{label}: {word}")}>
                            <span class="p-label">{ label.clone() }</span><span class="p-mark">{ format!("{sym} {word}") }</span>
                        </button>
                    }
                }) }
                </div>
                <p class="predict-left" id="predict-left" aria-live="polite">{ if left == 0 {
                    l.t("Every record is marked: reveal when you are ready.", "每条记录都已标记：准备好就揭晓吧。").to_string()
                } else if zh { format!("还有 {left} 条记录未标记。") } else { format!("{left} left to mark.") } }</p>
            </div>
        }
    } else {
        html! {}
    };
    let score_ui = match (judge, p.revealed) {
        (Some(j), true) => {
            let (rows, right) = score(sim, j, &p.predictions);
            html! {
                <div class="score" id="score" data-right={right.to_string()} data-total={rows.len().to_string()}>
                    <p class="score-line">{ if zh { format!("你预测对了 {} 条记录中的 {} 条。", rows.len(), right) }
                        else { format!("You predicted {right} of {} records correctly.", rows.len()) } }</p>
                    <details class="score-records" id="score-records" open={!presenter}>
                    <summary>{ l.t("Each record: your guess and the outcome", "每条记录：你的预测与结果") }</summary>
                    <div class="predict-records">
                    { for rows.iter().map(|(label, guess, actual)| {
                        let aword = verdict_mark(l, *actual).1;
                        let ok = *guess == Some(*actual);
                        let said = match guess {
                            Some(g) => if zh { format!("猜 {}", verdict_mark(l, *g).1) } else { format!("guessed {}", verdict_mark(l, *g).1) },
                            None => l.t("not marked", "未标记").to_string(),
                        };
                        let text = if zh { format!("{label}：{said} · 实际 {aword} {}", if ok { "✔" } else { "✘" }) }
                            else { format!("{label}: {said} · was {aword} {}", if ok { "✔" } else { "✘" }) };
                        html! { <span class={classes!("score-chip", actual.id(), ok.then_some("right"))} data-record={label.clone()} data-actual={actual.id()}
                            data-guess={guess.map_or("unmarked", Verdict::id)}>{ text }</span> }
                    }) }
                    </div>
                    </details>
                </div>
            }
        }
        _ => html! {},
    };
    let next_label = if p.awaiting_reveal() {
        l.t("Reveal ▶", "揭晓 ▶")
    } else if p.step + 1 < n {
        l.t("Next ▶", "下一步 ▶")
    } else {
        l.t("Lesson done", "课程结束")
    };
    let cut_missing = !p.cut_found();
    let next_enabled = p.awaiting_reveal() || (p.step + 1 < n && !cut_missing);
    // A step that shows the run as a space-time diagram opens it (its part loads then); in the
    // room the lesson bar stays above it.
    let diagram_ui = match step.diagram {
        OnDiagram::No => html! {},
        shown => {
            let d = dispatch.clone();
            let (r, total) = p.cut_score();
            html! {
                <div class="lesson-diagram" id="lesson-diagram">
                    <button class="tool primary" id="lesson-open-diagram" aria-keyshortcuts="D"
                        onclick={Callback::from(move |_: MouseEvent| d.dispatch(Msg::Room(Some(super::room_loader::Room::SpaceTime))))}>
                        { if shown == OnDiagram::Draw { l.t("⧖ Draw on the space-time diagram", "⧖ 在时空图上画切面") }
                          else { l.t("⧖ See it on the space-time diagram", "⧖ 在时空图上查看") } }</button>
                    if shown == OnDiagram::Draw {
                        <span id="lesson-cut-score" class="lesson-cut-score" data-right={r.to_string()} data-total={total.to_string()}
                            data-found={(!cut_missing).to_string()}>{ match (total, cut_missing, zh) {
                            (0, _, false) => "No cut checked yet.".to_string(),
                            (0, _, true) => "还没有检查过切面。".to_string(),
                            (_, true, false) => format!("{total} cuts checked, none consistent yet; you predicted {r} of {total} right."),
                            (_, true, true) => format!("已检查 {total} 个切面，还没有一致的；你预测对了 {total} 个中的 {r} 个。"),
                            (_, false, false) => format!("✓ A consistent cut found after {total} cuts; you predicted {r} of {total} right."),
                            (_, false, true) => format!("✓ 检查了 {total} 个切面后找到了一致的切面；你预测对了 {total} 个中的 {r} 个。"),
                        } }</span>
                    }
                </div>
            }
        }
    };
    // Lesson 15 tells on the main screen the story of the ⚙ Program & savepoints room: a button in
    // the lesson's head row (no row of its own, so the canvas keeps its height in presenter mode)
    // opens the room on the run the lesson stands at (its part loads then); Esc comes back.
    let program_ui = if lesson.id == "changed-program" {
        let d = dispatch.clone();
        html! {
            <button class="tool" id="lesson-open-program"
                title={l.t("Open this run in the Program & savepoints room: the mapping table, the key-group ring (Esc comes back)",
                    "在“程序与保存点”中打开这次运行：映射表、键组环（按 Esc 返回）")}
                onclick={Callback::from(move |_: MouseEvent| d.dispatch(Msg::Room(Some(super::room_loader::Room::Program))))}>
                { super::room_loader::Room::Program.button(l) }</button>
        }
    } else {
        html! {}
    };
    let prev_enabled = p.step > 0 || (judge.is_some() && p.revealed);
    let title = pick(&lesson.title);
    // A lesson from a file has no next lesson.
    let following = (p.lesson + 1 < CATALOGUE.len()).then_some(p.lesson + 1);
    html! {
        <section id="lesson" class="lesson-bar" aria-labelledby="lesson-title" data-lesson={lesson.id} data-step={(p.step + 1).to_string()}
            data-revealed={p.revealed.to_string()}>
            <div class="lesson-head">
                <h2 id="lesson-title">{ title }</h2>
                <span class="lesson-step">{ if zh { format!("第 {} / {} 步", p.step + 1, n) } else { format!("step {} of {}", p.step + 1, n) } }</span>
                { match following {
                    Some(next) if p.step + 1 == n && !p.awaiting_reveal() => html!{
                        <button class="tool" id="lesson-following" onclick={cmd(Command::StartLesson(next))}>{ l.t("Next lesson ▶", "下一课 ▶") }</button> },
                    _ => html!{},
                  } }
                { program_ui }
                <button class="tool" id="lesson-exit" onclick={cmd(Command::LessonExit)}>{ l.t("✕ Leave the lesson", "✕ 离开课程") }</button>
            </div>
            <p class="lesson-say" id="lesson-say" aria-live="polite">{ say }</p>
            { diagram_ui }
            { predict_ui }
            { score_ui }
            { if session.took_over {
                html!{ <p class="took-over" id="took-over">{ l.t("You took over: the run is yours now.", "你接管了：现在的运行由你掌控。") }
                    <button class="tool" id="lesson-resume" onclick={cmd(Command::LessonResume)}>{ l.t("↩ Back to the lesson", "↩ 回到课程") }</button></p> }
              } else { html!{} } }
            <div class="lesson-nav">
                <button class="tool" id="lesson-prev" onclick={cmd(Command::LessonPrev)} disabled={!prev_enabled} aria-keyshortcuts="PageUp"
                    title={if prev_enabled { l.t("The previous step of the lesson (PageUp)", "课程的上一步（PageUp）") }
                        else { l.t("This is the lesson's first step", "这是课程的第一步") }}>{ l.t("◀ Previous", "◀ 上一步") }</button>
                <button class="tool primary" id="lesson-next" onclick={cmd(Command::LessonNext)} disabled={!next_enabled} aria-keyshortcuts="PageDown"
                    title={if next_enabled { l.t("The next step of the lesson (PageDown)", "课程的下一步（PageDown）") }
                        else if cut_missing { l.t("Draw a consistent cut on the space-time diagram first", "请先在时空图上画出一个一致的切面") }
                        else { l.t("This is the lesson's last step", "这是课程的最后一步") }}>{ next_label }</button>
            </div>
        </section>
    }
}
