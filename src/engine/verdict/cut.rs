//! The consistent-cut check, after Chandy and Lamport's snapshot and Elnozahy et al.'s survey of
//! rollback recovery. Given one saved snapshot per task, each channel between two saved tasks is
//! judged by what the sender's saved state has sent there and what the receiver's saved state
//! has received: a record received but not sent is an orphan (counted, and sent again after a
//! restore: duplicated); a record sent but not received is in transit (lost on restore, unless
//! the snapshot stored it as in-flight data).
//!
//! Saves may come from different incarnations of the job: a restore starts every task again from
//! its snapshot. What a snapshot has sent and received therefore includes what the state it was
//! restored from had (see `crate::engine::core::snapshot`), and a record is judged by what it is, not by the
//! sending that carried it: a source restored at offset 0 sends a again, and a save of the
//! receiver holding the earlier a still holds a. So when the two sides differ only in which
//! sending of the same record they hold, they cancel out, and the report says what the next
//! restore will do: orphans are counted once more, records in transit once less.

use crate::engine::core::sorted_vec::SortedMap;

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::channel::SeqSet;
use crate::engine::core::ids::{ChannelId, CheckpointId, RecordId, TaskId};
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::mechanisms::progress::Alignment;
use crate::engine::settings::Strategy;

/// The cut across one channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelCut {
    pub channel: ChannelId,
    /// How many records the sender's saved state has sent on the channel (across restores).
    pub sent: u64,
    /// How many records the receiver's saved state has received on the channel (across restores).
    pub received: u64,
    /// Received in the receiver's saved state but not sent in the sender's: counted, yet will be
    /// sent again.
    pub orphans: Vec<RecordId>,
    /// Sent in the sender's saved state but not received in the receiver's, stored nowhere: lost
    /// on restore.
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
            let (sent, received) = (&s.sent[info.output_index], &r.received[info.input_index]);
            let mut stored_recs: SortedMap<u64, RecordId> = SortedMap::new();
            for (_, seq, rec) in s.in_flight.iter().chain(&r.in_flight).filter(|(x, _, _)| *x == c) {
                stored_recs.insert(*seq, rec.id);
            }
            let mut cut = ChannelCut {
                channel: c,
                sent: sent.len(),
                received: received.len(),
                orphans: vec![],
                in_transit: vec![],
                stored: vec![],
            };
            let find = |seq: u64| ch.find(live, seq).map(|rec| rec.id);
            let mut not_received = Vec::new();
            for seq in sent.difference(received).iter() {
                match stored_recs.get(&seq) {
                    Some(id) => cut.stored.push(*id),
                    None => not_received.extend(find(seq)),
                }
            }
            let not_sent: Vec<RecordId> = received.difference(sent).iter().filter_map(find).collect();
            // The same record on both sides, carried by two sendings (before and after a
            // restore): the receiver holds it and the sender has sent it.
            let (orphans, in_transit) = cancel(not_sent, not_received);
            (cut.orphans, cut.in_transit) = (orphans, in_transit);
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

    /// Keeps a record that left a channel only while some cut of [`Sim::latest_cut`] could ask for
    /// it: while the snapshots such a cut may yet compare disagree on it. Those are the ones a
    /// restore could use (the newest completed checkpoint, each task's newest save), pending ones,
    /// the ones the running tasks will take, and, with per-task timers, the empty start of a task
    /// that has no save.
    /// Task `t` just acknowledged checkpoint `id`: from now on, keep what its snapshot's channel
    /// positions may ask for. Adding a snapshot only ever lowers `retain_from`, to what
    /// [`Sim::recompute_retention`] would set; pruning the logs waits for the next full
    /// recompute (the checkpoint's completion or abort), which an acknowledgement can't make
    /// necessary. This keeps an acknowledgement cheap.
    pub(crate) fn retain_for_acknowledged(&mut self, t: TaskId, id: CheckpointId) {
        let pending = self.live.coordinator.pending.iter().find(|p| p.id == id);
        let Some(snap) = pending.and_then(|p| p.snapshots[t.index()].as_ref()) else { return };
        let info = self.graph.task(t);
        for (set, c) in snap.sent.iter().zip(&info.out_channels).chain(snap.received.iter().zip(&info.inputs)) {
            let log = &mut self.wire[c.index()];
            log.retain_from = log.retain_from.min(set.prefix_end());
        }
    }

    pub(crate) fn recompute_retention(&mut self) {
        let g = self.graph.clone();
        let timers = self.strategy() == Strategy::Timers;
        // A task restarted with no save of its own starts from nothing, while its neighbour
        // restarts from a save (per-task timers only: a checkpoint restores every task or none).
        let unsaved = |t: TaskId| timers && self.durable.storage.saves[t.index()].is_empty();
        // The snapshots a cut may compare. Only the newest completed checkpoint, the savepoints
        // and each task's newest save can be restored from.
        let storage = &self.durable.storage;
        // The user's savepoints can be restored from too (by submitting the job again).
        let savepoints = self.durable.savepoints.iter().flat_map(|s| &s.checkpoint.snapshots);
        let snapshots: Vec<&TaskSnapshot> = (storage.completed.last().into_iter().flat_map(|c| &c.snapshots))
            .chain(savepoints)
            .chain(storage.saves.iter().filter_map(|s| s.last()))
            .chain(self.live.coordinator.pending.iter().flat_map(|p| p.snapshots.iter().flatten()))
            .chain(self.live.tasks.iter().filter_map(|t| Alignment::of(t)?.unaligned.as_deref()))
            .collect();
        // Per channel: every stored set holds the numbers below this (u64::MAX: no stored set).
        let mut below = vec![u64::MAX; self.wire.len()];
        for s in &snapshots {
            let info = g.task(s.task);
            for (set, c) in s.sent.iter().zip(&info.out_channels).chain(s.received.iter().zip(&info.inputs)) {
                below[c.index()] = below[c.index()].min(set.prefix_end());
            }
        }
        let running = self.running();
        let tasks = &self.live.tasks;
        for (ci, log) in self.wire.iter_mut().enumerate() {
            let info = g.channel(ChannelId(ci as u16));
            let empty_start = unsaved(info.from) || unsaved(info.to);
            if below[ci] == u64::MAX && !empty_start {
                log.retain_from = u64::MAX;
                log.history.clear();
                continue;
            }
            // A record delivered later is kept unless every stored set holds it (every set to
            // come then holds it as well).
            log.retain_from = if empty_start { 0 } else { below[ci] };
            if log.history.is_empty() {
                continue;
            }
            let sets: Vec<&SeqSet> = snapshots
                .iter()
                .filter_map(|s| match s.task {
                    t if t == info.from => Some(&s.sent[info.output_index]),
                    t if t == info.to => Some(&s.received[info.input_index]),
                    _ => None,
                })
                .collect();
            let (sender, receiver) = (&tasks[info.from.index()], &tasks[info.to.index()]);
            let next = log.next_seq;
            let live = |seq: u64| {
                let sent = sender.sent_before[info.output_index].contains(seq)
                    || (sender.out_from[info.output_index]..next).contains(&seq);
                let received = receiver.received_before[info.input_index].contains(seq)
                    || (receiver.in_from[info.input_index]..receiver.in_pos[info.input_index]).contains(&seq);
                [sent, received]
            };
            // A quick test that decides most records: every set holds the numbers below `held`,
            // and the running tasks hold the record too (so all hold it: not wanted).
            let held = sets.iter().map(|s| s.prefix_end()).min().unwrap_or(0);
            let (o, i) = (info.output_index, info.input_index);
            let (sent_prefix, sent_now) = (sender.sent_before[o].prefix_end(), sender.out_from[o]..next);
            let (received_prefix, received_now) =
                (receiver.received_before[i].prefix_end(), receiver.in_from[i]..receiver.in_pos[i]);
            let surely_unwanted = |seq: u64| {
                !empty_start
                    && seq < held
                    && (!running
                        || ((seq < sent_prefix || sent_now.contains(&seq))
                            && (seq < received_prefix || received_now.contains(&seq))))
            };
            // Wanted: some set holds it and some set does not (an empty start holds nothing).
            let wanted = |seq: u64| {
                if surely_unwanted(seq) {
                    return false;
                }
                // Every set, then the running tasks: does any hold it, do all? (None asked: no.)
                let (mut any, mut all) = (false, true);
                for s in &sets {
                    let h = s.contains(seq);
                    (any, all) = (any || h, all && h);
                }
                if running {
                    let [sent, received] = live(seq);
                    (any, all) = (any || sent || received, all && sent && received);
                }
                any && (!all || empty_start)
            };
            // The records at the front that are surely unwanted form a run of sequence numbers:
            // found by bisection, then the rest one by one.
            if let Some(&(front, _, _)) = log.history.front() {
                let end = match (empty_start, running) {
                    (true, _) => front,
                    (false, false) => covered_to(front, &[(0, held)]),
                    (false, true) => covered_to(front, &[(0, held)])
                        .min(covered_to(front, &[(0, sent_prefix), (sent_now.start, sent_now.end)]))
                        .min(covered_to(front, &[(0, received_prefix), (received_now.start, received_now.end)])),
                };
                let run = log.history.partition_point(|h| h.0 < end);
                log.history.drain(..run);
            }
            while log.history.front().is_some_and(|h| !wanted(h.0)) {
                log.history.pop_front();
            }
            // Per-task timers can leave the saves disagreeing for good (what a restore lost or
            // duplicated), with records no cut asks for behind.
            if timers {
                log.history.retain(|h| wanted(h.0));
            }
        }
    }
}

