//! The consistent-cut check, after Chandy and Lamport's snapshot and Elnozahy et al.'s survey of
//! rollback recovery. Given one saved snapshot per task, each channel between two saved tasks is
//! judged by where its sender and its receiver stood when they saved: a record received before
//! the receiver's save but sent after the sender's is an orphan (counted, and sent again after a
//! restore: duplicated); a record sent before the sender's save and received after the receiver's
//! is in transit (lost on restore, unless the snapshot stored it as in-flight data).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::dataflow::channel::Fate;
use super::ids::{ChannelId, RecordId};
use super::settings::Strategy;
use super::sim::Sim;
use super::snapshot::TaskSnapshot;

/// The cut across one channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelCut {
    pub channel: ChannelId,
    /// Records the sender had sent when it saved.
    pub sent: u64,
    /// Records the receiver had received when it saved.
    pub received: u64,
    /// Received before the receiver's save but sent after the sender's: counted, yet will be sent again.
    pub orphans: Vec<RecordId>,
    /// Sent before the sender's save, received after the receiver's, stored nowhere: lost on restore.
    pub in_transit: Vec<RecordId>,
    /// In transit but stored with the snapshot as in-flight data (unaligned): replayed on restore.
    pub stored: Vec<RecordId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutReport {
    /// Per task: the step its snapshot was taken at, if it has one in this cut.
    pub taken_at: Vec<Option<u64>>,
    pub channels: Vec<ChannelCut>,
}

impl CutReport {
    pub fn consistent(&self) -> bool {
        self.channels.iter().all(|c| c.orphans.is_empty() && c.in_transit.is_empty())
    }
    pub fn orphans(&self) -> Vec<RecordId> {
        self.channels.iter().flat_map(|c| c.orphans.iter().copied()).collect()
    }
    pub fn in_transit(&self) -> Vec<RecordId> {
        self.channels.iter().flat_map(|c| c.in_transit.iter().copied()).collect()
    }
}

impl Sim {
    /// The consistent-cut check over one snapshot per task (None: the task is not in the cut).
    pub fn cut_check(&self, snaps: &[Option<&TaskSnapshot>]) -> CutReport {
        let g = &self.graph;
        let mut channels = Vec::new();
        for (ci, info) in g.channels.iter().enumerate() {
            let (Some(Some(s)), Some(Some(r))) = (snaps.get(info.from.index()), snaps.get(info.to.index())) else {
                continue;
            };
            let c = ChannelId(ci as u16);
            let (ch, live) = (&self.wire[ci], &self.live.channels[ci]);
            let sent = s.out_pos[info.output_index];
            let received = r.in_pos[info.input_index];
            let stored_seqs: BTreeSet<u64> =
                s.in_flight.iter().chain(&r.in_flight).filter(|(x, _, _)| *x == c).map(|(_, seq, _)| *seq).collect();
            let mut cut =
                ChannelCut { channel: c, sent, received, orphans: vec![], in_transit: vec![], stored: vec![] };
            if received > sent {
                for (seq, rec, fate) in &ch.history {
                    if (sent..received).contains(seq) && *fate == Fate::Delivered {
                        cut.orphans.push(rec.id);
                    }
                }
            } else {
                for seq in received..sent {
                    let Some(rec) = ch.find(live, seq) else { continue };
                    if stored_seqs.contains(&seq) {
                        cut.stored.push(rec.id);
                    } else {
                        cut.in_transit.push(rec.id);
                    }
                }
            }
            channels.push(cut);
        }
        CutReport { taken_at: snaps.iter().map(|s| s.map(|s| s.tick)).collect(), channels }
    }

    /// The snapshots a restore would use now: each task's latest own save (timers) or the latest
    /// completed checkpoint.
    pub fn restore_point(&self) -> Vec<Option<&TaskSnapshot>> {
        match self.strategy() {
            Strategy::Timers => self.durable.storage.saves.iter().map(|s| s.last()).collect(),
            s if s.uses_coordinator() => match self.durable.storage.completed.last() {
                Some(cp) => cp.snapshots.iter().map(Some).collect(),
                None => vec![None; self.live.tasks.len()],
            },
            _ => vec![None; self.live.tasks.len()],
        }
    }

    /// The cut of [`Sim::restore_point`], if at least one task has a snapshot in it.
    pub fn latest_cut(&self) -> Option<CutReport> {
        let snaps = self.restore_point();
        snaps.iter().any(|s| s.is_some()).then(|| self.cut_check(&snaps))
    }

    /// Keeps delivered records only as far back as some stored snapshot's channel position
    /// reaches: what the consistent-cut check can ask for.
    pub(crate) fn recompute_retention(&mut self) {
        let mut from = vec![u64::MAX; self.wire.len()];
        let g = self.graph.clone();
        let mut note = |s: &TaskSnapshot| {
            let info = g.task(s.task);
            for (i, c) in info.out_channels.iter().enumerate() {
                from[c.index()] = from[c.index()].min(s.out_pos[i]);
            }
            for (i, c) in info.inputs.iter().enumerate() {
                from[c.index()] = from[c.index()].min(s.in_pos[i]);
            }
        };
        self.durable.storage.completed.iter().flat_map(|c| &c.snapshots).for_each(&mut note);
        self.durable.storage.saves.iter().flatten().for_each(&mut note);
        self.live.coordinator.pending.iter().flat_map(|p| p.snapshots.iter().flatten()).for_each(&mut note);
        self.live.tasks.iter().filter_map(|t| t.alignment.as_ref()?.unaligned.as_deref()).for_each(&mut note);
        for (c, f) in self.wire.iter_mut().zip(from) {
            c.retain_from = f;
            while c.history.front().is_some_and(|h| h.0 < f) {
                c.history.pop_front();
            }
        }
    }
}
