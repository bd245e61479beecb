//! Schedule enumeration: a breadth-first search over the states of a run, as an explicit-state
//! model checker (TLA+'s TLC, SPIN in breadth-first mode) searches: a queue of states to expand,
//! each expanded once, each successor looked up by its key ([`super::state_key`]) and queued only
//! if it is new. Breadth-first, every state is first found by a shortest schedule, and the
//! parent pointer kept at that moment gives the shortest schedule to it (TLC's shortest error
//! trace). The moves at a state are the engine's enabled steps and the faults the budget still
//! allows (see the module note of [`super`]).
//!
//! An edge between independent moves is looked up rather than computed where the graph already
//! holds it (see [`super::independence`]): at a state first found from `p` by `b`, a move `a`
//! independent of `b` ends where `b` ends from `p`'s `a`-successor, and a crash that absorbs `b`
//! ends where `p`'s crash ends. The graph is the one the engine would give edge for edge
//! ([`Explorer::without_commutation`] computes every edge; `tests/explorer.rs` compares them).
//!
//! The states and the moves between them are kept as a graph with parent pointers
//! (`schedules/graph.rs`); once every state is expanded, the schedules are counted, not
//! enumerated (`schedules/counting.rs`).

mod counting;
mod graph;

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use super::independence::{code, Independence};
pub use super::outcome::{HistoryShares, Judgement, Outcome, Shares};
use super::state_key::{KeyScope, Keyer};
use super::{Faults, FaultsSpent};
use crate::engine::core::action::{Action, Event};
use crate::engine::core::error::ScenarioError;
use crate::engine::core::ids::TaskId;
use crate::engine::core::sim::Sim;
use crate::engine::runs::scenario::{FaultBudget, Scenario};
use crate::engine::settings::handler::AfterBarrier;
use crate::engine::settings::{SinkMode, Strategy};
pub use counting::Report;
use counting::{Counted, Counting, COUNT_PER_STATE};
use graph::{Node, StateGraph};

/// How the run goes on once no crash is left: every order of the remaining steps, or one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Completion {
    /// Every schedule to the end, as from any other state.
    Every,
    /// The first enabled step each time: the outcome does not depend on the order (see the
    /// module note of [`super`]).
    #[default]
    Canonical,
}

/// Where an exploration stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Distinct states found so far.
    pub states: usize,
    /// States expanded (their moves followed).
    pub expanded: usize,
    /// States found and not yet expanded.
    pub open: usize,
    /// The length of the schedules being extended now.
    pub depth: u32,
    pub done: bool,
    /// Why the exploration stopped short, if it did.
    pub failed: Option<String>,
}

/// How many maps hold the states seen.
const SHARDS: usize = 64;

/// The map of a key: its top bits (the map itself hashes by the low ones).
fn shard(h: u128) -> usize {
    (h >> 122) as usize % SHARDS
}

/// A fault a move spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    Checkpoint,
    Timer(TaskId),
    Crash,
    /// The checkpoint that ends a run with a two-phase-commit sink, outside the budget.
    FinalCheckpoint,
}

#[derive(Clone, Copy, Debug)]
struct Move {
    action: Action,
    fault: Option<Fault>,
}

/// A state found and not yet expanded.
struct Open {
    node: u32,
    /// Boxed: the queue grows to thousands of states, and moving a run on each growth would
    /// stall a slice for tens of milliseconds in the browser.
    sim: Box<Sim>,
    spent: FaultsSpent,
}

/// The keys are hashes already: use their low bits as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u128(&mut self, x: u128) {
        self.0 = x as u64;
    }
}

