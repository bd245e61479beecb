//! The browser app: a thin Yew layer over [`crate::session::Session`]. One reducer owns the
//! session and does nothing else: every click and key becomes a [`Msg`], and what reaches outside
//! the page state (storage, the address bar, the clipboard, a download) happens in effects and
//! callbacks. The canvas and panels are drawn from the current simulation state on every change.

pub mod canvas;
pub mod classroom;
pub mod panels;
pub mod text;

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Interval;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

use crate::engine::settings::Edit;
use crate::engine::{Action, CheckpointId, RestartPolicy, SinkMode, Strategy, BUILTIN_NAMES};
use crate::lessons::LESSONS;
use crate::session::{Command, LoadError, Notice, Origin, RunConfig, Session};
use text::{job_name, sink_name, strategy_name, Lang};

/// Play speeds: milliseconds between steps.
pub const SPEEDS: [u32; 8] = [1200, 800, 500, 320, 200, 120, 70, 35];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Narration,
    Checkpoints,
    External,
}

#[derive(Clone)]
pub struct UiState {
    pub session: Rc<RefCell<Session>>,
    pub version: u64,
    pub playing: bool,
    pub speed: usize,
    pub tab: Tab,
    pub lang: Lang,
    pub presenter: bool,
    /// The link made by the Share button, shown for copying.
    pub link: Option<String>,
}

impl PartialEq for UiState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.session, &other.session)
            && self.version == other.version
            && self.playing == other.playing
            && self.speed == other.speed
            && self.tab == other.tab
            && self.lang == other.lang
            && self.presenter == other.presenter
            && self.link == other.link
    }
}

pub enum Msg {
    Cmd(Command),
    TogglePlay,
    Tick,
    Speed(usize),
    Tab(Tab),
    Lang(Lang),
    Presenter(bool),
    /// Open a saved run (from a link, a file or storage); the current run stays if it is bad.
    Load(Origin, Result<String, LoadError>),
    /// The Share button put the run in this link (and the link in the address bar).
    Shared(String),
    /// The Export button offered the run as a file.
    Exported,
}

impl UiState {
    pub fn new(config: RunConfig) -> UiState {
        let session =
            Session::new(config).unwrap_or_else(|_| Session::new(RunConfig::default()).expect("default runs"));
        UiState {
            session: Rc::new(RefCell::new(session)),
            version: 0,
            playing: false,
            speed: 3,
            tab: Tab::Narration,
            lang: Lang::En,
            presenter: false,
            link: None,
        }
    }

    /// The first state of the page: the run in the link, else the last run kept in this browser,
    /// else the a, b, c story. A bad link or stored entry says why and leaves the story.
    pub fn initial() -> UiState {
        let mut state = UiState::new(RunConfig::default());
        if let Some(text) = classroom::link_text() {
            state.open(Origin::Link, text);
        } else if let Some(text) = classroom::stored_text() {
            state.open(Origin::Storage, Ok(text));
            if matches!(state.session.borrow().notice, Some(Notice::Opened(_))) {
                state.session.borrow_mut().notice = None;
            }
        }
        state
    }

    fn open(&mut self, origin: Origin, text: Result<String, LoadError>) {
        match text.and_then(|t| Session::load(&t)) {
            Ok((mut session, lang)) => {
                session.notice = Some(Notice::Opened(origin));
                self.session = Rc::new(RefCell::new(session));
                self.lang = lang;
                self.playing = false;
            }
            Err(error) => self.session.borrow_mut().notice = Some(Notice::LoadFailed { origin, error }),
        }
    }
}

impl Reducible for UiState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut next = (*self).clone();
        // The link shows until the next message.
        next.link = None;
        match msg {
            Msg::Cmd(cmd) => {
                let reconfig = matches!(cmd, Command::Configure(_) | Command::Reset);
                let acted = matches!(cmd, Command::Act(_));
                let ok = next.session.borrow_mut().handle(cmd);
                if reconfig || (acted && !ok) {
                    next.playing = false;
                }
            }
            Msg::TogglePlay => {
                if next.playing {
                    next.playing = false;
                } else {
                    let mut s = next.session.borrow_mut();
                    if s.at_end() && s.sim().check(Action::Auto).is_err() {
                        s.notice = Some(Notice::NothingToPlay);
                    } else {
                        s.notice = None;
                        next.playing = true;
                    }
                }
            }
            Msg::Tick => {
                if !next.playing {
                    return self;
                }
                if !next.session.borrow_mut().handle(Command::Tick) {
                    next.playing = false;
                }
            }
            Msg::Speed(s) => next.speed = s.min(SPEEDS.len() - 1),
            Msg::Tab(t) => next.tab = t,
            Msg::Lang(l) => next.lang = l,
            Msg::Presenter(on) => next.presenter = on,
            Msg::Load(origin, text) => next.open(origin, text),
            Msg::Shared(url) => next.link = Some(url),
            Msg::Exported => {}
        }
        next.version += 1;
        Rc::new(next)
    }
}

