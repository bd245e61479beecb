//! The engine's words in English and Simplified Chinese, each sentence written once with its two
//! languages side by side: the narration of events for the event log and the runner ("Count
//! received barrier 2 on its first input; 1 input(s) still to deliver it"), the short name of an
//! action ("deliver Source->Map"), why a checkpoint was aborted, and why an action was refused
//! ([`ActionError::message`](crate::engine::ActionError::message)). A scenario error is worded in English where it is made.
//!
//! One file per family of events: `dataflow.rs`, `checkpoint.rs`, `recovery.rs` (with high
//! availability); Storm's and Spark Streaming's in their own folders, `mechanisms/storm/wording.rs`
//! and `mechanisms/spark/wording.rs`; the savepoints' words are in `program/savepoint_wording.rs`, an
//! action's short name in `actions.rs`, and the refusals beside `ActionError`, in
//! `core/error_wording.rs`.

mod actions;
mod checkpoint;
mod dataflow;
mod recovery;

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::lang::Lang;

pub use actions::describe;
pub use checkpoint::abort_reason;

/// One sentence for one event.
pub fn narrate(e: &Event, g: &JobGraph, lang: Lang) -> String {
    narrate_common(e, g, lang).unwrap_or_else(|| narrate_mechanism_event(e, g, lang))
}

/// One sentence for one event: the dataflow's and Flink's, or None for a mechanism's own event
/// (Storm's acker, Spark Streaming), which [`narrate_mechanism_event`] words (the page loads those
/// words with the drawings of those strategies).
pub fn narrate_common(e: &Event, g: &JobGraph, lang: Lang) -> Option<String> {
    dataflow::narrate(e, g, lang)
        .or_else(|| checkpoint::narrate(e, g, lang))
        .or_else(|| recovery::narrate(e, g, lang))
        .or_else(|| crate::engine::program::savepoint_wording::narrate(e, lang))
        .or_else(|| match e {
            Event::Kafka(k) => Some(crate::engine::core::dataflow::kafka::wording::narrate(k, g, lang)),
            _ => None,
        })
}

/// One sentence for a mechanism's own event (Storm's trees, acks, Nimbus and supervisors; Spark
/// Streaming's blocks, batches, driver and executors), in the mechanism's words; empty for any
/// other event.
pub fn narrate_mechanism_event(e: &Event, g: &JobGraph, lang: Lang) -> String {
    match e {
        Event::Mechanism(e) => e.narrate(g, lang),
        _ => String::new(),
    }
}
