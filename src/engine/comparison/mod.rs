//! Side by side: one job, one input, one crash, up to three fault-tolerance mechanisms in
//! lockstep, and what each one cost.
//!
//! The second article in `shared/seeds` ends on a thesis: every stream processor survives failure
//! by **cutting the stream and retrying** (确认与重试); what differs is how fine the cut is, and what
//! it costs:
//! - **Storm** cuts per record. Its XOR acker (`super::mechanisms::storm::acker`) follows every tuple tree
//!   and the spout replays a record whose tree did not complete: acks for everything, little added
//!   latency, no stored copy of the stream, and no operator state saved (a crash restarts the
//!   worker's bolts empty).
//! - **Spark Streaming** cuts per micro-batch (`super::mechanisms::spark::micro_batches`): a record waits
//!   for its batch, and the write-ahead log keeps a full copy of the stream so a driver restart can
//!   run the batch again; the state RDD is checkpointed every few batches.
//! - **Flink** cuts with checkpoint barriers that flow with the records
//!   (`super::mechanisms::aligned`): no batch to wait for, only state stored, but a restore needs a
//!   source that can replay from the saved offset.
//!
//! A comparison makes the thesis measurable. It runs each configuration (a strategy and its
//! settings) on its own [`Sim`](crate::engine::core::sim::Sim) of the same job and input, in **lockstep** on one
//! logical clock ([`lockstep`]):
//! - tick n is the n-th step of every run that has not finished: each run takes exactly one step
//!   per tick, drawn by its own scheduler from a PRNG seeded with the comparison's one seed, or
//!   waits (`wait`) when nothing is enabled yet;
//! - a record arrives at its tick (`"a:x@3"`; without one, at its offset) in every run: a socket
//!   brings it then, and a replayable log (a Kafka partition) has it appended then, so no run reads
//!   it earlier;
//! - at the crash tick every run takes its crash action instead of a scheduler step, at the same
//!   place (the cluster, the worker running a task, or the master; [`CrashPlace`]); before the restore
//!   tick no run restores; from the restore tick on, a run that is down restores at every tick
//!   until it runs (a JobManager without HA takes two);
//! - a run finishes when it has nothing left to do after the restore (a run with a two-phase-commit
//!   sink takes one final checkpoint first, as Flink does when bounded input ends) and takes no
//!   more steps: its clock stops there.
//!
//! [`costs`] measures each run as it goes, from its events and its durable parts, into the cost
//! table: records re-processed after the crash, bytes stored for fault tolerance, control
//! messages, latency from arrival to visible output, steps from the crash until the job runs
//! again, and the ledger's final verdicts. [`format`](mod@format) is the comparison file, and the reading of
//! two or three scenario files as one comparison; [`wording`] says what a crash place means under
//! each mechanism. The core is pure (no clock, no files, no
//! threads), so the page can run it as the runner does.

pub mod costs;
pub mod format;
pub mod lockstep;
pub mod wording;

pub use costs::{Bytes, Costs, Latency, Messages, Recovery, Reprocessed, Verdicts};
pub use format::{
    ComparisonError, ComparisonFile, Configuration, CrashPlace, CrashPlan, RestorePlan, MAX_CONFIGURATIONS, MAX_TICKS,
};
pub use lockstep::{Lane, Lockstep, Step};
pub use wording::crash_meaning;
