//! Events. Every step reports what happened as typed [`Event`]s: at once the UI's narration, the
//! runner's log and the determinism fingerprint. Their terms (guarantees, snapshot kinds, abort
//! reasons, crash scopes, restore sources) are in `core/event_terms.rs`.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::kafka::events::KafkaEvent;
use crate::engine::core::event_terms::{AbortReason, CrashScope, GaveUp, Guarantee, RestoreFrom, SnapshotKind};
use crate::engine::core::ids::{ChannelId, CheckpointId, RecordId, TaskId, TxnId};
use crate::engine::jobmanager::high_availability::JobManagerName;
use crate::engine::mechanisms::catalogue::carried::MechanismEvent;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// A source read the record at `offset` and emitted it; `replayed` if it had been read before.
    Read {
        task: TaskId,
        record: RecordId,
        offset: u32,
        replayed: bool,
    },
    /// A source has nothing more to read.
    SourceExhausted {
        task: TaskId,
    },
    /// A task processed a record from a channel. `value` is the new count or sum for stateful
    /// operators; `emitted` how many channels it went out on.
    Processed {
        task: TaskId,
        channel: ChannelId,
        record: RecordId,
        value: Option<i64>,
        emitted: u16,
        filtered: bool,
    },
    /// A sink wrote a record to the external system (into transaction `txn` for two-phase commit).
    SinkWrite {
        task: TaskId,
        record: RecordId,
        txn: Option<TxnId>,
        overwrote: bool,
    },
    /// The barrier-handler lab dropped a record that arrived on an input after its barrier of
    /// `checkpoint`: it is not processed.
    RecordDiscarded {
        task: TaskId,
        channel: ChannelId,
        record: RecordId,
        checkpoint: CheckpointId,
    },
    /// A record was delivered during unaligned recording and saved as in-flight data.
    InFlightRecorded {
        task: TaskId,
        channel: ChannelId,
        record: RecordId,
    },
    CheckpointTriggered {
        checkpoint: CheckpointId,
    },
    /// The trigger failed before a checkpoint id was drawn: `task` is not running (Flink's
    /// `NOT_ALL_REQUIRED_TASKS_RUNNING`; not a counted failure).
    TriggerFailed {
        task: TaskId,
    },
    /// The trigger was refused: a stop-the-world checkpoint is in progress, or the queue of
    /// trigger requests is full.
    CheckpointRefused {
        pending: u32,
    },
    /// The trigger request waits: `pending` checkpoints fill max-concurrent-checkpoints; it is
    /// number `queued` in the queue (`CheckpointRequestDecider`) and runs when a slot frees.
    CheckpointQueued {
        pending: u32,
        queued: u32,
    },
    /// A task put a barrier on its outputs; `unaligned`: at the head of each queue, jumping
    /// `overtook` records.
    BarrierEmitted {
        task: TaskId,
        checkpoint: CheckpointId,
        overtook: u32,
        #[serde(default, skip_serializing_if = "is_false")]
        unaligned: bool,
    },
    /// A barrier arrived; `waiting` inputs still have to deliver theirs.
    BarrierReceived {
        task: TaskId,
        channel: ChannelId,
        checkpoint: CheckpointId,
        first: bool,
        waiting: u16,
    },
    /// A barrier of a checkpoint the task has already handled or that was aborted: dropped.
    BarrierIgnored {
        task: TaskId,
        channel: ChannelId,
        checkpoint: CheckpointId,
    },
    ChannelBlocked {
        channel: ChannelId,
        checkpoint: CheckpointId,
    },
    ChannelUnblocked {
        channel: ChannelId,
    },
    /// The alignment timeout has passed since the checkpoint was triggered while the task still
    /// waited for barriers: the checkpoint turns unaligned at this task.
    AlignmentTimedOut {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// An unaligned barrier reached a task taking this checkpoint aligned: it turns unaligned at
    /// once instead of aligning.
    UnalignedBarrierReceived {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// A task gave up a checkpoint (aborted, subsumed by a newer barrier, or cancelled by a
    /// marker); `what` it let go of depends on the mechanism.
    AlignmentAborted {
        task: TaskId,
        checkpoint: CheckpointId,
        what: GaveUp,
    },
    /// A task declined a checkpoint to the CheckpointCoordinator (Flink's
    /// `abortCheckpointOnBarrier`, then `receiveDeclineMessage`); the coordinator aborts it if it
    /// is still pending.
    CheckpointDeclined {
        task: TaskId,
        checkpoint: CheckpointId,
        reason: AbortReason,
        /// The checkpoint was still pending, so the decline aborts it.
        pending: bool,
    },
    /// The CheckpointCoordinator's abort reached a task collecting that checkpoint's barriers
    /// (Flink's `notifyCheckpointAborted`): the task goes on collecting them. A snapshot it took
    /// early is discarded with its `discarded` in-flight records; one it has not taken it never
    /// takes: it will send a cancel marker on instead.
    AbortNotified {
        task: TaskId,
        checkpoint: CheckpointId,
        discarded: Option<u32>,
    },
    /// The task's barrier handler would start a checkpoint that was aborted before: no snapshot,
    /// and a cancel marker goes on instead of the barrier.
    SnapshotSkipped {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// A task put a cancel marker for a checkpoint it declined on every output.
    CancelMarkerSent {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// A cancel marker arrived. `fresh`: the task had neither finished nor given up that
    /// checkpoint, so it gives it up, declines it and forwards the marker; otherwise it is
    /// dropped.
    CancelMarkerReceived {
        task: TaskId,
        channel: ChannelId,
        checkpoint: CheckpointId,
        fresh: bool,
    },
    SnapshotTaken {
        task: TaskId,
        checkpoint: Option<CheckpointId>,
        kind: SnapshotKind,
    },
    Acknowledged {
        task: TaskId,
        checkpoint: CheckpointId,
        acked: u16,
        total: u16,
    },
    /// An acknowledgement for a checkpoint that is no longer pending.
    AckDiscarded {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    CheckpointCompleted {
        checkpoint: CheckpointId,
        duration: u64,
        /// What restoring from it guarantees.
        guarantee: Guarantee,
    },
    CheckpointAborted {
        checkpoint: CheckpointId,
        reason: AbortReason,
    },
    /// The JobManager sent `task` the notification that `checkpoint` completed; it is on its way
    /// (two-phase-commit sinks commit when it arrives).
    NotificationSent {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// The notification that `checkpoint` completed reached `task`.
    NotificationDelivered {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// `failed` counted checkpoint failures in a row exceed `tolerable`: the job fails over.
    TolerableFailuresExceeded {
        failed: u32,
        tolerable: u32,
    },
    TxnPreCommitted {
        task: TaskId,
        txn: TxnId,
        checkpoint: CheckpointId,
    },
    TxnCommitted {
        task: TaskId,
        txn: TxnId,
        rows: u32,
    },
    TxnAborted {
        task: TaskId,
        txn: TxnId,
        rows: u32,
    },
    /// Stop-the-world: sources paused until every channel is empty.
    SourcesPaused {
        checkpoint: CheckpointId,
    },
    SourcesResumed {
        checkpoint: CheckpointId,
        stall: u64,
    },
    Crashed {
        scope: CrashScope,
        lost_in_flight: u32,
    },
    Restored {
        from: RestoreFrom,
    },
    /// Region failover: `task` failed; its pipelined region (`tasks` of `total` tasks) stops and
    /// the other tasks keep running; the region's in-flight records vanished.
    RegionFailedOver {
        task: TaskId,
        tasks: u16,
        total: u16,
        lost_in_flight: u32,
    },
    /// The `tasks` tasks of the failed region(s) restarted; the others kept running.
    RegionRestored {
        from: RestoreFrom,
        tasks: u16,
    },
    /// A source was rewound to `offset` on restore.
    Rewound {
        task: TaskId,
        offset: u32,
    },
    /// An in-flight record stored in the checkpoint was put back on its channel on restore.
    Replayed {
        channel: ChannelId,
        record: RecordId,
    },
    /// Nothing but time passed.
    Waited,
    /// A socket source came back: it cannot read offsets `from..to` again (read before, or
    /// arrived while no one listened).
    SocketLost {
        task: TaskId,
        from: u32,
        to: u32,
    },
    /// HA standby: the leading JobManager failed and its leadership is free. The HA store still
    /// holds the job graph and the pointer to `checkpoint`, the latest completed one; `standby`
    /// will win the election.
    LeadershipLost {
        leader: JobManagerName,
        standby: JobManagerName,
        checkpoint: Option<CheckpointId>,
    },
    /// HA standby: `leader` won the leader election; `previous` comes back as its standby.
    LeaderElected {
        leader: JobManagerName,
        previous: JobManagerName,
    },
    /// HA standby: the new leader read the job graph and the pointer to the latest completed
    /// checkpoint (`checkpoint`) from the HA store; the checkpoint id counter, kept there too,
    /// continues at `next_id`.
    JobRecovered {
        checkpoint: Option<CheckpointId>,
        next_id: CheckpointId,
    },
    /// No HA: the job failed with its JobManager, whose memory alone knew the completed
    /// checkpoints. `retained` is the latest one externalized for a resubmission; `discarded`
    /// completed checkpoints went with the job.
    JobFailed {
        retained: Option<CheckpointId>,
        discarded: u32,
    },
    /// No HA: a new JobManager started; it knows nothing of the failed job.
    JobManagerStarted,
    /// No HA: the job was submitted again, as a new job (its `submission`-th), from the retained
    /// checkpoint `from` or from nothing; its checkpoint ids start at `next_id`.
    JobResubmitted {
        submission: u32,
        from: Option<CheckpointId>,
        next_id: CheckpointId,
    },
    /// The user triggered savepoint `savepoint` (`stop`: the synchronous one of a stop with
    /// savepoint).
    SavepointTriggered {
        savepoint: CheckpointId,
        stop: bool,
    },
    /// Every task acknowledged savepoint `savepoint`: it is stored in the user's savepoint
    /// directory, apart from the retained checkpoints.
    SavepointCompleted {
        savepoint: CheckpointId,
        stop: bool,
        duration: u64,
    },
    /// Stop with savepoint: the final savepoint completed and reached every task; the job
    /// finished, and its `discarded` retained checkpoints were deleted with it.
    JobFinished {
        savepoint: CheckpointId,
        discarded: u32,
    },
    /// The user cancelled the job; `discarded` retained checkpoints were deleted with it
    /// (`retained` kept: retain on cancellation); `lost_in_flight` records vanished.
    JobCanceled {
        discarded: u32,
        retained: u32,
        lost_in_flight: u32,
    },
    /// The job was submitted again from savepoint (or retained checkpoint) `from`; its
    /// checkpoint ids continue at `next_id`.
    JobSubmitted {
        from: CheckpointId,
        savepoint: bool,
        next_id: CheckpointId,
    },
    /// The Kafka sink's broker and producers (`core/dataflow/kafka/events.rs`). In a log and a
    /// fingerprint it is the Kafka event itself (`{"event":"transaction-timed-out",...}`).
    #[serde(untagged)]
    Kafka(KafkaEvent),
    /// A mechanism's own event (Storm's acker, spouts, bolts, Nimbus and supervisors; Spark
    /// Streaming's receivers, driver and executors): the catalogue's `MechanismEvent`. In a log and
    /// a fingerprint it is the mechanism's event itself (`{"event":"acker-updated",...}`).
    #[serde(untagged)]
    Mechanism(MechanismEvent),
}

fn is_false(b: &bool) -> bool {
    !*b
}
