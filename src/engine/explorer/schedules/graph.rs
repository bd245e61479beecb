//! The graph a search builds: its states, each numbered in the order found, with the move and the
//! state it was first found by (a parent pointer, as TLC keeps one per state), and its edges, each
//! with the move it takes. Breadth-first, the parent pointers followed back give a shortest
//! schedule to any state; an edge is looked up by its move, for the edges that commutation decides
//! (see [`crate::engine::explorer::independence`]).

use crate::engine::core::action::Action;
use crate::engine::explorer::independence::{code, OTHER};
use crate::engine::explorer::outcome::Outcome;

/// One state of the search.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// The length of the shortest schedule to it.
    pub depth: u32,
    /// The state it was first found from (itself for the initial state), and by which action.
    pub parent: u32,
    pub via: Action,
    /// Its successors: `succ[from..from + len]`, once expanded.
    pub succ_from: u32,
    pub succ_len: u32,
    pub expanded: bool,
    /// The verdict, if schedules end here.
    pub end: Option<Outcome>,
}

impl Node {
    /// A state just found, from `parent` by `via`, not yet expanded.
    pub fn found(depth: u32, parent: u32, via: Action) -> Node {
        Node { depth, parent, via, succ_from: 0, succ_len: 0, expanded: false, end: None }
    }
}

/// The states found and the moves between them.
#[derive(Default)]
pub(super) struct StateGraph {
    pub nodes: Vec<Node>,
    pub succ: Vec<u32>,
    /// The move of each edge in `succ`, by its [`code`].
    pub succ_via: Vec<u32>,
}

impl StateGraph {
    /// The successors of `node`, once it is expanded.
    pub fn successors(&self, node: &Node) -> &[u32] {
        &self.succ[node.succ_from as usize..(node.succ_from + node.succ_len) as usize]
    }

    /// The successor of expanded state `node` by move `action`, if it has that move.
    pub fn edge(&self, node: u32, action: Action) -> Option<u32> {
        let n = &self.nodes[node as usize];
        let edges = n.succ_from as usize..(n.succ_from + n.succ_len) as usize;
        let c = code(action);
        debug_assert!(c != OTHER, "only the moves the relation names are looked up");
        self.succ_via[edges.clone()].iter().position(|&x| x == c).map(|i| self.succ[edges.start + i])
    }

    /// The shortest schedule to state `node`: the parent pointers, followed back.
    pub fn schedule_to(&self, mut node: u32) -> Vec<Action> {
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
