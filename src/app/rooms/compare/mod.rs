//! The ◫ Side by side room (issues 13 and 29): one job, one input, one crash, up to three runs
//! from seven presets on one clock, each drawn, with the live cost table of
//! [`engine::comparison`](crate::engine::comparison) under them and the lesson "Three ways to
//! survive a crash". Its session is the classroom's ([`CompareSession`], tested natively); the room
//! draws it and sends it commands, one piece a file: the header's tools (`header`), the link and
//! the notice (`notice`), the setup (`setup`), the clock (`clock_bar`), the lesson (`lesson_view`),
//! the runs (`runs`, each drawn by `drawing`), the cost table (`table`), the keys, and what reaches
//! outside the page (`io`). It reads the main screen's run only to take its job and settings, and
//! reaches the main screen only to close, to switch the language of a comparison it opened, and
//! through the keys it leaves alone.
//!
//! A comparison is saved as a [`SavedComparison`](crate::classroom::saved_comparison::SavedComparison):
//! the room's link (`#room=compare&run=…`), its file, and its storage entry (`barrierscope.compare`);
//! ↑ Import takes that, a comparison file from `scenarios/compare/`, or one to three scenario files.

mod clock_bar;
mod drawing;
mod header;
mod io;
mod keys;
mod lesson_view;
mod notice;
mod runs;
mod setup;
mod table;

use gloo_timers::callback::Interval;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::held::Held;
use super::window_keys::use_window_keys;
use super::RoomProps;
use crate::app::room::Room;
use crate::app::rooms::room_head;
use crate::app::ui_state::Msg;
use crate::classroom::compare_room::{CompareCommand, CompareNotice, CompareSession, SPEEDS};
use crate::classroom::saved_comparison::run_title;
use crate::classroom::Origin;
use crate::engine::comparison::Costs;
use crate::engine::Lang;

pub use io::STORAGE_KEY;

/// The room, as the split point draws it.
pub fn render(props: RoomProps) -> Html {
    html! { <CompareRoom ..props /> }
}

#[component]
pub fn CompareRoom(props: &RoomProps) -> Html {
    let lang = props.lang;
    let state = use_reducer(move || Held::new(CompareSession::initial(io::link_text(), io::stored_text(), lang)));
    let s = state.get();
    crate::app::lesson_frame::use_lesson_focus(s.lesson.is_some(), "cmp-lesson-start", "cmp-lesson");
    let d = state.dispatcher();
    let l = props.lang;

    // Keys: taken before the main screen sees them (capture on the window), so X and R act on
    // the room's runs, not on the main screen's.
    {
        let (d, close, lesson, presenter) = (d.clone(), props.close.clone(), s.lesson.is_some(), props.presenter);
        use_window_keys(
            true,
            Callback::from(move |e: KeyboardEvent| {
                if let Some(c) = keys::room_key(&e, lesson, presenter) {
                    e.prevent_default();
                    e.stop_immediate_propagation();
                    match c {
                        Some(c) => d.dispatch(c),
                        None => close.emit(()),
                    }
                }
            }),
        );
    }
    // Play: one tick per interval.
    {
        let d = d.clone();
        use_effect_with((s.playing, s.speed), move |&(playing, speed)| {
            let interval = playing.then(|| Interval::new(SPEEDS[speed], move || d.dispatch(CompareCommand::Tick)));
            move || drop(interval)
        });
    }
    // Keep the comparison in this browser (not on every tick while playing); a comparison opened
    // in the other language switches the page to it.
    {
        let state = state.clone();
        let main = props.dispatch.clone();
        use_effect_with((s.version, s.playing, l), move |&(_, playing, l)| {
            let asked = match (&state.get().notice, state.get().lang) {
                (Some(CompareNotice::Opened(Origin::Link | Origin::File)), Some(lang)) if lang != l => Some(lang),
                _ => None,
            };
            if let Some(lang) = asked {
                main.dispatch(Msg::Lang(lang));
            }
            if !playing {
                io::store(&header::saved(&state, l));
            }
        });
    }

    let titles: Vec<String> = s.file.configurations.iter().map(|c| run_title(c, l)).collect();
    let costs: Vec<Costs> = s.lock.lanes.iter().map(|lane| lane.costs()).collect();
    let runs = s.file.configurations.len();
    html! {
        <div id="cmp-room" class={classes!("cmp-room", props.presenter.then_some("presenter"), format!("runs-{runs}"))}
             lang={if l == Lang::Zh { "zh-Hans" } else { "en" }} data-tick={s.tick().to_string()} data-finished={s.lock.finished().to_string()}
             data-runs={runs.to_string()} data-playing={s.playing.to_string()}>
            { room_head(Room::Compare, props, header::tools(&state, l)) }
            { notice::link_and_notice(&s, l, &d) }
            { setup::setup(&s, props, &d) }
            { clock_bar::clock_bar(&s, l, &d) }
            { lesson_view::lesson_panel(&s, &titles, &costs, l, &d) }
            { runs::runs(&s, &titles, &costs, props.presenter, l) }
            <div class="cmp-table-wrap">{ table::cost_table(&titles, &costs, s.tick() > s.file.crash.at, s.tick(), l) }</div>
        </div>
    }
}
