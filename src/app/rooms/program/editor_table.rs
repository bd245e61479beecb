//! The program to restore into, as a table to edit: a row per operator with its kind, its
//! parallelism (− and +), its uid, its max parallelism (a stateful operator's), its operator id and
//! a Remove button; a Filter to insert before the keyed operator, and the edits to undo.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::editor::{insert_locked, parallelism_locked, removal_locked, Edit};
use crate::app::text::Lang;
use crate::engine::core::dataflow::job_graph::{JobSpec, OperatorKind};
use crate::engine::program::operator_id::operator_ids;

/// Step 3 of the room: the program being edited (`spec`), `changed` from the one that runs.
pub fn program_section<E: Fn(Edit) + Clone + 'static>(
    spec: &JobSpec,
    changed: bool,
    edit: &E,
    on_reset_draft: Callback<MouseEvent>,
    l: Lang,
) -> Html {
    // The editor rows.
    let ids = operator_ids(spec);
    let max_choices: [Option<u16>; 5] = [None, Some(4), Some(16), Some(64), Some(128)];
    let editor_rows: Html = spec
        .operators
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let locked = parallelism_locked(spec, i, l);
            let p = o.parallelism;
            let minus = { let edit = edit.clone(); Callback::from(move |_: MouseEvent| edit(Edit::Parallelism(i, p.saturating_sub(1).max(1)))) };
            let plus = { let edit = edit.clone(); Callback::from(move |_: MouseEvent| edit(Edit::Parallelism(i, p + 1))) };
            let on_uid = {
                let edit = edit.clone();
                Callback::from(move |e: Event| {
                    let v = e.target_unchecked_into::<HtmlInputElement>().value();
                    edit(Edit::Uid(i, Some(v.trim().to_string()).filter(|s| !s.is_empty())))
                })
            };
            let on_max = {
                let edit = edit.clone();
                Callback::from(move |e: Event| {
                    let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
                    edit(Edit::MaxParallelism(i, v.parse().ok()))
                })
            };
            let remove_locked = removal_locked(spec, i, l);
            let remove = { let edit = edit.clone(); Callback::from(move |_: MouseEvent| edit(Edit::Remove(i))) };
            let name = o.name.clone();
            let too_high = |n: u16| n >= crate::engine::core::dataflow::job_graph::MAX_PARALLELISM;
            html! {
                <tr data-operator={name.clone()}>
                    <th scope="row">{ &o.name }</th>
                    <td>{ kind_text(&o.kind, l) }</td>
                    <td class="par">
                        <button class="tool small" id={format!("par-minus-{name}")} disabled={locked.is_some() || p <= 1}
                            title={locked.map(String::from).unwrap_or_else(|| l.t("One subtask fewer", "少一个子任务").into())}
                            aria-label={format!("{name}: {}", l.t("parallelism −1", "并行度 −1"))} onclick={minus}>{ "−" }</button>
                        <output id={format!("par-{name}")}>{ p }</output>
                        <button class="tool small" id={format!("par-plus-{name}")} disabled={locked.is_some() || too_high(p)}
                            title={locked.map(String::from).unwrap_or_else(|| if too_high(p) { l.t("The simulator allows at most 8 subtasks", "模拟器最多 8 个子任务").into() } else { l.t("One subtask more", "多一个子任务").into() })}
                            aria-label={format!("{name}: {}", l.t("parallelism +1", "并行度 +1"))} onclick={plus}>{ "+" }</button>
                    </td>
                    <td><input type="text" class="uid" id={format!("uid-{name}")} value={o.uid.clone().unwrap_or_default()}
                        placeholder={l.t("no uid: generated id", "无 uid：自动生成 id")} maxlength="40"
                        aria-label={format!("{name}: uid")} onchange={on_uid} /></td>
                    <td>{ if o.kind.is_stateful() { html! {
                        <select id={format!("max-{name}")} aria-label={format!("{name}: {}", l.t("max parallelism", "最大并行度"))} onchange={on_max}>
                            { for max_choices.iter().map(|m| html! {
                                <option value={m.map(|v| v.to_string()).unwrap_or_default()} selected={o.max_parallelism == *m}>
                                    { m.map(|v| v.to_string()).unwrap_or_else(|| l.t("not set (default)", "未设置（默认）").into()) }</option>
                            }) }
                        </select>
                    } } else { html! { <span class="muted">{ "—" }</span> } } }</td>
                    <td><code class="opid">{ ids[i].hex() }</code></td>
                    <td><button class="tool small" id={format!("remove-{name}")} disabled={remove_locked.is_some()}
                        title={remove_locked.map(String::from).unwrap_or_else(|| l.t("Remove this operator; its input goes straight to its output", "删除这个算子，它的输入直接连到输出").into())}
                        onclick={remove}>{ l.t("Remove", "删除") }</button></td>
                </tr>
            }
        })
        .collect();
    let why_insert = insert_locked(spec, l);
    let on_insert = {
        let edit = edit.clone();
        Callback::from(move |_: MouseEvent| edit(Edit::InsertFilter))
    };
    html! {
        <section class="program-step" aria-labelledby="h-edit">
            <h2 id="h-edit">{ l.t("3. The program to restore into", "3. 要恢复到的程序") }</h2>
            <table class="job-editor" id="job-editor">
                <thead><tr>
                    <th scope="col">{ l.t("Operator", "算子") }</th>
                    <th scope="col">{ l.t("Kind", "种类") }</th>
                    <th scope="col">{ l.t("Parallelism", "并行度") }</th>
                    <th scope="col">{ "uid" }</th>
                    <th scope="col">{ l.t("Max parallelism", "最大并行度") }</th>
                    <th scope="col">{ l.t("Operator id", "算子 id") }</th>
                    <th scope="col"><span class="sr-only">{ l.t("Remove", "删除") }</span></th>
                </tr></thead>
                <tbody>{ editor_rows }</tbody>
            </table>
            <div class="room-actions">
                <button class="tool" id="btn-insert-filter" disabled={why_insert.is_some()}
                    title={why_insert.map(String::from).unwrap_or_else(|| l.t("Insert a Filter (keeping every key) before the keyed operator", "在键控算子前插入一个 Filter（保留所有键）").into())}
                    onclick={on_insert}>{ l.t("Insert a Filter", "插入 Filter") }</button>
                <button class="tool" id="btn-reset-program" disabled={!changed}
                    title={if changed { l.t("Back to the program that runs", "回到正在运行的程序") } else { l.t("The program is as it runs", "程序与运行中的相同") }}
                    onclick={on_reset_draft}>{ l.t("Undo the edits", "撤销修改") }</button>
            </div>
        </section>
    }
}

pub fn kind_text(k: &OperatorKind, l: Lang) -> String {
    // The canvas's names for the kinds, so the room and the drawing say the same.
    let name = crate::app::text::kind_name(l, k);
    match (k, l) {
        (OperatorKind::Filter { keep_keys }, Lang::En) => format!("{name} (keeps {})", keep_keys.join(", ")),
        (OperatorKind::Filter { keep_keys }, Lang::Zh) => format!("{name}（保留 {}）", keep_keys.join("、")),
        _ => name.to_string(),
    }
}
