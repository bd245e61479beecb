//! Question type 3: "Which strategy gives exactly once here?" The schedule explorer
//! (`engine::explorer`, explicit-state model checking as TLC and SPIN do it) grades over every
//! schedule: a strategy is right when every schedule of the job, with one snapshot (a checkpoint,
//! or one round of timers) and one crash of the cluster at any moment, ends with every record
//! reflected exactly once in operator state.
//!
//! The PRNG picks the job (the line, two inputs, the diamond), a small generated input (one or
//! two records per source partition, so every schedule of four strategies can be counted on the
//! page at once) and four
//! strategies to offer, among which per-task timers, barriers without alignment and aligned
//! barriers are always: whether barriers without alignment are exactly once depends on the job
//! (a task with two inputs is where alignment matters), and that is the point of the question.
//! No snapshots at all, with a restart that re-reads the whole log, is exactly once in state too
//! (every task starts empty and every record comes again; an append sink would show duplicates).
//! The explorer's shortest counterexample of a wrong option is what "Open on the canvas" replays.

use crate::classroom::RunConfig;
use crate::engine::core::rng::Rng;
use crate::engine::explorer::{Counterexample, Explorer, Judged};
use crate::engine::settings::strategy::strategy_name;
use crate::engine::{FaultBudget, Lang, Settings, Strategy};

use super::question::{pick, Choice, Kind, Question, Words};

pub const JOBS: [&str; 3] = ["line", "two-inputs", "diamond"];

/// States the explorer may expand for one strategy before the instance is rejected.
const MAX_STATES: usize = 200_000;

/// The strategy's name in the options: the catalogue's, and for no snapshots what a restart does.
pub fn strategy_words(s: Strategy, l: Lang) -> &'static str {
    match s {
        Strategy::None => l.t(
            concat!(strategy_name!(None, En), ": every restart re-reads the log from the beginning"),
            concat!(strategy_name!(None, Zh), "：每次重启都从头重读日志"),
        ),
        _ => s.name(l),
    }
}

/// The PRNG's draws: the job, records per source partition and the four strategies, in order.
pub fn draw(rng: &mut Rng) -> (&'static str, u32, Vec<Strategy>) {
    let job = pick(rng, &JOBS);
    let records = 1 + rng.below(2) as u32;
    let fourth = pick(rng, &[Strategy::None, Strategy::Unaligned, Strategy::StopTheWorld]);
    let mut options = vec![Strategy::Timers, Strategy::AtLeastOnce, Strategy::Aligned, fourth];
    for i in (1..options.len()).rev() {
        options.swap(i, rng.below(i as u64 + 1) as usize);
    }
    (job, records, options)
}

/// What the explorer found for one strategy: schedules, how many exactly once, the shortest bad one.
struct Found {
    strategy: Strategy,
    schedules: u128,
    exactly_once: u128,
    shortest: Option<Counterexample>,
    run: RunConfig,
}

pub fn generate(seed: u64) -> Option<Question> {
    let mut rng = Rng::new(seed);
    let (job, records, options) = draw(&mut rng);
    let scheduler = 1 + rng.below(999);
    let mut found = Vec::new();
    for &strategy in &options {
        let run =
            RunConfig { job: job.into(), settings: Settings::new(strategy), seed: scheduler, records: Some(records) };
        let (schedules, exactly_once, shortest) = explored(&run)?;
        found.push(Found { strategy, schedules, exactly_once, shortest, run });
    }
    let choices: Vec<Choice> = found
        .iter()
        .map(|f| Choice {
            words: Words::of(|l| strategy_words(f.strategy, l).to_string()),
            right: f.exactly_once == f.schedules,
        })
        .collect();
    // The run to open: the shortest counterexample of the first wrong option.
    let wrong = found.iter().find(|f| f.shortest.is_some())?;
    let cx = wrong.shortest.as_ref()?;
    let g = ex_graph(&wrong.run)?;
    let explanation = Words::of(|l| {
        let lines: Vec<String> = found
            .iter()
            .map(|f| {
                let name = strategy_words(f.strategy, l);
                let n = f.schedules;
                match (&f.shortest, l) {
                    (None, Lang::En) => format!("{name}: exactly once in all {n} schedules."),
                    (None, Lang::Zh) => format!("{name}：全部 {n} 个调度都精确一次。"),
                    (Some(c), Lang::En) => format!(
                        "{name}: not exactly once in {} of {n} schedules; the shortest ({} steps): {}",
                        f.schedules - f.exactly_once,
                        c.schedule.len(),
                        c.story.text(&g, l)
                    ),
                    (Some(c), Lang::Zh) => format!(
                        "{name}：{n} 个调度中有 {} 个不是精确一次；最短的一个（{} 步）：{}",
                        f.schedules - f.exactly_once,
                        c.schedule.len(),
                        c.story.text(&g, l)
                    ),
                }
            })
            .collect();
        lines.join(" ")
    });
    let setup = vec![Words::of(|l| {
        match l {
        Lang::En => format!(
            "Every schedule of job {job} with {records} record(s) per source partition, one snapshot (a checkpoint, or one round of timers) and one crash of the cluster at any moment, then the restore and the run to its end."
        ),
        Lang::Zh => format!("作业 {job} 的所有调度：每个源分区 {records} 条记录，一次快照（一个检查点，或一轮定时器），任意时刻一次集群崩溃，然后恢复并运行到结束。"),
    }
    })];
    Some(Question {
        kind: Kind::ExactlyOnceStrategy,
        seed,
        prompt: Words::new(
            "Which strategies give exactly once in operator state here, in every schedule? Tick every one.",
            "在这里，哪些策略在每一种调度下都让算子状态精确一次？勾选所有的。",
        ),
        setup,
        choices,
        several: true,
        explanation,
        cuts: vec![],
        run: wrong.run.clone(),
        actions: cx.schedule.clone(),
        restore: None,
    })
}

