//! The "Handler lab" tab: compose a checkpoint-barrier handler from the four choices of the first
//! article (on the first barrier; records after an input's barrier; on the last barrier; in-flight
//! records in the snapshot), or take a built-in strategy as a preset, and classify it
//! ([`Classifier`]: every schedule of three small probe jobs, sliced across frames, with Cancel)
//! as exactly once, at least once, at most once or none of these, with the shortest schedules
//! that rule out the stronger guarantees, explained.

use crate::app::svg_number::fixed;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::cards::cards;
use super::counts::grouped;
use super::study::{Study, TabProps};
use crate::app::rooms::slices::{in_frames, Cost, Left};
use crate::app::rooms::RoomProps;
use crate::app::sharing_part;
use crate::app::ui_state::Msg;
use crate::classroom::{Origin, SavedRun, SAVED_VERSION};
use crate::engine::explorer::lab::{probes, Candidate, Classification, Classifier, Guarantee};
use crate::engine::settings::handler::{AfterBarrier, Handler, OnFirstBarrier, OnLastBarrier};
use crate::engine::settings::strategy::strategy_name;
use crate::engine::Lang;
use crate::engine::{Settings, SinkMode, Strategy};

const CHUNK: usize = 1;

/// What theory says of each preset.
const PRESETS: [(&str, &str, &str, Candidate, Guarantee); 4] = [
    (
        "aligned",
        strategy_name!(Aligned, En),
        strategy_name!(Aligned, Zh),
        Candidate::Handler(Handler::ALIGNED),
        Guarantee::ExactlyOnce,
    ),
    ("tracker", "The barrier tracker", "屏障跟踪器", Candidate::Handler(Handler::TRACKER), Guarantee::AtLeastOnce),
    (
        "unaligned",
        strategy_name!(Unaligned, En),
        strategy_name!(Unaligned, Zh),
        Candidate::Handler(Handler::UNALIGNED),
        Guarantee::ExactlyOnce,
    ),
    (
        "timers",
        concat!(strategy_name!(Timers, En), " (no barriers)"),
        concat!(strategy_name!(Timers, Zh), "（没有屏障）"),
        Candidate::Timers,
        Guarantee::NoneOfThese,
    ),
];

pub fn guarantee_name(g: Guarantee, l: Lang) -> &'static str {
    match g {
        Guarantee::ExactlyOnce => l.t("exactly once", "精确一次"),
        Guarantee::AtLeastOnce => l.t("at least once", "至少一次"),
        Guarantee::AtMostOnce => l.t("at most once", "最多一次"),
        Guarantee::NoneOfThese => l.t("none of these", "都不是"),
    }
}

/// Why a combination makes no sense, in `l` (the engine's [`Handler::check`]).
fn refusal(h: &Handler, l: Lang) -> Option<&'static str> {
    h.check().err()?;
    Some(match (h.first, h.last) {
        (OnFirstBarrier::Wait, OnLastBarrier::ForwardOnly) => l.t(
            "Forward only on the last barrier needs a snapshot taken at the first: waiting, the task would save nothing.",
            "最后一个屏障时“只转发”需要在第一个屏障时已做快照：若等待，任务什么也不会保存。",
        ),
        _ => l.t(
            "In-flight records are those that arrive between a snapshot at the first barrier and the last barrier; waiting, there are none.",
            "在途记录是在第一个屏障时的快照与最后一个屏障之间到达的记录；若等待，就没有在途记录。",
        ),
    })
}

#[derive(Clone)]
enum Run {
    Idle,
    Running(usize, usize, Cost),
    Cancelled,
    Failed(String),
    Done(Rc<(Classification, Cost)>),
}

