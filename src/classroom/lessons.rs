//! The lesson model. A lesson is a run configuration and a list of steps; a step plays its
//! actions and then shows its narration, in English and Simplified Chinese. A step may ask the
//! learner to predict first (predict-then-reveal): its actions (typically the crash, the restore
//! and the rest of the run) are held back until the learner has marked which records will be
//! lost or duplicated, and the replay scores the guess. The lessons themselves are files
//! (`lessons/*.json`, read by `lesson_file.rs`; the built-in ones are listed in `curriculum.rs`);
//! where a learner stands in one is in `progress.rs`.
//!
//! A step's actions use the script words of the scenario tests: `read Source`,
//! `deliver Source->Map`, `timer Count`, `timers`, `checkpoint`, `crash`, `crash-task Count`,
//! `crash-jm`, `restore`, `notify Sink` (the JobManager's notification that a checkpoint
//! completed reaches the sink), `auto 5` (up to five seeded scheduler steps) and `end` (run to the end,
//! with a final checkpoint where the strategy takes them), `savepoint`, `stop-with-savepoint`,
//! `cancel` and `resume 3`. A trailing `x3` repeats a line three times.
//!
//! One word is the lessons' own, because it replaces the job rather than acting on it:
//! `restore-into 3 insert-filter Count=3 --allowNonRestoredState` is `flink run -s` of savepoint
//! (or retained checkpoint) 3 into the program edited so (`program_edit`: a Filter inserted, an
//! operator's parallelism changed), with or without the option. It is the restore the Program &
//! savepoints room makes (`ProgramChange`, kept by the session so links and files replay it); the
//! lesson's run goes on from the restored job.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::program_change::ProgramChange;
use super::run_config::RunConfig;
use crate::engine::core::ledger::Verdict;
use crate::engine::{Action, OnRefusal, ScriptAction, ScriptError, Settings, Sim, Strategy};

/// A phrase in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    pub en: &'static str,
    pub zh: &'static str,
}

/// What a prediction is judged against (in a lesson file: `"predict": "state"` or `"output"`, or
/// `{"checkpoint": 3}`: whether checkpoint 3 completes or fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Judge {
    /// The operator state (counts).
    State,
    /// What an outside reader sees in the sink's external system.
    Output,
    /// Whether this checkpoint completes (or fails: expires, is declined, is aborted).
    Checkpoint(u64),
}

/// What a step's words say the canvas shows once the step has played. The lessons' tests check
/// every claim against the engine, and check that a step whose words speak of blocking,
/// backpressure, a pending or a completed checkpoint, or a job that is down, makes that claim:
/// a lesson never narrates what the canvas doesn't show. In a lesson file a claim is written as
/// its name in kebab case, with its values: `"down"`, `{"blocked": "Left->Count"}`,
/// `{"cut-broken": {"orphans": 0, "in-transit": 3}}`, `{"key-groups": ["Count", [[0, 63], [64, 127]]]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Shows {
    /// This channel is blocked: its consumer is aligning.
    Blocked(String),
    /// No channel is blocked.
    NothingBlocked,
    /// This checkpoint is in progress.
    Pending(u64),
    /// No checkpoint is in progress.
    NonePending,
    /// This checkpoint has completed.
    Completed(u64),
    /// This checkpoint failed.
    Failed(u64),
    /// This source can't read: one of its output channels is full.
    Backpressured(String),
    /// The job is down, waiting for the restore.
    Down,
    /// Storm: the acker holds this many unfinished tuple trees.
    TreesInAcker(usize),
    /// Storm: this spout has committed its log up to this offset.
    Committed(String, u32),
    /// Storm: this record failed and its spout will emit it again.
    ToReplay(String),
    /// The job is running (its master may be down: Storm's Nimbus).
    Running,
    /// The master is down.
    MasterDown,
    /// This JobManager ("A" or "B") leads, and is up.
    Leader(String),
    /// The newest completed checkpoint in storage, a restore or a resubmission could use (None:
    /// none is left).
    InStorage(Option<u64>),
    /// Spark: this batch has completed (its newest attempt finished).
    BatchDone(u32),
    /// The restore point now (`Sim::latest_cut`) is a consistent cut: no record an orphan or in
    /// transit on any channel.
    CutConsistent,
    /// The restore point now is broken: this many records are orphans and this many in transit.
    #[serde(rename_all = "kebab-case")]
    CutBroken { orphans: usize, in_transit: usize },
    /// The job was stopped (by a stop with savepoint, or cancelled).
    Stopped,
    /// The savepoints kept, by id.
    Savepoints(Vec<u64>),
    /// This `restore-into` line, played now, is refused with this refusal (`Refusal::id`).
    RestoreRefused(String, String),
    /// This operator's subtasks own these key-group ranges (first, last), in subtask order, and
    /// every key's state is at the subtask owning its key group.
    KeyGroups(String, Vec<(u16, u16)>),
}

