//! The controls: the top bar with the run's configuration (job, strategy, sink, settings,
//! language) and the toolbar (step, play, checkpoint, crash, restore, the timeline). Edits go through
//! [`Settings::edited`], which holds the rules for what fits together.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::text::{job_name, sink_name, strategy_name, Lang};
use super::{Dispatch, Msg, Run, SPEEDS};
use crate::classroom::{Command, RunConfig, MAX_GENERATED};
use crate::engine::settings::Edit;
use crate::engine::{Action, FailoverStrategy, JobGraph, OperatorKind, RestartPolicy, SinkMode, Strategy, BUILTIN_NAMES};

/// How a select's or a field's value changes the run configuration.
type Change = fn(&mut RunConfig, &str);

fn edit(c: &mut RunConfig, edit: Edit) {
    c.settings = c.settings.edited(edit);
}

/// A number field's value: a positive whole number, or none when empty (or not one).
fn positive(v: &str) -> Option<u64> {
    v.trim().parse::<u64>().ok().filter(|n| *n > 0)
}

/// Storm's acker settings: the message timeout, the acker count, and which bolt edges emit
/// anchored. Only with the storm-acker strategy; each disabled field says why.
fn acker_settings(config: &RunConfig, graph: &JobGraph, l: Lang, dispatch: &Dispatch) -> Html {
    let storm = config.settings.strategy.takes_acker_settings();
    let why = if storm { "" } else { l.t("Only with Storm's acker (choose it under Snapshots)", "只用于 Storm 的 acker（在“快照策略”中选择）") };
    let reconfigure = |f: Box<dyn Fn(&mut RunConfig, &str)>| {
        let d = dispatch.clone();
        let config = config.clone();
        Callback::from(move |e: Event| {
            let mut c = config.clone();
            f(&mut c, &e.target_unchecked_into::<HtmlInputElement>().value());
            d.dispatch(Msg::Cmd(Command::Configure(c)));
        })
    };
    let on_timeout = reconfigure(Box::new(|c, v| edit(c, Edit::MessageTimeout(positive(v).unwrap_or(1)))));
    let on_ackers = reconfigure(Box::new(|c, v| edit(c, Edit::Ackers(if v == "0" { 0 } else { 1 }))));
    let settings = &config.settings;
    let edges = graph.spec.edges.iter().enumerate().filter(|(_, e)| {
        !graph.spec.operators.iter().any(|o| o.name == e.from && o.kind == OperatorKind::Source)
    });
    html! { <>
        <label title={why}>{ l.t("Storm message timeout (steps)", "Storm 消息超时（步）") }
            <input id="inp-message-timeout" type="number" min="1" disabled={!storm}
                value={settings.message_timeout.to_string()} onchange={on_timeout} /></label>
        <label title={why}>{ l.t("Storm ackers", "Storm acker 数") }
            <select id="sel-ackers" disabled={!storm} onchange={on_ackers}>
                <option value="1" selected={settings.ackers == 1}>{ l.t("1: track every tuple (at least once)", "1：跟踪每个元组（至少一次）") }</option>
                <option value="0" selected={settings.ackers == 0}>{ l.t("0: tracking off (at most once)", "0：不跟踪（最多一次）") }</option>
            </select></label>
        { for edges.map(|(i, e)| {
            let name = format!("{}->{}", e.from, e.to);
            let anchored = !settings.unanchored.contains(&name);
            let d = dispatch.clone();
            let c = config.clone();
            let g = graph.clone();
            let toggle = Callback::from(move |_: Event| {
                let mut next = c.clone();
                next.settings = next.settings.edited_for(Edit::Anchoring { edge: i as u16, anchored: !anchored }, &g);
                d.dispatch(Msg::Cmd(Command::Configure(next)));
            });
            html! {
                <label title={if storm { l.t("Unanchored tuples are not tracked: never replayed", "未锚定的元组不被跟踪：永不重放") } else { why }}>
                    { format!("{} {name}", l.t("Anchor tuples on", "锚定元组：")) }
                    <input id={format!("chk-anchor-{i}")} type="checkbox" checked={anchored} disabled={!storm} onchange={toggle} /></label>
            }
        }) }
    </> }
}