#[component]
pub fn LabTab(props: &TabProps) -> Html {
    let l = props.room.lang;
    let run = use_state(|| Run::Idle);
    let generation = use_mut_ref(|| Rc::new(Cell::new(0u32)));
    let candidate = props.study.lab;
    let refused = match candidate {
        Candidate::Handler(h) => refusal(&h, l),
        Candidate::Timers => None,
    };
    let start = classify_run(&run, generation.borrow().clone());
    {
        let start = start.clone();
        use_effect_with((candidate, props.study.classified), move |&(c, classified)| {
            if classified {
                start.emit(c);
            }
        });
    }
    {
        let generation = generation.borrow().clone();
        use_effect_with((), move |_| move || generation.set(generation.get() + 1));
    }
    let choose = |c: Candidate, classified: bool| {
        let study = props.study.clone();
        let choose = props.choose.clone();
        move || choose.emit(Study { lab: c, classified, ..study.clone() })
    };
    let handler = match candidate {
        Candidate::Handler(h) => Some(h),
        Candidate::Timers => None,
    };
    let base = handler.unwrap_or(Handler::ALIGNED);
    let select = |id: &'static str,
                  label: &'static str,
                  options: Vec<(&'static str, &'static str)>,
                  value: &'static str,
                  set: fn(Handler, &str) -> Handler| {
        let study = props.study.clone();
        let choose = props.choose.clone();
        let onchange = Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            let h = match study.lab {
                Candidate::Handler(h) => h,
                Candidate::Timers => Handler::ALIGNED,
            };
            choose.emit(Study { lab: Candidate::Handler(set(h, &v)), classified: false, ..study.clone() });
        });
        html! {
            <label class="lab-field" for={id}>
                <span>{ label }</span>
                <select id={id} {onchange}>
                    { for options.into_iter().map(|(v, t)| html! { <option value={v} selected={handler.is_some() && v == value}>{ t }</option> }) }
                </select>
            </label>
        }
    };
    let running = matches!(&*run, Run::Running(..));
    let theory = PRESETS.iter().find(|p| p.3 == candidate);
    let classify = {
        let c = choose(candidate, true);
        let start = start.clone();
        let classified = props.study.classified;
        Callback::from(move |_| if classified { start.emit(candidate) } else { c() })
    };
    let cancel = {
        let generation = generation.borrow().clone();
        let run = run.clone();
        Callback::from(move |_| {
            generation.set(generation.get() + 1);
            run.set(Run::Cancelled);
        })
    };
    html! {
        <div class="xp-tab" id="xp-lab" role="tabpanel" aria-labelledby="xp-tab-lab"
            data-state={match &*run { Run::Idle => "idle", Run::Running(..) => "running", Run::Cancelled => "cancelled", Run::Failed(_) => "failed", Run::Done(_) => "done" }}>
            <p class="xp-claim">{ l.t(
                "Once you understand barriers you can choose any policy: don't align, snapshot on every barrier, drop records until the last barrier comes. Compose a handler, and the explorer tries every schedule of three small jobs with one checkpoint and one crash to find which guarantee it keeps.",
                "理解了屏障，就可以选择任何策略：不对齐、每个屏障都快照、在最后一个屏障到来前丢弃记录。组合一个处理方式，探索器会在三个小作业上以一次检查点、一次崩溃尝试所有调度，找出它能保证什么。") }</p>
            <div class="lab-presets" role="group" aria-label={l.t("The built-in strategies as presets", "内置策略作为预设")}>
                <span>{ l.t("Presets:", "预设：") }</span>
                { for PRESETS.iter().map(|(id, en, zh, c, _)| {
                    let pick = choose(*c, false);
                    html! { <button class={classes!("tool", (*c == candidate).then_some("selected"))} id={format!("lab-preset-{id}")}
                        aria-pressed={(*c == candidate).to_string()} disabled={running}
                        onclick={Callback::from(move |_| pick())}>{ l.t(en, zh) }</button> }
                }) }
            </div>
            <fieldset class="lab-choices" disabled={running}>
                <legend>{ if handler.is_some() { l.t("The handler at each task", "每个任务上的屏障处理方式") } else { l.t("Per-task timers have no barrier handler: choose below to compose one", "各任务定时快照没有屏障处理：在下面选择以组合一个") } }</legend>
                { select("lab-first", l.t("On the first barrier", "第一个屏障到达时"),
                    vec![("wait", l.t("wait", "等待")), ("now", l.t("snapshot now", "立即快照"))],
                    if base.first == OnFirstBarrier::Wait { "wait" } else { "now" },
                    |h, v| Handler { first: if v == "now" { OnFirstBarrier::SnapshotNow } else { OnFirstBarrier::Wait }, ..h }) }
                { select("lab-after", l.t("Records on an input after its barrier", "某输入的屏障之后到达的记录"),
                    vec![("block", l.t("block and buffer", "阻塞并缓存")), ("process", l.t("process", "照常处理")), ("drop", l.t("drop", "丢弃"))],
                    match base.after { AfterBarrier::Block => "block", AfterBarrier::Process => "process", AfterBarrier::Drop => "drop" },
                    |h, v| Handler { after: match v { "process" => AfterBarrier::Process, "drop" => AfterBarrier::Drop, _ => AfterBarrier::Block }, ..h }) }
                { select("lab-last", l.t("On the last barrier", "最后一个屏障到达时"),
                    vec![("snapshot", l.t("snapshot", "快照")), ("forward", l.t("forward only", "只转发"))],
                    if base.last == OnLastBarrier::Snapshot { "snapshot" } else { "forward" },
                    |h, v| Handler { last: if v == "forward" { OnLastBarrier::ForwardOnly } else { OnLastBarrier::Snapshot }, ..h }) }
                { select("lab-in-flight", l.t("In-flight records in the snapshot", "快照中包含在途记录"),
                    vec![("0", l.t("no", "否")), ("1", l.t("yes", "是"))],
                    if base.in_flight { "1" } else { "0" },
                    |h, v| Handler { in_flight: v == "1", ..h }) }
            </fieldset>
            if let Some(why) = refused { <p class="bad" id="lab-refused" role="alert">{ why }</p> }
            <div class="xp-setup">
                <button id="lab-classify" class="tool primary" onclick={classify} disabled={running || refused.is_some()}>
                    { l.t("⋔ Classify: try every schedule", "⋔ 分类：尝试所有调度") }</button>
                if running { <button id="lab-cancel" class="tool danger" onclick={cancel}>{ l.t("■ Cancel", "■ 取消") }</button> }
                if let Some(t) = theory { <span class="lab-theory" id="lab-theory">{ format!("{} {}", l.t("Theory says:", "理论结论："), guarantee_name(t.4, l)) }</span> }
            </div>
            { match &*run {
                Run::Idle => html! {},
                Run::Running(probe, states, c) => html! {
                    <p class="xp-progress" id="lab-progress" role="status" aria-live="polite" data-busy-ms={fixed(c.busy_ms, 2)}>{ match l {
                        Lang::En => format!("Probe {} of {} ({}): {} states so far…", probe + 1, probes().len(), probes()[(*probe).min(2)].0, grouped(*states as u128)),
                        Lang::Zh => format!("探测作业 {} / {}（{}）：目前 {} 个状态…", probe + 1, probes().len(), probes()[(*probe).min(2)].0, grouped(*states as u128)),
                    } }</p>
                },
                Run::Cancelled => html! { <p class="xp-progress" role="status">{ l.t("Cancelled.", "已取消。") }</p> },
                Run::Failed(why) => html! { <p class="bad" role="alert">{ format!("{} {why}", l.t("The classification stopped:", "分类中止：")) }</p> },
                Run::Done(done) => verdict(&done.0, &done.1, theory.map(|t| t.4), handler, &props.room, l),
            } }
        </div>
    }
}

