//! The batch room: Hadoop re-runs the failed task, Spark recomputes from lineage. Its own state
//! (a reducer in the room), its own drawing, lesson and words; the page hands it the language and
//! presenter mode, and it changes those only by dispatching to the page. Nothing outside this
//! room refers to it but [`render`], behind the page's split point.

mod canvas;
mod io;
mod state;

use gloo_timers::callback::Interval;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

use super::RoomProps;
use crate::app::files::{export_button, import_button};
use crate::app::lesson_frame::{lesson_frame, use_lesson_focus, LessonFrame};
use crate::app::room::Room;
use crate::app::rooms::room_head;
use crate::app::text::Lang;
use crate::app::ui_state::Msg;
use crate::classroom::{Command, CATALOGUE};
use crate::engine::batch::lesson::LESSON_TITLE;
use crate::engine::batch::wording::{action_name, load_error, narrate, refusal};
use crate::engine::batch::{BatchAction, BatchSim, BatchVerdict, Keep, BATCH_JOBS, BATCH_LESSON};
pub use io::STORAGE_KEY;
use state::{Notice, Origin, RoomMsg, RoomState, SPEEDS};

/// The room, as the page's split point calls it.
pub fn render(props: RoomProps) -> Html {
    html! { <BatchRoom ..props /> }
}

fn job_name(l: Lang, job: &str) -> &'static str {
    match job {
        "hadoop-wordcount" => l.t("Hadoop: word count, 3 nodes", "Hadoop：词频统计，3 个节点"),
        "spark-figure" => l.t("Spark: the article's figure, 2 executors", "Spark：文章中的图，2 个执行器"),
        "spark-one-executor" => l.t("Spark: the figure on 1 executor", "Spark：同一张图，1 个执行器"),
        _ => l.t("a job from a file or a link", "来自文件或链接的作业"),
    }
}

fn keep_name(l: Lang, k: Keep) -> &'static str {
    match k {
        Keep::None => l.t("not kept", "不保存"),
        Keep::Persist => l.t("persist() (memory)", "persist()（内存）"),
        Keep::Checkpoint => l.t("checkpoint() (reliable)", "checkpoint()（可靠存储）"),
    }
}

fn verdict_mark(l: Lang, v: BatchVerdict) -> (&'static str, &'static str) {
    match v {
        BatchVerdict::ExactlyOnce => ("✓", l.t("exactly once", "精确一次")),
        BatchVerdict::Pending => ("…", l.t("not yet", "尚未写出")),
        BatchVerdict::Lost => ("✗", l.t("lost", "丢失")),
        BatchVerdict::Duplicated => ("⊕", l.t("duplicated", "重复")),
        BatchVerdict::Wrong => ("≠", l.t("wrong count", "计数错误")),
    }
}

/// "Step 5" / "第 5 步": a step's number in the narration, as the main screen says it.
fn step_no(l: Lang, n: usize) -> String {
    match l {
        Lang::En => format!("Step {n}"),
        Lang::Zh => format!("第 {n} 步"),
    }
}

fn origin_name(l: Lang, o: Origin) -> &'static str {
    match o {
        Origin::Link => l.t("the link", "链接"),
        Origin::File => l.t("the file", "文件"),
        Origin::Storage => l.t("this browser's storage", "本浏览器的存储"),
    }
}

/// Whether the key's target is a text field (its keys are its own).
fn in_text_field(e: &KeyboardEvent) -> bool {
    let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return false };
    match el.tag_name().to_ascii_lowercase().as_str() {
        "input" => {
            !matches!(el.get_attribute("type").unwrap_or_default().as_str(), "range" | "button" | "checkbox" | "file")
        }
        "textarea" => true,
        _ => el.is_content_editable(),
    }
}

