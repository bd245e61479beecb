//! The lesson panel: "Three ways to survive a crash", predict first, then reveal against the
//! cost table (the words and answers are `classroom::compare_lesson`'s).

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::lesson_frame::{lesson_frame, LessonFrame};
use super::state::{LessonState, RoomMsg, RoomState};
use crate::classroom::compare_lesson::{self as cl, PREDICT, QUESTIONS, REVEAL, STEPS};
use crate::engine::comparison::Costs;
use crate::engine::{Lang, Strategy};

pub fn lesson_panel(
    lesson: &LessonState,
    titles: &[String],
    runs: &[(String, Strategy, Costs)],
    finished: bool,
    meanings: &[String],
    l: Lang,
    dispatch: &UseReducerDispatcher<RoomState>,
) -> Html {
    let step = lesson.step;
    let costs: Vec<Costs> = runs.iter().map(|r| r.2.clone()).collect();
    let predicted = lesson.predictions.len();
    let all_predicted = predicted == QUESTIONS.len();
    let d = dispatch.clone();
    let next = Callback::from(move |_| d.dispatch(RoomMsg::LessonNext));
    let d = dispatch.clone();
    let prev = Callback::from(move |_| d.dispatch(RoomMsg::LessonPrev));
    let d = dispatch.clone();
    let close = Callback::from(move |_| d.dispatch(RoomMsg::LessonClose));
    let run_name = |i: usize| titles.get(i).cloned().unwrap_or_else(|| l.t("none of them", "都不是").to_string());
    let body = match step {
        PREDICT => html! {
            <div class="cmp-predict">
                { for QUESTIONS.iter().map(|q| {
                    let id = format!("cmp-predict-{}", q.id);
                    let chosen = lesson.predictions.get(q.id).copied();
                    let d = dispatch.clone();
                    let qid = q.id.to_string();
                    let onchange = Callback::from(move |e: Event| {
                        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                        if let Ok(i) = v.parse::<usize>() {
                            d.dispatch(RoomMsg::Predict(qid.clone(), i));
                        }
                    });
                    html! {
                        <div class="cmp-question">
                            <label for={id.clone()}>{ cl::question_text(q, l) }</label>
                            <select id={id} {onchange}>
                                <option value="" selected={chosen.is_none()} disabled=true>{ l.t("— your prediction —", "— 你的预测 —") }</option>
                                { for (0..=titles.len()).map(|i| html! {
                                    <option value={i.to_string()} selected={chosen == Some(i)}>{ run_name(i) }</option>
                                }) }
                            </select>
                        </div>
                    }
                }) }
                <p class="hint" id="cmp-predicted">{ format!("{predicted} / {} {}", QUESTIONS.len(), l.t("predicted", "已预测")) }</p>
            </div>
        },
        s if (REVEAL..4).contains(&s) => html! {
            <ul class="cmp-reveal" id="cmp-reveal">
                { for QUESTIONS.iter().map(|q| {
                    let p = lesson.predictions.get(q.id).copied();
                    let answer = cl::answer(q, &costs);
                    let answer_words = if answer.is_empty() {
                        l.t("none of them", "都不是").to_string()
                    } else {
                        answer.iter().map(|i| run_name(*i)).collect::<Vec<_>>().join(", ")
                    };
                    let ok = p.is_some_and(|p| cl::right(q, &costs, p));
                    html! {
                        <li data-question={q.id} data-right={ok.to_string()}>
                            <strong>{ cl::question_text(q, l) }</strong>{ " " }
                            { format!("{} {} · {} {} · {}",
                                l.t("You said", "你的预测："), p.map_or("-".to_string(), run_name),
                                l.t("the table says", "成本表："), answer_words,
                                if ok { l.t("✓ right", "✓ 正确") } else { l.t("✗ not this time", "✗ 这次没猜中") }) }
                        </li>
                    }
                }) }
            </ul>
        },
        s if (4..=6).contains(&s) => {
            let mine: Vec<&(String, Strategy, Costs)> = runs.iter().filter(|r| cl::family(r.1) == s).collect();
            html! {
                <ul class="cmp-figures">
                    if mine.is_empty() {
                        <li>{ l.t("No run of this comparison uses this mechanism: choose one for a run above to see its figures.",
                                  "这个比较中没有运行使用该机制：在上方为某个运行选择它，即可看到它的数字。") }</li>
                    }
                    { for mine.iter().map(|(t, _, c)| html! { <li>{ cl::mechanism_figures(t, c, l) }</li> }) }
                </ul>
            }
        }
        cl::CRASH => html! {
            <ul class="cmp-figures" id="cmp-crash-meanings">
                { for titles.iter().zip(meanings).map(|(t, m)| html! { <li><strong>{ t.clone() }</strong>{ ": " }{ m.clone() }</li> }) }
            </ul>
        },
        s if s == STEPS - 1 => html! {
            <ul class="cmp-figures" id="cmp-conclusion">
                { for cl::conclusion(runs, l).into_iter().map(|line| html! { <li>{ line }</li> }) }
            </ul>
        },
        _ => html! {},
    };
    let wait_hint =
        (step == PREDICT && !all_predicted).then(|| l.t("Predict all five to go on.", "五个问题都预测后才能继续。"));
    let next_label = match step {
        PREDICT => l.t("Play to the crash ▶", "播放到崩溃 ▶"),
        2 => l.t("Run to the end and reveal ▶", "运行到结束并揭晓 ▶"),
        _ => l.t("Next ▶", "下一步 ▶"),
    };
    let running = (step >= REVEAL && !finished).then(|| html! {
        <p class="hint">{ l.t("The runs are still going: the table is as it stands now.", "各运行仍在进行：成本表为当前的状态。") }</p>
    });
    lesson_frame(LessonFrame {
        section_id: "cmp-lesson",
        id: "cmp-lesson",
        class: classes!("cmp-lesson"),
        lang: l,
        title: cl::title(l).to_string(),
        step_title: Some(cl::step_title(step, l).to_string()),
        step,
        steps: STEPS,
        head: Html::default(),
        say: html! { cl::step_text(step, l) },
        body: html! { <>{ body }{ running.unwrap_or_default() }</> },
        prev: (step > 0).then_some(prev),
        prev_title: None,
        next_label,
        next: (step + 1 < STEPS && wait_hint.is_none()).then_some(next),
        next_title: None,
        next_hint: wait_hint,
        exit: Some(close),
        data_lesson: Some("three-ways"),
        data_revealed: None,
    })
}
