//! Room: ⚙ Program & savepoints (issue 12 / 28). The program that restores a snapshot may differ
//! from the one that took it. The learner takes savepoints of the run on the main screen, stops it
//! with one, edits the program (parallelism, `uid`, max parallelism, a Filter inserted or an
//! operator removed) and restores it into the edited program, as `flink run -s PATH
//! [--allowNonRestoredState]` does (`engine::rescale`, `Session::restore_into`). The mapping
//! table shows each saved operator's id (`engine::operator_id`, after `StreamGraphHasherV2`) and
//! where its state goes, or Flink's refusal; the key-group ring shows whole key groups moving to
//! their new owners (`engine::core::dataflow::key_groups`). A restore replaces the run on the main screen, so the
//! canvas shows the new program.

pub mod editor;
mod editor_table;
mod mapping;
mod restore;
mod ring;
mod savepoints;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::RoomProps;
use crate::engine::core::dataflow::job_graph::JobSpec;
use editor::{apply, Edit};
use editor_table::program_section;
use mapping::{mapping_table, preview, ring_of, snapshots};
use restore::{outcome_view, refusal_view, restore_into, why_restore, Outcome};
use ring::ring;
use savepoints::{job_section, savepoints_section};

/// The room, as the page's split point calls it.
pub fn render(props: RoomProps) -> Html {
    html! { <>{ crate::app::rooms::room_head(crate::app::room::Room::Program, &props, Html::default()) }<ProgramRoom ..props /></> }
}

/// The program being edited, for the run's program `base`.
#[derive(Clone, PartialEq)]
struct Draft {
    base: JobSpec,
    spec: JobSpec,
    allow: bool,
    from: Option<u64>,
}

impl Draft {
    fn of(base: &JobSpec) -> Draft {
        Draft { base: base.clone(), spec: base.clone(), allow: false, from: None }
    }
}

#[component]
fn ProgramRoom(props: &RoomProps) -> Html {
    let l = props.lang;
    let session = props.run.session();
    let sim = session.sim();
    let base = sim.graph.spec.clone();
    let keys = sim.graph.keys.clone();
    let draft_state = use_state(|| Draft::of(&base));
    let outcome = use_state(|| None::<Outcome>);
    let d = if draft_state.base == base { (*draft_state).clone() } else { Draft::of(&base) };
    let set = {
        let (h, d) = (draft_state.clone(), d.clone());
        move |f: &dyn Fn(&mut Draft)| {
            let mut n = d.clone();
            f(&mut n);
            h.set(n);
        }
    };
    let edit = {
        let set = set.clone();
        let keys = keys.clone();
        move |e: Edit| {
            let keys = keys.clone();
            set(&move |d: &mut Draft| d.spec = apply(&d.spec, &e, &keys));
        }
    };

    let snaps = snapshots(sim, l);
    let chosen = d
        .from
        .and_then(|f| snaps.iter().find(|s| s.0 == f))
        .or_else(|| snaps.iter().rev().find(|s| s.1))
        .or(snaps.last())
        .cloned();
    let on_from = {
        let set = set.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value().parse::<u64>().ok();
            set(&move |d: &mut Draft| d.from = v);
        })
    };

    // The mapping, live.
    let (rows, refusal, ring_spec) = match &chosen {
        Some((from, saved, _)) => preview(sim, *from, *saved, &d.spec, d.allow),
        None => (vec![], None, ring_of(sim, &d.spec, None)),
    };

    // The restore.
    let why_restore = why_restore(chosen.is_some(), sim, l);
    let on_restore =
        restore_into(&props.run, &props.dispatch, &outcome, &d.spec, d.allow, chosen.as_ref().map(|c| c.0));
    let on_allow = {
        let set = set.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            set(&move |d: &mut Draft| d.allow = on);
        })
    };
    let on_reset_draft = {
        let set = set.clone();
        Callback::from(move |_: MouseEvent| set(&|d: &mut Draft| d.spec = d.base.clone()))
    };

    let changed = d.spec != d.base;
    let job_html = job_section(&session, &props.dispatch, l);
    let savepoints_html = savepoints_section(sim, &snaps, &chosen, on_from, &props.dispatch, l);
    drop(session);

    let outcome_html = outcome_view(&outcome, &props.run, l);
    let refusal_html = refusal.as_ref().map(|r| refusal_view(r, l));

    html! {
        <div class="room-body program-room">
            <p>{ l.t("A savepoint stores each operator's state under its operator id. Any program whose operators have those ids can restore it: \
                      change the program, then restore and watch where the state goes.",
                     "保存点按算子 id 存放每个算子的状态。只要新程序里的算子有这些 id，就能从它恢复：\
                      修改程序，然后恢复，看状态去了哪里。") }</p>
            { job_html }
            { savepoints_html }
            { program_section(&d.spec, changed, &edit, on_reset_draft, l) }
            <section class="program-step" aria-labelledby="h-restore">
                <h2 id="h-restore">{ l.t("4. Restore", "4. 恢复") }</h2>
                <label class="check"><input type="checkbox" id="allow-non-restored" checked={d.allow} onchange={on_allow} />
                    { l.t(" --allowNonRestoredState: skip saved state that has no operator", " --allowNonRestoredState：跳过找不到算子的状态") }</label>
                <div class="room-actions">
                    <button class="tool primary" id="btn-restore-into" disabled={why_restore.is_some()}
                        title={why_restore.clone().unwrap_or_else(|| l.t("flink run -s: a new job of this program, from the snapshot", "flink run -s：这个程序的新作业，从快照开始").into())}
                        onclick={on_restore}>{ l.t("⟲ Restore into this program", "⟲ 恢复到这个程序") }</button>
                </div>
                { why_restore.map(|w| html! { <p class="muted" id="restore-why">{ w }</p> }).unwrap_or_default() }
                { refusal_html.unwrap_or_default() }
                { if rows.is_empty() { html! {} } else { mapping_table(&rows, &d.spec, l) } }
                { outcome_html }
            </section>
            <section class="program-step" aria-labelledby="h-ring">
                <h2 id="h-ring">{ l.t("Key groups: the chosen snapshot into the program being edited", "键组：所选快照恢复到正在编辑的程序") }</h2>
                { ring_spec.map(|r| ring(&r, l)).unwrap_or_else(|| html! { <p class="muted">{ l.t("This job has no keyed operator.", "这个作业没有键控算子。") }</p> }) }
            </section>
        </div>
    }
}