/// The room's keys: what a key does in the room. Escape (back to the run) and P (presenter mode)
/// are the page's, as in every room.
fn room_key(e: &KeyboardEvent, lesson: Option<usize>, presenter: bool) -> Option<RoomMsg> {
    if in_text_field(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let next = lesson.map(|s| RoomMsg::Lesson(Some(s + 1)));
    let prev = lesson.map(|s| RoomMsg::Lesson(Some(s.saturating_sub(1))));
    Some(match e.key().as_str() {
        "PageDown" if lesson.is_some() => next?,
        "PageUp" if lesson.is_some() => prev?,
        "ArrowRight" if lesson.is_some() && presenter => next?,
        "ArrowLeft" if lesson.is_some() && presenter => prev?,
        "ArrowRight" | "s" | "S" => RoomMsg::Step,
        "ArrowLeft" => RoomMsg::Back,
        " " => RoomMsg::TogglePlay,
        "f" | "F" => RoomMsg::Act(BatchAction::FailTask),
        "e" | "E" => RoomMsg::ToEnd,
        k if k.len() == 1 && k.as_bytes()[0].is_ascii_digit() => {
            RoomMsg::Act(BatchAction::Crash(k.as_bytes()[0] - b'0'))
        }
        _ => return None,
    })
}

#[component]
pub fn BatchRoom(props: &RoomProps) -> Html {
    let state = use_reducer(|| RoomState::initial(io::link_text(), io::stored_text()));
    use_lesson_focus(state.lesson.is_some(), "batch-lesson", "batch-lesson-bar");
    let d = state.dispatcher();
    let l = props.lang;
    let page = props.dispatch.clone();

    // A file or a link asked for its language: the page's to change.
    {
        let page = page.clone();
        use_effect_with(state.asked_lang, move |asked| {
            if let Some(lang) = *asked {
                page.dispatch(Msg::Lang(lang));
            }
        });
    }
    // Keep the last batch run in this browser (not on every step while playing).
    {
        let state = state.clone();
        use_effect_with((state.revision, state.playing, l), move |&(_, playing, l)| {
            if !playing {
                io::store(&state, l);
            }
        });
    }
    // Play: one step per interval.
    {
        let d = d.clone();
        use_effect_with((state.playing, state.speed), move |&(playing, speed)| {
            let interval = playing.then(|| Interval::new(SPEEDS[speed], move || d.dispatch(RoomMsg::Tick)));
            move || drop(interval)
        });
    }
    // The keyboard: the room's keys (the page keeps Escape and P, and leaves the rest to the room).
    let modes = use_mut_ref(|| (None, false));
    *modes.borrow_mut() = (state.lesson.as_ref().map(|x| x.step), props.presenter);
    {
        let (d, modes) = (d.clone(), modes.clone());
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("window");
            let keys = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                let (lesson, presenter) = *modes.borrow();
                if let Some(m) = room_key(&e, lesson, presenter) {
                    e.prevent_default();
                    d.dispatch(m);
                }
            });
            let _ = window.add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref());
            move || {
                let _ = window.remove_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref());
                drop(keys);
            }
        });
    }

    let run = &state.run;
    let sim = run.sim();
    let hadoop = matches!(sim, BatchSim::Hadoop(_));
    let ledger = run.ledger();
    let cost = sim.cost();
    let base = run.baseline;
    let send = |m: fn() -> RoomMsg| {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(m()))
    };

    // ---- the header (every room's, `rooms::room_head`): the job, the lesson, link and files ----
    let on_job = {
        let d = d.clone();
        Callback::from(move |e: Event| d.dispatch(RoomMsg::Job(e.target_unchecked_into::<HtmlSelectElement>().value())))
    };
    let lesson_at = state.lesson.as_ref().map(|x| x.step);
    let on_lesson = {
        let d = d.clone();
        Callback::from(move |_| d.dispatch(RoomMsg::Lesson(Some(0))))
    };
    let on_share = {
        let (d, state) = (d.clone(), state.clone());
        Callback::from(move |_| {
            let url = io::share_link(&state, l);
            crate::app::files::copy_to_clipboard(&url, |_| {});
            d.dispatch(RoomMsg::Shared(url));
        })
    };
    let on_export = {
        let state = state.clone();
        Callback::from(move |_| io::export(&state, l))
    };
    let on_import = {
        let d = d.clone();
        Callback::from(move |e: Event| io::import(&e.target_unchecked_into::<HtmlInputElement>(), d.clone()))
    };
    let tools = html! { <>
        <label>{ l.t("Job", "作业") }
            <select id="batch-job" onchange={on_job} aria-label={l.t("Batch job", "批处理作业")}>
                { for BATCH_JOBS.iter().map(|j| html!{ <option value={*j} selected={state.job == *j}>{ job_name(l, j) }</option> }) }
                if state.job.is_empty() { <option value="" selected=true disabled=true>{ job_name(l, "") }</option> }
            </select></label>
        // While the lesson runs, its frame has the way out (✕ Leave the lesson).
        if lesson_at.is_none() {
            <button id="batch-lesson" class="tool" onclick={on_lesson}>{ l.t("▶ Lesson: batch recovery", "▶ 课程：批处理恢复") }</button>
        }
        <button id="batch-share" class="tool" onclick={on_share} title={l.t("Put the batch run in a link", "把批处理运行放进链接")}>{ l.t("↗ Share link", "↗ 分享链接") }</button>
        { export_button("batch-export", l.t("Download the batch run as a JSON file", "把批处理运行下载为 JSON 文件"), on_export, l) }
        { import_button("batch-import", l.t("Import a batch run from a JSON file", "从 JSON 文件导入批处理运行"), false, on_import, l) }
        { state.link.clone().map(|url| html!{
            <input id="batch-share-url" class="share-url" type="text" readonly=true value={url} aria-label={l.t("Link to this batch run", "此批处理运行的链接")} />
        }).unwrap_or_default() }
    </> };
    let head = room_head(Room::Batch, props, tools);

    // ---- the toolbar: back, step, play, to end, reset, timeline, failures ----
    let at_end = run.at == run.len();
    let can_step = !(at_end && sim.done());
    let on_seek = {
        let d = d.clone();
        Callback::from(move |e: InputEvent| {
            if let Ok(v) = e.target_unchecked_into::<HtmlInputElement>().value().parse() {
                d.dispatch(RoomMsg::Seek(v));
            }
        })
    };
    let on_speed = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            d.dispatch(RoomMsg::Speed(e.target_unchecked_into::<HtmlSelectElement>().value().parse().unwrap_or(2)))
        })
    };
    let machines = sim.machines();
    let up = |k: u8| match sim {
        BatchSim::Hadoop(h) => h.nodes[k as usize],
        BatchSim::Spark(_) => true,
    };
    let toolbar = html! {
        <nav class="toolbar" aria-label={l.t("Batch run controls", "批处理运行控制")}>
            <div class="group">
                <button id="batch-back" class="tool" onclick={send(|| RoomMsg::Back)} disabled={run.at == 0} aria-keyshortcuts="ArrowLeft">{ l.t("◀ Back", "◀ 后退") }</button>
                <button id="batch-step" class="tool primary" onclick={send(|| RoomMsg::Step)} disabled={!can_step} aria-keyshortcuts="ArrowRight">
                    { if hadoop { l.t("Step: next task ▶", "单步：下一任务 ▶") } else { l.t("Step: next partition ▶", "单步：下一分区 ▶") } }</button>
                <button id="batch-play" class="tool" onclick={send(|| RoomMsg::TogglePlay)} aria-pressed={state.playing.to_string()} aria-keyshortcuts="Space">
                    { if state.playing { l.t("❚❚ Pause", "❚❚ 暂停") } else { l.t("▷ Play", "▷ 播放") } }</button>
                <button id="batch-end" class="tool" onclick={send(|| RoomMsg::ToEnd)} disabled={!can_step} aria-keyshortcuts="E">{ l.t("⇥ To the end", "⇥ 到结尾") }</button>
                <button id="batch-reset" class="tool" onclick={send(|| RoomMsg::Reset)}>{ l.t("↺ Reset", "↺ 重置") }</button>
                <label class="speed">{ l.t("Speed", "速度") }
                    <select id="batch-speed" onchange={on_speed}>
                        { for (0..SPEEDS.len()).map(|i| html!{ <option value={i.to_string()} selected={state.speed == i}>{ format!("{}×", i + 1) }</option> }) }
                    </select></label>
            </div>
            <div class="group timeline">
                <label for="batch-timeline">{ format!("{} {} / {}", l.t("Step", "步"), run.at, run.len()) }</label>
                <input id="batch-timeline" type="range" min="0" max={run.len().to_string()} value={run.at.to_string()} oninput={on_seek}
                    aria-label={l.t("Timeline", "时间线")} aria-valuetext={format!("{} / {}", run.at, run.len())} />
            </div>
            <div class="group">
                <button id="batch-fail" class="tool danger" onclick={send(|| RoomMsg::Act(BatchAction::FailTask))} disabled={!sim.running()} aria-keyshortcuts="F"
                    title={l.t("The running task's process dies; its machine lives on", "正在运行的任务进程崩溃；它所在的机器还在")}>{ l.t("✗ Fail the task", "✗ 让任务失败") }</button>
                { for (0..machines).map(|k| {
                    let d = d.clone();
                    let label = if hadoop { format!("{} {k}", l.t("✗ Lose node", "✗ 丢失节点")) } else { format!("{} {k}", l.t("✗ Lose executor", "✗ 丢失执行器")) };
                    html!{ <button id={format!("batch-crash-{k}")} class="tool danger" disabled={!up(k)} aria-keyshortcuts={k.to_string()}
                        onclick={Callback::from(move |_| d.dispatch(RoomMsg::Act(BatchAction::Crash(k))))}>{ label }</button> }
                }) }
            </div>
        </nav>
    };

    // ---- the notice ----
    let notice = state.notice.as_ref().map(|n| {
        let (text, bad) = match n {
            Notice::Refused(r) => (refusal(l, *r, hadoop), true),
            Notice::NotOpened(o, e) => (
                match l {
                    Lang::En => format!("Could not open {}: {}", origin_name(l, *o), load_error(l, e)),
                    Lang::Zh => format!("无法打开{}：{}", origin_name(l, *o), load_error(l, e)),
                },
                true,
            ),
            Notice::Opened(o) => (
                match l {
                    Lang::En => format!("Opened the batch run from {}.", origin_name(l, *o)),
                    Lang::Zh => format!("已从{}打开批处理运行。", origin_name(l, *o)),
                },
                false,
            ),
            Notice::NothingToPlay => (l.t("The job is done: nothing to play. Step back, or reset.", "作业已完成：没有可播放的。后退或重置。").to_string(), true),
        };
        html! { <div id="batch-notice" class={classes!("notice", "shown", (!bad).then_some("info"))} role={if bad { "alert" } else { "status" }}>
            <span>{ text }</span>
            <button class="dismiss" onclick={send(|| RoomMsg::Dismiss)} aria-label={l.t("Dismiss", "关闭")}>{ "×" }</button>
        </div> }
    });

    // ---- the lesson ----
    let lesson = state.lesson.as_ref().map(|at| {
        let step = &BATCH_LESSON[at.step];
        let t = |p: (&'static str, &'static str)| l.t(p.0, p.1);
        let go = |to: Option<usize>| {
            let d = d.clone();
            Callback::from(move |_| d.dispatch(RoomMsg::Lesson(to)))
        };
        let last = at.step + 1 == BATCH_LESSON.len();
        let predict = step.predict.then(|| {
            let names: Vec<String> = match sim {
                BatchSim::Spark(s) => (0..s.lineage.rdds.len()).flat_map(|r| (0..s.lineage.partitions[r]).map(move |p| (r, p))).map(|(r, p)| s.lineage.name(r, p)).collect(),
                BatchSim::Hadoop(h) => h.maps.iter().chain(&h.reduces).map(|t| t.name.label()).collect(),
            };
            let answer = step.answer();
            let chips = names.iter().map(|n| {
                let picked = at.prediction.contains(n);
                let right = answer.contains(n);
                let d = d.clone();
                let name = n.clone();
                let mark = match (at.revealed, picked, right) {
                    (false, _, _) => if picked { "☑" } else { "☐" },
                    (true, true, true) => "✓",
                    (true, false, false) => "·",
                    (true, _, _) => "✗",
                };
                html! { <button id={format!("batch-predict-{n}")} class={classes!("predict-chip", picked.then_some("picked"), (at.revealed && right).then_some("answer"))}
                    aria-pressed={picked.to_string()} disabled={at.revealed} data-part={n.clone()}
                    onclick={Callback::from(move |_| d.dispatch(RoomMsg::Predict(name.clone())))}>{ format!("{mark} {n}") }</button> }
            });
            let hits = answer.iter().filter(|a| at.prediction.contains(*a)).count();
            let wrong = at.prediction.iter().filter(|p| !answer.contains(p)).count();
            html! { <div class="batch-predict">
                <p class="predict-help">{ l.t("Pick every partition you think will be computed again:", "选出你认为会被重新计算的每个分区：") }</p>
                <div class="predict-records" role="group" aria-label={l.t("Your prediction", "你的预测")}>{ for chips }</div>
                if at.revealed {
                    <p id="batch-score" class="score-line" role="status">{ format!("{} {} · {} {hits}/{} · {} {wrong}",
                        l.t("Recomputed:", "被重算的："), answer.join(" "), l.t("you found", "你找到"), answer.len(), l.t("wrongly picked:", "误选：")) }</p>
                    <p class="predict-help">{ l.t("Step on to see why.", "继续下一步看原因。") }</p>
                } else {
                    <button id="batch-reveal" class="tool primary" disabled={at.prediction.is_empty()} onclick={send(|| RoomMsg::Reveal)}>{ l.t("Reveal: run to the end", "揭晓：运行到结尾") }</button>
                }
            </div> }
        });
        let streaming = last.then(|| {
            let (page, c) = (page.clone(), props.close.clone());
            let micro = CATALOGUE.iter().position(|x| x.id == "micro-batches");
            let n = micro.map_or(0, |i| i + 1);
            html! { <button id="batch-to-streaming" class="tool primary" onclick={Callback::from(move |_| {
                    if let Some(i) = micro { page.dispatch(Msg::Cmd(Command::StartLesson(i))); }
                    c.emit(());
                })}>{ match l {
                    Lang::En => format!("▶ Streaming: lesson {n}, micro-batches"),
                    Lang::Zh => format!("▶ 流处理：第 {n} 课，微批"),
                } }</button> }
        });
        lesson_frame(LessonFrame {
            section_id: "batch-lesson-bar",
            id: "batch-lesson",
            class: Classes::new(),
            lang: l,
            title: t(LESSON_TITLE).to_string(),
            step_title: Some(t(step.title).to_string()),
            step: at.step,
            steps: BATCH_LESSON.len(),
            head: Html::default(),
            say: html! { t(step.say) },
            body: html! { <>{ predict.unwrap_or_default() }{ streaming.unwrap_or_default() }</> },
            prev: (at.step > 0).then(|| go(Some(at.step - 1))),
            prev_title: None,
            next_label: l.t("Next ▶", "下一步 ▶"),
            next: (!last).then(|| go(Some(at.step + 1))),
            next_title: None,
            next_hint: None,
            exit: Some(go(None)),
            data_lesson: Some("batch"),
            data_revealed: None,
        })
    });

    // ---- storage levels per RDD (Spark) ----
    let keeps = match sim {
        BatchSim::Spark(s) => {
            html! { <div class="batch-keeps" role="group" aria-label={l.t("Where each RDD keeps its partitions", "每个 RDD 把分区保存在哪里")}>
                { for s.lineage.rdds.iter().enumerate().map(|(i, r)| {
                    let d = d.clone();
                    let on = Callback::from(move |e: Event| {
                        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                        d.dispatch(RoomMsg::Keep(i, Keep::from_id(&v).unwrap_or_default()));
                    });
                    html! { <label>{ format!("{} ({})", r.name, r.label) }
                        <select id={format!("batch-keep-{}", r.label)} onchange={on}>
                            { for [Keep::None, Keep::Persist, Keep::Checkpoint].into_iter().map(|k| html!{
                                <option value={k.id()} selected={r.keep == k}>{ keep_name(l, k) }</option> }) }
                        </select></label> }
                }) }
            </div> }
        }
        BatchSim::Hadoop(_) => Html::default(),
    };

    // ---- the verdict: cost and ledger ----
    let written = ledger.rows.iter().filter(|r| !r.written.is_empty()).count();
    let headline = if ledger.exactly_once() {
        l.t("✓ Every word written exactly once", "✓ 每个词都恰好写出一次").to_string()
    } else if ledger.rows.iter().all(|r| matches!(r.verdict, BatchVerdict::ExactlyOnce | BatchVerdict::Pending)) {
        format!(
            "… {written} / {} {}",
            ledger.rows.len(),
            l.t("words written, each once so far", "个词已写出，目前都只一次")
        )
    } else {
        l.t("✗ Some words are not exactly once", "✗ 有的词不是精确一次").to_string()
    };
    let cost_row = |id: &'static str, label: &'static str, now: u32, free: u32| {
        html! {
        <tr id={id}><th scope="row">{ label }</th><td>{ now }</td><td>{ free }</td></tr> }
    };
    let verdict = html! {
        <section class="panel verdict" aria-labelledby="batch-verdict-title">
            <h2 id="batch-verdict-title">{ l.t("What recovery cost", "恢复的代价") }</h2>
            <p id="batch-headline" class={classes!("headline", ledger.exactly_once().then_some("exactly-once"))} data-exactly-once={ledger.exactly_once().to_string()}>{ headline }</p>
            <table id="batch-cost" class="ledger batch-cost">
                <thead><tr><th scope="col">{ l.t("count", "计数") }</th><th scope="col">{ l.t("this run", "本次运行") }</th><th scope="col">{ l.t("failure-free", "无故障") }</th></tr></thead>
                <tbody>
                    { cost_row("batch-cost-tasks", l.t("task runs", "任务运行次数"), cost.task_runs, base.task_runs) }
                    if hadoop {
                        { cost_row("batch-cost-maps", l.t("map runs", "map 运行次数"), cost.map_runs, base.map_runs) }
                        { cost_row("batch-cost-reduces", l.t("reduce runs", "reduce 运行次数"), cost.reduce_runs, base.reduce_runs) }
                        { cost_row("batch-cost-records", l.t("records read again", "重读的记录"), cost.records_recomputed, 0) }
                    } else {
                        { cost_row("batch-cost-computed", l.t("partitions computed", "计算的分区"), cost.partitions_computed, base.partitions_computed) }
                        { cost_row("batch-cost-recomputed", l.t("partitions recomputed", "重算的分区"), cost.partitions_recomputed, 0) }
                        { cost_row("batch-cost-records", l.t("records recomputed", "重算的记录"), cost.records_recomputed, 0) }
                        { cost_row("batch-cost-memory", l.t("read from memory", "从内存读取"), cost.cache_reads, base.cache_reads) }
                        { cost_row("batch-cost-checkpoint", l.t("read from checkpoints", "从检查点读取"), cost.checkpoint_reads, base.checkpoint_reads) }
                        { cost_row("batch-cost-fetch", l.t("FetchFailed", "FetchFailed"), cost.fetch_failures, 0) }
                    }
                </tbody>
            </table>
            <div class="ledger-scroll" tabindex="0" role="region" aria-label={l.t("Ledger of the output words", "输出词账本")}>
                <table id="batch-ledger" class="ledger">
                    <caption class="sr-only">{ l.t("Every output record: written exactly once?", "每条输出记录：是否恰好写出一次？") }</caption>
                    <thead><tr><th scope="col">{ l.t("word", "词") }</th><th scope="col">{ l.t("count", "计数") }</th><th scope="col">{ l.t("written", "写出") }</th><th scope="col">{ l.t("verdict", "判定") }</th></tr></thead>
                    <tbody>{ for ledger.rows.iter().map(|r| {
                        let (mark, word) = verdict_mark(l, r.verdict);
                        html! { <tr data-record={r.key.clone()} data-verdict={r.verdict.id()}>
                            <td>{ r.key.clone() }</td><td>{ r.expected }</td>
                            <td>{ r.written.iter().map(u64::to_string).collect::<Vec<_>>().join(", ") }</td>
                            <td class={classes!("v", r.verdict.id())}>{ format!("{mark} {word}") }</td></tr> }
                    }) }</tbody>
                </table>
            </div>
        </section>
    };

    // ---- the narration: the latest steps first ----
    let narration = html! {
        <section class="panel batch-narration" aria-labelledby="batch-narration-title">
            <h2 id="batch-narration-title">{ l.t("What happened", "发生了什么") }</h2>
            <ol id="batch-narration" class="narration" aria-live="polite">
                { for run.log.iter().enumerate().rev().take(8).map(|(i, evs)| html! {
                    <li><span class="step-no">{ step_no(l, i + 1) }</span>{ " " }<span class="step-action">{ action_name(l, run.actions[i], hadoop) }</span>
                        <ul>{ for evs.iter().map(|e| html!{ <li>{ narrate(l, sim, e) }</li> }) }</ul></li>
                }) }
                if run.log.is_empty() { <li>{ l.t("Nothing has run yet. Step to start the first task.", "还什么都没运行。单步启动第一个任务。") }</li> }
            </ol>
        </section>
    };

    html! {
        <div id="batch-room" class={classes!("app", "batch-room", props.presenter.then_some("presenter"), lesson_at.is_some().then_some("in-lesson"), "tall")}
            lang={if l == Lang::Zh { "zh-Hans" } else { "en" }} data-lang={l.id()} data-presenter={props.presenter.to_string()}
            data-engine={if hadoop { "hadoop" } else { "spark" }} data-step={run.at.to_string()} data-steps={run.len().to_string()} data-ready="true">
            <div class="chrome">{ head }{ toolbar }</div>
            { notice.unwrap_or_default() }
            { lesson.unwrap_or_default() }
            <div class="workspace">
                <div class="canvas-wrap">{ canvas::drawing(run, l) }{ keeps }</div>
                { verdict }
                { narration }
            </div>
        </div>
    }
}
