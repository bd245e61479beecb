//! Room: the space-time diagram of the run on the main screen (issue 15), after Chandy and
//! Lamport's "Distributed Snapshots" (1985) and ShiViz's diagrams of logged runs. One line per
//! task, one arrow per record and barrier (`engine::space_time`), the restore point now as a cut
//! (the engine's own `Sim::latest_cut`), and a cut the learner draws, one point per task line,
//! judged and restored from by `engine::drawn_cut`. The room steps the main run only by
//! dispatching the page's messages, so the diagram and the run stay in step.

mod drawing;
mod record_card;
pub mod still;
mod verdict;

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::RoomProps;
use crate::app::files::download;
use crate::app::text::strategy_name;
use crate::app::text::Lang;
use crate::app::ui_state::Msg;
use crate::classroom::{Command, CutAttempt, OnDiagram};
use crate::engine::drawn_cut::{classify, restore_from};
use crate::engine::run_alignment::align;
use crate::engine::space_time::{diagram, thin, Diagram, Message};
use crate::engine::Strategy;
use crate::engine::{Crossing, CutReport, RecordId};
use drawing::{draw, Scene, W};
use record_card::{record_story, RecordCard};
use verdict::{error_text, CutVerdict};

/// The room, as the page's split point calls it.
pub fn render(props: RoomProps) -> Html {
    html! { <>{ crate::app::rooms::room_head(crate::app::room::Room::SpaceTime, &props, Html::default()) }<SpaceTimeRoom ..props /></> }
}

/// At most this many arrows are drawn in view (all barriers and marked arrows always are).
const MAX_ARROWS: usize = 80;
/// The copy restored from a drawn cut runs at most this many steps to its end.
const RESTORE_LIMIT: usize = 20_000;

/// How each message crosses a cut of points: orphan (sent after the sender's point, received at
/// or before the receiver's) or in transit (sent at or before the sender's point, received after
/// the receiver's or never), for the records `named` on their channel (None: every record).
fn crossings(d: &Diagram, pts: &[Option<u64>], named: impl Fn(&Message, Crossing) -> bool) -> Vec<Option<Crossing>> {
    d.messages
        .iter()
        .map(|m| {
            m.record()?;
            let (ps, pr) = (pts.get(m.from.index()).copied().flatten()?, pts.get(m.to.index()).copied().flatten()?);
            let c = if m.sent_at > ps && m.received_at.is_some_and(|r| r <= pr) {
                Crossing::Orphan
            } else if m.sent_at <= ps && m.received_at.is_none_or(|r| r > pr) {
                Crossing::InTransit
            } else {
                return None;
            };
            named(m, c).then_some(c)
        })
        .collect()
}

/// The current cut's points (a save at tick k ends step k + 1) and whether the engine names
/// `m`'s record on its channel as crossing it.
fn current_points(cut: &CutReport) -> Vec<Option<u64>> {
    cut.taken_at.iter().map(|t| t.map(|t| t + 1)).collect()
}

