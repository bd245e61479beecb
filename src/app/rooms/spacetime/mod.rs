//! Room: the space-time diagram of the run on the main screen (issue 15), after Chandy and
//! Lamport's "Distributed Snapshots" (1985) and ShiViz's diagrams of logged runs. One line per
//! task, one arrow per record and barrier (`engine::space_time`), the restore point now as a cut
//! (the engine's own `Sim::latest_cut`), and a cut the learner draws, one point per task line,
//! judged and restored from by `engine::drawn_cut`. The room steps the main run only by
//! dispatching the page's messages, so the diagram and the run stay in step.

mod compared;
mod crossings;
mod drawing;
mod lesson_check;
mod pointer;
mod record_card;
pub mod still;
mod verdict;

use std::rc::Rc;

use yew::prelude::*;

use super::RoomProps;
use crate::app::files::download;
use crate::app::text::Lang;
use crate::app::ui_state::Msg;
use crate::classroom::{Command, OnDiagram};
use crate::engine::space_time::diagram;
use crate::engine::RecordId;
use crate::engine::Strategy;
use compared::{aligned_under, compare_menu, compared_run, ComparedRun};
use crossings::{arrows_kept, current_crossings, current_points, drawn_crossings, judge};
use drawing::{draw, Scene};
use lesson_check::with_lesson_check;
use pointer::{line_callbacks, on_arrow, room_keys};
use record_card::{card_of, RecordCard};
use verdict::{restore_point_words, your_cut};

/// The room, as the page's split point calls it.
pub fn render(props: RoomProps) -> Html {
    html! { <>{ crate::app::rooms::room_head(crate::app::room::Room::SpaceTime, &props, Html::default()) }<SpaceTimeRoom ..props /></> }
}

