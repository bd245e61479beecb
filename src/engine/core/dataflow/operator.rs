//! Operators: what a task does with a record. Map and filter are stateless; keyed count and sum
//! keep, per key, the value and the records that contributed to it (so the ledger can tell which
//! source records the state reflects). Each result goes out on the task's outputs by each edge's
//! partitioning: forward, by key group (keyBy), rebalance (round robin) or broadcast, as Flink's
//! `ChannelSelector`s do.

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::job_graph::{JobGraph, OperatorKind, Partitioning};
use crate::engine::core::dataflow::record::{Item, Record};
use crate::engine::core::dataflow::state::{KeyedEntry, OpState};
use crate::engine::core::ids::{ChannelId, TaskId};
use crate::engine::core::seam::Rerun;
use crate::engine::core::sim::Sim;

impl Sim {
    /// Sends a record on the task's outputs by each edge's partitioning; returns how many channels.
    pub(crate) fn emit(&mut self, t: TaskId, rec: Record) -> u16 {
        let g = self.graph.clone();
        let info = g.task(t);
        let mut n = 0;
        for group in &info.outputs {
            let k = group.channels.len();
            let mut send = |sim: &mut Sim, c: ChannelId| {
                let seq = sim.wire[c.index()].take_seq();
                sim.live.channels[c.index()].queue.push_back(Item::Record { seq, rec });
                if sim.hooks.follows_records {
                    sim.emitted.push((c, seq));
                }
                n += 1;
            };
            match group.partitioning {
                Partitioning::Forward => send(self, group.channels[0]),
                Partitioning::Hash => send(self, by_key(&g, &group.channels, rec)),
                Partitioning::Rebalance => {
                    let rr = &mut self.live.tasks[t.index()].rr;
                    let c = group.channels[*rr as usize % k];
                    *rr = rr.wrapping_add(1);
                    send(self, c)
                }
                Partitioning::Broadcast => {
                    for &c in &group.channels {
                        send(self, c)
                    }
                }
            }
        }
        n
    }

    /// The operator processes one record that arrived on channel `c`: the record takes effect at
    /// the task (noted in the observer's history, `crate::engine::core::history`).
    pub(crate) fn process(&mut self, t: TaskId, c: ChannelId, rec: Record, out: &mut Vec<Event>) {
        // Work run again for its output only (`Rerun::OutputOnly`): the state already holds the
        // record, and no task takes it in again.
        let kept = self.hooks.reruns && self.rerun() == Rerun::OutputOnly;
        if !kept {
            self.effects.note(self.tick, rec.id, c);
        }
        let g = self.graph.clone();
        let info = g.task(t);
        let key = g.record(rec.id).key;
        let (value, emitted, filtered) = match &info.kind {
            OperatorKind::Map => (None, self.emit(t, rec), false),
            OperatorKind::Filter { .. } => {
                if info.keep.contains(&key) {
                    (None, self.emit(t, rec), false)
                } else {
                    (None, 0, true)
                }
            }
            OperatorKind::Count | OperatorKind::Sum => {
                let OpState::Keyed { entries } = &mut self.live.tasks[t.index()].state else { unreachable!() };
                let e = entries.get_or_insert_with(key, KeyedEntry::default);
                if !kept {
                    e.contributors.push(rec.id);
                    e.sum += rec.value;
                }
                let v = if info.kind == OperatorKind::Count { e.contributors.len() as i64 } else { e.sum };
                (Some(v), self.emit(t, Record { value: v, ..rec }), false)
            }
            OperatorKind::Sink => {
                self.sink_write(t, rec, out);
                (None, 0, false)
            }
            OperatorKind::Source => unreachable!("sources have no inputs"),
        };
        // The sink's own event comes first; keep "processed" right after the delivery.
        let processed = Event::Processed { task: t, channel: c, record: rec.id, value, emitted, filtered };
        match info.kind {
            OperatorKind::Sink => out.insert(out.len().saturating_sub(1), processed),
            _ => out.push(processed),
        }
    }
}

/// The channel of `channels` (one per subtask of the next operator) that the record's key goes
/// to: its key group's subtask (`KeyGroupStreamPartitioner`). Apart from `Sim::emit`, whose
/// common case, forward, it would otherwise slow down.
#[cfg_attr(not(target_arch = "wasm32"), inline(never))]
fn by_key(g: &JobGraph, channels: &[ChannelId], rec: Record) -> ChannelId {
    let to = g.task(g.channel(channels[0]).to).operator;
    let max = g.max_parallelism[to.index()];
    let key = g.key_name(g.record(rec.id).key);
    channels[crate::engine::core::dataflow::key_groups::subtask_for_key(key, max, channels.len() as u16) as usize]
}
