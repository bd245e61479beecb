//! The narration of Structured Streaming: the driver writing the offset log and the commit log,
//! the state stores committing a version, the sink finishing a batch (or skipping one it had
//! written), the query stopped with its driver, and its restart on the checkpoint location.

use super::events::StructuredEvent;
use super::settings::OutputSink;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::lang::{say, Lang};

/// The sink's name, as Spark's API names it.
pub(crate) fn sink_name(sink: OutputSink, lang: Lang) -> &'static str {
    match sink {
        OutputSink::File => lang.t("the file sink", "文件 sink"),
        OutputSink::ForeachBatchIdempotent => {
            lang.t("foreachBatch (deduplicating by batchId)", "foreachBatch（按 batchId 去重）")
        }
        OutputSink::ForeachBatch => lang.t("foreachBatch (without a batchId check)", "foreachBatch（不检查 batchId）"),
        OutputSink::Foreach => lang.t("the foreach writer", "foreach 写入器"),
    }
}

/// How the query came back from its checkpoint location.
pub(crate) fn structured_restart(batch: u32, rerun: bool, version: u32, lang: Lang) -> String {
    let state = if version == 0 {
        lang.t("the state stores start empty (version 0)", "状态存储从空开始（版本 0）").to_string()
    } else {
        say!(lang, "the state stores load version {version}", "状态存储加载版本 {version}")
    };
    if rerun {
        say!(
            lang,
            "The query restarted on its checkpoint location: offsets/{batch} has no commits/{batch}, so batch {batch} runs again with exactly the offsets of that entry; {state}.",
            "查询在检查点目录上重启：offsets/{batch} 没有对应的 commits/{batch}，所以批次 {batch} 按该条目里完全相同的偏移重新运行；{state}。"
        )
    } else {
        say!(
            lang,
            "The query restarted on its checkpoint location: every batch in the offset log has its commit entry, so batch {batch} is the next new one; {state}.",
            "查询在检查点目录上重启：偏移日志里的每个批次都有提交条目，所以下一个新批次是批次 {batch}；{state}。"
        )
    }
}

pub(crate) fn narrate(e: &StructuredEvent, _g: &JobGraph, lang: Lang) -> String {
    match *e {
        StructuredEvent::OffsetLogWritten { batch, records } => say!(
            lang,
            "The driver wrote offsets/{batch} to the checkpoint location: batch {batch} will read {records} offset(s), and only then runs.",
            "驱动器把 offsets/{batch} 写入检查点目录：批次 {batch} 将读取 {records} 个偏移，写完才开始运行。"
        ),
        StructuredEvent::StateStoreCommitted { batch, version, stores } => say!(
            lang,
            "Batch {batch}'s {stores} state store(s) committed version {version} (the batch loaded version {batch}).",
            "批次 {batch} 的 {stores} 个状态存储提交了版本 {version}（该批次加载的是版本 {batch}）。"
        ),
        StructuredEvent::SinkCommitted { batch, sink, rows, skipped } => {
            // The sink's name opens the sentence.
            let mut name = sink_name(sink, lang).to_string();
            if let Some(first) = name.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            match (sink, skipped) {
                (OutputSink::File, true) => say!(
                    lang,
                    "{name} found batch {batch} in _spark_metadata already: it skips the batch, and its {rows} row(s) are not written again.",
                    "{name} 发现 _spark_metadata 里已有批次 {batch}：跳过该批次，它的 {rows} 行不再写入。"
                ),
                (_, true) => say!(
                    lang,
                    "{name} had written batch {batch} before: it skips it.",
                    "{name} 之前已写过批次 {batch}：跳过它。"
                ),
                (OutputSink::File, false) => say!(
                    lang,
                    "{name} wrote _spark_metadata/{batch}: batch {batch}'s {rows} row(s) are visible.",
                    "{name} 写下 _spark_metadata/{batch}：批次 {batch} 的 {rows} 行可见了。"
                ),
                (OutputSink::Foreach, false) => say!(
                    lang,
                    "{name} finished batch {batch}: {rows} row(s) written, each as it was processed.",
                    "{name} 完成了批次 {batch}：写入 {rows} 行，每行在处理时即写入。"
                ),
                (_, false) => say!(
                    lang,
                    "{name} wrote batch {batch}: {rows} row(s) visible.",
                    "{name} 写入了批次 {batch}：{rows} 行可见。"
                ),
            }
        }
        StructuredEvent::CommitLogWritten { batch } => say!(
            lang,
            "The driver wrote commits/{batch}: batch {batch} is done and will not run again.",
            "驱动器写下 commits/{batch}：批次 {batch} 已完成，不会再运行。"
        ),
        StructuredEvent::QueryStopped { batch, lost_in_flight } => say!(
            lang,
            "The driver died and the query with it, at batch {batch}: {lost_in_flight} record(s) on their way are gone; the checkpoint location stays.",
            "驱动器挂了，查询随之停止，停在批次 {batch}：{lost_in_flight} 条在途记录消失了；检查点目录还在。"
        ),
    }
}

/// What a crash action takes down under Structured Streaming, in the comparison's words.
pub(crate) fn crash_words(crash: &crate::engine::core::action::Action, g: &JobGraph, lang: Lang) -> Option<String> {
    use crate::engine::core::action::Action;
    Some(match *crash {
        Action::Crash | Action::CrashJobManager => {
            let action = if *crash == Action::Crash { "crash" } else { "crash-job-manager" };
            say!(lang, "{}: the driver dies, and the query with it", "{}：driver 宕机，查询随之停止", action)
        }
        Action::CrashTask { task } => say!(
            lang,
            "crash-task {}: the task fails past its retries, and the query fails",
            "crash-task {}：该任务重试用尽后仍失败，查询随之失败",
            g.task(task).name
        ),
        _ => return None,
    })
}
