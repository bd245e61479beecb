//! The side-by-side room's lesson, "Three ways to survive a crash", in English and Chinese.
//!
//! It follows the article's thesis: every stream processor survives failure by cutting the
//! stream and retrying from the cut; what differs is how fine the cut is, and what it costs. The
//! learner first predicts, for five questions, which run it will be; the clock plays to the
//! crash, the runs go to their end, and each prediction is revealed against the cost table.
//! Then one step per mechanism explains its figures, as the real systems behave (Storm's XOR
//! acker and spout replay, Spark Streaming's receiver, write-ahead log and micro-batches, Flink's
//! checkpoint barriers and replayable source), and the lesson ends on the article's conclusion in
//! the learner's own measured figures. Every answer is computed from
//! [`Costs`], never written in.

use crate::engine::comparison::Costs;
use crate::engine::core::lang::say;
use crate::engine::{Lang, Strategy, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The learner's place in the lesson, as saved.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedCompareLesson {
    pub step: usize,
    /// Per question id, the run the learner predicted (counting from 0).
    #[serde(default)]
    pub predictions: BTreeMap<String, usize>,
}

/// A prediction question: which run will it be?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    pub id: &'static str,
    pub en: &'static str,
    pub zh: &'static str,
}

pub const QUESTIONS: [Question; 5] = [
    Question {
        id: "most-rework",
        en: "Which run re-processes the most records after the crash?",
        zh: "崩溃后哪个运行重新处理的记录最多？",
    },
    Question {
        id: "first-seen",
        en: "Which run shows a reader its records soonest (the lowest median latency)?",
        zh: "哪个运行最快让读者看到记录（延迟中位数最低）？",
    },
    Question {
        id: "most-bytes",
        en: "Which run writes the most bytes to survive failure?",
        zh: "哪个运行为容错写入的字节最多？",
    },
    Question {
        id: "most-messages",
        en: "Which run sends the most control messages (barriers, acks, batch markers)?",
        zh: "哪个运行发送的控制消息（屏障、确认、批次消息）最多？",
    },
    Question {
        id: "state-wrong", en: "Which run ends with its counts wrong?", zh: "哪个运行最终的计数是错的？"
    },
];

/// The lesson's steps. The predictions are made at [`PREDICT`], revealed from [`REVEAL`] on.
pub const STEPS: usize = 8;
pub const PREDICT: usize = 1;
pub const CRASH: usize = 2;
pub const REVEAL: usize = 3;

pub fn title(l: Lang) -> &'static str {
    l.t("Three ways to survive a crash", "三种从崩溃中恢复的方式")
}

pub fn step_title(step: usize, l: Lang) -> &'static str {
    match step {
        0 => l.t("Cut the stream, and retry", "切分数据流，然后重试"),
        1 => l.t("Predict first", "先预测"),
        2 => l.t("The crash", "崩溃"),
        3 => l.t("Reveal: your predictions against the table", "揭晓：你的预测与成本表对照"),
        4 => l.t("Storm: a cut per record", "Storm：按每条记录切分"),
        5 => l.t("Spark Streaming: a cut per micro-batch", "Spark Streaming：按微批切分"),
        6 => l.t("Flink: a cut with barriers", "Flink：用屏障切分"),
        _ => l.t("The conclusion, in your figures", "结论：用你自己的数字"),
    }
}

