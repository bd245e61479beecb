//! The "Every schedule" tab: pick a study (a preset, or the main screen's run when it is small
//! enough), explore every schedule of it under one checkpoint (or round of timers) and one crash
//! ([`Explorer`]), sliced across animation frames with live progress and Cancel, then the table
//! of states, schedules and shares, and the counterexample cards.

use crate::app::svg_number::fixed;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::cards::{cards, share};
use super::counts::grouped;
use super::presets::{main_study, PRESETS};
use super::study::{Study, TabProps};
use crate::app::rooms::slices::{in_frames, in_spare_frames, Cost, Left};
use crate::app::rooms::RoomProps;
use crate::classroom::RunConfig;
use crate::engine::explorer::{Completion, Explorer, HistoryShares, Progress, Report, Shares};
use crate::engine::{JobGraph, Lang};

/// States expanded between two looks at the clock.
const CHUNK: usize = 1;

/// Where the search stands.
#[derive(Clone)]
pub enum Search {
    Idle,
    Running(Progress, Cost),
    Cancelled(Progress, Cost),
    Failed(String),
    Done(Rc<Done>),
}

/// A finished search.
pub struct Done {
    pub config: RunConfig,
    pub graph: Rc<JobGraph>,
    pub report: Report,
    pub cost: Cost,
}

/// A search's steps for [`in_frames`]: [`CHUNK`] states each, a counterexample in a frame of its own.
fn steps(explorer: Rc<RefCell<Explorer>>) -> impl FnMut() -> Left {
    move || {
        let mut ex = explorer.borrow_mut();
        match ex.run(CHUNK).done {
            true => Left::Done,
            false if ex.next_is_long() => Left::LongNext,
            false => Left::More,
        }
    }
}

/// Runs the warm-up ([`super::presets::warm_up`]) once per page, in spare frames: a search or a
/// lab run started meanwhile stops it; `done` is told its cost if it ends.
pub fn warm_up(done: impl Fn(Cost) + 'static) {
    thread_local! {
        static STARTED: Cell<bool> = const { Cell::new(false) };
    }
    if STARTED.with(|s| s.replace(true)) {
        return;
    }
    let Ok(sim) = super::presets::warm_up().scenario().sim() else { return };
    let Ok(explorer) = Explorer::with_completion(sim, crate::engine::FaultBudget::default(), Completion::Canonical)
    else {
        return;
    };
    in_spare_frames(steps(Rc::new(RefCell::new(explorer))), done);
}

fn study_config(study: &str, main: &RunConfig, l: Lang) -> Result<(RunConfig, Vec<String>), String> {
    if study == "main" {
        return main_study(main, l);
    }
    super::presets::preset(study)
        .map(|p| (p.config(), vec![]))
        .ok_or_else(|| l.t("no such study", "没有这个研究").into())
}

