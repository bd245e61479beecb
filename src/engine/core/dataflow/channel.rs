//! Channels: one FIFO queue per producer/consumer subtask pair (Flink's result subpartition and
//! input channel, joined). The queue and whether it is blocked belong to the running job and die
//! with it; the [`ChannelLog`] is the simulator's own record of the wire (sequence numbers, what was
//! delivered or dropped), kept to judge a cut, never read by the job.
//!
//! Every record sent on a channel gets the next sequence number of that channel, across crashes
//! and restores, so a number names one sending. What a task's state has sent or received on a
//! channel is a [`SeqSet`] of such numbers: a restore starts a new incarnation of the task, whose
//! state is the saved one, so its set is the saved set followed by what the new incarnation sends
//! or receives (Elnozahy et al.'s rollback-recovery survey: a checkpoint records the sends and
//! receives that happened before it, including those of the state it was itself restored from).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::record::{Item, Record};

/// The live channel: records and barriers in flight, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Channel {
    pub queue: VecDeque<Item>,
    /// Aligned checkpoints: the barrier arrived here; records behind it stay buffered.
    pub blocked: bool,
}

/// What became of a record that left a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    Delivered,
    /// Lost in a crash while in flight.
    Dropped,
}

/// Sequence numbers of one channel, as sorted, disjoint, non-adjacent half-open ranges: the
/// records a task's state has sent (or received) there, across restores.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeqSet(Vec<(u64, u64)>);

impl SeqSet {
    /// The numbers `from..to`.
    pub fn range(from: u64, to: u64) -> SeqSet {
        SeqSet(if from < to { vec![(from, to)] } else { vec![] })
    }
    pub fn ranges(&self) -> &[(u64, u64)] {
        &self.0
    }
    /// How many numbers.
    pub fn len(&self) -> u64 {
        self.0.iter().map(|(a, b)| b - a).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn contains(&self, seq: u64) -> bool {
        let i = self.0.partition_point(|r| r.1 <= seq);
        self.0.get(i).is_some_and(|r| r.0 <= seq)
    }
    /// This set and the numbers `from..to`.
    pub fn with(&self, from: u64, to: u64) -> SeqSet {
        match self.0.last() {
            _ if from >= to => self.clone(),
            Some(&(_, end)) if end == from => {
                let mut v = self.0.clone();
                v.last_mut().expect("non-empty").1 = to;
                SeqSet(v)
            }
            Some(&(_, end)) if end > from => self.union(&SeqSet::range(from, to)),
            _ => {
                let mut v = self.0.clone();
                v.push((from, to));
                SeqSet(v)
            }
        }
    }
    /// The numbers in either set.
    pub fn union(&self, other: &SeqSet) -> SeqSet {
        if other.0.is_empty() {
            return self.clone();
        }
        let (mut i, mut j) = (0, 0);
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(self.0.len() + other.0.len());
        while i < self.0.len() || j < other.0.len() {
            let next = match (self.0.get(i), other.0.get(j)) {
                (Some(a), Some(b)) if a.0 <= b.0 => {
                    i += 1;
                    *a
                }
                (Some(a), None) => {
                    i += 1;
                    *a
                }
                (_, Some(b)) => {
                    j += 1;
                    *b
                }
                (None, None) => unreachable!(),
            };
            match out.last_mut() {
                Some(last) if next.0 <= last.1 => last.1 = last.1.max(next.1),
                _ => out.push(next),
            }
        }
        SeqSet(out)
    }
    /// The end of the first range if it starts at 0 (every number below it is in the set), else 0.
    pub fn prefix_end(&self) -> u64 {
        match self.0.first() {
            Some(&(0, end)) => end,
            _ => 0,
        }
    }
    /// The numbers in this set and not in `other`.
    pub fn difference(&self, other: &SeqSet) -> SeqSet {
        let (mut out, mut j) = (Vec::new(), 0);
        for &(a, b) in &self.0 {
            let mut from = a;
            while j < other.0.len() && other.0[j].1 <= from {
                j += 1;
            }
            let mut k = j;
            while from < b {
                match other.0.get(k) {
                    Some(&(c, d)) if c < b => {
                        if from < c {
                            out.push((from, c));
                        }
                        from = from.max(d);
                        k += 1;
                    }
                    _ => {
                        out.push((from, b));
                        from = b;
                    }
                }
            }
        }
        SeqSet(out)
    }
    /// Every number, in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().flat_map(|&(a, b)| a..b)
    }
}

/// The observer's log of one channel, across crashes and restores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelLog {
    /// Sequence number of the next record sent on this channel.
    pub next_seq: u64,
    /// Delivered or dropped records the consistent-cut check may still ask for, in order.
    pub history: VecDeque<(u64, Record, Fate)>,
    /// Records from this number on are kept when they leave the channel: every snapshot a cut
    /// could compare holds the ones below (`u64::MAX`: no snapshot could ask, nothing is kept).
    pub retain_from: u64,
}

impl Default for ChannelLog {
    fn default() -> ChannelLog {
        ChannelLog { next_seq: 0, history: VecDeque::new(), retain_from: u64::MAX }
    }
}

impl ChannelLog {
    #[inline]
    pub fn retain(&mut self, seq: u64, rec: Record, fate: Fate) {
        if seq >= self.retain_from {
            self.history.push_back((seq, rec, fate));
        }
    }
    /// The record with sequence number `seq`, if still known (queued in `live` or retained).
    pub fn find(&self, live: &Channel, seq: u64) -> Option<Record> {
        if let Ok(i) = self.history.binary_search_by_key(&seq, |h| h.0) {
            return Some(self.history[i].1);
        }
        live.queue.iter().find_map(|it| match it {
            Item::Record { seq: s, rec } if *s == seq => Some(*rec),
            _ => None,
        })
    }
    /// Numbers the next record sent on this channel.
    pub fn take_seq(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq - 1
    }
}

#[cfg(test)]
mod tests {
    use super::SeqSet;

    #[test]
    fn seq_sets_join_meet_and_subtract() {
        let a = SeqSet::range(0, 3).with(7, 9);
        assert_eq!(a.ranges(), [(0, 3), (7, 9)]);
        assert_eq!(a.len(), 5);
        assert!(a.contains(2) && !a.contains(3) && a.contains(8) && !a.contains(9));
        assert_eq!(SeqSet::range(0, 3).with(3, 5).ranges(), [(0, 5)]);
        assert_eq!(SeqSet::range(4, 6).union(&SeqSet::range(0, 2).with(5, 9)).ranges(), [(0, 2), (4, 9)]);
        let b = SeqSet::range(2, 8);
        assert_eq!(a.prefix_end(), 3);
        assert_eq!(b.prefix_end(), 0);
        assert_eq!(a.union(&b).ranges(), [(0, 9)]);
        assert_eq!(a.difference(&b).iter().collect::<Vec<_>>(), [0, 1, 8]);
        assert_eq!(b.difference(&a).iter().collect::<Vec<_>>(), [3, 4, 5, 6]);
        let c = SeqSet::range(0, 10).with(20, 30);
        let d = SeqSet::range(2, 4).with(6, 22).with(25, 26);
        assert_eq!(c.difference(&d).ranges(), [(0, 2), (4, 6), (22, 25), (26, 30)]);
        assert_eq!(d.difference(&c).ranges(), [(10, 20)]);
        assert_eq!(c.difference(&SeqSet::default()), c);
        assert!(SeqSet::range(4, 4).is_empty());
    }
}
