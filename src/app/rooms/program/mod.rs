//! Room: ⚙ Program & savepoints (issue 12 / 28). The program that restores a snapshot may differ
//! from the one that took it. The learner takes savepoints of the run on the main screen, stops it
//! with one, edits the program (parallelism, `uid`, max parallelism, a Filter inserted or an
//! operator removed) and restores it into the edited program, as `flink run -s PATH
//! [--allowNonRestoredState]` does (`engine::rescale`, `Session::restore_into`). The mapping
//! table shows each saved operator's id (`engine::operator_id`, after `StreamGraphHasherV2`) and
//! where its state goes, or Flink's refusal; the key-group ring shows whole key groups moving to
//! their new owners (`engine::key_groups`). A restore replaces the run on the main screen, so the
//! canvas shows the new program.

pub mod editor;
mod ring;

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::RoomProps;
use crate::app::text::Lang;
use crate::app::ui_state::Msg;
use crate::classroom::{Command, RunConfig};
use crate::engine::dataflow::job_graph::{JobSpec, OperatorKind};
use crate::engine::operator_id::operator_ids;
use crate::engine::rescale::{fresh_state, plan, pointer, MappingRow, Refusal, StateFate};
use crate::engine::{Action, CheckpointId, Sim, Strategy};
use editor::{apply, insert_locked, parallelism_locked, removal_locked, Edit};
use ring::{ring, RingSpec};

/// The room, as the page's split point calls it.
pub fn render(props: RoomProps) -> Html {
    html! { <>{ crate::app::rooms::room_head(crate::app::room::Room::Program, &props, Html::default()) }<ProgramRoom ..props /></> }
}

/// The jobs offered: the line without uids, the line with them, and the keyed job to rescale.
const JOBS: [&str; 4] = ["line", "line-sink", "line-uids", "keyed-count"];

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

/// The last restore tried from this room.
#[derive(Clone, PartialEq)]
enum Outcome {
    Restored { from: u64, rows: Vec<MappingRow>, ring: Option<RingSpec> },
    Refused(String),
}

/// The snapshots a stopped job can be submitted again from: its savepoints, and its newest
/// retained checkpoint. (id, is a savepoint, the line shown)
fn snapshots(sim: &Sim, l: Lang) -> Vec<(u64, bool, String)> {
    let mut v: Vec<(u64, bool, String)> = sim
        .savepoints()
        .iter()
        .map(|s| {
            let id = s.checkpoint.id.0;
            let t = match (l, s.stop) {
                (Lang::En, false) => format!("savepoint {id} (step {})", s.checkpoint.completed_tick),
                (Lang::En, true) => format!("savepoint {id}, taken by the stop (step {})", s.checkpoint.completed_tick),
                (Lang::Zh, false) => format!("保存点 {id}（第 {} 步）", s.checkpoint.completed_tick),
                (Lang::Zh, true) => format!("保存点 {id}，停止时所做（第 {} 步）", s.checkpoint.completed_tick),
            };
            (id, true, t)
        })
        .collect();
    if let Some(c) = sim.storage().completed.last() {
        let t = match l {
            Lang::En => format!("retained checkpoint {} (step {})", c.id.0, c.completed_tick),
            Lang::Zh => format!("保留的检查点 {}（第 {} 步）", c.id.0, c.completed_tick),
        };
        v.push((c.id.0, false, t));
    }
    v
}

/// The mapping table of a restore of `sim`'s snapshot `from` into `spec`: its rows and, if the
/// restore is refused, why. Refused for want of `--allowNonRestoredState`, the rows are those the
/// option would give, with the refused operator marked.
fn preview(
    sim: &Sim,
    from: u64,
    saved: bool,
    spec: &JobSpec,
    allow: bool,
) -> (Vec<MappingRow>, Option<Refusal>, Option<RingSpec>) {
    let cp = match saved {
        true => sim.savepoints().iter().find(|s| s.checkpoint.id.0 == from).map(|s| &s.checkpoint),
        false => sim.storage().completed.last(),
    };
    let Some(cp) = cp else { return (vec![], None, None) };
    let sink = sim.settings.sink;
    let at = pointer(CheckpointId(from), saved);
    let run = |allow: bool| plan(&sim.graph, cp, &at, spec, allow, |g, t| fresh_state(g, t, sink));
    let (rows, refusal, graph) = match run(allow) {
        Ok(p) => (p.rows, None, Some(p.graph)),
        Err(r @ Refusal::NotAvailable { .. }) => match run(true) {
            Ok(p) => {
                let rows = p
                    .rows
                    .into_iter()
                    .map(|mut row| {
                        if row.fate == StateFate::Dropped {
                            row.fate = StateFate::Refused;
                        }
                        row
                    })
                    .collect();
                (rows, Some(r), None)
            }
            Err(other) => (vec![], Some(other), None),
        },
        Err(r) => (vec![], Some(r), None),
    };
    let ring = ring_of(sim, spec, graph.as_ref().map(|g| &g.max_parallelism[..]));
    (rows, refusal, ring)
}

