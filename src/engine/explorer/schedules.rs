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
//! The schedules are then counted, not enumerated: the number of schedules reaching a state is the
//! sum over the edges into it of the number reaching their source (Kahn's topological order of the
//! graph, which also proves it acyclic), and each end state's verdict counts as many times as
//! schedules end there.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use super::counterexample::Counterexample;
use super::independence::{code, Independence, OTHER};
use super::outcome::BadOutcome;
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

/// What an exploration found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Distinct states (merged by key).
    pub states: usize,
    /// States where schedules end.
    pub end_states: usize,
    /// Moves between states (edges of the graph).
    pub transitions: usize,
    /// Schedules from the initial state to an end: paths in the graph, counted, not enumerated
    /// (saturating at 2^128 - 1).
    pub schedules: u128,
    /// The lengths of the shortest and the longest schedule, in steps.
    pub shortest: u32,
    pub longest: u32,
    pub state: Shares,
    /// None for a job without a sink.
    pub output: Option<Shares>,
    /// Completeness and order.
    pub history: HistoryShares,
    /// For each bad outcome that some schedule reaches, the shortest schedule reaching it.
    pub counterexamples: Vec<Counterexample>,
}

/// The counting after the search, in steps (see [`Explorer::finish`]).
struct Counting {
    indegree: Vec<u32>,
    paths: Vec<u128>,
    longest: Vec<u32>,
    queue: VecDeque<u32>,
    /// States taken in topological order so far, and states tallied.
    ordered: usize,
    tallied: usize,
    tally: EndTally,
    counterexamples: Vec<Counterexample>,
}

/// What the end states add up to.
struct EndTally {
    state: Shares,
    output: Option<Shares>,
    history: HistoryShares,
    schedules: u128,
    end_states: usize,
    shortest: u32,
    longest: u32,
    /// Per bad outcome: the first end state with it, and the schedules ending with it.
    first: Vec<(BadOutcome, u32, u128)>,
}

impl EndTally {
    /// The bad outcomes some end state has, each with its first end state and its schedules: one
    /// counterexample each.
    fn found(&self) -> impl Iterator<Item = (BadOutcome, u32, u128)> + '_ {
        self.first.iter().copied().filter(|(_, at, _)| *at != u32::MAX)
    }
}

/// How many maps hold the states seen.
const SHARDS: usize = 64;

/// The map of a key: its top bits (the map itself hashes by the low ones).
fn shard(h: u128) -> usize {
    (h >> 122) as usize % SHARDS
}

/// Counting a state costs a small fraction of expanding one (a few additions against a step of
/// the engine and a key): a call's budget of states to expand is this many states to count.
const COUNT_PER_STATE: usize = 64;

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

