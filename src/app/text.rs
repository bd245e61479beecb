//! The UI's words in English and Simplified Chinese, in the field's terms as the articles use them
//! (检查点 checkpoint, 屏障 barrier, 对齐 alignment, 精确一次 exactly once, 至少一次 at least once,
//! 最多一次 at most once, 端到端 end to end).

use crate::engine::core::lang::say;
pub use crate::engine::Lang;
use crate::engine::{Completeness, JobGraph, OperatorKind, Order, Place, SinkMode, Strategy, Verdict};

/// The strategy menu's entry: its catalogue row's, the name with its guarantee or its system's
/// way.
pub fn strategy_name(l: Lang, s: Strategy) -> &'static str {
    s.row().menu.get(l)
}

/// The strategy menu's entry for a barrier handler of the lab: its choices, and the guarantee the
/// explorer classifies it as.
pub fn lab_handler_name(l: Lang, h: &crate::engine::settings::handler::Handler) -> String {
    use crate::engine::explorer::lab::Guarantee;
    let g = match h.classified() {
        Guarantee::ExactlyOnce => l.t("exactly once", "精确一次"),
        Guarantee::AtLeastOnce => l.t("at least once", "至少一次"),
        Guarantee::AtMostOnce => l.t("at most once", "最多一次"),
        Guarantee::NoneOfThese => l.t("none of these", "都不是"),
    };
    say!(l, "Lab handler: {} ({g})", "实验室屏障处理器：{}（{g}）", h.words(l))
}

pub fn sink_name(l: Lang, s: SinkMode) -> &'static str {
    match s {
        SinkMode::Append => l.t("Plain append", "普通追加"),
        SinkMode::Upsert => l.t("Idempotent upsert", "幂等写入"),
        SinkMode::TwoPhaseCommit => l.t("Two-phase commit", "两阶段提交"),
        SinkMode::Transactional => l.t("Transactional per batch (Spark)", "按批次事务（Spark）"),
        SinkMode::Kafka => l.t("Kafka transactions", "Kafka 事务"),
    }
}

pub fn job_name(l: Lang, job: &str) -> &'static str {
    match job {
        "line" => l.t("line: Source → Map → Count", "line：Source → Map → Count"),
        "line-sink" => l.t("line-sink: … → Count → Sink", "line-sink：… → Count → Sink"),
        "two-inputs" => l.t("two-inputs: two sources → Count", "two-inputs：两个源 → Count"),
        "diamond" => l.t("diamond: A → B, C → D", "diamond：A → B、C → D"),
        "keyed-shuffle" => l.t("keyed-shuffle: parallelism 2", "keyed-shuffle：并行度 2"),
        "line-uids" => l.t("line-uids: the line with uids", "line-uids：带 uid 的 line"),
        "keyed-count" => l.t("keyed-count: Source → keyBy → Count", "keyed-count：Source → keyBy → Count"),
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

/// The words for "still on its way", or, while the job is down, "undecided": the restore decides.
fn on_its_way(l: Lang, down: bool) -> &'static str {
    if down {
        l.t("undecided", "待定")
    } else {
        l.t("on its way", "处理中")
    }
}

/// Completeness as a symbol and a word; while the job is down an undecided record waits for the
/// restore.
pub fn complete_mark(l: Lang, v: Completeness, down: bool) -> (&'static str, &'static str) {
    match v {
        Completeness::Complete => ("✓", l.t("complete", "完整")),
        Completeness::Incomplete => ("✗", l.t("incomplete", "不完整")),
        Completeness::Pending => ("…", on_its_way(l, down)),
    }
}

/// Order as a symbol and a word; while the job is down an undecided record waits for the restore.
pub fn order_mark(l: Lang, v: Order, down: bool) -> (&'static str, &'static str) {
    match v {
        Order::InOrder => ("✓", l.t("in order", "有序")),
        Order::OutOfOrder => ("⇅", l.t("out of order", "乱序")),
        Order::Pending => ("…", on_its_way(l, down)),
    }
}