impl Shows {
    /// Does the run show it? The error says what the run shows instead.
    pub fn check(&self, sim: &Sim) -> Result<(), String> {
        use crate::engine::CheckpointStatus;
        let status = |n: u64| sim.stats.history.iter().find(|r| r.id.0 == n).map(|r| r.status);
        let blocked: Vec<&str> = (0..sim.graph.channels.len())
            .filter(|&c| sim.channels()[c].blocked)
            .map(|c| sim.graph.channels[c].name.as_str())
            .collect();
        let ok = match self {
            Shows::Blocked(ch) => blocked.contains(&ch.as_str()),
            Shows::NothingBlocked => blocked.is_empty(),
            Shows::Pending(n) => sim.pending().iter().any(|p| p.id.0 == *n),
            Shows::NonePending => sim.pending().is_empty(),
            Shows::Completed(n) => status(*n) == Some(CheckpointStatus::Completed),
            Shows::Failed(n) => matches!(status(*n), Some(CheckpointStatus::Failed(_))),
            Shows::Backpressured(task) => sim.graph.task_by_name(task).is_some_and(|t| {
                matches!(sim.check(Action::Read { task: t }), Err(crate::engine::ActionError::Backpressured { .. }))
            }),
            Shows::Down => sim.down().is_some(),
            Shows::TreesInAcker(n) => sim.storm().is_some_and(|s| s.acker.len() == *n),
            Shows::Committed(task, offset) => {
                sim.graph.task_by_name(task).is_some_and(|t| sim.committed_offset(t) == *offset)
            }
            Shows::Running => sim.running(),
            Shows::MasterDown => !sim.jobmanager_up(),
            Shows::Leader(name) => sim.jobmanager_up() && sim.masters().leader.letter() == name,
            Shows::InStorage(id) => sim.storage().completed.last().map(|c| c.id.0) == *id,
            Shows::BatchDone(k) => {
                sim.durable_spark().batches.iter().rev().find(|b| b.batch == *k).is_some_and(|b| b.finished.is_some())
            }
            Shows::CutConsistent => {
                sim.latest_cut().is_some_and(|c| c.orphans().is_empty() && c.in_transit().is_empty())
            }
            Shows::CutBroken { orphans, in_transit } => sim.latest_cut().is_some_and(|c| {
                (c.orphans().len(), c.in_transit().len()) == (*orphans, *in_transit) && orphans + in_transit > 0
            }),
            Shows::Stopped => sim.stopped().is_some(),
            Shows::Savepoints(ids) => sim.savepoints().iter().map(|s| s.checkpoint.id.0).eq(ids.iter().copied()),
            Shows::RestoreRefused(line, id) => matches!(
                RestoreInto::parse(line).map(|r| r.and_then(|r| r.refusal(sim))),
                Some(Ok(Some(r))) if r.id() == id.as_str()
            ),
            Shows::KeyGroups(name, ranges) => key_groups_hold(sim, name, ranges),
            Shows::ToReplay(label) => sim.storm().is_some_and(|s| {
                sim.graph.sources().any(|t| {
                    s.spouts[t.index()]
                        .retry
                        .iter()
                        .any(|o| sim.graph.label(sim.graph.task(t).log[*o as usize]) == label.as_str())
                })
            }),
        };
        if ok {
            return Ok(());
        }
        let pending: Vec<u64> = sim.pending().iter().map(|p| p.id.0).collect();
        let cut = sim.latest_cut().map(|c| (c.orphans().len(), c.in_transit().len()));
        Err(format!(
            "{self:?} does not hold: stopped {:?}, savepoints {:?}, cut (orphans, in transit) {cut:?}, blocked {blocked:?}, pending {pending:?}, history {:?}, down {:?}, trees in the acker {:?}, master up {} (leader {}), in storage {:?}",
            sim.stopped(),
            sim.savepoints().iter().map(|s| s.checkpoint.id.0).collect::<Vec<_>>(),
            sim.stats.history.iter().map(|r| (r.id.0, r.status)).collect::<Vec<_>>(),
            sim.down(),
            sim.storm().map(|s| s.acker.len()),
            sim.jobmanager_up(),
            sim.masters().leader.letter(),
            sim.storage().completed.iter().map(|c| c.id.0).collect::<Vec<_>>()
        ))
    }
}

