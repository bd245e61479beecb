//! The narration panel, "What happened": the last steps in plain words, newest first, each step
//! drawn once. The words come with their parts (the dataflow's and Flink's with the words part,
//! Storm's and Spark Streaming's with the bands').

use yew::prelude::*;

use crate::app::text::Lang;
use crate::app::ui_state::Run;
use crate::app::words_part::{use_words, Words};
use crate::classroom::step_title;
use crate::engine::*;

#[derive(Properties, PartialEq)]
pub struct RunProps {
    pub run: Run,
    pub lang: Lang,
}

/// What happened: the last steps in plain words, newest first. Each step is drawn once.
/// One event in words: the dataflow's and Flink's come with the words part, Storm's and Spark
/// Streaming's with their bands' part; "…" while the part is on its way.
fn words(said: Option<Words>, e: &crate::engine::Event, g: &JobGraph, l: Lang) -> String {
    let waiting = || l.t("…", "…").to_string();
    let Some(w) = said else { return waiting() };
    (w.narrate)(e, g, l)
        .unwrap_or_else(|| crate::app::bands_part::bands_now().map_or_else(waiting, |b| (b.narrate)(e, g, l)))
}

#[component]
pub fn NarrationPanel(props: &RunProps) -> Html {
    let l = props.lang;
    let session = props.run.session();
    let sim = session.sim();
    let said = use_words(!session.narration.is_empty());
    html! {
        <ol id="narration" class="narration" reversed=true>
            { if session.narration.is_empty() {
                html!{ <li class="hint">{ l.t(
                    "Nothing has happened yet. Click a source's Read button, a channel, or press → to step.",
                    "尚未发生任何事。点击数据源的“读取”、某个通道，或按 → 单步执行。") }</li> }
              } else { html!{} } }
            // Keyed by step, in a list of their own (keys among unkeyed siblings are not used). A
            // step is drawn again only if its words change.
            <>{ for session.narration.iter().rev().map(|s| html! {
                <NarrationStep key={s.step} step={s.step} title={step_title(sim, s, l)}
                    lines={s.events.iter().map(|e| words(said, e, &sim.graph, l)).collect::<Vec<_>>()} lang={l} />
            }) }</>
        </ol>
    }
}

/// One step of the narration in words: what it was, and a line per event.
#[derive(Properties, PartialEq)]
pub struct NarrationStepProps {
    pub step: usize,
    pub title: String,
    pub lines: Vec<String>,
    pub lang: Lang,
}

#[component]
fn NarrationStep(props: &NarrationStepProps) -> Html {
    let (step, l) = (props.step, props.lang);
    html! {
        <li data-step={step.to_string()}>
            <span class="step-no">{ format!("{} {}", l.t("Step", "第"), step) }{ l.t("", " 步") }</span>
            // A space between the two, so a screen reader says "Step 5 take…", not "Step 5take…".
            { " " }<span class="step-action">{ props.title.clone() }</span>
            <ul>{ for props.lines.iter().map(|line| html!{ <li>{ line.clone() }</li> }) }</ul>
        </li>
    }
}
