//! Counting the schedules once the search is done: paths in the graph of states, counted, not
//! enumerated. The number of schedules reaching a state is the sum over the edges into it of the
//! number reaching their source (Kahn's topological order of the graph, which also proves it
//! acyclic), and each end state's verdict counts as many times as schedules end there. The
//! shortest schedule to each bad outcome is the parent pointers followed back from the first end
//! state with it ([`super`] numbers states in breadth-first order), replayed as a counterexample.
//! In steps, as the search is: a call does at most so much work, so the page's slices stay short.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::graph::StateGraph;
use crate::engine::core::sim::Sim;
use crate::engine::explorer::counterexample::Counterexample;
use crate::engine::explorer::outcome::{BadOutcome, HistoryShares, Shares};

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

/// The counting after the search, in steps (see [`Counting::count`]).
pub(super) struct Counting {
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

/// Counting a state costs a small fraction of expanding one (a few additions against a step of
/// the engine and a key): a call's budget of states to expand is this many states to count.
pub(super) const COUNT_PER_STATE: usize = 64;

/// Where a call of [`Counting::count`] left the counting.
pub(super) enum Counted {
    /// Work is left for the next call.
    NotYet,
    /// Every state is tallied and every counterexample built: [`Counting::report`].
    Done,
    /// Some states are on a cycle: no topological order.
    Cycle,
}

impl Counting {
    /// The counting of the graph `g`, not begun; `sink`: whether the job has one (its output is
    /// judged).
    pub(super) fn new(g: &StateGraph, sink: bool) -> Counting {
        let n = g.nodes.len();
        let mut indegree = vec![0u32; n];
        for &s in &g.succ {
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
                output: sink.then(Shares::default),
                history: HistoryShares::default(),
                schedules: 0,
                end_states: 0,
                shortest: u32::MAX,
                longest: 0,
                first: BadOutcome::ALL.iter().map(|b| (*b, u32::MAX, 0)).collect(),
            },
            counterexamples: Vec::new(),
        }
    }

    /// Whether the next step builds a counterexample (see [`super::Explorer::next_is_long`]).
    pub(super) fn builds_next(&self, states: usize) -> bool {
        self.tallied == states && self.tally.found().count() > self.counterexamples.len()
    }

    /// Counts the schedules by dynamic programming over a topological order, and finds the
    /// shortest schedule to each bad outcome: at most `budget` states ordered or tallied, or one
    /// counterexample built, per call, so that the page's slices stay short. `initial` is the
    /// state the search started from: a counterexample replays from it.
    pub(super) fn count(&mut self, g: &StateGraph, initial: &Sim, budget: usize) -> Counted {
        let n = g.nodes.len();
        let c = self;
        // 1. Kahn's topological order, carrying the number of paths and the longest path.
        let mut work = 0;
        while work < budget {
            let Some(v) = c.queue.pop_front() else { break };
            work += 1;
            c.ordered += 1;
            for &s in g.successors(&g.nodes[v as usize]) {
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
            return Counted::NotYet;
        }
        if c.ordered != n {
            return Counted::Cycle;
        }
        // 2. The end states' verdicts, each weighted by the schedules that end there.
        while work < budget && c.tallied < n {
            let i = c.tallied;
            c.tallied += 1;
            work += 1;
            let node = &g.nodes[i];
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
            return Counted::NotYet;
        }
        // 3. The counterexamples: each replays its schedule and tells its story, at the cost of
        // expanding a few dozen states; at least one per call.
        let found: Vec<(BadOutcome, u32, u128)> = c.tally.found().collect();
        let mut built = 0;
        while let Some(&(bad, at, count)) = found.get(c.counterexamples.len()) {
            if built > 0 && work >= budget {
                return Counted::NotYet;
            }
            c.counterexamples.push(Counterexample::build(initial, g.schedule_to(at), bad, count));
            built += 1;
            work = work.saturating_add(32 * COUNT_PER_STATE);
        }
        Counted::Done
    }

    /// What the counting found, once [`Counted::Done`].
    pub(super) fn report(self, g: &StateGraph) -> Report {
        let t = self.tally;
        Report {
            states: g.nodes.len(),
            end_states: t.end_states,
            transitions: g.succ.len(),
            schedules: t.schedules,
            shortest: if t.end_states == 0 { 0 } else { t.shortest },
            longest: t.longest,
            state: t.state,
            output: t.output,
            history: t.history,
            counterexamples: self.counterexamples,
        }
    }
}