#[component]
pub fn SchedulesTab(props: &TabProps) -> Html {
    let l = props.room.lang;
    let search = use_state(|| Search::Idle);
    let generation = use_mut_ref(|| Rc::new(Cell::new(0u32)));
    let main_config = props.room.run.session().config.clone();
    let study_id = props.study.schedules.clone();
    let chosen = study_config(&study_id, &main_config, l);

    let start = {
        let search = search.clone();
        let generation = generation.borrow().clone();
        let chosen = chosen.clone();
        Callback::from(move |_: ()| {
            generation.set(generation.get() + 1);
            let Ok((config, _)) = chosen.clone() else { return };
            let explorer = config.scenario().sim().map_err(|e| format!("{e:?}")).and_then(|sim| {
                Explorer::with_completion(sim, crate::engine::FaultBudget::default(), Completion::Canonical)
                    .map_err(|e| format!("{e:?}"))
            });
            let explorer = match explorer {
                Ok(e) => Rc::new(RefCell::new(e)),
                Err(e) => return search.set(Search::Failed(e)),
            };
            search.set(Search::Running(explorer.borrow().progress(), Cost::default()));
            let step = steps(explorer.clone());
            let s = search.clone();
            let graph = explorer.borrow().initial().graph.clone();
            in_frames(generation.clone(), step, move |cost, done| {
                let ex = explorer.borrow();
                let p = ex.progress();
                s.set(match (done, ex.report(), p.failed.clone()) {
                    (_, _, Some(why)) => Search::Failed(why),
                    (true, Some(r), _) => Search::Done(Rc::new(Done {
                        config: config.clone(),
                        graph: graph.clone(),
                        report: r.clone(),
                        cost,
                    })),
                    _ => Search::Running(p, cost),
                });
            });
        })
    };
    // A study chosen (or reopened from a link or a reload) that had been explored runs again.
    {
        let start = start.clone();
        let explore = props.study.explored;
        use_effect_with((study_id.clone(), explore), move |(_, explore)| {
            if *explore {
                start.emit(());
            }
        });
    }
    let cancel = {
        let search = search.clone();
        let generation = generation.borrow().clone();
        Callback::from(move |_| {
            generation.set(generation.get() + 1);
            if let Search::Running(p, c) = &*search {
                search.set(Search::Cancelled(p.clone(), *c));
            }
        })
    };
    {
        // Leaving the tab or the room stops the search.
        let generation = generation.borrow().clone();
        use_effect_with((), move |_| move || generation.set(generation.get() + 1));
    }
    let on_study = {
        let choose = props.choose.clone();
        let study = props.study.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            choose.emit(Study { schedules: v, explored: false, ..study.clone() });
        })
    };
    let on_explore = {
        let choose = props.choose.clone();
        let study = props.study.clone();
        let start = start.clone();
        Callback::from(move |_| {
            if study.explored {
                start.emit(());
            } else {
                choose.emit(Study { explored: true, ..study.clone() });
            }
        })
    };
    let running = matches!(&*search, Search::Running(..));
    let main_why = main_study(&main_config, l).err();
    let claim = super::presets::preset(&study_id).map(|p| p.claim(l).to_string());

    html! {
        <div class="xp-tab" id="xp-schedules" role="tabpanel" aria-labelledby="xp-tab-schedules"
            data-state={match &*search { Search::Idle => "idle", Search::Running(..) => "running", Search::Cancelled(..) => "cancelled", Search::Failed(_) => "failed", Search::Done(_) => "done" }}>
            <div class="xp-setup">
                <label for="xp-study">{ l.t("Study", "研究对象") }</label>
                <select id="xp-study" onchange={on_study} disabled={running}>
                    { for PRESETS.iter().map(|p| html! { <option value={p.id} selected={p.id == study_id}>{ p.title(l) }</option> }) }
                    <option value="main" selected={study_id == "main"}>{ l.t("The main screen's run (its job, strategy and input)", "主界面的运行（其作业、策略和输入）") }</option>
                </select>
                <button id="xp-explore" class="tool primary" onclick={on_explore} disabled={running || chosen.is_err()} data-autofocus="true"
                    title={chosen.as_ref().err().cloned()}>{ l.t("⋔ Explore every schedule", "⋔ 探索所有调度") }</button>
                if running { <button id="xp-cancel" class="tool danger" onclick={cancel}>{ l.t("■ Cancel", "■ 取消") }</button> }
            </div>
            <p class="xp-claim">{ match (&chosen, claim) {
                (Err(why), _) => html! { <span id="xp-refused" class="bad" role="alert">{ format!("{} {why}", l.t("The explorer can't take this run:", "探索器无法处理这个运行：")) }</span> },
                (Ok((_, changes)), None) => html! { <>{ l.t("The main screen's run, from its first step: one checkpoint (or round of timers) at any moment, one crash at any moment, then the restore and the rest of the run.", "主界面的运行，从第一步开始：任意时刻一次检查点（或一轮定时器），任意时刻一次崩溃，然后恢复并运行到底。") }
                    { for changes.iter().map(|c| html! { <span class="xp-change">{ format!(" ({c})") }</span> }) }</> },
                (Ok(_), Some(claim)) => html! { { claim } },
            } }</p>
            if study_id != "main" {
                if let Some(why) = main_why {
                    <p class="xp-main-note" id="xp-main-note">{ format!("{} {why}", l.t("(The main screen's run is not offered as it stands:", "（主界面的运行目前不能探索：")) }{ ")" }</p>
                }
            }
            { status(&search, l) }
            if let Search::Done(done) = &*search { { results(done, &props.room, l) } }
        </div>
    }
}

