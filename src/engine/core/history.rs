//! The history that counts: what took effect at each task, and what a restore takes back. An
//! observer, like the channel logs of `dataflow::channel`: the job never reads it; the ledger
//! judges completeness and order from it.
//!
//! Every time a task's operator processes a record (a map passes it on, a filter drops it, a count
//! counts it, a sink writes it), the record takes effect at that task, on the input channel it
//! came from: one [`Effect`] (the step, the record, the channel; the record names its source
//! partition and offset) in one append-only log for the whole run. Each task also keeps the
//! ranges of steps whose effects still count for it. A restore rolls them back with the state, as
//! the rollback-recovery literature rolls a process back to its checkpoint:
//! - a task restored from a snapshot taken during step s keeps the effects of steps up to s and
//!   loses the later ones. A snapshot taken during step s reflects every effect of that step: a
//!   step processes at most one item, and whatever snapshots in it (a barrier's handler, a timer,
//!   the coordinator's trigger, the stop-the-world drain) runs after that item, never before it.
//!   This holds whoever saved the task: each task's own timer save, a checkpoint, a snapshot taken
//!   unaligned: the records such a task goes on processing after its snapshot are the ones stored
//!   as in-flight data, and their replay after the restore is a new effect;
//! - a task that restarts with nothing to restore (no snapshot, or a mechanism that keeps no
//!   state) loses all of it;
//! - a task that kept running (region failover) keeps all of it.
//!
//! From then on the restarted task's new effects count again. What counts for a task is then the
//! history of the state it holds now, across every restore.
//!
//! The log is shared between copies of a run (the timeline's keyframes): full chunks are
//! reference-counted and never change, so copying a run copies pointers and a short tail.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::external_system::Row;
use crate::engine::core::dataflow::job_graph::{JobGraph, OperatorKind};
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::stable_sort::{sort_stable_by, sort_stable_by_key};

/// A record took effect at the consumer of `channel` during `step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    pub step: u64,
    pub record: RecordId,
    pub channel: ChannelId,
}

/// Effects per full chunk of the shared log.
const CHUNK: usize = 128;

/// Every effect of the run in step order, and per task the steps whose effects still count.
#[derive(Clone, Debug, Default)]
pub struct EffectLog {
    chunks: Vec<Rc<[Effect]>>,
    tail: Vec<Effect>,
    /// Per task: ascending, disjoint, inclusive step ranges whose effects count.
    counted: Vec<Vec<(u64, u64)>>,
    /// Per task, during a restore: the step of the snapshot being put back.
    restoring: Vec<Option<u64>>,
}

impl EffectLog {
    /// A log for `tasks` tasks, every step counting.
    pub fn new(tasks: usize) -> EffectLog {
        EffectLog {
            chunks: Vec::new(),
            tail: Vec::with_capacity(CHUNK),
            counted: vec![vec![(0, u64::MAX)]; tasks],
            restoring: vec![None; tasks],
        }
    }

    /// Record `record` took effect at the consumer of `channel` during `step` (steps never go
    /// back).
    #[inline]
    pub fn note(&mut self, step: u64, record: RecordId, channel: ChannelId) {
        self.tail.push(Effect { step, record, channel });
        if self.tail.len() == CHUNK {
            let full = std::mem::replace(&mut self.tail, Vec::with_capacity(CHUNK));
            self.chunks.push(Rc::from(full));
        }
    }

