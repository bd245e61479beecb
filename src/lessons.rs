//! Guided lessons. Each lesson is a run configuration and a list of steps; a step plays its
//! actions and then shows its narration, in English and Simplified Chinese. A step may ask the
//! learner to predict first (predict-then-reveal): its actions (typically the crash, the restore
//! and the rest of the run) are held back until the learner has marked which records will be
//! lost or duplicated, and the replay scores the guess. The lessons retell the two articles in
//! `shared/seeds` with the vocabulary of `shared/reference/checkpointing-mechanisms.md`.
//!
//! A step's actions use the script words of the scenario tests: `read Source`,
//! `deliver Source->Map`, `timer Count`, `timers`, `checkpoint`, `crash`, `crash-task Count`,
//! `crash-jm`, `restore`, `auto 5` (up to five seeded scheduler steps) and `end` (run to the end,
//! with a final checkpoint where the strategy takes them).

use std::collections::BTreeMap;

use crate::engine::ledger::Verdict;
use crate::engine::{Action, Scenario, ScriptAction, Settings, Sim, SinkMode, Strategy};
use crate::session::RunConfig;

/// A phrase in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    pub en: &'static str,
    pub zh: &'static str,
}

/// What a prediction is judged against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// The operator state (counts).
    State,
    /// What an outside reader sees in the sink's external system.
    Output,
}

#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// Script lines played when the learner reaches this step (held back until the reveal on a
    /// predict step).
    pub play: &'static [&'static str],
    /// The narration shown at this step (on a predict step: the question, before the reveal).
    pub say: Text,
    /// On a predict step: what the learner's guess is judged against.
    pub predict: Option<Judge>,
    /// On a predict step: the narration shown after the reveal.
    pub reveal: Option<Text>,
    /// Start a fresh run of the same job with these settings before playing this step (to compare
    /// strategies or sinks within one lesson).
    pub restart: Option<fn() -> Settings>,
}

#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    pub id: &'static str,
    pub title: Text,
    pub job: &'static str,
    pub settings: fn() -> Settings,
    pub seed: u64,
    pub steps: &'static [Step],
}

impl Lesson {
    pub fn config(&self) -> RunConfig {
        RunConfig { job: self.job.into(), settings: (self.settings)(), seed: self.seed, records: None }
    }
    /// The run configuration in force at step `step` (after any restart before or at it).
    pub fn config_at(&self, step: usize) -> RunConfig {
        let mut c = self.config();
        for s in self.steps.iter().take(step + 1) {
            if let Some(f) = s.restart {
                c.settings = f();
            }
        }
        c
    }
}

/// Parses one script line of a lesson.
pub fn parse_line(s: &str) -> Result<ScriptAction, String> {
    let (verb, arg) = s.split_once(' ').unwrap_or((s, ""));
    let arg = arg.trim().to_string();
    Ok(match verb {
        "read" => ScriptAction::Read(arg),
        "deliver" => ScriptAction::Deliver(arg),
        "timer" => ScriptAction::Timer(arg),
        "timers" => ScriptAction::AllTimers,
        "checkpoint" => ScriptAction::Checkpoint,
        "crash" => ScriptAction::Crash,
        "crash-task" => ScriptAction::CrashTask(arg),
        "crash-jm" => ScriptAction::CrashJobManager,
        "restore" => ScriptAction::Restore,
        "auto" => ScriptAction::Auto(arg.parse().map_err(|_| format!("{s:?}: auto needs a number"))?),
        "end" => ScriptAction::RunToEnd,
        _ => return Err(format!("{s:?}: unknown script word {verb:?}")),
    })
}

/// Applies script lines to `sim`, returning the concrete actions taken.
pub fn play_lines(sim: &mut Sim, lines: &[&str]) -> Result<Vec<Action>, String> {
    let mut done = Vec::new();
    let mut out = Vec::new();
    for line in lines {
        match parse_line(line)? {
            ScriptAction::RunToEnd => done.extend(sim.run_to_end(100_000, &mut out)),
            ScriptAction::Auto(n) => {
                for _ in 0..n {
                    if sim.apply(Action::Auto, &mut out).is_err() {
                        break;
                    }
                    done.push(Action::Auto);
                }
            }
            other => {
                for a in Scenario::resolve(sim, &other)? {
                    sim.apply(a, &mut out).map_err(|e| format!("{line:?}: {e}"))?;
                    done.push(a);
                }
            }
        }
        out.clear();
    }
    Ok(done)
}

/// Where a learner stands in a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub lesson: usize,
    pub step: usize,
    /// On a predict step: has the learner revealed?
    pub revealed: bool,
    /// The learner's marks by record label (unmarked means exactly once).
    pub predictions: BTreeMap<String, Verdict>,
}

impl Progress {
    pub fn new(lesson: usize) -> Progress {
        Progress { lesson, step: 0, revealed: false, predictions: BTreeMap::new() }
    }
    pub fn lesson(&self) -> &'static Lesson {
        &LESSONS[self.lesson]
    }
    pub fn current(&self) -> &'static Step {
        &self.lesson().steps[self.step]
    }
    /// Is the current step a prediction the learner has not revealed yet?
    pub fn awaiting_reveal(&self) -> bool {
        self.current().predict.is_some() && !self.revealed
    }
}

