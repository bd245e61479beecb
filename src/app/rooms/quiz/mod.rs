//! Room: ✎ Quiz (issue 35). Ten questions drawn from the engine (`classroom::quiz`), one at a
//! time: the learner ticks options (by mouse, or Tab and Space, or the number keys 1 to 9 and 0), submits, and
//! sees the right answer with the engine's explanation; "Open on the canvas" replays the
//! question's run on the main screen; a score ends the set. The set's seed is in the link
//! (`#room=quiz&set=N`), so a teacher can give a whole class the same quiz; the set in progress
//! and the scores of finished sets stay in the browser's storage (`store.rs`).

mod answering;
mod at;
mod drawing;
mod store;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::RoomProps;
use crate::app::sharing_part;
use crate::app::text::{strategy_name, Lang};
use crate::app::ui_state::Msg;
use crate::classroom::quiz::history::{parse_set, Past, Progress, SetError};
use crate::classroom::quiz::{Question, SET_SIZE};
use crate::classroom::Origin;
use answering::{next, quiz_keys, submit, toggle};
use at::{right_count, At};

pub fn render(props: RoomProps) -> Html {
    html! { <>{ crate::app::rooms::room_head(crate::app::room::Room::Quiz, &props, Html::default()) }<QuizRoom ..props /></> }
}

