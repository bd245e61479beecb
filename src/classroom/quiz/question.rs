//! One quiz question: what it asks, its options (which the engine marked right or wrong), the
//! grading of a learner's ticks, the explanation worded from the engine's narration, and the run
//! it was drawn from, to replay on the canvas.

use crate::classroom::RunConfig;
use crate::engine::{Action, Lang};

/// The question types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// After a crash and restore, which records are lost (or duplicated)?
    LostOrDuplicated,
    /// Which of these cuts is consistent?
    ConsistentCut,
    /// Which checkpoint does the restore use after the JobManager fails?
    WhichCheckpoint,
    /// How many times does the append sink show b, under Flink, Storm or Spark Streaming?
    AppendSink,
    /// Will this savepoint restore into this changed program?
    SavepointRestore,
    /// Which strategy gives exactly once here, in every schedule?
    ExactlyOnceStrategy,
    /// Which settings let checkpoint 1 complete within its timeout under backpressure?
    BackpressureCheckpoint,
}

impl Kind {
    /// In the order: 1 lost or duplicated, 2 consistent cut, 3 which strategy, 4 which
    /// checkpoint, 5 the append sink, 6 the savepoint; then 7, the checkpoint under backpressure
    /// (issue 53).
    pub const ALL: [Kind; 7] = [
        Kind::LostOrDuplicated,
        Kind::ConsistentCut,
        Kind::ExactlyOnceStrategy,
        Kind::WhichCheckpoint,
        Kind::AppendSink,
        Kind::SavepointRestore,
        Kind::BackpressureCheckpoint,
    ];

    /// Its name in element ids and tests.
    pub fn id(self) -> &'static str {
        match self {
            Kind::LostOrDuplicated => "lost-or-duplicated",
            Kind::ConsistentCut => "consistent-cut",
            Kind::WhichCheckpoint => "which-checkpoint",
            Kind::AppendSink => "append-sink",
            Kind::SavepointRestore => "savepoint-restore",
            Kind::ExactlyOnceStrategy => "exactly-once-strategy",
            Kind::BackpressureCheckpoint => "backpressure-checkpoint",
        }
    }

    pub fn title(self, l: Lang) -> &'static str {
        match self {
            Kind::LostOrDuplicated => l.t("Lost or duplicated?", "丢失还是重复？"),
            Kind::ConsistentCut => l.t("Which cut is consistent?", "哪个切面是一致的？"),
            Kind::WhichCheckpoint => l.t("Which checkpoint does the restore use?", "恢复用哪个检查点？"),
            Kind::AppendSink => l.t("How many times does the append sink show it?", "追加型 sink 中它出现几次？"),
            Kind::SavepointRestore => l.t("Will this savepoint restore?", "这个保存点能恢复吗？"),
            Kind::ExactlyOnceStrategy => l.t("Which strategy gives exactly once?", "哪种策略做到精确一次？"),
            Kind::BackpressureCheckpoint => {
                l.t("Will the checkpoint complete under backpressure?", "反压下检查点能完成吗？")
            }
        }
    }
}

/// A text in both languages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    pub en: String,
    pub zh: String,
}

impl Words {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Words {
        Words { en: en.into(), zh: zh.into() }
    }
    /// The engine's wording of something in both languages.
    pub fn of(f: impl Fn(Lang) -> String) -> Words {
        Words { en: f(Lang::En), zh: f(Lang::Zh) }
    }
    pub fn get(&self, l: Lang) -> &str {
        match l {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }
}

/// One option, and whether the engine's run makes it right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub words: Words,
    pub right: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub kind: Kind,
    /// The seed it was generated from: the same seed gives the same question.
    pub seed: u64,
    pub prompt: Words,
    /// The job, its settings and the schedule, one line each.
    pub setup: Vec<Words>,
    pub choices: Vec<Choice>,
    /// Tick every option that applies (else exactly one is right).
    pub several: bool,
    /// Why the right options are right, from the engine's narration of the run.
    pub explanation: Words,
    /// Which cuts are consistent: each option's points, one per task in the job's task order
    /// (empty for the other types).
    pub cuts: Vec<Vec<u64>>,
    /// The run the question was drawn from, to replay on the canvas: its configuration and every
    /// action, in order.
    pub run: RunConfig,
    pub actions: Vec<Action>,
    /// Type 6, when the restore goes through: the restore into the changed program, which "Open
    /// on the canvas" opens (the restored job, at its first step).
    pub restore: Option<crate::classroom::program_change::ProgramChange>,
}

/// How a learner's answer fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// The ticks are exactly the right options.
    pub right: bool,
    /// Right options not ticked.
    pub missed: Vec<usize>,
    /// Options ticked that are wrong.
    pub wrong: Vec<usize>,
}

