//! Scenario files: a documented serde JSON format holding everything a run is (topology, input
//! log, strategy and settings, sink mode, seed, action script), so a run can be replayed, shared
//! and tested. Tasks and channels are named as the job graph names them (`"Count"`,
//! `"Source[0]->Count[1]"`). See the README for the format.

use serde::{Deserialize, Serialize};

use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::builtin_jobs::{builtin, BUILTIN_NAMES};
use crate::engine::core::dataflow::job_graph::{InputSpec, JobGraph, JobSpec};
use crate::engine::core::error::ScenarioError;
use crate::engine::core::lang::Lang;
use crate::engine::core::sim::Sim;
use crate::engine::runs::script::{OnRefusal, ScriptAction, ScriptError};
use crate::engine::settings::Settings;
use crate::engine::verdict::unfinished::{EndWatch, Unfinished};
use crate::engine::wording::describe;

pub const FORMAT_VERSION: u32 = 1;
/// At most this many steps in one script, auto steps included.
pub const MAX_SCRIPT_STEPS: usize = 2_000_000;
/// At most this many bytes of scenario text.
pub const MAX_SCENARIO_BYTES: usize = 8 << 20;

/// A built-in job by name, or a custom topology.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum JobRef {
    Builtin(String),
    Custom(JobSpec),
}

impl<'de> Deserialize<'de> for JobRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) => Ok(JobRef::Builtin(s)),
            v @ serde_json::Value::Object(_) => {
                serde_json::from_value(v).map(JobRef::Custom).map_err(|e| D::Error::custom(format!("in \"job\": {e}")))
            }
            _ => Err(D::Error::custom(
                "\"job\" must be a built-in job name or an object with \"operators\" and \"edges\"",
            )),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
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
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub actions: Vec<ScriptAction>,
    /// The schedule explorer's fault budget (`barrierscope explore`); `run` ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explore: Option<FaultBudget>,
    /// A restore into a changed program after the script (`barrierscope run` plays it; the other
    /// commands play the run before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore: Option<crate::engine::program::scenario_restore::ScenarioRestore>,
}

fn version() -> u32 {
    FORMAT_VERSION
}

/// At most this many snapshots or crashes in a fault budget: the schedules of a small job grow
/// fast with each.
pub const MAX_BUDGET_FAULTS: u8 = 3;

/// The faults the schedule explorer may inject (`"explore"` in a scenario file): checkpoints or
/// rounds of timers, and crashes of the cluster, each at any moment; after a crash the restore.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FaultBudget {
    /// Checkpoint triggers (checkpointing strategies), or rounds of timers (strategy `timers`:
    /// each task's own timer fires at most this often). Absent: 1, or 0 under strategy `none`,
    /// which takes no snapshots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshots: Option<u8>,
    /// Crashes of the cluster, each followed by the restore.
    #[serde(default = "one_crash")]
    pub crashes: u8,
}

fn one_crash() -> u8 {
    1
}

impl Default for FaultBudget {
    /// One checkpoint or one round of timers, one crash at any moment, then the restore.
    fn default() -> FaultBudget {
        FaultBudget { snapshots: None, crashes: 1 }
    }
}

/// The outcome of playing a scenario.
pub struct Played {
    pub sim: Sim,
    /// The concrete actions applied, one per step.
    pub actions: Vec<Action>,
    /// Per step, its events.
    pub events: Vec<Vec<Event>>,
    /// The last `end` stopped at the script's step cap with work still to do.
    pub unfinished: Option<Unfinished>,
}

/// Why a file's JSON failed the checks that come before its fields.
pub(crate) enum Preamble {
    /// Not JSON of the format: too big, not JSON, not an object, a version that is no number.
    Json(String),
    /// Another format version.
    Version(u32),
}

/// The checks a scenario or comparison file passes before its fields, so that each failure names
/// its problem: its size, an object at the top, and its format version (`reads`) if it gives one.
pub(crate) fn preamble(text: &str, reads: u32) -> Result<serde_json::Value, Preamble> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(Preamble::Json(format!("it is {} bytes; at most {MAX_SCENARIO_BYTES} are allowed", text.len())));
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| Preamble::Json(e.to_string()))?;
    let obj = value.as_object().ok_or_else(|| Preamble::Json("the top level must be an object".into()))?;
    if let Some(v) = obj.get("version") {
        let v = v.as_u64().ok_or_else(|| Preamble::Json("\"version\" must be a whole number".into()))?;
        if v != reads as u64 {
            return Err(Preamble::Version(v.min(u32::MAX as u64) as u32));
        }
    }
    Ok(value)
}