/// Does `sim`'s operator `name` own `ranges`, one per subtask, with every key's state at the
/// owner of its key group (`KeyGroupRangeAssignment`)?
fn key_groups_hold(sim: &Sim, name: &str, ranges: &[(u16, u16)]) -> bool {
    use crate::engine::core::dataflow::key_groups::{assign_to_key_group, key_group_range};
    let g = &sim.graph;
    let Some(oi) = g.spec.operators.iter().position(|o| o.name == name) else { return false };
    let (max, p) = (g.max_parallelism[oi], g.spec.operators[oi].parallelism);
    if ranges.len() != p as usize
        || (0..p).any(|i| {
            let r = key_group_range(max, p, i);
            (r.start, r.end) != ranges[i as usize]
        })
    {
        return false;
    }
    g.tasks.iter().enumerate().filter(|(_, t)| t.operator.index() == oi).all(|(t, info)| match &sim.tasks()[t].state {
        crate::engine::OpState::Keyed { entries } => entries.iter().all(|(k, _)| {
            let (a, b) = ranges[info.subtask as usize];
            (a..=b).contains(&assign_to_key_group(g.key_name(*k), max))
        }),
        _ => false,
    })
}

/// Whether a step shows the run as a space-time diagram (the `spacetime` room, opened from the
/// lesson bar), and what the learner does there (in a lesson file: `"diagram": "show"` or `"draw"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnDiagram {
    /// The step does not use the diagram.
    #[default]
    No,
    /// The diagram shows the run with its restore point now as a cut (the lesson's words say
    /// whether it is broken or consistent, and a `Shows::Cut…` claim backs them).
    Show,
    /// The learner draws cuts on the diagram, predicting before each check whether it is
    /// consistent, until one is (Chandy and Lamport's consistent cut): the lesson goes on then.
    Draw,
}

/// On a predict step: the answer the lesson's author expects, which `barrierscope lesson check`
/// checks against the engine (`"expect": {"lost": ["a"], "duplicated": ["c"]}`; every other
/// record exactly once).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    #[serde(default)]
    pub lost: Vec<String>,
    #[serde(default)]
    pub duplicated: Vec<String>,
    /// On a checkpoint's prediction: whether it completes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completes: Option<bool>,
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
    /// On a predict step: the answer its author expects, if the file gives it.
    pub expect: Option<&'static Expect>,
    /// Start a fresh run of the same job with these settings before playing this step (to compare
    /// strategies or sinks within one lesson).
    pub restart: Option<&'static Settings>,
    /// With `restart`: the job of the fresh run, if not the lesson's.
    pub job: Option<&'static str>,
    /// What the words claim the canvas shows once the step has played (on a predict step: after
    /// the reveal).
    pub shows: &'static [Shows],
    /// Whether the step shows the space-time diagram, or has the learner draw a cut on it.
    pub diagram: OnDiagram,
}

/// What plays a `restore-into` line: [`RestoreInto::restore`], in a lesson that has one.
pub type Restorer =
    fn(&RestoreInto, &Sim, Option<ProgramChange>, &[Action], &RunConfig) -> Result<(ProgramChange, Sim), String>;

#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    pub id: &'static str,
    pub title: Text,
    pub job: &'static str,
    pub settings: &'static Settings,
    pub seed: u64,
    pub steps: &'static [Step],
    /// A lesson whose steps restore into changed programs (`restore-into`): what does it.
    pub restore_into: Option<Restorer>,
}

impl Lesson {
    pub fn config(&self) -> RunConfig {
        RunConfig { job: self.job.into(), settings: self.settings.clone(), seed: self.seed, records: None }
    }
    /// The run configuration in force at step `step` (after any restart before or at it).
    pub fn config_at(&self, step: usize) -> RunConfig {
        let mut c = self.config();
        for s in self.steps.iter().take(step + 1) {
            if let Some(f) = s.restart {
                c.settings = f.clone();
                c.job = s.job.unwrap_or(self.job).into();
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
        "notify" => ScriptAction::Notify(arg),
        "auto" => ScriptAction::Auto(arg.parse().map_err(|_| format!("{s:?}: auto needs a number"))?),
        "end" => ScriptAction::RunToEnd,
        "wait" => ScriptAction::Wait,
        "savepoint" => ScriptAction::Savepoint,
        "stop-with-savepoint" => ScriptAction::StopWithSavepoint,
        "cancel" => ScriptAction::Cancel,
        "resume" => ScriptAction::Resume(arg.parse().map_err(|_| format!("{s:?}: resume needs a savepoint id"))?),
        _ => match Strategy::step_named(verb) {
            Some(kind) => ScriptAction::Step(kind, arg),
            None => return Err(format!("{s:?}: unknown script word {verb:?}")),
        },
    })
}

/// A lesson's `restore-into` line: the snapshot, the edits of the program, the option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestoreInto {
    pub from: u64,
    pub edits: Vec<String>,
    pub allow_non_restored_state: bool,
}