impl Question {
    /// The indices of the right options.
    pub fn answer(&self) -> Vec<usize> {
        (0..self.choices.len()).filter(|&i| self.choices[i].right).collect()
    }

    /// Not trivial: some option is right and some is wrong (and, for one answer, exactly one is
    /// right).
    pub fn non_trivial(&self) -> bool {
        let right = self.answer().len();
        right > 0 && right < self.choices.len() && (self.several || right == 1)
    }

    /// Grades the ticked options (indices; out-of-range and repeated ones are ignored).
    pub fn grade(&self, ticked: &[usize]) -> Grade {
        let is_ticked = |i: usize| ticked.contains(&i);
        let missed: Vec<usize> = (0..self.choices.len()).filter(|&i| self.choices[i].right && !is_ticked(i)).collect();
        let wrong: Vec<usize> = (0..self.choices.len()).filter(|&i| !self.choices[i].right && is_ticked(i)).collect();
        Grade { right: missed.is_empty() && wrong.is_empty(), missed, wrong }
    }

    /// The question's run as a saved run (paused at its last step), for "Open on the canvas"; a
    /// savepoint question whose restore goes through opens the restored job instead.
    pub fn saved_run(&self, l: Lang) -> crate::classroom::SavedRun {
        if let Some(change) = &self.restore {
            return crate::classroom::SavedRun {
                barrierscope: crate::classroom::SAVED_VERSION,
                job: self.run.job.clone(),
                settings: self.run.settings.clone(),
                seed: self.run.seed,
                records: self.run.records,
                actions: String::new(),
                at: 0,
                lesson: None,
                lang: l,
                restore: Some(change.clone()),
                lesson_file: None,
            };
        }
        crate::classroom::SavedRun {
            barrierscope: crate::classroom::SAVED_VERSION,
            job: self.run.job.clone(),
            settings: self.run.settings.clone(),
            seed: self.run.seed,
            records: self.run.records,
            actions: self.actions.iter().map(Action::code).collect::<Vec<_>>().join(" "),
            at: self.actions.len(),
            lesson: None,
            lang: l,
            restore: None,
            lesson_file: None,
        }
    }
}

/// The schedule as lines: one per run of identical steps ("Map delivers to Count ×3").
pub(crate) fn schedule_lines(g: &crate::engine::JobGraph, actions: &[Action]) -> Vec<Words> {
    let mut out: Vec<(Action, usize)> = Vec::new();
    for &a in actions {
        match out.last_mut() {
            Some((b, n)) if *b == a => *n += 1,
            _ => out.push((a, 1)),
        }
    }
    let mut step = 0;
    out.into_iter()
        .map(|(a, n)| {
            let first = step + 1;
            step += n;
            Words::of(|l| {
                let what = crate::engine::describe(g, &a, l);
                let steps = if n == 1 { format!("{first}") } else { format!("{first}–{step}") };
                match (l, n) {
                    (Lang::En, 1) => format!("Step {steps}: {what}"),
                    (Lang::En, _) => format!("Steps {steps}: {what} (×{n})"),
                    (Lang::Zh, 1) => format!("第 {steps} 步：{what}"),
                    (Lang::Zh, _) => format!("第 {steps} 步：{what}（×{n}）"),
                }
            })
        })
        .collect()
}

/// Picks one of `items` with the quiz's PRNG.
pub(crate) fn pick<T: Copy>(rng: &mut crate::engine::core::rng::Rng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

/// Takes `n` steps, each drawn from the enabled ones by the quiz's PRNG (not the run's `Auto`, so
/// every step of the schedule is a concrete action the question can show), recording them.
pub(crate) fn random_steps(
    sim: &mut crate::engine::Sim,
    rng: &mut crate::engine::core::rng::Rng,
    n: usize,
    actions: &mut Vec<Action>,
    events: &mut Vec<crate::engine::Event>,
) {
    let mut enabled = Vec::new();
    for _ in 0..n {
        sim.enabled_steps(&mut enabled);
        enabled.retain(|a| !matches!(a, Action::Wait));
        if enabled.is_empty() {
            return;
        }
        let a = pick(rng, &enabled);
        sim.apply(a, events).expect("an enabled step");
        actions.push(a);
    }
}

/// Applies `a` if it is enabled, recording it; returns whether it was.
pub(crate) fn act(
    sim: &mut crate::engine::Sim,
    a: Action,
    actions: &mut Vec<Action>,
    events: &mut Vec<crate::engine::Event>,
) -> bool {
    if sim.check(a).is_err() {
        return false;
    }
    sim.apply(a, events).expect("checked");
    actions.push(a);
    true
}
