//! The decisive steps drawn on the main screen: the ◆ along the timeline, each a button that moves
//! the playhead to its step, and the explanation under the toolbar (the marks are `decisive.rs`).

use std::rc::Rc;

use yew::prelude::*;

use super::decisive::Marks;
use super::text::Lang;
use super::ui_state::{Dispatch, Msg};
use crate::classroom::Command;

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
