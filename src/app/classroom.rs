//! The classroom around the simulator: the lesson bar (narrated steps, predict-then-reveal),
//! sharing (a link that restores the run, export and import as a JSON file, the last run kept in
//! the browser's storage). The functions here that reach the browser (storage, address bar,
//! clipboard, download) are called from effects and callbacks, never from the reducer.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::text::{verdict_mark, Lang};
use crate::engine::ledger::Verdict;
use crate::lessons::{score, Judge, LESSONS};
use crate::session::{from_fragment, to_fragment, Command, LoadError, Origin, Session};

pub const STORAGE_KEY: &str = "barrierscope.run";

fn window() -> web_sys::Window {
    web_sys::window().expect("a window")
}

/// The saved run in the link the page was opened with, if any.
pub fn link_text() -> Option<Result<String, LoadError>> {
    let hash = window().location().hash().ok()?;
    if hash.len() <= 1 {
        return None;
    }
    Some(from_fragment(&hash))
}

pub fn stored_text() -> Option<String> {
    window().local_storage().ok()??.get_item(STORAGE_KEY).ok()?
}

pub fn store(session: &Session, lang: Lang) {
    if let Ok(Some(storage)) = window().local_storage() {
        if let Ok(text) = serde_json::to_string(&session.save(lang)) {
            let _ = storage.set_item(STORAGE_KEY, &text);
        }
    }
}

/// Puts the run in the address bar (without a new history entry) and returns the full link.
pub fn share_link(session: &Session, lang: Lang) -> String {
    let fragment = to_fragment(&session.save(lang));
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
    let _ = window().navigator().clipboard().write_text(&url);
    url
}