/// The schedule explorer: a breadth-first search that can be run in slices.
///
/// ```
/// use barrierscope::engine::explorer::Explorer;
/// use barrierscope::engine::{FaultBudget, Scenario, Settings, Strategy};
///
/// let mut sc = Scenario::builtin("line", Settings::new(Strategy::Aligned), 1);
/// sc.input = Some(serde_json::from_str(r#"{"Source": ["a:x", "b:x"]}"#).unwrap());
/// let mut explorer = Explorer::new(sc.sim().unwrap(), FaultBudget::default()).unwrap();
/// while !explorer.run(100).done {}
/// let report = explorer.report().unwrap();
/// // Aligned barriers: whatever the schedule, every record counts exactly once.
/// assert_eq!(report.state.exactly_once, report.schedules);
/// assert!(report.counterexamples.is_empty());
/// ```
pub struct Explorer {
    initial: Sim,
    faults: Faults,
    completion: Completion,
    scope: KeyScope,
    keyer: Keyer,
    /// The run ends with a checkpoint that commits a two-phase-commit sink.
    final_checkpoint: bool,
    /// The states found, and the moves between them.
    graph: StateGraph,
    /// The states seen, by key, in [`SHARDS`] maps chosen by the key's high bits: a map grows by
    /// copying itself, and a small one copies quickly, so no slice of the page stalls on it.
    seen: Vec<HashMap<u128, u32, BuildHasherDefault<KeyHasher>>>,
    /// Which moves commute ([`Independence`]), if any do in this run; `None` also when the caller
    /// asked for every edge to be computed.
    independence: Option<Independence>,
    /// Edges looked up by commutation rather than computed.
    inferred: usize,
    open: VecDeque<Open>,
    expanded: usize,
    depth: u32,
    failed: Option<String>,
    report: Option<Report>,
    /// The counting under way, once every state is expanded.
    counting: Option<Counting>,
    // Scratch space, reused.
    key: Vec<u8>,
    steps: Vec<Action>,
    moves: Vec<Move>,
    events: Vec<Event>,
    /// Per move of the state being expanded: its successor, if looked up by commutation.
    looked_up: Vec<Option<u32>>,
}

impl Explorer {
    /// Explores every schedule from the state `sim` is in, under `budget`, with the canonical
    /// completion.
    pub fn new(sim: Sim, budget: FaultBudget) -> Result<Explorer, ScenarioError> {
        Explorer::with_completion(sim, budget, Completion::Canonical)
    }

    /// Explores a scenario file from its start: its budget (`"explore"`, or the default), no
    /// script.
    pub fn for_scenario(sc: &Scenario, completion: Completion) -> Result<Explorer, ScenarioError> {
        if !sc.actions.is_empty() {
            return Err(ScenarioError::Explore(format!(
                "it has a script of {} action(s); explore starts from the beginning and tries every schedule itself: leave \"actions\" out (or play it with `barrierscope run`)",
                sc.actions.len()
            )));
        }
        Explorer::with_completion(sc.sim()?, sc.explore.unwrap_or_default(), completion)
    }

    pub fn with_completion(sim: Sim, budget: FaultBudget, completion: Completion) -> Result<Explorer, ScenarioError> {
        let faults = Faults::resolve(&sim, budget)?;
        if completion == Completion::Canonical && sim.handler.is_some_and(|h| h.handler.after == AfterBarrier::Drop) {
            // Its barriers decide which records are processed at all: a checkpoint after the last
            // restore changes the outcome, and so does its place among the other steps.
            return Err(ScenarioError::Explore(
                "a barrier handler that drops records makes the order after the last restore matter: explore it with every completion".into(),
            ));
        }
        if sim.settings.sink == SinkMode::Kafka {
            // The broker's clock runs on time (its transaction timeout): a schedule's length
            // changes its outcome, which the canonical completion's argument forbids.
            return Err(ScenarioError::Explore(
                "a Kafka sink's broker aborts transactions on its clock (transaction.timeout.ms): explore a two-phase-commit sink instead".into(),
            ));
        }
        let scope = KeyScope::for_sim(&sim);
        let final_checkpoint = sim.strategy().uses_coordinator() && sim.settings.sink == SinkMode::TwoPhaseCommit;
        let spent = FaultsSpent { timers: vec![0; sim.graph.tasks.len()], ..FaultsSpent::default() };
        let mut ex = Explorer {
            initial: sim.clone(),
            faults,
            completion,
            scope,
            keyer: Keyer::new(&sim, scope),
            final_checkpoint,
            graph: StateGraph::default(),
            seen: (0..SHARDS).map(|_| HashMap::default()).collect(),
            independence: Independence::for_sim(&sim),
            inferred: 0,
            open: VecDeque::new(),
            expanded: 0,
            depth: 0,
            failed: None,
            report: None,
            counting: None,
            key: vec![],
            steps: vec![],
            moves: vec![],
            events: vec![],
            looked_up: vec![],
        };
        let h = ex.keyer.key(&sim, &spent, &mut ex.key);
        ex.seen[shard(h)].insert(h, 0);
        ex.graph.nodes.push(Node::found(0, 0, Action::Auto));
        ex.open.push_back(Open { node: 0, sim: Box::new(sim), spent });
        Ok(ex)
    }

    /// Computes every edge with the engine, none by commutation ([`Independence`]): the same
    /// graph, more slowly. `tests/explorer.rs` compares the two.
    pub fn without_commutation(mut self) -> Explorer {
        self.independence = None;
        self
    }