/// The fixed text of a step (steps 4 to 7 add the measured figures: [`mechanism_figures`],
/// [`conclusion`]).
pub fn step_text(step: usize, l: Lang) -> &'static str {
    match step {
        0 => l.t(
            "One job, one input, one crash, three runs on one clock. Every stream processor survives a crash the same way: it cuts the stream into pieces it can confirm, and after a failure it retries from the last confirmed cut. What differs is how fine the cut is, and what that costs. The runs here are Flink with checkpoint barriers and a two-phase-commit sink, Storm acking every tuple, and Spark Streaming with micro-batches and a write-ahead log.",
            "一个作业、一份输入、一次崩溃，三个运行共用一个时钟。每个流处理系统从崩溃中恢复的方式都一样：把数据流切成可以确认的片段，失败后从最后一个已确认的切分点重试。不同之处在于切分的粒度，以及它的代价。这里的运行分别是：使用检查点屏障和两阶段提交输出的 Flink、逐条确认元组的 Storm，以及使用微批和预写日志的 Spark Streaming。",
        ),
        1 => l.t(
            "Before anything runs, choose for each question the run you expect. The answers come from the cost table once the runs have ended.",
            "在运行之前，为每个问题选出你预计的运行。各运行结束后，答案由成本表给出。",
        ),
        2 => l.t(
            "Play to the crash. The same action strikes every run at the same tick and place; what it takes down is each mechanism's own.",
            "播放到崩溃时刻。同一个动作在同一拍、同一位置击中每个运行；它让什么停下，取决于各自的机制。",
        ),
        3 => l.t(
            "The runs have gone to their end. Each answer below is read from the cost table under the drawings.",
            "各运行已经结束。下面每个答案都读自图下方的成本表。",
        ),
        4 => l.t(
            "Storm's spout gives every tuple a random root id; the acker keeps the XOR of the ids of its tuple tree's edges, and when it comes to zero the tree is complete and the spout is told. A tuple whose tree fails or times out is replayed by the spout. Nothing else is stored: the bolts' state lives only in the worker, so a crash loses it, and a replayed tuple reaches a plain sink again (at least once).",
            "Storm 的 spout 给每个元组一个随机的根 id；acker 保存其元组树各条边 id 的异或值，当它变为零，说明整棵树已处理完毕，并通知 spout。树失败或超时的元组由 spout 重放。除此之外什么都不保存：bolt 的状态只在 worker 内存中，崩溃即丢失，重放的元组会再次写入普通输出（至少一次）。",
        ),
        5 => l.t(
            "Spark Streaming's receiver stores each record in a block, writes it to the write-ahead log, and reports it to the driver; every batch interval the driver cuts a micro-batch and runs it as a job. A lost executor's tasks run again from the log and the lineage, and the output of a batch commits in one transaction, so nothing counts twice. The price: a record waits for its batch, and the log holds a copy of the whole stream.",
            "Spark Streaming 的接收器把每条记录存入块中、写入预写日志，并报告给 driver；每个批次间隔，driver 切出一个微批并作为一个作业运行。丢失的 executor 上的任务依据日志和血统重新运行，每个批次的输出在一个事务中提交，因此不会重复计数。代价是：记录要等它所在的批次，日志保存了整个数据流的副本。",
        ),
        6 => l.t(
            "Flink's CheckpointCoordinator injects a checkpoint barrier at the sources; it flows with the records, each task snapshots its state when the barrier has arrived on all its inputs, and acknowledges. A restore rewinds every source to the offset in the latest completed checkpoint: it needs a source that can replay (a Kafka partition). Only state is stored, and the barriers cost a few messages per checkpoint, not per record; a two-phase-commit sink shows its rows when the checkpoint completes.",
            "Flink 的 CheckpointCoordinator 在源头注入检查点屏障；屏障随记录流动，每个任务在所有输入都收到屏障后为状态做快照并确认。恢复时，每个源回退到最近一次已完成检查点中的偏移量：这需要可重放的源（如 Kafka 分区）。只保存状态，屏障的消息开销按检查点计而不是按记录计；两阶段提交输出在检查点完成时才让数据可见。",
        ),
        _ => l.t(
            "Every run survived by cutting the stream and retrying from the cut. In your figures:",
            "每个运行都是通过切分数据流、从切分点重试而恢复的。用你的数字来说：",
        ),
    }
}

pub fn question_text(q: &Question, l: Lang) -> &'static str {
    l.t(q.en, q.zh)
}

/// The runs that answer a question (several when they tie; empty for "none of them").
pub fn answer(q: &Question, costs: &[Costs]) -> Vec<usize> {
    let best = |f: &dyn Fn(&Costs) -> Option<u64>, most: bool| -> Vec<usize> {
        let figures: Vec<Option<u64>> = costs.iter().map(f).collect();
        let pick = if most { figures.iter().flatten().max() } else { figures.iter().flatten().min() };
        match pick {
            Some(b) => (0..costs.len()).filter(|i| figures[*i] == Some(*b)).collect(),
            None => vec![],
        }
    };
    match q.id {
        "most-rework" => best(&|c| Some(u64::from(c.reprocessed.records)), true),
        "first-seen" => best(&|c| c.latency.median, false),
        "most-bytes" => best(&|c| Some(c.bytes.written), true),
        "most-messages" => best(&|c| Some(c.messages.total), true),
        _ => (0..costs.len()).filter(|i| costs[*i].verdicts.state != Verdict::ExactlyOnce).collect(),
    }
}

/// Is a prediction right? `predicted == runs` stands for "none of them".
pub fn right(q: &Question, costs: &[Costs], predicted: usize) -> bool {
    let a = answer(q, costs);
    if predicted >= costs.len() {
        a.is_empty()
    } else {
        a.contains(&predicted)
    }
}

/// Checks a saved lesson place against a comparison of `runs` runs.
pub fn check(lesson: &SavedCompareLesson, runs: usize) -> Result<(), String> {
    if lesson.step >= STEPS {
        return Err(format!("the lesson has {STEPS} steps, not {}", lesson.step + 1));
    }
    for (id, run) in &lesson.predictions {
        if !QUESTIONS.iter().any(|q| q.id == id.as_str()) {
            return Err(format!("no question is called {:?}", id.chars().take(30).collect::<String>()));
        }
        if *run > runs {
            return Err(format!("a prediction names run {}, and the comparison has {runs}", run + 1));
        }
    }
    Ok(())
}

fn verdict_word(v: Verdict, l: Lang) -> &'static str {
    match v {
        Verdict::ExactlyOnce => l.t("exactly once", "精确一次"),
        Verdict::Lost => l.t("lost", "丢失"),
        Verdict::Duplicated => l.t("duplicated", "重复"),
        Verdict::Pending => l.t("still on its way", "仍在处理中"),
    }
}