impl Scenario {
    /// Parses scenario JSON, checking size and version first so each failure names its problem.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let value = preamble(text, FORMAT_VERSION).map_err(|e| match e {
            Preamble::Json(m) => ScenarioError::Json(m),
            Preamble::Version(found) => ScenarioError::Version { found, reads: FORMAT_VERSION },
        })?;
        serde_json::from_value(value).map_err(|e| ScenarioError::Json(e.to_string()))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a scenario always serializes")
    }

    /// A scenario for a built-in job with its default input.
    pub fn builtin(job: &str, settings: Settings, seed: u64) -> Scenario {
        Scenario {
            version: FORMAT_VERSION,
            name: String::new(),
            description: String::new(),
            job: JobRef::Builtin(job.into()),
            input: None,
            settings,
            seed,
            actions: vec![],
            explore: None,
            restore: None,
        }
    }

    pub fn graph(&self) -> Result<JobGraph, ScenarioError> {
        let (spec, default_input) = match &self.job {
            JobRef::Builtin(name) => {
                let b = builtin(name).ok_or_else(|| {
                    ScenarioError::Topology(format!(
                        "no built-in job is called {name:?}; the built-in jobs are {}",
                        BUILTIN_NAMES.join(", ")
                    ))
                })?;
                (b.spec, Some(b.input))
            }
            JobRef::Custom(spec) => (spec.clone(), None),
        };
        let input = match (&self.input, default_input) {
            (Some(i), _) => i.clone(),
            (None, Some(d)) => d,
            (None, None) => {
                return Err(ScenarioError::Input("a custom job needs an \"input\" log for each source".into()))
            }
        };
        JobGraph::build(&spec, &input)
    }

    /// A fresh simulation of this scenario, before any action.
    pub fn sim(&self) -> Result<Sim, ScenarioError> {
        Sim::new(self.graph()?, self.settings.clone(), self.seed)
    }

    /// Plays the whole script through the one script interpreter ([`Sim::play_line`]). An
    /// unknown name or an action that is not enabled stops it with an error naming the script
    /// line.
    ///
    /// ```
    /// use barrierscope::engine::{Scenario, ScriptAction, Settings, Strategy, Verdict};
    ///
    /// let mut sc = Scenario::builtin("line", Settings::new(Strategy::Timers), 1);
    /// sc.actions = vec![
    ///     ScriptAction::Read("Source".into()),
    ///     ScriptAction::AllTimers,
    ///     ScriptAction::Crash,
    ///     ScriptAction::Restore,
    ///     ScriptAction::RunToEnd,
    /// ];
    /// let played = sc.play().unwrap();
    /// // The source saved offset 1 before record a reached Count: a is lost.
    /// assert_eq!(played.sim.ledger().state_labels(Verdict::Lost), vec!["a"]);
    /// ```
    pub fn play(&self) -> Result<Played, ScenarioError> {
        play_script(self.sim()?, &self.actions, 0)
    }

    /// Plays the script, then the scenario's `"restore"`, if it has one: the restore's report,
    /// and the restored job after its own script (a refused restore leaves the run before it).
    pub fn play_restore(
        &self,
    ) -> Result<(Played, Option<crate::engine::program::scenario_restore::RestoreReport>), ScenarioError> {
        let played = self.play()?;
        let Some(r) = &self.restore else { return Ok((played, None)) };
        let (sim, report, _) = r.play(played.sim, self.actions.len())?;
        if report.refused.is_some() {
            return Ok((Played { sim, ..played }, Some(report)));
        }
        Ok((play_script(sim, &r.actions, self.actions.len() + 1)?, Some(report)))
    }
}

/// Plays `script` on `sim` through the one script interpreter; errors name line `first + i`.
fn play_script(mut sim: Sim, script: &[ScriptAction], first: usize) -> Result<Played, ScenarioError> {
    let mut actions = Vec::new();
    let mut events = Vec::new();
    let mut unfinished = None;
    for (i, line) in script.iter().enumerate() {
        let index = first + i;
        let budget = MAX_SCRIPT_STEPS - actions.len();
        let mut watch = EndWatch::default();
        sim.play_line(line, budget, OnRefusal::Stop, &mut |a, ev| {
            actions.push(a);
            events.push(ev.to_vec());
            watch.observe(ev);
        })
        .map_err(|e| ScenarioError::Action {
            index,
            message: match e {
                ScriptError::NoSuchName(m) => m,
                ScriptError::TooLong => format!("the script runs past {MAX_SCRIPT_STEPS} steps"),
                ScriptError::Refused { action, error } => {
                    format!("{}: {error}", describe(&sim.graph, &action, Lang::En))
                }
            },
        })?;
        if matches!(line, ScriptAction::RunToEnd) {
            // The cap is the script's: the steps of the whole run.
            unfinished = watch.unfinished(&sim, budget).map(|u| Unfinished { steps: actions.len(), ..u });
        }
    }
    Ok(Played { sim, actions, events, unfinished })
}

/// A 64-bit FNV-1a fingerprint of a run's events: equal runs give equal fingerprints, natively and
/// in wasm.
pub fn fingerprint<'a>(events: impl IntoIterator<Item = &'a Event>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for e in events {
        for b in serde_json::to_string(e).expect("events serialize").bytes().chain([b'\n']) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}
