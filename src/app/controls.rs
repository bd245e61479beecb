//! The controls: the top bar with the run's configuration (job, strategy, sink, settings,
//! language) and the toolbar (step, play, checkpoint, crash, restore, the timeline). Edits go through
//! [`Settings::edited`], which holds the rules for what fits together; a number typed into a
//! Settings field goes through [`crate::classroom::edit_field`], which clamps or refuses it and
//! says so next to the field. A disabled field's tooltip says why it is disabled. Before the end
//! of the history, the timeline marks where acting would fork the run and says which steps would
//! go.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::settings_form::{disabled_why, edit, on_select, Change, Needs};
use super::text::{job_name, lab_handler_name, sink_name, strategy_name, Lang};
use super::ui_state::{Dispatch, Msg, Run, SPEEDS};
use crate::classroom::{Command, RunConfig};
use crate::engine::settings::{Edit, Setting};
use crate::engine::{Action, CrashScope, HighAvailability, Sim, SinkMode, Strategy, BUILTIN_NAMES};

/// What the Restore button does now: after a JobManager failure without HA it first starts a new
/// JobManager, then resubmits the job.
fn restore_label(sim: &Sim, l: Lang) -> &'static str {
    let without_ha = sim.down() == Some(CrashScope::JobManager)
        && sim.strategy().takes(Setting::HighAvailability)
        && sim.settings.high_availability == HighAvailability::None;
    match (without_ha, sim.masters().awaiting_resubmission) {
        (true, false) => l.t("⟳ Start a JobManager", "⟳ 启动 JobManager"),
        (true, true) => l.t("⟳ Resubmit the job", "⟳ 重新提交作业"),
        _ => l.t("⟳ Restore", "⟳ 恢复"),
    }
}

/// The run's configuration: every change starts a new run with it.
fn run_settings(config: &RunConfig, l: Lang, dispatch: &Dispatch) -> Html {
    let on_select = |change: Change| on_select(config, dispatch, change);
    let on_job = on_select(|c, v| {
        c.job = v.to_string();
        c.settings = c.settings.for_job(c.has_sink());
    });
    let on_strategy = on_select(|c, v| edit(c, Edit::Strategy(Strategy::from_id(v).unwrap_or_default())));
    let on_sink = on_select(|c, v| edit(c, Edit::Sink(SinkMode::from_id(v).unwrap_or_default())));
    let lang_toggle = {
        let d = dispatch.clone();
        let next = if l == Lang::En { Lang::Zh } else { Lang::En };
        Callback::from(move |_| d.dispatch(Msg::Lang(next)))
    };
    let settings = &config.settings;
    let strategy = settings.strategy;
    let has_sink = config.has_sink();
    let no_sink = (!has_sink).then(|| {
        l.t(
            "This job has no sink: choose line-sink or keyed-shuffle in Job to watch an external system.",
            "此作业没有输出端：在“作业”中选择 line-sink 或 keyed-shuffle 来观察外部系统。",
        )
    });
    html! {
        <div class="config" role="group" aria-label={l.t("Run configuration", "运行配置")}>
            <label>{ l.t("Job", "作业") }
                <select id="sel-job" ~value={config.job.clone()} onchange={on_job} aria-label={l.t("Job", "作业")}>
                    { for BUILTIN_NAMES.iter().map(|j| html!{ <option value={*j} selected={config.job == *j}>{ job_name(l, j) }</option> }) }
                    // A job picked in the Program & savepoints room or a lesson (line-uids,
                    // keyed-count): a new option for each, so the menu never shows the old one's
                    // value while it changes to the next.
                    if !BUILTIN_NAMES.contains(&config.job.as_str()) {
                        <option key={config.job.clone()} value={config.job.clone()} selected=true>{ job_name(l, &config.job) }</option>
                    }
                </select></label>
            <label>{ l.t("Snapshots", "快照策略") }
                <select id="sel-strategy" ~value={if settings.handler.is_some() { "lab" } else { strategy.id() }} onchange={on_strategy}
                    aria-label={l.t("Snapshot strategy", "快照策略")} data-lab={settings.handler.map(|h| h.classified().id())}>
                    { for Strategy::ALL.iter().map(|s| html!{ <option value={s.id()} selected={settings.handler.is_none() && strategy == *s}>{ strategy_name(l, *s) }</option> }) }
                    // A handler of the barrier-handler lab in place of the strategy's: named, with
                    // the guarantee the explorer classified it as.
                    if let Some(h) = settings.handler { <option value="lab" selected=true title={h.words(l)}>{ lab_handler_name(l, &h) }</option> }
                </select></label>
            <label title={no_sink.unwrap_or_default()}>{ l.t("Sink", "输出端") }
                <select id="sel-sink" ~value={settings.sink.id()} onchange={on_sink} disabled={!has_sink} title={no_sink} aria-label={l.t("Sink mode", "输出模式")}>
                    { for SinkMode::ON_THE_PAGE.iter().map(|s| html!{
                        <option value={s.id()} selected={settings.sink == *s} disabled={!strategy.allows_sink(*s)}
                            title={match s {
                                SinkMode::TwoPhaseCommit => disabled_why(l, strategy, Needs::TwoPhaseCommit),
                                SinkMode::Transactional => disabled_why(l, strategy, Needs::MicroBatches),
                                _ => None,
                            }}>{ sink_name(l, *s) }</option>
                    }) }
                </select></label>
            <MoreSettings lang={l} />
            <button id="btn-lang" class="tool lang" onclick={lang_toggle} aria-label={l.t("切换到中文", "Switch to English")}>{ l.t("中文", "English") }</button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct MoreProps {
    lang: Lang,
}

/// The Settings button: the form loads the first time it opens (`pieces::settings`).
#[component]
fn MoreSettings(props: &MoreProps) -> Html {
    let open = use_state(|| false);
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| open.set(e.target_unchecked_into::<web_sys::HtmlDetailsElement>().open()))
    };
    let l = props.lang;
    html! {
        <details class="more-settings" {ontoggle}>
            <summary>{ l.t("Settings", "设置") }</summary>
            <div class="settings-grid">
                if *open { <SettingsSlot /> }
            </div>
        </details>
    }
}

