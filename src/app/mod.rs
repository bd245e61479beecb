//! The browser app: a thin Yew layer over [`crate::classroom::Session`]. One reducer owns the
//! session and does nothing else: every click and key becomes a [`Msg`], and what reaches outside
//! the page state (storage, the address bar, the clipboard, a download) happens in effects and
//! callbacks. The page is a tree of components whose props compare cheaply, so a step redraws the
//! parts it changed and Yew skips the rest.
//!
//! Here: the main screen ([`App`]: the run's controls and the classroom bar, the notice, the lesson
//! bar, the canvas with its tabs, the verdict and checkpoint storage, and over them the open room),
//! and mounting it. A file each: the reducer (`reducer.rs`), the page's keys (`keys.rs`), what it
//! listens to on its window (`listeners.rs`), its effects (`effects.rs`), and what it is shown on
//! (`screen.rs`).

pub mod acker_view;
pub mod address_bar;
pub mod announcer;
pub mod bands_part;
pub mod canvas;
pub mod controls;
pub mod decisive;
pub mod decisive_view;
pub mod drawing_catalogue;
pub mod effects;
pub mod files;
pub mod focus;
pub mod key_colours;
pub mod keys;
pub mod legend_item;
pub mod lesson_bar;
pub mod lesson_frame;
pub mod lessons_part;
pub mod listeners;
pub mod mechanism_drawing;
pub mod panels;
pub mod pieces;
pub mod pressable;
pub mod reducer;
pub mod room;
pub mod room_loader;
pub mod rooms;
pub mod screen;
pub mod settings_form;
pub mod share_bar;
pub mod sharing_part;
pub mod spark_drawing;
pub mod spark_view;
pub mod split_point;
pub mod storm_drawing;
pub mod structured_drawing;
pub mod structured_view;
pub mod svg_number;
pub mod svg_text;
pub mod text;
pub mod timers_drawing;
pub mod ui_state;
pub mod words_part;

use std::rc::Rc;

use yew::prelude::*;

use effects::use_page_effects;
use keys::KeyModes;
use listeners::use_window_listeners;
use room::Room;
use room_loader::{Piece, PieceSlot, RoomDoor};
pub use screen::embedded;
use text::Lang;
pub use ui_state::{Dispatch, Msg, Run, Shared, Tab, UiState, SPEEDS};

/// Mounts the app on the page. The first screen prerendered into the page, and the starting
/// notice, stay until the app has drawn its own (`effects::use_page_effects`).
pub fn start() {
    let doc = web_sys::window().and_then(|w| w.document()).expect("a document");
    if embedded() {
        if let Some(html) = doc.document_element() {
            let _ = html.set_attribute("data-embed", "");
        }
    }
    let root = doc.create_element("div").expect("div");
    root.set_id("app-root");
    if doc.get_element_by_id("prerender").is_some() {
        // The app draws its first screen out of sight; the first effect shows it and takes the
        // prerendered copy away, in one step (`effects::show_first_screen`).
        let _ = root.set_attribute("hidden", "");
    }
    doc.body().expect("body").append_child(&root).expect("append");
    yew::Renderer::<App>::with_root(root).render();
}

