//! The comparison file: one job, one input, one seed, up to three configurations, one crash and
//! the restore, as JSON (see the README's "Comparing mechanisms"). It is read as a scenario file
//! is (`crate::engine::runs::scenario`): size and version first, unknown fields refused by name, then the
//! job, the input and every configuration's settings checked against the job.
//!
//! Two or three scenario files can stand for a comparison too ([`ComparisonFile::from_scenarios`]):
//! they must share their job, input and seed, and each script says where the crash and the restore
//! fall (`{"auto": 9}, {"crash-task": "Count"}, "wait", "restore", "run-to-end"`); the lockstep
//! draws every other step itself.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::engine::core::action::Action;
use crate::engine::core::dataflow::job_graph::{InputSpec, JobGraph};
use crate::engine::core::error::ScenarioError;
use crate::engine::runs::scenario::{preamble, JobRef, Preamble, Scenario};
use crate::engine::runs::script::ScriptAction;
use crate::engine::settings::Settings;

/// The lockstep stops with an error past this many ticks (a comparison that never settles), so a
/// file may place its crash and restore only before it.
pub const MAX_TICKS: u64 = 2_000_000;

pub const FORMAT_VERSION: u32 = 1;
/// A comparison runs one to this many configurations side by side.
pub const MAX_CONFIGURATIONS: usize = 3;

/// Where the crash strikes, in words that mean something under every mechanism. Each maps to one
/// action, the same under every strategy; what the action does is the mechanism's (see
/// [`CrashPlace::action`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CrashPlace {
    /// Every machine of the job: `crash` (Flink: every TaskManager; Storm: the worker; Spark
    /// Streaming: the driver, and every executor with it).
    Cluster,
    /// The worker running this task (a task name, `"Count"` or `"Count[1]"`): `crash-task`.
    /// Flink: the task fails and its pipelined region restarts. Storm: the one worker runs every
    /// task, so the whole worker restarts. Spark Streaming: the executor running the task
    /// (`index % 2`) dies with its blocks and is replaced at once.
    WorkerRunning(String),
    /// The master: `crash-job-manager` (Flink: the JobManager; Storm: Nimbus, and the workers go on;
    /// Spark Streaming: the driver, and every executor with it).
    Master,
}

impl CrashPlace {
    /// The crash action for this place: the same action under every strategy.
    pub fn action(&self, graph: &JobGraph) -> Result<Action, String> {
        Ok(match self {
            CrashPlace::Cluster => Action::Crash,
            CrashPlace::Master => Action::CrashJobManager,
            CrashPlace::WorkerRunning(name) => Action::CrashTask {
                task: graph.task_by_name(name).ok_or_else(|| {
                    format!(
                        "the crash's place names no task of the job: {name:?}; the tasks are {}",
                        graph.tasks.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
                    )
                })?,
            },
        })
    }

    /// The place a crash action stands for (the reading of a scenario file's script).
    pub fn of_script(line: &ScriptAction) -> Option<CrashPlace> {
        match line {
            ScriptAction::Crash => Some(CrashPlace::Cluster),
            ScriptAction::CrashJobManager => Some(CrashPlace::Master),
            ScriptAction::CrashTask(name) => Some(CrashPlace::WorkerRunning(name.clone())),
            _ => None,
        }
    }

    /// "the cluster", "the worker running Count", "the master".
    pub fn words(&self) -> String {
        match self {
            CrashPlace::Cluster => "the cluster".into(),
            CrashPlace::WorkerRunning(name) => format!("the worker running {name}"),
            CrashPlace::Master => "the master".into(),
        }
    }
}

/// One run of the comparison: a name for its column and a strategy with its settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Configuration {
    /// The column's title; without one, the strategy's family and name ("Flink aligned").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default)]
    pub settings: Settings,
}

impl Configuration {
    /// The column's title.
    pub fn label(&self) -> String {
        if !self.name.is_empty() {
            return self.name.clone();
        }
        match self.settings.strategy.row().system {
            "Flink" => format!("Flink {}", self.settings.strategy.id()),
            system => system.into(),
        }
    }
}

/// The crash: at which tick (counting from 0), and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrashPlan {
    pub at: u64,
    pub place: CrashPlace,
}

