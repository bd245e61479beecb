//! The narration of Spark Streaming: receivers storing blocks (and the write-ahead log), the driver
//! cutting batches and running their jobs, state checkpoints and log cleaning, a batch's output,
//! an executor or the driver lost, and the driver's restart from its metadata checkpoint.

use super::events::SparkStreamingEvent;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::ids::{RecordId, TaskId};
use crate::engine::core::lang::{say, Lang};

/// How the driver came back from its metadata checkpoint.
pub(crate) fn spark_restart(
    state: Option<u32>,
    recompute: u16,
    rerun: u16,
    again: u16,
    since: u64,
    lang: Lang,
) -> String {
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

pub(crate) fn narrate(e: &SparkStreamingEvent, g: &JobGraph, lang: Lang) -> String {
    let t = |id: TaskId| g.task(id).name.as_str();
    let r = |id: RecordId| g.label(id);
    match *e {
        SparkStreamingEvent::BlockStored { task, record, block, wal, acked } => {
            let e = crate::engine::mechanisms::spark::micro_batches::executor_of(task);
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
        SparkStreamingEvent::BatchGenerated { batch, blocks } => say!(
            lang,
            "The driver cut batch {batch} from {blocks} block(s), queued its job and wrote a metadata checkpoint.",
            "驱动器把 {blocks} 个块切成批次 {batch}，把它的作业排入队列，并写下元数据检查点。"
        ),
        SparkStreamingEvent::BatchStarted { batch, records, missing, output, attempt } => {
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
        SparkStreamingEvent::BatchCompleted { batch, output, lineage } => {
            let what = if output { "" } else { lang.t(" (state recomputed)", "（状态已重算）") };
            say!(
                lang,
                "Batch {batch} completed{what}; the state RDD's lineage chain is {lineage} batch(es) long.",
                "批次 {batch} 完成{what}；状态 RDD 的血统链长 {lineage} 个批次。"
            )
        }
        SparkStreamingEvent::StateCheckpointed { batch, cut, cleaned } => say!(
            lang,
            "The state RDD of batch {batch} was checkpointed: the lineage chain of {cut} is cut, and {cleaned} block(s) left the write-ahead log.",
            "批次 {batch} 的状态 RDD 写入了检查点：长 {cut} 的血统链被截断，{cleaned} 个块从预写日志中清理。"
        ),
        SparkStreamingEvent::LogCleaned { before, blocks } => say!(
            lang,
            "{blocks} block(s) of batches before batch time {before} left the write-ahead log: Spark keeps blocks for twice the checkpoint interval.",
            "批次时间 {before} 之前的批次的 {blocks} 个块从预写日志中清理：Spark 把块保留两倍的检查点间隔。"
        ),
        SparkStreamingEvent::BatchOutput { task, time, rows, skipped } => {
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
        SparkStreamingEvent::ExecutorLost { executor, task, lost_blocks, rerun, lineage } => {
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
        SparkStreamingEvent::DriverLost { blocks, lost_in_flight } => say!(
            lang,
            "The driver died, and every executor with it: {blocks} block(s) in memory and {lost_in_flight} record(s) on their way are gone.",
            "驱动器挂了，所有执行器随之退出：内存中的 {blocks} 个块和 {lost_in_flight} 条在途记录消失了。"
        ),
    }
}

/// What a crash action takes down under Spark Streaming, in the comparison's words: `crash` and
/// `crash-job-manager` both take the driver, and every executor with it; `crash-task` the executor
/// running the task, replaced at once.
pub(crate) fn crash_words(crash: &crate::engine::core::action::Action, g: &JobGraph, lang: Lang) -> Option<String> {
    use crate::engine::core::action::Action;
    Some(match *crash {
        Action::Crash | Action::CrashJobManager => {
            let action = if *crash == Action::Crash { "crash" } else { "crash-job-manager" };
            say!(
                lang,
                "{}: the driver dies, and every executor with it",
                "{}：driver 宕机，所有 executor 随之退出",
                action
            )
        }
        Action::CrashTask { task } => {
            let e = super::micro_batches::executor_of(task);
            let tasks: Vec<&str> =
                g.tasks.iter().enumerate().filter(|(i, _)| i % 2 == e as usize).map(|(_, t)| t.name.as_str()).collect();
            say!(
                lang,
                "crash-task {}: executor {} dies (it runs {}) and a new one takes its place at once",
                "crash-task {}：executor {} 宕机（它运行 {}），新的 executor 立即接替",
                g.task(task).name,
                e,
                tasks.join(", ")
            )
        }
        _ => return None,
    })
}