    /// Every effect, in step order, counted or not.
    pub fn iter(&self) -> impl Iterator<Item = &Effect> + '_ {
        self.chunks.iter().flat_map(|c| c.iter()).chain(self.tail.iter())
    }

    pub fn len(&self) -> usize {
        self.chunks.len() * CHUNK + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The restore in progress puts task `t` back to a snapshot taken during step `step`.
    pub fn restoring_from(&mut self, t: TaskId, step: u64) {
        self.restoring[t.index()] = Some(step);
    }

    /// Task `t` restarted during step `now`: it keeps the effects its restored snapshot reflects
    /// (none without one), and counts its own from now on.
    pub fn restarted(&mut self, t: TaskId, now: u64) {
        let kept = &mut self.counted[t.index()];
        match self.restoring[t.index()].take() {
            Some(s) => {
                kept.retain(|r| r.0 <= s);
                if let Some(last) = kept.last_mut() {
                    last.1 = last.1.min(s);
                }
            }
            None => kept.clear(),
        }
        kept.push((now, u64::MAX));
    }

    /// The restore is done: snapshots put back for tasks that kept running don't apply.
    pub fn restore_done(&mut self) {
        self.restoring.iter_mut().for_each(|r| *r = None);
    }

    /// The step ranges whose effects count for task `t`.
    pub fn counted(&self, t: TaskId) -> &[(u64, u64)] {
        &self.counted[t.index()]
    }

    /// Per channel, the records that took effect at its consumer and still count, in order.
    pub fn counted_by_channel(&self, g: &JobGraph) -> Vec<Vec<RecordId>> {
        self.counted_effects_by_channel(g).into_iter().map(|v| v.into_iter().map(|e| e.record).collect()).collect()
    }

    /// Per channel, the effects at its consumer that still count, in step order.
    pub fn counted_effects_by_channel(&self, g: &JobGraph) -> Vec<Vec<Effect>> {
        let mut by_channel = vec![Vec::new(); g.channels.len()];
        // Effects come in step order and each task's ranges ascend: one cursor per task.
        let mut cursor = vec![0usize; self.counted.len()];
        for e in self.iter() {
            let t = g.channel(e.channel).to.index();
            let ranges = &self.counted[t];
            let i = &mut cursor[t];
            while *i < ranges.len() && ranges[*i].1 < e.step {
                *i += 1;
            }
            if ranges.get(*i).is_some_and(|r| r.0 <= e.step) {
                by_channel[e.channel.index()].push(*e);
            }
        }
        by_channel
    }

    /// Per channel into a sink, the rows an outside reader sees (`visible`) that the sink wrote
    /// from it, in the order they were written. A row is the effect of the sink's write: same
    /// sink, record and step.
    pub fn seen_by_channel(&self, g: &JobGraph, visible: &[Row]) -> Vec<Vec<RecordId>> {
        self.seen_effects_by_channel(g, visible)
            .into_iter()
            .map(|v| v.into_iter().map(|e| e.record).collect())
            .collect()
    }

    /// [`EffectLog::seen_by_channel`], with the sink's write (the effect) behind each row.
    pub fn seen_effects_by_channel(&self, g: &JobGraph, visible: &[Row]) -> Vec<Vec<Effect>> {
        let mut seen: Vec<(u64, TaskId, RecordId)> = visible.iter().map(|r| (r.tick, r.sink, r.record)).collect();
        // Equal rows are the same row, so the one stable sort gives `sort_unstable`'s order.
        sort_stable_by(&mut seen, |a, b| a.cmp(b));
        let mut by_channel = vec![Vec::new(); g.channels.len()];
        if seen.is_empty() {
            return by_channel;
        }
        for e in self.iter() {
            let sink = g.channel(e.channel).to;
            if g.task(sink).kind != OperatorKind::Sink {
                continue;
            }
            let key = (e.step, sink, e.record);
            let from = seen.partition_point(|x| *x < key);
            let n = seen[from..].iter().take_while(|x| **x == key).count();
            for _ in 0..n {
                by_channel[e.channel.index()].push(*e);
            }
        }
        by_channel
    }
}

/// Per channel, how often each record took effect at its consumer in the failure-free run:
/// sorted (record, times) pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceCounts(pub Vec<Vec<(RecordId, u32)>>);

impl PlaceCounts {
    /// The counts of a log in which every effect counts (the failure-free run's).
    pub fn of(log: &EffectLog, g: &JobGraph) -> PlaceCounts {
        PlaceCounts(log.counted_by_channel(g).into_iter().map(tally).collect())
    }
}

/// Sorted (record, times) pairs of a list of records.
fn tally(mut records: Vec<RecordId>) -> Vec<(RecordId, u32)> {
    sort_stable_by(&mut records, |a, b| a.cmp(b));
    let mut out: Vec<(RecordId, u32)> = Vec::new();
    for r in records {
        match out.last_mut() {
            Some((last, n)) if *last == r => *n += 1,
            _ => out.push((r, 1)),
        }
    }
    out
}

/// Where a record fell short: the input channel of the task it reached (the task is the channel's
/// consumer) and, for order at a sink, whether it is what an outside reader sees of the rows the
/// sink wrote from that input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Place {
    pub channel: ChannelId,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
}

/// Per record, where it is incomplete and where it is out of order (each place once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    pub incomplete: Vec<Vec<Place>>,
    pub out_of_order: Vec<Vec<Place>>,
}

