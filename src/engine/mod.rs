//! The pure simulation core. No browser, no wall clock, no hash-map iteration, one seeded PRNG:
//! the same scenario, seed and actions give the same run natively and in wasm.
//!
//! In reading order, each tier built on the one before (`tests/import_circles.rs` keeps it so):
//!
//! 1. The run itself:
//!    - [`settings`]: how a run saves state and recovers, named after Flink's configuration keys.
//!    - [`core`]: one run ([`Sim`]), driven by [`Action`]s; the dataflow (graph, tasks, channels,
//!      records, sources, operators, sinks); the seam a mechanism plugs in through; crash and
//!      restore; the history and the ledger, each record's verdict.
//!    - [`jobmanager`]: the CheckpointCoordinator, checkpoint storage, the statistics, the
//!      JobManagers' high availability.
//! 2. [`mechanisms`]: how the job survives failure, one file or folder per mechanism, each with its
//!    row of the catalogue.
//! 3. What is built on a run:
//!    - [`verdict`]: the failure-free run, the consistent-cut check, a drawn cut, an unfinished run.
//!    - [`runs`]: scenario files, scripts, time travel and replay.
//!    - [`program`]: savepoints, and a restore into a changed program.
//!    - [`wording`]: the narration, in English and Chinese.
//!    - [`space_time`]: the run as a space-time diagram: one line per task, one arrow per message.
//!    - [`comparison`]: one input and one crash under up to three mechanisms in lockstep, and the
//!      cost table of what each paid.
//!    - [`explorer`]: every schedule of a small job under a fault budget, the shortest one to each
//!      bad outcome, and why.
//!    - [`exports`]: a scenario as a runnable PyFlink or PySpark job, to check the verdict on a
//!      real Apache Flink or Apache Spark.
//!    - [`batch`]: batch recovery, the batch room's own engine: Hadoop re-runs a failed task, Spark
//!      recomputes a lost partition from its lineage.

pub mod batch;
pub mod comparison;
pub mod core;
pub mod explorer;
pub mod exports;
pub mod jobmanager;
pub mod mechanisms;
pub mod program;
pub mod runs;
pub mod settings;
pub mod space_time;
pub mod verdict;
pub mod wording;

pub use core::action::{AbortReason, Action, CrashScope, Event, GaveUp, Guarantee, RestoreFrom, SnapshotKind};
pub use core::dataflow::builtin_jobs::{
    auto_label, builtin, generated_input, BuiltinJob, BUILTIN_NAMES, PROGRAM_JOB_NAMES,
};
pub use core::dataflow::channel::{Channel, Fate, SeqSet};
pub use core::dataflow::external_system::{ExternalSystem, Row, Txn, TxnStatus};
pub use core::dataflow::job_graph::{JobGraph, OperatorKind};
pub use core::dataflow::record::{Barrier, Item, Record};
pub use core::dataflow::state::{KeyedEntry, OpState};
pub use core::dataflow::task::{TaskRuntime, TaskStatus};
pub use core::dataflow::task_time::{PressureLevel, TaskClass, TimeShares};
pub use core::error::{ActionError, ScenarioError};
pub use core::history::Place;
pub use core::ids::{ChannelId, CheckpointId, KeyId, OperatorId, RecordId, TaskId, TxnId};
pub use core::lang::Lang;
pub use core::ledger::{CompleteTally, Completeness, Ledger, LedgerRow, Order, OrderTally, Tally, Verdict};
pub use core::sim::Sim;
pub use core::snapshot::TaskSnapshot;
pub use exports::pyflink_export::{export_pyflink, ExportError};
pub use exports::pyspark_export::{export_pyspark, export_pyspark_batch, SparkExportError};
pub use jobmanager::checkpoint::{Notification, PendingCheckpoint};
pub use jobmanager::high_availability::{JobManagerName, Masters};
pub use jobmanager::stats::{
    CheckpointRecord, CheckpointStats, CheckpointStatus, Counts, FailoverRecord, FailureCause, SubtaskStats, Takeover,
};
pub use jobmanager::storage::{CheckpointStorage, CompletedCheckpoint, SAVES_KEPT};
pub use mechanisms::progress::Alignment;
pub use program::savepoint::{JobEnd, Savepoint, SavepointType};
pub use runs::scenario::{fingerprint, FaultBudget, Scenario};
pub use runs::script::{OnRefusal, ScriptAction, ScriptError};
pub use runs::timeline::{Branch, Timeline};
pub use settings::{
    CheckpointRetention, FailoverStrategy, HighAvailability, RestartPolicy, Setting, Settings, SinkMode, SourceKind,
    Strategy, TimerSpec,
};
pub use verdict::cut::{ChannelCut, CutReport};
pub use verdict::drawn_cut::{Arrow, Crossing, CutRestore, DrawnCut, DrawnCutError};
pub use verdict::unfinished::{Cause as UnfinishedCause, EndWatch, Unfinished};
pub use wording::{describe, narrate};
