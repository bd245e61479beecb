//! Where each RDD keeps its partitions (Spark only): not at all, `persist()` in the executors'
//! memory, or `checkpoint()` in reliable storage, one menu per RDD under the drawing.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::words::keep_name;
use crate::app::rooms::held::Dispatcher;
use crate::classroom::batch_room::{BatchCommand, BatchSession};
use crate::engine::batch::{BatchSim, Keep};
use crate::engine::Lang;

pub fn keeps(sim: &BatchSim, l: Lang, d: &Dispatcher<BatchSession>) -> Html {
    let BatchSim::Spark(s) = sim else { return Html::default() };
    html! { <div class="batch-keeps" role="group" aria-label={l.t("Where each RDD keeps its partitions", "每个 RDD 把分区保存在哪里")}>
        { for s.lineage.rdds.iter().enumerate().map(|(i, r)| {
            let d = d.clone();
            let on = Callback::from(move |e: Event| {
                let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                d.dispatch(BatchCommand::Keep(i, Keep::from_id(&v).unwrap_or_default()));
            });
            html! { <label>{ format!("{} ({})", r.name, r.label) }
                <select id={format!("batch-keep-{}", r.label)} onchange={on}>
                    { for [Keep::None, Keep::Persist, Keep::Checkpoint].into_iter().map(|k| html!{
                        <option value={k.id()} selected={r.keep == k}>{ keep_name(l, k) }</option> }) }
                </select></label> }
        }) }
    </div> }
}
