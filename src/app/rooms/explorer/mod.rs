//! The ⋔ Every schedule room (issues 14 and 30): the schedule explorer and the barrier-handler
//! lab in the browser. A learner stepping by hand sees one schedule; "aligned barriers are exactly
//! once" is a claim about all of them. The room explores every schedule of a small study with
//! [`crate::engine::explorer`] (explicit-state search as TLA+'s TLC does it, counterexamples
//! explained as Jepsen's Elle explains anomalies), sliced across animation frames so the page
//! stays responsive, and opens a counterexample on the canvas with its decisive steps marked.
//! The "Handler lab" tab classifies a handler composed from the first article's four choices
//! ([`crate::engine::mechanisms::handler_lab`]).
//!
//! The room owns its state ([`study::Study`]: tab, study, lab handler), kept in this browser and
//! in the link (`#room=explorer&…`); it reaches the main screen only to open a counterexample
//! (`Msg::OpenMarked`), to switch the language and presenter mode, and to close.

mod cards;
mod counts;
mod lab_view;
mod presets;
mod schedules;

mod study;

use yew::prelude::*;

use super::RoomProps;
// Milliseconds written with integer arithmetic, not `{:.1}`: Rust's float printing weighs about
// 5 KB gzipped in this room's part (issue 52).
use crate::app::svg_number::fixed;
use crate::engine::Lang;
pub use study::Study;
use study::Tab;

/// The room, as the split point draws it.
pub fn render(props: RoomProps) -> Html {
    html! { <>{ crate::app::rooms::room_head(crate::app::room::Room::Explorer, &props, Html::default()) }<ExplorerRoom ..props /></> }
}

#[component]
fn ExplorerRoom(props: &RoomProps) -> Html {
    let l = props.lang;
    let study = use_state(study::initial);
    // What the warm-up cost, for the e2e test to report: busy ms, frames, the longest slice and step.
    let warm = use_state(|| None::<crate::app::rooms::slices::Cost>);
    {
        let warm = warm.clone();
        use_effect_with((), move |_| schedules::warm_up(move |c| warm.set(Some(c))));
    }
    {
        let s = (*study).clone();
        use_effect_with(s, |s| study::keep(s));
    }
    let choose = {
        let study = study.clone();
        Callback::from(move |s: Study| study.set(s))
    };
    let tab = |t: Tab, id: &'static str, label: &'static str| {
        let study = study.clone();
        let selected = study.tab == t;
        html! {
            <button role="tab" id={id} class={classes!("tab", selected.then_some("selected"))} aria-selected={selected.to_string()}
                aria-controls={if t == Tab::Lab { "xp-lab" } else { "xp-schedules" }}
                onclick={Callback::from(move |_| study.set(Study { tab: t, ..(*study).clone() }))}>{ label }</button>
        }
    };
    html! {
        <div id="xp-room" class={classes!("xp-room", props.presenter.then_some("presenter"))} lang={if l == Lang::Zh { "zh-Hans" } else { "en" }}
            data-warm-up={warm.map(|c| format!("{} ms over {} frames (longest {} ms; longest step {} ms)", fixed(c.busy_ms, 1), c.frames, fixed(c.longest_ms, 1), fixed(c.longest_step_ms, 1)))}>
            <div role="tablist" class="xp-tabs" aria-label={l.t("The explorer", "调度探索器")}>
                { tab(Tab::Schedules, "xp-tab-schedules", l.t("⋔ Every schedule", "⋔ 所有调度")) }
                { tab(Tab::Lab, "xp-tab-lab", l.t("⚗ Handler lab", "⚗ 屏障处理实验室")) }
            </div>
            { match study.tab {
                Tab::Schedules => html! { <schedules::SchedulesTab room={props.clone()} study={(*study).clone()} choose={choose.clone()} /> },
                Tab::Lab => html! { <lab_view::LabTab room={props.clone()} study={(*study).clone()} choose={choose} /> },
            } }
        </div>
    }
}