/// The run's configuration: every change starts a new run with it.
fn run_settings(config: &RunConfig, graph: &JobGraph, l: Lang, dispatch: &Dispatch) -> Html {
    // Each select and field turns its value into a new run configuration.
    let configure = |change: Change| {
        let d = dispatch.clone();
        let config = config.clone();
        move |v: String| {
            let mut c = config.clone();
            change(&mut c, &v);
            d.dispatch(Msg::Cmd(Command::Configure(c)));
        }
    };
    let on_select = |change: Change| {
        let apply = configure(change);
        Callback::from(move |e: Event| apply(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let on_number = |change: Change| {
        let apply = configure(change);
        Callback::from(move |e: Event| apply(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let on_job = on_select(|c, v| {
        c.job = v.to_string();
        c.settings = c.settings.for_job(c.has_sink());
    });
    let on_strategy = on_select(|c, v| edit(c, Edit::Strategy(Strategy::from_id(v).unwrap_or_default())));
    let on_sink = on_select(|c, v| edit(c, Edit::Sink(SinkMode::from_id(v).unwrap_or_default())));
    let on_restart = on_select(|c, v| {
        edit(
            c,
            Edit::Restart(if v == "from-latest" { RestartPolicy::FromLatest } else { RestartPolicy::FromBeginning }),
        )
    });
    let on_interval = on_number(|c, v| edit(c, Edit::CheckpointInterval(positive(v))));
    let on_align_timeout = on_number(|c, v| edit(c, Edit::AlignmentTimeout(positive(v))));
    let on_capacity = on_number(|c, v| edit(c, Edit::ChannelCapacity(positive(v))));
    let on_tolerable = on_number(|c, v| edit(c, Edit::TolerableFailedCheckpoints(v.trim().parse().unwrap_or(0))));
    let on_failover = on_select(|c, v| edit(c, Edit::Failover(FailoverStrategy::from_id(v).unwrap_or_default())));
    let on_seed = on_number(|c, v| c.seed = positive(v).unwrap_or(0));
    let on_records = on_number(|c, v| c.records = positive(v).map(|n| n.min(MAX_GENERATED as u64) as u32));
    let lang_toggle = {
        let d = dispatch.clone();
        let next = if l == Lang::En { Lang::Zh } else { Lang::En };
        Callback::from(move |_| d.dispatch(Msg::Lang(next)))
    };
    let settings = &config.settings;
    let strategy = settings.strategy;
    let has_sink = config.has_sink();
    let checkpoints = strategy.uses_coordinator();
    let shown = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
    html! {
        <div class="config" role="group" aria-label={l.t("Run configuration", "运行配置")}>
            <label>{ l.t("Job", "作业") }
                <select id="sel-job" ~value={config.job.clone()} onchange={on_job} aria-label={l.t("Job", "作业")}>
                    { for BUILTIN_NAMES.iter().map(|j| html!{ <option value={*j} selected={config.job == *j}>{ job_name(l, j) }</option> }) }
                </select></label>
            <label>{ l.t("Snapshots", "快照策略") }
                <select id="sel-strategy" ~value={strategy.id()} onchange={on_strategy} aria-label={l.t("Snapshot strategy", "快照策略")}>
                    { for Strategy::ALL.iter().map(|s| html!{ <option value={s.id()} selected={strategy == *s}>{ strategy_name(l, *s) }</option> }) }
                </select></label>
            <label title={if has_sink { "" } else { l.t("This job has no sink", "此作业没有输出端") }}>{ l.t("Sink", "输出端") }
                <select id="sel-sink" ~value={settings.sink.id()} onchange={on_sink} disabled={!has_sink} aria-label={l.t("Sink mode", "输出模式")}>
                    { for SinkMode::ALL.iter().map(|s| html!{
                        <option value={s.id()} selected={settings.sink == *s} disabled={!strategy.allows_sink(*s)}>{ sink_name(l, *s) }</option>
                    }) }
                </select></label>
            <details class="more-settings">
                <summary>{ l.t("Settings", "设置") }</summary>
                <div class="settings-grid">
                    <label>{ l.t("Records per source partition (empty = the story's)", "每个源分区的记录数（留空=故事默认）") }
                        <input id="inp-records" type="number" min="1" max={MAX_GENERATED.to_string()}
                            value={shown(config.records.map(u64::from))} onchange={on_records} /></label>
                    <label>{ l.t("Seed", "随机种子") }<input id="inp-seed" type="number" min="0" value={config.seed.to_string()} onchange={on_seed} /></label>
                    <label>{ l.t("Checkpoint every (steps, empty = by hand)", "检查点间隔（步，留空=手动）") }
                        <input id="inp-interval" type="number" min="1" disabled={!strategy.takes_checkpoint_interval()}
                            value={shown(settings.checkpoint_interval)} onchange={on_interval} /></label>
                    <label>{ l.t("Alignment timeout (steps, empty = off)", "对齐超时（步，留空=关闭）") }
                        <input id="inp-align-timeout" type="number" min="1" disabled={!strategy.takes_alignment_timeout()}
                            value={shown(settings.alignment_timeout_steps())} onchange={on_align_timeout} /></label>
                    <label>{ l.t("Channel capacity (empty = unbounded)", "通道容量（留空=无界）") }
                        <input id="inp-capacity" type="number" min="1" value={shown(settings.channel_capacity.map(u64::from))} onchange={on_capacity} /></label>
                    <label title={if checkpoints { "" } else { l.t("Only a checkpointing strategy counts failed checkpoints", "只有做检查点的策略才计算失败的检查点") }}>
                        { l.t("Tolerable failed checkpoints (in a row)", "可容忍的连续失败检查点数") }
                        <input id="inp-tolerable" type="number" min="0" disabled={!checkpoints}
                            value={settings.tolerable_failed_checkpoints.to_string()} onchange={on_tolerable} /></label>
                    <label>{ l.t("Failover: when a task crashes, restart", "故障转移：任务崩溃时重启") }
                        <select id="sel-failover" onchange={on_failover}>
                            <option value="region" selected={settings.failover_strategy == FailoverStrategy::Region}>{ l.t("its pipelined region (Flink's default)", "其流水线区域（Flink 默认）") }</option>
                            <option value="full" selected={settings.failover_strategy == FailoverStrategy::Full}>{ l.t("every task", "所有任务") }</option>
                        </select></label>
                    <label>{ l.t("Without snapshots, sources restart", "不做快照时，源从何处重启") }
                        <select id="sel-restart" ~value={if settings.restart == RestartPolicy::FromLatest { "from-latest" } else { "from-beginning" }}
                            disabled={!strategy.takes_restart_policy()} onchange={on_restart}>
                            <option value="from-beginning" selected={settings.restart == RestartPolicy::FromBeginning}>{ l.t("from the beginning (at least once)", "从头开始（至少一次）") }</option>
                            <option value="from-latest" selected={settings.restart == RestartPolicy::FromLatest}>{ l.t("after the newest read (at most once)", "从最新读取处（最多一次）") }</option>
                        </select></label>
                    { acker_settings(config, graph, l, dispatch) }
                </div>
            </details>
            <button id="btn-lang" class="tool lang" onclick={lang_toggle} aria-label={l.t("切换到中文", "Switch to English")}>{ l.t("中文", "English") }</button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub run: Run,
    pub lang: Lang,
    pub playing: bool,
    pub speed: usize,
    pub dispatch: Dispatch,
}

/// The top bar with the run's configuration, and the toolbar: what happens next. Each button says
/// why when it is disabled.
#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let l = props.lang;
    let session = props.run.session();
    let sim = session.sim();
    let button = |id: &'static str,
                  label: &str,
                  key: &'static str,
                  msg: fn() -> Msg,
                  enabled: Result<(), String>,
                  extra: Option<&'static str>| {
        let disabled = enabled.is_err();
        let title = match &enabled {
            Ok(()) if key.is_empty() => label.to_string(),
            Ok(()) => format!("{label} ({key})"),
            Err(why) => format!("{label}: {why}"),
        };
        let d = props.dispatch.clone();
        html! {
            <button id={id} class={classes!("tool", extra)} onclick={Callback::from(move |_: MouseEvent| d.dispatch(msg()))}
                disabled={disabled} title={title} aria-keyshortcuts={(!key.is_empty()).then_some(key)}>
                { label }{ if key.is_empty() { html!{} } else { html!{ <kbd>{ key }</kbd> } } }
            </button>
        }
    };
    let check = |a: Action| sim.check(a).map_err(|e| e.message(l));
    let pos = session.timeline.position();
    let len = session.timeline.len();
    let can_step = if !session.at_end() { Ok(()) } else { check(Action::Auto) };
    let can_end = if session.can_run_to_end() {
        Ok(())
    } else {
        Err(l
            .t(
                "nothing left to do: every record is through and the verdict is final",
                "没有剩下要做的：所有记录都已处理完，结论已确定",
            )
            .to_string())
    };
    let can_back = if pos > 0 { Ok(()) } else { Err(l.t("already at the first step", "已在第一步").to_string()) };
    let on_timeline = {
        let d = props.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            if let Ok(step) = e.target_unchecked_into::<HtmlInputElement>().value().parse::<usize>() {
                d.dispatch(Msg::Cmd(Command::Seek(step)));
            }
        })
    };
    let on_speed = {
        let d = props.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            if let Ok(s) = e.target_unchecked_into::<HtmlInputElement>().value().parse::<usize>() {
                d.dispatch(Msg::Speed(s));
            }
        })
    };
    let (playing, speed) = (props.playing, props.speed);
    html! { <>
        <header class="topbar">
            <h1><span class="logo" aria-hidden="true">{"▍"}</span>{ "Barrierscope" }</h1>
            <p class="tagline">{ l.t("How stream processors survive failure", "流处理系统如何在故障中幸存") }</p>
            { run_settings(&session.config, &sim.graph, l, &props.dispatch) }
        </header>
        <nav class="toolbar" aria-label={l.t("Simulation controls", "模拟控制")}>
            <div class="group">
                { button("btn-reset", l.t("⟲ Reset", "⟲ 重置"), "", || Msg::Cmd(Command::Reset), Ok(()), None) }
                { button("btn-back", l.t("◀ Back", "◀ 后退"), "←", || Msg::Cmd(Command::Back), can_back, None) }
                { button("btn-step", l.t("Step ▶", "单步 ▶"), "→", || Msg::Cmd(Command::Forward), can_step.clone(), Some("primary")) }
                { button("btn-play", if playing { l.t("❚❚ Pause", "❚❚ 暂停") } else { l.t("▶▶ Play", "▶▶ 播放") }, "Space",
                    || Msg::TogglePlay, if playing { Ok(()) } else { can_step }, None) }
                { button("btn-end", l.t("⇥ End", "⇥ 到结尾"), "E", || Msg::Cmd(Command::ToEnd), can_end, None) }
                <label class="speed">{ l.t("Speed", "速度") }
                    <input id="inp-speed" type="range" min="0" max={(SPEEDS.len() - 1).to_string()} value={speed.to_string()} oninput={on_speed}
                        aria-valuetext={format!("{} ms", SPEEDS[speed])} /></label>
            </div>
            <div class="group">
                { button("btn-checkpoint", l.t("⚑ Checkpoint", "⚑ 检查点"), "C", || Msg::Cmd(Command::Act(Action::Checkpoint)), check(Action::Checkpoint), None) }
                { button("btn-timers", l.t("◷ All timers", "◷ 全部定时器"), "T", || Msg::Cmd(Command::Act(Action::AllTimers)), check(Action::AllTimers), None) }
            </div>
            <div class="group">
                { button("btn-crash", l.t("✖ Crash cluster", "✖ 集群崩溃"), "X", || Msg::Cmd(Command::Act(Action::Crash)), check(Action::Crash), Some("danger")) }
                { button("btn-crash-jm", if sim.strategy() == Strategy::StormAcker { l.t("✖ Crash Nimbus", "✖ Nimbus 崩溃") } else { l.t("✖ Crash JobManager", "✖ JobManager 崩溃") }, "J", || Msg::Cmd(Command::Act(Action::CrashJobManager)), check(Action::CrashJobManager), Some("danger")) }
                { button("btn-restore", l.t("⟳ Restore", "⟳ 恢复"), "R", || Msg::Cmd(Command::Act(Action::Restore)), check(Action::Restore), Some("good")) }
            </div>
            <div class="group timeline">
                <label for="inp-timeline">{ format!("{} {} / {}", l.t("Step", "步"), pos, len) }</label>
                <input id="inp-timeline" type="range" min="0" max={len.to_string()} value={pos.to_string()} oninput={on_timeline}
                    aria-label={l.t("Timeline: drag to any earlier step", "时间线：拖到任意之前的步")}
                    aria-valuetext={format!("{} {} / {}", l.t("step", "步"), pos, len)} />
            </div>
        </nav>
    </> }
}