type Explored = (u128, u128, Option<Counterexample>);

/// What a cache entry is known by: the job, the records per source partition and the strategy.
type Key = (String, Option<u32>, Strategy);

thread_local! {
    /// What the explorer found, by job, records and strategy (None: it could not finish within
    /// its limit): every schedule is explored, so the scheduler's seed plays no part, and a set
    /// asks about the same few jobs again and again.
    static EXPLORED: std::cell::RefCell<Vec<(Key, Option<Explored>)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The exploration under way, when the room draws a set a slice at a time ([`prepare`]).
    static UNDER_WAY: std::cell::RefCell<Option<(Key, Explorer)>> = const { std::cell::RefCell::new(None) };
}

fn key(run: &RunConfig) -> Key {
    (run.job.clone(), run.records, run.settings.strategy)
}

fn cached(key: &Key) -> Option<Option<Explored>> {
    EXPLORED.with(|c| c.borrow().iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()))
}

/// Every schedule of `run`'s job and strategy: how many, how many exactly once in state, and the
/// shortest that is not (None: the explorer could not finish within its limit).
fn explored(run: &RunConfig) -> Option<Explored> {
    loop {
        if let Some(found) = explore_some(run, MAX_STATES) {
            return found;
        }
    }
}

/// Explores `run` for at most `budget` more states (and never past [`MAX_STATES`] in all): what
/// [`explored`] gives once the exploration is over (and cached), or None while work is left. An
/// exploration left part way goes on where it stopped when asked again.
fn explore_some(run: &RunConfig, budget: usize) -> Option<Option<Explored>> {
    let key = key(run);
    if let Some(hit) = cached(&key) {
        return Some(hit);
    }
    let under_way = UNDER_WAY.with(|u| u.borrow_mut().take()).filter(|(k, _)| *k == key).map(|(_, ex)| ex);
    let started = under_way.or_else(|| Explorer::new(run.scenario().sim().ok()?, FaultBudget::default()).ok());
    let Some(mut ex) = started else {
        EXPLORED.with(|c| c.borrow_mut().push((key, None)));
        return Some(None);
    };
    let room = MAX_STATES.saturating_sub(ex.progress().expanded).max(1);
    let p = ex.run(budget.min(room));
    let found = if p.failed.is_some() || (!p.done && p.expanded >= MAX_STATES) {
        Some(None)
    } else if p.done {
        ex.report().map(|r| {
            let shortest = r.counterexamples.iter().find(|c| c.bad.judged == Judged::State).cloned();
            Some((r.schedules, r.state.exactly_once, shortest))
        })
    } else {
        None
    };
    match found {
        Some(v) => {
            EXPLORED.with(|c| c.borrow_mut().push((key, v.clone())));
            Some(v)
        }
        None => {
            UNDER_WAY.with(|u| *u.borrow_mut() = Some((key, ex)));
            None
        }
    }
}

/// Gets the question of `seed` ready a slice at a time: explores, for at most `budget` states,
/// the first of its four strategies not yet explored. True once all four are (then [`generate`]
/// finds them cached and is quick); false while work is left. The quiz room calls it in spare
/// moments, so that exploring the diamond's every schedule (about 8,000 states under per-task
/// timers) never holds the page; [`generate`] alone explores at once.
pub fn prepare(seed: u64, budget: usize) -> bool {
    let mut rng = Rng::new(seed);
    let (job, records, options) = draw(&mut rng);
    for strategy in options {
        let run = RunConfig { job: job.into(), settings: Settings::new(strategy), seed: 1, records: Some(records) };
        if cached(&key(&run)).is_none() {
            explore_some(&run, budget);
            return false;
        }
    }
    true
}

fn ex_graph(run: &RunConfig) -> Option<crate::engine::JobGraph> {
    run.scenario().graph().ok()
}