fn latency_words(c: &Costs, l: Lang) -> String {
    match (c.latency.median, c.latency.worst) {
        (Some(m), Some(w)) => say!(l, "median {}, worst {} steps", "中位数 {} 步，最差 {} 步", m, w),
        _ => l.t("no record seen", "没有看到任何记录").into(),
    }
}

/// The family a run's mechanism belongs to, for the lesson's three mechanism steps.
pub fn family(s: Strategy) -> usize {
    match s {
        Strategy::StormAcker => 4,
        Strategy::SparkStreaming => 5,
        _ => 6,
    }
}

/// One run's figures in a sentence, as the mechanism's step tells them.
pub fn mechanism_figures(title: &str, c: &Costs, l: Lang) -> String {
    let out = c.verdicts.output.map_or(l.t("no sink", "没有输出端").into(), |v| verdict_word(v, l).to_string());
    say!(
        l,
        "{}: re-processed {} record(s) after the crash; wrote {} bytes to survive failure (at most {} held); sent {} control messages; latency {}; state {}, output {}.",
        "{}：崩溃后重新处理了 {} 条记录；为容错写入 {} 字节（最多同时保存 {} 字节）；发送了 {} 条控制消息；延迟为{}；状态{}，输出{}。",
        title,
        c.reprocessed.records,
        c.bytes.written,
        c.bytes.peak_held,
        c.messages.total,
        latency_words(c, l),
        verdict_word(c.verdicts.state, l),
        out
    )
}

/// The article's conclusion, in the runs' own figures: one sentence per run, by how fine its cut
/// is, then the thesis.
pub fn conclusion(runs: &[(String, Strategy, Costs)], l: Lang) -> Vec<String> {
    let mut out = Vec::new();
    for (title, s, c) in runs {
        let cut = match s {
            Strategy::StormAcker => l.t("cut per record", "按记录切分"),
            Strategy::SparkStreaming => l.t("cut per micro-batch", "按微批切分"),
            s if s.uses_coordinator() => l.t("cut with checkpoint barriers", "用检查点屏障切分"),
            _ => l.t("cut without coordination", "不经协调地切分"),
        };
        out.push(say!(
            l,
            "{} {}: {} record(s) retried, {} control messages, {} bytes written, a reader saw a record after a median of {} steps, and its state ended {}.",
            "{}{}：重试了 {} 条记录，{} 条控制消息，写入 {} 字节，读者看到一条记录的延迟中位数为 {} 步，最终状态为{}。",
            title,
            cut,
            c.reprocessed.records,
            c.messages.total,
            c.bytes.written,
            c.latency.median.map_or("-".to_string(), |m| m.to_string()),
            verdict_word(c.verdicts.state, l)
        ));
    }
    out.push(
        l.t(
            "The finer the cut, the more it costs per record: Storm pays in messages and keeps no state; Spark Streaming pays in latency and a stored copy of the stream; Flink's barriers store only state and cost messages per checkpoint, not per record, but its restore needs a source that can replay.",
            "切分越细，每条记录的代价越高：Storm 付出的是消息，并且不保存状态；Spark Streaming 付出的是延迟和一份存储的数据流副本；Flink 的屏障只保存状态，消息开销按检查点而不是按记录计，但它的恢复需要可重放的源。",
        )
        .into(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::saved_comparison::three_ways;
    use crate::engine::comparison::Lockstep;

    /// On the article's comparison the answers are the README's reading of its table.
    #[test]
    fn the_answers_on_three_ways_are_the_tables() {
        let l = Lockstep::run(&three_ways()).unwrap();
        let costs: Vec<Costs> = l.lanes.iter().map(|x| x.costs()).collect();
        let (flink, storm, spark) = (0, 1, 2);
        let a = |id: &str| answer(QUESTIONS.iter().find(|q| q.id == id).unwrap(), &costs);
        assert_eq!(a("most-rework"), [spark]);
        assert_eq!(a("first-seen"), [storm]);
        assert_eq!(a("most-bytes"), [spark]);
        assert_eq!(a("most-messages"), [storm]);
        assert_eq!(a("state-wrong"), [storm]);
        assert!(right(&QUESTIONS[4], &costs, storm) && !right(&QUESTIONS[4], &costs, 3));
        assert!(!right(&QUESTIONS[0], &costs, flink));
        let runs: Vec<(String, Strategy, Costs)> =
            l.lanes.iter().map(|x| (x.label.clone(), x.sim.settings.strategy, x.costs())).collect();
        let en = conclusion(&runs, Lang::En);
        assert!(
            en[1].contains("Storm (acks) cut per record: 1 record(s) retried, 54 control messages, 80 bytes written"),
            "{}",
            en[1]
        );
        assert!(en[1].contains("median of 7 steps, and its state ended lost"), "{}", en[1]);
        let zh = conclusion(&runs, Lang::Zh);
        assert!(zh[2].contains("按微批切分"), "{}", zh[2]);
        for s in 0..STEPS {
            assert_ne!(step_text(s, Lang::En), step_text(s, Lang::Zh));
            assert_ne!(step_title(s, Lang::En), step_title(s, Lang::Zh));
        }
    }
}
