//! The engine's words in English and Simplified Chinese, each sentence written once with its two
//! languages side by side: the narration of events for the event log and the runner ("Count
//! received barrier 2 on its first input; 1 input(s) still to deliver it"), the short name of an
//! action ("deliver Source->Map"), why a checkpoint was aborted, and why an action was refused
//! ([`ActionError::message`]). A scenario error is worded in English where it is made.

use crate::engine::explorer::lab::Guarantee as LabGuarantee;
use std::fmt;

use super::action::{AbortReason, Action, CrashScope, Event, GaveUp, Guarantee, RestoreFrom, SnapshotKind};
use super::dataflow::job_graph::{JobGraph, OperatorKind};
use super::error::ActionError;
use super::ids::{ChannelId, RecordId, TaskId};
use super::lang::{say, Lang};
use super::settings::strategy::strategy_words;

/// "first", "second", ... ("第 1 个", "第 2 个", ...).
fn ordinal(i: usize, lang: Lang) -> String {
    match lang {
        Lang::En => ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]
            .get(i)
            .copied()
            .unwrap_or("next")
            .to_string(),
        Lang::Zh => format!("第 {} 个", i + 1),
    }
}

/// An id of a tuple tree or an XOR value, short ("9f2c…"); 0 is "0".
fn hex(x: u64) -> String {
    if x == 0 {
        "0".into()
    } else {
        format!("{}…", super::mechanisms::tuple_tree::short_hex(x))
    }
}

/// Why a checkpoint was aborted.
pub fn abort_reason(r: AbortReason, lang: Lang) -> &'static str {
    match r {
        AbortReason::Subsumed => lang.t("subsumed by a newer checkpoint", "被更新的检查点取代"),
        AbortReason::DeclinedSubsumed => lang.t(
            "declined by a task that received a newer checkpoint's barrier before all of this one's",
            "有任务在收齐它的屏障之前收到了更新检查点的屏障，拒绝了它",
        ),
        AbortReason::DeclinedOnCancellationBarrier => {
            lang.t("declined by a task that received a cancel marker for it", "有任务收到了它的取消标记，拒绝了它")
        }
        AbortReason::Expired => lang.t("expired: the checkpoint timeout passed", "超时：超过了检查点超时时间"),
        AbortReason::TaskFailure => lang.t("a task failed", "有任务失败"),
        AbortReason::JobManagerFailure => {
            lang.t("the JobManager failed and lost its pending checkpoints", "JobManager 故障，丢失了进行中的检查点")
        }
        AbortReason::JobFailure => lang.t("the job failed over as a whole", "整个作业进行了故障转移"),
        AbortReason::CoordinatorSuspend => lang.t(
            "the periodic checkpoints stopped for a stop with savepoint",
            "周期性检查点为停止并保存而暂停",
        ),
        AbortReason::CoordinatorShutdown => lang.t("the job was cancelled", "作业被取消"),
    }
}

/// A short name for an action ("deliver Source->Map", "投递 Source->Map"); an id the job graph
/// doesn't have is named "?".
pub fn describe(g: &JobGraph, a: &Action, lang: Lang) -> String {
    let task = |t: TaskId| g.tasks.get(t.index()).map_or("?", |t| t.name.as_str());
    match *a {
        Action::Deliver { channel } => {
            let channel = g.channels.get(channel.index()).map_or("?", |c| c.name.as_str());
            say!(lang, "deliver {channel}", "投递 {channel}")
        }
        Action::Read { task: t } => say!(lang, "read {}", "让 {} 读取", task(t)),
        Action::Checkpoint => lang.t("checkpoint", "触发检查点").into(),
        Action::Timer { task: t } => say!(lang, "fire {}'s timer", "触发 {} 的定时器", task(t)),
        Action::AllTimers => lang.t("fire all timers", "触发全部定时器").into(),
        Action::Crash => lang.t("crash the cluster", "使集群崩溃").into(),
        Action::CrashTask { task: t } => say!(lang, "crash {}", "使 {} 崩溃", task(t)),
        Action::CrashJobManager => lang.t("crash the JobManager", "使 JobManager 崩溃").into(),
        Action::Restore => lang.t("restore", "恢复").into(),
        Action::Notify { task: t } => {
            say!(lang, "notify {} (checkpoint complete)", "把检查点完成通知送达 {}", task(t))
        }
        Action::ToAcker { task: t } => say!(lang, "deliver {}'s message to the acker", "把 {} 的消息送到 acker", task(t)),
        Action::FromAcker { task: t } => say!(lang, "deliver the acker's answer to {}", "把 acker 的答复送到 {}", task(t)),
        Action::Auto => lang.t("take an auto step", "自动单步").into(),
        Action::Wait => lang.t("wait one step", "等待一步").into(),
        Action::Savepoint | Action::StopWithSavepoint | Action::Cancel | Action::Resume { .. } => {
            super::savepoint_wording::describe(a, lang).unwrap_or_default()
        }
    }
}

/// How the driver came back from its metadata checkpoint.
fn spark_restart(state: Option<u32>, recompute: u16, rerun: u16, again: u16, since: u64, lang: Lang) -> String {
    let from = match state {
        Some(k) => say!(lang, "the state RDD from its checkpoint of batch {k}", "状态 RDD 取自批次 {k} 的检查点"),
        None => lang.t("no state checkpoint yet, so the state starts empty", "还没有状态检查点，状态从空开始").into(),
    };
    // `JobGenerator.restart` reschedules `pendingTimes ++ checkpointTime.until(restartTime)`.
    let twice = if again > 0 {
        say!(
            lang,
            " Every batch from the checkpoint's batch time {since} on runs again: {again} of them had completed, so their output runs twice (an append sink shows their records twice; a transactional output finds (batch time, partition) committed and skips it).",
            "从检查点的批次时间 {since} 起，每个批次都重新运行：其中 {again} 个已经完成，所以它们的输出运行两次（追加写入的 sink 会把这些记录显示两次；事务性输出发现（批次时间，分区）已提交，于是跳过）。"
        )
    } else {
        String::new()
    };
    say!(
        lang,
        "The driver restarted from its metadata checkpoint: {from}; {recompute} batch(es) of the lineage chain to recompute, {rerun} incomplete batch(es) to run again.{twice}",
        "驱动器从元数据检查点重启：{from}；血统链上 {recompute} 个批次要重算，{rerun} 个未完成的批次要重新运行。{twice}"
    )
}

/// One sentence for one event.
pub fn narrate(e: &Event, g: &JobGraph, lang: Lang) -> String {
    narrate_common(e, g, lang).unwrap_or_else(|| narrate_storm_spark(e, g, lang))
}

