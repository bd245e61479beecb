//! The barrier-handler lab's verdict: a composed handler
//! ([`crate::engine::mechanisms::handler_lab`]) is classified by exploring every schedule of two
//! small probe jobs under one checkpoint and one crash, as a model checker classifies a protocol
//! by the properties no schedule violates: **exactly once** if no schedule loses or duplicates a
//! record, **at least once** if some duplicate and none lose, **at most once** if some lose and
//! none duplicate, and **none of these** if both happen. The shortest schedule that loses and the
//! shortest that duplicates are the counterexamples that rule out the stronger guarantees.
//!
//! A handler that drops records is explored with every completion: its barriers decide which
//! records are processed at all, so a checkpoint after the last restore matters, which the
//! canonical completion leaves out.
//!
//! The probes: `line` with a, b, c (one input per task: where per-task timers lose and duplicate),
//! `two-inputs` with two records per source (where a task's inputs deliver their barriers at
//! different moments: what alignment, tracking, in-flight records and dropping are about), and
//! `merge-then-count` with a | f, g (a task with two inputs that feeds another: where a barrier
//! forwarded at the first input runs ahead of the slower input's records, which a snapshot taken
//! again at the last barrier counts as sent). Each probe is judged on its own: the shortest
//! schedule that loses and the shortest that duplicates on it, or every schedule holds. The
//! built-in strategies are presets and classify as theory says: aligned exactly once, the barrier
//! tracker at least once, unaligned exactly once, per-task timers (no barriers: the strategy
//! itself) none of these.

use serde::{Deserialize, Serialize};

use super::counterexample::Counterexample;
use super::outcome::Judged;
use super::schedules::{Completion, Explorer, Progress, Report};
use crate::engine::core::error::ScenarioError;
use crate::engine::core::ledger::Verdict;
use crate::engine::core::sim::Sim;
use crate::engine::runs::scenario::{FaultBudget, Scenario};
pub use crate::engine::settings::handler::Guarantee;
use crate::engine::settings::handler::{AfterBarrier, Handler};
use crate::engine::settings::Strategy;

/// What the lab classifies: a composed barrier handler, or per-task timers (which have none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Candidate {
    Handler(Handler),
    Timers,
}

