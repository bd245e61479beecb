//! Sources read a replayable log by offset, as a Flink Kafka source reads a partition: the offset
//! is the source's whole state, so a restore rewinds to the saved offset and reads again. The log
//! itself lives outside the job (in the job graph here) and survives every crash.
//!
//! A socket (`source: socket`, after Flink's `SocketTextStreamFunction`; the mechanisms that read
//! one cite their own system's words for it) cannot read again: each record arrives at its tick
//! whether or not anyone listens, and a source that comes back resumes at what arrives from then
//! on.

use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::record::Record;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::TaskId;
use crate::engine::core::sim::Sim;
use crate::engine::settings::SourceKind;

impl Sim {
    /// The offset the source reads next.
    pub fn source_offset(&self, t: TaskId) -> u32 {
        match self.live.tasks[t.index()].state {
            OpState::Source { next_offset } => next_offset,
            _ => 0,
        }
    }

    /// Where each stopped source would read next if the job were restored now (never where it
    /// stopped: the restore rewinds it to what its mechanism saved), indexed by task; None for a
    /// running task, a task that is not a source, or when a restore is refused now. The canvas
    /// shows it on a stopped source's log. The restore is tried on a copy of the run, so the
    /// answer is the mechanism's own, whatever it saved.
    pub fn offsets_after_restore(&self) -> Vec<Option<u32>> {
        let stopped = |t: TaskId| {
            self.graph.task(t).kind == crate::engine::OperatorKind::Source
                && self.live.tasks[t.index()].status != crate::engine::TaskStatus::Running
        };
        let tasks = (0..self.graph.tasks.len()).map(|t| TaskId(t as u16));
        let mut after = None;
        if tasks.clone().any(stopped) && self.check(Action::Restore).is_ok() {
            let mut trial = self.clone();
            if trial.step(Action::Restore).is_ok() {
                after = Some(trial);
            }
        }
        tasks.map(|t| if stopped(t) { after.as_ref().map(|s| s.source_offset(t)) } else { None }).collect()
    }

    /// The next offset of the source's log, if it has not read the whole log.
    pub fn next_in_log(&self, t: TaskId) -> Option<u32> {
        let off = self.source_offset(t);
        let log = &self.graph.task(t).log;
        ((off as usize) < log.len() && self.arrived(log[off as usize])).then_some(off)
    }

    /// Has the record arrived? On a socket, at its tick; a replayable log holds every record.
    pub(crate) fn arrived(&self, r: crate::engine::core::ids::RecordId) -> bool {
        self.settings.source == SourceKind::ReplayableLog || self.graph.record(r).at <= self.tick
    }

    /// The tick the socket's next record arrives, while it has not yet.
    pub fn socket_waits(&self, t: TaskId) -> Option<u64> {
        let log = &self.graph.task(t).log;
        let r = *log.get(self.source_offset(t) as usize)?;
        (!self.arrived(r)).then(|| self.graph.record(r).at)
    }

    /// A source on a socket comes back during this step: it cannot read again what it had read,
    /// nor what arrived before this step while no one listened (the dead connection's buffer
    /// included); it resumes at the first record arriving from now on.
    pub(crate) fn socket_reconnect(&mut self, t: TaskId, out: &mut Vec<Event>) {
        if self.settings.source != SourceKind::Socket {
            return;
        }
        let from = self.source_offset(t);
        let log = &self.graph.task(t).log;
        let mut to = from.max(self.read_high_water[t.index()]);
        while (to as usize) < log.len() && self.graph.record(log[to as usize]).at < self.tick {
            to += 1;
        }
        if to != from {
            if let OpState::Source { next_offset } = &mut self.live.tasks[t.index()].state {
                *next_offset = to;
            }
            out.push(Event::SocketLost { task: t, from, to });
        }
    }

    /// What a read does by default (`OwnSources::on_read`): it is reported, and the record goes
    /// out on the source's outputs.
    pub fn read_and_emit(&mut self, t: TaskId, offset: u32, rec: Record, out: &mut Vec<Event>) {
        out.push(Event::Read { task: t, record: rec.id, offset, replayed: rec.replayed });
        self.emit(t, rec);
    }

    /// The fast form of `check(Read)` for a source of a running job.
    pub(crate) fn readable(&self, t: TaskId) -> bool {
        self.may_read(t) && self.next_read(t).is_some()
    }

    /// [`Sim::readable`] but for the mechanism's next offset (which the read itself asks for).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn may_read(&self, t: TaskId) -> bool {
        self.live.stopping.is_none()
            && self.task_up(t)
            && self.free(t)
            && (!self.hooks.checks_actions || self.mechanism().check(self, Action::Read { task: t }).is_ok())
            && self.has_room(t)
    }

    /// Reads the record at `offset` (the mechanism says which: the next one of the log, or one a
    /// spout replays; `Sim::apply` asks it) and emits it.
    pub(crate) fn read_at(&mut self, t: TaskId, offset: u32, out: &mut Vec<Event>) {
        let g = self.graph.clone();
        let info = g.task(t);
        let OpState::Source { next_offset } = &mut self.live.tasks[t.index()].state else { unreachable!() };
        let fresh = offset == *next_offset;
        if fresh {
            *next_offset += 1;
        }
        let id = info.log[offset as usize];
        let replayed = offset < self.read_high_water[t.index()];
        self.read_high_water[t.index()] = self.read_high_water[t.index()].max(offset + 1);
        let rec = Record { id, value: g.record(id).value, replayed };
        self.took(t);
        self.source_read(t, offset, rec, out);
        if fresh && offset as usize + 1 == info.log.len() {
            out.push(Event::SourceExhausted { task: t });
        }
    }
}
