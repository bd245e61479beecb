//! The Batch room's own words, in English and Chinese: the built-in jobs' names, where an RDD keeps
//! its partitions, a word's verdict, a step's number.

use crate::engine::batch::{BatchVerdict, Keep};
use crate::engine::Lang;

pub fn job_name(l: Lang, job: &str) -> &'static str {
    match job {
        "hadoop-wordcount" => l.t("Hadoop: word count, 3 nodes", "Hadoop：词频统计，3 个节点"),
        "spark-figure" => l.t("Spark: the article's figure, 2 executors", "Spark：文章中的图，2 个执行器"),
        "spark-one-executor" => l.t("Spark: the figure on 1 executor", "Spark：同一张图，1 个执行器"),
        _ => l.t("a job from a file or a link", "来自文件或链接的作业"),
    }
}

pub fn keep_name(l: Lang, k: Keep) -> &'static str {
    match k {
        Keep::None => l.t("not kept", "不保存"),
        Keep::Persist => l.t("persist() (memory)", "persist()（内存）"),
        Keep::Checkpoint => l.t("checkpoint() (reliable)", "checkpoint()（可靠存储）"),
    }
}

/// A word's verdict: its mark and its word.
pub fn verdict_mark(l: Lang, v: BatchVerdict) -> (&'static str, &'static str) {
    match v {
        BatchVerdict::ExactlyOnce => ("✓", l.t("exactly once", "精确一次")),
        BatchVerdict::Pending => ("…", l.t("not yet", "尚未写出")),
        BatchVerdict::Lost => ("✗", l.t("lost", "丢失")),
        BatchVerdict::Duplicated => ("⊕", l.t("duplicated", "重复")),
        BatchVerdict::Wrong => ("≠", l.t("wrong count", "计数错误")),
    }
}

/// "Step 5" / "第 5 步": a step's number in the narration, as the main screen says it.
pub fn step_no(l: Lang, n: usize) -> String {
    match l {
        Lang::En => format!("Step {n}"),
        Lang::Zh => format!("第 {n} 步"),
    }
}
