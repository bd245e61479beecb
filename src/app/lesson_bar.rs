//! The lesson bar: a lesson's title, its step, the narration, predict-then-reveal with the score,
//! and the navigation, in the one lesson frame (`lesson_frame.rs`). It comes with the lessons' words, in their part (`lessons_part.rs`).

use yew::prelude::*;

use super::lesson_frame::{lesson_frame, LessonFrame};
use super::room::Room;
use super::rooms::RoomProps;
use super::text::{verdict_mark, Lang};
use super::ui_state::{Dispatch, Msg};
use crate::classroom::{
    checkpoint_outcome, next_guess, score, Command, Judge, OnDiagram, Progress, Session, CATALOGUE,
};
use crate::engine::core::ledger::Verdict;
use crate::engine::Sim;

/// The lesson bar as a piece of the main screen.
pub fn piece(p: RoomProps) -> Html {
    lesson_bar(&p.run.session(), p.lang, p.presenter, &p.dispatch)
}

/// A prediction chip's mark: a symbol and a word, "?" while unmarked.
fn guess_mark(l: Lang, v: Option<Verdict>) -> (&'static str, &'static str) {
    match v {
        Some(v) => verdict_mark(l, v),
        None => ("?", l.t("not marked yet", "尚未标记")),
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
    let predict_ui = match judge {
        Some(Judge::Checkpoint(id)) if p.awaiting_reveal() => checkpoint_prediction(id, p, l, dispatch),
        _ if p.awaiting_reveal() => prediction(sim, p, judge, l, presenter, dispatch),
        _ => html! {},
    };
    let score_ui = match (judge, p.revealed) {
        (Some(Judge::Checkpoint(id)), true) => checkpoint_score(sim, id, p, l),
        (Some(j), true) => score_after_reveal(sim, p, j, l, presenter),
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
    let diagram_ui = match step.diagram {
        OnDiagram::No => html! {},
        shown => diagram_button(shown, p, cut_missing, l, dispatch),
    };
    let program_ui = if lesson.id == "changed-program" {
        program_button(l, dispatch)
    } else {
        html! {}
    };
    let prev_enabled = p.step > 0 || (judge.is_some() && p.revealed);
    // A lesson from a file has no next lesson.
    let following = (p.lesson + 1 < CATALOGUE.len()).then_some(p.lesson + 1);
    let head = html! { <>
        { match following {
            Some(next) if p.step + 1 == n && !p.awaiting_reveal() => html!{
                <button class="tool" id="lesson-following" onclick={cmd(Command::StartLesson(next))}>{ l.t("Next lesson ▶", "下一课 ▶") }</button> },
            _ => html!{},
          } }
        { program_ui }
    </> };
    let body = html! { <>
        { diagram_ui }
        { predict_ui }
        { score_ui }
        { if session.took_over {
            html!{ <p class="took-over" id="took-over">{ l.t("You took over: the run is yours now.", "你接管了：现在的运行由你掌控。") }
                <button class="tool" id="lesson-resume" onclick={cmd(Command::LessonResume)}>{ l.t("↩ Back to the lesson", "↩ 回到课程") }</button></p> }
          } else { html!{} } }
    </> };
    lesson_frame(LessonFrame {
        section_id: "lesson",
        id: "lesson",
        class: Classes::new(),
        lang: l,
        title: pick(&lesson.title).to_string(),
        step_title: None,
        step: p.step,
        steps: n,
        head,
        say: html! { say },
        body,
        prev: prev_enabled.then(|| cmd(Command::LessonPrev)),
        prev_title: Some(if prev_enabled {
            l.t("The previous step of the lesson (PageUp)", "课程的上一步（PageUp）")
        } else {
            l.t("This is the lesson's first step", "这是课程的第一步")
        }),
        next_label,
        next: next_enabled.then(|| cmd(Command::LessonNext)),
        next_title: Some(if next_enabled {
            l.t("The next step of the lesson (PageDown)", "课程的下一步（PageDown）")
        } else if cut_missing {
            l.t("Draw a consistent cut on the space-time diagram first", "请先在时空图上画出一个一致的切面")
        } else {
            l.t("This is the lesson's last step", "这是课程的最后一步")
        }),
        next_hint: None,
        exit: Some(cmd(Command::LessonExit)),
        data_lesson: Some(lesson.id),
        data_revealed: Some(p.revealed),
    })
}

/// Predict-then-reveal before the reveal: each record a chip to mark (click it or press its
/// number, 1 to 9), and how many are left to mark.
fn prediction(sim: &Sim, p: &Progress, judge: Option<Judge>, l: Lang, presenter: bool, dispatch: &Dispatch) -> Html {
    let zh = l == Lang::Zh;
    let judge_word = match judge {
        Some(Judge::Output) => l.t("in the output a reader sees", "在读者看到的输出中"),
        _ => l.t("in the counts", "在计数中"),
    };
    let left = p.unmarked(sim.graph.records.iter().map(|r| r.label.as_str()));
    html! {
        <div class="predict" id="predict" role="group" aria-label={l.t("Your prediction", "你的预测")} data-left={left.to_string()}>
            <p class="predict-help">{ match (zh, presenter) {
                (true, false) => format!("预测每条记录{judge_word}的命运——每条记录起初未标记（?）；点击它或按它的序号（1–9）切换：✓ 精确一次 → ✗ 丢失 → ⊕ 重复。"),
                (false, false) => format!("Predict each record's fate {judge_word} — every record starts unmarked (?); click it or press its number (1–9) to cycle ✓ exactly once → ✗ lost → ⊕ duplicated."),
                // On a projector, the same in one line: the chips show only their symbols.
                (true, true) => format!("预测每条记录{judge_word}的命运：点击或按序号 1–9 切换 ✓ 精确一次 → ✗ 丢失 → ⊕ 重复；按两次 PageDown 则直接揭晓。"),
                (false, true) => format!("Predict each record's fate {judge_word}: click or press 1–9 to cycle ✓ exactly once → ✗ lost → ⊕ duplicated; PageDown twice reveals as is."),
            } }</p>
            <div class="predict-records">
            { for sim.graph.records.iter().enumerate().map(|(i, r)| {
                let v = p.predictions.get(&r.label).copied();
                let (sym, word) = guess_mark(l, v);
                let id = v.map_or("unmarked", Verdict::id);
                let label = r.label.clone();
                let onclick = { let d = dispatch.clone(); let label = label.clone(); Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::Predict(label.clone(), next_guess(v))))) };
                html! {
                    <button class={classes!("predict-chip", id)} id={format!("predict-{label}")} data-prediction={id} onclick={onclick}
                        aria-label={format!("{label}: {word}")} aria-keyshortcuts={(i < 9).then(|| (i + 1).to_string())}>
                        if i < 9 { <span class="p-key" aria-hidden="true">{ i + 1 }</span> }
                        <span class="p-label">{ label.clone() }</span><span class="p-mark">{ sym }<span class="p-word">{ format!(" {word}") }</span></span>
                    </button>
                }
            }) }
            </div>
            <p class="predict-left" id="predict-left" aria-live="polite">{ if left == 0 {
                l.t("Every record is marked: reveal when you are ready.", "每条记录都已标记：准备好就揭晓吧。").to_string()
            } else if zh { format!("还有 {left} 条记录未标记。") } else { format!("{left} left to mark.") } }</p>
        </div>
    }
}

