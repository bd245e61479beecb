//! Storm's tuple trees and the XOR acker, as data (after Apache Storm's "Guaranteeing Message
//! Processing" and `storm-client`'s `daemon/Acker.java`, `executor/bolt/BoltOutputCollectorImpl.java`
//! and `executor/spout/SpoutExecutor.java`).
//!
//! A spout tuple with a message id is the root of a tree: the spout draws a random 64-bit root id
//! and a random 64-bit edge id for each tuple it emits, and sends the acker `__ack_init [root,
//! xor of the edge ids, spout]`. A bolt that emits anchored to its input draws a fresh edge id per
//! child; when it acks the input it sends `__ack_ack [root, input edge ^ xor of its children's
//! edges]`. The acker XORs every value into `pending[root]`: each edge id goes in once when its
//! tuple is created and once when it is acked, so the value is 0 exactly when every tuple of the
//! tree has been acked (up to a 2^-64 chance). Then the acker tells the spout, which forgets the
//! tuple. The spout expires what is not acked within the message timeout and fails it: a
//! replayable spout (`KafkaSpout`) emits the failed offset again, as a new tree.
//!
//! Everything here is volatile (the workers' memory): a crash loses it. Only the offsets the spout
//! committed survive, in the log (Kafka keeps a consumer group's commits): see `Durable`.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::rotating_map::RotatingMap;
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::sorted_vec::{SortedMap, SortedSet};

/// Buckets of the spout's pending map (`SpoutExecutor`: `new RotatingMap<>(2, …)`).
pub const SPOUT_BUCKETS: usize = 2;
/// Buckets of the acker's pending map (`Acker`: `new RotatingMap<>(TIMEOUT_BUCKET_NUM = 3)`).
pub const ACKER_BUCKETS: usize = 3;

/// An anchored tuple on the wire: the tree it belongs to and its own edge id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TupleId {
    pub root: u64,
    pub edge: u64,
}

/// A message to the acker. `opened` and `closed` are the observer's view of the edges the value
/// stands for (the acker itself only ever sees the XOR).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AckMessage {
    /// `__ack_init`: the spout emitted `record` (its message id: `offset`) as a new tree.
    Init { root: u64, xor: u64, spout: TaskId, offset: u32, record: RecordId, opened: Vec<u64> },
    /// `__ack_ack`: a bolt acked its input tuple (`closed`) after emitting `opened` children
    /// anchored to it.
    Ack { root: u64, xor: u64, record: RecordId, closed: u64, opened: Vec<u64> },
}

impl AckMessage {
    pub fn root(&self) -> u64 {
        match self {
            AckMessage::Init { root, .. } | AckMessage::Ack { root, .. } => *root,
        }
    }
    pub fn xor(&self) -> u64 {
        match self {
            AckMessage::Init { xor, .. } | AckMessage::Ack { xor, .. } => *xor,
        }
    }
    pub fn record(&self) -> RecordId {
        match self {
            AckMessage::Init { record, .. } | AckMessage::Ack { record, .. } => *record,
        }
    }
}

/// The acker's answer to a spout: the tree of `root` completed (Storm's `ACKER_ACK_STREAM`, sent by
/// direct grouping to the spout task).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AckerAnswer {
    pub root: u64,
    pub offset: u32,
    pub record: RecordId,
}

/// One pending tree at the acker.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AckerEntry {
    /// The XOR of every value received for this root.
    pub val: u64,
    /// Who to tell, once the init has arrived (an ack may come first).
    pub spout: Option<(TaskId, u32, RecordId)>,
    /// The observer's view: the edges the value stands for (created and not yet acked, as far as
    /// the acker's messages go). Their XOR is `val`.
    pub open: SortedSet<u64>,
}

/// What the acker did with one message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckerStep {
    pub root: u64,
    pub record: RecordId,
    /// The value after the message.
    pub val: u64,
    /// The tree completed: this answer goes to the spout.
    pub completed: Option<(TaskId, AckerAnswer)>,
}

/// A spout's reliability bookkeeping (`SpoutExecutor.pending` and the replayable source behind it,
/// as `KafkaSpout` keeps it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpoutTracking {
    /// Tuples emitted and not yet acked: root → (offset, record).
    pub pending: RotatingMap<u64, (u32, RecordId)>,
    /// Offsets that failed (timed out) and will be emitted again, oldest first.
    pub retry: SortedSet<u32>,
    /// Acked offsets above the committed one (a gap below keeps them from being committed).
    pub acked: SortedSet<u32>,
}