/// Judges the history that counts (`counted`, per channel) against the failure-free run
/// (`expected`), and the rows a reader sees (`seen`, per channel into a sink):
/// - incomplete where a record took effect fewer times than in the failure-free run;
/// - out of order where, among the records of one source partition, it took effect after a record
///   of the same or a later offset (a replay after newer ones, a second count of the same record).
///   At a task other than a sink this is judged on the history that counts; at a sink, on the rows
///   a reader sees. Only where the partition's records come along a single path of the DAG
///   ([`single_path`]): records that come along several paths interleave with no source order.
pub fn judge(g: &JobGraph, counted: &[Vec<RecordId>], seen: &[Vec<RecordId>], expected: &PlaceCounts) -> Findings {
    let n = g.records.len();
    let mut f = Findings { incomplete: vec![Vec::new(); n], out_of_order: vec![Vec::new(); n] };
    // Completeness is judged per edge of the job (every channel between the subtasks of its two
    // operators at once), not per channel: after a restore a rebalance edge starts its round
    // robin afresh (Flink's RebalancePartitioner picks its first channel at random), so a
    // replayed record may reach another subtask of the same operator than in the failure-free
    // run, and it has still taken its path through the DAG. An incomplete record is placed on
    // the channel the failure-free run took.
    let edge = edge_of_channel(g);
    for (c0, _) in edge.iter().enumerate().filter(|(c, e)| **e == *c) {
        let lanes: Vec<usize> = (0..edge.len()).filter(|&c| edge[c] == c0).collect();
        let want = tally_counts(lanes.iter().flat_map(|&c| expected.0[c].iter().copied()));
        if want.is_empty() {
            continue;
        }
        let have = tally(lanes.iter().flat_map(|&c| counted[c].iter().copied()).collect());
        let mut j = 0;
        for &(r, times) in &want {
            while j < have.len() && have[j].0 < r {
                j += 1;
            }
            let got = have.get(j).filter(|h| h.0 == r).map_or(0, |h| h.1);
            if got < times {
                let c = lanes
                    .iter()
                    .copied()
                    .find(|&c| expected.0[c].binary_search_by_key(&r, |x| x.0).is_ok())
                    .unwrap_or(c0);
                f.incomplete[r.index()].push(Place { channel: ChannelId(c as u16), external: false });
            }
        }
    }
    let single = single_path(g);
    let mut newest: Vec<Option<u32>> = vec![None; g.tasks.len()];
    for (c, info) in g.channels.iter().enumerate() {
        let external = g.task(info.to).kind == OperatorKind::Sink;
        let history = if external { &seen[c] } else { &counted[c] };
        newest.iter_mut().for_each(|x| *x = None);
        for &r in history {
            let rec = g.record(r);
            if !single[c][rec.source.index()] {
                continue;
            }
            let max = &mut newest[rec.source.index()];
            if max.is_some_and(|m| rec.offset <= m) {
                let place = Place { channel: ChannelId(c as u16), external };
                let places = &mut f.out_of_order[r.index()];
                if !places.contains(&place) {
                    places.push(place);
                }
            }
            *max = (*max).max(Some(rec.offset));
        }
    }
    f
}

/// Per channel, what completeness wants on the edge of the job it belongs to: (record, times)
/// pairs summed over the edge's channels, sorted by record, as [`judge`] counts them.
pub fn edge_wants(g: &JobGraph, expected: &PlaceCounts) -> Vec<Vec<(RecordId, u32)>> {
    let edge = edge_of_channel(g);
    (0..g.channels.len())
        .map(|c| {
            let lanes = (0..edge.len()).filter(|&d| edge[d] == edge[c]);
            tally_counts(lanes.flat_map(|d| expected.0[d].iter().copied()))
        })
        .collect()
}

/// Per channel: the first channel of the same edge of the job (between the same two operators).
fn edge_of_channel(g: &JobGraph) -> Vec<usize> {
    let op = |t: TaskId| g.task(t).operator;
    (0..g.channels.len())
        .map(|c| {
            let info = &g.channels[c];
            (0..=c)
                .find(|&d| op(g.channels[d].from) == op(info.from) && op(g.channels[d].to) == op(info.to))
                .unwrap_or(c)
        })
        .collect()
}