/// A checkpoint's prediction before the reveal: completes, or fails (press 1 or 2).
fn checkpoint_prediction(id: u64, p: &Progress, l: Lang, dispatch: &Dispatch) -> Html {
    let zh = l == Lang::Zh;
    let choice = |completes: bool, key: &'static str| {
        let d = dispatch.clone();
        let on = p.checkpoint_guess == Some(completes);
        let (sym, word) = if completes {
            ("✓", l.t("it completes", "它会完成"))
        } else {
            ("✗", l.t("it fails (times out)", "它会失败（超时）"))
        };
        html! {
            <button class={classes!("predict-chip", "checkpoint-guess", if completes { "completes" } else { "fails" }, on.then_some("chosen"))}
                id={if completes { "predict-completes" } else { "predict-fails" }} aria-pressed={on.to_string()} aria-keyshortcuts={key}
                onclick={Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::PredictCheckpoint(completes))))}>
                <span class="p-key" aria-hidden="true">{ key }</span><span class="p-mark">{ sym }</span><span class="p-word">{ format!(" {word}") }</span>
            </button>
        }
    };
    html! {
        <div class="predict" id="predict" role="group" aria-label={l.t("Your prediction", "你的预测")}
            data-left={if p.checkpoint_guess.is_some() { "0" } else { "1" }}>
            <p class="predict-help">{ if zh {
                format!("预测检查点 {id} 的结果：点击或按 1 / 2 选择。")
            } else {
                format!("Predict what becomes of checkpoint {id}: click, or press 1 or 2.")
            } }</p>
            <div class="predict-records">{ choice(true, "1") }{ choice(false, "2") }</div>
            <p class="predict-left" id="predict-left" aria-live="polite">{ match p.checkpoint_guess {
                Some(_) => l.t("Your guess is in: reveal when you are ready.", "已作出预测：准备好就揭晓吧。"),
                None => l.t("Choose one.", "请选择一项。"),
            } }</p>
        </div>
    }
}