impl RestoreInto {
    /// The line, if it is a `restore-into` line (and what is wrong with it, if something is).
    pub fn parse(line: &str) -> Option<Result<RestoreInto, String>> {
        let mut words = line.split_whitespace();
        if words.next() != Some("restore-into") {
            return None;
        }
        let Some(from) = words.next().and_then(|w| w.parse().ok()) else {
            return Some(Err(format!("{line:?}: restore-into needs a savepoint id")));
        };
        let mut r = RestoreInto { from, edits: vec![], allow_non_restored_state: false };
        for w in words {
            match w {
                "--allowNonRestoredState" => r.allow_non_restored_state = true,
                _ => r.edits.push(w.to_string()),
            }
        }
        Some(Ok(r))
    }

    /// The program `sim`'s job becomes with these edits.
    pub fn program(&self, sim: &Sim) -> Result<crate::engine::core::dataflow::job_graph::JobSpec, String> {
        let mut spec = sim.graph.spec.clone();
        for w in &self.edits {
            let e = super::program_edit::Edit::parse(&spec, w)?;
            spec = super::program_edit::apply(&spec, &e, &sim.graph.keys);
        }
        Ok(spec)
    }

    /// The restore this line makes of `sim`, the run of `config` after the restore `prior` (if
    /// any) and the actions `done`: the restore as the session keeps it, and the restored job.
    /// Reached only through [`Lesson::restore_into`], so the rescale code stays in the lessons'
    /// part of the page, out of the first screen's.
    pub fn restore(
        &self,
        sim: &Sim,
        prior: Option<ProgramChange>,
        done: &[Action],
        config: &RunConfig,
    ) -> Result<(ProgramChange, Sim), String> {
        let change = ProgramChange {
            prior: prior.map(Box::new),
            before: done.iter().map(Action::code).collect::<Vec<_>>().join(" "),
            from: self.from,
            program: self.program(sim)?,
            allow_non_restored_state: self.allow_non_restored_state,
        };
        let start = change.start(config).map_err(|e| e.to_string())?;
        Ok((change, start))
    }

    /// Would the restore from `sim` (a stopped job) be refused, and how? (None: it would restore.)
    pub fn refusal(&self, sim: &Sim) -> Result<Option<crate::engine::program::rescale::Refusal>, String> {
        let spec = self.program(sim)?;
        Ok(sim.restore_into(crate::engine::CheckpointId(self.from), &spec, self.allow_non_restored_state).err())
    }
}

/// Splits a trailing repeat count: `"deliver Source->Map x4"` is that line four times.
fn repeats(line: &str) -> (&str, usize) {
    match line.rsplit_once(" x") {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => (head, n.parse().unwrap_or(1)),
        _ => (line, 1),
    }
}

/// Applies script lines to `sim` through the engine's script interpreter, returning the concrete
/// actions taken.
pub fn play_lines(sim: &mut Sim, lines: &[&str]) -> Result<Vec<Action>, String> {
    let mut done = Vec::new();
    for line in lines.iter().flat_map(|l| {
        let (line, n) = repeats(l);
        std::iter::repeat_n(line, n)
    }) {
        let parsed = parse_line(line)?;
        sim.play_line(&parsed, LINE_BUDGET, OnRefusal::Stop, &mut |a, _| done.push(a)).map_err(|e| match e {
            ScriptError::NoSuchName(m) => m,
            ScriptError::Refused { error, .. } => format!("{line:?}: {error}"),
            ScriptError::TooLong => format!("{line:?}: more than {LINE_BUDGET} steps"),
        })?;
    }
    Ok(done)
}

/// At most this many steps for one lesson script line.
const LINE_BUDGET: usize = 100_000;