/// The restore: the tick from which every run that is down restores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RestorePlan {
    pub at: u64,
}

/// A comparison, as its file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComparisonFile {
    #[serde(default = "version")]
    pub version: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub job: JobRef,
    /// Required for a custom job; a built-in job has a default input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<InputSpec>,
    /// Every run's scheduler draws from a PRNG seeded with this.
    #[serde(default)]
    pub seed: u64,
    pub configurations: Vec<Configuration>,
    pub crash: CrashPlan,
    pub restore: RestorePlan,
}

fn version() -> u32 {
    FORMAT_VERSION
}

/// Why a comparison can't be read or run. Each names its problem in one sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ComparisonError {
    /// Not JSON, or not this format's shape.
    Json(String),
    Version {
        found: u32,
        reads: u32,
    },
    /// The job or the input is invalid.
    Job(ScenarioError),
    /// A configuration's settings don't fit the job (`index` counts from 0).
    Configuration {
        index: usize,
        label: String,
        error: ScenarioError,
    },
    /// The comparison as a whole makes no sense (no configuration, a restore before the crash, a
    /// place naming no task).
    Invalid(String),
    /// Scenario files that can't stand for one comparison (another job, input or seed, a script
    /// the lockstep can't follow).
    Mismatch(String),
    /// At the crash tick a run could not crash.
    Lockstep {
        run: String,
        tick: u64,
        message: String,
    },
}

impl fmt::Display for ComparisonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ComparisonError::Json(m) => write!(f, "the comparison is not valid JSON for this format: {m}"),
            ComparisonError::Version { found, reads } => {
                write!(f, "the comparison has format version {found}; this build reads version {reads}")
            }
            ComparisonError::Job(e) => write!(f, "{e}"),
            ComparisonError::Configuration { index, label, error } => {
                write!(f, "configuration {} ({label}): {error}", index + 1)
            }
            ComparisonError::Invalid(m) | ComparisonError::Mismatch(m) => write!(f, "{m}"),
            ComparisonError::Lockstep { run, tick, message } => {
                write!(f, "at tick {tick}, {run} cannot crash: {message}")
            }
        }
    }
}

impl std::error::Error for ComparisonError {}

/// Does this JSON text hold a comparison (rather than a scenario)? A comparison has
/// `configurations`.
pub fn is_comparison(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.get("configurations").is_some())
}

impl ComparisonFile {
    /// Parses comparison JSON, size and version first, then checks it against its job.
    pub fn from_json(text: &str) -> Result<ComparisonFile, ComparisonError> {
        let value = preamble(text, FORMAT_VERSION).map_err(|e| match e {
            Preamble::Json(m) => ComparisonError::Json(m),
            Preamble::Version(found) => ComparisonError::Version { found, reads: FORMAT_VERSION },
        })?;
        let file: ComparisonFile = serde_json::from_value(value).map_err(|e| ComparisonError::Json(e.to_string()))?;
        file.check()?;
        Ok(file)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a comparison always serializes")
    }

    /// The job graph every run shares.
    pub fn graph(&self) -> Result<JobGraph, ComparisonError> {
        let mut sc = Scenario::builtin("", Settings::default(), self.seed);
        sc.job = self.job.clone();
        sc.input = self.input.clone();
        sc.graph().map_err(ComparisonError::Job)
    }

    /// Checks what the format alone can't: the number of configurations, each one's settings
    /// against the job, the place, and the restore after the crash.
    pub fn check(&self) -> Result<JobGraph, ComparisonError> {
        let n = self.configurations.len();
        if n == 0 || n > MAX_CONFIGURATIONS {
            return Err(ComparisonError::Invalid(format!(
                "a comparison runs 1 to {MAX_CONFIGURATIONS} configurations side by side; this one has {n}"
            )));
        }
        let graph = self.graph()?;
        for (index, c) in self.configurations.iter().enumerate() {
            c.settings.validate(&graph).map_err(|error| ComparisonError::Configuration {
                index,
                label: c.label(),
                error,
            })?;
        }
        self.crash.place.action(&graph).map_err(ComparisonError::Invalid)?;
        if self.crash.at >= MAX_TICKS {
            return Err(ComparisonError::Invalid(format!(
                "the crash at tick {} is past the lockstep's {MAX_TICKS} ticks",
                self.crash.at
            )));
        }
        if self.restore.at <= self.crash.at {
            return Err(ComparisonError::Invalid(format!(
                "the restore (tick {}) must come after the crash (tick {})",
                self.restore.at, self.crash.at
            )));
        }
        if self.restore.at >= MAX_TICKS {
            return Err(ComparisonError::Invalid(format!(
                "the restore at tick {} is past the lockstep's {MAX_TICKS} ticks",
                self.restore.at
            )));
        }
        Ok(graph)
    }