/// Mounts the app on the page, replacing the loading notice.
pub fn start() {
    let doc = web_sys::window().and_then(|w| w.document()).expect("a document");
    if let Some(boot) = doc.get_element_by_id("boot") {
        boot.remove();
    }
    let root = doc.create_element("div").expect("div");
    root.set_id("app-root");
    doc.body().expect("body").append_child(&root).expect("append");
    yew::Renderer::<App>::with_root(root).render();
}

fn is_typing(e: &KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| {
            let tag = el.tag_name().to_ascii_lowercase();
            (tag == "input" && el.get_attribute("type").as_deref() != Some("range"))
                || tag == "select"
                || tag == "textarea"
        })
        .unwrap_or(false)
}

/// The keyboard shortcuts. With a lesson open, PageDown/PageUp (a presenter's clicker) step the
/// lesson, and so do the arrows in presenter mode.
fn shortcut(e: &KeyboardEvent, lesson: bool, presenter: bool) -> Option<Msg> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() || is_typing(e) {
        return None;
    }
    let lesson_keys = lesson && presenter;
    Some(match e.key().as_str() {
        "PageDown" if lesson => Msg::Cmd(Command::LessonNext),
        "PageUp" if lesson => Msg::Cmd(Command::LessonPrev),
        "ArrowRight" if lesson_keys => Msg::Cmd(Command::LessonNext),
        "ArrowLeft" if lesson_keys => Msg::Cmd(Command::LessonPrev),
        " " => Msg::TogglePlay,
        "ArrowRight" => Msg::Cmd(Command::Forward),
        "ArrowLeft" => Msg::Cmd(Command::Back),
        "c" | "C" => Msg::Cmd(Command::Act(Action::Checkpoint)),
        "t" | "T" => Msg::Cmd(Command::Act(Action::AllTimers)),
        "x" | "X" => Msg::Cmd(Command::Act(Action::Crash)),
        "j" | "J" => Msg::Cmd(Command::Act(Action::CrashJobManager)),
        "r" | "R" => Msg::Cmd(Command::Act(Action::Restore)),
        "p" | "P" => Msg::Presenter(!presenter),
        "Escape" if presenter => Msg::Presenter(false),
        _ => return None,
    })
}