#[component]
fn QuizRoom(props: &RoomProps) -> Html {
    let l = props.lang;
    let (first, link_error) = store::initial();
    let at = use_state(move || first);
    let link_error = use_state(move || link_error);
    let (set, complete) = drawing::use_drawn_set(at.set);
    // Until the set is drawn, it has its full ten questions to come.
    let total = if complete { set.questions.len() } else { SET_SIZE };
    let field_error = use_state(|| None::<SetError>);
    let history = use_state(store::history);
    let form = use_node_ref();
    // The set and where the learner stands go in the link and the browser's storage.
    {
        let at = (*at).clone();
        use_effect_with(at, |at| {
            store::keep(&Progress { set: at.set, answers: at.answers.clone() });
        });
    }
    // The focus follows the question: its first option when it opens, Next once graded. It moves
    // without scrolling: the room opens at its title, and a new question shows from its own title
    // down (its first option may sit under the schedule's diagram).
    {
        let form = form.clone();
        let first = use_mut_ref(|| true);
        // (and when the question it waited for is drawn)
        let shown = set.questions.len() > at.index();
        use_effect_with(
            (at.set, at.answers.len(), at.graded.is_some(), at.done, shown),
            move |&(_, _, graded, _, _)| {
                if let Some(el) = form.cast::<web_sys::HtmlElement>() {
                    let target = el.query_selector("[data-focus]").ok().flatten();
                    if let Some(t) = target.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok())
                    {
                        crate::app::focus::focus_quietly(&t);
                        if graded {
                            t.scroll_into_view_with_bool(false);
                        }
                    }
                    let opened = std::mem::replace(&mut *first.borrow_mut(), false);
                    if !opened && !graded {
                        if let Ok(Some(q)) = el.query_selector("#quiz-question, #quiz-score") {
                            q.scroll_into_view();
                        }
                    }
                }
            },
        );
    }

    let toggle = toggle(&at, &set);
    let submit = submit(&at, &set);
    let next = next(&at, &history);
    let open_set = {
        let at = at.clone();
        let link_error = link_error.clone();
        let field_error = field_error.clone();
        Callback::from(move |seed: u64| {
            link_error.set(None);
            field_error.set(None);
            at.set(At::start(seed));
        })
    };
    // Number keys tick options; Enter submits, then goes on (outside the set-number field).
    let onkeydown = quiz_keys(&toggle, &submit, &next, &at);

    let body = if at.done {
        score_view(&at, &history, l, &open_set)
    } else {
        match set.questions.get(at.index()) {
            Some(q) => question_view(q, &at, total, props, &toggle, &submit, &next),
            None if !complete => html! {
                <p class="quiz-preparing" id="quiz-preparing" role="status" aria-busy="true">{ match l {
                    Lang::En => format!("Preparing question {}: the engine is exploring every schedule it is graded on…", at.index() + 1),
                    Lang::Zh => format!("正在准备第 {} 题：引擎正在探索评分所依据的所有调度……", at.index() + 1),
                } }</p>
            },
            None => html! {},
        }
    };
    let link = store::link(at.set);
    let field = use_node_ref();
    let on_field = {
        let (field_error, open_set, field) = (field_error.clone(), open_set.clone(), field.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let value = field.cast::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            match parse_set(&value) {
                Ok(s) => open_set.emit(s),
                Err(why) => field_error.set(Some(why)),
            }
        })
    };
    let field_msg = (*field_error).as_ref().map(|e| e.message(l));
    let new_set = {
        let open_set = open_set.clone();
        Callback::from(move |_: MouseEvent| open_set.emit(store::fresh_seed()))
    };
    html! {
        <div class="room-body quiz" id="quiz" ref={form} {onkeydown}>
            if let Some(e) = (*link_error).clone() {
                <p class="quiz-error" id="quiz-link-error" role="alert">{ e.message(l) }{ " " }
                    { match l { Lang::En => format!("Here is set {} instead.", at.set), Lang::Zh => format!("这里改为题组 {}。", at.set) } }</p>
            }
            <div class="quiz-bar">
                <p class="quiz-where" id="quiz-where" data-set={at.set.to_string()}>
                    { match l {
                        Lang::En => format!("Set {} · question {} of {} · {} right so far", at.set, (at.index() + 1).min(SET_SIZE), total, right_count(&at.answers)),
                        Lang::Zh => format!("题组 {} · 第 {} 题，共 {} 题 · 目前答对 {} 题", at.set, (at.index() + 1).min(SET_SIZE), total, right_count(&at.answers)),
                    } }</p>
                <label class="quiz-link">{ l.t("Share this set: ", "分享这组题：") }
                    <input id="quiz-link" type="text" readonly=true value={link} onfocus={Callback::from(|e: FocusEvent| {
                        if let Some(i) = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlInputElement>(t).ok()) { i.select(); }
                    })} /></label>
                <form class="quiz-open-set" onsubmit={on_field}>
                    <label for="quiz-set-field">{ l.t("Set number", "题组编号") }</label>
                    <input id="quiz-set-field" ref={field} type="text" inputmode="numeric" size="10"
                        aria-invalid={field_msg.is_some().to_string()} aria-describedby="quiz-set-error" />
                    <button class="tool" id="quiz-set-open" type="submit">{ l.t("Open set", "打开题组") }</button>
                    <button class="tool" id="quiz-new" type="button" onclick={new_set}>{ l.t("↻ New set", "↻ 换一组") }</button>
                </form>
                <p class="quiz-error" id="quiz-set-error" role="status">{ field_msg.unwrap_or_default() }</p>
            </div>
            { body }
        </div>
    }
}

/// Type 1 shows its schedule as a space-time diagram too: the run up to the restore (what
/// follows is the answer), drawn by the space-time room's drawing.
fn schedule_diagram(q: &Question, l: Lang, presenter: bool) -> Html {
    if q.kind != crate::classroom::quiz::Kind::LostOrDuplicated {
        return html! {};
    }
    let Some(crash) = q.actions.iter().position(|a| *a == crate::engine::Action::Crash) else { return html! {} };
    let shown = (crash + 2).min(q.actions.len());
    let Ok(start) = q.run.scenario().sim() else { return html! {} };
    let Ok(tl) = crate::engine::Timeline::from_actions(start, &q.actions[..shown]) else { return html! {} };
    let caption = l.t(
        "The schedule up to the restore, as a space-time diagram: one line per task, one arrow per record and barrier, ◉ a save, ✖ the crash, ⟳ the restore.",
        "到恢复为止的调度，画成时空图：每个任务一条线，每条记录和屏障一个箭头，◉ 保存，✖ 崩溃，⟳ 恢复。",
    );
    super::spacetime::still::still(&tl, l, presenter, caption)
}

