//! The pure simulation core. No browser, no wall clock, no hash-map iteration, one seeded PRNG:
//! the same scenario, seed and actions give the same run natively and in wasm.

pub mod action;
pub mod error;
pub mod ids;
pub mod lang;
pub mod ledger;
pub mod rng;
pub mod scenario;
pub mod settings;
pub mod sim;
pub mod state;
pub mod timeline;
pub mod topology;
pub mod wording;
pub mod workload;

pub use action::{AbortReason, Action, CrashScope, Event, RestoreFrom, SnapshotKind};
pub use error::{ActionError, ScenarioError};
pub use ids::{ChannelId, CheckpointId, KeyId, OperatorId, RecordId, TaskId, TxnId};
pub use lang::Lang;
pub use ledger::{CutReport, Ledger, Tally, Verdict};
pub use scenario::{fingerprint, Scenario, ScriptAction};
pub use settings::{RestartPolicy, Settings, SinkMode, Strategy, TimerSpec};
pub use sim::Sim;
pub use state::*;
pub use timeline::Timeline;
pub use topology::{builtin, JobGraph, BUILTIN_NAMES};
pub use wording::{describe, narrate};