impl Default for SpoutTracking {
    fn default() -> Self {
        SpoutTracking { pending: RotatingMap::new(SPOUT_BUCKETS), retry: SortedSet::new(), acked: SortedSet::new() }
    }
}

impl SpoutTracking {
    /// Is the tuple at `offset` still waiting for its ack (pending, or failed and due again)?
    pub fn awaits(&self, offset: u32) -> bool {
        self.retry.contains(&offset) || self.pending.entries().iter().any(|(_, (o, _))| *o == offset)
    }
}

/// Storm's reliability machinery in a running topology: the anchors of the tuples on the wire,
/// the messages on their way to and from the acker, the acker's pending trees, and each spout's
/// pending tuples.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StormRuntime {
    /// The anchor of each anchored tuple on a channel, by (channel, sequence number). A tuple
    /// without one is unanchored (or its spout has no acker): nobody tracks it.
    pub anchors: SortedMap<(ChannelId, u64), TupleId>,
    /// Per task: its messages on their way to the acker, oldest first.
    pub to_acker: Vec<VecDeque<AckMessage>>,
    /// Per task (spouts only): the acker's answers on their way to it, oldest first.
    pub to_spout: Vec<VecDeque<AckerAnswer>>,
    /// The acker's pending trees.
    pub acker: RotatingMap<u64, AckerEntry>,
    /// Per task (sources only): the spout's bookkeeping.
    pub spouts: Vec<SpoutTracking>,
    /// Per channel: its edge is unanchored (the settings', fixed for the run).
    pub unanchored: Vec<bool>,
}

impl StormRuntime {
    pub fn new(tasks: usize, unanchored: Vec<bool>) -> Self {
        StormRuntime {
            anchors: SortedMap::new(),
            to_acker: vec![VecDeque::new(); tasks],
            to_spout: vec![VecDeque::new(); tasks],
            acker: RotatingMap::new(ACKER_BUCKETS),
            spouts: vec![SpoutTracking::default(); tasks],
            unanchored,
        }
    }

    /// The acker takes the oldest message from `from` and XORs it into the tree's value
    /// (`Acker.execute`: init and ack both do `val ^= x`; an ack may arrive before its init). When
    /// the value is 0 and the spout is known, the tree is done: the entry goes and an answer goes
    /// to the spout. As `Acker.java` does, the entry is read with `pending.get(id)` and only a new
    /// one is `put`: it stays in the bucket it was created in, so it expires 2 to 3 timeouts after
    /// its creation, whatever messages come in between.
    pub fn acker_receive(&mut self, from: TaskId) -> Option<AckerStep> {
        let msg = self.to_acker[from.index()].pop_front()?;
        let root = msg.root();
        if self.acker.get(&root).is_none() {
            self.acker.put(root, AckerEntry::default());
        }
        let entry = self.acker.get_mut(&root).expect("put above");
        entry.val ^= msg.xor();
        let toggle = |open: &mut SortedSet<u64>, e: u64| {
            if !open.remove(&e) {
                open.insert(e);
            }
        };
        match &msg {
            AckMessage::Init { spout, offset, record, opened, .. } => {
                entry.spout = Some((*spout, *offset, *record));
                opened.iter().for_each(|e| toggle(&mut entry.open, *e));
            }
            AckMessage::Ack { closed, opened, .. } => {
                toggle(&mut entry.open, *closed);
                opened.iter().for_each(|e| toggle(&mut entry.open, *e));
            }
        }
        let val = entry.val;
        let completed = match entry.spout {
            Some((spout, offset, record)) if val == 0 => {
                self.acker.remove(&root);
                let answer = AckerAnswer { root, offset, record };
                self.to_spout[spout.index()].push_back(answer);
                Some((spout, answer))
            }
            _ => None,
        };
        Some(AckerStep { root, record: msg.record(), val, completed })
    }

    /// Messages on their way to the acker, from every task.
    pub fn messages_to_acker(&self) -> usize {
        self.to_acker.iter().map(VecDeque::len).sum()
    }
}

