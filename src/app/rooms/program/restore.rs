//! Restoring the chosen snapshot into the program being edited, as `flink run -s PATH
//! [--allowNonRestoredState]` does: why it can't be done yet, the restore itself (a new job on the
//! main screen, or Flink's refusal with the job as it was), and what the last restore did.

use std::rc::Rc;

use yew::prelude::*;

use super::mapping::{mapping_table, refusal_text, ring_of};
use super::ring::{ring, RingSpec};
use crate::app::text::Lang;
use crate::app::ui_state::{Dispatch, Msg, Run};
use crate::engine::core::dataflow::job_graph::JobSpec;
use crate::engine::program::rescale::{MappingRow, Refusal};
use crate::engine::{CheckpointId, Sim};

/// The last restore tried from this room.
#[derive(Clone, PartialEq)]
pub enum Outcome {
    Restored { from: u64, rows: Vec<MappingRow>, ring: Option<RingSpec> },
    Refused(String),
}

/// Why the restore can't be done yet: no snapshot `chosen`, or the job not stopped.
pub fn why_restore(chosen: bool, sim: &Sim, l: Lang) -> Option<String> {
    if !chosen {
        Some(
            l.t("Take a savepoint first (or keep a retained checkpoint)", "请先做一个保存点（或保留一个检查点）")
                .into(),
        )
    } else if sim.stopped().is_none() {
        Some(l.t(
            "Stop the job first (stop with savepoint, or cancel): a new job is submitted from the snapshot of a stopped one",
            "请先停止作业（带保存点停止，或取消）：新作业从已停止作业的快照提交",
        ).into())
    } else {
        None
    }
}

/// The restore of snapshot `from` into program `spec`: the new job on the main screen, or the
/// refusal kept to show.
pub fn restore_into(
    run: &Run,
    dispatch: &Dispatch,
    outcome: &UseStateHandle<Option<Outcome>>,
    spec: &JobSpec,
    allow: bool,
    from: Option<u64>,
) -> Callback<MouseEvent> {
    let (run, dispatch, outcome, spec) = (run.clone(), dispatch.clone(), outcome.clone(), spec.clone());
    Callback::from(move |_: MouseEvent| {
        let Some(from) = from else { return };
        let result = run.session().restore_into(CheckpointId(from), &spec, allow);
        match result {
            Ok((s, p)) => {
                let ring = ring_of(run.session().sim(), &spec, Some(&p.graph.max_parallelism));
                outcome.set(Some(Outcome::Restored { from, rows: p.rows, ring }));
                dispatch.dispatch(Msg::Restored(Rc::new(s)));
            }
            Err(r) => {
                let (head, log) = refusal_text(&r, Lang::En);
                let _ = head;
                outcome.set(Some(Outcome::Refused(log.unwrap_or(r.message()))));
            }
        }
    })
}

/// What the last restore did: the mapping it used and the key groups moved, or Flink's refusal.
pub fn outcome_view(outcome: &Option<Outcome>, run: &Run, l: Lang) -> Html {
    match outcome {
        Some(Outcome::Restored { from, rows, ring: r }) => html! {
            <div class="restored" id="restore-result" role="status" data-result="restored">
                <p><strong>{ match l {
                    Lang::En => format!("Restored from snapshot {from}: a new job of the edited program now runs on the main screen."),
                    Lang::Zh => format!("已从快照 {from} 恢复：主屏幕上运行的是修改后程序的新作业。"),
                } }</strong></p>
                { mapping_table(rows, &run.session().sim().graph.spec, l) }
                { r.as_ref().map(|r| ring(r, l)).unwrap_or_default() }
            </div>
        },
        Some(Outcome::Refused(log)) => html! {
            <div class="refused-box" id="restore-result" role="alert" data-result="refused">
                <p><strong>{ l.t("The restore was refused; the job is as it was.", "恢复被拒绝；作业保持原样。") }</strong></p>
                <pre class="flink-log">{ log.clone() }</pre>
            </div>
        },
        None => html! {},
    }
}

/// The preview's refusal: its words, and Flink's own message.
pub fn refusal_view(r: &Refusal, l: Lang) -> Html {
    let (head, log) = refusal_text(r, l);
    html! {
        <div class="refused-box" id="refusal-preview">
            <p class="refused">{ head }</p>
            { log.map(|t| html! { <pre class="flink-log" id="flink-message">{ t }</pre> }).unwrap_or_default() }
        </div>
    }
}
