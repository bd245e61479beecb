//! The studies the explorer offers: presets that each teach one claim about every schedule
//! (the scenario files of `scenarios/explore/` with generated input), and the main screen's own
//! run when it is small enough. A study is a [`RunConfig`], so a counterexample opens on the
//! canvas as a saved run of it, as a link opens one.

use crate::classroom::RunConfig;
use crate::engine::Lang;
use crate::engine::{builtin, Settings, SinkMode, SourceKind, Strategy};

/// A preset study.
pub struct Preset {
    pub id: &'static str,
    pub job: &'static str,
    pub strategy: Strategy,
    pub sink: SinkMode,
    /// Records per source.
    pub records: u32,
    /// The channels' capacity in records (`channel-capacity`), or None for unbounded channels.
    pub capacity: Option<u32>,
    en: &'static str,
    zh: &'static str,
    claim_en: &'static str,
    claim_zh: &'static str,
}

impl Preset {
    pub fn config(&self) -> RunConfig {
        let mut settings = Settings::new(self.strategy);
        settings.sink = self.sink;
        settings.channel_capacity = self.capacity;
        RunConfig { job: self.job.into(), settings, seed: 1, records: Some(self.records) }
    }
    pub fn title(&self, l: Lang) -> &'static str {
        l.t(self.en, self.zh)
    }
    /// What the study asks.
    pub fn claim(&self, l: Lang) -> &'static str {
        l.t(self.claim_en, self.claim_zh)
    }
}

