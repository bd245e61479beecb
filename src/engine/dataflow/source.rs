//! Sources read a replayable log by offset, as a Flink Kafka source reads a partition: the offset
//! is the source's whole state, so a restore rewinds to the saved offset and reads again. The log
//! itself lives outside the job (in the job graph here) and survives every crash.

use super::record::Record;
use super::state::OpState;
use crate::engine::action::Event;
use crate::engine::ids::TaskId;
use crate::engine::sim::Sim;

impl Sim {
    /// The offset the source reads next.
    pub fn source_offset(&self, t: TaskId) -> u32 {
        match self.live.tasks[t.index()].state {
            OpState::Source { next_offset } => next_offset,
            _ => 0,
        }
    }

    /// The next offset of the source's log, if it has not read the whole log.
    pub fn next_in_log(&self, t: TaskId) -> Option<u32> {
        let off = self.source_offset(t);
        ((off as usize) < self.graph.task(t).log.len()).then_some(off)
    }

    /// The fast form of `check(Read)` for a source of a running job.
    pub(crate) fn readable(&self, t: TaskId) -> bool {
        self.live.coordinator.stop_the_world.is_none()
            && self.task_up(t)
            && self.mechanism().next_read(self, t).is_some()
            && self.has_room(t)
    }

    /// Reads the next record (the mechanism says which offset: the next one of the log, or one a
    /// spout replays) and emits it.
    pub(crate) fn read(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let g = self.graph.clone();
        let info = g.task(t);
        let offset = self.mechanism().next_read(self, t).expect("checked");
        let OpState::Source { next_offset } = &mut self.live.tasks[t.index()].state else { unreachable!() };
        let fresh = offset == *next_offset;
        if fresh {
            *next_offset += 1;
        }
        let id = info.log[offset as usize];
        let replayed = offset < self.read_high_water[t.index()];
        self.read_high_water[t.index()] = self.read_high_water[t.index()].max(offset + 1);
        out.push(Event::Read { task: t, record: id, offset, replayed });
        let rec = Record { id, value: g.record(id).value, replayed };
        if self.tracks_tuples {
            self.emitted.clear();
            self.emit(t, rec);
            let children = std::mem::take(&mut self.emitted);
            if let Some(s) = self.live.storm.as_mut() {
                s.spouts[t.index()].retry.remove(&offset);
            }
            self.mechanism().on_read(self, t, offset, id, &children, out);
            self.emitted = children;
        } else {
            self.emit(t, rec);
        }
        if fresh && offset as usize + 1 == info.log.len() {
            out.push(Event::SourceExhausted { task: t });
        }
    }
}
