//! The ◫ Side by side room (issues 13 and 29): one job, one input, one crash, up to three runs
//! from seven presets on one clock, each drawn, with the live cost table of
//! [`engine::comparison`](crate::engine::comparison) under them and the lesson "Three ways to
//! survive a crash". The room owns its state (a reducer of its own, [`state::RoomState`]); it
//! reads the main screen's run only to take its job and settings, and reaches the main screen
//! only to close, to switch the language of a comparison it opened, and through the keys it
//! leaves alone.
//!
//! A comparison is saved as a [`SavedComparison`]: the room's link
//! (`#room=compare&run=…`), its file, and its storage entry (`barrierscope.compare`); ↑ Import
//! takes that, a comparison file from `scenarios/compare/`, or one to three scenario files.

mod drawing;
mod io;
mod lesson_view;
pub mod state;
mod table;

use gloo_timers::callback::Interval;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

use super::RoomProps;
use crate::app::files::{export_button, import_button};
use crate::app::room::Room;
use crate::app::rooms::room_head;
use crate::app::ui_state::Msg;
use crate::classroom::saved_comparison::{
    input_choice, job_choice, run_title, JOBS, MAX_ROOM_TICKS, PRESETS, RECORD_COUNTS, SPACINGS,
};
use crate::classroom::crash_words;
use crate::engine::comparison::{Costs, MAX_CONFIGURATIONS};
use crate::engine::{Lang, Strategy};
use state::{place_value, preset_index, RoomMsg, RoomNotice, RoomState, Source, SPEEDS};

pub use io::STORAGE_KEY;

/// The room, as the split point draws it.
pub fn render(props: RoomProps) -> Html {
    html! { <CompareRoom ..props /> }
}

fn in_text_field(e: &KeyboardEvent) -> bool {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return false };
    match el.tag_name().to_ascii_lowercase().as_str() {
        "input" => !matches!(
            el.get_attribute("type").unwrap_or_default().to_ascii_lowercase().as_str(),
            "range" | "button" | "submit" | "reset" | "checkbox" | "radio" | "file" | "color" | "image"
        ),
        "textarea" => true,
        _ => el.is_content_editable(),
    }
}

