//! The compared run: the same moves under another strategy, aligned by what happened
//! (`engine::run_alignment`) and drawn on this run's steps under the first diagram: a ≠ where it
//! refused or could not take a move, its own restore point, and a cut of its own to draw and judge.

use std::rc::Rc;

use yew::prelude::*;

use super::crossings::{arrows_kept, crossings, current_points, named_in, Judged};
use super::drawing::{draw, Scene};
use super::pointer::{line_callbacks, on_arrow};
use super::verdict::{error_text, CutVerdict};
use crate::app::text::{strategy_name, Lang};
use crate::app::ui_state::Dispatch;
use crate::classroom::Session;
use crate::engine::runs::run_alignment::{align, Aligned};
use crate::engine::space_time::{diagram, Diagram, Message};
use crate::engine::{RecordId, Strategy};

/// What the compared run is drawn from: the second run aligned with its diagram (or why the input
/// can't run under that strategy), its drawn cut, and the view it shares with the first diagram.
pub struct ComparedRun<'a> {
    pub compared: &'a Option<Result<(Aligned, Diagram), String>>,
    pub compare: Option<Strategy>,
    pub judged2: &'a Judged,
    pub pts2: &'a [Option<u64>],
    pub points2: &'a UseStateHandle<Vec<Option<u64>>>,
    pub cursor2: &'a UseStateHandle<Option<(usize, u64)>>,
    pub hovered: Option<RecordId>,
    pub on_hover: &'a Callback<Option<RecordId>>,
    pub labels: &'a [String],
    pub scene_for_click: &'a Rc<(u64, u64, u64)>,
    pub dispatch: &'a Dispatch,
    pub lang: Lang,
    pub presenter: bool,
    pub drawing_step: bool,
    pub pos: u64,
    pub from: u64,
    pub to: u64,
    pub n: usize,
}

/// The compared run's section under the first diagram; nothing when there is none.
pub fn compared_run(c: ComparedRun) -> Html {
    let ComparedRun {
        compared,
        compare,
        judged2,
        pts2,
        points2,
        cursor2,
        hovered,
        on_hover,
        labels,
        scene_for_click,
        dispatch,
        lang: l,
        presenter,
        drawing_step,
        pos,
        from,
        to,
        n,
    } = c;
    match compared.as_ref() {
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
            let keep2 = arrows_kept(d2, &cur_cross2, &drawn_cross2, hovered, from, to, presenter);
            let differs: Vec<u64> = al.first_only().into_iter().filter(|&f| f <= pos).collect();
            let (on_line2, on_line_key2) = line_callbacks(
                &points2,
                &cursor2,
                "st2-svg",
                Rc::new(d2.clone()),
                presenter,
                scene_for_click.clone(),
                n,
            );
            // Clicking an arrow moves the run to its send (then to its receipt), as on the first.
            let on_arrow2 = on_arrow(drawing_step, &on_line2, "st2-line-", dispatch, Rc::new(d2.clone()), pos);
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
                cursor: **cursor2,
                hovered: hovered,
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
                    html! { <CutVerdict id="st2" lang={l} {cut} {restore} hovered={hovered} on_hover={on_hover.clone()} /> }
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
    }
}

/// "Compare with": a menu of the other strategies; choosing one clears the compared run's cut.
pub fn compare_menu(
    l: Lang,
    own: Strategy,
    compare: &UseStateHandle<Option<Strategy>>,
    points2: &UseStateHandle<Vec<Option<u64>>>,
    n: usize,
) -> Html {
    let on_compare = {
        let (compare, points2) = (compare.clone(), points2.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            compare.set(Strategy::from_id(&v));
            points2.set(vec![None; n]);
        })
    };
    html! {
        <label class="st-compare">{ l.t("Compare with ", "对比：") }
            <select id="st-compare" onchange={on_compare} aria-label={l.t("Compare with the same moves under another strategy", "与另一种策略下的同样操作对比")}>
                <option value="none" selected={compare.is_none()}>{ l.t("nothing", "不对比") }</option>
                { for Strategy::ALL.into_iter().filter(|&x| x != own && x.row().restores_snapshots).map(|x| html! {
                    <option value={x.id()} selected={**compare == Some(x)}>{ strategy_name(l, x) }</option> }) }
            </select>
        </label>
    }
}

/// The run's moves under strategy `with`: the second run aligned with the first by what happened,
/// at the first's step, and its diagram on the first's steps; or why the input can't run under it.
pub fn aligned_under(session: &Session, with: Strategy) -> Result<(Aligned, Diagram), String> {
    let mut config = session.config.clone();
    config.settings.strategy = with;
    config.scenario().sim().map_err(|e| e.to_string()).map(|start| {
        let mut al = align(&session.timeline, start);
        let drawn = al.second_on_first_steps(&diagram(&al.second));
        let at = al.second_point(session.timeline.position() as u64);
        al.second.seek(at as usize);
        (al, drawn)
    })
}