/// [`tally`] of counts: the same record's counts summed, by record.
fn tally_counts(counts: impl Iterator<Item = (RecordId, u32)>) -> Vec<(RecordId, u32)> {
    let mut v: Vec<(RecordId, u32)> = counts.collect();
    sort_stable_by_key(&mut v, |x| x.0);
    let mut out: Vec<(RecordId, u32)> = Vec::new();
    for (r, n) in v {
        match out.last_mut() {
            Some((last, m)) if *last == r => *m += n,
            _ => out.push((r, n)),
        }
    }
    out
}

/// Per channel, per task: do the records a source task reads reach the channel along exactly
/// one path of the DAG? Then each of its records passes the channel at most once, in the order
/// read, when nothing fails.
pub fn single_path(g: &JobGraph) -> Vec<Vec<bool>> {
    // paths[t][s]: paths from source s to task t, counted up to 2.
    let mut paths = vec![vec![0u8; g.tasks.len()]; g.tasks.len()];
    let mut into = vec![vec![0u8; g.tasks.len()]; g.channels.len()];
    for &t in &g.topo_order {
        let info = g.task(t);
        if info.kind == OperatorKind::Source {
            paths[t.index()][t.index()] = 1;
        }
        for c in &info.inputs {
            into[c.index()] = paths[g.channel(*c).from.index()].clone();
            for (s, n) in into[c.index()].iter().enumerate() {
                paths[t.index()][s] = (paths[t.index()][s] + n).min(2);
            }
        }
    }
    into.into_iter().map(|v| v.into_iter().map(|n| n == 1).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin;

    fn graph(job: &str) -> JobGraph {
        let b = builtin(job).unwrap();
        JobGraph::build(&b.spec, &b.input).unwrap()
    }

    #[test]
    fn a_restore_keeps_what_the_snapshot_reflects_and_a_fresh_start_nothing() {
        let mut log = EffectLog::new(2);
        log.restoring_from(TaskId(0), 5);
        log.restarted(TaskId(0), 9);
        log.restarted(TaskId(1), 9);
        assert_eq!(log.counted(TaskId(0)), [(0, 5), (9, u64::MAX)]);
        assert_eq!(log.counted(TaskId(1)), [(9, u64::MAX)]);
        // A second restore from a save taken after the first restore keeps both ranges' effects.
        log.restoring_from(TaskId(0), 12);
        log.restarted(TaskId(0), 20);
        assert_eq!(log.counted(TaskId(0)), [(0, 5), (9, 12), (20, u64::MAX)]);
        // From one taken before it, only the first.
        log.restoring_from(TaskId(0), 3);
        log.restarted(TaskId(0), 30);
        assert_eq!(log.counted(TaskId(0)), [(0, 3), (30, u64::MAX)]);
        // A snapshot put back for a task that kept running does not apply.
        log.restoring_from(TaskId(1), 1);
        log.restore_done();
        assert_eq!(log.counted(TaskId(1)), [(9, u64::MAX)]);
    }

    #[test]
    fn counted_effects_follow_the_ranges_and_copies_share_chunks() {
        let g = graph("line");
        let (sm, mc) = (ChannelId(0), ChannelId(1));
        let mut log = EffectLog::new(g.tasks.len());
        for step in 0..300u64 {
            log.note(step, RecordId((step % 8) as u32), if step % 2 == 0 { sm } else { mc });
        }
        let copy = log.clone();
        assert_eq!(copy.len(), 300);
        assert!(Rc::ptr_eq(&copy.chunks[0], &log.chunks[0]));
        // Count (the consumer of Map->Count) restored from step 9, restarted at 300.
        log.restoring_from(TaskId(2), 9);
        log.restarted(TaskId(2), 300);
        let by = log.counted_by_channel(&g);
        assert_eq!(by[sm.index()].len(), 150);
        assert_eq!(by[mc.index()], [1, 3, 5, 7, 1].map(RecordId));
    }

    #[test]
    fn order_is_judged_only_along_a_single_path() {
        // diamond: each of D's inputs has one path from A.
        let g = graph("diamond");
        assert!(single_path(&g).iter().all(|c| c[0]));
        // keyed-shuffle: Sink's inputs each carry one path from each source partition.
        let g = graph("keyed-shuffle");
        let s = single_path(&g);
        for (c, info) in g.channels.iter().enumerate() {
            for src in g.sources() {
                let from_src = info.from == src
                    || g.channel_by_name(&format!("{}->{}", g.task(src).name, g.task(info.from).name)).is_some();
                assert_eq!(s[c][src.index()], from_src, "{}", info.name);
            }
        }
    }
}
