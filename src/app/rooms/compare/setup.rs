//! The comparison as the learner sets it up: the job, the input, up to three runs (each a preset),
//! where the crash strikes and at which tick, when the restore comes, or run 1 from the main
//! screen. Every change is a command; one the session refuses shows the comparison's own values
//! again.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::app::rooms::held::Dispatcher;
use crate::app::rooms::RoomProps;
use crate::classroom::compare_room::{place_value, preset_index, CompareCommand, CompareSession};
use crate::classroom::saved_comparison::{
    input_choice, job_choice, JOBS, MAX_ROOM_TICKS, PRESETS, RECORD_COUNTS, SPACINGS,
};
use crate::engine::comparison::MAX_CONFIGURATIONS;
use crate::engine::Lang;

/// A menu: its id, label, options (value, words), the value chosen, and the command a value makes.
fn select(
    d: &Dispatcher<CompareSession>,
    id: &'static str,
    label: String,
    options: Vec<(String, String)>,
    value: String,
    msg: fn(String) -> Option<CompareCommand>,
) -> Html {
    let d = d.clone();
    let onchange = Callback::from(move |e: Event| {
        if let Some(m) = msg(e.target_unchecked_into::<HtmlSelectElement>().value()) {
            d.dispatch(m);
        }
    });
    html! {
        <label class="cmp-field" for={id}>
            <span>{ label }</span>
            <select id={id} {onchange}>
                { for options.into_iter().map(|(v, t)| html! { <option value={v.clone()} selected={v == value}>{ t }</option> }) }
            </select>
        </label>
    }
}

/// A tick field: a value out of range is refused by showing the comparison's value again (the
/// field is keyed by the session's command count).
fn tick_field(
    s: &CompareSession,
    d: &Dispatcher<CompareSession>,
    id: &'static str,
    label: &'static str,
    value: u64,
    min: u64,
    msg: fn(u64) -> CompareCommand,
) -> Html {
    let d = d.clone();
    let onchange = Callback::from(move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        match input.value().trim().parse::<u64>() {
            Ok(v) if v >= min && v < MAX_ROOM_TICKS => d.dispatch(msg(v)),
            _ => d.dispatch(CompareCommand::Dismiss),
        }
    });
    let version = s.version;
    html! {
        <label class="cmp-field" for={id}>
            <span>{ label }</span>
            <input type="number" id={id} key={format!("{id}-{value}-{version}")} min={min.to_string()} max={(MAX_ROOM_TICKS - 1).to_string()} value={value.to_string()} {onchange} />
        </label>
    }
}

/// Run `i`'s menu: a preset, the file's own configuration, or (after the first) no run.
fn run_select(s: &CompareSession, d: &Dispatcher<CompareSession>, l: Lang, i: usize) -> Html {
    let file = &s.file;
    let id = format!("cmp-run-{i}-preset");
    let current = file.configurations.get(i);
    let value = match current {
        None => "none".to_string(),
        Some(c) => preset_index(c).map_or("file".into(), |p| p.to_string()),
    };
    let mut options: Vec<(String, String)> = Vec::new();
    if i > 0 {
        options.push(("none".into(), l.t("— no run —", "— 无 —").into()));
    }
    if value == "file" {
        options.push((
            "file".into(),
            format!("{} {}", l.t("from the file:", "来自文件："), current.map(|c| c.label()).unwrap_or_default()),
        ));
    }
    options.extend(PRESETS.iter().enumerate().map(|(p, x)| (p.to_string(), x.title(l).to_string())));
    let d = d.clone();
    // A run after a missing one can't be added: the runs fill from the left.
    let unavailable = i > file.configurations.len();
    let onchange = Callback::from(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        match v.as_str() {
            "none" => d.dispatch(CompareCommand::Run(i, None)),
            "file" => {}
            p => {
                if let Ok(p) = p.parse() {
                    d.dispatch(CompareCommand::Run(i, Some(p)))
                }
            }
        }
    });
    html! {
        <label class="cmp-field" for={id.clone()}>
            <span>{ format!("{} {}", l.t("Run", "运行"), i + 1) }</span>
            <select id={id} {onchange} disabled={unavailable} title={unavailable.then(|| l.t("choose the run before it first", "请先选择前一个运行"))}>
                { for options.into_iter().map(|(v, t)| html! { <option value={v.clone()} selected={v == value}>{ t }</option> }) }
            </select>
        </label>
    }
}

