//! Barrierscope: a deterministic simulation of a dataflow job that survives failure, and the
//! browser app that draws it.
//!
//! [`engine`] is the pure simulation core: it knows nothing of the browser, changes only through
//! serializable [`engine::Action`]s, and reports every change as typed [`engine::Event`]s.
//! The Yew UI (compiled only for `wasm32`) draws it and dispatches actions.

pub mod engine;
pub mod lessons;
pub mod session;

#[cfg(target_arch = "wasm32")]
pub mod app;