/// The form, from the run: what a piece is handed comes from the page's context.
#[component]
fn SettingsSlot() -> Html {
    let inner = use_context::<super::rooms::RoomProps>().expect("the page provides the run to its pieces");
    html! { <super::room_loader::PieceSlot piece={super::room_loader::Piece::Settings} {inner} /> }
}

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub run: Run,
    pub lang: Lang,
    pub playing: bool,
    pub speed: usize,
    pub dispatch: Dispatch,
    /// A counterexample's decisive steps, marked ◆ on the timeline.
    pub marks: Option<std::rc::Rc<super::decisive::Marks>>,
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
    let fork = session.fork_preview().map(|steps| (steps, steps.fork_warning(l)));
    html! { <>
        <header class="topbar">
            <h1><span class="logo" aria-hidden="true">{"▍"}</span>{ "Barrierscope" }</h1>
            <p class="tagline">{ l.t("How stream processors survive failure", "流处理系统如何在故障中幸存") }</p>
            { run_settings(&session.config, l, &props.dispatch) }
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
                { button("btn-wait", l.t("◔ Wait a step", "◔ 等待一步"), "W", || Msg::Cmd(Command::Act(Action::Wait)), check(Action::Wait), None) }
            </div>
            <div class="group">
                { button("btn-crash", l.t("✖ Crash cluster", "✖ 集群崩溃"), "X", || Msg::Cmd(Command::Act(Action::Crash)), check(Action::Crash), Some("danger")) }
                { button("btn-crash-jm", match sim.strategy() {
                    Strategy::StormAcker => l.t("✖ Crash Nimbus", "✖ Nimbus 崩溃"),
                    Strategy::SparkStreaming | Strategy::StructuredStreaming => l.t("✖ Crash driver", "✖ 驱动器崩溃"),
                    _ => l.t("✖ Crash JobManager", "✖ JobManager 崩溃"),
                }, "J", || Msg::Cmd(Command::Act(Action::CrashJobManager)), check(Action::CrashJobManager), Some("danger")) }
                { button("btn-restore", restore_label(sim, l), "R", || Msg::Cmd(Command::Act(Action::Restore)), check(Action::Restore), Some("good")) }
            </div>
            <div class="group timeline">
                <label for="inp-timeline">{ format!("{} {} / {}", l.t("Step", "步"), pos, len) }</label>
                <span class="timeline-track">
                    <input id="inp-timeline" type="range" min="0" max={len.to_string()} value={pos.to_string()} oninput={on_timeline}
                        aria-label={l.t("Timeline: drag to any earlier step", "时间线：拖到任意之前的步")}
                        aria-valuetext={format!("{} {} / {}", l.t("step", "步"), pos, len)}
                        aria-describedby={fork.is_some().then_some("fork-note")} />
                    // Where acting would fork the run: from the playhead to the end, the steps that would go.
                    { fork.as_ref().map(|_| html! {
                        <span id="fork-marker" class="fork-marker" aria-hidden="true" data-step={pos.to_string()}
                            style={fork_at(pos, len)}></span>
                    }).unwrap_or_default() }
                    { props.marks.as_ref().map(|m| super::decisive_view::track_marks(m, len, l, &props.dispatch)).unwrap_or_default() }
                </span>
            </div>
            { fork.map(|(steps, warning)| html! {
                <p id="fork-note" class="fork-note" data-from={steps.first().to_string()} data-to={steps.last().to_string()}>
                    <span aria-hidden="true">{ "⚠ " }</span>{ warning }</p>
            }).unwrap_or_default() }
            { props.marks.as_ref().map(|m| super::decisive_view::note(m, pos, l, &props.dispatch)).unwrap_or_default() }
        </nav>
    </> }
}

/// The fork marker's place along the timeline, `pos / len` to four decimals, as a CSS custom
/// property (integer arithmetic: no float printing in the module).
fn fork_at(pos: usize, len: usize) -> String {
    let f = pos.min(len) * 10_000 / len.max(1);
    format!("--fork-at: {}.{:04}", f / 10_000, f % 10_000)
}
