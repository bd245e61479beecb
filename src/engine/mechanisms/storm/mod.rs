//! Apache Storm's way of surviving failure: acknowledge every tuple, save no state. Storm cuts
//! the stream per record. A spout keeps each record it emitted until the acker says the record's
//! whole tuple tree was processed; a tree that fails or times out is read again from the log.
//!
//! - [`acker`]: the mechanism (`storm-acker`), Storm's XOR acker and the spout's replays;
//! - [`tuple_tree`]: the data it keeps (the acker's and the spouts' pending maps, the messages);
//! - [`rotating_map`]: Storm's `RotatingMap`, how a pending tuple times out;
//! - [`steps`]: its own steps, the messages to and from the acker;
//! - [`events`]: its events (`StormEvent`), as the run's log carries them;
//! - [`wording`]: its narration, in English and Chinese.

pub mod acker;
pub mod events;
pub mod rotating_map;
pub mod steps;
pub mod tuple_tree;
pub(crate) mod wording;
