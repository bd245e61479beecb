//! The lesson panel: "Three ways to survive a crash", predict first, then reveal against the
//! cost table (the words and answers are `classroom::compare_lesson`'s), in the page's one lesson
//! frame. Each kind of step has its body: the predictions, the reveal, a mechanism's figures, what
//! the crash means to each run, and the conclusion.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::lesson_frame::{lesson_frame, LessonFrame};
use crate::app::rooms::held::Dispatcher;
use crate::classroom::compare_lesson::{self as cl, SavedCompareLesson, PREDICT, QUESTIONS, REVEAL, STEPS};
use crate::classroom::compare_room::{CompareCommand, CompareSession};
use crate::classroom::crash_words;
use crate::engine::comparison::Costs;
use crate::engine::{Lang, Strategy};

/// What the lesson's steps read: the learner's place, the runs' titles, mechanisms and costs.
struct Lesson<'a> {
    at: &'a SavedCompareLesson,
    titles: &'a [String],
    runs: Vec<(String, Strategy, Costs)>,
    costs: &'a [Costs],
    l: Lang,
    d: &'a Dispatcher<CompareSession>,
}

/// The lesson's frame while the session follows the lesson, on runs titled `titles` with their
/// costs so far.
pub fn lesson_panel(
    s: &CompareSession,
    titles: &[String],
    costs: &[Costs],
    l: Lang,
    d: &Dispatcher<CompareSession>,
) -> Html {
    let Some(at) = &s.lesson else { return Html::default() };
    let runs = s
        .lock
        .lanes
        .iter()
        .zip(titles)
        .zip(costs)
        .map(|((lane, t), c)| (t.clone(), lane.sim.settings.strategy, c.clone()))
        .collect();
    let lesson = Lesson { at, titles, runs, costs, l, d };
    let step = at.step;
    let body = match step {
        PREDICT => lesson.predict(),
        s if (REVEAL..4).contains(&s) => lesson.reveal(),
        s if (4..=6).contains(&s) => lesson.figures(s),
        cl::CRASH => {
            let meanings =
                s.lock.lanes.iter().map(|lane| crash_words(&s.file.crash.place, &lane.sim.settings, s.lock.graph(), l));
            html! {
                <ul class="cmp-figures" id="cmp-crash-meanings">
                    { for titles.iter().zip(meanings).map(|(t, m)| html! { <li><strong>{ t.clone() }</strong>{ ": " }{ m }</li> }) }
                </ul>
            }
        }
        s if s == STEPS - 1 => html! {
            <ul class="cmp-figures" id="cmp-conclusion">
                { for cl::conclusion(&lesson.runs, l).into_iter().map(|line| html! { <li>{ line }</li> }) }
            </ul>
        },
        _ => html! {},
    };
    let running = (step >= REVEAL && !s.lock.finished()).then(|| html! {
        <p class="hint">{ l.t("The runs are still going: the table is as it stands now.", "各运行仍在进行：成本表为当前的状态。") }</p>
    });
    lesson.frame(html! { <>{ body }{ running.unwrap_or_default() }</> })
}

impl Lesson<'_> {
    /// Run `i`'s title (one past the last: none of them).
    fn run_name(&self, i: usize) -> String {
        self.titles.get(i).cloned().unwrap_or_else(|| self.l.t("none of them", "都不是").to_string())
    }

    /// A menu per question: which run will it be?
    fn predict(&self) -> Html {
        let l = self.l;
        let predicted = self.at.predictions.len();
        html! {
            <div class="cmp-predict">
                { for QUESTIONS.iter().map(|q| {
                    let id = format!("cmp-predict-{}", q.id);
                    let chosen = self.at.predictions.get(q.id).copied();
                    let d = self.d.clone();
                    let qid = q.id.to_string();
                    let onchange = Callback::from(move |e: Event| {
                        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                        if let Ok(i) = v.parse::<usize>() {
                            d.dispatch(CompareCommand::Predict(qid.clone(), i));
                        }
                    });
                    html! {
                        <div class="cmp-question">
                            <label for={id.clone()}>{ cl::question_text(q, l) }</label>
                            <select id={id} {onchange}>
                                <option value="" selected={chosen.is_none()} disabled=true>{ l.t("— your prediction —", "— 你的预测 —") }</option>
                                { for (0..=self.titles.len()).map(|i| html! {
                                    <option value={i.to_string()} selected={chosen == Some(i)}>{ self.run_name(i) }</option>
                                }) }
                            </select>
                        </div>
                    }
                }) }
                <p class="hint" id="cmp-predicted">{ format!("{predicted} / {} {}", QUESTIONS.len(), l.t("predicted", "已预测")) }</p>
            </div>
        }
    }

    /// Each prediction against what the cost table says.
    fn reveal(&self) -> Html {
        let l = self.l;
        html! {
            <ul class="cmp-reveal" id="cmp-reveal">
                { for QUESTIONS.iter().map(|q| {
                    let p = self.at.predictions.get(q.id).copied();
                    let answer = cl::answer(q, self.costs);
                    let answer_words = if answer.is_empty() {
                        l.t("none of them", "都不是").to_string()
                    } else {
                        answer.iter().map(|i| self.run_name(*i)).collect::<Vec<_>>().join(", ")
                    };
                    let ok = p.is_some_and(|p| cl::right(q, self.costs, p));
                    html! {
                        <li data-question={q.id} data-right={ok.to_string()}>
                            <strong>{ cl::question_text(q, l) }</strong>{ " " }
                            { format!("{} {} · {} {} · {}",
                                l.t("You said", "你的预测："), p.map_or("-".to_string(), |p| self.run_name(p)),
                                l.t("the table says", "成本表："), answer_words,
                                if ok { l.t("✓ right", "✓ 正确") } else { l.t("✗ not this time", "✗ 这次没猜中") }) }
                        </li>
                    }
                }) }
            </ul>
        }
    }

    /// Step `step`'s mechanism: the figures of each run that uses it.
    fn figures(&self, step: usize) -> Html {
        let l = self.l;
        let mine: Vec<&(String, Strategy, Costs)> = self.runs.iter().filter(|r| cl::family(r.1) == step).collect();
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

    /// The frame around `body`: Next waits for every prediction on the predict step.
    fn frame(&self, body: Html) -> Html {
        let (l, step) = (self.l, self.at.step);
        let send = |c: CompareCommand| {
            let d = self.d.clone();
            Callback::from(move |_| d.dispatch(c.clone()))
        };
        let all_predicted = self.at.predictions.len() == QUESTIONS.len();
        let wait_hint = (step == PREDICT && !all_predicted)
            .then(|| l.t("Predict all five to go on.", "五个问题都预测后才能继续。"));
        let next_label = match step {
            PREDICT => l.t("Play to the crash ▶", "播放到崩溃 ▶"),
            2 => l.t("Run to the end and reveal ▶", "运行到结束并揭晓 ▶"),
            _ => l.t("Next ▶", "下一步 ▶"),
        };
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
            body,
            prev: (step > 0).then(|| send(CompareCommand::LessonPrev)),
            prev_title: None,
            next_label,
            next: (step + 1 < STEPS && wait_hint.is_none()).then(|| send(CompareCommand::LessonNext)),
            next_title: None,
            next_hint: wait_hint,
            exit: Some(send(CompareCommand::LessonClose)),
            data_lesson: Some("three-ways"),
            data_revealed: None,
        })
    }
}
