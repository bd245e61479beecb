//! The core: one run of one job, and the seam a mechanism plugs in through. Read it first.
//!
//! - [`sim`]: one run ([`sim::Sim`]), driven by [`action::Action`]s; each step returns its
//!   [`event::Event`]s ([`event_terms`]: the words they are told in).
//! - [`dataflow`]: the job as it runs: graph, tasks, channels, records, sources, operators, sinks.
//! - [`seam`]: what a fault-tolerance mechanism is told and what it answers; [`hooks`] (what it
//!   asks to be told), [`own_state`] (the state it keeps in a task or in storage), [`step`] (its
//!   own steps, such as a message to Storm's acker).
//! - [`snapshot`]: what a task saves; [`recovery`]: crash and restore, what a crash destroys
//!   and what survives it.
//! - [`history`], [`ledger`]: what took effect where, and each record's verdict: lost,
//!   duplicated or exactly once.
//! - [`ids`], [`lang`], [`rng`], [`error`] (worded in `error_wording.rs`), [`sorted_vec`],
//!   [`stable_sort`]: the vocabulary and the tools the rest is written with.
//!
//! The core calls a mechanism only through the seam, and names none. Its three sum types that
//! carry a mechanism's own values (`Event::Mechanism`, its events; `ActionError::Mechanism`, its
//! refusals; `RestoreFrom::Mechanism`, where its restart came from) name the catalogue's list of
//! them (`mechanisms/catalogue/carried.rs`). `tests/import_circles.rs` keeps it
//! so: no import runs up from the core (with the JobManager and the settings) to a mechanism, nor
//! from a mechanism to what is built on a run.

pub mod action;
pub mod dataflow;
pub mod enabled;
pub mod error;
mod error_wording;
pub mod event;
pub mod event_terms;
pub mod history;
pub mod hooks;
pub mod ids;
pub mod lang;
pub mod ledger;
pub mod own_state;
pub mod recovery;
pub mod rng;
pub mod seam;
pub mod sim;
pub mod snapshot;
pub mod sorted_vec;
pub mod stable_sort;
pub mod step;
