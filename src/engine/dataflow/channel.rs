//! Channels: one FIFO queue per producer/consumer subtask pair (Flink's result subpartition and
//! input channel, joined). The queue and whether it is blocked belong to the running job and die
//! with it; the [`ChannelLog`] is the simulator's own record of the wire (sequence numbers, what was
//! delivered or dropped), kept to judge a cut, never read by the job.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::record::{Item, Record};

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

/// The observer's log of one channel, across crashes and restores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelLog {
    /// Sequence number of the next record sent on this channel.
    pub next_seq: u64,
    /// Delivered or dropped records still needed by the consistent-cut check (seq >= `retain_from`).
    pub history: VecDeque<(u64, Record, Fate)>,
    pub retain_from: u64,
}

impl Default for ChannelLog {
    fn default() -> ChannelLog {
        ChannelLog { next_seq: 0, history: VecDeque::new(), retain_from: u64::MAX }
    }
}

impl ChannelLog {
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