#[component]
fn SpaceTimeRoom(props: &RoomProps) -> Html {
    let l = props.lang;
    let d = use_memo(props.run.clone(), |run| diagram(&run.session().timeline));
    let session = props.run.session();
    let tl = &session.timeline;
    let sim = session.sim();
    let g = &sim.graph;
    let pos = tl.position() as u64;
    let n = g.tasks.len();
    let points = use_state(|| vec![None::<u64>; n]);
    let cursor = use_state(|| None::<(usize, u64)>);
    let hovered = use_state(|| None::<RecordId>);
    let zoom = use_state(|| 0u32);
    let pts: Vec<Option<u64>> = if points.len() == n { (*points).clone() } else { vec![None; n] };
    // The drawn cut, once every line has its point.
    let all: Option<Vec<u64>> = pts.iter().copied().collect();
    let judged = use_memo((props.run.clone(), all.clone()), |(run, all)| {
        all.as_ref().map(|p| judge(&run.session().timeline, p))
    });
    // "Compare with": the same moves under another strategy, aligned by what happened
    // (`engine::run_alignment`) and drawn on this run's steps.
    let compare = use_state(|| None::<Strategy>);
    let points2 = use_state(|| vec![None::<u64>; n]);
    let cursor2 = use_state(|| None::<(usize, u64)>);
    let compared = use_memo((props.run.clone(), *compare), |(run, with)| {
        let with = (*with)?;
        Some(aligned_under(&run.session(), with))
    });
    let pts2: Vec<Option<u64>> = if points2.len() == n { (*points2).clone() } else { vec![None; n] };
    let all2: Option<Vec<u64>> = pts2.iter().copied().collect();
    let judged2 = use_memo((Same(compared.clone()), all2.clone()), |(compared, all)| {
        let (al, _) = compared.0.as_ref().as_ref()?.as_ref().ok()?;
        let p: Vec<u64> = all.as_ref()?.iter().map(|&p| al.second_point(p)).collect();
        Some(judge(&al.second, &p))
    });
    let current = sim.latest_cut();
    let cur_pts = current.as_ref().map(current_points);
    let cur_cross = current_crossings(&d, current.as_ref(), cur_pts.as_deref());
    let drawn_cross = drawn_crossings(&d, &judged, &pts);
    // The steps in view: the whole run, or a window around the playhead.
    let total = (tl.len() as u64).max(10);
    let span = (total >> *zoom).max(10);
    let from = pos.saturating_sub(span / 2).min(total - span);
    let to = from + span;
    let keep = arrows_kept(&d, &cur_cross, &drawn_cross, *hovered, from, to, props.presenter);
    let labels: Vec<String> = g.records.iter().map(|r| r.label.clone()).collect();
    let in_view =
        d.messages.iter().filter(|m| m.sent_at <= pos.min(to) && m.received_at.is_none_or(|r| r >= from)).count();
    let drawn_n = keep.iter().zip(&d.messages).filter(|(k, m)| **k && m.sent_at <= pos).count();

    let dispatch = props.dispatch.clone();
    let cmd = move |c: Command| {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(c.clone())))
    };
    let on_hover = {
        let h = hovered.clone();
        Callback::from(move |r: Option<RecordId>| h.set(r))
    };
    let presenter = props.presenter;
    let scene_for_click = Rc::new((from, to, pos));
    let (on_line, on_line_key) =
        line_callbacks(&points, &cursor, "st-svg", d.clone(), presenter, scene_for_click.clone(), n);
    // In a lesson's drawing step a click on an arrow is a click on the line under it: arrows cover
    // much of a line, and the learner is setting points, not moving the run (which would leave
    // the lesson). Anywhere else a click on an arrow moves the run to it.
    let drawing_step = session.lesson.as_ref().is_some_and(|p| p.current().diagram == OnDiagram::Draw);
    let on_arrow = on_arrow(drawing_step, &on_line, "st-line-", &props.dispatch, d.clone(), pos);
    // The room's own keys: ← and → step the run (on a task line they move its point instead).
    let on_key = room_keys(props.dispatch.clone());
    let scene = Scene {
        id: "st",
        d: &d,
        labels: &labels,
        lang: l,
        presenter,
        pos,
        from,
        to,
        keep: &keep,
        current: &cur_cross,
        drawn: &drawn_cross,
        current_cut: cur_pts.as_deref(),
        drawn_cut: &pts,
        cursor: *cursor,
        hovered: *hovered,
        on_hover: on_hover.clone(),
        on_arrow,
        on_line,
        on_line_key,
        differs: &[],
        still: false,
    };
    let (svg, hidden) = draw(&scene);
    let second = compared_run(ComparedRun {
        compared: &compared,
        compare: *compare,
        judged2: &judged2,
        pts2: &pts2,
        points2: &points2,
        cursor2: &cursor2,
        hovered: *hovered,
        on_hover: &on_hover,
        labels: &labels,
        scene_for_click: &scene_for_click,
        dispatch: &props.dispatch,
        lang: l,
        presenter: props.presenter,
        drawing_step,
        pos,
        from,
        to,
        n,
    });
    let compare_menu = compare_menu(l, sim.strategy(), &compare, &points2, n);
    let set = pts.iter().filter(|p| p.is_some()).count();
    let verdict = your_cut(&judged, set, n, *hovered, &on_hover, l);
    // In lesson 14's drawing step: predict, then check (the verdict shows only after the
    // prediction), until a cut is consistent.
    let resume = cmd(Command::LessonResume);
    let verdict = with_lesson_check(
        verdict,
        session.lesson.as_ref(),
        session.took_over,
        &judged,
        &all,
        resume,
        &props.dispatch,
        l,
    );
    let current_text = restore_point_words(current.as_ref(), l);
    let card = hovered.and_then(|r| card_of(&session, &d, r, l));
    let thinned = in_view.saturating_sub(drawn_n);
    let steps = tl.len();
    html! {
        <div class="room-body spacetime" onkeydown={on_key}>
            { controls(Toolbar { cmd: &cmd, l, pos, steps, span, zoom: &zoom, points: &points, cursor: &cursor, n, set, compare_menu }) }
            <div class="st-figure">{ svg }</div>
            { legend(l) }
            <p id="st-current">{ current_text }</p>
            <RecordCard lang={l} hovered={card} />
            if thinned > 0 || hidden > 0 {
                <p id="st-thinned" class="st-note">{ thinned_words(l, thinned, in_view, hidden) }</p>
            }
            { verdict }
            { second }
        </div>
    }
}

/// A memo's value as a key of another memo: the same while it is the same value.
struct Same<T>(Rc<T>);

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// ↓ SVG for slides: the diagram as drawn, a file named for step `pos`.
fn svg_download(pos: u64) -> Callback<MouseEvent> {
    let name = format!("barrierscope-spacetime-step-{pos}.svg");
    Callback::from(move |_: MouseEvent| {
        let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("st-svg")) else {
            return;
        };
        let text = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}", el.outer_html());
        download(&name, "image/svg+xml", &text);
    })
}

