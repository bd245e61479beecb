//! Barrierscope: a deterministic simulation of a dataflow job that survives failure, and the
//! browser app that draws it.
//!
//! [`engine`] is the pure simulation core: it knows nothing of the browser, changes only through
//! serializable [`engine::Action`]s, and reports every change as typed [`engine::Event`]s.
//! [`classroom`] is the layer for a learner on top of it: lessons, the session and saved runs.
//! The Yew UI (compiled only for `wasm32`) draws the session and sends it commands.

pub mod classroom;
pub mod engine;

#[cfg(target_arch = "wasm32")]
pub mod app;

/// The book (`docs/`): each chapter a module, so that its Rust blocks run as doctests.
#[cfg(doctest)]
pub mod book {
    include!(concat!(env!("OUT_DIR"), "/book.rs"));
}