/// The score of a prediction: per record (label, the guess if marked, actual), and how many were
/// right. An unmarked record counts as wrong.
pub fn score(
    sim: &Sim,
    judge: Judge,
    predictions: &BTreeMap<String, Verdict>,
) -> (Vec<(String, Option<Verdict>, Verdict)>, usize) {
    let ledger = sim.ledger();
    let rows: Vec<(String, Option<Verdict>, Verdict)> = ledger
        .rows
        .iter()
        .filter_map(|r| {
            let actual = match judge {
                Judge::State => r.state_verdict,
                Judge::Output => r.external_verdict?,
                Judge::Checkpoint(_) => return None,
            };
            let guess = predictions.get(&r.label).copied();
            Some((r.label.clone(), guess, actual))
        })
        .collect();
    let right = rows.iter().filter(|(_, g, a)| *g == Some(*a)).count();
    (rows, right)
}

/// On a checkpoint's prediction: whether checkpoint `id` completed (Some(true)) or failed
/// (Some(false)); None while it is in progress or was never triggered.
pub fn checkpoint_outcome(sim: &Sim, id: u64) -> Option<bool> {
    use crate::engine::CheckpointStatus;
    sim.stats.history.iter().rev().find(|r| r.id.0 == id).and_then(|r| match r.status {
        CheckpointStatus::Completed => Some(true),
        CheckpointStatus::Failed(_) => Some(false),
        CheckpointStatus::InProgress => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::curriculum::builtins;
    use crate::classroom::progress::{actions_for, Progress};

    #[test]
    fn a_trailing_count_repeats_a_line() {
        assert_eq!(repeats("deliver Source->Map x4"), ("deliver Source->Map", 4));
        assert_eq!(repeats("auto 5"), ("auto 5", 1));
        assert_eq!(repeats("read Source"), ("read Source", 1));
        let mut sim = builtins()[0].config().scenario().sim().unwrap();
        assert_eq!(play_lines(&mut sim, &["read Source x3"]).unwrap().len(), 3);
    }

    #[test]
    fn scoring() {
        let mut p = Progress::new(0);
        p.step = builtins()[0].steps.len() - 1;
        let (_, mut sim, actions) = actions_for(&p).unwrap();
        for a in actions {
            sim.apply(a, &mut Vec::new()).unwrap();
        }
        let mut guess = BTreeMap::new();
        guess.insert("a".to_string(), Verdict::Lost);
        guess.insert("b".to_string(), Verdict::ExactlyOnce);
        let (rows, right) = score(&sim, Judge::State, &guess);
        assert_eq!(rows.len(), 8);
        // a, b, c are exactly once (counted); d..h are still on their way. Only b's mark is
        // right: a's is wrong, and the unmarked c..h never score.
        assert_eq!(right, 1);
        assert_eq!(rows[0], ("a".to_string(), Some(Verdict::Lost), Verdict::ExactlyOnce));
        assert_eq!(rows[2], ("c".to_string(), None, Verdict::ExactlyOnce));
        assert_eq!(score(&sim, Judge::State, &BTreeMap::new()).1, 0, "no marks, no score");
    }

    /// `restore-into`: its snapshot, edits and option; a bad line says what is wrong.
    #[test]
    fn restore_into_lines() {
        assert_eq!(RestoreInto::parse("read Source"), None);
        let r = RestoreInto::parse("restore-into 3 insert-filter Count=3 --allowNonRestoredState").unwrap().unwrap();
        assert_eq!((r.from, r.allow_non_restored_state), (3, true));
        assert_eq!(r.edits, ["insert-filter", "Count=3"]);
        assert!(RestoreInto::parse("restore-into x").unwrap().unwrap_err().contains("needs a savepoint id"));
        let sim =
            crate::classroom::RunConfig { job: "keyed-count".into(), ..Default::default() }.scenario().sim().unwrap();
        let program = |line: &str| RestoreInto::parse(line).unwrap().unwrap().program(&sim);
        let spec = program("restore-into 1 Count=3 insert-filter").unwrap();
        let ops: Vec<(&str, u16)> = spec.operators.iter().map(|o| (o.name.as_str(), o.parallelism)).collect();
        assert_eq!(ops, [("Source", 1), ("Filter", 1), ("Count", 3)]);
        assert!(program("restore-into 1 Nope=2").unwrap_err().contains("no operator \"Nope\""));
        assert!(program("restore-into 1 Count=0").unwrap_err().contains("a parallelism from 1"));
        assert!(program("restore-into 1 filter").unwrap_err().contains("not an edit"));
        // A running job is not restored from: the refusal says so.
        let r = RestoreInto::parse("restore-into 1").unwrap().unwrap().refusal(&sim).unwrap().unwrap();
        assert_eq!(r.id(), "action");
    }
}
