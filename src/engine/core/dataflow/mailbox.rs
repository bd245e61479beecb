//! A task's mailbox: it takes one item at a time from the head of one of its input channels, as a
//! Flink task's mailbox thread does. A record goes to the operator (after the mechanism has seen
//! it), a barrier or a cancel marker to the fault-tolerance mechanism. Here too: how a task
//! starts (fresh state, reading each input from the next record sent on it) and backpressure (a
//! task may emit only while each output channel has room).

use crate::engine::core::sorted_vec::{SortedMap, SortedSet};

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::channel::{Fate, SeqSet};
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::record::Item;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::dataflow::task::{TaskRuntime, TaskStatus};
use crate::engine::core::error::ActionError;
use crate::engine::core::ids::{ChannelId, TaskId};
use crate::engine::core::own_state::Slot;
use crate::engine::core::sim::Sim;
use crate::engine::settings::SinkMode;

impl Sim {
    /// A task as it starts: initial state, reading each input from the next record sent on it.
    pub(crate) fn fresh_task(&self, t: TaskId) -> TaskRuntime {
        let info = self.graph.task(t);
        let in_pos: Vec<u64> = info.inputs.iter().map(|c| self.wire[c.index()].next_seq).collect();
        TaskRuntime {
            status: TaskStatus::Running,
            state: self.initial_state(t),
            received_before: vec![SeqSet::default(); in_pos.len()],
            in_from: in_pos.clone(),
            in_pos,
            sent_before: vec![SeqSet::default(); info.out_channels.len()],
            out_from: info.out_channels.iter().map(|c| self.wire[c.index()].next_seq).collect(),
            mechanism: Slot::default(),
            last_checkpoint: None,
            aborted: SortedSet::new(),
            rr: 0,
            busy_until: 0,
            time: crate::engine::core::dataflow::task_time::TaskTime::new(self.flow.ceiling),
        }
    }

    pub(crate) fn initial_state(&self, t: TaskId) -> OpState {
        match self.graph.task(t).kind {
            OperatorKind::Source => OpState::Source { next_offset: 0 },
            OperatorKind::Count | OperatorKind::Sum => OpState::Keyed { entries: SortedMap::new() },
            OperatorKind::Sink
                if matches!(
                    self.settings.sink,
                    SinkMode::TwoPhaseCommit | SinkMode::Transactional | SinkMode::Kafka
                ) =>
            {
                OpState::Sink { open: None, pending: vec![] }
            }
            _ => OpState::Stateless,
        }
    }

    /// Backpressure: a task may emit only while each of its output channels has room.
    pub(crate) fn room(&self, t: TaskId) -> Result<(), ActionError> {
        for c in &self.graph.task(t).out_channels {
            if let Some(cap) = self.channel_buffers(*c) {
                if self.live.channels[c.index()].queue.len() >= cap as usize {
                    return Err(ActionError::Backpressured {
                        task: self.graph.task(t).name.clone(),
                        channel: self.graph.channel(*c).name.clone(),
                        capacity: cap,
                    });
                }
            }
        }
        Ok(())
    }

    /// The fast, allocation-free form of [`Sim::room`].
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn has_room(&self, t: TaskId) -> bool {
        if !self.flow.bounded {
            return true;
        }
        match self.flow.debloat_target {
            None => self
                .graph
                .task(t)
                .out_channels
                .iter()
                .all(|c| self.live.channels[c.index()].queue.len() < self.flow.caps[c.index()] as usize),
            Some(_) => self.graph.task(t).out_channels.iter().all(|c| {
                self.channel_buffers(*c).is_none_or(|cap| self.live.channels[c.index()].queue.len() < cap as usize)
            }),
        }
    }

    /// The fast, allocation-free form of `check(Deliver)` for a running job.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn deliverable(&self, c: ChannelId) -> bool {
        let ch = &self.live.channels[c.index()];
        match ch.queue.front() {
            None => false,
            Some(_) if ch.blocked => false,
            Some(_) if !self.free(self.graph.channel(c).to) => false,
            Some(Item::Record { .. }) => self.has_room(self.graph.channel(c).to),
            Some(_) => true,
        }
    }

    /// The consumer takes the head of channel `c`: a record goes to the operator (after the
    /// mechanism has seen it), a barrier or a cancel marker to the mechanism.
    pub(crate) fn deliver(&mut self, c: ChannelId, out: &mut Vec<Event>) {
        let g = self.graph.clone();
        let info = g.channel(c);
        let item = self.live.channels[c.index()].queue.pop_front().expect("checked non-empty");
        match item {
            Item::Record { seq, rec } => {
                self.took(info.to);
                self.live.tasks[info.to.index()].in_pos[info.input_index] = seq + 1;
                let admitted = !self.hooks.hears_records
                    || self.mechanism().barrier_handler().is_none_or(|b| b.on_record(self, c, seq, rec, out));
                self.wire[c.index()].retain(seq, rec, Fate::Delivered);
                if !admitted {
                    return;
                }
                if self.hooks.follows_records {
                    self.emitted.clear();
                    self.process(info.to, c, rec, out);
                    let children = std::mem::take(&mut self.emitted);
                    if let Some(s) = self.mechanism().own_sources() {
                        s.after_record(self, info.to, c, seq, rec.id, &children, out);
                    }
                    self.emitted = children;
                } else {
                    self.process(info.to, c, rec, out);
                }
            }
            Item::Barrier(b) => self.barrier_arrived(info.to, c, info.input_index, b, out),
            Item::Cancel(id) => self.cancel_arrived(info.to, c, info.input_index, id, out),
        }
    }
}
