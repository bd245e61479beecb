//! Lesson 14's drawing step in the room: predict whether your cut is consistent, then check it
//! (the verdict shows only after the prediction), until a cut is consistent. A learner who moved
//! the run away from the lesson's is asked to go back before cuts are checked again.

use yew::prelude::*;

use super::crossings::Judged;
use crate::app::text::Lang;
use crate::app::ui_state::{Dispatch, Msg};
use crate::classroom::{Command, CutAttempt, OnDiagram, Progress};

/// The room's verdict, with the lesson's prediction and check above it on a drawing step;
/// `resume` goes back to the lesson's run.
#[allow(clippy::too_many_arguments)]
pub fn with_lesson_check(
    verdict: Html,
    lesson: Option<&Progress>,
    took_over: bool,
    judged: &Judged,
    all: &Option<Vec<u64>>,
    resume: Callback<MouseEvent>,
    dispatch: &Dispatch,
    l: Lang,
) -> Html {
    let drawing = lesson.filter(|p| p.current().diagram == OnDiagram::Draw);
    match (drawing, judged, all) {
        (Some(_), _, _) if took_over => html! {
            <>
                <div id="st-lesson" class="st-lesson" role="status">
                    <p>{ l.t(
                        "You moved the run, so the lesson does not check cuts now: go back to the lesson's run to draw and check cuts.",
                        "你移动了运行，所以课程现在不检查切面：回到课程的运行，再画切面并检查。") }</p>
                    <button id="st-lesson-resume" class="tool primary" onclick={resume}>{ l.t("↩ Back to the lesson", "↩ 回到课程") }</button>
                </div>
                { verdict }
            </>
        },
        (Some(p), Some((Ok(cut), _)), Some(points)) => {
            let checked = p.cuts.iter().find(|c| &c.points == points);
            let guess = |consistent: bool| {
                let d = dispatch.clone();
                let attempt = CutAttempt {
                    points: points.clone(),
                    predicted_consistent: consistent,
                    consistent: cut.consistent(),
                    crossing: cut.arrows.len(),
                };
                Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::CheckCut(attempt.clone()))))
            };
            let (r, total) = p.cut_score();
            match checked {
                None => html! {
                    <div id="st-lesson" class="st-lesson" role="group" aria-label={l.t("Your prediction", "你的预测")}>
                        <p>{ l.t("Predict before the check: is your cut consistent?", "检查之前先预测：你的切面一致吗？") }</p>
                        <div class="st-guess">
                            <button id="st-guess-consistent" class="tool" onclick={guess(true)}>{ l.t("✓ Consistent", "✓ 一致") }</button>
                            <button id="st-guess-inconsistent" class="tool" onclick={guess(false)}>{ l.t("✗ Inconsistent", "✗ 不一致") }</button>
                        </div>
                    </div>
                },
                Some(c) => {
                    let said = match (c.predicted_consistent, l) {
                        (true, Lang::En) => "consistent",
                        (false, Lang::En) => "inconsistent",
                        (true, Lang::Zh) => "一致",
                        (false, Lang::Zh) => "不一致",
                    };
                    let line = match l {
                        Lang::En => format!(
                            "You predicted {said}: {}. Right {r} of {total} {} checked.",
                            if c.right() { "right ✔" } else { "wrong ✘" },
                            if total == 1 { "cut" } else { "cuts" }
                        ),
                        Lang::Zh => format!(
                            "你预测的是{said}：{}。已检查 {total} 个切面，预测对了 {r} 个。",
                            if c.right() { "对了 ✔" } else { "错了 ✘" }
                        ),
                    };
                    let then = if p.cut_found() {
                        l.t(
                            "✓ You drew a consistent cut: go on with Next ▶ in the lesson above.",
                            "✓ 你画出了一个一致的切面：请按上方课程中的“下一步 ▶”继续。",
                        )
                    } else {
                        l.t(
                            "Not consistent yet: move a point, or clear your cut, and draw another.",
                            "还不一致：移动一个点，或清除切面，再画一个。",
                        )
                    };
                    html! {
                        <>
                            <div id="st-lesson" class="st-lesson" role="status" aria-live="polite" data-right={c.right().to_string()}>
                                <p class={if c.right() { "right" } else { "wrong" }}>{ line }</p>
                                <p>{ then }</p>
                            </div>
                            { verdict }
                        </>
                    }
                }
            }
        }
        _ => verdict,
    }
}