#[component]
pub fn App() -> Html {
    let state = use_reducer(UiState::initial);
    let dispatch = state.dispatcher();
    // What the keyboard listener needs to know, kept current without re-registering it.
    let modes = use_mut_ref(KeyModes::default);
    *modes.borrow_mut() = KeyModes {
        lesson: state.session.borrow().lesson.is_some(),
        presenter: state.presenter,
        in_room: state.room.is_some(),
        blank: state.blank,
    };

    // Keyboard control on the whole page, and links opened while the page is open.
    use_window_listeners(&dispatch, &modes);
    // The words fetched later, the run kept, a deferred run opened, the room in the link, the
    // focus back from a room, Play.
    use_page_effects(&state);

    let run = state.run();
    // The notice's words come with the narration's (`words_part.rs`).
    let notice_words = words_part::use_words(state.session.borrow().notice.is_some());

    let l = state.lang;
    let session = state.session.borrow();
    let sim = session.sim();
    let graph = Shared(sim.graph.clone());
    let pos = session.timeline.position();
    let len = session.timeline.len();
    // What a piece or a room is handed.
    let piece_props = {
        let d = dispatch.clone();
        rooms::RoomProps {
            lang: l,
            presenter: state.presenter,
            run: run.clone(),
            dispatch: dispatch.clone(),
            close: Callback::from(move |_| d.dispatch(Msg::Room(None))),
        }
    };
    let ledger = Rc::new(sim.ledger());
    // What the live region says of the step at the playhead.
    let step_words = match session.narration.last() {
        Some(s) if l == Lang::Zh => format!("第 {} 步：{}。", s.step, crate::classroom::step_title(sim, s, l)),
        Some(s) => format!("Step {}: {}.", s.step, crate::classroom::step_title(sim, s, l)),
        None => l.t("At the start of the run.", "在运行的开始。").to_string(),
    };
    let tab_button = |t: Tab, id: &'static str, label: &'static str| {
        let d = dispatch.clone();
        let selected = state.tab == t;
        html! {
            <button role="tab" id={id} aria-selected={selected.to_string()} class={classes!("tab", selected.then_some("selected"))}
                onclick={Callback::from(move |_| d.dispatch(Msg::Tab(t)))}>{ label }</button>
        }
    };

    html! {
        // The page's layout follows the lesson, the drawing's shape and the sink (see style.css).
        <ContextProvider<rooms::RoomProps> context={piece_props.clone()}>
        <div id="app" class={classes!("app", state.playing.then_some("playing"), state.presenter.then_some("presenter"),
                session.lesson.is_some().then_some("in-lesson"), (canvas::shape(&sim.graph) == canvas::Shape::Tall).then_some("tall"),
                sim.graph.has_sink().then_some("with-sink"), state.room.is_some().then_some("in-room"),
                (state.room == Some(Room::SpaceTime) && session.lesson.is_some()).then_some("lesson-in-room"))} data-ready={state.deferred.is_none().to_string()}
             lang={if l == Lang::Zh { "zh-Hans" } else { "en" }} data-lang={l.id()} data-presenter={state.presenter.to_string()}
             data-step={pos.to_string()} data-steps={len.to_string()}>
            // The run's controls; presenter mode packs them into two compact rows.
            <div class="chrome">
                <controls::Controls run={run.clone()} lang={l} playing={state.playing} speed={state.speed} dispatch={dispatch.clone()}
                    marks={state.marks.clone()} />
                <share_bar::ShareBar session={Shared(state.session.clone())} lesson={session.lesson.as_ref().map(|p| p.lesson)}
                    file_lesson={session.lesson.as_ref().filter(|p| p.lesson >= crate::classroom::CATALOGUE.len()).map(|p| p.lesson().title)}
                    presenter={state.presenter} link={state.link.clone()} copied={state.copied} lang={l} dispatch={dispatch.clone()}
                    rooms={rooms_menu(l, state.presenter || state.screen == canvas::Screen::Portrait || session.lesson.is_some(), &dispatch)} />
            </div>
            { share_bar::notice_bar(session.notice.as_ref(), notice_words, l, &dispatch) }
            <announcer::Announcer lang={l} playing={state.playing} pos={pos} len={len} revision={state.revision}
                step={step_words} ledger={ledger.clone()} />
            if session.lesson.is_some() { <PieceSlot piece={Piece::LessonBar} inner={piece_props.clone()} /> }
            <main class="workspace">
                <div class="canvas-wrap"><canvas::Canvas run={run.clone()} lang={l} dispatch={dispatch.clone()} presenter={state.presenter} screen={state.screen} /></div>
                <div class="tabs">
                    <div role="tablist" aria-label={l.t("Details", "详情")}>
                        { tab_button(Tab::Narration, "tab-narration", l.t("What happened", "发生了什么")) }
                        { tab_button(Tab::Checkpoints, "tab-checkpoints", l.t("Checkpoints", "检查点")) }
                        { tab_button(Tab::External, "tab-external", l.t("External system", "外部系统")) }
                    </div>
                    <div role="tabpanel" class="tab-body" tabindex="0" aria-labelledby={match state.tab {
                        Tab::Narration => "tab-narration",
                        Tab::Checkpoints => "tab-checkpoints",
                        Tab::External => "tab-external",
                    }}>
                        { match state.tab {
                            Tab::Narration => html! { <panels::NarrationPanel run={run.clone()} lang={l} /> },
                            Tab::Checkpoints => html! { <PieceSlot piece={Piece::CheckpointsTab} inner={piece_props.clone()} /> },
                            Tab::External => html! { <PieceSlot piece={Piece::ExternalTab} inner={piece_props.clone()} /> },
                        } }
                    </div>
                </div>
                // The panels get the part of the run they show: one whose part did not change is not
                // drawn again.
                <panels::VerdictPanel ledger={ledger.clone()} graph={graph.clone()} lang={l} down={sim.down().is_some()} chips={state.presenter || session.lesson.is_some()} />
                <panels::StoragePanel storage={sim.storage().clone()} spark={bands_part::bands_now().map(|b| (b.storage_lines)(sim, l)).unwrap_or_default()} strategy={sim.strategy()} graph={graph} lang={l}
                    savepoints={sim.savepoints().to_vec()} stopped={sim.stopped()} first_tick={session.timeline.initial().tick} />
            </main>
            { state.room.map(|room| html! { <RoomDoor {room} inner={piece_props.clone()} run_ready={state.deferred.is_none()} /> }).unwrap_or_default() }
            // B blanks the screen, as presentation software does; any key or a click brings it back.
            if state.blank {
                <div id="blank" class="blank" role="button" tabindex="-1" aria-label={l.t("Blank screen: press any key to come back", "黑屏：按任意键返回")}
                    onclick={{ let d = dispatch.clone(); Callback::from(move |_| d.dispatch(Msg::Blank(false))) }}></div>
            }
        </div>
        </ContextProvider<rooms::RoomProps>>
    }
}