/// The ring for the first keyed operator of the run, as the new program would have it.
fn ring_of(sim: &Sim, spec: &JobSpec, new_max: Option<&[u16]>) -> Option<RingSpec> {
    let g = &sim.graph;
    let (oi, op) = g.spec.operators.iter().enumerate().find(|(_, o)| o.kind.is_stateful())?;
    let id = operator_ids(&g.spec)[oi];
    let new_ids = operator_ids(spec);
    let ni = new_ids.iter().position(|h| *h == id);
    let new_p = ni.map_or(op.parallelism, |i| spec.operators[i].parallelism);
    let max = match (ni, new_max) {
        (Some(i), Some(m)) => m[i],
        _ => g.max_parallelism[oi],
    };
    Some(RingSpec {
        operator: op.name.clone(),
        max_parallelism: max,
        old_parallelism: op.parallelism.min(max),
        new_parallelism: new_p.min(max).max(1),
        keys: g.keys.clone(),
    })
}

fn fate_text(f: StateFate, l: Lang) -> &'static str {
    match f {
        StateFate::Kept => l.t("state kept", "状态保留"),
        StateFate::Dropped => l.t("state dropped (--allowNonRestoredState)", "状态丢弃（--allowNonRestoredState）"),
        StateFate::SkippedEmpty => l.t("no state: skipped", "无状态：跳过"),
        StateFate::Refused => l.t("refused: no operator has this id", "拒绝：没有算子有这个 id"),
        StateFate::Unread => l.t(
            "restored into an operator that never reads it: lost, without a refusal",
            "恢复给了一个从不读取它的算子：丢失，且没有拒绝",
        ),
    }
}

/// A refusal in the page's language. Flink's own refusals are quoted as Flink logs them, in
/// English, after a sentence that says what they mean.
fn refusal_text(r: &Refusal, l: Lang) -> (String, Option<String>) {
    let flink = |en: &'static str, zh: &'static str| (l.t(en, zh).to_string(), Some(r.message()));
    match r {
        Refusal::NotAvailable { operator, .. } => match l {
            Lang::En => (format!("Flink refuses: the saved state of {operator} has no operator with its id in the new program."), Some(r.message())),
            Lang::Zh => (format!("Flink 拒绝恢复：{operator} 保存的状态在新程序里找不到同 id 的算子。"), Some(r.message())),
        },
        Refusal::MaxParallelismMismatch { .. } => flink(
            "Flink refuses: the new program sets another max parallelism, which would move keys between key groups.",
            "Flink 拒绝恢复：新程序设置了不同的最大并行度，这会让键换到别的键组。",
        ),
        Refusal::MaxParallelismTooLow { .. } => flink(
            "Flink refuses: the saved state has fewer key groups than the new parallelism has subtasks.",
            "Flink 拒绝恢复：保存的状态的键组数少于新并行度的子任务数。",
        ),
        Refusal::Action(e) => (e.message(l), None),
        Refusal::Build(e) => (e.to_string(), None),
        _ => match l {
            Lang::En => (r.message(), None),
            Lang::Zh => (
                match r.id() {
                    "source-rescaled" => "模拟器的限制：每个源子任务读一个日志分区，源的并行度不能改。".into(),
                    "not-key-group-routed" => "这个键控算子的输入没有按键分区（forward、rebalance 或 broadcast 边，模拟器允许它们接入 count），不能改并行度：Flink 只在 keyBy 之后的键控流上保存键控状态，扩缩容移动的是它的键组；请把它的输入边改为 hash（keyBy）。".into(),
                    "kind-changed" => "模拟器的限制：这个 id 的算子种类变了，读不了保存的状态。".into(),
                    "channel-state" => "模拟器的限制：快照里存有通道中的记录（非对齐），不能恢复到修改后的程序；Flink 的保存点总是对齐的。".into(),
                    _ => "模拟器的限制：sink 的并行度不能改。".into(),
                },
                Some(r.message()),
            ),
        },
    }
}