    /// One to three scenario files (`(name, scenario)`, the name for messages) as one comparison:
    /// each file's settings a configuration (its `name` the column's title), their one job, input
    /// and seed, and the crash and restore their scripts agree on. A script may hold only `auto N`
    /// (N ticks), `wait` (one), one crash (`crash`, `crash-task`, `crash-job-manager`), `restore`
    /// and `run-to-end` (which ends it); the lockstep draws every other step itself. Every script
    /// crashes at the same tick and place; the first `restore` after the crash is the restore
    /// tick, the same in every script that has one. A script may leave it out (waiting instead)
    /// when its run does not go down, so that it still plays on its own: Spark Streaming's
    /// executor is replaced at once, and a plain run refuses a restore then.
    pub fn from_scenarios(files: &[(String, Scenario)]) -> Result<ComparisonFile, ComparisonError> {
        let Some((first_name, first)) = files.first() else {
            return Err(ComparisonError::Invalid("a comparison needs at least one configuration".into()));
        };
        if files.len() > MAX_CONFIGURATIONS {
            return Err(ComparisonError::Invalid(format!(
                "a comparison runs 1 to {MAX_CONFIGURATIONS} configurations side by side; {} files were given",
                files.len()
            )));
        }
        let graph = first.graph().map_err(|e| ComparisonError::Mismatch(format!("{first_name}: {e}")))?;
        let mut crash: Option<(&str, CrashPlan)> = None;
        let mut restore: Option<(&str, RestorePlan)> = None;
        let mut configurations = Vec::new();
        for (name, sc) in files {
            let g = sc.graph().map_err(|e| ComparisonError::Mismatch(format!("{name}: {e}")))?;
            if g.spec != graph.spec {
                return Err(ComparisonError::Mismatch(format!(
                    "{name} runs another job than {first_name}: a comparison runs one job"
                )));
            }
            if let Some(why) = input_difference(&graph, &g) {
                return Err(ComparisonError::Mismatch(format!(
                    "{name} has another input than {first_name} ({why}): a comparison runs one input"
                )));
            }
            if sc.seed != first.seed {
                return Err(ComparisonError::Mismatch(format!(
                    "{name} has seed {} and {first_name} seed {}: a comparison draws every run's steps from one seed",
                    sc.seed, first.seed
                )));
            }
            let (c, r) = script_plan(name, sc)?;
            match &crash {
                Some((other, plan)) if *plan != c => {
                    return Err(ComparisonError::Mismatch(format!(
                        "{name} crashes {} at tick {} and {other} {} at tick {}: every run crashes at the same tick, in the same place",
                        c.place.words(),
                        c.at,
                        plan.place.words(),
                        plan.at
                    )))
                }
                Some(_) => {}
                None => crash = Some((name, c)),
            }
            match (&restore, r) {
                (Some((other, plan)), Some(r)) if *plan != r => {
                    return Err(ComparisonError::Mismatch(format!(
                        "{name} restores at tick {} and {other} at tick {}: every run restores at the same tick",
                        r.at, plan.at
                    )))
                }
                (None, Some(r)) => restore = Some((name, r)),
                _ => {}
            }
            configurations.push(Configuration { name: sc.name.clone(), settings: sc.settings.clone() });
        }
        let crash = crash.expect("every file has a crash").1;
        let Some((_, restore)) = restore else {
            return Err(ComparisonError::Mismatch(format!(
                "no script restores after the crash; in a comparison the scripts say when the crash and the restore fall, as in {EXAMPLE_SCRIPT}"
            )));
        };
        let file = ComparisonFile {
            version: FORMAT_VERSION,
            name: String::new(),
            description: String::new(),
            job: first.job.clone(),
            input: first.input.clone(),
            seed: first.seed,
            configurations,
            crash,
            restore,
        };
        file.check()?;
        Ok(file)
    }
}