/// Offers the run as a JSON file download.
pub fn export(session: &Session, lang: Lang) {
    let Ok(text) = serde_json::to_string_pretty(&session.save(lang)) else { return };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    let doc = window().document().expect("document");
    if let Ok(a) = doc.create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(&format!("barrierscope-{}-step-{}.json", session.config.job, session.timeline.position()));
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Reads the chosen file and hands its text to `done` (or a load error).
pub fn import(input: &web_sys::HtmlInputElement, done: Callback<(Origin, Result<String, LoadError>)>) {
    let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
    input.set_value("");
    if file.size() > crate::session::MAX_SAVED_BYTES as f64 {
        done.emit((Origin::File, Err(LoadError::TooLarge(file.size() as usize))));
        return;
    }
    let Ok(reader) = web_sys::FileReader::new() else { return };
    let r = reader.clone();
    // A FileReader calls onload once; a once-closure frees itself when it has been called.
    let onload = Closure::once_into_js(move |_: web_sys::ProgressEvent| {
        let text = r.result().ok().and_then(|v| v.as_string());
        done.emit((Origin::File, text.ok_or(LoadError::Encoding)));
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}

fn cycle(v: Verdict) -> Verdict {
    match v {
        Verdict::ExactlyOnce => Verdict::Lost,
        Verdict::Lost => Verdict::Duplicated,
        _ => Verdict::ExactlyOnce,
    }
}

/// The lesson bar: title, step, narration, predict-then-reveal, navigation.
pub fn lesson_bar(session: &Session, l: Lang, send: &Callback<Command>) -> Html {
    let Some(p) = &session.lesson else { return html! {} };
    let lesson = p.lesson();
    let step = p.current();
    let n = lesson.steps.len();
    let zh = l == Lang::Zh;
    let pick = |t: &crate::lessons::Text| if zh { t.zh } else { t.en };
    let say = match (step.reveal, p.revealed) {
        (Some(r), true) => pick(&r),
        _ => pick(&step.say),
    };
    let cmd = |c: Command| {
        let send = send.clone();
        Callback::from(move |_: MouseEvent| send.emit(c.clone()))
    };
    let judge = step.predict;
    let sim = session.sim();
    let predict_ui = if p.awaiting_reveal() {
        let judge_word = match judge {
            Some(Judge::Output) => l.t("in the output a reader sees", "在读者看到的输出中"),
            _ => l.t("in the counts", "在计数中"),
        };
        html! {
            <div class="predict" id="predict" role="group" aria-label={l.t("Your prediction", "你的预测")}>
                <p class="predict-help">{ format!("{} {} — {}", l.t("Predict each record's fate", "预测每条记录的命运"), judge_word,
                    l.t("click a record to cycle ✓ exactly once → ✗ lost → ⊕ duplicated.", "点击记录切换：✓ 精确一次 → ✗ 丢失 → ⊕ 重复。")) }</p>
                <div class="predict-records">
                { for sim.graph.records.iter().map(|r| {
                    let v = p.predictions.get(&r.label).copied().unwrap_or(Verdict::ExactlyOnce);
                    let (sym, word) = verdict_mark(l, v);
                    let label = r.label.clone();
                    let onclick = { let send = send.clone(); let label = label.clone(); Callback::from(move |_: MouseEvent| send.emit(Command::Predict(label.clone(), cycle(v)))) };
                    html! {
                        <button class={classes!("predict-chip", v.id())} id={format!("predict-{label}")} data-prediction={v.id()} onclick={onclick}
                            aria-label={format!("{label}: {word}")}>
                            <span class="p-label">{ label.clone() }</span><span class="p-mark">{ format!("{sym} {word}") }</span>
                        </button>
                    }
                }) }
                </div>
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
                    <div class="predict-records">
                    { for rows.iter().map(|(label, guess, actual)| {
                        let (asym, aword) = verdict_mark(l, *actual);
                        let ok = guess == actual;
                        html! { <span class={classes!("score-chip", actual.id(), ok.then_some("right"))} data-record={label.clone()} data-actual={actual.id()}
                            title={format!("{}: {} {}", label, l.t("you said", "你的预测："), verdict_mark(l, *guess).1)}>
                            { format!("{label} {asym} {aword} {}", if ok { "✔" } else { "✘" }) }</span> }
                    }) }
                    </div>
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
    let next_enabled = p.awaiting_reveal() || p.step + 1 < n;
    let prev_enabled = p.step > 0 || (judge.is_some() && p.revealed);
    let title = pick(&lesson.title);
    let lesson_no = LESSONS.iter().position(|x| x.id == lesson.id).unwrap_or(0);
    html! {
        <section id="lesson" class="lesson-bar" aria-labelledby="lesson-title" data-lesson={lesson.id} data-step={(p.step + 1).to_string()}
            data-revealed={p.revealed.to_string()}>
            <div class="lesson-head">
                <h2 id="lesson-title">{ title }</h2>
                <span class="lesson-step">{ if zh { format!("第 {} / {} 步", p.step + 1, n) } else { format!("step {} of {}", p.step + 1, n) } }</span>
                { if lesson_no + 1 < LESSONS.len() && p.step + 1 == n && !p.awaiting_reveal() {
                    html!{ <button class="tool" id="lesson-following" onclick={cmd(Command::StartLesson(lesson_no + 1))}>{ l.t("Next lesson ▶", "下一课 ▶") }</button> }
                  } else { html!{} } }
                <button class="tool" id="lesson-exit" onclick={cmd(Command::LessonExit)}>{ l.t("✕ Leave the lesson", "✕ 离开课程") }</button>
            </div>
            <p class="lesson-say" id="lesson-say" aria-live="polite">{ say }</p>
            { predict_ui }
            { score_ui }
            { if session.took_over {
                html!{ <p class="took-over" id="took-over">{ l.t("You took over: the run is yours now.", "你接管了：现在的运行由你掌控。") }
                    <button class="tool" id="lesson-resume" onclick={cmd(Command::LessonResume)}>{ l.t("↩ Back to the lesson", "↩ 回到课程") }</button></p> }
              } else { html!{} } }
            <div class="lesson-nav">
                <button class="tool" id="lesson-prev" onclick={cmd(Command::LessonPrev)} disabled={!prev_enabled} aria-keyshortcuts="PageUp">{ l.t("◀ Previous", "◀ 上一步") }</button>
                <button class="tool primary" id="lesson-next" onclick={cmd(Command::LessonNext)} disabled={!next_enabled} aria-keyshortcuts="PageDown">{ next_label }</button>
            </div>
        </section>
    }
}
