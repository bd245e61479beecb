//! The Batch room's notice above the run: the session's last notice, worded by the classroom
//! ([`BatchNotice::message`](crate::classroom::batch_room::BatchNotice::message)), as an alert or a
//! status, with its × to dismiss it.

use yew::prelude::*;

use crate::app::rooms::held::Dispatcher;
use crate::classroom::batch_room::{BatchCommand, BatchSession};
use crate::engine::batch::BatchSim;
use crate::engine::Lang;

pub fn notice(s: &BatchSession, l: Lang, d: &Dispatcher<BatchSession>) -> Html {
    let Some(n) = &s.notice else { return Html::default() };
    let (text, bad) = n.message(l, matches!(s.run.sim(), BatchSim::Hadoop(_)));
    let d = d.clone();
    let dismiss = Callback::from(move |_| d.dispatch(BatchCommand::Dismiss));
    html! { <div id="batch-notice" class={classes!("notice", "shown", (!bad).then_some("info"))} role={if bad { "alert" } else { "status" }}>
        <span>{ text }</span>
        <button class="dismiss" onclick={dismiss} aria-label={l.t("Dismiss", "关闭")}>{ "×" }</button>
    </div> }
}