fn named_in(cut: &CutReport, m: &Message, c: Crossing) -> bool {
    let Some(r) = m.record() else { return false };
    cut.channels.iter().any(|cc| {
        cc.channel == m.channel
            && match c {
                Crossing::Orphan => cc.orphans.contains(&r),
                Crossing::InTransit => cc.in_transit.contains(&r),
            }
    })
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
        all.as_ref().map(|p| {
            let tl = &run.session().timeline;
            let cut = classify(tl, p);
            let restore = cut.is_ok().then(|| restore_from(tl, p, RESTORE_LIMIT).map(|(_, r)| r));
            (cut, restore)
        })
    });
    // "Compare with": the same moves under another strategy, aligned by what happened
    // (`engine::run_alignment`) and drawn on this run's steps.
    let compare = use_state(|| None::<Strategy>);
    let points2 = use_state(|| vec![None::<u64>; n]);
    let cursor2 = use_state(|| None::<(usize, u64)>);
    let compared = use_memo((props.run.clone(), *compare), |(run, with)| {
        let with = (*with)?;
        let session = run.session();
        let mut config = session.config.clone();
        config.settings.strategy = with;
        Some(config.scenario().sim().map_err(|e| e.to_string()).map(|start| {
            let mut al = align(&session.timeline, start);
            let drawn = al.second_on_first_steps(&diagram(&al.second));
            let at = al.second_point(session.timeline.position() as u64);
            al.second.seek(at as usize);
            (al, drawn)
        }))
    });
    let pts2: Vec<Option<u64>> = if points2.len() == n { (*points2).clone() } else { vec![None; n] };
    let all2: Option<Vec<u64>> = pts2.iter().copied().collect();
    let judged2 = use_memo((Same(compared.clone()), all2.clone()), |(compared, all)| {
        let (al, _) = compared.0.as_ref().as_ref()?.as_ref().ok()?;
        let p: Vec<u64> = all.as_ref()?.iter().map(|&p| al.second_point(p)).collect();
        let cut = classify(&al.second, &p);
        let restore = cut.is_ok().then(|| restore_from(&al.second, &p, RESTORE_LIMIT).map(|(_, r)| r));
        Some((cut, restore))
    });
    let current = sim.latest_cut();
    let cur_pts = current.as_ref().map(current_points);
    let cur_cross = match &current {
        Some(c) => crossings(&d, cur_pts.as_deref().unwrap_or(&[]), |m, x| named_in(c, m, x)),
        None => vec![None; d.messages.len()],
    };
    let drawn_cross = match &*judged {
        Some((Ok(cut), _)) => {
            let named = |m: &Message, _| {
                cut.arrows
                    .iter()
                    .any(|a| a.channel == m.channel && Some(a.record) == m.record() && a.sent_at == Some(m.sent_at))
            };
            crossings(&d, &pts, named)
        }
        _ => vec![None; d.messages.len()],
    };
    // The steps in view: the whole run, or a window around the playhead.
    let total = (tl.len() as u64).max(10);
    let span = (total >> *zoom).max(10);
    let from = pos.saturating_sub(span / 2).min(total - span);
    let to = from + span;
    let must: Vec<bool> = (0..d.messages.len())
        .map(|i| {
            cur_cross[i].is_some()
                || drawn_cross[i].is_some()
                || (d.messages[i].record().is_some() && d.messages[i].record() == *hovered)
        })
        .collect();
    let keep = thin(&d, from, to, &must, if props.presenter { MAX_ARROWS / 2 } else { MAX_ARROWS });
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
    let on_arrow = if drawing_step {
        through_to_line(on_line.clone(), "st-line-")
    } else {
        seek_on_arrow(props.dispatch.clone(), d.clone(), pos)
    };
    // The room's own keys: ← and → step the run (on a task line they move its point instead).
    let on_key = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            let on_field = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|el| {
                matches!(el.tag_name().to_ascii_lowercase().as_str(), "input" | "select" | "textarea")
            });
            if on_field || e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let c = match e.key().as_str() {
                "ArrowRight" => Command::Forward,
                "ArrowLeft" => Command::Back,
                "e" | "E" => Command::ToEnd,
                _ => return,
            };
            e.prevent_default();
            dispatch.dispatch(Msg::Cmd(c));
        })
    };
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
    let second = match compared.as_ref() {
        None => html! {},
        Some(Err(e)) => html! { <p id="st2-refused" class="refused" role="status">{ match l {
            Lang::En => format!("This input can't run under {}: {e}", strategy_name(l, compare.unwrap_or(Strategy::Timers))),
            Lang::Zh => format!("这个输入不能在{}下运行：{e}", strategy_name(l, compare.unwrap_or(Strategy::Timers))),
        } }</p> },
        Some(Ok((al, d2))) => {
            let sim2 = al.second.current();
            let cur2 = sim2.latest_cut();
            let cur_pts2: Option<Vec<Option<u64>>> =
                cur2.as_ref().map(|c| current_points(c).into_iter().map(|p| p.map(|p| al.on_first_steps(p))).collect());
            let cur_cross2 = match &cur2 {
                Some(c) => crossings(d2, cur_pts2.as_deref().unwrap_or(&[]), |m, x| named_in(c, m, x)),
                None => vec![None; d2.messages.len()],
            };
            let drawn_cross2 = match &*judged2 {
                Some((Ok(cut), _)) => {
                    let named = |m: &Message, _| {
                        cut.arrows.iter().any(|a| {
                            a.channel == m.channel
                                && Some(a.record) == m.record()
                                && a.sent_at.map(|s| al.on_first_steps(s)) == Some(m.sent_at)
                        })
                    };
                    crossings(d2, &pts2, named)
                }
                _ => vec![None; d2.messages.len()],
            };
            let must2: Vec<bool> = (0..d2.messages.len())
                .map(|i| {
                    cur_cross2[i].is_some()
                        || drawn_cross2[i].is_some()
                        || (d2.messages[i].record().is_some() && d2.messages[i].record() == *hovered)
                })
                .collect();
            let keep2 = thin(d2, from, to, &must2, if props.presenter { MAX_ARROWS / 2 } else { MAX_ARROWS });
            let differs: Vec<u64> = al.first_only().into_iter().filter(|&f| f <= pos).collect();
            let (on_line2, on_line_key2) = line_callbacks(
                &points2,
                &cursor2,
                "st2-svg",
                Rc::new(d2.clone()),
                props.presenter,
                scene_for_click.clone(),
                n,
            );
            // Clicking an arrow moves the run to its send (then to its receipt), as on the first.
            let on_arrow2 = if drawing_step {
                through_to_line(on_line2.clone(), "st2-line-")
            } else {
                seek_on_arrow(props.dispatch.clone(), Rc::new(d2.clone()), pos)
            };
            let scene2 = Scene {
                id: "st2",
                d: d2,
                labels: &labels,
                lang: l,
                presenter,
                pos,
                from,
                to,
                keep: &keep2,
                current: &cur_cross2,
                drawn: &drawn_cross2,
                current_cut: cur_pts2.as_deref(),
                drawn_cut: &pts2,
                cursor: *cursor2,
                hovered: *hovered,
                on_hover: on_hover.clone(),
                on_arrow: on_arrow2,
                on_line: on_line2,
                on_line_key: on_line_key2,
                differs: &differs,
                still: false,
            };
            let (svg2, _) = draw(&scene2);
            let with = strategy_name(l, compare.unwrap_or(Strategy::Timers));
            let ne = if differs.is_empty() {
                l.t(
                    "No ≠: up to here the other run took every move this one took.",
                    "没有 ≠：到这里为止，另一次运行执行了这次运行的每一步。",
                )
                .to_string()
            } else {
                let list = differs.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
                match l {
                    Lang::En => format!("≠ at steps {list}: moves the run under {with} refused or could not take (their item is not there); it did not wait in their place, so the same record arrives in the same column in both."),
                    Lang::Zh => format!("≠ 在第 {list} 步：{with}下的运行拒绝了这些操作，或者无法执行（要投递的数据不在那里）；它没有用等待来补位，所以同一条记录在两张图里出现在同一列。"),
                }
            };
            let set2 = pts2.iter().filter(|p| p.is_some()).count();
            let verdict2 = match &*judged2 {
                None => html! { <p id="st2-verdict" class="st-verdict pending" role="status">{ match l {
                    Lang::En => format!("You can draw a cut on this diagram too: one point on each line ({set2} of {n} set)."),
                    Lang::Zh => format!("这张图上也可以画切面：每条线一个点（已设 {set2} / {n}）。"),
                } }</p> },
                Some((cut, restore)) => {
                    // Its steps as the diagram draws them: on the first run's steps.
                    let on = |s: u64| al.on_first_steps(s);
                    let cut = cut.clone().map_err(|e| error_text(l, &e)).map(|mut c| {
                        for a in &mut c.arrows {
                            a.sent_at = a.sent_at.map(on);
                            a.received_at = a.received_at.map(on);
                        }
                        c
                    });
                    let restore = restore.clone().map(|r| {
                        r.map_err(|e| error_text(l, &e)).map(|mut r| {
                            r.crashed_after = on(r.crashed_after);
                            r
                        })
                    });
                    html! { <CutVerdict id="st2" lang={l} {cut} {restore} hovered={*hovered} on_hover={on_hover.clone()} /> }
                }
            };
            let clear2 = {
                let (points2, cursor2) = (points2.clone(), cursor2.clone());
                Callback::from(move |_: MouseEvent| {
                    points2.set(vec![None; n]);
                    cursor2.set(None);
                })
            };
            html! {
                <section id="st-compared" class="st-compared" aria-label={l.t("The compared run", "对比的运行")} data-differs={differs.len().to_string()}>
                    <h3>{ match l {
                        Lang::En => format!("The same moves under {with}, aligned by what happened"),
                        Lang::Zh => format!("同样的操作在{with}下，按发生的事情对齐"),
                    } }</h3>
                    <div class="st-figure">{ svg2 }</div>
                    <p id="st2-ne" class="st-note">{ ne }</p>
                    <button id="st2-clear" class="tool" onclick={clear2} disabled={set2 == 0}
                        title={if set2 == 0 { l.t("No point set on this diagram yet", "这张图上还没有设点") } else { "" }}>{ l.t("✕ Clear this cut", "✕ 清除这个切面") }</button>
                    { verdict2 }
                </section>
            }
        }
    };
    let on_compare = {
        let (compare, points2) = (compare.clone(), points2.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            compare.set(Strategy::from_id(&v));
            points2.set(vec![None; n]);
        })
    };
    let own = sim.strategy();
    let compare_menu = html! {
        <label class="st-compare">{ l.t("Compare with ", "对比：") }
            <select id="st-compare" onchange={on_compare} aria-label={l.t("Compare with the same moves under another strategy", "与另一种策略下的同样操作对比")}>
                <option value="none" selected={compare.is_none()}>{ l.t("nothing", "不对比") }</option>
                { for Strategy::ALL.into_iter().filter(|&x| x != own && x.row().restores_snapshots).map(|x| html! {
                    <option value={x.id()} selected={*compare == Some(x)}>{ strategy_name(l, x) }</option> }) }
            </select>
        </label>
    };
    let on_svg = {
        let name = format!("barrierscope-spacetime-step-{pos}.svg");
        Callback::from(move |_: MouseEvent| {
            let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("st-svg"))
            else {
                return;
            };
            let text = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}", el.outer_html());
            download(&name, "image/svg+xml", &text);
        })
    };
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
    let set = pts.iter().filter(|p| p.is_some()).count();
    let verdict = match &*judged {
        None => html! {
            <p id="st-verdict" class="st-verdict pending" role="status" aria-live="polite">{ match l {
                Lang::En => format!("Draw your own cut: click one point on each task line, or Tab to a line, move with ← →, and press Enter. {set} of {n} set."),
                Lang::Zh => format!("画出你自己的切面：在每条任务线上点一个点，或按 Tab 到一条线，用 ← → 移动，按 Enter 确定。已设 {set} / {n}。"),
            } }</p>
        },
        Some((cut, restore)) => {
            let cut = cut.clone().map_err(|e| error_text(l, &e));
            let restore = restore.clone().map(|r| r.map_err(|e| error_text(l, &e)));
            html! { <CutVerdict id="st" lang={l} {cut} {restore} hovered={*hovered} on_hover={on_hover.clone()} /> }
        }
    };
    // In lesson 14's drawing step: predict, then check (the verdict shows only after the
    // prediction), until a cut is consistent.
    let drawing = session.lesson.as_ref().filter(|p| p.current().diagram == OnDiagram::Draw);
    let verdict = match (drawing, &*judged, &all) {
        (Some(_), _, _) if session.took_over => html! {
            <>
                <div id="st-lesson" class="st-lesson" role="status">
                    <p>{ l.t(
                        "You moved the run, so the lesson does not check cuts now: go back to the lesson's run to draw and check cuts.",
                        "你移动了运行，所以课程现在不检查切面：回到课程的运行，再画切面并检查。") }</p>
                    <button id="st-lesson-resume" class="tool primary" onclick={cmd(Command::LessonResume)}>{ l.t("↩ Back to the lesson", "↩ 回到课程") }</button>
                </div>
                { verdict }
            </>
        },
        (Some(p), Some((Ok(cut), _)), Some(points)) => {
            let checked = p.cuts.iter().find(|c| &c.points == points);
            let guess = |consistent: bool| {
                let d = props.dispatch.clone();
                let attempt = CutAttempt {
                    points: points.clone(),
                    predicted_consistent: consistent,
                    consistent: cut.consistent(),
                    crossing: cut.arrows.len(),
                };
                Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::CheckCut(attempt.clone()))))
            };
            let (r, total) = p.cut_score();
            match checked {
                None => html! {
                    <div id="st-lesson" class="st-lesson" role="group" aria-label={l.t("Your prediction", "你的预测")}>
                        <p>{ l.t("Predict before the check: is your cut consistent?", "检查之前先预测：你的切面一致吗？") }</p>
                        <div class="st-guess">
                            <button id="st-guess-consistent" class="tool" onclick={guess(true)}>{ l.t("✓ Consistent", "✓ 一致") }</button>
                            <button id="st-guess-inconsistent" class="tool" onclick={guess(false)}>{ l.t("✗ Inconsistent", "✗ 不一致") }</button>
                        </div>
                    </div>
                },
                Some(c) => {
                    let said = match (c.predicted_consistent, l) {
                        (true, Lang::En) => "consistent",
                        (false, Lang::En) => "inconsistent",
                        (true, Lang::Zh) => "一致",
                        (false, Lang::Zh) => "不一致",
                    };
                    let line = match l {
                        Lang::En => format!(
                            "You predicted {said}: {}. Right {r} of {total} {} checked.",
                            if c.right() { "right ✔" } else { "wrong ✘" },
                            if total == 1 { "cut" } else { "cuts" }
                        ),
                        Lang::Zh => format!(
                            "你预测的是{said}：{}。已检查 {total} 个切面，预测对了 {r} 个。",
                            if c.right() { "对了 ✔" } else { "错了 ✘" }
                        ),
                    };
                    let then = if p.cut_found() {
                        l.t(
                            "✓ You drew a consistent cut: go on with Next ▶ in the lesson above.",
                            "✓ 你画出了一个一致的切面：请按上方课程中的“下一步 ▶”继续。",
                        )
                    } else {
                        l.t(
                            "Not consistent yet: move a point, or clear your cut, and draw another.",
                            "还不一致：移动一个点，或清除切面，再画一个。",
                        )
                    };
                    html! {
                        <>
                            <div id="st-lesson" class="st-lesson" role="status" aria-live="polite" data-right={c.right().to_string()}>
                                <p class={if c.right() { "right" } else { "wrong" }}>{ line }</p>
                                <p>{ then }</p>
                            </div>
                            { verdict }
                        </>
                    }
                }
            }
        }
        _ => verdict,
    };
    let current_text = match &current {
        None => {
            l.t("No restore point yet: no task has saved its state.", "还没有恢复点：没有任务保存过状态。").to_string()
        }
        Some(c) => {
            let (o, t) = (c.orphans().len(), c.in_transit().len());
            match l {
                Lang::En => format!("The solid purple line is the restore point now (the saves a restore would use): {o} ⊕ orphan, {t} ✗ in transit."),
                Lang::Zh => format!("紫色实线是现在的恢复点（恢复会用到的快照）：{o} 条 ⊕ 孤儿消息，{t} 条 ✗ 在途。"),
            }
        }
    };
    let card = hovered.and_then(|r| {
        let ledger = sim.ledger();
        let row = ledger.rows.iter().find(|x| x.record == r)?;
        let story = record_story(&session, &d, r, l);
        Some((row.label.clone(), row.state, row.expected_state, row.state_verdict, sim.down().is_some(), story))
    });
    let thinned = in_view.saturating_sub(drawn_n);
    let steps = tl.len();
    html! {
        <div class="room-body spacetime" onkeydown={on_key}>
            <div class="room-actions st-controls">
                <button id="st-back" class="tool" onclick={cmd(Command::Back)} aria-keyshortcuts="ArrowLeft">{ l.t("◀ Step back", "◀ 后退一步") }</button>
                <button id="st-step" class="tool primary" data-autofocus="true" onclick={cmd(Command::Forward)} aria-keyshortcuts="ArrowRight">{ l.t("Step ▶", "前进一步 ▶") }</button>
                <button id="st-end" class="tool" onclick={cmd(Command::ToEnd)} aria-keyshortcuts="E">{ l.t("⇥ To the end", "⇥ 到结束") }</button>
                <span class="st-stepno" id="st-stepno">{ match l { Lang::En => format!("step {pos} of {steps}"), Lang::Zh => format!("第 {pos} 步，共 {steps} 步") } }</span>
                <button id="st-zoom-in" class="tool" onclick={zoom_by(1)} disabled={span <= 10}>{ l.t("＋ Zoom in", "＋ 放大") }</button>
                <button id="st-zoom-out" class="tool" onclick={zoom_by(-1)} disabled={*zoom == 0}>{ l.t("－ Whole run", "－ 缩小") }</button>
                <button id="st-clear" class="tool" onclick={clear} disabled={set == 0}>{ l.t("✕ Clear my cut", "✕ 清除我的切面") }</button>
                <button id="st-svg-download" class="tool" onclick={on_svg}>{ l.t("↓ SVG for slides", "↓ SVG（用于幻灯片）") }</button>
                { compare_menu }
            </div>
            <div class="st-figure">{ svg }</div>
            <p class="st-legend" id="st-legend">
                <span>{ l.t("◉ save · ✖ crash (the line breaks) · ⟳ restore (a new segment) · ▮n barrier of checkpoint n · a letter: a record, coloured by key · dotted: not received yet",
                            "◉ 保存 · ✖ 崩溃（线断开）· ⟳ 恢复（新的一段）· ▮n 检查点 n 的屏障 · 字母：记录，按键着色 · 点线：尚未接收") }</span>
                <span class="orphan">{ l.t(" · ⊕ orphan (thick red)", " · ⊕ 孤儿消息（红色粗线）") }</span>
                <span class="in-transit">{ l.t(" · ✗ in transit (thick dashed orange)", " · ✗ 在途（橙色粗虚线）") }</span>
            </p>
            <p id="st-current">{ current_text }</p>
            <RecordCard lang={l} hovered={card} />
            if thinned > 0 || hidden > 0 {
                <p id="st-thinned" class="st-note">{ match l {
                    Lang::En => format!("{thinned} of {in_view} arrows in view are thinned out and {hidden} labels left out so that none overlaps: zoom in to see them all."),
                    Lang::Zh => format!("视野中 {in_view} 个箭头有 {thinned} 个被稀疏省略、{hidden} 个标签被省略以免重叠：放大即可全部看到。"),
                } }</p>
            }
            { verdict }
            { second }
        </div>
    }
}

