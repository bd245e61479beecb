//! The UI's words in English and Simplified Chinese, in the field's terms as the articles use them
//! (检查点 checkpoint, 屏障 barrier, 对齐 alignment, 精确一次 exactly once, 至少一次 at least once,
//! 最多一次 at most once, 端到端 end to end).

pub use crate::engine::Lang;
use crate::engine::{SinkMode, Strategy, Verdict};

pub fn strategy_name(l: Lang, s: Strategy) -> &'static str {
    match s {
        Strategy::None => l.t("No snapshots", "不做快照"),
        Strategy::Timers => l.t("Per-task timers", "各任务定时快照"),
        Strategy::Aligned => l.t("Aligned barriers (exactly once)", "对齐屏障（精确一次）"),
        Strategy::AtLeastOnce => l.t("Barriers, no alignment (at least once)", "屏障不对齐（至少一次）"),
        Strategy::Unaligned => l.t("Unaligned checkpoints", "非对齐检查点"),
        Strategy::StopTheWorld => l.t("Stop the world", "全局暂停快照"),
        Strategy::StormAcker => l.t("Storm: ack every tuple (at least once)", "Storm：逐条确认（至少一次）"),
    }
}

pub fn sink_name(l: Lang, s: SinkMode) -> &'static str {
    match s {
        SinkMode::Append => l.t("Plain append", "普通追加"),
        SinkMode::Upsert => l.t("Idempotent upsert", "幂等写入"),
        SinkMode::TwoPhaseCommit => l.t("Two-phase commit", "两阶段提交"),
    }
}

pub fn job_name(l: Lang, job: &str) -> &'static str {
    match job {
        "line" => l.t("line: Source → Map → Count", "line：Source → Map → Count"),
        "line-sink" => l.t("line-sink: … → Count → Sink", "line-sink：… → Count → Sink"),
        "two-inputs" => l.t("two-inputs: two sources → Count", "two-inputs：两个源 → Count"),
        "diamond" => l.t("diamond: A → B, C → D", "diamond：A → B、C → D"),
        "keyed-shuffle" => l.t("keyed-shuffle: parallelism 2", "keyed-shuffle：并行度 2"),
        _ => l.t("custom job", "自定义作业"),
    }
}

/// [`verdict_mark`], but while the job is down a record still to be decided waits for the
/// restore: only the restore decides its fate.
pub fn verdict_mark_now(l: Lang, v: Verdict, down: bool) -> (&'static str, &'static str) {
    match v {
        Verdict::Pending if down => ("…", l.t("waiting for the restore", "等待恢复")),
        _ => verdict_mark(l, v),
    }
}

/// A symbol and a word, so colour is never the only signal.
pub fn verdict_mark(l: Lang, v: Verdict) -> (&'static str, &'static str) {
    match v {
        Verdict::ExactlyOnce => ("✓", l.t("exactly once", "精确一次")),
        Verdict::Lost => ("✗", l.t("lost", "丢失")),
        Verdict::Duplicated => ("⊕", l.t("duplicated", "重复")),
        Verdict::Pending => ("…", l.t("on its way", "处理中")),
    }
}
