//! Actions. Every change to a run is a serializable [`Action`]: the learner's click, a scenario
//! script line, or the scheduler's seeded choice, each with a compact code for links and saved
//! runs. What a step reports is an [`Event`] (`core/event.rs`), in the terms of `core/event_terms.rs`; both
//! are named from here as well, so `action::Event` keeps working.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::kafka::faults::KafkaFault;
use crate::engine::core::ids::{ChannelId, CheckpointId, TaskId};
use crate::engine::core::step::Step;

pub use crate::engine::core::event::Event;
pub use crate::engine::core::event_terms::{AbortReason, CrashScope, GaveUp, Guarantee, RestoreFrom, SnapshotKind};

/// One step of a run, as the learner, a script or the scheduler takes it.
///
/// Its `Debug` is derived natively; in the page it is the action's code ([`Action::code`], `d3`),
/// as a lesson's check names a refused action: the derived one would put 0.8 KB of code on the
/// page's first visit for what the code says.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Debug))]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum Action {
    /// Deliver the head of this channel (a record or a barrier) to its consumer, which processes it.
    Deliver { channel: ChannelId },
    /// Let a source read its next record from the log and emit it.
    Read { task: TaskId },
    /// Ask the CheckpointCoordinator to trigger a checkpoint.
    Checkpoint,
    /// Fire one task's snapshot timer (strategy `timers`).
    Timer { task: TaskId },
    /// Fire every task's snapshot timer at the same moment.
    AllTimers,
    /// The whole cluster dies: every task's volatile state and every in-flight record are lost.
    Crash,
    /// One task fails; the job fails over: every task, or the failed task's pipelined region
    /// (the failover strategy), restarts from the last save.
    CrashTask { task: TaskId },
    /// The JobManager fails: pending checkpoints are lost, completed ones survive in storage.
    CrashJobManager,
    /// The (new) JobManager restores every task that is down and the job goes on.
    Restore,
    /// The JobManager's notification that a checkpoint completed reaches this task (Flink's
    /// `notifyCheckpointComplete`, an RPC of its own): a two-phase-commit sink commits.
    Notify { task: TaskId },
    /// A step of the mechanism's own (`core::step`), such as a message to Storm's acker.
    Mechanism { step: Step },
    /// Time passes: one step with nothing else done (a socket's records arrive, the driver's
    /// batch interval runs).
    Wait,
    /// The user triggers a savepoint (`flink savepoint`): user-owned, kept until the user deletes
    /// it, never among the job's retained checkpoints.
    Savepoint,
    /// Stop with savepoint (`flink stop`): the periodic checkpoints stop, a synchronous savepoint
    /// is taken, and once it has completed and been notified the job finishes.
    StopWithSavepoint,
    /// The user cancels the job (`flink cancel`): it stops at once; its checkpoints are deleted
    /// unless retained on cancellation; savepoints stay.
    Cancel,
    /// Submit the stopped job again from savepoint or retained checkpoint `from` (`flink run -s`).
    Resume { from: CheckpointId },
    /// The Kafka sink's faults (`sink: kafka`, `core/dataflow/kafka/faults.rs`), each a variant
    /// of its own (one variant holding a `KafkaFault` would lend it its tag, and every match on an
    /// action would decode it): a sink task cut off that goes on as a zombie,
    CutOff { task: TaskId },
    /// the zombie's write,
    ZombieWrite { task: TaskId },
    /// time passing on the broker's clock.
    PassTime { ms: u64 },
    /// The scheduler draws one enabled delivery, read or notification (or the restore) from the
    /// seeded PRNG.
    Auto,
}

#[cfg(target_arch = "wasm32")]
impl std::fmt::Debug for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.code())
    }
}