/// The run at `progress`: its configuration and the lesson's actions since the last restart
/// (a predict step's own actions only once revealed).
pub fn actions_for(progress: &Progress) -> Result<(RunConfig, Sim, Vec<Action>), String> {
    let lesson = progress.lesson();
    let config = lesson.config_at(progress.step);
    let fresh = |c: &RunConfig| c.scenario().sim().map_err(|e| format!("lesson {}: {e}", lesson.id));
    let mut start = fresh(&lesson.config())?;
    let mut sim = start.clone();
    let mut actions = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate().take(progress.step + 1) {
        if let Some(f) = step.restart {
            let mut c = lesson.config();
            c.settings = f();
            start = fresh(&c)?;
            sim = start.clone();
            actions.clear();
        }
        if i == progress.step && step.predict.is_some() && !progress.revealed {
            break;
        }
        actions.extend(play_lines(&mut sim, step.play).map_err(|e| format!("lesson {} step {}: {e}", lesson.id, i + 1))?);
    }
    Ok((config, start, actions))
}

/// The score of a prediction: per record (label, predicted, actual), and how many were right.
pub fn score(sim: &Sim, judge: Judge, predictions: &BTreeMap<String, Verdict>) -> (Vec<(String, Verdict, Verdict)>, usize) {
    let ledger = sim.ledger();
    let rows: Vec<(String, Verdict, Verdict)> = ledger
        .rows
        .iter()
        .filter_map(|r| {
            let actual = match judge {
                Judge::State => r.state_verdict,
                Judge::Output => r.external_verdict?,
            };
            let guess = predictions.get(&r.label).copied().unwrap_or(Verdict::ExactlyOnce);
            Some((r.label.clone(), guess, actual))
        })
        .collect();
    let right = rows.iter().filter(|(_, g, a)| g == a).count();
    (rows, right)
}

const fn t(en: &'static str, zh: &'static str) -> Text {
    Text { en, zh }
}

const fn step(play: &'static [&'static str], say: Text) -> Step {
    Step { play, say, predict: None, reveal: None, restart: None }
}

const fn predict(play: &'static [&'static str], say: Text, judge: Judge, reveal: Text) -> Step {
    Step { play, say, predict: Some(judge), reveal: Some(reveal), restart: None }
}

/// A step that first starts a fresh run of the lesson's job with other settings.
const fn restart(settings: fn() -> Settings, play: &'static [&'static str], say: Text) -> Step {
    Step { play, say, predict: None, reveal: None, restart: Some(settings) }
}

fn timers() -> Settings {
    Settings::new(Strategy::Timers)
}

// LESSONS-BEGIN
pub static LESSONS: &[Lesson] = &[
    Lesson {
        id: "state",
        title: t("1. What state is", "1. 什么是状态"),
        job: "line",
        settings: timers,
        seed: 1,
        steps: &[
            step(&[], t(
                "Three tasks in a row: Source reads a log by offset, Map passes records on, Count counts per key. Everything a task holds in memory at a moment is its state.",
                "一行三个任务：Source 按偏移量读取日志，Map 转发记录，Count 按键计数。任务在某一时刻内存中的一切，就是它的状态。")),
            step(&["read Source"], t(
                "Source read a and sent it into the network. Its state is just a number: the next offset to read, now 1.",
                "Source 读取了 a 并把它发进网络。它的状态只是一个数：下一个要读的偏移量，现在是 1。")),
            step(&["deliver Source->Map", "deliver Map->Count"], t(
                "a reached Count: count(x) = 1, and Count remembers that a contributed. Map holds no state at all.",
                "a 到达了 Count：count(x) = 1，Count 记得是 a 贡献的。Map 完全没有状态。")),
            step(&["read Source", "read Source", "deliver Source->Map", "deliver Source->Map", "deliver Map->Count", "deliver Map->Count"], t(
                "After b and c: count(x) = 3 from {a, b, c}, and Source's offset is 3. To survive a crash, these values must be saved — and restored together.",
                "b 和 c 之后：count(x) = 3，来自 {a, b, c}；Source 的偏移量是 3。要在崩溃后幸存，这些值必须被保存，并且一起恢复。")),
        ],
    },
];
// LESSONS-END

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays a whole lesson, revealing every prediction; returns the final simulation.
    fn play_all(i: usize) -> Sim {
        let lesson = &LESSONS[i];
        let mut p = Progress::new(i);
        p.step = lesson.steps.len() - 1;
        p.revealed = true;
        let (_, mut sim, actions) = actions_for(&p).unwrap_or_else(|e| panic!("{e}"));
        for a in actions {
            sim.apply(a, &mut Vec::new()).unwrap();
        }
        sim
    }

    #[test]
    fn every_lesson_plays_through_and_has_both_languages() {
        assert!(!LESSONS.is_empty());
        for (i, lesson) in LESSONS.iter().enumerate() {
            for s in lesson.steps {
                assert!(!s.say.en.is_empty() && !s.say.zh.is_empty(), "{}", lesson.id);
                assert_eq!(s.predict.is_some(), s.reveal.is_some(), "{}", lesson.id);
            }
            play_all(i);
        }
    }

    #[test]
    fn lesson_1_counts_abc() {
        let sim = play_all(0);
        let l = sim.ledger();
        assert_eq!(l.row("a").unwrap().state, 1);
        assert_eq!(sim.source_offset(crate::engine::TaskId(0)), 3);
    }

    #[test]
    fn scoring() {
        let _ = SinkMode::Append;
        let mut p = Progress::new(0);
        p.step = LESSONS[0].steps.len() - 1;
        let (_, mut sim, actions) = actions_for(&p).unwrap();
        for a in actions {
            sim.apply(a, &mut Vec::new()).unwrap();
        }
        let mut guess = BTreeMap::new();
        guess.insert("a".to_string(), Verdict::Lost);
        let (rows, right) = score(&sim, Judge::State, &guess);
        assert_eq!(rows.len(), 8);
        // a is exactly once (counted), b, c too; d..h are still on their way.
        assert_eq!(right, 2);
    }
}