/// The main run with `h` in place: its job, input and seed, strategy aligned's coordinator (one
/// checkpoint at a time, no alignment timeout) with the lab handler, at its first step.
fn with_handler_on_canvas(room: &RoomProps, h: Handler) -> String {
    let config = room.run.session().config.clone();
    let mut settings = Settings::new(Strategy::Aligned);
    if matches!(config.settings.sink, SinkMode::Upsert | SinkMode::TwoPhaseCommit) {
        settings.sink = config.settings.sink;
    }
    settings.handler = Some(h);
    let saved = SavedRun {
        barrierscope: SAVED_VERSION,
        job: config.job,
        settings,
        seed: config.seed,
        records: config.records,
        actions: String::new(),
        at: 0,
        lesson: None,
        restore: None,
        lesson_file: None,
        lang: room.lang,
    };
    serde_json::to_string(&saved).expect("a saved run serializes")
}

fn verdict(
    c: &Classification,
    cost: &Cost,
    theory: Option<Guarantee>,
    handler: Option<Handler>,
    room: &RoomProps,
    l: Lang,
) -> Html {
    let use_it = handler.map(|h| {
        let text = with_handler_on_canvas(room, h);
        let (d, close) = (room.dispatch.clone(), room.close.clone());
        html! {
            <p class="lab-use">
                <button class="tool primary" id="lab-use" onclick={Callback::from(move |_| {
                    let (d2, text, close) = (d.clone(), text.clone(), close.clone());
                    sharing_part::with_sharing(d.clone(), move |_| {
                        d2.dispatch(Msg::Load(Origin::Link, Ok(text)));
                        close.emit(());
                    });
                })}>{ l.t("▶ Use on the canvas", "▶ 在画布上使用") }</button>
                <span class="xp-note">{ l.t(
                    " The main run's job and input, with this handler at every task in place of aligned barriers; the strategy menu and the narration name it.",
                    " 使用主界面运行的作业和输入，每个任务上用这种处理方式代替对齐屏障；策略菜单和旁白会写明它。") }</span>
            </p>
        }
    });
    html! { <div class="lab-verdict" id="lab-verdict" data-guarantee={c.guarantee.id()} data-busy-ms={fixed(cost.busy_ms, 2)} data-frames={cost.frames.to_string()}>
        <p class={classes!("lab-guarantee", if c.guarantee == Guarantee::ExactlyOnce { "good" } else { "bad" })}>
            { format!("{} {}", l.t("The handler keeps:", "这种处理方式的保证："), guarantee_name(c.guarantee, l)) }
            if let Some(t) = theory {
                <span class="lab-agrees" id="lab-agrees">{ if t == c.guarantee { l.t(" — as theory says.", " —— 与理论一致。") } else { l.t(" — not what theory says.", " —— 与理论不符。") } }</span>
            }
        </p>
        <table class="xp-table" id="lab-probes">
            <thead><tr><th scope="col">{ l.t("probe job", "探测作业") }</th><th scope="col">{ l.t("states", "状态") }</th>
                <th scope="col">{ l.t("schedules", "调度") }</th><th scope="col">{ l.t("every schedule", "所有调度") }</th></tr></thead>
            <tbody>{ for c.probes.iter().map(|p| html! {
                <tr><th scope="row">{ p.name }</th><td>{ grouped(p.report.states as u128) }</td><td>{ grouped(p.report.schedules) }</td>
                    <td class={if p.holds() { "good" } else { "bad" }}>{ match (p.loss.is_some(), p.duplicate.is_some()) {
                        (false, false) => l.t("exactly once", "精确一次"),
                        (true, false) => l.t("some lose a record", "有的丢失记录"),
                        (false, true) => l.t("some duplicate a record", "有的重复记录"),
                        (true, true) => l.t("some lose, some duplicate", "有的丢失，有的重复"),
                    } }</td></tr>
            }) }</tbody>
        </table>
        { for [(c.loss.as_ref(), l.t("A schedule that loses a record rules out exactly once and at least once:", "丢失记录的调度排除了精确一次和至少一次：")),
               (c.duplicate.as_ref(), l.t("A schedule that duplicates a record rules out exactly once and at most once:", "重复记录的调度排除了精确一次和最多一次："))]
            .into_iter().filter_map(|(x, why)| x.map(|x| (x, why))).map(|((i, cx), why)| {
                let probe = &c.probes[*i];
                let g = probe.initial.as_ref().map(|s| s.graph.clone()).expect("a probe keeps its run");
                html! { <div class="lab-cx">
                    <p>{ why }{ format!(" {} {}.", l.t("on", "探测作业"), probe.name) }</p>
                    { cards(std::slice::from_ref(cx), &g, None, probe.report.schedules, l, &room.dispatch, &format!("lab-{i}")) }
                </div> }
            }) }
        { use_it.unwrap_or_default() }
        if c.loss.is_some() || c.duplicate.is_some() {
            <p class="xp-note">{ l.t(
                "The lab's handlers run on probe jobs the main screen does not offer, so these counterexamples are told here rather than opened on the canvas.",
                "实验室的处理方式运行在主界面不提供的探测作业上，所以这些反例在这里讲述，而不在画布上打开。") }</p>
        }
    </div> }
}