fn status(search: &Search, l: Lang) -> Html {
    let progress = |p: &Progress, c: &Cost, cancelled: bool| {
        let text = match l {
            Lang::En => format!(
                "{} states found, {} expanded, {} to go; schedules {} steps long so far",
                grouped(p.states as u128),
                grouped(p.expanded as u128),
                grouped(p.open as u128),
                p.depth
            ),
            Lang::Zh => format!(
                "已找到 {} 个状态，已展开 {} 个，待展开 {} 个；目前调度长 {} 步",
                grouped(p.states as u128),
                grouped(p.expanded as u128),
                grouped(p.open as u128),
                p.depth
            ),
        };
        let max = (p.expanded + p.open).max(1);
        html! {
            // The search's timings stay in data attributes for the tests and the benchmark: a
            // learner sees how far the search has come, not the page's own figures.
            <div class="xp-progress" id="xp-progress" role="status" aria-live="polite" data-states={p.states.to_string()}
                data-frames={c.frames.to_string()} data-busy-ms={fixed(c.busy_ms, 2)} data-longest-ms={fixed(c.longest_ms, 2)}>
                <progress max={max.to_string()} value={p.expanded.to_string()}></progress>
                <span>{ if cancelled { format!("{} {text}.", l.t("Cancelled:", "已取消：")) } else { format!("{text}…") } }</span>
            </div>
        }
    };
    match search {
        Search::Idle => html! {},
        Search::Running(p, c) => progress(p, c, false),
        Search::Cancelled(p, c) => progress(p, c, true),
        Search::Failed(why) => {
            html! { <p class="bad" id="xp-failed" role="alert">{ format!("{} {why}", l.t("The search stopped:", "搜索中止：")) }</p> }
        }
        Search::Done(_) => html! {},
    }
}

fn shares_row(id: &str, name: &str, s: &Shares, total: u128) -> Html {
    let cell = |n: u128, class: &'static str| {
        html! {
            <td class={class}>{ grouped(n) }<span class="xp-share">{ format!(" ({})", share(n, total)) }</span></td>
        }
    };
    html! {
        <tr id={id.to_string()} data-exactly-once={s.exactly_once.to_string()} data-lost={s.lost.to_string()} data-duplicated={s.duplicated.to_string()}>
            <th scope="row">{ name.to_string() }</th>
            { cell(s.exactly_once, "good") }
            { cell(s.lost, if s.lost > 0 { "bad" } else { "" }) }
            { cell(s.duplicated, if s.duplicated > 0 { "bad" } else { "" }) }
        </tr>
    }
}