impl Action {
    /// A compact code for links and saved runs: `d3` deliver channel 3, `r0` read task 0, `c`
    /// checkpoint, `t2` timer of task 2, `T` all timers, `X` crash, `k1` crash task 1, `J` crash
    /// the JobManager, `R` restore, `n3` notify task 3, a mechanism's own step as its letter and task
    /// (Storm's `q2`, task 2's message to the acker, and `p0`, the acker's answer to task 0), `a` auto, `v` savepoint, `V` stop with savepoint, `C` cancel,
    /// `u2` submit again from savepoint (or retained checkpoint) 2; the Kafka sink's faults: `o3` cut
    /// task 3 off (a zombie), `z3` its zombie writes, `b60000` 60,000 ms pass on the broker's clock.
    pub fn code(&self) -> String {
        match *self {
            Action::Deliver { channel } => format!("d{}", channel.0),
            Action::Read { task } => format!("r{}", task.0),
            Action::Checkpoint => "c".into(),
            Action::Timer { task } => format!("t{}", task.0),
            Action::AllTimers => "T".into(),
            Action::Crash => "X".into(),
            Action::CrashTask { task } => format!("k{}", task.0),
            Action::CrashJobManager => "J".into(),
            Action::Restore => "R".into(),
            Action::Notify { task } => format!("n{}", task.0),
            Action::Mechanism { step } => format!("{}{}", step.kind, step.task.0),
            Action::Auto => "a".into(),
            Action::Wait => "w".into(),
            Action::Savepoint => "v".into(),
            Action::StopWithSavepoint => "V".into(),
            Action::Cancel => "C".into(),
            Action::Resume { from } => format!("u{}", from.0),
            Action::CutOff { .. } | Action::ZombieWrite { .. } | Action::PassTime { .. } => {
                self.kafka_fault().expect("a Kafka fault").code()
            }
        }
    }

    /// Parses [`Action::code`]; None if it is not one.
    pub fn from_code(s: &str) -> Option<Action> {
        let (head, rest) = s.split_at(s.char_indices().nth(1).map_or(s.len(), |(i, _)| i));
        let n64 = || -> Option<u64> {
            if rest.is_empty() || rest.len() > 9 || !rest.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            rest.parse().ok()
        };
        let n = || -> Option<u16> {
            if rest.is_empty() || rest.len() > 5 || !rest.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            rest.parse().ok()
        };
        Some(match head {
            "d" => Action::Deliver { channel: ChannelId(n()?) },
            "r" => Action::Read { task: TaskId(n()?) },
            "t" => Action::Timer { task: TaskId(n()?) },
            "k" => Action::CrashTask { task: TaskId(n()?) },
            "n" => Action::Notify { task: TaskId(n()?) },
            "o" => Action::CutOff { task: TaskId(n()?) },
            "z" => Action::ZombieWrite { task: TaskId(n()?) },
            // Milliseconds up to the 10^12 a check allows: 13 digits.
            "b" if rest.len() <= 13 && !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) => {
                Action::PassTime { ms: rest.parse().ok()? }
            }
            // Any other lower-case letter with a task is a mechanism's own step; the mechanism
            // refuses a letter it does not know when the step is checked.
            k if k.len() == 1 && k.as_bytes()[0].is_ascii_lowercase() && !"cawvuozb".contains(k) => {
                Action::Mechanism { step: Step { kind: k.as_bytes()[0] as char, task: TaskId(n()?) } }
            }
            "u" => Action::Resume { from: CheckpointId(n64()?) },
            _ if !rest.is_empty() => return None,
            "c" => Action::Checkpoint,
            "T" => Action::AllTimers,
            "X" => Action::Crash,
            "J" => Action::CrashJobManager,
            "R" => Action::Restore,
            "a" => Action::Auto,
            "w" => Action::Wait,
            "v" => Action::Savepoint,
            "V" => Action::StopWithSavepoint,
            "C" => Action::Cancel,
            _ => return None,
        })
    }
}

impl Action {
    /// The Kafka sink's fault this action is, if it is one.
    pub fn kafka_fault(&self) -> Option<KafkaFault> {
        match *self {
            Action::CutOff { task } => Some(KafkaFault::CutOff { task }),
            Action::ZombieWrite { task } => Some(KafkaFault::ZombieWrite { task }),
            Action::PassTime { ms } => Some(KafkaFault::PassTime { ms }),
            _ => None,
        }
    }
}

impl From<KafkaFault> for Action {
    fn from(f: KafkaFault) -> Action {
        match f {
            KafkaFault::CutOff { task } => Action::CutOff { task },
            KafkaFault::ZombieWrite { task } => Action::ZombieWrite { task },
            KafkaFault::PassTime { ms } => Action::PassTime { ms },
        }
    }
}