#[component]
pub fn App() -> Html {
    let state = use_reducer(UiState::initial);
    let dispatcher = state.dispatcher();
    // What the keyboard listener needs to know, kept current without re-registering it.
    let modes = use_mut_ref(|| (false, false));
    *modes.borrow_mut() = (state.session.borrow().lesson.is_some(), state.presenter);

    // Keyboard control on the whole page, and links opened while the page is open.
    {
        let dispatcher = dispatcher.clone();
        let modes = modes.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("window");
            let d = dispatcher.clone();
            let keys = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                let (lesson, presenter) = *modes.borrow();
                if let Some(msg) = shortcut(&e, lesson, presenter) {
                    e.prevent_default();
                    d.dispatch(msg);
                }
            });
            let hash = Closure::<dyn Fn(web_sys::HashChangeEvent)>::new(move |_| {
                if let Some(text) = classroom::link_text() {
                    dispatcher.dispatch(Msg::Load(Origin::Link, text));
                }
            });
            window.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref()).expect("listen");
            window.add_event_listener_with_callback("hashchange", hash.as_ref().unchecked_ref()).expect("listen");
            move || {
                let _ = window.remove_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref());
                let _ = window.remove_event_listener_with_callback("hashchange", hash.as_ref().unchecked_ref());
                drop(keys);
                drop(hash);
            }
        });
    }
    // Keep the last run in this browser (not on every step while playing).
    {
        let state = state.clone();
        use_effect_with((state.version, state.playing), move |&(_, playing)| {
            if !playing {
                classroom::store(&state.session.borrow(), state.lang);
            }
        });
    }
    // Play: one step per interval, dropped when paused or the speed changes.
    {
        let dispatcher = dispatcher.clone();
        use_effect_with((state.playing, state.speed), move |&(playing, speed)| {
            let interval = playing.then(|| Interval::new(SPEEDS[speed], move || dispatcher.dispatch(Msg::Tick)));
            move || drop(interval)
        });
    }

    let l = state.lang;
    let session = state.session.borrow();
    let sim = session.sim();
    let send = |m: fn() -> Msg| {
        let d = dispatcher.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(m()))
    };
    let act = {
        let d = dispatcher.clone();
        Callback::from(move |a: Action| d.dispatch(Msg::Cmd(Command::Act(a))))
    };
    let handlers = canvas::Handlers { act: act.clone() };
    let button = |id: &'static str,
                  label: String,
                  key: &'static str,
                  msg: fn() -> Msg,
                  enabled: Result<(), String>,
                  extra: Option<&'static str>| {
        let disabled = enabled.is_err();
        let title = match &enabled {
            Ok(()) if key.is_empty() => label.clone(),
            Ok(()) => format!("{label} ({key})"),
            Err(why) => format!("{label}: {why}"),
        };
        html! {
            <button id={id} class={classes!("tool", extra)} onclick={send(msg)} disabled={disabled} title={title}
                aria-keyshortcuts={(!key.is_empty()).then_some(key)}>
                { label }{ if key.is_empty() { html!{} } else { html!{ <kbd>{ key }</kbd> } } }
            </button>
        }
    };
    let check = |a: Action| sim.check(a).map_err(|e| e.message(l));
    let at_end = session.at_end();
    let pos = session.timeline.position();
    let len = session.timeline.len();
    let can_step = if !at_end { Ok(()) } else { check(Action::Auto) };
    let can_back = if pos > 0 { Ok(()) } else { Err(l.t("already at the first step", "已在第一步").to_string()) };

    let config = session.config.clone();
    // Each select turns its value into a new run configuration.
    let select_setting = |apply: fn(&mut RunConfig, &str)| {
        let d = dispatcher.clone();
        let config = config.clone();
        Callback::from(move |e: web_sys::Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut c = config.clone();
            apply(&mut c, &v);
            d.dispatch(Msg::Cmd(Command::Configure(c)));
        })
    };
    let on_job = select_setting(|c, v| {
        c.job = v.to_string();
        c.settings = c.settings.for_job(c.has_sink());
    });
    let on_strategy =
        select_setting(|c, v| c.settings = c.settings.edited(Edit::Strategy(Strategy::from_id(v).unwrap_or_default())));
    let on_sink =
        select_setting(|c, v| c.settings = c.settings.edited(Edit::Sink(SinkMode::from_id(v).unwrap_or_default())));
    let number_setting = |apply: fn(&mut RunConfig, Option<u64>)| {
        let d = dispatcher.clone();
        let config = config.clone();
        Callback::from(move |e: web_sys::Event| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            let mut c = config.clone();
            let n = v.trim().parse::<u64>().ok().filter(|n| *n > 0);
            apply(&mut c, n);
            d.dispatch(Msg::Cmd(Command::Configure(c)));
        })
    };
    let on_interval = number_setting(|c, n| c.settings = c.settings.edited(Edit::CheckpointInterval(n)));
    let on_capacity = number_setting(|c, n| c.settings = c.settings.edited(Edit::ChannelCapacity(n)));
    let on_align_timeout = number_setting(|c, n| c.settings = c.settings.edited(Edit::AlignmentTimeout(n)));
    let on_seed = number_setting(|c, n| c.seed = n.unwrap_or(0));
    let on_records = number_setting(|c, n| c.records = n.map(|n| n.min(crate::session::MAX_GENERATED as u64) as u32));
    let on_restart = select_setting(|c, v| {
        let restart = if v == "from-latest" { RestartPolicy::FromLatest } else { RestartPolicy::FromBeginning };
        c.settings = c.settings.edited(Edit::Restart(restart))
    });
    let on_timeline = {
        let d = dispatcher.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Ok(step) = v.parse::<usize>() {
                d.dispatch(Msg::Cmd(Command::Seek(step)));
            }
        })
    };
    let on_speed = {
        let d = dispatcher.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Ok(s) = v.parse::<usize>() {
                d.dispatch(Msg::Speed(s));
            }
        })
    };
    let tab_button = |t: Tab, id: &'static str, label: &'static str| {
        let d = dispatcher.clone();
        let selected = state.tab == t;
        html! {
            <button role="tab" id={id} aria-selected={selected.to_string()} class={classes!("tab", selected.then_some("selected"))}
                onclick={Callback::from(move |_| d.dispatch(Msg::Tab(t)))}>{ label }</button>
        }
    };
    let select_checkpoint = {
        let d = dispatcher.clone();
        Callback::from(move |id: CheckpointId| d.dispatch(Msg::Cmd(Command::SelectCheckpoint(id))))
    };
    let lang_toggle = {
        let d = dispatcher.clone();
        let next = if l == Lang::En { Lang::Zh } else { Lang::En };
        Callback::from(move |_| d.dispatch(Msg::Lang(next)))
    };
    let dismiss = {
        let d = dispatcher.clone();
        Callback::from(move |_| d.dispatch(Msg::Cmd(Command::Dismiss)))
    };
    let strategy = config.settings.strategy;
    let has_sink = config.has_sink();
    let send_cmd = {
        let d = dispatcher.clone();
        Callback::from(move |c: Command| d.dispatch(Msg::Cmd(c)))
    };
    let on_lesson = {
        let d = dispatcher.clone();
        Callback::from(move |e: web_sys::Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            match v.parse::<usize>() {
                Ok(i) => d.dispatch(Msg::Cmd(Command::StartLesson(i))),
                Err(_) => d.dispatch(Msg::Cmd(Command::LessonExit)),
            }
        })
    };
    let presenter_toggle = {
        let d = dispatcher.clone();
        let on = state.presenter;
        Callback::from(move |_| d.dispatch(Msg::Presenter(!on)))
    };
    // Sharing reaches outside the page (address bar, clipboard, a download): it happens here, in
    // the buttons' callbacks, and the reducer only hears what came of it.
    let on_share = {
        let (d, session) = (dispatcher.clone(), state.session.clone());
        Callback::from(move |_| d.dispatch(Msg::Shared(classroom::share_link(&session.borrow(), l))))
    };
    let on_export = {
        let (d, session) = (dispatcher.clone(), state.session.clone());
        Callback::from(move |_| {
            classroom::export(&session.borrow(), l);
            d.dispatch(Msg::Exported);
        })
    };
    let on_import = {
        let d = dispatcher.clone();
        Callback::from(move |e: web_sys::Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let d = d.clone();
            classroom::import(&input, Callback::from(move |(origin, text)| d.dispatch(Msg::Load(origin, text))));
        })
    };
    let lesson_index = session.lesson.as_ref().map(|p| p.lesson);

    html! {
        <div id="app" class={classes!("app", state.playing.then_some("playing"), state.presenter.then_some("presenter"))} data-ready="true"
             lang={if l == Lang::Zh { "zh-Hans" } else { "en" }} data-lang={l.id()} data-presenter={state.presenter.to_string()}
             data-step={pos.to_string()} data-steps={len.to_string()}>
            <header class="topbar">
                <h1><span class="logo" aria-hidden="true">{"▍"}</span>{ "Barrierscope" }</h1>
                <p class="tagline">{ l.t("How stream processors survive failure", "流处理系统如何在故障中幸存") }</p>
                <div class="config" role="group" aria-label={l.t("Run configuration", "运行配置")}>
                    <label>{ l.t("Job", "作业") }
                        <select id="sel-job" onchange={on_job} aria-label={l.t("Job", "作业")}>
                            { for BUILTIN_NAMES.iter().map(|j| html!{ <option value={*j} selected={config.job == *j}>{ job_name(l, j) }</option> }) }
                        </select></label>
                    <label>{ l.t("Snapshots", "快照策略") }
                        <select id="sel-strategy" onchange={on_strategy} aria-label={l.t("Snapshot strategy", "快照策略")}>
                            { for Strategy::ALL.iter().map(|s| html!{ <option value={s.id()} selected={strategy == *s}>{ strategy_name(l, *s) }</option> }) }
                        </select></label>
                    <label title={if has_sink { "" } else { l.t("This job has no sink", "此作业没有输出端") }}>{ l.t("Sink", "输出端") }
                        <select id="sel-sink" onchange={on_sink} disabled={!has_sink} aria-label={l.t("Sink mode", "输出模式")}>
                            { for SinkMode::ALL.iter().map(|s| {
                                html!{ <option value={s.id()} selected={config.settings.sink == *s} disabled={!strategy.allows_sink(*s)}>{ sink_name(l, *s) }</option> }
                            }) }
                        </select></label>
                    <details class="more-settings">
                        <summary>{ l.t("Settings", "设置") }</summary>
                        <div class="settings-grid">
                            <label>{ l.t("Records per source partition (empty = the story's)", "每个源分区的记录数（留空=故事默认）") }
                                <input id="inp-records" type="number" min="1" max={crate::session::MAX_GENERATED.to_string()}
                                    value={config.records.map(|v| v.to_string()).unwrap_or_default()} onchange={on_records} /></label>
                            <label>{ l.t("Seed", "随机种子") }<input id="inp-seed" type="number" min="0" value={config.seed.to_string()} onchange={on_seed} /></label>
                            <label>{ l.t("Checkpoint every (steps, empty = by hand)", "检查点间隔（步，留空=手动）") }
                                <input id="inp-interval" type="number" min="1" disabled={!strategy.takes_checkpoint_interval()}
                                    value={config.settings.checkpoint_interval.map(|v| v.to_string()).unwrap_or_default()} onchange={on_interval} /></label>
                            <label>{ l.t("Alignment timeout (steps, empty = off)", "对齐超时（步，留空=关闭）") }
                                <input id="inp-align-timeout" type="number" min="1" disabled={!strategy.takes_alignment_timeout()}
                                    value={config.settings.alignment_timeout_steps().map(|v| v.to_string()).unwrap_or_default()} onchange={on_align_timeout} /></label>
                            <label>{ l.t("Channel capacity (empty = unbounded)", "通道容量（留空=无界）") }
                                <input id="inp-capacity" type="number" min="1" value={config.settings.channel_capacity.map(|v| v.to_string()).unwrap_or_default()} onchange={on_capacity} /></label>
                            <label>{ l.t("Without snapshots, sources restart", "不做快照时，源从何处重启") }
                                <select id="sel-restart" disabled={!strategy.takes_restart_policy()} onchange={on_restart}>
                                    <option value="from-beginning" selected={config.settings.restart == RestartPolicy::FromBeginning}>{ l.t("from the beginning (at least once)", "从头开始（至少一次）") }</option>
                                    <option value="from-latest" selected={config.settings.restart == RestartPolicy::FromLatest}>{ l.t("after the newest read (at most once)", "从最新读取处（最多一次）") }</option>
                                </select></label>
                        </div>
                    </details>
                    <button id="btn-lang" class="tool lang" onclick={lang_toggle} aria-label={l.t("切换到中文", "Switch to English")}>{ l.t("中文", "English") }</button>
                </div>
            </header>
            <nav class="toolbar" aria-label={l.t("Simulation controls", "模拟控制")}>
                <div class="group">
                    { button("btn-reset", l.t("⟲ Reset", "⟲ 重置").into(), "", || Msg::Cmd(Command::Reset), Ok(()), None) }
                    { button("btn-back", l.t("◀ Back", "◀ 后退").into(), "←", || Msg::Cmd(Command::Back), can_back, None) }
                    { button("btn-step", l.t("Step ▶", "单步 ▶").into(), "→", || Msg::Cmd(Command::Forward), can_step.clone(), Some("primary")) }
                    { button("btn-play", if state.playing { l.t("❚❚ Pause", "❚❚ 暂停").into() } else { l.t("▶▶ Play", "▶▶ 播放").into() }, "Space",
                        || Msg::TogglePlay, if state.playing { Ok(()) } else { can_step }, None) }
                    <label class="speed">{ l.t("Speed", "速度") }
                        <input id="inp-speed" type="range" min="0" max={(SPEEDS.len() - 1).to_string()} value={state.speed.to_string()} oninput={on_speed}
                            aria-valuetext={format!("{} ms", SPEEDS[state.speed])} /></label>
                </div>
                <div class="group">
                    { button("btn-checkpoint", l.t("⚑ Checkpoint", "⚑ 检查点").into(), "C", || Msg::Cmd(Command::Act(Action::Checkpoint)), check(Action::Checkpoint), None) }
                    { button("btn-timers", l.t("◷ All timers", "◷ 全部定时器").into(), "T", || Msg::Cmd(Command::Act(Action::AllTimers)), check(Action::AllTimers), None) }
                </div>
                <div class="group">
                    { button("btn-crash", l.t("✖ Crash cluster", "✖ 集群崩溃").into(), "X", || Msg::Cmd(Command::Act(Action::Crash)), check(Action::Crash), Some("danger")) }
                    { button("btn-crash-jm", l.t("✖ Crash JobManager", "✖ JobManager 崩溃").into(), "J", || Msg::Cmd(Command::Act(Action::CrashJobManager)), check(Action::CrashJobManager), Some("danger")) }
                    { button("btn-restore", l.t("⟳ Restore", "⟳ 恢复").into(), "R", || Msg::Cmd(Command::Act(Action::Restore)), check(Action::Restore), Some("good")) }
                </div>
                <div class="group timeline">
                    <label for="inp-timeline">{ format!("{} {} / {}", l.t("Step", "步"), pos, len) }</label>
                    <input id="inp-timeline" type="range" min="0" max={len.to_string()} value={pos.to_string()} oninput={on_timeline}
                        aria-label={l.t("Timeline: drag to any earlier step", "时间线：拖到任意之前的步")}
                        aria-valuetext={format!("{} {} / {}", l.t("step", "步"), pos, len)} />
                </div>
            </nav>
            <div class="sharebar" role="group" aria-label={l.t("Lessons and sharing", "课程与分享")}>
                <label>{ l.t("Lesson", "课程") }
                    <select id="sel-lesson" onchange={on_lesson} aria-label={l.t("Guided lesson", "引导课程")}>
                        <option value="none" selected={lesson_index.is_none()}>{ l.t("Free play (no lesson)", "自由操作（无课程）") }</option>
                        { for LESSONS.iter().enumerate().map(|(i, x)| html!{
                            <option value={i.to_string()} selected={lesson_index == Some(i)}>{ if l == Lang::Zh { x.title.zh } else { x.title.en } }</option> }) }
                    </select></label>
                <button id="btn-presenter" class={classes!("tool", state.presenter.then_some("on"))} onclick={presenter_toggle}
                    aria-pressed={state.presenter.to_string()} aria-keyshortcuts="P" title={l.t("Presenter mode: large type, high contrast (P, Esc to leave)", "演示模式：大字号、高对比度（P，Esc 退出）")}>
                    { l.t("▣ Presenter", "▣ 演示模式") }</button>
                <button id="btn-share" class="tool" onclick={on_share} title={l.t("Put the whole run in a link", "把整个运行放进一个链接")}>{ l.t("🔗 Share link", "🔗 分享链接") }</button>
                <button id="btn-export" class="tool" onclick={on_export} title={l.t("Download the run as a JSON file", "把运行下载为 JSON 文件")}>{ l.t("↓ Export", "↓ 导出") }</button>
                <label class="tool import" title={l.t("Open a run from a JSON file", "从 JSON 文件打开运行")}>{ l.t("↑ Import", "↑ 导入") }
                    <input id="inp-import" type="file" accept=".json,application/json" onchange={on_import} aria-label={l.t("Import a run file", "导入运行文件")} /></label>
                { state.link.clone().map(|url| html!{
                    <input id="share-url" class="share-url" type="text" readonly=true value={url} aria-label={l.t("Link to this run", "此运行的链接")} />
                }).unwrap_or_default() }
            </div>
            <div id="notice" class={classes!("notice", session.notice.is_some().then_some("shown"),
                    session.notice.as_ref().is_some_and(|n| !n.is_error()).then_some("info"))} role="alert">
                { session.notice.as_ref().map(|n| html!{ <>
                    <span>{ n.message(l) }</span>
                    <button class="dismiss" onclick={dismiss} aria-label={l.t("Dismiss", "关闭")}>{"×"}</button>
                </> }).unwrap_or_default() }
            </div>
            { classroom::lesson_bar(&session, l, &send_cmd) }
            <main class="workspace">
                <div class="canvas-wrap">{ canvas::canvas(sim, l, &handlers) }</div>
                <div class="tabs">
                    <div role="tablist" aria-label={l.t("Details", "详情")}>
                        { tab_button(Tab::Narration, "tab-narration", l.t("What happened", "发生了什么")) }
                        { tab_button(Tab::Checkpoints, "tab-checkpoints", l.t("Checkpoints", "检查点")) }
                        { tab_button(Tab::External, "tab-external", l.t("External system", "外部系统")) }
                    </div>
                    <div role="tabpanel" class="tab-body">
                        { match state.tab {
                            Tab::Narration => panels::narration_panel(&session, l),
                            Tab::Checkpoints => panels::checkpoints_panel(&session, l, select_checkpoint),
                            Tab::External => panels::external_panel(sim, l),
                        } }
                    </div>
                </div>
                { panels::verdict_panel(sim, l) }
                { panels::storage_panel(sim, l) }
            </main>
        </div>
    }
}