    /// How many edges were looked up by commutation rather than computed, so far.
    pub fn inferred_edges(&self) -> usize {
        self.inferred
    }

    /// The budget as resolved for this run.
    pub fn faults(&self) -> Faults {
        self.faults
    }
    pub fn completion(&self) -> Completion {
        self.completion
    }
    /// The state the exploration started from.
    pub fn initial(&self) -> &Sim {
        &self.initial
    }

    /// Expands at most `max_states` more states; when none is left to expand, counts the
    /// schedules and finds the counterexamples. Call again to go on; stop calling to cancel.
    pub fn run(&mut self, max_states: usize) -> Progress {
        let mut n = 0;
        while n < max_states && self.failed.is_none() {
            let Some(open) = self.open.pop_front() else { break };
            self.expand(open);
            n += 1;
        }
        if self.open.is_empty() && self.failed.is_none() && self.report.is_none() {
            // What is left of this call's budget goes to counting (at least a little of it).
            self.finish(max_states.saturating_sub(n).max(1).saturating_mul(COUNT_PER_STATE));
        }
        self.progress()
    }

    pub fn progress(&self) -> Progress {
        Progress {
            states: self.graph.nodes.len(),
            expanded: self.expanded,
            open: self.open.len(),
            depth: self.depth,
            done: self.report.is_some() || self.failed.is_some(),
            failed: self.failed.clone(),
        }
    }

    /// Whether the next [`run`](Self::run) builds a counterexample: it replays the schedule and
    /// tells its story at once, which costs as much as a few dozen states. A caller that slices
    /// the search across frames gives such a step a frame of its own.
    pub fn next_is_long(&self) -> bool {
        let Some(c) = &self.counting else { return false };
        self.report.is_none() && self.failed.is_none() && c.builds_next(self.graph.nodes.len())
    }

    /// What the exploration found, once it is done.
    pub fn report(&self) -> Option<&Report> {
        self.report.as_ref()
    }

    /// The moves at a state: the engine's steps and the faults left, or (canonical completion,
    /// no crash left) the first enabled step; the final checkpoint when nothing else is left.
    fn moves(&mut self, sim: &Sim, spent: &FaultsSpent) {
        self.moves.clear();
        sim.enabled_steps(&mut self.steps);
        let last_crash_behind = spent.crashes >= self.faults.crashes && sim.running();
        if self.completion == Completion::Canonical && last_crash_behind {
            if let Some(&action) = self.steps.first() {
                self.moves.push(Move { action, fault: None });
            }
        } else {
            self.moves.extend(self.steps.iter().map(|&action| Move { action, fault: None }));
            if sim.running() {
                let snapshots = self.faults.snapshots;
                if sim.strategy().uses_coordinator() && spent.checkpoints < snapshots {
                    self.moves.push(Move { action: Action::Checkpoint, fault: Some(Fault::Checkpoint) });
                }
                if sim.strategy() == Strategy::Timers {
                    for (t, fired) in spent.timers.iter().enumerate() {
                        let task = TaskId(t as u16);
                        if *fired < snapshots && sim.task_up(task) {
                            self.moves.push(Move { action: Action::Timer { task }, fault: Some(Fault::Timer(task)) });
                        }
                    }
                }
                if spent.crashes < self.faults.crashes {
                    self.moves.push(Move { action: Action::Crash, fault: Some(Fault::Crash) });
                }
            }
        }
        if self.moves.is_empty() && self.final_checkpoint && !spent.final_checkpoint && sim.running() {
            self.moves.push(Move { action: Action::Checkpoint, fault: Some(Fault::FinalCheckpoint) });
        }
    }

