//! The Batch room's lesson, "Batch: re-run the task, recompute the lineage", in the page's one
//! lesson frame: the step's narration; on the step that asks, a chip per partition (or task) to
//! predict which are computed again, then the reveal and the score; on the last step, the way on to
//! the main screen's lesson on micro-batches.

use yew::prelude::*;

use crate::app::lesson_frame::{lesson_frame, LessonFrame};
use crate::app::rooms::held::Dispatcher;
use crate::app::rooms::RoomProps;
use crate::app::ui_state::Msg;
use crate::classroom::batch_room::{BatchCommand, BatchSession, LessonAt};
use crate::classroom::{Command, CATALOGUE};
use crate::engine::batch::lesson::LESSON_TITLE;
use crate::engine::batch::{BatchSim, BatchStep, BATCH_LESSON};
use crate::engine::Lang;

/// The lesson's frame, while the session follows the lesson.
pub fn lesson(s: &BatchSession, props: &RoomProps, d: &Dispatcher<BatchSession>) -> Html {
    let Some(at) = &s.lesson else { return Html::default() };
    let l = props.lang;
    let step = &BATCH_LESSON[at.step];
    let t = |p: (&'static str, &'static str)| l.t(p.0, p.1);
    let go = |to: Option<usize>| {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(BatchCommand::Lesson(to)))
    };
    let last = at.step + 1 == BATCH_LESSON.len();
    let predict = step.predict.then(|| prediction(step, at, s.run.sim(), l, d));
    let streaming = last.then(|| to_streaming(props));
    lesson_frame(LessonFrame {
        section_id: "batch-lesson-bar",
        id: "batch-lesson",
        class: Classes::new(),
        lang: l,
        title: t(LESSON_TITLE).to_string(),
        step_title: Some(t(step.title).to_string()),
        step: at.step,
        steps: BATCH_LESSON.len(),
        head: Html::default(),
        say: html! { t(step.say) },
        body: html! { <>{ predict.unwrap_or_default() }{ streaming.unwrap_or_default() }</> },
        prev: (at.step > 0).then(|| go(Some(at.step - 1))),
        prev_title: None,
        next_label: l.t("Next ▶", "下一步 ▶"),
        next: (!last).then(|| go(Some(at.step + 1))),
        next_title: None,
        next_hint: None,
        exit: Some(go(None)),
        data_lesson: Some("batch"),
        data_revealed: None,
    })
}

/// The prediction: a chip per partition (Spark) or task (Hadoop), then Reveal, then the score.
fn prediction(step: &BatchStep, at: &LessonAt, sim: &BatchSim, l: Lang, d: &Dispatcher<BatchSession>) -> Html {
    let names: Vec<String> = match sim {
        BatchSim::Spark(s) => (0..s.lineage.rdds.len())
            .flat_map(|r| (0..s.lineage.partitions[r]).map(move |p| (r, p)))
            .map(|(r, p)| s.lineage.name(r, p))
            .collect(),
        BatchSim::Hadoop(h) => h.maps.iter().chain(&h.reduces).map(|t| t.name.label()).collect(),
    };
    let answer = step.answer();
    let chips = names.iter().map(|n| {
        let picked = at.prediction.contains(n);
        let right = answer.contains(n);
        let d = d.clone();
        let name = n.clone();
        let mark = match (at.revealed, picked, right) {
            (false, _, _) => if picked { "☑" } else { "☐" },
            (true, true, true) => "✓",
            (true, false, false) => "·",
            (true, _, _) => "✗",
        };
        html! { <button id={format!("batch-predict-{n}")} class={classes!("predict-chip", picked.then_some("picked"), (at.revealed && right).then_some("answer"))}
            aria-pressed={picked.to_string()} disabled={at.revealed} data-part={n.clone()}
            onclick={Callback::from(move |_| d.dispatch(BatchCommand::Predict(name.clone())))}>{ format!("{mark} {n}") }</button> }
    });
    let hits = answer.iter().filter(|a| at.prediction.contains(*a)).count();
    let wrong = at.prediction.iter().filter(|p| !answer.contains(p)).count();
    let reveal = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(BatchCommand::Reveal))
    };
    html! { <div class="batch-predict">
        <p class="predict-help">{ l.t("Pick every partition you think will be computed again:", "选出你认为会被重新计算的每个分区：") }</p>
        <div class="predict-records" role="group" aria-label={l.t("Your prediction", "你的预测")}>{ for chips }</div>
        if at.revealed {
            <p id="batch-score" class="score-line" role="status">{ format!("{} {} · {} {hits}/{} · {} {wrong}",
                l.t("Recomputed:", "被重算的："), answer.join(" "), l.t("you found", "你找到"), answer.len(), l.t("wrongly picked:", "误选：")) }</p>
            <p class="predict-help">{ l.t("Step on to see why.", "继续下一步看原因。") }</p>
        } else {
            <button id="batch-reveal" class="tool primary" disabled={at.prediction.is_empty()} onclick={reveal}>{ l.t("Reveal: run to the end", "揭晓：运行到结尾") }</button>
        }
    </div> }
}

/// The way on: the main screen's lesson on micro-batches, the room closed.
fn to_streaming(props: &RoomProps) -> Html {
    let l = props.lang;
    let (page, c) = (props.dispatch.clone(), props.close.clone());
    let micro = CATALOGUE.iter().position(|x| x.id == "micro-batches");
    let n = micro.map_or(0, |i| i + 1);
    html! { <button id="batch-to-streaming" class="tool primary" onclick={Callback::from(move |_| {
        if let Some(i) = micro { page.dispatch(Msg::Cmd(Command::StartLesson(i))); }
        c.emit(());
    })}>{ match l {
        Lang::En => format!("▶ Streaming: lesson {n}, micro-batches"),
        Lang::Zh => format!("▶ 流处理：第 {n} 课，微批"),
    } }</button> }
}
