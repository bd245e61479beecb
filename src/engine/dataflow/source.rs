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

    /// The fast form of `check(Read)` for a source of a running job.
    pub(crate) fn readable(&self, t: TaskId) -> bool {
        self.live.coordinator.stop_the_world.is_none()
            && self.task_up(t)
            && (self.source_offset(t) as usize) < self.graph.task(t).log.len()
            && self.has_room(t)
    }

    /// Reads the next record from the log and emits it.
    pub(crate) fn read(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let g = self.graph.clone();
        let info = g.task(t);
        let OpState::Source { next_offset } = &mut self.live.tasks[t.index()].state else { unreachable!() };
        let offset = *next_offset;
        *next_offset += 1;
        let id = info.log[offset as usize];
        let replayed = offset < self.read_high_water[t.index()];
        self.read_high_water[t.index()] = self.read_high_water[t.index()].max(offset + 1);
        out.push(Event::Read { task: t, record: id, offset, replayed });
        self.emit(t, Record { id, value: g.record(id).value, replayed });
        if offset as usize + 1 == info.log.len() {
            out.push(Event::SourceExhausted { task: t });
        }
    }
}