/// One sentence for one event: the dataflow's and Flink's, or None for an event of Storm's acker or
/// Spark Streaming, which [`narrate_storm_spark`] words (the page loads those words with the
/// drawings of those strategies).
pub fn narrate_common(e: &Event, g: &JobGraph, lang: Lang) -> Option<String> {
    let t = |id: TaskId| g.task(id).name.as_str();
    let ch = |id: ChannelId| g.channel(id).name.as_str();
    let r = |id: RecordId| g.label(id);
    Some(match *e {
        Event::Read { task, record, offset, replayed } => {
            let (task, rec, key) = (t(task), r(record), g.key_name(g.record(record).key));
            let replay = if replayed {
                lang.t(" — a replay: it had read this record before", "——这是重放：之前读过这条记录")
            } else {
                ""
            };
            say!(
                lang,
                "{task} read {rec} (key {key}) at offset {offset} and sent it on{replay}.",
                "{task} 在偏移量 {offset} 处读取了 {rec}（键 {key}）并发送出去{replay}。"
            )
        }
        Event::SourceExhausted { task } => say!(lang, "{} has read its whole log.", "{} 已读完整个日志。", t(task)),
        Event::Processed { task, record, value, emitted, filtered, .. } => match (value, filtered) {
            (_, true) => say!(lang, "{} dropped {} (its key is filtered out).", "{} 丢弃了 {}（它的键被过滤掉）。", t(task), r(record)),
            (Some(v), _) => {
                let op = if g.task(task).kind == OperatorKind::Count { lang.t("count", "计数") } else { lang.t("sum", "求和") };
                let key = g.key_name(g.record(record).key);
                say!(lang, "{} counted {}: {op}({key}) is now {v}.", "{} 计入了 {}：{op}({key}) 现在是 {v}。", t(task), r(record))
            }
            (None, _) if g.task(task).kind == OperatorKind::Sink => {
                say!(lang, "{} received {}.", "{} 收到了 {}。", t(task), r(record))
            }
            (None, _) if emitted == 1 => {
                say!(lang, "{} processed {} and passed it on.", "{} 处理了 {} 并向下游转发。", t(task), r(record))
            }
            (None, _) => say!(
                lang,
                "{} processed {} and passed it on to {emitted} channels.",
                "{} 处理了 {} 并转发到 {emitted} 个下游通道。",
                t(task),
                r(record)
            ),
        },
        Event::SinkWrite { task, record, txn, overwrote } => match txn {
            Some(x) => say!(
                lang,
                "{} wrote {} into open transaction T{} (invisible to readers until commit).",
                "{} 把 {} 写入打开的事务 T{}（提交前读者看不到）。",
                t(task),
                r(record),
                x.0
            ),
            None if overwrote => say!(
                lang,
                "{} upserted {}: the row already existed and was overwritten, not doubled.",
                "{} 幂等写入 {}：该行已存在，被覆盖而不是重复。",
                t(task),
                r(record)
            ),
            None => say!(
                lang,
                "{} wrote {} to the external system; readers see it now.",
                "{} 把 {} 写入外部系统，读者现在就能看到。",
                t(task),
                r(record)
            ),
        },
        Event::RecordDiscarded { task, channel, record, checkpoint } => {
            let (task, rec, channel, cp) = (t(task), r(record), ch(channel), checkpoint.0);
            say!(
                lang,
                "{task} dropped {rec} from {channel}: it came after barrier {cp}, and this handler drops such records until the last barrier.",
                "{task} 丢弃了来自 {channel} 的 {rec}：它在屏障 {cp} 之后到达，这个处理器会丢弃这类记录，直到最后一个屏障到达。"
            )
        }
        Event::InFlightRecorded { task, channel, record } => {
            let (task, rec, channel) = (t(task), r(record), ch(channel));
            say!(
                lang,
                "{task} stored {rec} from {channel} as in-flight data of its unaligned checkpoint.",
                "{task} 把来自 {channel} 的 {rec} 作为非对齐检查点的在途数据保存。"
            )
        }
        Event::CheckpointTriggered { checkpoint } => say!(
            lang,
            "The CheckpointCoordinator triggered checkpoint {}: pending until every task acknowledges.",
            "检查点协调器触发了检查点 {}：在所有任务确认之前，它处于进行中。",
            checkpoint.0
        ),
        Event::TriggerFailed { task } => say!(
            lang,
            "The CheckpointCoordinator could not trigger a checkpoint: {} is not running (not all tasks are running).",
            "检查点协调器无法触发检查点：{} 没有在运行（并非所有任务都在运行）。",
            t(task)
        ),
        Event::CheckpointRefused { pending } => say!(
            lang,
            "The CheckpointCoordinator refused a new checkpoint: {pending} still pending, a stop-the-world checkpoint in progress or the queue of trigger requests full.",
            "检查点协调器拒绝了新的检查点：仍有 {pending} 个在进行中，停止世界的检查点正在进行，或触发请求队列已满。"
        ),
        Event::CheckpointQueued { pending, queued } => say!(
            lang,
            "The CheckpointCoordinator queued the trigger request: {pending} checkpoint(s) pending fill max-concurrent-checkpoints; it is number {queued} in the queue and starts as soon as one ends.",
            "检查点协调器把触发请求排入队列：进行中的 {pending} 个检查点已占满 max-concurrent-checkpoints；它排在第 {queued} 位，一旦有检查点结束就开始。"
        ),
        Event::BarrierEmitted { task, checkpoint, overtook, unaligned } => {
            if g.task(task).out_channels.is_empty() {
                say!(lang, "{} has no outputs to forward barrier {} to.", "{} 没有输出，屏障 {} 无需转发。", t(task), checkpoint.0)
            } else if overtook > 0 {
                say!(
                    lang,
                    "{} put barrier {} at the head of its outputs, overtaking {overtook} record(s) it stores as in-flight data.",
                    "{} 把屏障 {} 放到输出队列最前面，越过了 {overtook} 条记录，并把它们作为在途数据保存。",
                    t(task),
                    checkpoint.0
                )
            } else if unaligned {
                say!(
                    lang,
                    "{} put barrier {} unaligned at the head of its outputs; there were no records to overtake.",
                    "{} 把非对齐的屏障 {} 放到输出队列最前面；没有需要越过的记录。",
                    t(task),
                    checkpoint.0
                )
            } else {
                say!(lang, "{} sent barrier {} downstream behind its records.", "{} 把屏障 {} 跟在记录后面发往下游。", t(task), checkpoint.0)
            }
        }
        Event::BarrierReceived { task, channel, checkpoint, first, waiting } => {
            let inputs = g.task(task).inputs.len();
            let nth = ordinal(g.channel(channel).input_index, lang);
            let (task, cp) = (t(task), checkpoint.0);
            if inputs == 1 {
                say!(lang, "{task} received barrier {cp}.", "{task} 收到了屏障 {cp}。")
            } else if waiting == 0 {
                say!(
                    lang,
                    "{task} received barrier {cp} on its {nth} input, the last one it waited for.",
                    "{task} 在{nth}输入上收到了屏障 {cp}，这是它等待的最后一个。"
                )
            } else {
                let first = if first { lang.t(" first", "首先") } else { "" };
                say!(
                    lang,
                    "{task} received barrier {cp} on its {nth} input{first}; {waiting} input(s) still to deliver it.",
                    "{task} {first}在{nth}输入上收到了屏障 {cp}；还有 {waiting} 个输入没有送来它。"
                )
            }
        }
        Event::BarrierIgnored { task, checkpoint, .. } => say!(
            lang,
            "{} dropped barrier {}: it is already past that checkpoint.",
            "{} 丢弃了屏障 {}：它已经越过了这个检查点。",
            t(task),
            checkpoint.0
        ),
        Event::ChannelBlocked { channel, checkpoint } => say!(
            lang,
            "{} blocks {} until barrier {} arrives on its other inputs; records behind the barrier stay buffered.",
            "{} 阻塞了 {}，直到屏障 {} 从其他输入到达；屏障之后的记录被缓存。",
            t(g.channel(channel).to),
            ch(channel),
            checkpoint.0
        ),
        Event::ChannelUnblocked { channel } => say!(lang, "{} is unblocked.", "{} 解除阻塞。", ch(channel)),
        Event::AlignmentTimedOut { task, checkpoint } => say!(
            lang,
            "The alignment timeout has passed since checkpoint {1} was triggered and {0} still waits for barriers: checkpoint {1} turns unaligned here.",
            "检查点 {1} 触发后已超过对齐超时时间，而 {0} 仍在等待屏障：检查点 {1} 在这里转为非对齐。",
            t(task),
            checkpoint.0
        ),
        Event::UnalignedBarrierReceived { task, checkpoint } => say!(
            lang,
            "Barrier {1} came unaligned (the checkpoint went unaligned upstream): {0} takes checkpoint {1} unaligned at once instead of aligning.",
            "屏障 {1} 以非对齐方式到达（检查点在上游已转为非对齐）：{0} 立即以非对齐方式做检查点 {1}，不再对齐。",
            t(task),
            checkpoint.0
        ),
        Event::AlignmentAborted { task, checkpoint, what } => {
            let (task, cp) = (t(task), checkpoint.0);
            match what {
                GaveUp::Aligning { released } => say!(
                    lang,
                    "{task} gave up checkpoint {cp} and released the {released} input(s) it had blocked.",
                    "{task} 放弃了检查点 {cp}，释放了它阻塞的 {released} 个输入。"
                ),
                GaveUp::Unaligned { in_flight: 0, released: 0 } => say!(
                    lang,
                    "{task} gave up checkpoint {cp}: the snapshot it took early is discarded.",
                    "{task} 放弃了检查点 {cp}：它提前做的快照被丢弃。"
                ),
                GaveUp::Unaligned { in_flight, released: 0 } => say!(
                    lang,
                    "{task} gave up checkpoint {cp}: the snapshot it took early is discarded, with the {in_flight} in-flight record(s) it stored.",
                    "{task} 放弃了检查点 {cp}：它提前做的快照被丢弃，连同它保存的 {in_flight} 条在途记录。"
                ),
                GaveUp::Unaligned { in_flight, released } => say!(
                    lang,
                    "{task} gave up checkpoint {cp}: the snapshot it took early is discarded, with the {in_flight} in-flight record(s) it stored, and it released the {released} input(s) it had blocked.",
                    "{task} 放弃了检查点 {cp}：它提前做的快照被丢弃，连同它保存的 {in_flight} 条在途记录；它释放了阻塞的 {released} 个输入。"
                ),
                GaveUp::Collecting { released: 0 } => say!(
                    lang,
                    "{task} stopped collecting the barriers of checkpoint {cp}, which had been aborted.",
                    "{task} 不再收集已中止的检查点 {cp} 的屏障。"
                ),
                GaveUp::Collecting { released } => say!(
                    lang,
                    "{task} stopped collecting the barriers of checkpoint {cp}, which had been aborted, and released the {released} input(s) it had blocked.",
                    "{task} 不再收集已中止的检查点 {cp} 的屏障，释放了它阻塞的 {released} 个输入。"
                ),
                GaveUp::Counting => say!(
                    lang,
                    "{task} gave up checkpoint {cp}: it stops counting its barriers (nothing was blocked).",
                    "{task} 放弃了检查点 {cp}：不再清点它的屏障（没有阻塞任何输入）。"
                ),
            }
        }
        Event::CheckpointDeclined { task, checkpoint, reason, pending } => {
            let (task, cp) = (t(task), checkpoint.0);
            let why = match reason {
                AbortReason::DeclinedSubsumed => lang.t(
                    "a newer checkpoint's barrier came before all of this one's",
                    "更新检查点的屏障先于它的全部屏障到达",
                ),
                AbortReason::DeclinedOnCancellationBarrier => {
                    lang.t("a cancel marker for it came on an input", "某个输入送来了它的取消标记")
                }
                other => abort_reason(other, lang),
            };
            if pending {
                say!(
                    lang,
                    "{task} declined checkpoint {cp} to the CheckpointCoordinator ({why}), which aborts it at once.",
                    "{task} 向检查点协调器拒绝了检查点 {cp}（{why}），协调器立即中止了它。"
                )
            } else {
                say!(
                    lang,
                    "{task} declined checkpoint {cp} to the CheckpointCoordinator ({why}); it had already ended, so nothing changes there.",
                    "{task} 向检查点协调器拒绝了检查点 {cp}（{why}）；它早已结束，协调器那里没有变化。"
                )
            }
        }
        Event::AbortNotified { task, checkpoint, discarded } => {
            let (task, cp) = (t(task), checkpoint.0);
            match discarded {
                Some(n) => say!(
                    lang,
                    "{task} hears that checkpoint {cp} was aborted: it discards the snapshot it took early ({n} in-flight record(s)) and goes on collecting the checkpoint's barriers.",
                    "{task} 得知检查点 {cp} 已中止：它丢弃提前做的快照（{n} 条在途记录），继续收集该检查点的屏障。"
                ),
                None => say!(
                    lang,
                    "{task} hears that checkpoint {cp} was aborted and goes on collecting its barriers; when they are in, it will send a cancel marker on instead of snapshotting.",
                    "{task} 得知检查点 {cp} 已中止，仍继续收集它的屏障；屏障到齐后，它不做快照，而是向下游发送取消标记。"
                ),
            }
        }
        Event::SnapshotSkipped { task, checkpoint } => say!(
            lang,
            "{0} would now snapshot for checkpoint {1}, but checkpoint {1} was aborted: it takes no snapshot and forwards no barrier.",
            "{0} 本该为检查点 {1} 做快照，但检查点 {1} 已中止：它不做快照，也不转发屏障。",
            t(task),
            checkpoint.0
        ),
        Event::CancelMarkerSent { task, checkpoint } => say!(
            lang,
            "{0} sent a cancel marker for checkpoint {1} on its outputs, behind its records: downstream tasks need not wait for barrier {1} from it.",
            "{0} 在输出上发出检查点 {1} 的取消标记，跟在记录后面：下游任务不必再等它的屏障 {1}。",
            t(task),
            checkpoint.0
        ),
        Event::CancelMarkerReceived { task, channel, checkpoint, fresh } => {
            let (task, channel, cp) = (t(task), ch(channel), checkpoint.0);
            if fresh {
                say!(
                    lang,
                    "{task} received a cancel marker for checkpoint {cp} from {channel}: it gives the checkpoint up.",
                    "{task} 从 {channel} 收到检查点 {cp} 的取消标记：它放弃这个检查点。"
                )
            } else {
                say!(
                    lang,
                    "{task} received a cancel marker for checkpoint {cp} from {channel} and dropped it: it is already past that checkpoint.",
                    "{task} 从 {channel} 收到检查点 {cp} 的取消标记并丢弃：它已经越过了这个检查点。"
                )
            }
        }
        Event::SnapshotTaken { task, checkpoint, kind } => match (kind, checkpoint) {
            (SnapshotKind::Timer, _) => say!(
                lang,
                "{}'s timer fired: it saved its own state, uncoordinated.",
                "{} 的定时器触发：它独自保存了自己的状态，没有任何协调。",
                t(task)
            ),
            (SnapshotKind::Source, Some(c)) => {
                say!(lang, "{} saved its offset for checkpoint {}.", "{} 为检查点 {} 保存了它的偏移量。", t(task), c.0)
            }
            (SnapshotKind::Aligned, Some(c)) => say!(
                lang,
                "{} has barrier {} from every input: it saved its state (aligned).",
                "{} 已从每个输入收到屏障 {}：它保存了状态（对齐）。",
                t(task),
                c.0
            ),
            (SnapshotKind::Unaligned, Some(c)) => say!(
                lang,
                "{} saved its state at once for checkpoint {} (unaligned) and records in-flight input until all barriers arrive.",
                "{} 立即为检查点 {} 保存了状态（非对齐），并记录在途输入，直到所有屏障到达。",
                t(task),
                c.0
            ),
            (SnapshotKind::Tracker, Some(c)) => say!(
                lang,
                "{} counted barrier {} from every input and saved its state, without blocking any (at-least-once).",
                "{} 数到了每个输入的屏障 {} 并保存了状态，没有阻塞任何输入（至少一次）。",
                t(task),
                c.0
            ),
            (SnapshotKind::StopTheWorld, Some(c)) => say!(
                lang,
                "{} saved its state for stop-the-world checkpoint {}.",
                "{} 为全局暂停检查点 {} 保存了状态。",
                t(task),
                c.0
            ),
            (_, None) => say!(lang, "{} saved its state.", "{} 保存了它的状态。", t(task)),
        },
        Event::Acknowledged { task, checkpoint, acked, total } => say!(
            lang,
            "{} acknowledged checkpoint {} ({acked}/{total}).",
            "{} 确认了检查点 {}（{acked}/{total}）。",
            t(task),
            checkpoint.0
        ),
        Event::AckDiscarded { task, checkpoint } => say!(
            lang,
            "{}'s acknowledgement of checkpoint {} was discarded: it is no longer pending.",
            "{} 对检查点 {} 的确认被丢弃：它已不在进行中。",
            t(task),
            checkpoint.0
        ),
        Event::CheckpointCompleted { checkpoint, duration, guarantee } => {
            let n = checkpoint.0;
            match guarantee {
                Guarantee::ExactlyOnce => say!(
                    lang,
                    "Checkpoint {n} completed after {duration} step(s): a consistent cut. Restored from it, every record counts exactly once in the operators' state.",
                    "检查点 {n} 在 {duration} 步后完成：一个一致的切面。从它恢复，每条记录在算子状态中恰好计入一次。"
                ),
                Guarantee::ExactlyOnceWithInFlight { records } => say!(
                    lang,
                    "Checkpoint {n} completed after {duration} step(s): a consistent cut together with the {records} in-flight record(s) stored with it, which a restore replays first. Restored from it, every record counts exactly once in the operators' state.",
                    "检查点 {n} 在 {duration} 步后完成：连同其中保存的 {records} 条在途记录构成一个一致的切面，恢复时先重放这些记录。从它恢复，每条记录在算子状态中恰好计入一次。"
                ),
                Guarantee::LabHandler { handler } => {
                    let what = match (handler.classified(), lang) {
                        (LabGuarantee::ExactlyOnce, Lang::En) => "exactly once: on the lab's probe jobs no schedule restored from such checkpoints loses or duplicates a record",
                        (LabGuarantee::ExactlyOnce, Lang::Zh) => "精确一次：在实验室的探测作业上，从这样的检查点恢复的调度没有一个丢失或重复记录",
                        (LabGuarantee::AtLeastOnce, Lang::En) => "at least once: a restore from it may count some records twice, and loses none",
                        (LabGuarantee::AtLeastOnce, Lang::Zh) => "至少一次：从它恢复可能把某些记录计入两次，但不会丢失记录",
                        (LabGuarantee::AtMostOnce, Lang::En) => "at most once: a restore from it may lose records, and counts none twice",
                        (LabGuarantee::AtMostOnce, Lang::Zh) => "最多一次：从它恢复可能丢失记录，但不会重复计入",
                        (LabGuarantee::NoneOfThese, Lang::En) => "none of these: a restore from it may lose some records and count others twice",
                        (LabGuarantee::NoneOfThese, Lang::Zh) => "都不是：从它恢复可能丢失一些记录，又把另一些计入两次",
                    };
                    say!(
                        lang,
                        "Checkpoint {n} completed after {duration} step(s) under the lab's barrier handler ({}), which the explorer classifies as {what}.",
                        "检查点 {n} 在 {duration} 步后完成，使用的是实验室的屏障处理器（{}），探索器将它归类为{what}。",
                        handler.words(lang)
                    )
                }
                Guarantee::AtLeastOnce => say!(
                    lang,
                    "Checkpoint {n} completed after {duration} step(s), at least once: the barriers were not aligned, so a snapshot may already count records sent after its barrier, which a restore replays and counts again. No record is lost.",
                    "检查点 {n} 在 {duration} 步后完成，至少一次：屏障没有对齐，快照可能已计入屏障之后发送的记录，恢复时这些记录会被重放并再次计入。不会丢失记录。"
                ),
            }
        }
        Event::CheckpointAborted { checkpoint, reason } => say!(
            lang,
            "Checkpoint {} was aborted: {}.",
            "检查点 {} 被中止：{}。",
            checkpoint.0,
            abort_reason(reason, lang)
        ),
        Event::NotificationSent { task, checkpoint } => say!(
            lang,
            "The JobManager sends {} the notification that checkpoint {} completed; {} commits its pre-committed transactions when it arrives.",
            "JobManager 向 {} 发出检查点 {} 已完成的通知；通知送达时 {} 才提交已预提交的事务。",
            t(task),
            checkpoint.0,
            t(task)
        ),
        Event::NotificationDelivered { task, checkpoint } => say!(
            lang,
            "The notification that checkpoint {} completed reached {}.",
            "检查点 {} 已完成的通知送达了 {}。",
            checkpoint.0,
            t(task)
        ),
        Event::TolerableFailuresExceeded { failed, tolerable } => say!(
            lang,
            "{failed} checkpoint failure(s) in a row, more than tolerable-failed-checkpoints ({tolerable}): the JobManager fails the whole job over.",
            "连续 {failed} 次检查点失败，超过了 tolerable-failed-checkpoints（{tolerable}）：JobManager 让整个作业故障转移。"
        ),
        Event::TxnPreCommitted { task, txn, checkpoint } => {
            let (task, txn, cp) = (t(task), txn.0, checkpoint.0);
            say!(
                lang,
                "{task} pre-committed transaction T{txn} for checkpoint {cp}; it commits when the notification that the checkpoint completed arrives.",
                "{task} 为检查点 {cp} 预提交了事务 T{txn}；收到检查点已完成的通知时它才提交。"
            )
        }
        Event::TxnCommitted { task, txn, rows } => say!(
            lang,
            "{} committed transaction T{}: {rows} row(s) become visible to readers.",
            "{} 提交了事务 T{}：{rows} 行对读者可见。",
            t(task),
            txn.0
        ),
        Event::TxnAborted { task, txn, rows } => say!(
            lang,
            "{} aborted transaction T{}: its {rows} row(s) are never seen.",
            "{} 中止了事务 T{}：它的 {rows} 行永远不会被看到。",
            t(task),
            txn.0
        ),
        Event::SourcesPaused { checkpoint } => say!(
            lang,
            "Stop-the-world checkpoint {}: sources pause until every channel drains.",
            "全局暂停检查点 {}：数据源暂停，直到每个通道排空。",
            checkpoint.0
        ),
        Event::SourcesResumed { checkpoint, stall } => say!(
            lang,
            "Sources resume after checkpoint {}: the job stalled {stall} step(s).",
            "检查点 {} 之后数据源恢复：作业停顿了 {stall} 步。",
            checkpoint.0
        ),
        Event::Crashed { scope, lost_in_flight } => {
            let what = match scope {
                CrashScope::Cluster => {
                    lang.t("The cluster crashed: every task lost its state", "集群崩溃：每个任务都丢失了状态").to_string()
                }
                CrashScope::Task(x) => say!(
                    lang,
                    "{} crashed and lost its state; the job fails over",
                    "{} 崩溃并丢失了状态，作业进行故障转移",
                    t(x)
                ),
                CrashScope::JobManager => lang
                    .t(
                        "The JobManager crashed: its pending checkpoints are lost and the job's tasks are canceled",
                        "JobManager 崩溃：进行中的检查点丢失，作业的任务被取消",
                    )
                    .to_string(),
                CrashScope::Global => lang
                    .t(
                        "The job fails over as a whole: every task is canceled",
                        "整个作业进行故障转移：所有任务都被取消",
                    )
                    .to_string(),
            };
            say!(lang, "{what}; {lost_in_flight} in-flight record(s) vanished.", "{what}；{lost_in_flight} 条在途记录消失了。")
        }
        Event::Restored { from } => match from {
            RestoreFrom::Checkpoint { checkpoint } => say!(
                lang,
                "Restored every task from completed checkpoint {}.",
                "所有任务都从已完成的检查点 {} 恢复。",
                checkpoint.0
            ),
            RestoreFrom::Nothing => lang
                .t("No completed checkpoint: every task restarts empty.", "没有已完成的检查点：每个任务都从空开始。")
                .into(),
            RestoreFrom::OwnSaves => {
                lang.t("Restored each task from its own latest save.", "每个任务都从自己最近一次保存恢复。").into()
            }
            RestoreFrom::Policy => {
                lang.t("Nothing was saved: every task restarts empty.", "什么都没有保存：每个任务都从空开始。").into()
            }
            RestoreFrom::MetadataCheckpoint { state, recompute, rerun, again, since } => {
                spark_restart(state, recompute, rerun, again, since, lang)
            }
            RestoreFrom::Committed => lang
                .t(
                    "The worker restarted: Storm saves no state, so every bolt starts empty; each spout resumes at the offset it committed, and every tree that was pending is gone.",
                    "worker 重启：Storm 不保存状态，每个 bolt 都从空开始；每个 spout 从它提交的偏移量继续，进行中的元组树全部消失。",
                )
                .into(),
        },
        Event::RegionFailedOver { task, tasks, total, lost_in_flight } => say!(
            lang,
            "{} crashed and lost its state; its pipelined region ({tasks} of {total} tasks) fails over while the other tasks keep running; {lost_in_flight} in-flight record(s) of the region vanished.",
            "{} 崩溃并丢失了状态；它所在的流水线区域（{total} 个任务中的 {tasks} 个）进行故障转移，其他任务继续运行；该区域的 {lost_in_flight} 条在途记录消失了。",
            t(task)
        ),
        Event::RegionRestored { from, tasks } => match from {
            RestoreFrom::Checkpoint { checkpoint } => say!(
                lang,
                "Restored the failed region's {tasks} task(s) from completed checkpoint {}; the other tasks kept running and keep their state.",
                "失败区域的 {tasks} 个任务从已完成的检查点 {} 恢复；其他任务一直在运行，保留各自的状态。",
                checkpoint.0
            ),
            RestoreFrom::Nothing => say!(
                lang,
                "No completed checkpoint: the failed region's {tasks} task(s) restart empty; the other tasks kept running.",
                "没有已完成的检查点：失败区域的 {tasks} 个任务从空开始；其他任务一直在运行。"
            ),
            RestoreFrom::OwnSaves => say!(
                lang,
                "Restored each of the failed region's {tasks} task(s) from its own latest save; the other tasks kept running.",
                "失败区域的 {tasks} 个任务各自从最近一次保存恢复；其他任务一直在运行。"
            ),
            RestoreFrom::Policy | RestoreFrom::Committed | RestoreFrom::MetadataCheckpoint { .. } => say!(
                lang,
                "Nothing was saved: the failed region's {tasks} task(s) restart empty; the other tasks kept running.",
                "什么都没有保存：失败区域的 {tasks} 个任务从空开始；其他任务一直在运行。"
            ),
        },
        Event::Rewound { task, offset } => {
            say!(lang, "{} resumes reading at offset {offset}.", "{} 从偏移量 {offset} 继续读取。", t(task))
        }
        Event::Replayed { channel, record } => say!(
            lang,
            "In-flight {} goes back on {} to be delivered first.",
            "在途记录 {} 被放回 {}，最先投递。",
            r(record),
            ch(channel)
        ),
        Event::Waited => lang.t("Time passed.", "时间过去了一步。").into(),
        Event::SocketLost { task, from, to } => {
            let gone: Vec<&str> = g.task(task).log[from as usize..to as usize].iter().map(|x| r(*x)).collect();
            say!(
                lang,
                "{} reads a socket, which cannot go back: {} (from offset {from}) are gone for good; it goes on with what arrives next, at offset {to}.",
                "{} 读的是 socket，无法回退：{}（从偏移量 {from} 起）永远丢失了；它从接下来到达的数据继续，偏移量 {to}。",
                t(task),
                gone.join(" ")
            )
        }
        Event::LeadershipLost { leader, standby, checkpoint } => {
            let (leader, standby) = (leader.letter(), standby.letter());
            match checkpoint {
                Some(c) => say!(
                    lang,
                    "JobManager {leader} lost its leadership. The HA store still holds the job graph and the pointer to completed checkpoint {}; standby {standby} will win the election.",
                    "JobManager {leader} 失去了领导权。HA 存储里仍有作业图和指向已完成检查点 {} 的指针；备用的 {standby} 将赢得选举。",
                    c.0
                ),
                None => say!(
                    lang,
                    "JobManager {leader} lost its leadership. The HA store still holds the job graph (no checkpoint has completed yet); standby {standby} will win the election.",
                    "JobManager {leader} 失去了领导权。HA 存储里仍有作业图（还没有已完成的检查点）；备用的 {standby} 将赢得选举。"
                ),
            }
        }
        Event::LeaderElected { leader, previous } => say!(
            lang,
            "JobManager {} won the leader election and leads now; {} comes back as its standby.",
            "JobManager {} 赢得了 Leader 选举，成为新的 Leader；{} 重启后作为它的备用。",
            leader.letter(),
            previous.letter()
        ),
        Event::JobRecovered { checkpoint, next_id } => match checkpoint {
            Some(c) => say!(
                lang,
                "It read the job graph and the pointer to completed checkpoint {} from the HA store; the checkpoint id counter, kept there too, continues at {}.",
                "它从 HA 存储读取了作业图和指向已完成检查点 {} 的指针；同样保存在那里的检查点编号计数器从 {} 继续。",
                c.0,
                next_id.0
            ),
            None => say!(
                lang,
                "It read the job graph from the HA store, which points to no completed checkpoint; the checkpoint id counter continues at {}.",
                "它从 HA 存储读取了作业图，其中没有指向任何已完成检查点的指针；检查点编号计数器从 {} 继续。",
                next_id.0
            ),
        },
        Event::JobFailed { retained, discarded } => match retained {
            Some(c) => say!(
                lang,
                "Without high availability the job fails with its JobManager: only its memory knew the completed checkpoints. Checkpoint {} was externalized and stays in storage for a resubmission.",
                "没有高可用时，作业随 JobManager 一起失败：只有它的内存知道已完成的检查点。检查点 {} 是外部化保留的，留在存储中以便重新提交。",
                c.0
            ),
            None if discarded > 0 => say!(
                lang,
                "Without high availability the job fails with its JobManager: only its memory knew the completed checkpoints, and they were not externalized, so {discarded} completed checkpoint(s) went with the job.",
                "没有高可用时，作业随 JobManager 一起失败：只有它的内存知道已完成的检查点，而它们没有外部化保留，于是 {discarded} 个已完成的检查点随作业一起消失了。"
            ),
            None => lang
                .t(
                    "Without high availability the job fails with its JobManager; no checkpoint had completed.",
                    "没有高可用时，作业随 JobManager 一起失败；此前没有已完成的检查点。",
                )
                .into(),
        },
        Event::JobManagerStarted => lang
            .t(
                "A new JobManager started. Without high availability it knows nothing of the failed job: the job must be submitted again (restore).",
                "新的 JobManager 启动了。没有高可用，它对失败的作业一无所知：作业必须重新提交（恢复）。",
            )
            .into(),
        Event::JobResubmitted { submission, from, next_id } => match from {
            Some(c) => say!(
                lang,
                "The job was submitted again, as a new job (submission {submission}), from retained checkpoint {}; as a new job its checkpoint ids continue at {}.",
                "作业作为一个新作业（第 {submission} 次提交）从保留的检查点 {} 重新提交；作为新作业，它的检查点编号从 {} 继续。",
                c.0,
                next_id.0
            ),
            None => say!(
                lang,
                "The job was submitted again, as a new job (submission {submission}), from nothing: no checkpoint was retained. Its checkpoint ids start again at {}.",
                "作业作为一个新作业（第 {submission} 次提交）从零开始重新提交：没有保留任何检查点。它的检查点编号重新从 {} 开始。",
                next_id.0
            ),
        },
        _ => return super::savepoint_wording::narrate(e, lang),
    })
}

