//! The pure simulation core. No browser, no wall clock, no hash-map iteration, one seeded PRNG:
//! the same scenario, seed and actions give the same run natively and in wasm.
//!
//! - [`dataflow`]: the job as it runs: graph, tasks, channels, records, sources, operators, sinks.
//! - [`mechanisms`]: how it survives failure, one file per mechanism, behind one seam.
//! - [`coordinator`], [`snapshot`], [`storage`]: checkpoints, what a task saves, where it goes.
//! - [`recovery`]: crash and restore; what a crash destroys and what survives it.
//! - [`high_availability`], [`master_failover`]: the JobManagers, a standby's election, a job
//!   resubmitted without HA; the failover statistics.
//! - [`sim`]: one run, driven by [`Action`]s; [`script`], [`scenario`], [`timeline`] drive it.
//! - [`reference_run`], [`history`], [`ledger`], [`cut`], [`drawn_cut`], [`stats`]: the verdict and the
//!   measurements.
//! - [`space_time`]: the run as a space-time diagram: one line per task, one arrow per message.
//! - [`batch`]: batch recovery, the batch room's own engine: Hadoop re-runs a failed task, Spark
//!   recomputes a lost partition from its lineage. Nothing else in the engine uses it.
//! - [`comparison`]: one input and one crash under up to three mechanisms in lockstep, and the
//!   cost table of what each paid.
//! - [`explorer`]: every schedule of a small job under a fault budget, the shortest one to each
//!   bad outcome, and why.
//! - [`pyflink_export`]: a scenario as a runnable PyFlink job, to check the verdict on a real
//!   Apache Flink; [`pyflink_placement`]: how that job puts each key on the simulator's subtask.
//! - [`pyspark_export`]: a Spark Streaming scenario or a Spark batch run as a runnable PySpark
//!   job, to check the verdict on a real Apache Spark.

pub mod action;
pub mod base64url;
pub mod batch;
pub mod checkpoint;
pub mod comparison;
pub mod coordinator;
pub mod cut;
pub mod dataflow;
pub mod drawn_cut;
pub mod error;
mod error_wording;
pub mod event;
pub mod event_terms;
pub mod explorer;
pub mod high_availability;
pub mod history;
pub mod ids;
pub mod key_groups;
pub mod lang;
pub mod ledger;
pub mod master_failover;
pub mod mechanisms;
pub mod operator_id;
pub mod program_edit;
pub mod pyflink_export;
pub mod pyflink_placement;
pub mod pyspark_export;
pub mod recovery;
pub mod reference_run;
pub mod replay;
pub mod rescale;
pub mod rng;
pub mod run_alignment;
pub mod savepoint;
pub mod savepoint_wording;
pub mod scenario;
pub mod scenario_restore;
pub mod script;
pub mod settings;
pub mod sim;
pub mod snapshot;
pub mod sorted_vec;
pub mod space_time;
pub mod stable_sort;
pub mod stats;
pub mod storage;
pub mod timeline;
pub mod unfinished;
pub mod wording;
pub mod workload;

pub use action::{AbortReason, Action, CrashScope, Event, GaveUp, Guarantee, RestoreFrom, SnapshotKind};
pub use checkpoint::{Notification, PendingCheckpoint};
pub use cut::{ChannelCut, CutReport};
pub use dataflow::builtin_jobs::{auto_label, builtin, generated_input, BuiltinJob, BUILTIN_NAMES, PROGRAM_JOB_NAMES};
pub use dataflow::channel::{Channel, Fate, SeqSet};
pub use dataflow::external_system::{ExternalSystem, Row, Txn, TxnStatus};
pub use dataflow::job_graph::{JobGraph, OperatorKind};
pub use dataflow::record::{Barrier, Item, Record};
pub use dataflow::state::{KeyedEntry, OpState};
pub use dataflow::task::{TaskRuntime, TaskStatus};
pub use drawn_cut::{Arrow, Crossing, CutRestore, DrawnCut, DrawnCutError};
pub use error::{ActionError, ScenarioError};
pub use high_availability::{JobManagerName, Masters};
pub use history::Place;
pub use ids::{ChannelId, CheckpointId, KeyId, OperatorId, RecordId, TaskId, TxnId};
pub use lang::Lang;
pub use ledger::{CompleteTally, Completeness, Ledger, LedgerRow, Order, OrderTally, Tally, Verdict};
pub use mechanisms::progress::Alignment;
pub use mechanisms::spark::events::SparkStreamingEvent;
pub use mechanisms::storm::events::StormEvent;
pub use pyflink_export::{export_pyflink, ExportError};
pub use pyspark_export::{export_pyspark, export_pyspark_batch, SparkExportError};
pub use savepoint::{JobEnd, Savepoint, SavepointType};
pub use scenario::{fingerprint, FaultBudget, Scenario};
pub use script::{OnRefusal, ScriptAction, ScriptError};
pub use settings::{
    CheckpointRetention, FailoverStrategy, HighAvailability, RestartPolicy, Setting, Settings, SinkMode, SourceKind,
    Strategy, TimerSpec,
};
pub use sim::Sim;
pub use snapshot::TaskSnapshot;
pub use stats::{
    CheckpointRecord, CheckpointStats, CheckpointStatus, Counts, FailoverRecord, FailureCause, SubtaskStats, Takeover,
};
pub use storage::{CheckpointStorage, CompletedCheckpoint, SAVES_KEPT};
pub use timeline::{Branch, Timeline};
pub use unfinished::{Cause as UnfinishedCause, EndWatch, Unfinished};
pub use wording::{describe, narrate};