/// A click on arrow `i` of `d` moves the run to its send; clicked again there (`pos`), to its
/// receipt.
fn seek_on_arrow(dispatch: crate::app::ui_state::Dispatch, d: Rc<Diagram>, pos: u64) -> Callback<(usize, MouseEvent)> {
    Callback::from(move |(i, _): (usize, MouseEvent)| {
        let m = d.messages[i];
        let to = match m.received_at {
            Some(r) if pos == m.sent_at => r,
            _ => m.sent_at,
        };
        dispatch.dispatch(Msg::Cmd(Command::Seek(to as usize)));
    })
}

/// A click on an arrow handed to the task line under the pointer (the line's hit area, whose id
/// starts with `prefix`), as if the arrow were not there; a click between lines does nothing.
fn through_to_line(on_line: Callback<(usize, MouseEvent)>, prefix: &'static str) -> Callback<(usize, MouseEvent)> {
    Callback::from(move |(_, e): (usize, MouseEvent)| {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        let under = doc.elements_from_point(e.client_x() as f32, e.client_y() as f32);
        let line = under
            .iter()
            .filter_map(|el| el.dyn_into::<web_sys::Element>().ok())
            .find_map(|el| el.id().strip_prefix(prefix).and_then(|t| t.parse::<usize>().ok()));
        if let Some(t) = line {
            on_line.emit((t, e));
        }
    })
}