/// One sentence for an event of Storm's acker (trees, acks, Nimbus and supervisors) or of Spark
/// Streaming (blocks, batches, the driver and executors); empty for any other event.
pub fn narrate_storm_spark(e: &Event, g: &JobGraph, lang: Lang) -> String {
    let t = |id: TaskId| g.task(id).name.as_str();
    let r = |id: RecordId| g.label(id);
    match *e {
        Event::AckInitSent { task, record, root } => say!(
            lang,
            "{} started tuple tree {} for {} and told the acker its edges (init).",
            "{0} 为 {2} 建立了元组树 {1}，并把它的边告诉 acker（init）。",
            t(task),
            hex(root),
            r(record)
        ),
        Event::AckSent { task, record, root, anchored, unanchored } => {
            let extra = if unanchored > 0 {
                say!(lang, "; {unanchored} child(ren) went out unanchored, untracked", "；{unanchored} 个子元组未锚定，不被跟踪")
            } else {
                String::new()
            };
            say!(
                lang,
                "{} acked its {} tuple of tree {} with {anchored} anchored child(ren){extra}.",
                "{0} 确认（ack）了树 {2} 中的 {1} 元组，带 {anchored} 个锚定的子元组{extra}。",
                t(task),
                r(record),
                hex(root)
            )
        }
        Event::AckerUpdated { from, record, root, val } => say!(
            lang,
            "The acker XORed {}'s message into tree {} ({}): its value is now {}.",
            "acker 把 {} 的消息异或进树 {}（{}）：值现在是 {}。",
            t(from),
            hex(root),
            r(record),
            hex(val)
        ),
        Event::TreeCompleted { spout, record, root } => say!(
            lang,
            "Tree {} of {} reached 0: every tuple in it was acked. The acker tells {}.",
            "{1} 的树 {0} 归零：其中每个元组都已确认。acker 通知 {2}。",
            hex(root),
            r(record),
            t(spout)
        ),
        Event::SpoutAcked { task, record, offset, committed } => say!(
            lang,
            "{} got the ack for {} (offset {offset}) and forgot it; it has committed up to offset {committed}.",
            "{} 收到 {}（偏移量 {offset}）的确认并不再保留它；已提交到偏移量 {committed}。",
            t(task),
            r(record)
        ),
        Event::StaleAckIgnored { task, record } => say!(
            lang,
            "{} ignored an ack for {}: that tree had already timed out and {} was sent again as a new tree.",
            "{} 忽略了 {} 的确认：那棵树已经超时，{} 已作为新树重发。",
            t(task),
            r(record),
            r(record)
        ),
        Event::TupleTimedOut { task, record, offset } => say!(
            lang,
            "{}'s tuple {} (offset {offset}) was not fully acked within the message timeout: it failed, and {} will emit it again.",
            "{} 的元组 {}（偏移量 {offset}）没有在消息超时内被完全确认：它失败了，{} 会重新发出它。",
            t(task),
            r(record),
            t(task)
        ),
        Event::AckerForgot { root, record } => say!(
            lang,
            "The acker dropped unfinished tree {}{} after its timeout, silently.",
            "acker 在超时后悄悄丢弃了未完成的树 {}{}。",
            hex(root),
            record.map(|x| format!(" ({})", r(x))).unwrap_or_default()
        ),
        Event::BlockStored { task, record, block, wal, acked } => {
            let e = super::mechanisms::spark_streaming::executor_of(task);
            let o = 1 - e;
            let log = if wal {
                say!(
                    lang,
                    " only, and in the write-ahead log (with the log on, Spark stores no replica: replication 1)",
                    "（仅此一份），并写入预写日志（预写日志开启时 Spark 不存副本：副本数 1）"
                )
            } else {
                say!(lang, ", replicated to executor {o}", "，复制到执行器 {o}")
            };
            let ack = if acked {
                lang.t("; then it acknowledged the source", "；然后向数据源确认")
            } else {
                lang.t("; a socket cannot be acknowledged", "；socket 无法确认")
            };
            say!(
                lang,
                "{}'s receiver took {} and stored it as block {block}: in executor {e}'s memory{log}{ack}.",
                "{} 的接收器收到 {}，存为块 {block}：放在执行器 {e} 的内存{log}{ack}。",
                t(task),
                r(record)
            )
        }
        Event::BatchGenerated { batch, blocks } => say!(
            lang,
            "The driver cut batch {batch} from {blocks} block(s), queued its job and wrote a metadata checkpoint.",
            "驱动器把 {blocks} 个块切成批次 {batch}，把它的作业排入队列，并写下元数据检查点。"
        ),
        Event::BatchStarted { batch, records, missing, output, attempt } => {
            let what = if output { "" } else { lang.t(" (recomputed from lineage, no output)", "（按血统重算，不输出）") };
            let again = if attempt > 1 { say!(lang, ", attempt {attempt}", "，第 {attempt} 次尝试") } else { String::new() };
            let gone = if missing > 0 {
                say!(lang, "; {missing} block(s) are in no memory and no log: gone", "；{missing} 个块既不在内存也不在日志中：丢失了")
            } else {
                String::new()
            };
            say!(
                lang,
                "Batch {batch}'s job started{what}{again}: {records} record(s){gone}.",
                "批次 {batch} 的作业开始{what}{again}：{records} 条记录{gone}。"
            )
        }
        Event::BatchCompleted { batch, output, lineage } => {
            let what = if output { "" } else { lang.t(" (state recomputed)", "（状态已重算）") };
            say!(
                lang,
                "Batch {batch} completed{what}; the state RDD's lineage chain is {lineage} batch(es) long.",
                "批次 {batch} 完成{what}；状态 RDD 的血统链长 {lineage} 个批次。"
            )
        }
        Event::StateCheckpointed { batch, cut, cleaned } => say!(
            lang,
            "The state RDD of batch {batch} was checkpointed: the lineage chain of {cut} is cut, and {cleaned} block(s) left the write-ahead log.",
            "批次 {batch} 的状态 RDD 写入了检查点：长 {cut} 的血统链被截断，{cleaned} 个块从预写日志中清理。"
        ),
        Event::LogCleaned { before, blocks } => say!(
            lang,
            "{blocks} block(s) of batches before batch time {before} left the write-ahead log: Spark keeps blocks for twice the checkpoint interval.",
            "批次时间 {before} 之前的批次的 {blocks} 个块从预写日志中清理：Spark 把块保留两倍的检查点间隔。"
        ),
        Event::BatchOutput { task, time, rows, skipped } => {
            if skipped {
                say!(
                    lang,
                    "{}'s output for (batch time {time}, {}) had committed before: its {rows} row(s) are skipped.",
                    "{0} 的（批次时间 {time}，{1}）输出之前已提交：这 {rows} 行被跳过。",
                    t(task),
                    t(task)
                )
            } else {
                say!(
                    lang,
                    "{} committed {rows} row(s) for (batch time {time}, {}) in one transaction.",
                    "{0} 在一个事务里提交了（批次时间 {time}，{1}）的 {rows} 行。",
                    t(task),
                    t(task)
                )
            }
        }
        Event::ExecutorLost { executor, task, lost_blocks, rerun, lineage } => {
            let rerun = match rerun {
                Some(k) => say!(
                    lang,
                    "; batch {k}'s tasks run again over the state RDD, its lost partitions recomputed from a lineage chain of {lineage}",
                    "；批次 {k} 的任务在状态 RDD 上重新运行，丢失的分区按长 {lineage} 的血统链重算"
                ),
                None => String::new(),
            };
            say!(
                lang,
                "Executor {executor} (running {}) died and a new one took its place: {lost_blocks} block(s) lost their last copy{rerun}.",
                "执行器 {executor}（运行 {}）挂了，新的执行器接替它：{lost_blocks} 个块失去了最后一份副本{rerun}。",
                t(task)
            )
        }
        Event::DriverLost { blocks, lost_in_flight } => say!(
            lang,
            "The driver died, and every executor with it: {blocks} block(s) in memory and {lost_in_flight} record(s) on their way are gone.",
            "驱动器挂了，所有执行器随之退出：内存中的 {blocks} 个块和 {lost_in_flight} 条在途记录消失了。"
        ),
        Event::NimbusDown => lang
            .t(
                "Nimbus died. The workers keep processing; only new submissions and reassigning failed workers wait for it.",
                "Nimbus 挂了。worker 照常处理；只有提交新作业和重新分配失败的 worker 要等它恢复。",
            )
            .into(),
        Event::NimbusRestarted => lang.t("Nimbus is back.", "Nimbus 已恢复。").into(),
        Event::SupervisorRestarted => lang
            .t(
                "Nimbus is still down, but the supervisor restarts the dead worker on its own: supervisors keep restarting workers that die without Nimbus.",
                "Nimbus 仍然宕着，但 supervisor 自己重启了挂掉的 worker：没有 Nimbus，supervisor 照样会重启挂掉的 worker。",
            )
            .into(),
        _ => String::new(),
    }
}

