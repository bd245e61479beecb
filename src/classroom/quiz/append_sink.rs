//! Question type 5: "How many times does the append sink show b?", for Flink, Storm and Spark
//! Streaming on the same input with the same crash. The side-by-side engine
//! (`engine::comparison::Lockstep`: one job, one input, one crash, the runs on one clock) runs all
//! three; the ledger's count of each record's rows in the external system grades.
//!
//! Flink checkpoints every 3 to 6 ticks (aligned barriers). The PRNG picks the seed, that interval, where the crash strikes (the cluster, the worker running Count, or
//! the master) and when, when the restore comes, which system the question asks about, and the
//! record: one whose rows the three systems do not all show exactly once (a comparison where they
//! all do teaches nothing here and is rejected). The options are 0, 1, 2, 3 times (more if a
//! system wrote it more often); exactly one is right.

use crate::classroom::RunConfig;
use crate::engine::comparison::{ComparisonFile, Configuration, CrashPlace, CrashPlan, Lockstep, RestorePlan};
use crate::engine::core::rng::Rng;
use crate::engine::runs::scenario::JobRef;
use crate::engine::{narrate, Action, Lang, Settings, Strategy};

use super::question::{pick, Choice, Kind, Question, Words};

/// The job: the line with an external system at the end.
pub const JOB: &str = "line-sink";

/// The three systems, in the order of the side-by-side room.
pub const SYSTEMS: [Strategy; 3] = [Strategy::Aligned, Strategy::StormAcker, Strategy::SparkStreaming];

/// The comparison the PRNG draws: the scheduler's seed, the crash and the restore.
pub fn comparison(rng: &mut Rng) -> ComparisonFile {
    let place = pick(rng, &[0u8, 1, 2]);
    let place = match place {
        0 => CrashPlace::Cluster,
        1 => CrashPlace::WorkerRunning("Count".into()),
        _ => CrashPlace::Master,
    };
    // Flink checkpoints periodically, every few ticks, so a restore has a checkpoint to use.
    let interval = 3 + rng.below(4);
    let at = 4 + rng.below(14);
    let restore = at + 1 + rng.below(4);
    ComparisonFile {
        version: crate::engine::comparison::format::FORMAT_VERSION,
        name: String::new(),
        description: String::new(),
        job: JobRef::Builtin(JOB.into()),
        input: None,
        seed: 1 + rng.below(999),
        configurations: SYSTEMS
            .iter()
            .map(|&s| {
                let mut settings = Settings::new(s);
                if s.uses_coordinator() {
                    settings.checkpoint_interval = Some(interval);
                }
                Configuration { name: String::new(), settings }
            })
            .collect(),
        crash: CrashPlan { at, place },
        restore: RestorePlan { at: restore },
    }
}

/// A system's name in the question.
pub fn system_name(s: Strategy, l: Lang) -> &'static str {
    match s {
        Strategy::StormAcker | Strategy::SparkStreaming => s.name(l),
        _ => l.t("Flink (aligned checkpoints)", "Flink（对齐检查点）"),
    }
}

fn times(n: u32, l: Lang) -> String {
    match (l, n) {
        (Lang::En, 1) => "1 time".into(),
        (Lang::En, _) => format!("{n} times"),
        (Lang::Zh, _) => format!("{n} 次"),
    }
}

