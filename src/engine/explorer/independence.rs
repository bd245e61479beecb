//! Independent moves, the relation partial-order reduction is built on (Mazurkiewicz's traces;
//! Godefroid's sleep sets, *Partial-Order Methods for the Verification of Concurrent Systems*,
//! 1996; the dependence relation of Flanagan and Godefroid's dynamic partial-order reduction,
//! POPL 2005, as stateright implements it): two moves enabled at a state are **independent** when
//! taking them in either order reaches the same state. Then of the two schedules `a b` and `b a`
//! only one needs the engine: the other ends where the first does.
//!
//! A sleep set prunes the second schedule. The explorer cannot: it counts schedules, and a pruned
//! edge is a schedule less. It takes the edge and skips the work instead ([`super::schedules`]):
//! at a state `s` first found from `p` by move `b`, a move `a` independent of `b` leads where `b`
//! leads from `p`'s `a`-successor, `s·a = p·b·a = p·a·b`, and once that successor is expanded the
//! edge is looked up, not computed (no copy of the run, no step of the engine, no key). The graph
//! is the same edge for edge, so are the counts, the shares and the shortest counterexamples;
//! only the time changes.
//!
//! **Which moves commute.** Only where the engine's channels hold records and nothing else:
//! strategies `timers` and `none`, with no barrier handler of the lab (barriers block channels,
//! overtake records and complete checkpoints; those runs are explored without the relation). There
//! the moves that can commute are a source's read, a delivery and a task's timer, and each touches
//! one task: the read its source, the delivery its channel's consumer, the timer its task. Two
//! such moves of different tasks commute:
//!
//! - each changes only its own task's state, the head of the channel it takes from, the tail of
//!   the channels its task emits into (a channel has one producer and one consumer, so two moves
//!   of different tasks never push onto or pop from the same end of one channel, and a pop of a
//!   channel a push also touches takes the same head in either order: the channel held it
//!   already), its own task's save, and the history on its own channel;
//! - the state key reads steps only as ranks among steps of the same kind and place (a task's
//!   saves, the history per channel; see [`super::state_key`]), and the two moves add to
//!   different places, except for two deliveries into sinks: both write a row of the external
//!   system, and the order of its rows is a reader's order, in the key. Those are dependent.
//!
//! The rest (a crash, the restore, a checkpoint, a notification, a mechanism's own step) depends
//! on everything.
//!
//! **A crash absorbs what it destroys.** A crash of the cluster and a move before it do not
//! commute (after the crash only the restore is enabled), but where the move changed only what a
//! crash destroys, the crash ends where it ends without it: `p·b·crash = p·crash`. A read and a
//! delivery to a task other than a sink change tasks' state, channels and the history, all taken
//! by the crash (the key leaves the history out while the whole job is down, and the snapshots'
//! part of it ends before the move); the read high-water marks survive a crash and are in the key
//! under strategy `none` restarting `from-latest`, so there a read is not absorbed; a delivery to
//! a sink writes to the external system, which survives; a timer's save survives. So a crash
//! from a state first found by an absorbed move is looked up as its parent's crash; and a crash
//! from `g·b'·t`, a timer `t` after an absorbed `b'` independent of it, as the crash of `g·t`
//! (`g·b'·t = g·t·b'`, whose crash absorbs `b'`). `tests/explorer.rs` checks the relation against the engine on every state of
//! the explorer's scenarios and of small jobs (both orders reach the same key), and that the
//! exploration with it reports exactly what the exploration without it reports.

use crate::engine::core::action::Action;
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::ids::TaskId;
use crate::engine::core::sim::Sim;
use crate::engine::settings::Strategy;

use super::state_key::KeyScope;

/// The independence of moves in one exploration (see the module note).
#[derive(Clone, Debug)]
pub struct Independence {
    /// Per channel, its consumer.
    consumer: Vec<TaskId>,
    /// Per channel, whether its consumer is a sink (its deliveries write rows).
    into_sink: Vec<bool>,
    /// A read moves the sources' high-water marks, which outlive a crash and are in the key.
    reads_outlive_crash: bool,
}

impl Independence {
    /// The relation for runs of `sim`'s job and settings, or `None` where moves are taken as all
    /// dependent (channels that carry barriers, a handler of the lab).
    pub fn for_sim(sim: &Sim) -> Option<Independence> {
        if sim.handler.is_some() || !matches!(sim.strategy(), Strategy::Timers | Strategy::None) {
            return None;
        }
        let g = &sim.graph;
        Some(Independence {
            consumer: g.channels.iter().map(|c| c.to).collect(),
            into_sink: g.channels.iter().map(|c| g.task(c.to).kind == OperatorKind::Sink).collect(),
            reads_outlive_crash: KeyScope::for_sim(sim).read_high_water,
        })
    }

    /// The one task a move touches, if it commutes with moves of other tasks.
    fn task(&self, a: Action) -> Option<TaskId> {
        match a {
            Action::Deliver { channel } => Some(self.consumer[channel.index()]),
            Action::Read { task } | Action::Timer { task } => Some(task),
            _ => None,
        }
    }

    fn writes_rows(&self, a: Action) -> bool {
        matches!(a, Action::Deliver { channel } if self.into_sink[channel.index()])
    }

    /// Whether a crash of the cluster right after `b` reaches the state a crash reaches without
    /// it (see the module note).
    pub fn crash_absorbs(&self, b: Action) -> bool {
        match b {
            Action::Read { .. } => !self.reads_outlive_crash,
            Action::Deliver { .. } => !self.writes_rows(b),
            _ => false,
        }
    }

    /// Whether `a` and `b`, both enabled at a state, reach the same state in either order.
    pub fn independent(&self, a: Action, b: Action) -> bool {
        match (self.task(a), self.task(b)) {
            (Some(x), Some(y)) => x != y && !(self.writes_rows(a) && self.writes_rows(b)),
            _ => false,
        }
    }
}

/// A move as the relation names it, in four bytes (the explorer keeps one per edge to look edges
/// up by): a delivery by its channel, a read and a timer by their task, a crash; every other move
/// is [`OTHER`], which is never looked up.
pub fn code(a: Action) -> u32 {
    match a {
        Action::Deliver { channel } => u32::from(channel.0),
        Action::Read { task } => 1 << 16 | u32::from(task.0),
        Action::Timer { task } => 2 << 16 | u32::from(task.0),
        Action::Crash => 3 << 16,
        _ => OTHER,
    }
}

/// The code of every move the relation does not name.
pub const OTHER: u32 = u32::MAX;