impl ActionError {
    /// Why the action was refused, in one clause ("the job is down; restore it first").
    pub fn message(&self, lang: Lang) -> String {
        use ActionError::*;
        match self {
            NoSuchChannel(c) => say!(lang, "there is no channel #{c}", "没有编号为 {c} 的通道"),
            NoSuchTask(t) => say!(lang, "there is no task #{t}", "没有编号为 {t} 的任务"),
            JobDown => lang.t("the job is down; restore it first", "作业已停止，请先恢复").into(),
            JobRunning => {
                lang.t("the job is running; there is nothing to restore", "作业正在运行，没有需要恢复的东西").into()
            }
            TaskDown { task } => say!(
                lang,
                "{task} is down with its failed region; restore it first",
                "{task} 随所在的失败区域停止了，请先恢复"
            ),
            NoNotification { task } => say!(
                lang,
                "no notification that a checkpoint completed is on its way to {task}",
                "没有发往 {task} 的检查点完成通知"
            ),
            ChannelEmpty { channel } => say!(lang, "channel {channel} is empty", "通道 {channel} 是空的"),
            ChannelBlocked { channel, task } => say!(
                lang,
                "channel {channel} is blocked: {task} is aligning barriers and buffers what comes after the barrier",
                "通道 {channel} 已阻塞：{task} 正在对齐屏障，屏障之后的记录被缓存"
            ),
            Backpressured { task, channel, capacity } => say!(
                lang,
                "{task} is backpressured: its output channel {channel} is full ({capacity} items)",
                "{task} 受到反压：它的输出通道 {channel} 已满（{capacity} 项）"
            ),
            NotASource { task } => say!(lang, "{task} is not a source", "{task} 不是数据源"),
            SourcesPaused { checkpoint } => say!(
                lang,
                "sources are paused until stop-the-world checkpoint {checkpoint} completes",
                "数据源已暂停，直到全局暂停检查点 {checkpoint} 完成"
            ),
            ReceiverListens { task } => say!(
                lang,
                "{task}'s receiver stores what arrives on its socket by itself, as each record arrives (wait)",
                "{task} 的接收器会在每条记录到达 socket 时自行存储（等待）"
            ),
            NotArrived { task, at } => say!(
                lang,
                "nothing has arrived on {task}'s socket yet: its next record arrives at step {at} (wait)",
                "{task} 的 socket 上还没有数据到达：下一条记录在第 {at} 步到达（等待）"
            ),
            LogExhausted { task, records } => {
                say!(
                    lang,
                    "{task} has read its whole log ({records} records)",
                    "{task} 已读完整个日志（{records} 条记录）"
                )
            }
            NoCheckpoints { strategy } => {
                let name = strategy_words(strategy, lang);
                say!(lang, "there are no checkpoints with {name}", "“{name}”不做检查点")
            }
            NotTimers { strategy } => {
                let (timers, name) = (strategy_words("timers", lang), strategy_words(strategy, lang));
                say!(
                    lang,
                    "snapshot timers belong to {timers}, not to {name}",
                    "快照定时器只属于“{timers}”，而不属于“{name}”"
                )
            }
            NimbusDown => lang.t("Nimbus is already down", "Nimbus 已经停了").into(),
            NoAckMessage { task } => {
                say!(lang, "no message from {task} is on its way to the acker", "没有从 {task} 发往 acker 的消息")
            }
            NoAckerAnswer { task } => {
                say!(lang, "no answer from the acker is on its way to {task}", "没有 acker 发往 {task} 的答复")
            }
            NoAcker { strategy } => {
                let name = strategy_words(strategy, lang);
                say!(lang, "there is no acker with {name} (or with ackers 0)", "“{name}”没有 acker（或 acker 数为 0）")
            }
            JobStopped | NotStopped | Stopping { .. } | NoSavepoint { .. } => {
                super::savepoint_wording::refusal(self, lang).unwrap_or_default()
            }
            NothingToDo => lang
                .t(
                    "nothing left to do: every log is read and every channel is empty or blocked",
                    "无事可做：日志已全部读完，通道都为空或已阻塞",
                )
                .into(),
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}
