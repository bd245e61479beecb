//! Decisive steps on the timeline: a counterexample the schedule explorer opened on the canvas
//! keeps, while it is the run on screen, its decisive steps (the saves, sends, receipts, crash and
//! restore its explanation turns on) marked ◆ along the timeline, each a button that moves the
//! playhead there, and its explanation under the toolbar. Only words and step numbers reach the
//! main screen: the explorer's engine stays in its room's part (`rooms::explorer`).

use std::rc::Rc;

use yew::prelude::*;

use super::text::Lang;
use super::{Dispatch, Msg};
use crate::classroom::Command;
use crate::engine::Action;

/// One marked step: numbered from 1, as the timeline shows its effect at position n.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub step: usize,
    pub en: String,
    pub zh: String,
}

/// A counterexample's decisive steps and its explanation, in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    pub steps: Vec<Mark>,
    pub why_en: String,
    pub why_zh: String,
    /// The run they belong to: the counterexample's schedule.
    pub schedule: Vec<Action>,
}

impl Marks {
    /// Whether they still belong to the run on screen: its first steps are the counterexample's.
    pub fn fit(&self, actions: &[Action]) -> bool {
        actions.starts_with(&self.schedule)
    }
}

/// The ◆ along the timeline track (`len` steps): buttons that seek to their step.
pub fn track_marks(marks: &Rc<Marks>, len: usize, l: Lang, dispatch: &Dispatch) -> Html {
    html! { <>{ for marks.steps.iter().filter(|m| m.step <= len).map(|m| {
        let d = dispatch.clone();
        let step = m.step;
        let what = if l == Lang::Zh { &m.zh } else { &m.en };
        let label = format!("{} {step}: {what}", l.t("Decisive step", "关键步骤"));
        let f = step * 10_000 / len.max(1);
        html! {
            <button class="decisive-mark" data-step={step.to_string()} title={label.clone()} aria-label={label}
                style={format!("--mark-at: {}.{:04}", f / 10_000, f % 10_000)}
                onclick={Callback::from(move |_| d.dispatch(Msg::Cmd(Command::Seek(step))))}>{ "◆" }</button>
        }
    }) }</> }
}

/// The explanation under the toolbar, with the decisive steps listed.
pub fn note(marks: &Rc<Marks>, pos: usize, l: Lang, dispatch: &Dispatch) -> Html {
    let d = dispatch.clone();
    html! {
        <div id="decisive-note" class="decisive-note" role="note">
            <p><strong>{ l.t("◆ Counterexample from the explorer: ", "◆ 来自调度探索器的反例：") }</strong>
                { if l == Lang::Zh { marks.why_zh.clone() } else { marks.why_en.clone() } }
                <button id="decisive-close" class="tool" onclick={Callback::from(move |_| d.dispatch(Msg::ClearMarks))}
                    title={l.t("Hide the decisive steps", "隐藏关键步骤")}>{ l.t("✕ Hide", "✕ 隐藏") }</button>
            </p>
            <ol class="decisive-steps">
                { for marks.steps.iter().map(|m| {
                    let d = dispatch.clone();
                    let step = m.step;
                    html! { <li class={classes!((pos == step).then_some("here"))}>
                        <button class="tool" data-step={step.to_string()} onclick={Callback::from(move |_| d.dispatch(Msg::Cmd(Command::Seek(step))))}>
                            { format!("◆ {step}") }</button>
                        { " " }{ if l == Lang::Zh { m.zh.clone() } else { m.en.clone() } }
                    </li> }
                }) }
            </ol>
        </div>
    }
}