/// Why Take a savepoint and Stop with savepoint are refused, one line for both when the reason is
/// the same.
fn refused_lines(sp: &Option<String>, stop: &Option<String>, l: Lang) -> Vec<String> {
    let line = |what: &str, why: &str| match l {
        Lang::En => format!("{what}: {why}."),
        Lang::Zh => format!("{what}：{why}。"),
    };
    match (sp, stop) {
        (Some(a), Some(b)) if a == b => vec![line(l.t("No savepoint now", "现在不能做保存点"), a)],
        _ => [(sp, l.t("Take a savepoint", "做一个保存点")), (stop, l.t("Stop with savepoint", "带保存点停止"))]
            .into_iter()
            .filter_map(|(w, what)| w.as_ref().map(|w| line(what, w)))
            .collect(),
    }
}

fn mapping_table(rows: &[MappingRow], spec: &JobSpec, l: Lang) -> Html {
    let new_ids = operator_ids(spec);
    let fresh: Vec<(String, String)> = spec
        .operators
        .iter()
        .zip(&new_ids)
        .filter(|(o, _)| !rows.iter().any(|r| r.target.as_deref() == Some(o.name.as_str())))
        .map(|(o, h)| (o.name.clone(), h.hex()))
        .collect();
    html! {
        <table class="mapping" id="mapping-table">
            <caption>{ l.t("How state finds its operator: by operator id only", "状态如何找到它的算子：只看算子 id") }</caption>
            <thead><tr>
                <th scope="col">{ l.t("Saved operator", "保存的算子") }</th>
                <th scope="col">{ l.t("Operator id", "算子 id") }</th>
                <th scope="col">{ l.t("New operator with that id", "新程序中同 id 的算子") }</th>
                <th scope="col">{ l.t("Parallelism", "并行度") }</th>
                <th scope="col">{ l.t("State", "状态") }</th>
            </tr></thead>
            <tbody>
                { for rows.iter().map(|r| html! {
                    <tr class={classes!("fate", r.fate.id())} data-operator={r.operator.clone()} data-fate={r.fate.id()}>
                        <td>{ &r.operator }</td>
                        <td><code>{ r.id.hex() }</code></td>
                        <td>{ r.target.clone().unwrap_or_else(|| l.t("— none —", "— 无 —").into()) }</td>
                        <td>{ match r.new_parallelism { Some(n) if n != r.old_parallelism => format!("{} → {n}", r.old_parallelism), _ => r.old_parallelism.to_string() } }</td>
                        <td>{ if r.fate == StateFate::Kept && !r.has_state { l.t("no state to map (id found)", "没有要映射的状态（找到 id）") } else { fate_text(r.fate, l) } }</td>
                    </tr>
                }) }
                { for fresh.iter().map(|(n, h)| html! {
                    <tr class="fate new" data-operator={n.clone()} data-fate="new">
                        <td>{ l.t("(not in the snapshot)", "（快照中没有）") }</td>
                        <td><code>{ h.clone() }</code></td>
                        <td>{ n.clone() }</td>
                        <td>{ "" }</td>
                        <td>{ l.t("starts empty", "从空状态开始") }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

fn kind_text(k: &OperatorKind, l: Lang) -> String {
    // The canvas's names for the kinds, so the room and the drawing say the same.
    let name = crate::app::text::kind_name(l, k);
    match (k, l) {
        (OperatorKind::Filter { keep_keys }, Lang::En) => format!("{name} (keeps {})", keep_keys.join(", ")),
        (OperatorKind::Filter { keep_keys }, Lang::Zh) => format!("{name}（保留 {}）", keep_keys.join("、")),
        _ => name.to_string(),
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

    // The job.
    let job = session.config.job.clone();
    let on_job = {
        let (dispatch, config) = (props.dispatch.clone(), session.config.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            let mut settings = config.settings.clone();
            if !settings.strategy.uses_coordinator() {
                settings.strategy = Strategy::Aligned;
            }
            dispatch.dispatch(Msg::Cmd(Command::Configure(RunConfig {
                job: v,
                settings,
                seed: config.seed,
                records: None,
            })));
        })
    };

    // The savepoints.
    let act = |a: Action| {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::Act(a))))
    };
    let why = |a: Action| sim.check(a).err().map(|e| e.message(l));
    let (why_sp, why_stop) = (why(Action::Savepoint), why(Action::StopWithSavepoint));
    let can_finish = sim.stopping().is_some() && session.can_run_to_end();
    let on_finish = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::ToEnd)))
    };
    // The way forward when the savepoint buttons are refused for want of checkpoints: the same
    // job and input under aligned barriers, a new run (issue 48: no dead ends).
    let no_coordinator = !sim.strategy().uses_coordinator();
    let on_aligned = {
        let (dispatch, config) = (props.dispatch.clone(), session.config.clone());
        Callback::from(move |_: MouseEvent| {
            let mut settings = config.settings.clone();
            settings.strategy = Strategy::Aligned;
            dispatch.dispatch(Msg::Cmd(Command::Configure(RunConfig {
                job: config.job.clone(),
                settings,
                seed: config.seed,
                records: None,
            })))
        })
    };
    // The savepoints on their way: a savepoint shows at once, with its barriers still travelling.
    let pending: Vec<(u64, bool, u16)> = sim
        .pending()
        .iter()
        .filter_map(|p| p.savepoint.map(|k| (p.id.0, k == crate::engine::SavepointType::Suspend, p.acked)))
        .collect();
    let tasks = sim.graph.tasks.len();
    let on_step = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::Forward)))
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
    let why_restore: Option<String> = if chosen.is_none() {
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
    };
    let on_restore = {
        let (run, dispatch, outcome, d) = (props.run.clone(), props.dispatch.clone(), outcome.clone(), d.clone());
        let from = chosen.as_ref().map(|c| c.0);
        Callback::from(move |_: MouseEvent| {
            let Some(from) = from else { return };
            let result = run.session().restore_into(CheckpointId(from), &d.spec, d.allow);
            match result {
                Ok((s, p)) => {
                    let ring = ring_of(run.session().sim(), &d.spec, Some(&p.graph.max_parallelism));
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
    };
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

    // The editor rows.
    let ids = operator_ids(&d.spec);
    let max_choices: [Option<u16>; 5] = [None, Some(4), Some(16), Some(64), Some(128)];
    let editor_rows: Html = d
        .spec
        .operators
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let locked = parallelism_locked(&d.spec, i, l);
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
            let remove_locked = removal_locked(&d.spec, i, l);
            let remove = { let edit = edit.clone(); Callback::from(move |_: MouseEvent| edit(Edit::Remove(i))) };
            let name = o.name.clone();
            let too_high = |n: u16| n >= crate::engine::dataflow::job_graph::MAX_PARALLELISM;
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
    let why_insert = insert_locked(&d.spec, l);
    let on_insert = {
        let edit = edit.clone();
        Callback::from(move |_: MouseEvent| edit(Edit::InsertFilter))
    };
    let changed = d.spec != d.base;
    drop(session);

    let outcome_html = match &*outcome {
        Some(Outcome::Restored { from, rows, ring: r }) => html! {
            <div class="restored" id="restore-result" role="status" data-result="restored">
                <p><strong>{ match l {
                    Lang::En => format!("Restored from snapshot {from}: a new job of the edited program now runs on the main screen."),
                    Lang::Zh => format!("已从快照 {from} 恢复：主屏幕上运行的是修改后程序的新作业。"),
                } }</strong></p>
                { mapping_table(rows, &props.run.session().sim().graph.spec, l) }
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
    };
    let refusal_html = refusal.as_ref().map(|r| {
        let (head, log) = refusal_text(r, l);
        html! {
            <div class="refused-box" id="refusal-preview">
                <p class="refused">{ head }</p>
                { log.map(|t| html! { <pre class="flink-log" id="flink-message">{ t }</pre> }).unwrap_or_default() }
            </div>
        }
    });

    html! {
        <div class="room-body program-room">
            <p>{ l.t("A savepoint stores each operator's state under its operator id. Any program whose operators have those ids can restore it: \
                      change the program, then restore and watch where the state goes.",
                     "保存点按算子 id 存放每个算子的状态。只要新程序里的算子有这些 id，就能从它恢复：\
                      修改程序，然后恢复，看状态去了哪里。") }</p>
            <section class="program-step" aria-labelledby="h-job">
                <h2 id="h-job">{ l.t("1. The job on the main screen", "1. 主屏幕上的作业") }</h2>
                <label>{ l.t("Start a new run of ", "开始新的运行：") }
                    <select id="program-job" data-autofocus="true" onchange={on_job}>
                        { for JOBS.iter().map(|j| html! { <option value={*j} selected={job == *j}>{ crate::app::text::job_name(l, j) }</option> }) }
                        { if !JOBS.contains(&job.as_str()) { html! { <option value={job.clone()} selected=true>{ crate::app::text::job_name(l, &job) }</option> } } else { html! {} } }
                    </select>
                </label>
                <div class="room-actions">
                    <button class="tool" id="btn-savepoint" disabled={why_sp.is_some()} title={why_sp.clone().unwrap_or_else(|| l.t("flink savepoint: the job runs on", "flink savepoint：作业继续运行").into())}
                        onclick={act(Action::Savepoint)}>{ l.t("Take a savepoint", "做一个保存点") }</button>
                    <button class="tool" id="btn-stop-savepoint" disabled={why_stop.is_some()} title={why_stop.clone().unwrap_or_else(|| l.t("flink stop: a final savepoint, then the job finishes", "flink stop：最后一个保存点，然后作业结束").into())}
                        onclick={act(Action::StopWithSavepoint)}>{ l.t("Stop with savepoint", "带保存点停止") }</button>
                    <button class="tool" id="btn-finish-stop" disabled={!can_finish}
                        title={if can_finish { l.t("Run on until the stop's savepoint completes and the job finishes", "继续运行，直到停止的保存点完成、作业结束") } else { l.t("Nothing is stopping: stop with a savepoint first", "没有正在进行的停止：请先带保存点停止") }}
                        onclick={on_finish}>{ l.t("⇥ Run until the job stops", "⇥ 运行到作业停止") }</button>
                </div>
                // Why a button is refused, in view, not only in its tooltip; and the way forward.
                if why_sp.is_some() || why_stop.is_some() {
                    <div class="room-why" id="savepoint-why" role="status">
                        { for refused_lines(&why_sp, &why_stop, l).into_iter().map(|t| html! { <p>{ t }</p> }) }
                        if no_coordinator {
                            <p>{ l.t("A savepoint is a checkpoint the user triggers, so it needs Flink's checkpoint coordinator.",
                                     "保存点是用户触发的检查点，所以需要 Flink 的检查点协调器。") }</p>
                            <button class="tool primary" id="btn-switch-aligned" onclick={on_aligned.clone()}>
                                { l.t("⇄ Switch to aligned barriers (a new run of this job)", "⇄ 改用对齐屏障（这个作业的新运行）") }</button>
                        }
                    </div>
                }
                <p id="job-status" class="muted">{ match (props.run.session().sim().stopped(), props.run.session().sim().stopping(), l) {
                    (Some(_), _, Lang::En) => "The job is stopped.".to_string(),
                    (Some(_), _, Lang::Zh) => "作业已停止。".to_string(),
                    (None, Some(id), Lang::En) => format!("The job is stopping: savepoint {} is on its way.", id.0),
                    (None, Some(id), Lang::Zh) => format!("作业正在停止：保存点 {} 正在进行。", id.0),
                    (None, None, Lang::En) => "The job is running.".to_string(),
                    (None, None, Lang::Zh) => "作业正在运行。".to_string(),
                } }</p>
            </section>
            <section class="program-step" aria-labelledby="h-snap">
                <h2 id="h-snap">{ l.t("2. Savepoints and retained checkpoints", "2. 保存点与保留的检查点") }</h2>
                if !pending.is_empty() {
                    <ul class="savepoints-pending" id="savepoints-pending" role="status">
                        { for pending.iter().map(|&(id, stop, acked)| html! {
                            <li data-savepoint={id.to_string()}>{ match (l, stop) {
                                (Lang::En, false) => format!("Savepoint {id} is on its way: its barriers travel with the records, {acked} of {tasks} tasks have saved. Step the run to complete it."),
                                (Lang::En, true) => format!("Stop with savepoint {id} is on its way: the sources read nothing more, {acked} of {tasks} tasks have saved. Step the run, or run until the job stops."),
                                (Lang::Zh, false) => format!("保存点 {id} 正在进行：它的屏障随记录传递，{tasks} 个任务中已有 {acked} 个保存。单步运行即可完成它。"),
                                (Lang::Zh, true) => format!("带保存点停止（保存点 {id}）正在进行：数据源不再读取，{tasks} 个任务中已有 {acked} 个保存。单步运行，或运行到作业停止。"),
                            } }</li>
                        }) }
                    </ul>
                    <div class="room-actions">
                        <button class="tool primary" id="btn-program-step" onclick={on_step.clone()}>{ l.t("Step ▶", "单步 ▶") }</button>
                    </div>
                }
                { if snaps.is_empty() { html! { <p id="no-savepoints" class="muted">{ if pending.is_empty() { l.t("None yet.", "还没有。") } else { l.t("None completed yet.", "还没有完成的。") } }</p> } } else { html! {
                    <label>{ l.t("Restore from ", "恢复自：") }
                        <select id="restore-from" onchange={on_from}>
                            { for snaps.iter().map(|s| html! { <option value={s.0.to_string()} selected={chosen.as_ref().map(|c| c.0) == Some(s.0)}>{ s.2.clone() }</option> }) }
                        </select>
                    </label>
                } } }
            </section>
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