const fn make(
    id: &'static str,
    job: &'static str,
    strategy: Strategy,
    sink: SinkMode,
    records: u32,
    text: [&'static str; 4],
) -> Preset {
    Preset {
        id,
        job,
        strategy,
        sink,
        records,
        capacity: None,
        en: text[0],
        zh: text[1],
        claim_en: text[2],
        claim_zh: text[3],
    }
}

/// A preset whose channels hold at most `capacity` records (backpressure's bounded channels).
const fn bounded(capacity: u32, p: Preset) -> Preset {
    Preset { capacity: Some(capacity), ..p }
}

pub const PRESETS: [Preset; 8] = [
    make("timers-abc", "line", Strategy::Timers, SinkMode::Append, 3, [
        "Per-task timers on the line: a, b, c",
        "line 上的各任务定时快照：a、b、c",
        "Each task saves when its own timer fires. Is there a schedule that loses a record? One that counts it twice?",
        "每个任务在自己的定时器触发时保存。有没有某个调度会丢失记录？会重复计数吗？",
    ]),
    make("aligned-abc", "line", Strategy::Aligned, SinkMode::Append, 3, [
        "Aligned barriers on the line: a, b, c",
        "line 上的对齐屏障：a、b、c",
        "One checkpoint at any moment, one crash at any moment: does every schedule keep every record exactly once?",
        "任意时刻一次检查点、任意时刻一次崩溃：每个调度都让每条记录精确一次吗？",
    ]),
    bounded(1, make("aligned-bound-one", "line", Strategy::Aligned, SinkMode::Append, 3, [
        "Aligned barriers, channels of one buffer: a, b, c",
        "对齐屏障，每个通道只有一个缓冲：a、b、c",
        "A record or a barrier enters a channel only when the one ahead has left, so a barrier never waits behind more than one record and never overtakes it. Fewer schedules than with unbounded channels: still exactly once on every one?",
        "记录或屏障只有在前一个离开后才能进入通道，所以屏障前面最多只有一条记录，也从不超车。调度比无界通道少：每个调度仍然精确一次吗？",
    ])),
    make("tracker-two", "two-inputs", Strategy::AtLeastOnce, SinkMode::Append, 2, [
        "The barrier tracker on two inputs",
        "两个输入上的屏障跟踪器",
        "Without alignment, Count processes records behind a barrier before it snapshots. What does a restore do with them?",
        "不做对齐时，Count 在快照前就处理了屏障之后的记录。恢复时它们会怎样？",
    ]),
    make("unaligned-two", "two-inputs", Strategy::Unaligned, SinkMode::Append, 2, [
        "Unaligned checkpoints on two inputs",
        "两个输入上的非对齐检查点",
        "The first barrier overtakes and the in-flight records go into the snapshot: exactly once without waiting?",
        "第一个屏障超车，在途记录存入快照：不等待也能精确一次吗？",
    ]),
    make("sink-append", "line-sink", Strategy::Aligned, SinkMode::Append, 2, [
        "Aligned barriers with a plain append sink",
        "对齐屏障加普通追加 sink",
        "The state is exactly once on every schedule. Is what a reader sees of the sink?",
        "每个调度下状态都是精确一次。读者看到的 sink 输出也是吗？",
    ]),
    make("line-five", "line", Strategy::Timers, SinkMode::Append, 5, [
        "Per-task timers on the line, five records",
        "line 上的各任务定时快照，五条记录",
        "Two records more than a, b, c: how fast do the states and the schedules grow?",
        "比 a、b、c 多两条记录：状态和调度数增长得多快？",
    ]),
    make("timers-two-big", "two-inputs", Strategy::Timers, SinkMode::Append, 3, [
        "Per-task timers on two inputs, three records each (a bigger search)",
        "两个输入上的各任务定时快照，每个三条记录（更大的搜索）",
        "About 24,000 states: the search runs in slices across frames, and the page stays responsive; Cancel stops it.",
        "约 24,000 个状态：搜索分片跨帧运行，页面保持响应；“取消”可随时停止。",
    ]),
];

pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// The warm-up the room runs once per page when it first opens, unless a search of the
/// learner's comes first: per-task timers on the line with two records, an append sink. Its 653
/// states meet every outcome the explorer reports (lost, duplicated, incomplete, out of order:
/// `barrierscope explore` on the same study), so the code that finds and explains them has run
/// once: a browser compiles a WebAssembly function the first time it is called, and a cold page's
/// first search had steps of up to 23 ms where a warm rerun's longest was under 8 ms.
pub fn warm_up() -> RunConfig {
    let mut settings = Settings::new(Strategy::Timers);
    settings.sink = SinkMode::Append;
    RunConfig { job: "line".into(), settings, seed: 1, records: Some(2) }
}

/// At most this many records in all the sources of the main run, for the explorer to take it.
pub const MAX_MAIN_RECORDS: usize = 5;

/// The main screen's run as a study: its job, strategy, sink and input, with what the explorer
/// changes said; or why it can't be explored, in `l`.
pub fn main_study(config: &RunConfig, l: Lang) -> Result<(RunConfig, Vec<String>), String> {
    let s = &config.settings;
    let named = crate::app::text::strategy_name(l, s.strategy);
    match s.strategy {
        Strategy::StormAcker => {
            return Err(format!("{named}: {}", l.t(
                "the acker draws random tuple ids and times tuples out on the clock; the explorer takes the checkpointing strategies, per-task timers and none",
                "确认器随机生成元组 id，并按时钟让元组超时；探索器只接受检查点类策略、各任务定时快照和不做快照",
            )))
        }
        Strategy::SparkStreaming => {
            return Err(format!("{named}: {}", l.t(
                "its micro-batches are cut on the clock; the explorer takes the checkpointing strategies, per-task timers and none",
                "它的微批按时钟切分；探索器只接受检查点类策略、各任务定时快照和不做快照",
            )))
        }
        Strategy::StructuredStreaming => {
            return Err(format!("{named}: {}", l.t(
                "its driver plans its micro-batches in its own offset and commit logs; the explorer takes the checkpointing strategies, per-task timers and none",
                "它的驱动器在自己的偏移日志和提交日志里安排微批；探索器只接受检查点类策略、各任务定时快照和不做快照",
            )))
        }
        _ => {}
    }
    if s.source == SourceKind::Socket {
        return Err(l
            .t(
                "a socket source's records arrive on the clock; the explorer needs replayable-log sources",
                "socket 源的记录按时钟到达；探索器需要可重放的日志源",
            )
            .into());
    }
    let Some(b) = builtin(&config.job) else {
        return Err(l.t("the main run's job is not a built-in job", "主界面的作业不是内置作业").into());
    };
    let sources: Vec<u16> = b
        .spec
        .operators
        .iter()
        .filter(|o| o.kind == crate::engine::OperatorKind::Source)
        .map(|o| o.parallelism)
        .collect();
    let records = match config.records {
        Some(n) => sources.iter().map(|p| *p as usize * n as usize).sum(),
        None => b
            .input
            .values()
            .map(|v| match v {
                crate::engine::core::dataflow::job_graph::SourceInput::Single(x) => x.len(),
                crate::engine::core::dataflow::job_graph::SourceInput::Partitions(p) => p.iter().map(Vec::len).sum(),
            })
            .sum::<usize>(),
    };
    if records > MAX_MAIN_RECORDS {
        return Err(match l {
            Lang::En => format!(
                "the main run has {records} records; the explorer takes at most {MAX_MAIN_RECORDS} (every schedule of more would take minutes). In Settings, choose generated input with fewer records per partition, or pick a preset."
            ),
            Lang::Zh => format!(
                "主界面的运行有 {records} 条记录；探索器最多接受 {MAX_MAIN_RECORDS} 条（更多记录的所有调度要算好几分钟）。请在“设置”中选择每个分区更少记录的生成输入，或者选择一个预设。"
            ),
        });
    }
    let mut study = config.clone();
    let mut changes = Vec::new();
    if study.settings.checkpoint_interval.take().is_some() {
        changes.push(
            l.t(
                "its periodic checkpoints are left out: the explorer triggers one checkpoint at every possible moment",
                "去掉了周期性检查点：探索器在每个可能的时刻触发一次检查点",
            )
            .to_string(),
        );
    }
    if study.settings.timers.values().any(|t| t.period > 0) {
        study.settings.timers.clear();
        changes.push(
            l.t(
                "its timers' periods are left out: the explorer fires each task's timer once, at every possible moment",
                "去掉了定时器的周期：探索器让每个任务的定时器在每个可能的时刻触发一次",
            )
            .to_string(),
        );
    }
    Ok((study, changes))
}