/// Completeness and order on the history that counts (the ledger's two further verdicts).
fn history_table(h: &HistoryShares, total: u128, l: Lang) -> Html {
    let cell = |n: u128, good: bool| {
        html! {
            <td class={if good { "good" } else if n > 0 { "bad" } else { "" }}>{ grouped(n) }<span class="xp-share">{ format!(" ({})", share(n, total)) }</span></td>
        }
    };
    html! {
        <table class="xp-table" id="xp-history" data-incomplete={h.incomplete.to_string()} data-out-of-order={h.out_of_order.to_string()}>
            <caption>{ l.t("After recovery, at every task: complete and in order?", "恢复之后，在每个任务上：完整且有序吗？") }</caption>
            <thead><tr><th scope="col">{ l.t("judged on the history that counts", "按仍然有效的历史判定") }</th><th scope="col">{ l.t("every record", "所有记录") }</th>
                <th scope="col">{ l.t("some record not", "有记录不满足") }</th></tr></thead>
            <tbody>
                <tr id="xp-row-complete"><th scope="row" title={l.t("Each record took effect on every path of the job it takes in the failure-free run.", "每条记录都在无故障运行所经过的每条作业路径上生效。")}>{ l.t("complete (every path of the DAG)", "完整（DAG 的每条路径）") }</th>
                    { cell(h.complete, true) }{ cell(h.incomplete, false) }</tr>
                <tr id="xp-row-order"><th scope="row" title={l.t("At each task, the records of one source partition took effect in source order; at a sink, as a reader sees its rows.", "在每个任务上，同一源分区的记录按源顺序生效；在 sink 上，按读者看到的行判定。")}>{ l.t("in order (per source partition)", "有序（按源分区）") }</th>
                    { cell(h.in_order, true) }{ cell(h.out_of_order, false) }</tr>
            </tbody>
        </table>
    }
}

fn results(done: &Rc<Done>, room: &RoomProps, l: Lang) -> Html {
    let r = &done.report;
    let c = &done.cost;
    html! { <>
        <p class="xp-summary" id="xp-summary" data-states={r.states.to_string()} data-schedules={r.schedules.to_string()}
            data-busy-ms={fixed(c.busy_ms, 2)} data-frames={c.frames.to_string()} data-longest-ms={fixed(c.longest_ms, 2)}
            data-over-budget={c.over_budget.to_string()} data-longest-step-ms={fixed(c.longest_step_ms, 2)}
            data-wall-ms={fixed(c.wall_ms, 2)}>
            { match l {
                Lang::En => format!("{} distinct states ({} where schedules end, {} moves between them), {} schedules of {} to {} steps.",
                    grouped(r.states as u128), grouped(r.end_states as u128), grouped(r.transitions as u128), grouped(r.schedules), r.shortest, r.longest),
                Lang::Zh => format!("{} 个不同的状态（其中 {} 个是调度的终点，状态之间有 {} 个动作），{} 个调度，长 {} 到 {} 步。",
                    grouped(r.states as u128), grouped(r.end_states as u128), grouped(r.transitions as u128), grouped(r.schedules), r.shortest, r.longest),
            } }
        </p>
        <table class="xp-table" id="xp-table">
            <caption>{ l.t("How every schedule ends", "所有调度的结局") }</caption>
            <thead><tr><th scope="col">{ l.t("judged on", "判定对象") }</th><th scope="col">{ l.t("exactly once", "精确一次") }</th>
                <th scope="col">{ l.t("a record lost", "有记录丢失") }</th><th scope="col">{ l.t("a record duplicated", "有记录重复") }</th></tr></thead>
            <tbody>
                { shares_row("xp-row-state", l.t("operator state", "算子状态"), &r.state, r.schedules) }
                { r.output.as_ref().map(|o| shares_row("xp-row-output", l.t("what a reader sees of the sink", "读者看到的 sink 输出"), o, r.schedules)).unwrap_or_default() }
            </tbody>
        </table>
        <p class="xp-note">{ l.t("A schedule that loses one record and duplicates another counts in both columns.", "一个调度若丢失一条记录又重复另一条，会同时计入两列。") }</p>
        { history_table(&r.history, r.schedules, l) }
        if r.counterexamples.is_empty() {
            <p class="good" id="xp-holds">{ l.t("No schedule loses or duplicates a record, leaves one incomplete or takes one out of order: the claim holds on every one of them.", "没有任何调度丢失或重复记录，也没有让记录不完整或乱序：这一结论在每个调度上都成立。") }</p>
        } else {
            <h3 class="xp-cx-head">{ l.t("The shortest schedule to each bad outcome", "通往每种坏结局的最短调度") }</h3>
            <div class="xp-cards">{ cards(&r.counterexamples, &done.graph, Some(&done.config), r.schedules, l, &room.dispatch, "xp") }</div>
        }
    </> }
}