/// Cancels the records that appear on both sides (as a multiset, earliest first): a record
/// received but not sent, and the same record sent but not received, make no difference.
fn cancel(mut not_sent: Vec<RecordId>, mut not_received: Vec<RecordId>) -> (Vec<RecordId>, Vec<RecordId>) {
    let count = |v: &[RecordId]| {
        let mut m: SortedMap<RecordId, u32> = SortedMap::new();
        for r in v {
            *m.get_or_insert_with(*r, || 0) += 1;
        }
        m
    };
    let (a, b) = (count(&not_sent), count(&not_received));
    let mut both: SortedMap<RecordId, u32> = SortedMap::new();
    for (r, n) in a.iter() {
        if let Some(m) = b.get(r) {
            both.insert(*r, (*n).min(*m));
        }
    }
    let mut drop = both.clone();
    not_sent.retain(|r| match drop.get_mut(r) {
        Some(n) if *n > 0 => {
            *n -= 1;
            false
        }
        _ => true,
    });
    not_received.retain(|r| match both.get_mut(r) {
        Some(n) if *n > 0 => {
            *n -= 1;
            false
        }
        _ => true,
    });
    (not_sent, not_received)
}

/// The end of the run of numbers from `from` that the union of half-open `ranges` covers
/// without a gap (`from` itself when it does not cover `from`).
fn covered_to(from: u64, ranges: &[(u64, u64)]) -> u64 {
    let mut end = from;
    loop {
        let Some(&(_, b)) = ranges.iter().find(|&&(a, b)| a <= end && end < b) else { return end };
        end = b;
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::core::dataflow::builtin_jobs::{builtin, generated_input};
    use crate::engine::{OnRefusal, Scenario, ScriptAction, Settings, Sim, Strategy, TimerSpec};

    /// Against brute force: every start and every two ranges up to 8.
    #[test]
    fn covered_to_ends_the_run_the_ranges_cover() {
        for (a, b, c, d) in (0..9u64)
            .flat_map(|a| (0..9).flat_map(move |b| (0..9).flat_map(move |c| (0..9).map(move |d| (a, b, c, d)))))
        {
            let ranges = [(a, b), (c, d)];
            let covers = |n: u64| ranges.iter().any(|&(x, y)| x <= n && n < y);
            for from in 0..10 {
                let brute = (from..).find(|&n| !covers(n)).unwrap();
                assert_eq!(super::covered_to(from, &ranges), brute, "from {from} over {ranges:?}");
            }
        }
    }

    /// Plays `rounds` times: 300 scheduler steps, a crash, a restore; returns the most records
    /// any channel's log kept at any point.
    fn most_kept(mut sim: Sim, rounds: usize) -> usize {
        let mut most = 0;
        for _ in 0..rounds {
            for _ in 0..300 {
                sim.play_line(&ScriptAction::Auto(1), 1, OnRefusal::Stop, &mut |_, _| {}).unwrap();
                most = most.max(sim.wire.iter().map(|w| w.history.len()).max().unwrap_or(0));
            }
            for l in [ScriptAction::Crash, ScriptAction::Restore] {
                sim.play_line(&l, 1, OnRefusal::Stop, &mut |_, _| {}).unwrap();
            }
        }
        most
    }

    fn sim(strategy: Strategy, per_partition: usize) -> Sim {
        let mut s = Settings::new(strategy);
        if strategy == Strategy::Timers {
            for (name, phase) in [("Source", 0), ("Map", 7), ("Count", 13)] {
                s.timers.insert(name.to_string(), TimerSpec { phase, period: 40 });
            }
        } else {
            s.checkpoint_interval = Some(40);
        }
        let mut sc = Scenario::builtin("line", s, 3);
        sc.input = Some(generated_input(&builtin("line").unwrap().spec, per_partition));
        sc.sim().unwrap()
    }

    /// What the cut check keeps of the wire stays within what the saves disagree on, across
    /// restores: with checkpoints it does not grow with the run. With per-task timers a restore
    /// can leave the saves disagreeing for good (records it lost or duplicated stay in transit or
    /// orphans in every later cut, as they stay lost or duplicated), so it grows only by those.
    #[test]
    fn the_wire_log_keeps_only_what_a_cut_can_ask_for() {
        for strategy in [Strategy::Aligned, Strategy::Unaligned, Strategy::AtLeastOnce] {
            let kept = most_kept(sim(strategy, 6000), 16);
            assert!(kept < 150, "{strategy:?} kept {kept}");
        }
        let kept = most_kept(sim(Strategy::Timers, 6000), 8);
        assert!(kept < 200, "timers kept {kept}");
    }
}
