//! The bands part: the drawings only Storm's acker, Spark Streaming and Structured Streaming need
//! (the acker's band, the micro-batches' band, the checkpoint location's band, their words),
//! fetched when the strategy first needs them.

use yew::prelude::*;

use super::split_point::part;
use super::text::Lang;

/// The drawings only Storm and Spark Streaming need: the acker's band and the micro-batches'
/// band under the job. They load when the strategy first needs them.
#[derive(Clone, Copy)]
pub struct Bands {
    pub acker: BandFn,
    pub batches: BandFn,
    /// Structured Streaming's checkpoint location: its offset log, commit log and state versions.
    pub logs: BandFn,
    /// The narration of their events (`engine::wording::narrate_mechanism_event`).
    pub narrate: fn(&crate::engine::Event, &crate::engine::JobGraph, Lang) -> String,
    /// Spark's lines in the Storage panel, and its metadata line in the JobManager's box.
    pub storage_lines: fn(&crate::engine::Sim, Lang) -> Vec<String>,
    pub metadata_short: fn(&crate::engine::Sim, Lang) -> String,
    /// The legend's lines for their marks (tuple trees, messages to the acker, blocks, batches).
    pub legend: fn(crate::engine::mechanisms::marks::Mark, Lang) -> Html,
    /// The second and third lines of the JobManager's box: Nimbus's, the Spark driver's.
    pub nimbus_lines: fn(&crate::engine::Sim, Lang) -> (String, String),
    pub driver_lines: fn(&crate::engine::Sim, Lang) -> (String, String),
    /// Structured Streaming's: its logs' latest entries, and where the driver stands in its batch.
    pub query_lines: fn(&crate::engine::Sim, Lang) -> (String, String),
}

/// A band under the job: drawn at a top and a width (in presenter mode's geometry, `compact`, the
/// strip), with the height it takes.
pub type BandFn = fn(&crate::engine::Sim, f64, f64, &Callback<crate::engine::Action>, Lang, bool) -> (Html, f64);

fn band_fns() -> Bands {
    use super::{acker_view, spark_view, structured_view};
    Bands {
        acker: acker_view::band,
        batches: spark_view::band,
        logs: structured_view::band,
        narrate: crate::engine::wording::narrate_mechanism_event,
        storage_lines: spark_view::storage_lines,
        metadata_short: spark_view::metadata_short,
        legend: acker_view::legend,
        nimbus_lines: acker_view::nimbus_lines,
        driver_lines: spark_view::driver_lines,
        query_lines: structured_view::query_lines,
    }
}

part!(bands -> Bands { Ok(band_fns()) });

thread_local! {
    static BANDS: std::cell::Cell<Option<Bands>> = const { std::cell::Cell::new(None) };
}

/// The bands, if they are already there.
pub fn bands_now() -> Option<Bands> {
    BANDS.with(|b| b.get())
}

/// The bands, once loaded; while `needed` and not yet there, fetches them (`Err(true)` while
/// fetching, `Err(false)` if the fetch failed, with a retry). `loaded` is called when they arrive
/// (the page redraws, so the narration gets their words too).
#[hook]
pub fn use_bands(needed: bool, loaded: Callback<()>) -> (Result<Bands, bool>, Callback<()>) {
    let state = use_state(|| BANDS.with(|b| b.get()).ok_or(true));
    let attempt = use_state(|| 0u32);
    {
        let state = state.clone();
        use_effect_with((needed, *attempt), move |&(needed, _)| {
            if !needed || BANDS.with(|b| b.get()).is_some() {
                if let Some(b) = BANDS.with(|b| b.get()) {
                    state.set(Ok(b));
                }
                return;
            }
            state.set(Err(true));
            wasm_bindgen_futures::spawn_local(async move {
                state.set(match bands().await {
                    Ok(b) => {
                        BANDS.with(|c| c.set(Some(b)));
                        loaded.emit(());
                        Ok(b)
                    }
                    Err(_) => Err(false),
                });
            });
        });
    }
    (*state, Callback::from(move |_| attempt.set(*attempt + 1)))
}
