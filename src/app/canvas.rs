//! The canvas: the job drawn in SVG. Tasks are boxes showing their state; channels are lanes with
//! their queued records (tokens labelled a, b, c, coloured by key) and barriers (numbered
//! markers); the JobManager's CheckpointCoordinator sits beside them; the cut of the latest saves
//! joins the save markers (◉ n) with in-transit and orphan records flagged. A legend beside the
//! drawing says what each mark means.
//!
//! Where everything goes is [`layout::layout`], computed once per job and mode: every text has a
//! reserved place and every lane a corridor for its tokens, so nothing drawn overlaps. Presenter
//! mode uses a compact geometry in which the smallest text is 16 pixels on a 1366-pixel projector.
//! Tokens are keyed in a list of their own, so a step moves them (they glide) rather than
//! recreating them.

mod banners;
mod cut_line;
mod external_box;
mod jobmanager;
mod lane;
mod layout;
mod legend;
mod parts;
mod task_box;

use crate::app::svg_number::num;
use web_sys::KeyboardEvent;
use yew::prelude::*;

pub use crate::app::key_colours::{key_colour, KEY_COLOURS};
pub use layout::{shape, text_w, Layout, Rect, Screen, Shape};

use super::drawing_catalogue::drawing_for;
use super::text::Lang;
use super::ui_state::{Dispatch, Msg, Run, Shared};
use crate::classroom::Command;
use crate::engine::*;

/// More records in flight than this and tokens move at once instead of gliding.
const BUSY: usize = 40;
use banners::{down_banner, region_banner};
use cut_line::cut_line;
use external_box::external_box;
use jobmanager::jobmanager;
use lane::{lane, lane_labels};
use legend::Legend;
pub use parts::Handlers;
pub use task_box::log_window;
use task_box::task_box;

#[derive(Properties, PartialEq)]
pub struct CanvasProps {
    pub run: Run,
    pub lang: Lang,
    pub dispatch: Dispatch,
    /// Presenter mode: the compact geometry, and the legend folded away.
    #[prop_or_default]
    pub presenter: bool,
    /// The screen it is drawn for: a phone's gets the compact geometry, upright the job turned.
    #[prop_or_default]
    pub screen: layout::Screen,
}

/// The job drawn in SVG, and its legend.
#[component]
pub fn Canvas(props: &CanvasProps) -> Html {
    let session = props.run.session();
    let sim = session.sim();
    let lang = props.lang;
    let h = &Handlers {
        act: {
            let d = props.dispatch.clone();
            Callback::from(move |a: Action| d.dispatch(Msg::Cmd(Command::Act(a))))
        },
    };
    let g = &sim.graph;
    let two_phase = matches!(sim.settings.sink, SinkMode::TwoPhaseCommit | SinkMode::Kafka);
    let lay =
        use_memo((Shared(g.clone()), props.presenter, props.screen, two_phase), |(g, presenter, screen, two_phase)| {
            layout::layout(g, *presenter, *screen, *two_phase)
        });
    let lay = &*lay;
    let saved: Vec<Option<&TaskSnapshot>> = sim.restore_point();
    // The timeline's steps count from its first: a job submitted again from a savepoint counts
    // from its submission, and so do its save marks.
    let first_tick = session.timeline.initial().tick;
    let cut = saved.iter().any(|s| s.is_some()).then(|| sim.cut_check(&saved));
    let running = sim.running();
    // Where each stopped source would read next after a restore now (never where it stopped).
    let resume = sim.offsets_after_restore();
    let aria = lang.t(
        "The dataflow job: tasks as boxes, channels as lanes carrying records and barriers",
        "数据流作业：任务为方框，通道为承载记录和屏障的管道",
    );
    let shape = if lay.shape == Shape::Wide { "wide" } else { "tall" };
    // With many records in flight tokens move at once: a glide repaints the drawing every frame.
    let busy = sim.channels().iter().map(|c| c.queue.len()).sum::<usize>() > BUSY;
    // The mechanism's band under the job; its drawing and words load with the strategy, band
    // shown or not.
    let drawing = drawing_for(sim.strategy());
    let shows = drawing.band.as_ref().filter(|d| (d.shows)(sim, lay.compact));
    let redraw = {
        let d = props.dispatch.clone();
        Callback::from(move |_| d.dispatch(Msg::PartLoaded))
    };
    let (bands, retry_bands) = super::bands_part::use_bands(drawing.band.is_some(), redraw);
    let waiting = |top: f64| match bands {
        Ok(_) => html! {},
        Err(fetching) => html! {
            <g class="band-wait" role="status">
                <text x="28" y={num(top + 40.0)} class="band-wait-text">{ if fetching {
                    lang.t("Loading the drawing…", "正在加载图示…")
                } else {
                    lang.t("This drawing could not be loaded: the network is off. Your run is kept.", "图示没能加载：网络已断开。你的运行仍然保留。")
                } }</text>
                if !fetching {
                    <text id="retry-bands" x="28" y={num(top + 72.0)} class="band-retry" role="button" tabindex="0"
                        onclick={retry_bands.reform(|_| ())}
                        onkeydown={{ let r = retry_bands.clone(); Callback::from(move |e: KeyboardEvent| if e.key() == "Enter" { r.emit(()) }) }}>
                        { lang.t("↻ Retry", "↻ 重试") }</text>
                }
            </g>
        },
    };
    let width = match shows {
        Some(d) if !lay.compact => lay.width.max(f64::from(d.min_width)),
        _ => lay.width,
    };
    // The band takes the height it says (while its drawing loads, the height kept for the wait).
    let band = shows.map(|d| match bands {
        Ok(b) => (d.pick)(b)(sim, lay.height, width, &h.act, lang, lay.compact),
        Err(_) => (waiting(lay.height), (d.wait_height)(lay.compact)),
    });
    let height = lay.height + band.as_ref().map_or(0.0, |(_, h)| *h);
    html! { <>
        <svg id="canvas" class={classes!("canvas", lay.compact.then_some("compact"), busy.then_some("busy"))} viewBox={format!("0 0 {} {}", num(width), num(height))} role="group" aria-label={aria}
             preserveAspectRatio={if props.presenter { "xMidYMid meet" } else { "xMidYMin meet" }} data-shape={shape}
             data-upright={(props.screen == layout::Screen::Portrait && !props.presenter).to_string()}>
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" fill="#64748b" />
                </marker>
            </defs>
            { for g.channels.iter().enumerate().map(|(i, _)| lane(sim, ChannelId(i as u16), lay, lang, h)) }
            { cut_line(lay, &saved, lang) }
            { for g.tasks.iter().enumerate().map(|(i, _)| task_box(sim, drawing, TaskId(i as u16), lay, lang, h, saved[i].map(|s| (s, first_tick)), resume[i])) }
            { for g.channels.iter().enumerate().map(|(i, _)| lane_labels(sim, ChannelId(i as u16), lay, lang, cut.as_ref())) }
            { jobmanager(sim, drawing, lay, lang) }
            { lay.external.map(|(r, s)| external_box(sim, lay, r, s, lang)).unwrap_or_default() }
            { band.map(|(band, _)| band).unwrap_or_default() }
            { if !running { down_banner(sim, drawing, lay, lang) } else if sim.region_down() { region_banner(sim, lay, lang) } else { html!{} } }
        </svg>
        <Legend lang={lang} presenter={props.presenter} marks={crate::classroom::marks(&sim.settings)} bands={bands.is_ok()} />
    </> }
}