/// The first hex digits of an id, as the canvas and the narration show it.
pub fn short_hex(x: u64) -> String {
    format!("{:04x}", x >> 48)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn init(root: u64, edges: &[u64]) -> AckMessage {
        AckMessage::Init {
            root,
            xor: edges.iter().fold(0, |a, e| a ^ e),
            spout: TaskId(0),
            offset: 4,
            record: RecordId(4),
            opened: edges.to_vec(),
        }
    }
    fn ack(root: u64, closed: u64, opened: &[u64]) -> AckMessage {
        AckMessage::Ack {
            root,
            xor: opened.iter().fold(closed, |a, e| a ^ e),
            record: RecordId(4),
            closed,
            opened: opened.to_vec(),
        }
    }

    /// The value is 0 exactly when every edge created has been acked, in any delivery order, and
    /// it is always the XOR of the edges the observer sees open.
    #[test]
    fn the_value_returns_to_zero_exactly_when_the_tree_completes_in_any_order() {
        // A tree: spout -> e1, e2; e1's bolt emits f1; e2's bolt emits nothing; f1's bolt emits nothing.
        let (e1, e2, f1) = (0x9e37_79b9_7f4a_7c15, 0xbf58_476d_1ce4_e5b9, 0x94d0_49bb_1331_11eb);
        let msgs = [
            (TaskId(0), init(9, &[e1, e2])),
            (TaskId(1), ack(9, e1, &[f1])),
            (TaskId(2), ack(9, e2, &[])),
            (TaskId(3), ack(9, f1, &[])),
        ];
        // Every order of delivery (each task's own queue is FIFO; here one message per task).
        let perms = permutations(4);
        assert_eq!(perms.len(), 24);
        for order in perms {
            let mut rt = StormRuntime::new(4, vec![]);
            for (t, m) in &msgs {
                rt.to_acker[t.index()].push_back(m.clone());
            }
            for (i, &k) in order.iter().enumerate() {
                let step = rt.acker_receive(msgs[k].0).unwrap();
                let last = i == 3;
                assert_eq!(step.completed.is_some(), last, "order {order:?}, message {i}");
                assert_eq!(step.val == 0, last, "order {order:?}: no proper part of a tree XORs to 0");
                if let Some(e) = rt.acker.get(&9) {
                    assert_eq!(e.open.iter().fold(0, |a, x| a ^ x), e.val, "val is the XOR of the open edges");
                }
            }
            assert!(rt.acker.is_empty(), "the completed tree leaves the acker");
            assert_eq!(rt.to_spout[0].len(), 1);
        }
    }

    /// Issue 26: `Acker.java` reads an entry with `pending.get(id)` and `put`s only a new one, so
    /// the entry keeps the bucket it was created in and expires at the `ACKER_BUCKETS`-th rotation
    /// after its creation (between 2 and 3 timeouts), however many messages it receives. Model: the
    /// `RotatingMap`'s own account of an entry put once.
    #[test]
    fn an_acker_entry_ages_from_its_creation_not_its_last_message() {
        let (e1, f1) = (0x9e37_79b9_7f4a_7c15, 0x94d0_49bb_1331_11eb);
        let mut model: RotatingMap<u64, ()> = RotatingMap::new(ACKER_BUCKETS);
        let mut rt = StormRuntime::new(4, vec![]);
        rt.to_acker[0].push_back(init(9, &[e1]));
        rt.to_acker[1].push_back(ack(9, e1, &[f1]));
        rt.acker_receive(TaskId(0)).unwrap();
        model.put(9, ());
        for r in 0..ACKER_BUCKETS {
            assert_eq!(rt.acker.rotations_left(&9), model.rotations_left(&9), "after {r} rotation(s)");
            if r == 1 {
                // A message in the middle of the tree's life: the entry stays in its bucket.
                rt.acker_receive(TaskId(1)).unwrap();
            }
            let gone: Vec<u64> = rt.acker.rotate().into_iter().map(|(k, _)| k).collect();
            let due: Vec<u64> = model.rotate().into_iter().map(|(k, _)| k).collect();
            assert_eq!(gone, due, "rotation {}", r + 1);
        }
        assert!(rt.acker.is_empty(), "expired {ACKER_BUCKETS} rotations after its creation");
    }

    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = vec![];
        for p in permutations(n - 1) {
            for i in 0..=p.len() {
                let mut q = p.clone();
                q.insert(i, n - 1);
                out.push(q);
            }
        }
        out
    }
}