/// The job's options (the file's own job first, if it runs another), and the input's.
fn job_and_input(s: &CompareSession, d: &Dispatcher<CompareSession>, l: Lang) -> Html {
    let job = job_choice(&s.file).map(str::to_string).unwrap_or_default();
    let mut job_options: Vec<(String, String)> =
        JOBS.iter().map(|j| (j.to_string(), crate::app::text::job_name(l, j).to_string())).collect();
    if job.is_empty() {
        job_options.insert(0, (String::new(), l.t("the file's own job", "文件中的作业").into()));
    }
    let input = input_choice(&s.file).map(|(n, e)| format!("{n}/{e}")).unwrap_or_default();
    let mut input_options: Vec<(String, String)> = RECORD_COUNTS
        .iter()
        .flat_map(|n| SPACINGS.iter().map(move |e| (*n, *e)))
        .map(|(n, e)| {
            (
                format!("{n}/{e}"),
                format!("{n} {} {e} {}", l.t("records, one every", "条记录，每"), l.t("ticks", "拍一条")),
            )
        })
        .collect();
    if input.is_empty() {
        input_options.insert(0, (String::new(), l.t("the file's own input", "文件中的输入").into()));
    }
    html! { <>
        { select(d, "cmp-job", l.t("Job", "作业").into(), job_options, job, |v| (!v.is_empty()).then_some(CompareCommand::Job(v))) }
        { select(d, "cmp-input", l.t("Input", "输入").into(), input_options, input, |v| {
            let (n, e) = v.split_once('/')?;
            Some(CompareCommand::Input(n.parse().ok()?, e.parse().ok()?))
        }) }
    </> }
}

/// Where the crash strikes: the cluster, the master, or the worker running one of the tasks.
fn place(s: &CompareSession, d: &Dispatcher<CompareSession>, l: Lang) -> Html {
    let mut options = vec![
        ("cluster".to_string(), l.t("the cluster", "整个集群").to_string()),
        (
            "master".to_string(),
            l.t("the master (JobManager, Nimbus, driver)", "主节点（JobManager、Nimbus、driver）").to_string(),
        ),
    ];
    for t in &s.lock.graph().tasks {
        options.push((t.name.clone(), format!("{} {}", l.t("the worker running", "运行以下任务的 worker："), t.name)));
    }
    select(
        d,
        "cmp-place",
        l.t("The crash strikes", "崩溃位置").into(),
        options,
        place_value(&s.file.crash.place),
        |v| Some(CompareCommand::Place(v)),
    )
}

pub fn setup(s: &CompareSession, props: &RoomProps, d: &Dispatcher<CompareSession>) -> Html {
    let l = props.lang;
    let on_from_main = {
        let d = d.clone();
        let run = props.run.clone();
        Callback::from(move |_| {
            let s = run.session();
            d.dispatch(CompareCommand::FromMain(s.config.job.clone(), Box::new(s.config.settings.clone())));
        })
    };
    html! {
        <details class="cmp-setup" open={!props.presenter}>
            <summary>{ l.t("The comparison: job, input, runs and crash", "比较设置：作业、输入、运行与崩溃") }</summary>
            <div class="cmp-fields">
                { job_and_input(s, d, l) }
                { for (0..MAX_CONFIGURATIONS).map(|i| run_select(s, d, l, i)) }
                { place(s, d, l) }
                { tick_field(s, d, "cmp-crash-at", l.t("at tick", "崩溃于（拍）"), s.file.crash.at, 0, CompareCommand::CrashAt) }
                { tick_field(s, d, "cmp-restore-at", l.t("restore at tick", "恢复于（拍）"), s.file.restore.at, 1, CompareCommand::RestoreAt) }
                <button class="tool" id="cmp-from-main" onclick={on_from_main}
                        title={l.t("Run 1 takes the main screen's job and settings", "运行 1 采用主界面的作业和设置")}>
                    { l.t("⇐ Run 1 from the main screen", "⇐ 运行 1 采用主界面的设置") }
                </button>
            </div>
        </details>
    }
}