fn question_view(
    q: &Question,
    at: &At,
    total: usize,
    props: &RoomProps,
    toggle: &Callback<usize>,
    submit: &Callback<()>,
    next: &Callback<()>,
) -> Html {
    let l = props.lang;
    let index = at.index();
    let graded = at.graded.as_ref();
    let kind = if q.several { "checkbox" } else { "radio" };
    let s = &q.run.settings;
    let run_line = match l {
        Lang::En => format!("Job {} · {} · scheduler seed {}", q.run.job, strategy_name(l, s.strategy), q.run.seed),
        Lang::Zh => format!("作业 {} · {} · 调度种子 {}", q.run.job, strategy_name(l, s.strategy), q.run.seed),
    };
    let options = q.choices.iter().enumerate().map(|(i, c)| {
        let ticked = at.ticked.contains(&i);
        let mark = graded.map(|_| match (c.right, ticked) {
            (true, true) => ("right", l.t("✓ right", "✓ 正确")),
            // A right answer the learner left unticked is a miss, not a success: marked as a miss.
            (true, false) => ("missed", l.t("✗ missed: this one is right", "✗ 漏选：这一项是正确的")),
            (false, true) => ("wrong", l.t("✗ wrong", "✗ 错误")),
            (false, false) => ("", ""),
        });
        let t = toggle.clone();
        let id = format!("quiz-opt-{i}");
        html! {
            <li class={classes!("quiz-option", mark.map(|m| m.0))} data-right={graded.map(|_| c.right.to_string())}>
                <input type={kind} name="quiz-opt" id={id.clone()} checked={ticked} disabled={graded.is_some()}
                    data-focus={(i == 0 && graded.is_none()).then_some("true")}
                    data-autofocus={(i == 0 && graded.is_none()).then_some("true")}
                    onchange={Callback::from(move |_: Event| t.emit(i))} />
                <label for={id}>if i < 10 { <kbd>{ ((i + 1) % 10).to_string() }</kbd>{ " " } }{ c.words.get(l).to_string() }</label>
                if let Some((_, words)) = mark.filter(|m| !m.1.is_empty()) { <span class="quiz-mark">{ words }</span> }
            </li>
        }
    });
    let result = graded.map(|g| {
        let answer: Vec<String> = q.answer().into_iter().map(|i| q.choices[i].words.get(l).to_string()).collect();
        let text = match (g.right, l) {
            (true, Lang::En) => "Right.".to_string(),
            (true, Lang::Zh) => "答对了。".to_string(),
            (false, Lang::En) => format!("Not quite. The right answer: {}.", answer.join("; ")),
            (false, Lang::Zh) => format!("不对。正确答案：{}。", answer.join("；")),
        };
        let saved = serde_json::to_string(&q.saved_run(l)).unwrap_or_default();
        let (d, close) = (props.dispatch.clone(), props.close.clone());
        let open = Callback::from(move |_: MouseEvent| {
            let (d2, text, close) = (d.clone(), saved.clone(), close.clone());
            sharing_part::with_sharing(d.clone(), move |_| {
                d2.dispatch(Msg::Load(Origin::Link, Ok(text)));
                close.emit(());
            });
        });
        let n = next.clone();
        let last = index + 1 >= total;
        html! {
            <div class={classes!("quiz-result", if g.right { "right" } else { "wrong" })} id="quiz-result"
                data-right={g.right.to_string()}>
                <p class="quiz-verdict" role="status">{ text }</p>
                <p class="quiz-why" id="quiz-why">{ q.explanation.get(l).to_string() }</p>
                <div class="room-actions">
                    <button class="tool" id="quiz-open" type="button" onclick={open}>{ l.t("▶ Open on the canvas", "▶ 在画布上打开") }</button>
                    <button class="tool primary" id="quiz-next" type="button" data-focus="true"
                        onclick={Callback::from(move |_: MouseEvent| n.emit(()))}>
                        { if last { l.t("See the score →", "查看得分 →") } else { l.t("Next question →", "下一题 →") } }</button>
                </div>
            </div>
        }
    });
    let sub = submit.clone();
    html! {
        <article class="quiz-question" id="quiz-question" data-kind={q.kind.id()} data-index={index.to_string()}
            data-seed={q.seed.to_string()} aria-labelledby="quiz-q-title">
            <h2 id="quiz-q-title">{ match l {
                Lang::En => format!("Question {} of {}: {}", index + 1, total, q.kind.title(l)),
                Lang::Zh => format!("第 {} 题（共 {} 题）：{}", index + 1, total, q.kind.title(l)),
            } }</h2>
            <p class="quiz-run" id="quiz-run">{ run_line }</p>
            { schedule_diagram(q, l, props.presenter) }
            <details class="quiz-schedule" open=true>
                <summary>{ l.t("The schedule", "调度") }</summary>
                <ul class="quiz-steps">{ for q.setup.iter().map(|w| html! { <li>{ w.get(l).to_string() }</li> }) }</ul>
            </details>
            <fieldset class="quiz-options">
                <legend id="quiz-prompt">{ q.prompt.get(l).to_string() }</legend>
                <ul>{ for options }</ul>
            </fieldset>
            if graded.is_none() {
                <p class="room-actions">
                    <button class="tool primary" id="quiz-submit" type="button" disabled={at.ticked.is_empty()}
                        title={if at.ticked.is_empty() { l.t("Tick an option first (the number keys tick them too)", "先勾选一个选项（也可以按数字键）") } else { "" }}
                        onclick={Callback::from(move |_: MouseEvent| sub.emit(()))}>{ l.t("Submit (Enter)", "提交（Enter）") }</button>
                    <span class="quiz-hint">{ l.t("Number keys tick options; Enter submits.", "数字键勾选选项；Enter 提交。") }</span>
                </p>
            }
            { result.unwrap_or_default() }
        </article>
    }
}