/// The rooms, each a button that opens it over the run (its part of the page loads then), and the
/// ? Help link to the book's "Using the page" (its Chinese page in Chinese), in a new tab so the run
/// stays. In presenter mode they fold into one button, so the drawing keeps its height on a
/// projector; so they do in a lesson and on a phone held upright, so the job comes sooner.
fn rooms_menu(l: Lang, presenter: bool, dispatch: &Dispatch) -> Html {
    let nav = html! {
        <nav class="rooms-menu" aria-label={l.t("Rooms", "展厅")}>
            { for Room::ALL.into_iter().map(|room| {
                let d = dispatch.clone();
                html! {
                    <button id={format!("open-{}", room.id())} class="tool"
                        onclick={Callback::from(move |_| d.dispatch(Msg::Room(Some(room))))}>{ room.button(l) }</button>
                }
            }) }
            <a id="help-link" class="tool" target="_blank" rel="noopener"
                href={l.t("docs/using-the-page.html", "docs/zh/classroom.html")}
                title={l.t("The book: using the page, the lessons, presenter mode (opens in a new tab)", "手册：页面、课程与演示模式（在新标签页中打开）")}>
                { l.t("? Help", "? 帮助") }</a>
        </nav>
    };
    if presenter {
        html! { <details class="rooms-fold"><summary id="rooms-fold">{ l.t("▤ Rooms", "▤ 展厅") }</summary>{ nav }</details> }
    } else {
        nav
    }
}