/// Where two inputs differ, if they do: the first record that is not the same.
fn input_difference(a: &JobGraph, b: &JobGraph) -> Option<String> {
    let show = |g: &JobGraph, i: usize| {
        g.records.get(i).map_or("none".to_string(), |r| {
            format!("{}:{}={}@{} in {}", r.label, g.key_name(r.key), r.value, r.at, g.task(r.source).name)
        })
    };
    let n = a.records.len().max(b.records.len());
    (0..n)
        .find(|&i| show(a, i) != show(b, i))
        .map(|i| format!("record #{}: {} against {}", i + 1, show(b, i), show(a, i)))
}

/// A script that says where the crash and the restore fall, for the messages.
const EXAMPLE_SCRIPT: &str = r#"[{"auto": 9}, {"crash-task": "Count"}, "wait", "restore", "run-to-end"]"#;

/// The crash and (if the script has one) the restore a scenario's script says, in lockstep ticks.
fn script_plan(name: &str, sc: &Scenario) -> Result<(CrashPlan, Option<RestorePlan>), ComparisonError> {
    let mut tick: u64 = 0;
    let mut crash: Option<CrashPlan> = None;
    let mut restore: Option<RestorePlan> = None;
    for (i, line) in sc.actions.iter().enumerate() {
        if let Some(place) = CrashPlace::of_script(line) {
            if crash.is_some() {
                return Err(ComparisonError::Mismatch(format!(
                    "{name}: action #{} is a second crash; a comparison has one crash",
                    i + 1
                )));
            }
            crash = Some(CrashPlan { at: tick, place });
            tick += 1;
            continue;
        }
        match line {
            ScriptAction::Auto(n) => tick = tick.saturating_add(u64::from(*n)),
            ScriptAction::Wait => tick += 1,
            ScriptAction::Restore => {
                if crash.is_some() && restore.is_none() {
                    restore = Some(RestorePlan { at: tick });
                }
                tick += 1;
            }
            ScriptAction::RunToEnd => break,
            other => {
                return Err(ComparisonError::Mismatch(format!(
                    "{name}: action #{} ({}) is not for a comparison: the lockstep draws every step itself, so a script holds only auto, wait, one crash, restore and run-to-end",
                    i + 1,
                    serde_json::to_string(other).unwrap_or_default()
                )))
            }
        }
    }
    match crash {
        Some(c) => Ok((c, restore)),
        None => Err(ComparisonError::Mismatch(format!(
            "{name}: its script has no crash; in a comparison each script says when the crash and the restore fall, as in {EXAMPLE_SCRIPT}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_spelled_as_in_a_script() {
        let places: Vec<CrashPlace> =
            serde_json::from_str(r#"["cluster", "master", {"worker-running": "Count"}]"#).unwrap();
        assert_eq!(places, [CrashPlace::Cluster, CrashPlace::Master, CrashPlace::WorkerRunning("Count".into())]);
        let lines: Vec<ScriptAction> =
            serde_json::from_str(r#"["crash", "crash-job-manager", {"crash-task": "Count"}]"#).unwrap();
        assert_eq!(lines.iter().map(|l| CrashPlace::of_script(l).unwrap()).collect::<Vec<_>>(), places);
    }

    /// A script's ticks: `auto N` counts N, every other line one; `run-to-end` ends it.
    #[test]
    fn a_script_says_where_the_crash_and_the_restore_fall() {
        let mut sc = Scenario::builtin("line-sink", Settings::default(), 1);
        sc.actions = serde_json::from_str(
            r#"[{"auto": 9}, "wait", {"crash-task": "Count"}, "wait", "restore", "restore", "run-to-end", "crash"]"#,
        )
        .unwrap();
        let (crash, restore) = script_plan("a.json", &sc).unwrap();
        assert_eq!(crash, CrashPlan { at: 10, place: CrashPlace::WorkerRunning("Count".into()) });
        assert_eq!(restore, Some(RestorePlan { at: 12 }));
        sc.actions = serde_json::from_str(r#"["crash", "crash"]"#).unwrap();
        assert!(script_plan("a.json", &sc).unwrap_err().to_string().contains("action #2 is a second crash"));
    }
}