fn score_view(at: &At, history: &[Past], l: Lang, open_set: &Callback<u64>) -> Html {
    let right = right_count(&at.answers);
    let of = at.answers.len();
    let (again, set) = (open_set.clone(), at.set);
    html! {
        <section class="quiz-score" id="quiz-score" data-right={right.to_string()} data-of={of.to_string()}
            aria-labelledby="quiz-score-title">
            <h2 id="quiz-score-title">{ match l {
                Lang::En => format!("Score: {right} of {of}"),
                Lang::Zh => format!("得分：{of} 题中答对 {right} 题"),
            } }</h2>
            <ol class="quiz-marks">{ for at.answers.iter().enumerate().map(|(i, &r)| html! {
                <li class={if r { "right" } else { "wrong" }}>{ match (l, r) {
                    (Lang::En, true) => format!("Question {}: ✓ right", i + 1),
                    (Lang::En, false) => format!("Question {}: ✗ wrong", i + 1),
                    (Lang::Zh, true) => format!("第 {} 题：✓ 正确", i + 1),
                    (Lang::Zh, false) => format!("第 {} 题：✗ 错误", i + 1),
                } }</li>
            }) }</ol>
            <p class="room-actions">
                <button class="tool primary" id="quiz-again" type="button" data-focus="true" data-autofocus="true"
                    onclick={Callback::from(move |_: MouseEvent| again.emit(set))}>{ l.t("↺ This set again", "↺ 重做这组题") }</button>
            </p>
            <h3>{ l.t("Your earlier sets (kept in this browser)", "你做过的题组（保存在这个浏览器里）") }</h3>
            <ul class="quiz-history" id="quiz-history">{ for history.iter().rev().map(|p| html! {
                <li>{ match l {
                    Lang::En => format!("Set {}: {} of {}", p.set, p.right, p.of),
                    Lang::Zh => format!("题组 {}：{} 题中答对 {} 题", p.set, p.of, p.right),
                } }</li>
            }) }</ul>
        </section>
    }
}
