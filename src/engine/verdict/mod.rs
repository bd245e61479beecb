//! The verdict: what a run is judged against, and the checks beside the ledger.
//!
//! - [`reference_run`]: the failure-free run, the model every verdict is judged against.
//! - [`cut`]: the consistent-cut check of a checkpoint, after Chandy and Lamport.
//! - [`drawn_cut`]: a cut the learner draws, and what a restore from it would do.
//! - [`unfinished`]: a run that never ends, and why.
//! - [`kafka_readers`]: a Kafka sink's records as its `read_committed` and `read_uncommitted` readers saw them.

pub mod cut;
pub mod drawn_cut;
pub mod kafka_readers;
pub mod reference_run;
pub mod unfinished;