/// A drawing's task lines as controls: a click sets the line's point at the step under the
/// pointer; on a focused line ← → (PageUp / PageDown by 10, Home, End) move the cursor and Enter
/// or Space set the point. `svg` is the drawing's element id.
fn line_callbacks(
    points: &UseStateHandle<Vec<Option<u64>>>,
    cursor: &UseStateHandle<Option<(usize, u64)>>,
    svg: &'static str,
    d: Rc<Diagram>,
    presenter: bool,
    sc: Rc<(u64, u64, u64)>,
    n: usize,
) -> (Callback<(usize, MouseEvent)>, Callback<(usize, KeyboardEvent)>) {
    let pos = sc.2;
    let pts: Vec<Option<u64>> = if points.len() == n { (**points).clone() } else { vec![None; n] };
    let set_point = {
        let points = points.clone();
        move |t: usize, p: u64| {
            let mut v = if points.len() == n { (*points).clone() } else { vec![None; n] };
            v[t] = Some(p);
            points.set(v);
        }
    };
    let on_line = {
        let set_point = set_point.clone();
        let cursor = cursor.clone();
        Callback::from(move |(t, e): (usize, MouseEvent)| {
            let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|doc| doc.get_element_by_id(svg))
            else {
                return;
            };
            let rect = el.get_bounding_client_rect();
            let x = (e.client_x() as f64 - rect.left()) * W / rect.width().max(1.0);
            let (from, to, pos) = *sc;
            let p = step_scene(&d, presenter, pos, from, to).step_at(x);
            cursor.set(Some((t, p)));
            set_point(t, p);
        })
    };
    let on_line_key = {
        let cursor = cursor.clone();
        Callback::from(move |(t, e): (usize, KeyboardEvent)| {
            let here = match *cursor {
                Some((ct, p)) if ct == t => p,
                _ => pts[t].unwrap_or(pos),
            };
            let next = match e.key().as_str() {
                "ArrowLeft" => here.saturating_sub(1),
                "ArrowRight" => (here + 1).min(pos),
                "PageDown" => here.saturating_sub(10),
                "PageUp" => (here + 10).min(pos),
                "Home" => 0,
                "End" => pos,
                "Enter" | " " => {
                    set_point(t, here);
                    cursor.set(Some((t, here)));
                    e.prevent_default();
                    e.stop_propagation();
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            cursor.set(Some((t, next)));
        })
    };
    (on_line, on_line_key)
}

/// A memo's value as a key of another memo: the same while it is the same value.
struct Same<T>(Rc<T>);

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A scene with only the geometry, to turn a click into a step.
fn step_scene(d: &Diagram, presenter: bool, pos: u64, from: u64, to: u64) -> Scene<'_> {
    Scene::bare("st", d, presenter, pos, from, to)
}
