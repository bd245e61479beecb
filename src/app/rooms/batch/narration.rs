//! What happened: the run's last eight steps, the latest first, each with its action and the
//! engine's events told in words.

use yew::prelude::*;

use super::words::step_no;
use crate::engine::batch::wording::{action_name, narrate};
use crate::engine::batch::{BatchRun, BatchSim};
use crate::engine::Lang;

pub fn narration(run: &BatchRun, l: Lang) -> Html {
    let sim = run.sim();
    let hadoop = matches!(sim, BatchSim::Hadoop(_));
    html! {
        <section class="panel batch-narration" aria-labelledby="batch-narration-title">
            <h2 id="batch-narration-title">{ l.t("What happened", "发生了什么") }</h2>
            <ol id="batch-narration" class="narration" aria-live="polite">
                { for run.log.iter().enumerate().rev().take(8).map(|(i, evs)| html! {
                    <li><span class="step-no">{ step_no(l, i + 1) }</span>{ " " }<span class="step-action">{ action_name(l, run.actions[i], hadoop) }</span>
                        <ul>{ for evs.iter().map(|e| html!{ <li>{ narrate(l, sim, e) }</li> }) }</ul></li>
                }) }
                if run.log.is_empty() { <li>{ l.t("Nothing has run yet. Step to start the first task.", "还什么都没运行。单步启动第一个任务。") }</li> }
            </ol>
        </section>
    }
}