/// The ledger's column header tooltips: what complete and in order mean.
pub fn complete_help(l: Lang) -> &'static str {
    l.t(
        "Complete: processed on every path of the job that it takes in the failure-free run: at every task input \
         where that run processed it, at least as often. Judged on what still counts after recovery: a restore takes \
         back what the restored snapshot does not reflect.",
        "完整：在无故障运行中它经过的每条路径上都被处理过：在该运行处理过它的每个任务输入上，处理次数不少于那次运行。\
         按恢复后仍然算数的历史判断：恢复会撤回所恢复快照没有反映的处理。",
    )
}

pub fn order_help(l: Lang) -> &'static str {
    l.t(
        "In order: at each task, the records of one source partition take effect in source order. A record that takes \
         effect after a record of its partition at the same or a later offset (a replay after newer ones, a second \
         count of the same record) is out of order. Judged on what still counts after recovery; at a sink, on the rows \
         a reader sees, in the order they were written.",
        "有序：在每个任务上，同一源分区的记录按源中的顺序生效。若一条记录在同分区中偏移量相同或更大的记录之后才生效\
         （在更新的记录之后重放，同一条记录被再计一次），它就是乱序的。按恢复后仍然算数的历史判断；在 Sink 上按读者\
         看到的行、按写入顺序判断。",
    )
}

/// Where: "Count (from Map->Count), Map (from Source->Map)", a sink's places as a reader sees them.
pub fn places(l: Lang, g: &JobGraph, places: &[Place]) -> String {
    let one = |p: &Place| {
        let c = g.channel(p.channel);
        let (task, channel) = (&g.task(c.to).name, &c.name);
        match p.external {
            false => say!(l, "{task} (from {channel})", "{task}（来自 {channel}）"),
            true => say!(l, "what a reader sees of {task} (from {channel})", "读者从 {task} 看到的（来自 {channel}）"),
        }
    };
    places.iter().map(one).collect::<Vec<_>>().join(l.t(", ", "，"))
}

/// A ledger cell's tooltip for completeness: where the record is missing, or what complete means.
pub fn complete_tip(l: Lang, g: &JobGraph, v: Completeness, at: &[Place], down: bool) -> String {
    let at = places(l, g, at);
    match v {
        Completeness::Complete => l
            .t(
                "processed at every task input it reaches in the failure-free run",
                "在无故障运行中到达的每个任务输入上都已处理",
            )
            .into(),
        Completeness::Incomplete => say!(
            l,
            "missing at {at}: fewer times than in the failure-free run, and nothing is on its way",
            "在 {at} 缺失：次数少于无故障运行，也没有正在路上的副本"
        ),
        Completeness::Pending if down => l.t("the restore decides", "由恢复决定").into(),
        Completeness::Pending => say!(l, "still on its way to {at}", "仍在去往 {at} 的路上"),
    }
}

/// A ledger cell's tooltip for order: where the record came late or again.
pub fn order_tip(l: Lang, g: &JobGraph, v: Order, at: &[Place], down: bool) -> String {
    match v {
        Order::InOrder => l.t("took effect in source order at every task", "在每个任务上都按源中的顺序生效").into(),
        Order::OutOfOrder => say!(
            l,
            "took effect after a record of its partition at the same or a later offset, at {}",
            "在同分区偏移量相同或更大的记录之后才生效，位置：{}",
            places(l, g, at)
        ),
        Order::Pending if down => l.t("the restore decides", "由恢复决定").into(),
        Order::Pending => l.t("in order so far, still on its way", "目前有序，仍在路上").into(),
    }
}

/// An operator's kind in words ("keyed count").
pub fn kind_name(l: Lang, k: &OperatorKind) -> &'static str {
    match k {
        OperatorKind::Source => l.t("source", "数据源"),
        OperatorKind::Map => l.t("map", "映射"),
        OperatorKind::Filter { .. } => l.t("filter", "过滤"),
        OperatorKind::Count => l.t("keyed count", "按键计数"),
        OperatorKind::Sum => l.t("keyed sum", "按键求和"),
        OperatorKind::Sink => l.t("sink", "输出"),
    }
}