impl Candidate {
    /// The built-in strategies as presets of the lab: aligned, the barrier tracker, unaligned,
    /// per-task timers.
    pub const PRESETS: [(&'static str, Candidate); 4] = [
        ("aligned", Candidate::Handler(Handler::ALIGNED)),
        ("at-least-once", Candidate::Handler(Handler::TRACKER)),
        ("unaligned", Candidate::Handler(Handler::UNALIGNED)),
        ("timers", Candidate::Timers),
    ];
}

/// One probe job explored.
#[derive(Clone, Debug, Serialize)]
pub struct Probe {
    pub name: &'static str,
    /// The run the probe started from (with the candidate in place): its counterexamples
    /// replay on it.
    #[serde(skip)]
    pub initial: Option<Sim>,
    pub report: Report,
    /// The shortest schedule of this probe that loses a record, and the shortest that
    /// duplicates one; neither: every schedule of this probe holds.
    pub loss: Option<Counterexample>,
    pub duplicate: Option<Counterexample>,
}

impl Probe {
    /// Does every schedule of this probe keep every record exactly once?
    pub fn holds(&self) -> bool {
        self.loss.is_none() && self.duplicate.is_none()
    }
}

/// A candidate's classification and the counterexamples behind it.
#[derive(Clone, Debug, Serialize)]
pub struct Classification {
    pub guarantee: Guarantee,
    pub probes: Vec<Probe>,
    /// The shortest schedule that loses a record in state (rules out exactly once and at least
    /// once), with the index of its probe.
    pub loss: Option<(usize, Counterexample)>,
    /// The shortest schedule that duplicates one (rules out exactly once and at most once).
    pub duplicate: Option<(usize, Counterexample)>,
}

/// The probe jobs: (name, job, input). A job is a built-in's name or a job written out.
pub fn probes() -> [(&'static str, &'static str, &'static str); 3] {
    [
        ("line: a, b, c", "line", r#"{"Source": ["a:x", "b:x", "c:x"]}"#),
        ("two-inputs: a, b | f, g", "two-inputs", r#"{"Left": ["a:x", "b:y"], "Right": ["f:y", "g:x"]}"#),
        ("merge-then-count: a | f, g", MERGE_THEN_COUNT, r#"{"Left": ["a:x"], "Right": ["f:y", "g:x"]}"#),
    ]
}

/// The third probe: a task with two inputs (Merge) that feeds another (Count). A handler that
/// forwards the barrier at the first one lets the slower input's records reach Count behind
/// Count's barrier; a snapshot taken again at the last barrier then counts them as sent.
pub const MERGE_THEN_COUNT: &str = r#"{
    "operators": [
        { "name": "Left", "kind": "source" },
        { "name": "Right", "kind": "source" },
        { "name": "Merge", "kind": "map" },
        { "name": "Count", "kind": "count" }
    ],
    "edges": [
        { "from": "Left", "to": "Merge", "partitioning": "forward" },
        { "from": "Right", "to": "Merge", "partitioning": "forward" },
        { "from": "Merge", "to": "Count", "partitioning": "hash" }
    ]
}"#;

/// The probe's scenario: `job` names a built-in, or is a job written out.
fn probe_scenario(job: &str, input: &str, strategy: Strategy) -> Result<Scenario, ScenarioError> {
    let input: serde_json::Value = serde_json::from_str(input).expect("the probes' inputs parse");
    let settings = serde_json::json!({ "strategy": strategy.id() });
    let job: serde_json::Value = serde_json::from_str(job).unwrap_or_else(|_| serde_json::Value::String(job.into()));
    let text = serde_json::json!({ "version": 1, "job": job, "input": input, "settings": settings, "seed": 1 });
    Scenario::from_json(&text.to_string())
}

/// Classifies `candidate` by exploring every schedule of the probes under one checkpoint (or
/// round of timers) and one crash.
pub fn classify(candidate: Candidate) -> Result<Classification, ScenarioError> {
    let mut c = Classifier::new(candidate);
    loop {
        if let Some(done) = c.run(usize::MAX)? {
            return Ok(done);
        }
    }
}

/// A classification that can run in slices, as [`Explorer::run`] does: the probes one after
/// another, each explored a few states at a time.
pub struct Classifier {
    candidate: Candidate,
    out: Classification,
    /// The probe being explored (its index is `out.probes.len()`).
    current: Option<Explorer>,
}

impl Classifier {
    pub fn new(candidate: Candidate) -> Classifier {
        let out = Classification { guarantee: Guarantee::ExactlyOnce, probes: vec![], loss: None, duplicate: None };
        Classifier { candidate, out, current: None }
    }

    /// The probe being explored now (counted from 0) and where its search stands.
    pub fn progress(&self) -> (usize, Option<Progress>) {
        (self.out.probes.len(), self.current.as_ref().map(|e| e.progress()))
    }

    /// Whether the next [`run`](Self::run) is a long step: it starts a probe (builds its job and
    /// its first state) or builds a counterexample ([`Explorer::next_is_long`]).
    pub fn next_is_long(&self) -> bool {
        self.current.as_ref().is_none_or(Explorer::next_is_long)
    }

    /// Expands at most `max_states` more states of the current probe (starting it if need be);
    /// the classification once every probe is explored.
    pub fn run(&mut self, max_states: usize) -> Result<Option<Classification>, ScenarioError> {
        let all = probes();
        let index = self.out.probes.len();
        if index == all.len() {
            return Ok(Some(self.finish()));
        }
        let ex = match self.current.as_mut() {
            Some(ex) => ex,
            None => {
                let (_, job, input) = all[index];
                self.current.insert(probe_explorer(self.candidate, job, input)?)
            }
        };
        let p = ex.run(max_states);
        if let Some(why) = p.failed {
            return Err(ScenarioError::Explore(why));
        }
        if !p.done {
            return Ok(None);
        }
        let ex = self.current.take().expect("explored");
        self.add_probe(all[index].0, ex);
        if self.out.probes.len() == all.len() {
            return Ok(Some(self.finish()));
        }
        Ok(None)
    }

    fn add_probe(&mut self, name: &'static str, ex: Explorer) {
        let out = &mut self.out;
        let report = ex.report().expect("done").clone();
        let index = out.probes.len();
        let (mut loss, mut duplicate): (Option<Counterexample>, Option<Counterexample>) = (None, None);
        // The guarantees are about loss and duplication; completeness and order are reported
        // alongside, not classified.
        for c in report.counterexamples.iter().filter(|c| matches!(c.bad.judged, Judged::State | Judged::Output)) {
            let slot = match c.bad.verdict {
                Verdict::Lost => &mut loss,
                Verdict::Duplicated => &mut duplicate,
                _ => continue,
            };
            if slot.as_ref().is_none_or(|s| c.schedule.len() < s.schedule.len()) {
                *slot = Some(c.clone());
            }
        }
        for (mine, all) in [(&loss, &mut out.loss), (&duplicate, &mut out.duplicate)] {
            if let Some(c) = mine {
                if all.as_ref().is_none_or(|(_, s)| c.schedule.len() < s.schedule.len()) {
                    *all = Some((index, c.clone()));
                }
            }
        }
        out.probes.push(Probe { name, initial: Some(ex.initial().clone()), report, loss, duplicate });
    }

    fn finish(&mut self) -> Classification {
        self.out.guarantee = match (self.out.loss.is_some(), self.out.duplicate.is_some()) {
            (false, false) => Guarantee::ExactlyOnce,
            (false, true) => Guarantee::AtLeastOnce,
            (true, false) => Guarantee::AtMostOnce,
            (true, true) => Guarantee::NoneOfThese,
        };
        self.out.clone()
    }
}

/// The search of one probe with `candidate` in place.
fn probe_explorer(candidate: Candidate, job: &str, input: &str) -> Result<Explorer, ScenarioError> {
    let strategy = match candidate {
        Candidate::Handler(_) => Strategy::Aligned,
        Candidate::Timers => Strategy::Timers,
    };
    let sc = probe_scenario(job, input, strategy)?;
    let sim = match candidate {
        Candidate::Handler(h) => sc.sim()?.with_handler(h)?,
        Candidate::Timers => sc.sim()?,
    };
    // A handler that drops records decides, with its barriers, what is processed at all: the
    // canonical completion's argument does not hold for it (see `super`), every order counts.
    let completion = match candidate {
        Candidate::Handler(h) if h.after == AfterBarrier::Drop => Completion::Every,
        _ => Completion::Canonical,
    };
    Explorer::with_completion(sim, FaultBudget::default(), completion)
}
