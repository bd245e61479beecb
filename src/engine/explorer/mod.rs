//! The schedule explorer: every schedule of a small job under a budget of faults, how many end
//! exactly once, lost or duplicated, and the shortest schedule to each bad outcome, explained in
//! plain words. A learner stepping by hand sees one schedule; "aligned barriers are exactly once"
//! and "per-task timers lose data" are claims about all of them.
//!
//! It follows explicit-state model checking, as TLA+'s TLC and SPIN do it: start from the initial
//! state, apply every enabled action to every state found, and merge states already seen by a
//! hash of what can affect the future ([`state_key`]), so that a small job's schedules, though
//! they number in the thousands or millions, are a few thousand states. The search is breadth-first
//! ([`schedules`]), so the first schedule found to each outcome is a shortest one, as TLC reports
//! the shortest error trace; a counterexample replays as a scenario file ([`counterexample`]),
//! as DSLabs and P replay theirs; and each one is explained from its own events, in the manner
//! of Jepsen's Elle ([`explanation`]). The barrier-handler lab's handlers are classified by it
//! ([`lab`]).
//!
//! **The schedules.** A schedule is a sequence of actions from the initial state until nothing
//! is left to do. At each state the explorer may take every step the engine offers
//! ([`Sim::enabled_steps`]: each delivery, each read, each notification, the restore while the
//! job is down) and every fault the budget still allows ([`FaultBudget`]): a checkpoint trigger
//! (checkpointing strategies), one task's timer (strategy `timers`: a round lets each task's timer
//! fire once, at its own moment; all timers at once is the same as firing them one after
//! another), and a crash of the cluster at any moment, after which the only step is the restore.
//! Every fault is spent by the end: a fault left over is still enabled, so a schedule ends only
//! when the job has drained and the budget is spent (a crash at the very end is one of the
//! moments). With a two-phase-commit sink the run ends as `run-to-end` ends it, with one more
//! checkpoint that commits the last transaction; with other sinks that checkpoint changes no
//! verdict and is left out.
//!
//! **A canonical completion.** Once no crash is left and the job is running, the rest of the run
//! is failure-free, and its outcome does not depend on the order of the remaining steps: each
//! record in a channel or still unread goes through every task after it exactly once whatever the
//! interleaving (operators are deterministic per record, keyed counts and sums commute, routing
//! depends on the key, and round robin changes only which subtask counts a record, not how often
//! it is counted); a sink writes each record it receives once (append) or keeps one row per record
//! (upsert); a snapshot taken then is never restored; the final checkpoint commits every
//! transaction whatever came before it. So the explorer follows one completion only: the first
//! enabled step each time (deliveries before reads, as the failure-free reference run drains), and
//! a checkpoint or timer still unspent at the last restore is dropped. The whole
//! enumeration is still available ([`Completion::Every`]), and `tests/explorer.rs` checks the
//! reduction against it: from every state after the last restore, every completion ends with the
//! same verdict as the canonical one. The argument needs a mechanism whose snapshots do not change
//! what is processed: a handler of the barrier-handler lab that drops records after a barrier is
//! refused the canonical completion. Time-driven settings would break the argument (a periodic
//! checkpoint, a timer on the clock, an expiring checkpoint): the explorer refuses periodic
//! checkpoints and timers, and stops if a schedule grows as long as the checkpoint timeout.
//!
//! **Counting.** The states and the actions between them form a directed acyclic graph (every
//! action moves a record on, or spends a fault). The number of schedules is the number of paths
//! from the initial state to an end state, computed by dynamic programming over a topological
//! order, never by enumerating them: each end state's verdict is weighted by the number of paths
//! that reach it.
//!
//! **Partial-order reduction that keeps every count.** Schedules that differ only in the order of
//! independent moves (a read at the source and a delivery to another task) reach the same states;
//! a sleep set (Godefroid) would prune all but one order, which would change the counts. The
//! explorer keeps every edge and looks up, rather than computes, the ones the commutation of
//! independent moves already decides ([`independence`]): the graph, the counts and the
//! counterexamples are the same; the engine runs for fewer edges.
//!
//! **In slices.** [`Explorer::run`] expands at most so many states and returns its
//! [`Progress`]; call it again to go on, or stop calling it to cancel. Nothing here reads a clock,
//! spawns a thread or touches a file, so the page can run it across animation frames.

pub mod counterexample;
pub mod explanation;
pub mod independence;
pub mod lab;
pub mod outcome;
pub mod schedules;
pub mod state_key;

pub use counterexample::Counterexample;
pub use explanation::{Decisive, DecisiveStep, Story};
pub use independence::Independence;
pub use outcome::{BadOutcome, HistoryShares, Judged, Judgement, Outcome, Shares};
pub use schedules::{Completion, Explorer, Progress, Report};
pub use state_key::KeyScope;

use serde::{Deserialize, Serialize};

use crate::engine::core::error::ScenarioError;
use crate::engine::core::sim::Sim;
use crate::engine::runs::scenario::{FaultBudget, MAX_BUDGET_FAULTS};
use crate::engine::settings::{SourceKind, Strategy};

/// The faults a schedule has spent so far: part of every state's key.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FaultsSpent {
    /// Checkpoints triggered from the budget.
    pub checkpoints: u8,
    /// Per task: how often its timer fired (strategy `timers`).
    pub timers: Vec<u8>,
    /// Crashes of the cluster.
    pub crashes: u8,
    /// The final checkpoint that commits a two-phase-commit sink's last transaction.
    pub final_checkpoint: bool,
}

/// A budget checked against the run it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faults {
    /// Checkpoint triggers, or rounds of timers.
    pub snapshots: u8,
    pub crashes: u8,
}

impl Faults {
    /// Checks `budget` against the run `sim` and the explorer's limits: what it can't explore
    /// is refused with the reason.
    pub fn resolve(sim: &Sim, budget: FaultBudget) -> Result<Faults, ScenarioError> {
        let bad = |m: String| Err(ScenarioError::Explore(m));
        let s = &sim.settings;
        if let Err(why) = s.strategy.row().explore {
            let takes = Strategy::ids_where(|r| r.explore.is_ok());
            return bad(format!("strategy {} {why}; explore takes {takes}", s.strategy.id()));
        }
        if s.source == SourceKind::Socket {
            return bad("a socket's records arrive on the clock; explore needs replayable-log sources".into());
        }
        if s.checkpoint_interval.is_some() {
            return bad("checkpoint-interval triggers checkpoints on the clock; explore triggers them from its budget (\"explore\": {\"snapshots\": n}): leave checkpoint-interval out".into());
        }
        if let Some((name, _)) = s.timers.iter().find(|(_, t)| t.period > 0) {
            return bad(format!("the timer of {name:?} fires on the clock; explore fires timers from its budget (\"explore\": {{\"snapshots\": n}}): leave \"timers\" out"));
        }
        if budget.crashes > MAX_BUDGET_FAULTS {
            return bad(format!("\"crashes\" must be 0 to {MAX_BUDGET_FAULTS}"));
        }
        let snapshots = match (budget.snapshots, s.strategy) {
            (Some(n), _) if n > MAX_BUDGET_FAULTS => {
                return bad(format!("\"snapshots\" must be 0 to {MAX_BUDGET_FAULTS}"))
            }
            (Some(n), Strategy::None) if n > 0 => {
                return bad("strategy none takes no snapshots: leave \"snapshots\" out, or make it 0".into())
            }
            (Some(n), _) => n,
            (None, Strategy::None) => 0,
            (None, _) => 1,
        };
        Ok(Faults { snapshots, crashes: budget.crashes })
    }
}
