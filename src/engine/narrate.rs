//! Plain-words narration of events in English and Simplified Chinese, for the event log and the
//! runner ("Count received barrier 2 on its first input; 1 input(s) still to deliver it").

use super::action::{AbortReason, CrashScope, Event, RestoreFrom, SnapshotKind};
use super::lang::Lang;
use super::topology::{JobGraph, OperatorKind};

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
pub fn narrate(e: &Event, g: &JobGraph, lang: Lang) -> String {
    match lang {
        Lang::En => narrate_en(e, g),
        Lang::Zh => narrate_zh(e, g),
    }
}

pub fn abort_reason_zh(r: AbortReason) -> &'static str {
    match r {
        AbortReason::Subsumed => "被更新的检查点取代",
        AbortReason::Expired => "超时：超过了检查点超时时间",
        AbortReason::TaskFailure => "有任务失败",
        AbortReason::JobManagerFailure => "JobManager 故障，丢失了进行中的检查点",
    }
}

fn ordinal_zh(i: usize) -> String {
    format!("第 {} 个", i + 1)
}

/// 一个事件，一句话。
pub fn narrate_zh(e: &Event, g: &JobGraph) -> String {
    let t = |id: super::ids::TaskId| g.task(id).name.as_str();
    let ch = |id: super::ids::ChannelId| g.channel(id).name.as_str();
    let r = |id: super::ids::RecordId| g.label(id);
    match *e {
        Event::Read { task, record, offset, replayed } => format!(
            "{} 在偏移量 {offset} 处读取了 {}（键 {}）并发送出去{}。",
            t(task),
            r(record),
            g.key_name(g.record(record).key),
            if replayed { "——这是重放：之前读过这条记录" } else { "" }
        ),
        Event::SourceExhausted { task } => format!("{} 已读完整个日志。", t(task)),
        Event::Processed { task, record, value, emitted, filtered, .. } => match (value, filtered) {
            (_, true) => format!("{} 丢弃了 {}（它的键被过滤掉）。", t(task), r(record)),
            (Some(v), _) => format!(
                "{} 计入了 {}：{}({}) 现在是 {v}。",
                t(task),
                r(record),
                if g.task(task).kind == OperatorKind::Count { "count" } else { "sum" },
                g.key_name(g.record(record).key)
            ),
            (None, _) if g.task(task).kind == OperatorKind::Sink => format!("{} 收到了 {}。", t(task), r(record)),
            (None, _) => format!("{} 处理了 {} 并向下游转发（{emitted} 个通道）。", t(task), r(record)),
        },
        Event::SinkWrite { task, record, txn, overwrote } => match txn {
            Some(x) => format!("{} 把 {} 写入打开的事务 T{}（提交前读者看不到）。", t(task), r(record), x.0),
            None if overwrote => format!("{} 幂等写入 {}：该行已存在，被覆盖而不是重复。", t(task), r(record)),
            None => format!("{} 把 {} 写入外部系统，读者现在就能看到。", t(task), r(record)),
        },
        Event::InFlightRecorded { task, channel, record } => {
            format!("{} 把来自 {} 的 {} 作为非对齐检查点的在途数据保存。", t(task), ch(channel), r(record))
        }
        Event::CheckpointTriggered { checkpoint } => {
            format!("检查点协调器触发了检查点 {}：在所有任务确认之前，它处于进行中。", checkpoint.0)
        }
        Event::CheckpointRefused { pending } => {
            format!("检查点协调器拒绝了新的检查点：仍有 {pending} 个在进行中（max-concurrent-checkpoints）。")
        }
        Event::BarrierEmitted { task, checkpoint, overtook } => {
            if overtook > 0 {
                format!(
                    "{} 把屏障 {} 放到输出队列最前面，越过了 {overtook} 条记录，并把它们作为在途数据保存。",
                    t(task),
                    checkpoint.0
                )
            } else if g.task(task).out_channels.is_empty() {
                format!("{} 没有输出，屏障 {} 无需转发。", t(task), checkpoint.0)
            } else {
                format!("{} 把屏障 {} 跟在记录后面发往下游。", t(task), checkpoint.0)
            }
        }
        Event::BarrierReceived { task, channel, checkpoint, first, waiting } => {
            let inputs = g.task(task).inputs.len();
            let idx = g.channel(channel).input_index;
            if inputs == 1 {
                format!("{} 收到了屏障 {}。", t(task), checkpoint.0)
            } else if waiting == 0 {
                format!("{} 在{}输入上收到了屏障 {}，这是它等待的最后一个。", t(task), ordinal_zh(idx), checkpoint.0)
            } else {
                format!(
                    "{} {}在{}输入上收到了屏障 {}；还有 {waiting} 个输入没有送来它。",
                    t(task),
                    if first { "首先" } else { "" },
                    ordinal_zh(idx),
                    checkpoint.0
                )
            }
        }
        Event::BarrierIgnored { task, checkpoint, .. } => {
            format!("{} 丢弃了屏障 {}：该检查点已中止或已处理过。", t(task), checkpoint.0)
        }
        Event::ChannelBlocked { channel, checkpoint } => format!(
            "{} 阻塞了 {}，直到屏障 {} 从其他输入到达；屏障之后的记录被缓存。",
            t(g.channel(channel).to),
            ch(channel),
            checkpoint.0
        ),
        Event::ChannelUnblocked { channel } => format!("{} 解除阻塞。", ch(channel)),
        Event::AlignmentTimedOut { task, checkpoint } => {
            format!("{} 对齐时间过长：检查点 {} 在这里转为非对齐。", t(task), checkpoint.0)
        }
        Event::AlignmentAborted { task, checkpoint } => {
            format!("{} 放弃了检查点 {}，释放了它的输入。", t(task), checkpoint.0)
        }
        Event::SnapshotTaken { task, checkpoint, kind } => match (kind, checkpoint) {
            (SnapshotKind::Timer, _) => format!("{} 的定时器触发：它独自保存了自己的状态，没有任何协调。", t(task)),
            (SnapshotKind::Source, Some(c)) => format!("{} 为检查点 {} 保存了它的偏移量。", t(task), c.0),
            (SnapshotKind::Aligned, Some(c)) => {
                format!("{} 已从每个输入收到屏障 {}：它保存了状态（对齐）。", t(task), c.0)
            }
            (SnapshotKind::Unaligned, Some(c)) => {
                format!("{} 立即为检查点 {} 保存了状态（非对齐），并记录在途输入，直到所有屏障到达。", t(task), c.0)
            }
            (SnapshotKind::Tracker, Some(c)) => {
                format!("{} 数到了每个输入的屏障 {} 并保存了状态，没有阻塞任何输入（至少一次）。", t(task), c.0)
            }
            (SnapshotKind::StopTheWorld, Some(c)) => format!("{} 为全局暂停检查点 {} 保存了状态。", t(task), c.0),
            (_, None) => format!("{} 保存了它的状态。", t(task)),
        },
        Event::Acknowledged { task, checkpoint, acked, total } => {
            format!("{} 确认了检查点 {}（{acked}/{total}）。", t(task), checkpoint.0)
        }
        Event::AckDiscarded { task, checkpoint } => {
            format!("{} 对检查点 {} 的确认被丢弃：它已不在进行中。", t(task), checkpoint.0)
        }
        Event::CheckpointCompleted { checkpoint, duration } => {
            format!("检查点 {} 在 {duration} 步后完成：一个一致的切面，可以安全地从它恢复。", checkpoint.0)
        }
        Event::CheckpointAborted { checkpoint, reason } => {
            format!("检查点 {} 被中止：{}。", checkpoint.0, abort_reason_zh(reason))
        }
        Event::TxnPreCommitted { task, txn, checkpoint } => {
            format!("{} 为检查点 {} 预提交了事务 T{}；检查点完成时它才提交。", t(task), checkpoint.0, txn.0)
        }
        Event::TxnCommitted { task, txn, rows } => {
            format!("{} 提交了事务 T{}：{rows} 行对读者可见。", t(task), txn.0)
        }
        Event::TxnAborted { task, txn, rows } => {
            format!("{} 中止了事务 T{}：它的 {rows} 行永远不会被看到。", t(task), txn.0)
        }
        Event::SourcesPaused { checkpoint } => {
            format!("全局暂停检查点 {}：数据源暂停，直到每个通道排空。", checkpoint.0)
        }
        Event::SourcesResumed { checkpoint, stall } => {
            format!("检查点 {} 之后数据源恢复：作业停顿了 {stall} 步。", checkpoint.0)
        }
        Event::Crashed { scope, lost_in_flight } => {
            let what = match scope {
                CrashScope::Cluster => "集群崩溃：每个任务都丢失了状态".to_string(),
                CrashScope::Task(x) => format!("{} 崩溃并丢失了状态，作业进行故障转移", t(x)),
                CrashScope::JobManager => "JobManager 崩溃：进行中的检查点丢失，作业重启".to_string(),
            };
            format!("{what}；{lost_in_flight} 条在途记录消失了。")
        }
        Event::Restored { from } => match from {
            RestoreFrom::Checkpoint { checkpoint } => format!("所有任务都从已完成的检查点 {} 恢复。", checkpoint.0),
            RestoreFrom::Nothing => "没有已完成的检查点：每个任务都从空开始。".into(),
            RestoreFrom::OwnSaves => "每个任务都从自己最近一次保存恢复。".into(),
            RestoreFrom::Policy => "什么都没有保存：每个任务都从空开始。".into(),
        },
        Event::Rewound { task, offset } => format!("{} 从偏移量 {offset} 继续读取。", t(task)),
        Event::Replayed { channel, record } => format!("在途记录 {} 被放回 {}，最先投递。", r(record), ch(channel)),
    }
}

fn narrate_en(e: &Event, g: &JobGraph) -> String {
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
                if g.task(task).kind == OperatorKind::Count { "count" } else { "sum" },
                g.key_name(g.record(record).key)
            ),
            (None, _) if g.task(task).kind == OperatorKind::Sink => {
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
