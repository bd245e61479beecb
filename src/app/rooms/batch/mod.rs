//! The batch room: Hadoop re-runs the failed task, Spark recomputes from lineage. Its session is
//! the classroom's ([`BatchSession`], tested natively); the room draws it and sends it commands,
//! one piece a file: the header's tools (`header`), the toolbar, the notice, the lesson
//! (`lesson_view`), the drawing (`canvas`: Spark's lineage in `spark_lineage`, Hadoop's job in
//! `hadoop_job`), where each RDD keeps its partitions (`keeps`), what
//! recovery cost (`verdict`), the narration, the keys, the room's words, and what reaches outside
//! the page (`io`: the link, storage, files). The page hands it the language and presenter mode,
//! and it changes those only by dispatching to the page. Nothing outside this room refers to it but
//! [`render`], behind the page's split point.

mod canvas;
mod hadoop_job;
mod header;
mod io;
mod keeps;
mod keys;
mod lesson_view;
mod narration;
mod notice;
mod spark_lineage;
mod toolbar;
mod verdict;
mod words;

use gloo_timers::callback::Interval;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::held::Held;
use super::window_keys::use_window_keys;
use super::RoomProps;
use crate::app::lesson_frame::use_lesson_focus;
use crate::app::room::Room;
use crate::app::rooms::room_head;
use crate::app::text::Lang;
use crate::app::ui_state::Msg;
use crate::classroom::batch_room::{BatchCommand, BatchSession, SPEEDS};
use crate::engine::batch::BatchSim;
pub use io::STORAGE_KEY;

/// The room, as the page's split point calls it.
pub fn render(props: RoomProps) -> Html {
    html! { <BatchRoom ..props /> }
}

#[component]
pub fn BatchRoom(props: &RoomProps) -> Html {
    let state = use_reducer(|| Held::new(BatchSession::initial(io::link_text(), io::stored_text())));
    let s = state.get();
    use_lesson_focus(s.lesson.is_some(), "batch-lesson", "batch-lesson-bar");
    let d = state.dispatcher();
    let l = props.lang;

    // A file or a link asked for its language: the page's to change.
    {
        let page = props.dispatch.clone();
        use_effect_with(s.asked_lang, move |asked| {
            if let Some(lang) = *asked {
                page.dispatch(Msg::Lang(lang));
            }
        });
    }
    // Keep the last batch run in this browser (not on every step while playing).
    {
        let state = state.clone();
        use_effect_with((s.revision, s.playing, l), move |&(_, playing, l)| {
            if !playing {
                io::store(&state.get(), l);
            }
        });
    }
    // Play: one step per interval.
    {
        let d = d.clone();
        use_effect_with((s.playing, s.speed), move |&(playing, speed)| {
            let interval = playing.then(|| Interval::new(SPEEDS[speed], move || d.dispatch(BatchCommand::Tick)));
            move || drop(interval)
        });
    }
    // The keyboard: the room's keys (the page keeps Escape and P, and leaves the rest to the room).
    {
        let (d, lesson, presenter) = (d.clone(), s.lesson.as_ref().map(|x| x.step), props.presenter);
        use_window_keys(
            false,
            Callback::from(move |e: KeyboardEvent| {
                if let Some(c) = keys::room_key(&e, lesson, presenter) {
                    e.prevent_default();
                    d.dispatch(c);
                }
            }),
        );
    }

    let run = &s.run;
    let hadoop = matches!(run.sim(), BatchSim::Hadoop(_));
    html! {
        <div id="batch-room" class={classes!("app", "batch-room", props.presenter.then_some("presenter"), s.lesson.is_some().then_some("in-lesson"), "tall")}
            lang={if l == Lang::Zh { "zh-Hans" } else { "en" }} data-lang={l.id()} data-presenter={props.presenter.to_string()}
            data-engine={if hadoop { "hadoop" } else { "spark" }} data-step={run.at.to_string()} data-steps={run.len().to_string()} data-ready="true">
            <div class="chrome">{ room_head(Room::Batch, props, header::tools(&state, l)) }{ toolbar::toolbar(&s, l, &d) }</div>
            { notice::notice(&s, l, &d) }
            { lesson_view::lesson(&s, props, &d) }
            <div class="workspace">
                <div class="canvas-wrap">{ canvas::drawing(run, l) }{ keeps::keeps(run.sim(), l, &d) }</div>
                { verdict::verdict(run, l) }
                { narration::narration(run, l) }
            </div>
        </div>
    }
}