/// Classifying a candidate: the classifier run a chunk per frame (a new start or a cancel, which
/// bump `generation`, stops the one before), its progress and its end shown in `run`.
fn classify_run(run: &UseStateHandle<Run>, generation: Rc<Cell<u32>>) -> Callback<Candidate> {
    let run = run.clone();
    Callback::from(move |c: Candidate| {
        generation.set(generation.get() + 1);
        if matches!(c, Candidate::Handler(h) if h.check().is_err()) {
            return;
        }
        let classifier = Rc::new(RefCell::new(Classifier::new(c)));
        let result: Rc<RefCell<Option<Result<Classification, String>>>> = Rc::new(RefCell::new(None));
        run.set(Run::Running(0, 0, Cost::default()));
        let step = {
            let (classifier, result) = (classifier.clone(), result.clone());
            move || {
                let mut c = classifier.borrow_mut();
                match c.run(CHUNK) {
                    Ok(None) if c.next_is_long() => Left::LongNext,
                    Ok(None) => Left::More,
                    Ok(Some(done)) => {
                        *result.borrow_mut() = Some(Ok(done));
                        Left::Done
                    }
                    Err(e) => {
                        *result.borrow_mut() = Some(Err(format!("{e:?}")));
                        Left::Done
                    }
                }
            }
        };
        let r = run.clone();
        in_frames(generation.clone(), step, move |cost, done| {
            if done {
                r.set(match result.borrow_mut().take() {
                    Some(Ok(c)) => Run::Done(Rc::new((c, cost))),
                    Some(Err(e)) => Run::Failed(e),
                    None => Run::Failed("no result".into()),
                });
            } else {
                let (probe, p) = classifier.borrow().progress();
                r.set(Run::Running(probe, p.map_or(0, |p| p.states), cost));
            }
        });
    })
}