/// A checkpoint's prediction after the reveal: the guess, what happened, right or not.
fn checkpoint_score(sim: &Sim, id: u64, p: &Progress, l: Lang) -> Html {
    let zh = l == Lang::Zh;
    let actual = checkpoint_outcome(sim, id);
    let word = |c: bool| if c { l.t("completes", "完成") } else { l.t("fails", "失败") };
    let would = |c: bool| if c { "would complete" } else { "would fail" };
    let did = |c: bool| if c { "completed" } else { "failed" };
    let right = p.checkpoint_guess.is_some() && p.checkpoint_guess == actual;
    let line = match (p.checkpoint_guess, actual, zh) {
        (_, None, false) => format!("Checkpoint {id} has neither completed nor failed yet."),
        (_, None, true) => format!("检查点 {id} 既未完成也未失败。"),
        (None, Some(a), false) => format!("Revealed without a prediction: checkpoint {id} {}.", did(a)),
        (None, Some(a), true) => format!("未作预测直接揭晓：检查点 {id} {}。", word(a)),
        (Some(g), Some(a), false) => {
            format!("You predicted checkpoint {id} {}; it {} {}", would(g), did(a), if right { "✔" } else { "✘" })
        }
        (Some(g), Some(a), true) => {
            format!("你预测检查点 {id} 会{}；结果它{} {}", word(g), word(a), if right { "✔" } else { "✘" })
        }
    };
    html! {
        <div class="score" id="score" data-right={u8::from(right).to_string()} data-total="1"
            data-unmarked={u8::from(p.checkpoint_guess.is_none()).to_string()}
            data-actual={actual.map_or("pending", |a| if a { "completes" } else { "fails" })}>
            <p class="score-line">{ line }</p>
        </div>
    }
}

/// The score after a reveal: how many records were predicted right, and each record's guess
/// against its outcome (folded in presenter mode).
fn score_after_reveal(sim: &Sim, p: &Progress, j: Judge, l: Lang, presenter: bool) -> Html {
    let zh = l == Lang::Zh;
    let (rows, right) = score(sim, j, &p.predictions);
    let unmarked = rows.iter().filter(|(_, g, _)| g.is_none()).count();
    html! {
        <div class="score" id="score" data-right={right.to_string()} data-total={rows.len().to_string()} data-unmarked={unmarked.to_string()}>
            <p class="score-line">{ match (zh, unmarked) {
                (_, u) if u == rows.len() && u > 0 => l.t("Revealed without predictions.", "未作预测直接揭晓。").to_string(),
                (true, 0) => format!("你预测对了 {} 条记录中的 {} 条。", rows.len(), right),
                (false, 0) => format!("You predicted {right} of {} records correctly.", rows.len()),
                (true, u) => format!("你预测对了 {} 条记录中的 {} 条（{u} 条未标记）。", rows.len(), right),
                (false, u) => format!("You predicted {right} of {} records correctly ({u} not marked).", rows.len()),
            } }</p>
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

/// A step that shows the run as a space-time diagram opens it (its part loads then); in the
/// room the lesson bar stays above it.
fn diagram_button(shown: OnDiagram, p: &Progress, cut_missing: bool, l: Lang, dispatch: &Dispatch) -> Html {
    let zh = l == Lang::Zh;
    let d = dispatch.clone();
    let (r, total) = p.cut_score();
    html! {
        <div class="lesson-diagram" id="lesson-diagram">
            <button class="tool primary" id="lesson-open-diagram" aria-keyshortcuts="D"
                onclick={Callback::from(move |_: MouseEvent| d.dispatch(Msg::Room(Some(Room::SpaceTime))))}>
                { if shown == OnDiagram::Draw { l.t("⇶ Draw on the space-time diagram", "⇶ 在时空图上画切面") }
                  else { l.t("⇶ See it on the space-time diagram", "⇶ 在时空图上查看") } }</button>
            if shown == OnDiagram::Draw {
                <span id="lesson-cut-score" class="lesson-cut-score" data-right={r.to_string()} data-total={total.to_string()}
                    data-found={(!cut_missing).to_string()}>{ match (total, cut_missing, zh) {
                    (0, _, false) => "No cut checked yet.".to_string(),
                    (0, _, true) => "还没有检查过切面。".to_string(),
                    (1, true, false) => format!("1 cut checked, not consistent yet; you predicted {r} of 1 right."),
                    (_, true, false) => format!("{total} cuts checked, none consistent yet; you predicted {r} of {total} right."),
                    (_, true, true) => format!("已检查 {total} 个切面，还没有一致的；你预测对了 {total} 个中的 {r} 个。"),
                    (1, false, false) => format!("✓ A consistent cut found at the first try; you predicted {r} of 1 right."),
                    (_, false, false) => format!("✓ A consistent cut found after {total} cuts; you predicted {r} of {total} right."),
                    (_, false, true) => format!("✓ 检查了 {total} 个切面后找到了一致的切面；你预测对了 {total} 个中的 {r} 个。"),
                } }</span>
            }
        </div>
    }
}

/// Lesson 15 tells on the main screen the story of the ⚙ Program & savepoints room: a button in
/// the lesson's head row (no row of its own, so the canvas keeps its height in presenter mode)
/// opens the room on the run the lesson stands at (its part loads then); Esc comes back.
fn program_button(l: Lang, dispatch: &Dispatch) -> Html {
    let d = dispatch.clone();
    html! {
        <button class="tool" id="lesson-open-program"
            title={l.t("Open this run in the Program & savepoints room: the mapping table, the key-group ring (Esc comes back)",
                "在“程序与保存点”中打开这次运行：映射表、键组环（按 Esc 返回）")}
            onclick={Callback::from(move |_: MouseEvent| d.dispatch(Msg::Room(Some(Room::Program))))}>
            { Room::Program.button(l) }</button>
    }
}