/// The room's toolbar: what it is drawn from.
struct Toolbar<'a, C: Fn(Command) -> Callback<MouseEvent>> {
    cmd: &'a C,
    l: Lang,
    pos: u64,
    steps: usize,
    span: u64,
    zoom: &'a UseStateHandle<u32>,
    points: &'a UseStateHandle<Vec<Option<u64>>>,
    cursor: &'a UseStateHandle<Option<(usize, u64)>>,
    n: usize,
    set: usize,
    compare_menu: Html,
}

/// The room's toolbar: step back, step, to the end, the step number, zoom in and out, clear the
/// drawn cut, the SVG for slides, and the menu of a run to compare with.
fn controls<C: Fn(Command) -> Callback<MouseEvent>>(t: Toolbar<C>) -> Html {
    let Toolbar { cmd, l, pos, steps, span, zoom, points, cursor, n, set, compare_menu } = t;
    let on_svg = svg_download(pos);
    let clear = {
        let (points, cursor) = (points.clone(), cursor.clone());
        Callback::from(move |_: MouseEvent| {
            points.set(vec![None; n]);
            cursor.set(None);
        })
    };
    let zoom_by = |dz: i32| {
        let zoom = zoom.clone();
        Callback::from(move |_: MouseEvent| zoom.set((*zoom as i32 + dz).clamp(0, 6) as u32))
    };
    html! {
        <div class="room-actions st-controls">
            <button id="st-back" class="tool" onclick={cmd(Command::Back)} aria-keyshortcuts="ArrowLeft">{ l.t("◀ Step back", "◀ 后退一步") }</button>
            <button id="st-step" class="tool primary" data-autofocus="true" onclick={cmd(Command::Forward)} aria-keyshortcuts="ArrowRight">{ l.t("Step ▶", "前进一步 ▶") }</button>
            <button id="st-end" class="tool" onclick={cmd(Command::ToEnd)} aria-keyshortcuts="E">{ l.t("⇥ To the end", "⇥ 到结束") }</button>
            <span class="st-stepno" id="st-stepno">{ match l { Lang::En => format!("step {pos} of {steps}"), Lang::Zh => format!("第 {pos} 步，共 {steps} 步") } }</span>
            <button id="st-zoom-in" class="tool" onclick={zoom_by(1)} disabled={span <= 10}>{ l.t("＋ Zoom in", "＋ 放大") }</button>
            <button id="st-zoom-out" class="tool" onclick={zoom_by(-1)} disabled={**zoom == 0}>{ l.t("－ Whole run", "－ 缩小") }</button>
            <button id="st-clear" class="tool" onclick={clear} disabled={set == 0}>{ l.t("✕ Clear my cut", "✕ 清除我的切面") }</button>
            <button id="st-svg-download" class="tool" onclick={on_svg}>{ l.t("↓ SVG for slides", "↓ SVG（用于幻灯片）") }</button>
            { compare_menu }
        </div>
    }
}

/// The marks of the diagram, in words.
fn legend(l: Lang) -> Html {
    html! {
        <p class="st-legend" id="st-legend">
            <span>{ l.t("◉ save · ✖ crash (the line breaks) · ⟳ restore (a new segment) · ▮n barrier of checkpoint n · a letter: a record, coloured by key · dotted: not received yet",
                        "◉ 保存 · ✖ 崩溃（线断开）· ⟳ 恢复（新的一段）· ▮n 检查点 n 的屏障 · 字母：记录，按键着色 · 点线：尚未接收") }</span>
            <span class="orphan">{ l.t(" · ⊕ orphan (thick red)", " · ⊕ 孤儿消息（红色粗线）") }</span>
            <span class="in-transit">{ l.t(" · ✗ in transit (thick dashed orange)", " · ✗ 在途（橙色粗虚线）") }</span>
        </p>
    }
}

/// Under the diagram when arrows or labels are left out so that none overlaps.
fn thinned_words(l: Lang, thinned: usize, in_view: usize, hidden: usize) -> String {
    match l {
        Lang::En => format!("{thinned} of {in_view} arrows in view are thinned out and {hidden} labels left out so that none overlaps: zoom in to see them all."),
        Lang::Zh => format!("视野中 {in_view} 个箭头有 {thinned} 个被稀疏省略、{hidden} 个标签被省略以免重叠：放大即可全部看到。"),
    }
}
