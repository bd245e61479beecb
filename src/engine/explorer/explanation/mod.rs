//! Explanations: why a counterexample loses or duplicates what it does, in plain words, built
//! from the run and never written by hand, as Jepsen's Elle explains each anomaly it finds by the
//! operations that make it one. The schedule is replayed and its events and saves are read for
//! the facts that decide a record's fate, following the rollback-recovery survey's terms (Elnozahy
//! et al.): a record the restored source has sent but the restored downstream task has not
//! received is **in transit** across the cut and lost; one the task has received but the source
//! has not sent is an **orphan** and counted twice.
//!
//! For each record with the bad verdict, the facts are: the source that sends it and the save
//! the restore resumes that source from (its step, its offset), the step the source sent the
//! record; the task whose state or output is wrong (the first stateful task, or the sink, that
//! reflects it a different number of times than the failure-free run) and the save the restore
//! gives it, the step the record reached it; the crash and the restore; and for a duplicate,
//! the steps at which the record is sent and taken again. Records with the same story (the same
//! tasks, saves and verdict) are told together. Each fact's step is a **decisive step**, returned
//! for a timeline to mark. The story follows the last crash of the schedule.
//!
//! Steps are numbered from 1, as the runner's `--events` lists them: step n is the n-th action of
//! the schedule, and a timeline shows its effect at position n.
//!
//! This file holds what an explanation is made of (the decisive steps, the saves, the accounts,
//! the story); `runs/replay.rs` replays the schedule, `accounting.rs` reads the replay for each record's
//! facts and tells records with one story together, and `prose.rs` words the accounts in English
//! and Chinese.

mod accounting;
mod prose;
mod replay;

use serde::{Deserialize, Serialize};

use super::outcome::BadOutcome;
use crate::engine::core::ids::{ChannelId, CheckpointId, RecordId, TaskId};

/// What a decisive step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decisive {
    /// The source sent the record (before the crash).
    Sent,
    /// A task took the save the restore uses.
    Saved,
    /// The record reached the task whose state or output is wrong (before the crash).
    Received,
    /// A checkpoint's barrier reached that task ahead of the record, on the record's channel.
    BarrierAhead,
    /// The cluster crashed.
    Crashed,
    /// The restore.
    Restored,
    /// After the restore: the source sent the record again, or the restore replayed it.
    SentAgain,
    /// After the restore: the record reached the task again.
    ReceivedAgain,
    /// A barrier handler of the lab dropped the record.
    Dropped,
}

/// A step a timeline should mark, with what happened there, at which task, to which records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisiveStep {
    /// Numbered from 1: the n-th action of the schedule.
    pub step: u32,
    pub what: Decisive,
    pub task: Option<TaskId>,
    pub records: Vec<RecordId>,
}

/// Where a task came back from at the restore.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "from")]
pub enum Save {
    /// Its save (a timer's, or its snapshot in `checkpoint`) taken at `step`; `step` is None if
    /// it was taken before the schedule began.
    At { step: Option<u32>, checkpoint: Option<CheckpointId> },
    /// It had no save the restore could use: it starts empty (a source at offset 0).
    NotYet,
    /// No checkpoint had completed: every task starts empty, every source at offset 0.
    NoCheckpoint,
    /// Strategy `none` keeps no snapshot: tasks start empty, sources where the restart policy says.
    NoSnapshots,
}

/// Why some records ended with the verdict: one story shared by all of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Account {
    /// Sent by the source before its save, not in the task's restored state (or not written by
    /// the sink), and the restored source resumes after them: in transit across the cut.
    InTransit {
        records: Vec<RecordId>,
        source: TaskId,
        source_save: Save,
        /// Where the restored source resumes.
        resume: u32,
        /// Per record: the step the source sent it.
        sent: Vec<Option<u32>>,
        task: TaskId,
        task_save: Save,
        /// Per record: the step it reached the task before the crash, after the task's save.
        reached: Vec<Option<u32>>,
    },
    /// In the task's restored state (or written by the sink before the crash), and the restored
    /// source sends them again (or the restore replays them): orphans of the cut.
    Orphans {
        records: Vec<RecordId>,
        source: TaskId,
        source_save: Save,
        resume: u32,
        /// Per record: the step the source sent it before the crash.
        sent: Vec<Option<u32>>,
        task: TaskId,
        task_save: Save,
        /// Per record: the step it reached the task (the sink wrote it) before the crash.
        reached: Vec<Option<u32>>,
        /// Per record: the step the checkpoint's barrier had reached the task on the record's
        /// channel before the record did (barriers without alignment let it in before the
        /// snapshot), and that channel.
        behind_barrier: Vec<Option<(u32, ChannelId)>>,
        /// The restore put them back from the in-flight data of the checkpoint.
        replayed: bool,
        /// Per record: the step it was sent again, and the step it reached the task again.
        sent_again: Vec<Option<u32>>,
        reached_again: Vec<Option<u32>>,
    },
    /// A barrier handler (of the lab) dropped them on arrival, after the checkpoint's barrier
    /// on their channel, and nothing sent them again.
    Dropped {
        records: Vec<RecordId>,
        task: TaskId,
        /// Per record: the step it was dropped, and the step and channel of the barrier it came
        /// behind.
        dropped: Vec<Option<u32>>,
        behind_barrier: Vec<Option<(u32, ChannelId)>>,
    },
    /// Completeness: in the failure-free run they take effect at `task` from `channel` (a path of
    /// the job they take); here a restore took that effect back, or it never happened, and
    /// nothing brought them along that path again.
    Incomplete {
        records: Vec<RecordId>,
        channel: ChannelId,
        task: TaskId,
        /// The save the restore gave the task (None without a crash and restore).
        task_save: Option<Save>,
        /// Per record: the step it last took effect there before the crash (taken back).
        took: Vec<Option<u32>>,
    },
    /// Order: they took effect at `task` from `channel` (or, `external`, appear in what a reader
    /// sees of the sink's rows) after a record of the same source partition with the same or a
    /// later offset had.
    OutOfOrder {
        records: Vec<RecordId>,
        channel: ChannelId,
        external: bool,
        task: TaskId,
        /// Per record: the step it took effect out of order.
        at: Vec<Option<u32>>,
        /// Per record: the newer record it came after (itself: a second effect), and that one's
        /// step.
        after: Vec<Option<(RecordId, Option<u32>)>>,
        /// The save the restore gave the task (None without a crash and restore).
        task_save: Option<Save>,
    },
    /// No story above fits: the verdict alone.
    Unexplained { records: Vec<RecordId>, reflected: Vec<u32>, expected: Vec<u32> },
}

/// The story of a counterexample: its records, the crash and restore it turns on, the accounts
/// of the records, and the decisive steps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Story {
    pub bad: BadOutcome,
    /// The records with the bad verdict at the end.
    pub records: Vec<RecordId>,
    pub crash: Option<u32>,
    pub restore: Option<u32>,
    pub accounts: Vec<Account>,
    /// In step order.
    pub decisive: Vec<DecisiveStep>,
}
