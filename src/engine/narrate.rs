//! Plain-words narration of events, for the event log and the runner ("Count received barrier 2
//! on its first input and blocks it until barrier 2 arrives on the others").

use super::action::{AbortReason, CrashScope, Event, RestoreFrom, SnapshotKind};
use super::topology::JobGraph;

fn ordinal(i: usize) -> &'static str {
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"].get(i).copied().unwrap_or("next")
}

pub fn abort_reason(r: AbortReason) -> &'static str {
    match r {
        AbortReason::Subsumed => "subsumed by a newer checkpoint",
        AbortReason::Expired => "expired: the checkpoint timeout passed",
        AbortReason::TaskFailure => "a task failed",
        AbortReason::JobManagerFailure => "the JobManager failed and lost its pending checkpoints",
    }
}

/// One sentence for one event.
pub fn narrate(e: &Event, g: &JobGraph) -> String {
    let t = |id: super::ids::TaskId| g.task(id).name.as_str();
    let ch = |id: super::ids::ChannelId| g.channel(id).name.as_str();
    let r = |id: super::ids::RecordId| g.label(id);
    match *e {
        Event::Read { task, record, offset, replayed } => format!(
            "{} read {} (key {}) at offset {offset} and sent it on{}.",
            t(task),
            r(record),
            g.key_name(g.record(record).key),
            if replayed { " — a replay: it had read this record before" } else { "" }
        ),
        Event::SourceExhausted { task } => format!("{} has read its whole log.", t(task)),
        Event::Processed { task, record, value, emitted, filtered, .. } => match (value, filtered) {
            (_, true) => format!("{} dropped {} (its key is filtered out).", t(task), r(record)),
            (Some(v), _) => format!(
                "{} counted {}: {}({}) is now {v}.",
                t(task),
                r(record),
                if g.task(task).kind == super::topology::OperatorKind::Count { "count" } else { "sum" },
                g.key_name(g.record(record).key)
            ),
            (None, _) if g.task(task).kind == super::topology::OperatorKind::Sink => {
                format!("{} received {}.", t(task), r(record))
            }
            (None, _) => format!("{} processed {} and passed it on ({emitted} channel(s)).", t(task), r(record)),
        },
        Event::SinkWrite { task, record, txn, overwrote } => match txn {
            Some(x) => format!("{} wrote {} into open transaction T{} (invisible to readers until commit).", t(task), r(record), x.0),
            None if overwrote => format!("{} upserted {}: the row already existed and was overwritten, not doubled.", t(task), r(record)),
            None => format!("{} wrote {} to the external system; readers see it now.", t(task), r(record)),
        },
        Event::InFlightRecorded { task, channel, record } => format!(
            "{} stored {} from {} as in-flight data of its unaligned checkpoint.",
            t(task),
            r(record),
            ch(channel)
        ),
        Event::CheckpointTriggered { checkpoint } => format!(
            "The CheckpointCoordinator triggered checkpoint {}: pending until every task acknowledges.",
            checkpoint.0
        ),
        Event::CheckpointRefused { pending } => format!(
            "The CheckpointCoordinator refused a new checkpoint: {pending} still pending (max-concurrent-checkpoints)."
        ),
        Event::BarrierEmitted { task, checkpoint, overtook } => {
            if overtook > 0 {
                format!(
                    "{} put barrier {} at the head of its outputs, overtaking {overtook} record(s) it stores as in-flight data.",
                    t(task),
                    checkpoint.0
                )
            } else if g.task(task).out_channels.is_empty() {
                format!("{} has no outputs to forward barrier {} to.", t(task), checkpoint.0)
            } else {
                format!("{} sent barrier {} downstream behind its records.", t(task), checkpoint.0)
            }
        }
        Event::BarrierReceived { task, channel, checkpoint, first, waiting } => {
            let inputs = g.task(task).inputs.len();
            let idx = g.channel(channel).input_index;
            if inputs == 1 {
                format!("{} received barrier {}.", t(task), checkpoint.0)
            } else if waiting == 0 {
                format!("{} received barrier {} on its {} input, the last one it waited for.", t(task), checkpoint.0, ordinal(idx))
            } else {
                format!(
                    "{} received barrier {} on its {} input{}; {waiting} input(s) still to deliver it.",
                    t(task),
                    checkpoint.0,
                    ordinal(idx),
                    if first { " first" } else { "" }
                )
            }
        }
        Event::BarrierIgnored { task, checkpoint, .. } => format!(
            "{} dropped barrier {}: that checkpoint was aborted or already handled.",
            t(task),
            checkpoint.0
        ),
        Event::ChannelBlocked { channel, checkpoint } => format!(
            "{} blocks {} until barrier {} arrives on its other inputs; records behind the barrier stay buffered.",
            t(g.channel(channel).to),
            ch(channel),
            checkpoint.0
        ),
        Event::ChannelUnblocked { channel } => format!("{} is unblocked.", ch(channel)),
        Event::AlignmentTimedOut { task, checkpoint } => format!(
            "{} aligned too long: checkpoint {} turns unaligned here.",
            t(task),
            checkpoint.0
        ),
        Event::AlignmentAborted { task, checkpoint } => {
            format!("{} gave up checkpoint {} and released its inputs.", t(task), checkpoint.0)
        }
        Event::SnapshotTaken { task, checkpoint, kind } => match (kind, checkpoint) {
            (SnapshotKind::Timer, _) => format!("{}'s timer fired: it saved its own state, uncoordinated.", t(task)),
            (SnapshotKind::Source, Some(c)) => format!("{} saved its offset for checkpoint {}.", t(task), c.0),
            (SnapshotKind::Aligned, Some(c)) => {
                format!("{} has barrier {} from every input: it saved its state (aligned).", t(task), c.0)
            }
            (SnapshotKind::Unaligned, Some(c)) => format!(
                "{} saved its state at once for checkpoint {} (unaligned) and records in-flight input until all barriers arrive.",
                t(task),
                c.0
            ),
            (SnapshotKind::Tracker, Some(c)) => format!(
                "{} counted barrier {} from every input and saved its state, without blocking any (at-least-once).",
                t(task),
                c.0
            ),
            (SnapshotKind::StopTheWorld, Some(c)) => {
                format!("{} saved its state for stop-the-world checkpoint {}.", t(task), c.0)
            }
            (_, None) => format!("{} saved its state.", t(task)),
        },
        Event::Acknowledged { task, checkpoint, acked, total } => format!(
            "{} acknowledged checkpoint {} ({acked}/{total}).",
            t(task),
            checkpoint.0
        ),
        Event::AckDiscarded { task, checkpoint } => format!(
            "{}'s acknowledgement of checkpoint {} was discarded: it is no longer pending.",
            t(task),
            checkpoint.0
        ),
        Event::CheckpointCompleted { checkpoint, duration } => format!(
            "Checkpoint {} completed after {duration} step(s): a consistent cut, safe to restore from.",
            checkpoint.0
        ),
        Event::CheckpointAborted { checkpoint, reason } => {
            format!("Checkpoint {} was aborted: {}.", checkpoint.0, abort_reason(reason))
        }
        Event::TxnPreCommitted { task, txn, checkpoint } => format!(
            "{} pre-committed transaction T{} for checkpoint {}; it commits when the checkpoint completes.",
            t(task),
            txn.0,
            checkpoint.0
        ),
        Event::TxnCommitted { task, txn, rows } => {
            format!("{} committed transaction T{}: {rows} row(s) become visible to readers.", t(task), txn.0)
        }
        Event::TxnAborted { task, txn, rows } => {
            format!("{} aborted transaction T{}: its {rows} row(s) are never seen.", t(task), txn.0)
        }
        Event::SourcesPaused { checkpoint } => format!(
            "Stop-the-world checkpoint {}: sources pause until every channel drains.",
            checkpoint.0
        ),
        Event::SourcesResumed { checkpoint, stall } => {
            format!("Sources resume after checkpoint {}: the job stalled {stall} step(s).", checkpoint.0)
        }
        Event::Crashed { scope, lost_in_flight } => {
            let what = match scope {
                CrashScope::Cluster => "The cluster crashed: every task lost its state".to_string(),
                CrashScope::Task(x) => format!("{} crashed and lost its state; the job fails over", t(x)),
                CrashScope::JobManager => "The JobManager crashed: pending checkpoints are lost, the job restarts".to_string(),
            };
            format!("{what}; {lost_in_flight} in-flight record(s) vanished.")
        }
        Event::Restored { from } => match from {
            RestoreFrom::Checkpoint { checkpoint } => {
                format!("Restored every task from completed checkpoint {}.", checkpoint.0)
            }
            RestoreFrom::Nothing => "No completed checkpoint: every task restarts empty.".into(),
            RestoreFrom::OwnSaves => "Restored each task from its own latest save.".into(),
            RestoreFrom::Policy => "Nothing was saved: every task restarts empty.".into(),
        },
        Event::Rewound { task, offset } => format!("{} resumes reading at offset {offset}.", t(task)),
        Event::Replayed { channel, record } => {
            format!("In-flight {} goes back on {} to be delivered first.", r(record), ch(channel))
        }
    }
}
