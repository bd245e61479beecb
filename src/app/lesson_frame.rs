//! The one lesson bar. Every lesson on the page (the main screen's, the Batch room's, Side by
//! side's) is told in the same frame: a head with the lesson's title, "step 3 of 8" and the way
//! out, the narration in large type, what the step asks of the learner, and ◀ Previous / Next ▶,
//! which PageUp and PageDown (a clicker) press. Each lesson fills in its own words and its own
//! predict-and-reveal; the frame and its look are written once, here.

use yew::prelude::*;

use super::text::Lang;

/// What a lesson puts into the frame. The ids of the frame's parts derive from `id`: with
/// `id = "batch-lesson"`, the title is `#batch-lesson-title`, the narration `#batch-lesson-say`, the
/// buttons `#batch-lesson-prev`, `#batch-lesson-next` and `#batch-lesson-exit`.
pub struct LessonFrame {
    /// The section's own id, and the stem of its parts' ids.
    pub section_id: &'static str,
    pub id: &'static str,
    /// Classes beside `lesson-bar` (a room's own layout places the frame).
    pub class: Classes,
    pub lang: Lang,
    /// The lesson's title, and the step's own title if the lesson names its steps.
    pub title: String,
    pub step_title: Option<String>,
    /// The step shown (from 0) and the number of steps.
    pub step: usize,
    pub steps: usize,
    /// Buttons in the head row, before the way out (the next lesson, another room).
    pub head: Html,
    pub say: Html,
    /// What the step asks or shows under the narration: the predictions, the score, figures.
    pub body: Html,
    /// ◀ Previous: its action, or None where there is no step before.
    pub prev: Option<Callback<MouseEvent>>,
    pub prev_title: Option<&'static str>,
    /// Next ▶: its label, its action (None: disabled), its tooltip, and a hint shown beside it
    /// while it is disabled for a reason the learner can act on.
    pub next_label: &'static str,
    pub next: Option<Callback<MouseEvent>>,
    pub next_title: Option<&'static str>,
    pub next_hint: Option<&'static str>,
    /// ✕ Leave the lesson, where the lesson can be left without leaving the room.
    pub exit: Option<Callback<MouseEvent>>,
    /// The data attributes the tests and the stage read.
    pub data_lesson: Option<&'static str>,
    pub data_revealed: Option<bool>,
}

/// "step 3 of 8" in the page's language.
pub fn step_words(l: Lang, step: usize, steps: usize) -> String {
    match l {
        Lang::Zh => format!("第 {} / {} 步", step + 1, steps),
        Lang::En => format!("step {} of {}", step + 1, steps),
    }
}

/// The frame drawn.
pub fn lesson_frame(f: LessonFrame) -> Html {
    let l = f.lang;
    let id = |part: &str| format!("{}-{part}", f.id);
    let title = match &f.step_title {
        Some(s) if l == Lang::Zh => format!("{}：{s}", f.title),
        Some(s) => format!("{}: {s}", f.title),
        None => f.title.clone(),
    };
    let hint_id = f.next_hint.map(|_| id("wait"));
    html! {
        <section id={f.section_id} class={classes!("lesson-bar", f.class)} aria-labelledby={id("title")} tabindex="-1"
            data-lesson={f.data_lesson} data-step={(f.step + 1).to_string()} data-revealed={f.data_revealed.map(|r| r.to_string())}>
            <div class="lesson-head">
                <h2 id={id("title")}>{ title }</h2>
                <span class="lesson-step" id={id("step")}>{ step_words(l, f.step, f.steps) }</span>
                { f.head }
                if let Some(exit) = f.exit {
                    <button class="tool lesson-exit" id={id("exit")} onclick={exit}>{ l.t("✕ Leave the lesson", "✕ 离开课程") }</button>
                }
            </div>
            <p class="lesson-say" id={id("say")} aria-live="polite">{ f.say }</p>
            { f.body }
            <div class="lesson-nav">
                <button class="tool" id={id("prev")} disabled={f.prev.is_none()} onclick={f.prev} aria-keyshortcuts="PageUp"
                    title={f.prev_title}>{ l.t("◀ Previous", "◀ 上一步") }</button>
                <button class="tool primary" id={id("next")} disabled={f.next.is_none()} onclick={f.next} aria-keyshortcuts="PageDown"
                    title={f.next_title} aria-describedby={hint_id.clone()}>{ f.next_label }</button>
                if let (Some(h), Some(hid)) = (f.next_hint, hint_id) { <span class="hint" id={hid}>{ h }</span> }
            </div>
        </section>
    }
}

/// In a room whose lesson starts from a button in its header (the button gives way to the frame
/// while the lesson runs): when the lesson starts, the focus goes to the frame, and when it ends,
/// back to the button, so a keyboard or a screen reader is never left on the page's body.
#[hook]
pub fn use_lesson_focus(active: bool, start_id: &'static str, section_id: &'static str) {
    let first = use_mut_ref(|| true);
    use_effect_with(active, move |&active| {
        if !std::mem::replace(&mut *first.borrow_mut(), false) {
            let id = if active { section_id } else { start_id };
            use wasm_bindgen::JsCast;
            if let Some(el) = document().get_element_by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                super::focus::focus_quietly(&el);
            }
        }
    });
}

fn document() -> web_sys::Document {
    web_sys::window().and_then(|w| w.document()).expect("a page has a document")
}
