//! Batch recovery: where fault tolerance began. A batch job survives a failure by running work
//! again, because its input is still in reliable storage and a task's output counts only once the
//! task has finished.
//!
//! - [`hadoop`]: Hadoop MapReduce re-runs a failed task; map outputs live on the mappers' local
//!   disks, so a lost node's finished maps run again and a failed reduce re-runs no map.
//! - [`lineage`], [`spark`]: Spark's RDD lineage, stages cut at wide dependencies, and the
//!   DAGScheduler's recovery: a lost partition is recomputed from its parents, a lost shuffle output
//!   by resubmitting only the missing map partitions of the parent stage; `persist` (MEMORY_ONLY)
//!   dies with its executor, `checkpoint` survives it.
//! - [`data`]: the word count every job computes.
//! - [`action`], [`run`]: the serializable actions, a run with its playhead; [`cost`]: task runs,
//!   partitions and records recomputed.
//! - [`ledger`]: every output record exactly once, judged against the failure-free run.
//! - [`format`](mod@format): the file, link and storage text; [`jobs`]: the built-in jobs; [`lesson`]: the
//!   batch lesson; [`wording`]: its words in English and Chinese.
//!
//! Nothing on the main screen uses this module: it is the batch room's engine.

pub mod action;
pub mod cost;
pub mod data;
pub mod format;
pub mod hadoop;
pub mod jobs;
pub mod ledger;
pub mod lesson;
pub mod lineage;
pub mod run;
pub mod spark;
pub mod wording;

pub use action::{BatchAction, Refusal};
pub use cost::Cost;
pub use data::Rec;
pub use format::{BatchFile, BatchLoadError};
pub use jobs::{batch_job, BATCH_JOBS};
pub use ledger::{BatchLedger, BatchVerdict};
pub use lesson::{BatchStep, BATCH_LESSON};
pub use lineage::{Keep, Lineage, Op, RddSpec};
pub use run::{BatchEvent, BatchRun, BatchSim, BatchSpec};