    fn expand(&mut self, open: Open) {
        // The run stays in its box: a run is large, and moving it costs a copy.
        let Open { node, sim, spent } = open;
        self.expanded += 1;
        let depth = self.graph.nodes[node as usize].depth;
        self.depth = depth;
        if !self.scope.clock && sim.strategy().uses_coordinator() && sim.tick + 1 >= sim.settings.checkpoint_timeout {
            self.failed = Some(format!(
                "a schedule reached {} steps, the checkpoint-timeout; explore assumes that no checkpoint expires: raise checkpoint-timeout",
                sim.tick + 1
            ));
            return;
        }
        self.moves(&sim, &spent);
        let succ_from = self.graph.succ.len() as u32;
        if self.moves.is_empty() {
            self.graph.nodes[node as usize].end = Some(Outcome::of(&sim));
        }
        let moves = std::mem::take(&mut self.moves);
        // The moves whose successor is known by commutation (see [`Independence`]): `node` was
        // first found from `parent` by `via`; a move `a` independent of `via` leads where `via`
        // leads from `parent`'s `a`-successor, once that one is expanded; a crash that absorbs
        // `via` leads where the parent's crash leads.
        let mut looked_up = std::mem::take(&mut self.looked_up);
        looked_up.clear();
        let (parent, via) = (self.graph.nodes[node as usize].parent, self.graph.nodes[node as usize].via);
        for m in &moves {
            let found = match &self.independence {
                // A crash absorbs a move that changed only what it destroys: the parent's crash.
                Some(ind) if node != 0 && m.fault == Some(Fault::Crash) && ind.crash_absorbs(via) => {
                    self.graph.edge(parent, m.action)
                }
                // One step further up: `node = grand·b'·via` with `b'` absorbed and independent of
                // `via`, so `node = grand·via·b'`, and its crash is the crash of `grand·via`.
                Some(ind) if parent != 0 && m.fault == Some(Fault::Crash) => {
                    let (grand, b) = (self.graph.nodes[parent as usize].parent, self.graph.nodes[parent as usize].via);
                    if ind.crash_absorbs(b) && ind.independent(b, via) {
                        self.graph.edge(grand, via).and_then(|uncle| self.graph.edge(uncle, m.action))
                    } else {
                        None
                    }
                }
                Some(ind) if node != 0 && ind.independent(m.action, via) => self
                    .graph
                    .edge(parent, m.action)
                    .filter(|&sibling| self.graph.nodes[sibling as usize].expanded)
                    .and_then(|sibling| self.graph.edge(sibling, via)),
                _ => None,
            };
            looked_up.push(found);
        }
        let last = looked_up.iter().rposition(Option::is_none);
        let mut sim: Option<Box<Sim>> = Some(sim);
        for (i, m) in moves.iter().enumerate() {
            if let Some(id) = looked_up[i] {
                self.inferred += 1;
                self.graph.succ.push(id);
                self.graph.succ_via.push(code(m.action));
                continue;
            }
            let mut next = if Some(i) == last {
                sim.take().expect("the last move takes the state")
            } else {
                Box::new(Sim::clone(sim.as_deref().expect("state")))
            };
            self.events.clear();
            if let Err(e) = next.apply(m.action, &mut self.events) {
                self.failed = Some(format!("a move the explorer chose was refused ({:?}): {e:?}", m.action));
                return;
            }
            let spent = spend(&spent, m.fault);
            let h = self.keyer.key(&next, &spent, &mut self.key);
            let id = match self.seen[shard(h)].get(&h) {
                Some(&id) => id,
                None => {
                    let id = self.graph.nodes.len() as u32;
                    self.seen[shard(h)].insert(h, id);
                    self.graph.nodes.push(Node::found(depth + 1, node, m.action));
                    self.open.push_back(Open { node: id, sim: next, spent });
                    id
                }
            };
            self.graph.succ.push(id);
            self.graph.succ_via.push(code(m.action));
        }
        self.looked_up = looked_up;
        self.moves = moves;
        let n = &mut self.graph.nodes[node as usize];
        n.succ_from = succ_from;
        n.succ_len = self.graph.succ.len() as u32 - succ_from;
        n.expanded = true;
    }

    /// Counts the schedules (`schedules/counting.rs`) with at most `budget` steps of work; sets the report
    /// once the last step is done.
    fn finish(&mut self, budget: usize) {
        let c = self.counting.get_or_insert_with(|| Counting::new(&self.graph, self.initial.graph.has_sink()));
        match c.count(&self.graph, &self.initial, budget) {
            Counted::NotYet => {}
            Counted::Cycle => self.failed = Some("the states form a cycle: some schedule never ends".into()),
            Counted::Done => {
                let c = self.counting.take().expect("counting");
                self.report = Some(c.report(&self.graph));
            }
        }
    }
}

fn spend(spent: &FaultsSpent, fault: Option<Fault>) -> FaultsSpent {
    let mut s = spent.clone();
    match fault {
        None => {}
        Some(Fault::Checkpoint) => s.checkpoints += 1,
        Some(Fault::Timer(t)) => s.timers[t.index()] += 1,
        Some(Fault::Crash) => s.crashes += 1,
        Some(Fault::FinalCheckpoint) => s.final_checkpoint = true,
    }
    s
}