/// The room's keys: the main screen's keys for its clock, acting on every run at once.
fn room_key(e: &KeyboardEvent, lesson: bool, presenter: bool) -> Option<Option<RoomMsg>> {
    if in_text_field(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    Some(Some(match e.key().as_str() {
        "PageDown" if lesson => RoomMsg::LessonNext,
        "PageUp" if lesson => RoomMsg::LessonPrev,
        " " => RoomMsg::TogglePlay,
        "ArrowRight" => RoomMsg::Step,
        "ArrowLeft" => RoomMsg::Back,
        "Home" => RoomMsg::ToStart,
        "e" | "E" => RoomMsg::ToEnd,
        "x" | "X" => RoomMsg::CrashNow,
        "r" | "R" => RoomMsg::RestoreNow,
        // Escape closes the room (in presenter mode it first leaves presenter mode, the main
        // screen's key).
        "Escape" if !presenter => return Some(None),
        _ => return None,
    }))
}

fn configuration_words(s: &crate::engine::Settings, l: Lang) -> String {
    use crate::app::text::{sink_name, strategy_name};
    let mut w = vec![strategy_name(l, s.strategy).to_string(), sink_name(l, s.sink).to_string()];
    match s.strategy {
        Strategy::SparkStreaming => {
            w.push(format!("{} {}", l.t("batch every", "批次间隔"), s.batch_interval));
            w.push(if s.write_ahead_log { l.t("WAL on", "预写日志开") } else { l.t("WAL off", "预写日志关") }.into());
        }
        Strategy::StormAcker if s.ackers == 0 => w.push(l.t("acking off", "关闭确认").into()),
        Strategy::StormAcker => {}
        _ => {
            if let Some(i) = s.checkpoint_interval {
                w.push(format!("{} {i}", l.t("checkpoint every", "检查点间隔")));
            }
        }
    }
    w.join(" · ")
}

fn notice_words(n: &RoomNotice, l: Lang) -> (bool, String) {
    let from = |s: &Source| match s {
        Source::Link => l.t("the link", "链接"),
        Source::File => l.t("the file", "文件"),
        Source::Storage => l.t("the comparison kept in this browser", "本浏览器保存的比较"),
        Source::Lesson => {
            l.t("the lesson: the article's three ways (three-ways.json)", "课程：文章中的三种方式（three-ways.json）")
        }
    };
    match n {
        RoomNotice::Refused(s, e) => (
            true,
            format!(
                "{} {}: {}. {}",
                l.t("Could not open", "无法打开"),
                from(s),
                e.message(l),
                l.t("Nothing on screen changed.", "屏幕上的内容没有改变。")
            ),
        ),
        RoomNotice::Said(en, zh) => (true, if l == Lang::Zh { zh.clone() } else { en.clone() }),
        RoomNotice::Opened(s) => {
            (false, format!("{} {}.", l.t("Opened the comparison from", "已打开来自以下来源的比较："), from(s)))
        }
    }
}

#[component]
pub fn CompareRoom(props: &RoomProps) -> Html {
    let lang = props.lang;
    let state = use_reducer(move || RoomState::initial(io::link_text(), io::stored_text(), lang));
    crate::app::lesson_frame::use_lesson_focus(state.lesson.is_some(), "cmp-lesson-start", "cmp-lesson");
    let dispatch = state.dispatcher();
    let l = props.lang;

    // Keys: taken before the main screen sees them (capture on the window), so X and R act on
    // the room's runs, not on the main screen's.
    let modes = use_mut_ref(|| (false, false));
    *modes.borrow_mut() = (state.lesson.is_some(), props.presenter);
    {
        let dispatch = dispatch.clone();
        let close = props.close.clone();
        let modes = modes.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("window");
            let keys = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                let (lesson, presenter) = *modes.borrow();
                if let Some(msg) = room_key(&e, lesson, presenter) {
                    e.prevent_default();
                    e.stop_immediate_propagation();
                    match msg {
                        Some(m) => dispatch.dispatch(m),
                        None => close.emit(()),
                    }
                }
            });
            let _ = window.add_event_listener_with_callback_and_bool("keydown", keys.as_ref().unchecked_ref(), true);
            move || {
                let _ =
                    window.remove_event_listener_with_callback_and_bool("keydown", keys.as_ref().unchecked_ref(), true);
                drop(keys);
            }
        });
    }
    // Play: one tick per interval.
    {
        let dispatch = dispatch.clone();
        use_effect_with((state.playing, state.speed), move |&(playing, speed)| {
            let interval = playing.then(|| Interval::new(SPEEDS[speed], move || dispatch.dispatch(RoomMsg::Tick)));
            move || drop(interval)
        });
    }
    // Keep the comparison in this browser (not on every tick while playing); a comparison opened
    // in the other language switches the page to it.
    {
        let state = state.clone();
        let main = props.dispatch.clone();
        use_effect_with((state.version, state.playing, l), move |&(_, playing, l)| {
            if let Some(RoomNotice::Opened(Source::Link | Source::File)) = state.notice {
                if let Some(lang) = state.lang.filter(|x| *x != l) {
                    main.dispatch(Msg::Lang(lang));
                }
            }
            if !playing {
                let mut saved = state.saved();
                saved.lang = Some(l);
                io::store(&saved);
            }
        });
    }

    let lock = state.lock.borrow();
    let file = &state.file;
    let tick = lock.tick;
    let crashed = tick > file.crash.at;
    let at_end = state.at_end();
    let graph = lock.graph();
    let titles: Vec<String> = file.configurations.iter().map(|c| run_title(c, l)).collect();
    let costs: Vec<Costs> = lock.lanes.iter().map(|lane| lane.costs()).collect();

    // The setup.
    let select = |id: &'static str,
                  label: String,
                  options: Vec<(String, String)>,
                  value: String,
                  msg: fn(String) -> Option<RoomMsg>| {
        let d = dispatch.clone();
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
    };
    let job = job_choice(file).map(str::to_string).unwrap_or_default();
    let mut job_options: Vec<(String, String)> =
        JOBS.iter().map(|j| (j.to_string(), crate::app::text::job_name(l, j).to_string())).collect();
    if job.is_empty() {
        job_options.insert(0, (String::new(), l.t("the file's own job", "文件中的作业").into()));
    }
    let input = input_choice(file).map(|(n, e)| format!("{n}/{e}")).unwrap_or_default();
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
    let mut place_options = vec![
        ("cluster".to_string(), l.t("the cluster", "整个集群").to_string()),
        (
            "master".to_string(),
            l.t("the master (JobManager, Nimbus, driver)", "主节点（JobManager、Nimbus、driver）").to_string(),
        ),
    ];
    for t in &graph.tasks {
        place_options
            .push((t.name.clone(), format!("{} {}", l.t("the worker running", "运行以下任务的 worker："), t.name)));
    }
    let run_select = |i: usize| {
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
        let d = dispatch.clone();
        // A run after a missing one can't be added: the runs fill from the left.
        let unavailable = i > file.configurations.len();
        let onchange = Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            match v.as_str() {
                "none" => d.dispatch(RoomMsg::Run(i, None)),
                "file" => {}
                p => {
                    if let Ok(p) = p.parse() {
                        d.dispatch(RoomMsg::Run(i, Some(p)))
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
    };
    // Keyed by the message count, so that a refused value shows the comparison's again.
    let version = state.version;
    let number = |id: &'static str, label: &'static str, value: u64, min: u64, msg: fn(u64) -> RoomMsg| {
        let d = dispatch.clone();
        let onchange = Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            match input.value().trim().parse::<u64>() {
                Ok(v) if v >= min && v < MAX_ROOM_TICKS => d.dispatch(msg(v)),
                _ => d.dispatch(RoomMsg::Dismiss),
            }
        });
        html! {
            <label class="cmp-field" for={id}>
                <span>{ label }</span>
                <input type="number" id={id} key={format!("{id}-{value}-{version}")} min={min.to_string()} max={(MAX_ROOM_TICKS - 1).to_string()} value={value.to_string()} {onchange} />
            </label>
        }
    };

    let act = |id: &'static str,
               msg: fn() -> RoomMsg,
               label: String,
               refusal: Option<&'static str>,
               class: &'static str,
               key: &'static str| {
        let d = dispatch.clone();
        let onclick = Callback::from(move |_| d.dispatch(msg()));
        let title =
            refusal.map_or_else(|| format!("{label} ({} {key})", l.t("key", "按键")), |r| format!("{label}: {r}"));
        html! {
            <button class={classes!("tool", class)} id={id} {onclick} disabled={refusal.is_some()} title={title.clone()}
                    aria-keyshortcuts={key}>{ label }</button>
        }
    };
    let not_back = (tick == 0).then(|| l.t("the clock is at tick 0", "时钟位于第 0 拍"));
    let not_on = at_end.then(|| l.t("the runs have finished", "各运行已经结束"));
    let d = dispatch.clone();
    let speed = html! {
        <label class="cmp-field speed" for="cmp-speed">
            <span>{ l.t("Speed", "速度") }</span>
            <input type="range" id="cmp-speed" min="0" max={(SPEEDS.len() - 1).to_string()} value={state.speed.to_string()}
                   onchange={Callback::from(move |e: Event| {
                       if let Ok(s) = e.target_unchecked_into::<HtmlInputElement>().value().parse() { d.dispatch(RoomMsg::Speed(s)) }
                   })} />
        </label>
    };

    // Save, share, open, from the main screen.
    let saved = {
        let mut s = state.saved();
        s.lang = Some(l);
        s
    };
    let on_save = {
        let saved = saved.clone();
        Callback::from(move |_| io::download(&saved))
    };
    let on_share = {
        let saved = saved.clone();
        let d = dispatch.clone();
        Callback::from(move |_| {
            let url = io::share_link(&saved);
            crate::app::files::copy_to_clipboard(&url, |_| {});
            d.dispatch(RoomMsg::Shared(url));
        })
    };
    let on_open = {
        let d = dispatch.clone();
        Callback::from(move |e: Event| io::open_chosen(&e.target_unchecked_into::<HtmlInputElement>(), d.clone()))
    };
    let on_from_main = {
        let d = dispatch.clone();
        let run = props.run.clone();
        Callback::from(move |_| {
            let s = run.session();
            d.dispatch(RoomMsg::FromMain(s.config.job.clone(), Box::new(s.config.settings.clone())));
        })
    };
    let lesson_start = {
        let d = dispatch.clone();
        Callback::from(move |_| d.dispatch(RoomMsg::LessonStart))
    };

    let runs_for_lesson: Vec<(String, Strategy, Costs)> = lock
        .lanes
        .iter()
        .zip(&titles)
        .zip(&costs)
        .map(|((lane, t), c)| (t.clone(), lane.sim.settings.strategy, c.clone()))
        .collect();
    let meanings: Vec<String> =
        lock.lanes.iter().map(|lane| crash_words(&file.crash.place, &lane.sim.settings, graph, l)).collect();
    let notice = state.notice.as_ref().map(|n| notice_words(n, l));
    let d = dispatch.clone();
    let dismiss = Callback::from(move |_| d.dispatch(RoomMsg::Dismiss));
    let ends_at = file.configurations.len();

    html! {
        <div id="cmp-room" class={classes!("cmp-room", props.presenter.then_some("presenter"), format!("runs-{ends_at}"))}
             lang={if l == Lang::Zh { "zh-Hans" } else { "en" }} data-tick={tick.to_string()} data-finished={lock.finished().to_string()}
             data-runs={ends_at.to_string()} data-playing={state.playing.to_string()}>
            { room_head(Room::Compare, props, html! { <>
                // While the lesson runs, its frame has the way out (✕ Leave the lesson).
                if state.lesson.is_none() {
                    <button class="tool" id="cmp-lesson-start" onclick={lesson_start}>{ format!("▶ {}: {}", l.t("Lesson", "课程"), crate::classroom::compare_lesson::title(l)) }</button>
                }
                { import_button("cmp-open-file", l.t("Import a comparison, or one to three scenario files", "导入一个比较，或一到三个场景文件"), true, on_open, l) }
                { export_button("cmp-save", l.t("Download the comparison as a JSON file", "把比较下载为 JSON 文件"), on_save, l) }
                <button class="tool" id="cmp-share" onclick={on_share}>{ l.t("↗ Share link", "↗ 分享链接") }</button>
            </> }) }
            if let Some(link) = &state.link {
                <p class="cmp-link" role="status">
                    <label for="cmp-link-text">{ l.t("Link to this comparison:", "此比较的链接：") }</label>
                    <input id="cmp-link-text" type="text" readonly=true value={link.clone()} />
                </p>
            }
            if let Some((bad, text)) = notice {
                <p id="cmp-notice" class={classes!("cmp-notice", bad.then_some("bad"))} role={if bad { "alert" } else { "status" }}>
                    { text }
                    <button class="tool" id="cmp-notice-close" onclick={dismiss}>{ l.t("OK", "知道了") }</button>
                </p>
            }
            <details class="cmp-setup" open={!props.presenter}>
                <summary>{ l.t("The comparison: job, input, runs and crash", "比较设置：作业、输入、运行与崩溃") }</summary>
                <div class="cmp-fields">
                    { select("cmp-job", l.t("Job", "作业").into(), job_options, job, |v| (!v.is_empty()).then_some(RoomMsg::Job(v))) }
                    { select("cmp-input", l.t("Input", "输入").into(), input_options, input, |v| {
                        let (n, e) = v.split_once('/')?;
                        Some(RoomMsg::Input(n.parse().ok()?, e.parse().ok()?))
                    }) }
                    { for (0..MAX_CONFIGURATIONS).map(run_select) }
                    { select("cmp-place", l.t("The crash strikes", "崩溃位置").into(), place_options, place_value(&file.crash.place), |v| Some(RoomMsg::Place(v))) }
                    { number("cmp-crash-at", l.t("at tick", "崩溃于（拍）"), file.crash.at, 0, RoomMsg::CrashAt) }
                    { number("cmp-restore-at", l.t("restore at tick", "恢复于（拍）"), file.restore.at, 1, RoomMsg::RestoreAt) }
                    <button class="tool" id="cmp-from-main" onclick={on_from_main}
                            title={l.t("Run 1 takes the main screen's job and settings", "运行 1 采用主界面的作业和设置")}>
                        { l.t("⇐ Run 1 from the main screen", "⇐ 运行 1 采用主界面的设置") }
                    </button>
                </div>
            </details>
            <div class="cmp-clock" role="toolbar" aria-label={l.t("One clock for every run", "所有运行共用的时钟")}>
                { act("cmp-start", || RoomMsg::ToStart, l.t("⇤ Start", "⇤ 开始").into(), not_back, "", "Home") }
                { act("cmp-back", || RoomMsg::Back, l.t("◀ Back", "◀ 后退").into(), not_back, "", "ArrowLeft") }
                { act("cmp-step", || RoomMsg::Step, l.t("Step ▶", "单步 ▶").into(), not_on, "primary", "ArrowRight") }
                { act("cmp-play", || RoomMsg::TogglePlay,
                      if state.playing { l.t("❚❚ Pause", "❚❚ 暂停") } else { l.t("▶▶ Play", "▶▶ 播放") }.into(),
                      (!state.playing).then_some(()).and(not_on), "", "Space") }
                { act("cmp-end", || RoomMsg::ToEnd, l.t("⇥ To the end", "⇥ 到结束").into(), not_on, "", "E") }
                { act("cmp-crash", || RoomMsg::CrashNow, l.t("✖ Crash all (X)", "✖ 全部崩溃 (X)").into(), state.crash_refusal(l), "danger", "X") }
                { act("cmp-restore", || RoomMsg::RestoreNow, l.t("⟳ Restore all (R)", "⟳ 全部恢复 (R)").into(), state.restore_refusal(l), "good", "R") }
                { speed }
                <span id="cmp-tick" class="cmp-tick" aria-live="polite">
                    { match l {
                        Lang::En => format!("tick {tick} · crash at {} · restore at {}", file.crash.at, file.restore.at),
                        Lang::Zh => format!("第 {tick} 拍 · 崩溃于第 {} 拍 · 恢复于第 {} 拍", file.crash.at, file.restore.at),
                    } }
                    if lock.finished() { { format!(" · {}", l.t("every run has finished", "所有运行均已结束")) } }
                </span>
            </div>
            if let Some(lesson) = &state.lesson {
                { lesson_view::lesson_panel(lesson, &titles, &runs_for_lesson, lock.finished(), &meanings, l, &dispatch) }
            }
            <div class="cmp-runs">
                { for lock.lanes.iter().enumerate().map(|(i, lane)| {
                    let title = &titles[i];
                    let down = !lane.sim.running() || lane.sim.region_down();
                    let status = if lane.finished() {
                        ("finished", match l {
                            Lang::En => format!("finished at tick {}", lane.sim.tick),
                            Lang::Zh => format!("结束于第 {} 拍", lane.sim.tick),
                        })
                    } else if down {
                        ("down", l.t("down: waiting for the restore", "停机：等待恢复").to_string())
                    } else {
                        ("running", l.t("running", "运行中").to_string())
                    };
                    let c = &costs[i];
                    let (_, state_text, state_class) = table::cell("/verdicts/state", c, crashed, l);
                    let (_, out_text, out_class) = table::cell("/verdicts/output", c, crashed, l);
                    html! {
                        <section class="cmp-run panel" id={format!("cmp-run-{i}")} aria-labelledby={format!("cmp-run-{i}-title")} data-status={status.0}>
                            <h2 id={format!("cmp-run-{i}-title")}>{ title.clone() }</h2>
                            <p class="cmp-config">{ configuration_words(&lane.sim.settings, l) }</p>
                            <p class="cmp-means">{ crash_words(&file.crash.place, &lane.sim.settings, graph, l) }</p>
                            { drawing::drawing(i, lane, title, props.presenter, l) }
                            <p class="cmp-mech">{ drawing::mechanism_line(&lane.sim, l) }</p>
                            <p class="cmp-status">{ status.1 }</p>
                            <p class="cmp-verdicts" data-run={i.to_string()}>
                                <span class={classes!(state_class)}>{ format!("{} {state_text}", l.t("state", "状态")) }</span>
                                { " · " }
                                <span class={classes!(out_class)}>{ format!("{} {out_text}", l.t("output", "输出")) }</span>
                            </p>
                        </section>
                    }
                }) }
            </div>
            <div class="cmp-table-wrap">{ table::cost_table(&titles, &costs, crashed, tick, l) }</div>
        </div>
    }
}
