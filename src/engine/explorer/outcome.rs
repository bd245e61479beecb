//! Outcomes: how one schedule ends and how many end each way. A finished run is judged as the
//! ledger judges it (`crate::engine::core::ledger`), for operator state, for what a reader sees of the
//! sinks, and on the history that counts ([`Outcome`], a [`Judgement`] per kind of verdict); the
//! bad outcomes a counterexample is sought for are a record lost or duplicated in state or in the
//! output, a record incomplete, a record out of order ([`BadOutcome`]); and the schedules are
//! tallied by how they end ([`Shares`], [`HistoryShares`]). The search ([`super::schedules`]),
//! the counterexamples ([`super::counterexample`]) and their explanations
//! ([`super::explanation`]) all speak of these.

use serde::{Deserialize, Serialize};

use crate::engine::core::ledger::{Tally, Verdict};
use crate::engine::core::sim::Sim;

/// Which verdict: how records are reflected in operator state, or what a reader sees of the
/// sinks' external system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Judged {
    State,
    Output,
    /// Completeness on the history that counts: a record that misses a path of the DAG it takes
    /// in the failure-free run (the second article's "complete").
    Complete,
    /// Order on the history that counts: a record that takes effect at a task (or, at a sink, in
    /// what a reader sees) after a newer record of its source partition.
    Order,
}

impl Judged {
    pub fn id(self) -> &'static str {
        match self {
            Judged::State => "state",
            Judged::Output => "output",
            Judged::Complete => "complete",
            Judged::Order => "order",
        }
    }
}

/// A bad outcome: some record lost, or some record duplicated, in state or in the output; some
/// record incomplete; some record out of order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BadOutcome {
    pub judged: Judged,
    /// [`Verdict::Lost`] or [`Verdict::Duplicated`]. Completeness and order have one bad verdict
    /// each: an incomplete record lost an effect on a path ([`Verdict::Lost`]); an out-of-order
    /// one took effect again, or late, after newer records ([`Verdict::Duplicated`]).
    pub verdict: Verdict,
}

impl BadOutcome {
    pub const ALL: [BadOutcome; 6] = [
        BadOutcome { judged: Judged::State, verdict: Verdict::Lost },
        BadOutcome { judged: Judged::State, verdict: Verdict::Duplicated },
        BadOutcome { judged: Judged::Output, verdict: Verdict::Lost },
        BadOutcome { judged: Judged::Output, verdict: Verdict::Duplicated },
        BadOutcome::INCOMPLETE,
        BadOutcome::OUT_OF_ORDER,
    ];
    pub const INCOMPLETE: BadOutcome = BadOutcome { judged: Judged::Complete, verdict: Verdict::Lost };
    pub const OUT_OF_ORDER: BadOutcome = BadOutcome { judged: Judged::Order, verdict: Verdict::Duplicated };
    pub(crate) fn verdict_in(&self, j: &Judgement) -> bool {
        match self.verdict {
            Verdict::Lost => j.lost,
            Verdict::Duplicated => j.duplicated,
            Verdict::ExactlyOnce => j.exactly_once(),
            Verdict::Pending => j.pending,
        }
    }
    /// "state-lost", "output-duplicated", "incomplete", "out-of-order": for file names and JSON.
    pub fn id(&self) -> String {
        match self.judged {
            Judged::Complete => "incomplete".into(),
            Judged::Order => "out-of-order".into(),
            _ => format!("{}-{}", self.judged.id(), self.verdict.id()),
        }
    }
}

/// How a run ended for one kind of verdict (operator state, or what a reader sees of the sinks):
/// was any record lost, duplicated, still on its way?
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgement {
    pub lost: bool,
    pub duplicated: bool,
    pub pending: bool,
}

impl Judgement {
    fn of(t: &Tally) -> Judgement {
        Judgement { lost: t.lost > 0, duplicated: t.duplicated > 0, pending: t.pending > 0 }
    }
    pub fn exactly_once(&self) -> bool {
        !self.lost && !self.duplicated && !self.pending
    }
}

/// The verdict at the end of a schedule: for operator state, and (a job with a sink) for the
/// external output; and on the history that counts, as the ledger judges it
/// (`crate::engine::core::ledger`): did some record miss a path of the DAG it takes in the
/// failure-free run (incomplete), did some record take effect after a newer one of its source
/// partition (out of order)?
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub state: Judgement,
    pub output: Option<Judgement>,
    #[serde(default)]
    pub incomplete: bool,
    #[serde(default)]
    pub out_of_order: bool,
}

impl Outcome {
    /// The ledger's four verdicts of a finished run.
    pub fn of(sim: &Sim) -> Outcome {
        let l = sim.ledger();
        Outcome {
            state: Judgement::of(&l.state),
            output: l.external.as_ref().map(Judgement::of),
            incomplete: l.complete.incomplete > 0,
            out_of_order: l.order.out_of_order > 0,
        }
    }
    /// Does the run end with this bad outcome?
    pub fn has(&self, bad: BadOutcome) -> bool {
        match bad.judged {
            Judged::State => bad.verdict_in(&self.state),
            Judged::Output => self.output.is_some_and(|j| bad.verdict_in(&j)),
            Judged::Complete => self.incomplete,
            Judged::Order => self.out_of_order,
        }
    }
}

/// How many schedules end complete and in order, on the history that counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryShares {
    /// Every record took effect on every path it takes in the failure-free run.
    pub complete: u128,
    pub incomplete: u128,
    /// No record took effect after a newer one of its source partition.
    pub in_order: u128,
    pub out_of_order: u128,
}

impl HistoryShares {
    pub(super) fn add(&mut self, o: &Outcome, n: u128) {
        let add = |x: &mut u128| *x = x.saturating_add(n);
        add(if o.incomplete { &mut self.incomplete } else { &mut self.complete });
        add(if o.out_of_order { &mut self.out_of_order } else { &mut self.in_order });
    }
}

/// How many schedules end each way, for one kind of verdict. A schedule may lose one record and
/// duplicate another: it counts under both, and under `lost_and_duplicated`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shares {
    pub exactly_once: u128,
    pub lost: u128,
    pub duplicated: u128,
    pub lost_and_duplicated: u128,
    /// Still on its way at the end (not expected: a finished run has nothing on its way).
    pub pending: u128,
}

impl Shares {
    pub(super) fn add(&mut self, j: Judgement, n: u128) {
        let add = |x: &mut u128| *x = x.saturating_add(n);
        if j.exactly_once() {
            add(&mut self.exactly_once);
        }
        if j.lost {
            add(&mut self.lost);
        }
        if j.duplicated {
            add(&mut self.duplicated);
        }
        if j.lost && j.duplicated {
            add(&mut self.lost_and_duplicated);
        }
        if j.pending {
            add(&mut self.pending);
        }
    }
}
