//! The narration of checkpoints, after Flink's CheckpointCoordinator and barrier handlers: a
//! checkpoint triggered, barriers emitted, received, aligned or overtaking, channels blocked, a
//! snapshot taken and acknowledged, cancel markers, declines and aborts (and why:
//! `CheckpointFailureReason`), the completion and its notification, stop-the-world's pause.

use crate::engine::core::action::{AbortReason, Event, GaveUp, Guarantee, SnapshotKind};
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::lang::{say, Lang};
use crate::engine::settings::handler::Guarantee as LabGuarantee;

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
        AbortReason::CoordinatorSuspend => {
            lang.t("the periodic checkpoints stopped for a stop with savepoint", "周期性检查点为停止并保存而暂停")
        }
        AbortReason::CoordinatorShutdown => lang.t("the job was cancelled", "作业被取消"),
    }
}

pub(super) fn narrate(e: &Event, g: &JobGraph, lang: Lang) -> Option<String> {
    let t = |id: TaskId| g.task(id).name.as_str();
    let ch = |id: ChannelId| g.channel(id).name.as_str();
    let r = |id: RecordId| g.label(id);
    Some(match *e {
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
        _ => return None,
    })
}