/// One state of the search.
#[derive(Clone, Debug)]
struct Node {
    /// The length of the shortest schedule to it.
    depth: u32,
    /// The state it was first found from (itself for the initial state), and by which action.
    parent: u32,
    via: Action,
    /// Its successors: `succ[from..from + len]`, once expanded.
    succ_from: u32,
    succ_len: u32,
    expanded: bool,
    /// The verdict, if schedules end here.
    end: Option<Outcome>,
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
    nodes: Vec<Node>,
    /// The states seen, by key, in [`SHARDS`] maps chosen by the key's high bits: a map grows by
    /// copying itself, and a small one copies quickly, so no slice of the page stalls on it.
    seen: Vec<HashMap<u128, u32, BuildHasherDefault<KeyHasher>>>,
    succ: Vec<u32>,
    /// The move of each edge in `succ`, by its [`code`].
    succ_via: Vec<u32>,
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
            nodes: vec![],
            seen: (0..SHARDS).map(|_| HashMap::default()).collect(),
            succ: vec![],
            succ_via: vec![],
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
        ex.nodes.push(Node {
            depth: 0,
            parent: 0,
            via: Action::Auto,
            succ_from: 0,
            succ_len: 0,
            expanded: false,
            end: None,
        });
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
            states: self.nodes.len(),
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
        self.report.is_none()
            && self.failed.is_none()
            && c.tallied == self.nodes.len()
            && c.tally.found().count() > c.counterexamples.len()
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
        let depth = self.nodes[node as usize].depth;
        self.depth = depth;
        if !self.scope.clock && sim.strategy().uses_coordinator() && sim.tick + 1 >= sim.settings.checkpoint_timeout {
            self.failed = Some(format!(
                "a schedule reached {} steps, the checkpoint-timeout; explore assumes that no checkpoint expires: raise checkpoint-timeout",
                sim.tick + 1
            ));
            return;
        }
        self.moves(&sim, &spent);
        let succ_from = self.succ.len() as u32;
        if self.moves.is_empty() {
            self.nodes[node as usize].end = Some(Outcome::of(&sim));
        }
        let moves = std::mem::take(&mut self.moves);
        // The moves whose successor is known by commutation (see [`Independence`]): `node` was
        // first found from `parent` by `via`; a move `a` independent of `via` leads where `via`
        // leads from `parent`'s `a`-successor, once that one is expanded; a crash that absorbs
        // `via` leads where the parent's crash leads.
        let mut looked_up = std::mem::take(&mut self.looked_up);
        looked_up.clear();
        let (parent, via) = (self.nodes[node as usize].parent, self.nodes[node as usize].via);
        for m in &moves {
            let found = match &self.independence {
                // A crash absorbs a move that changed only what it destroys: the parent's crash.
                Some(ind) if node != 0 && m.fault == Some(Fault::Crash) && ind.crash_absorbs(via) => {
                    self.edge(parent, m.action)
                }
                // One step further up: `node = grand·b'·via` with `b'` absorbed and independent of
                // `via`, so `node = grand·via·b'`, and its crash is the crash of `grand·via`.
                Some(ind) if parent != 0 && m.fault == Some(Fault::Crash) => {
                    let (grand, b) = (self.nodes[parent as usize].parent, self.nodes[parent as usize].via);
                    if ind.crash_absorbs(b) && ind.independent(b, via) {
                        self.edge(grand, via).and_then(|uncle| self.edge(uncle, m.action))
                    } else {
                        None
                    }
                }
                Some(ind) if node != 0 && ind.independent(m.action, via) => self
                    .edge(parent, m.action)
                    .filter(|&sibling| self.nodes[sibling as usize].expanded)
                    .and_then(|sibling| self.edge(sibling, via)),
                _ => None,
            };
            looked_up.push(found);
        }
        let last = looked_up.iter().rposition(Option::is_none);
        let mut sim: Option<Box<Sim>> = Some(sim);
        for (i, m) in moves.iter().enumerate() {
            if let Some(id) = looked_up[i] {
                self.inferred += 1;
                self.succ.push(id);
                self.succ_via.push(code(m.action));
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
                    let id = self.nodes.len() as u32;
                    self.seen[shard(h)].insert(h, id);
                    self.nodes.push(Node {
                        depth: depth + 1,
                        parent: node,
                        via: m.action,
                        succ_from: 0,
                        succ_len: 0,
                        expanded: false,
                        end: None,
                    });
                    self.open.push_back(Open { node: id, sim: next, spent });
                    id
                }
            };
            self.succ.push(id);
            self.succ_via.push(code(m.action));
        }
        self.looked_up = looked_up;
        self.moves = moves;
        let n = &mut self.nodes[node as usize];
        n.succ_from = succ_from;
        n.succ_len = self.succ.len() as u32 - succ_from;
        n.expanded = true;
    }

    /// The successor of expanded state `node` by move `action`, if it has that move.
    fn edge(&self, node: u32, action: Action) -> Option<u32> {
        let n = &self.nodes[node as usize];
        let edges = n.succ_from as usize..(n.succ_from + n.succ_len) as usize;
        let c = code(action);
        debug_assert!(c != OTHER, "only the moves the relation names are looked up");
        self.succ_via[edges.clone()].iter().position(|&x| x == c).map(|i| self.succ[edges.start + i])
    }

    /// Counts the schedules by dynamic programming over a topological order, and finds the
    /// shortest schedule to each bad outcome: at most `budget` states ordered or tallied, or one
    /// counterexample built, per call, so that the page's slices stay short. The report is set
    /// once the last step is done.
    fn finish(&mut self, budget: usize) {
        let n = self.nodes.len();
        let c = self.counting.get_or_insert_with(|| {
            let mut indegree = vec![0u32; n];
            for &s in &self.succ {
                indegree[s as usize] += 1;
            }
            let mut paths = vec![0u128; n];
            paths[0] = 1;
            Counting {
                indegree,
                paths,
                longest: vec![0u32; n],
                queue: VecDeque::from([0u32]),
                ordered: 0,
                tallied: 0,
                tally: EndTally {
                    state: Shares::default(),
                    output: self.initial.graph.has_sink().then(Shares::default),
                    history: HistoryShares::default(),
                    schedules: 0,
                    end_states: 0,
                    shortest: u32::MAX,
                    longest: 0,
                    first: BadOutcome::ALL.iter().map(|b| (*b, u32::MAX, 0)).collect(),
                },
                counterexamples: Vec::new(),
            }
        });
        // 1. Kahn's topological order, carrying the number of paths and the longest path.
        let mut work = 0;
        while work < budget {
            let Some(v) = c.queue.pop_front() else { break };
            work += 1;
            c.ordered += 1;
            let node = &self.nodes[v as usize];
            for &s in &self.succ[node.succ_from as usize..(node.succ_from + node.succ_len) as usize] {
                let s = s as usize;
                c.paths[s] = c.paths[s].saturating_add(c.paths[v as usize]);
                c.longest[s] = c.longest[s].max(c.longest[v as usize] + 1);
                c.indegree[s] -= 1;
                if c.indegree[s] == 0 {
                    c.queue.push_back(s as u32);
                }
            }
        }
        if !c.queue.is_empty() || work == budget && c.ordered < n {
            return;
        }
        if c.ordered != n {
            self.failed = Some("the states form a cycle: some schedule never ends".into());
            return;
        }
        // 2. The end states' verdicts, each weighted by the schedules that end there.
        while work < budget && c.tallied < n {
            let i = c.tallied;
            c.tallied += 1;
            work += 1;
            let node = &self.nodes[i];
            let Some(end) = node.end else { continue };
            let k = c.paths[i];
            let t = &mut c.tally;
            t.end_states += 1;
            t.schedules = t.schedules.saturating_add(k);
            t.shortest = t.shortest.min(node.depth);
            t.longest = t.longest.max(c.longest[i]);
            t.state.add(end.state, k);
            t.history.add(&end, k);
            if let (Some(o), Some(j)) = (t.output.as_mut(), end.output) {
                o.add(j, k);
            }
            for (bad, at, count) in t.first.iter_mut() {
                if end.has(*bad) {
                    // Breadth-first: nodes are numbered in the order found, by growing depth, so
                    // the first end with this outcome is a shortest schedule to it.
                    if *at == u32::MAX {
                        *at = i as u32;
                    }
                    *count = count.saturating_add(k);
                }
            }
        }
        if c.tallied < n {
            return;
        }
        // 3. The counterexamples: each replays its schedule and tells its story, at the cost of
        // expanding a few dozen states; at least one per call.
        let found: Vec<(BadOutcome, u32, u128)> = c.tally.found().collect();
        let mut built = 0;
        while let Some(&(bad, at, count)) = found.get(self.counting.as_ref().expect("counting").counterexamples.len()) {
            if built > 0 && work >= budget {
                return;
            }
            let cx = Counterexample::build(&self.initial, self.schedule_to(at), bad, count);
            self.counting.as_mut().expect("counting").counterexamples.push(cx);
            built += 1;
            work = work.saturating_add(32 * COUNT_PER_STATE);
        }
        let c = self.counting.take().expect("counting");
        let t = c.tally;
        self.report = Some(Report {
            states: n,
            end_states: t.end_states,
            transitions: self.succ.len(),
            schedules: t.schedules,
            shortest: if t.end_states == 0 { 0 } else { t.shortest },
            longest: t.longest,
            state: t.state,
            output: t.output,
            history: t.history,
            counterexamples: c.counterexamples,
        });
    }

    /// The shortest schedule to state `node`: the parent pointers, followed back.
    fn schedule_to(&self, mut node: u32) -> Vec<Action> {
        let mut v = Vec::with_capacity(self.nodes[node as usize].depth as usize);
        while node != 0 {
            let n = &self.nodes[node as usize];
            v.push(n.via);
            node = n.parent;
        }
        v.reverse();
        v
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