pub fn generate(seed: u64) -> Option<Question> {
    let mut rng = Rng::new(seed);
    let file = comparison(&mut rng);
    let lock = Lockstep::run(&file).ok()?;
    let ledgers: Vec<_> = lock.lanes.iter().map(|lane| lane.sim.ledger()).collect();
    let labels: Vec<String> = ledgers[0].rows.iter().map(|r| r.label.clone()).collect();
    let count = |lane: usize, label: &str| ledgers[lane].row(label).map_or(0, |r| r.external);
    let telling: Vec<&String> = labels.iter().filter(|l| (0..SYSTEMS.len()).any(|s| count(s, l) != 1)).collect();
    if telling.is_empty() {
        return None;
    }
    // b when it tells something, as the question is usually put; else the PRNG's pick.
    let label = telling
        .iter()
        .find(|l| l.as_str() == "b")
        .copied()
        .unwrap_or_else(|| telling[rng.below(telling.len() as u64) as usize])
        .clone();
    let asked = rng.below(SYSTEMS.len() as u64) as usize;
    let answer = count(asked, &label);
    let most = (0..SYSTEMS.len()).map(|s| count(s, &label)).max().unwrap_or(0).max(3);
    let choices = (0..=most).map(|n| Choice { words: Words::of(|l| times(n, l)), right: n == answer }).collect();
    let lane = &lock.lanes[asked];
    let g = &lane.sim.graph;
    let strategy = SYSTEMS[asked];
    let actions: Vec<Action> = lane.log.iter().map(|s| s.action).collect();
    let settings = file.configurations[asked].settings.clone();
    let run = RunConfig { job: JOB.into(), settings, seed: file.seed, records: None };
    let (crash, restore) = (file.crash.at, file.restore.at);
    let place = file.crash.place.clone();
    let setup = vec![
        Words::of(|l| {
            match l {
            Lang::En => format!(
                "The input a to h, read once by each of Flink, Storm and Spark Streaming; every run's scheduler is seeded with {}, on one clock.",
                file.seed
            ),
            Lang::Zh => format!("输入 a 到 h，由 Flink、Storm 和 Spark Streaming 各读一遍；每个运行的调度器都以 {} 为种子，共用一个时钟。", file.seed),
        }
        }),
        Words::of(|l| match l {
            Lang::En => format!("At tick {crash}, {}.", crate::classroom::crash_words(&place, &run.settings, g, l)),
            Lang::Zh => {
                format!("第 {crash} 个时钟周期：{}。", crate::classroom::crash_words(&place, &run.settings, g, l))
            }
        }),
        Words::of(|l| match l {
            Lang::En => format!("From tick {restore} on, every run that is down restores, and each runs to its end."),
            Lang::Zh => format!("从第 {restore} 个时钟周期起，宕机的运行都恢复，然后各自运行到结束。"),
        }),
    ];
    let prompt = Words::of(|l| {
        match l {
        Lang::En => format!(
            "The job Source → Map → Count → Sink writes to a plain append sink. Under {}, how many times does the sink show {label}?",
            system_name(strategy, l)
        ),
        Lang::Zh => format!("作业 Source → Map → Count → Sink 写入普通的追加型 sink。在 {} 下，sink 中 {label} 出现几次？", system_name(strategy, l)),
    }
    });
    let told = |l: Lang| -> String {
        let around = lane.log.iter().filter(|s| s.tick == crash || s.tick >= restore && s.action == Action::Restore);
        around
            .flat_map(|s| s.events.iter())
            .map(|e| narrate(e, g, l))
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let explanation = Words::of(|l| {
        let all: Vec<String> = (0..SYSTEMS.len())
            .map(|s| format!("{} {}", system_name(SYSTEMS[s], l), times(count(s, &label), l)))
            .collect();
        let why = l.t(
            "A plain append sink writes each row as it comes, so whatever a system processes again after its restore is written again: Flink's exactly once covers operator state, and its output is exactly once only with a two-phase-commit or idempotent sink; Storm's acker replays every tuple whose tree failed or timed out; Spark Streaming runs the batches after its metadata checkpoint again, output included, and without a write-ahead log the blocks received before a driver failure are gone.",
            "普通追加型 sink 来一行写一行，所以系统在恢复后重新处理的东西都会再写一遍：Flink 的精确一次指的是算子状态，只有两阶段提交或幂等的 sink 才让输出也精确一次；Storm 的 acker 会重放每个树失败或超时的元组；Spark Streaming 会把元数据检查点之后的批次连同输出再运行一遍，而没有预写日志时，driver 故障前收到的块就没了。",
        );
        match l {
            Lang::En => format!("{} The sink shows {label}: {}. {why}", told(l), all.join(", ")),
            Lang::Zh => format!("{} sink 中 {label} 出现的次数：{}。{why}", told(l), all.join("，")),
        }
    });
    Some(Question {
        kind: Kind::AppendSink,
        seed,
        prompt,
        setup,
        choices,
        several: false,
        explanation,
        cuts: vec![],
        run,
        actions,
        restore: None,
    })
}
