//! The simulation: one deterministic run of a job. [`Sim::apply`] is the only way state changes;
//! it takes an [`Action`], checks that it is enabled, carries it out atomically (a task processes
//! one record or barrier at a time, as a Flink task's mailbox does), lets the logical clock tick
//! (timers, periodic triggers, timeouts) and reports [`Event`]s.
//!
//! The checkpoint algorithms follow Flink: the CheckpointCoordinator triggers the sources, barriers
//! flow with the data, a multi-input task aligns (SingleCheckpointBarrierHandler), tracks without
//! blocking (CheckpointBarrierTracker), or goes unaligned and records in-flight data
//! (Chandy-Lamport channel recording); every task acknowledges; full acknowledgement completes the
//! checkpoint, notifies the tasks (two-phase-commit sinks commit) and subsumes older ones.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::action::{AbortReason, Action, CrashScope, Event, RestoreFrom, SnapshotKind};
use super::error::{ActionError, ScenarioError};
use super::ids::{ChannelId, CheckpointId, RecordId, TaskId, TxnId};
use super::rng::Rng;
use super::settings::{RestartPolicy, Settings, SinkMode, Strategy, TimerSpec};
use super::state::*;
use super::topology::{JobGraph, OperatorKind, Partitioning};

/// What the failure-free run of the same input yields, per source record: how often it is
/// reflected in operator state and in the sinks' external output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub state: Vec<u32>,
    pub external: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Sim {
    pub graph: Rc<JobGraph>,
    pub settings: Rc<Settings>,
    pub seed: u64,
    timers: Rc<Vec<TimerSpec>>,
    pub expected: Rc<Expected>,
    /// Logical clock: one tick per applied action.
    pub tick: u64,
    rng: Rng,
    /// Why the job is down, if it is.
    pub down: Option<CrashScope>,
    pub jobmanager_up: bool,
    pub tasks: Vec<TaskRuntime>,
    pub channels: Vec<Channel>,
    pub coordinator: Coordinator,
    pub storage: CheckpointStorage,
    pub external: ExternalSystem,
    pub stats: CheckpointStats,
    /// Per source: one past the highest offset ever read (to mark re-reads as replays).
    pub read_high_water: Vec<u32>,
    scratch: Vec<Action>,
}

fn err<T>(e: ActionError) -> Result<T, ActionError> {
    Err(e)
}

impl Sim {
    pub fn new(graph: JobGraph, settings: Settings, seed: u64) -> Result<Sim, ScenarioError> {
        settings.validate(&graph)?;
        let graph = Rc::new(graph);
        let expected = Rc::new(Sim::reference_counts(&graph, settings.sink));
        Ok(Sim::with_expected(graph, settings, seed, expected))
    }

    fn with_expected(graph: Rc<JobGraph>, settings: Settings, seed: u64, expected: Rc<Expected>) -> Sim {
        let timers = graph.tasks.iter().map(|t| settings.timers.get(&t.name).copied().unwrap_or_default()).collect();
        let mut sim = Sim {
            tasks: Vec::new(),
            channels: vec![Channel { retain_from: u64::MAX, ..Channel::default() }; graph.channels.len()],
            read_high_water: vec![0; graph.tasks.len()],
            storage: CheckpointStorage { completed: vec![], saves: vec![vec![]; graph.tasks.len()] },
            coordinator: Coordinator { next_id: 1, ..Coordinator::default() },
            graph,
            settings: Rc::new(settings),
            seed,
            timers: Rc::new(timers),
            expected,
            tick: 0,
            rng: Rng::new(seed),
            down: None,
            jobmanager_up: true,
            external: ExternalSystem::default(),
            stats: CheckpointStats::default(),
            scratch: Vec::new(),
        };
        sim.tasks = (0..sim.graph.tasks.len()).map(|i| sim.fresh_task(TaskId(i as u16))).collect();
        sim
    }

    /// The failure-free run: no snapshots, no crashes, every record drained through. Its sink
    /// writes as the run's does, except that two-phase commit counts every write as committed
    /// (as the final checkpoint at the end of input would make it).
    fn reference_counts(graph: &Rc<JobGraph>, sink: SinkMode) -> Expected {
        let placeholder = Rc::new(Expected { state: vec![], external: vec![] });
        let sink = if sink == SinkMode::Upsert { SinkMode::Upsert } else { SinkMode::Append };
        let settings = Settings::new(Strategy::None).with_sink(sink);
        let mut sim = Sim::with_expected(graph.clone(), settings, 0, placeholder);
        let mut out = Vec::new();
        loop {
            out.clear();
            let next = (0..sim.channels.len())
                .map(|c| Action::Deliver { channel: ChannelId(c as u16) })
                .chain(graph.sources().map(|task| Action::Read { task }))
                .find(|a| sim.check(*a).is_ok());
            match next {
                Some(a) => sim.apply(a, &mut out).expect("checked"),
                None => break,
            }
        }
        Expected { state: sim.state_counts(), external: sim.external_counts() }
    }

    fn fresh_task(&self, t: TaskId) -> TaskRuntime {
        let info = self.graph.task(t);
        TaskRuntime {
            status: TaskStatus::Running,
            state: self.initial_state(t),
            in_pos: info.inputs.iter().map(|c| self.channels[c.index()].next_seq).collect(),
            alignment: None,
            tracker: BTreeMap::new(),
            last_checkpoint: None,
            rr: 0,
        }
    }

    fn initial_state(&self, t: TaskId) -> OpState {
        match self.graph.task(t).kind {
            OperatorKind::Source => OpState::Source { next_offset: 0 },
            OperatorKind::Count | OperatorKind::Sum => OpState::Keyed { entries: BTreeMap::new() },
            OperatorKind::Sink if self.settings.sink == SinkMode::TwoPhaseCommit => {
                OpState::Sink { open: None, pending: vec![] }
            }
            _ => OpState::Stateless,
        }
    }

    /// The tasks: operator state, status, and where each stands in a checkpoint (volatile).
    pub fn tasks(&self) -> &[TaskRuntime] {
        &self.tasks
    }
    /// The channels between tasks: FIFO queues of records and barriers (volatile), with the
    /// observer's record of what was delivered or dropped.
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }
    /// Durable checkpoint storage: completed checkpoints and timer saves.
    pub fn storage(&self) -> &CheckpointStorage {
        &self.storage
    }
    /// The system the sinks write to, outside the job (durable).
    pub fn external(&self) -> &ExternalSystem {
        &self.external
    }
    /// The CheckpointCoordinator's checkpoints in progress (volatile: lost with the JobManager).
    pub fn pending(&self) -> &[PendingCheckpoint] {
        &self.coordinator.pending
    }
    /// Stop-the-world in progress: (checkpoint, the step that paused the sources).
    pub fn stop_the_world(&self) -> Option<(CheckpointId, u64)> {
        self.coordinator.stop_the_world
    }
    /// Why the job is down, if it is.
    pub fn down(&self) -> Option<CrashScope> {
        self.down
    }
    pub fn jobmanager_up(&self) -> bool {
        self.jobmanager_up
    }
    pub fn strategy(&self) -> Strategy {
        self.settings.strategy
    }
    pub fn running(&self) -> bool {
        self.down.is_none()
    }
    pub fn timer(&self, t: TaskId) -> TimerSpec {
        self.timers[t.index()]
    }

    // ----- enabled actions -------------------------------------------------------------------

    fn room(&self, t: TaskId) -> Result<(), ActionError> {
        if let Some(cap) = self.settings.channel_capacity {
            for c in &self.graph.task(t).out_channels {
                if self.channels[c.index()].queue.len() >= cap as usize {
                    return err(ActionError::Backpressured {
                        task: self.graph.task(t).name.clone(),
                        channel: self.graph.channel(*c).name.clone(),
                        capacity: cap,
                    });
                }
            }
        }
        Ok(())
    }

    fn need_running(&self) -> Result<(), ActionError> {
        match self.down {
            None => Ok(()),
            Some(_) => err(ActionError::JobDown),
        }
    }

    /// Is `a` enabled now? The error says why not.
    pub fn check(&self, a: Action) -> Result<(), ActionError> {
        match a {
            Action::Deliver { channel } => {
                let Some(info) = self.graph.channels.get(channel.index()) else {
                    return err(ActionError::NoSuchChannel(channel.0));
                };
                self.need_running()?;
                let ch = &self.channels[channel.index()];
                match ch.queue.front() {
                    None => err(ActionError::ChannelEmpty { channel: info.name.clone() }),
                    Some(_) if ch.blocked => err(ActionError::ChannelBlocked {
                        channel: info.name.clone(),
                        task: self.graph.task(info.to).name.clone(),
                    }),
                    Some(Item::Barrier(_)) => Ok(()),
                    Some(Item::Record { .. }) => self.room(info.to),
                }
            }
            Action::Read { task } => {
                let Some(info) = self.graph.tasks.get(task.index()) else {
                    return err(ActionError::NoSuchTask(task.0));
                };
                if info.kind != OperatorKind::Source {
                    return err(ActionError::NotASource { task: info.name.clone() });
                }
                self.need_running()?;
                if let Some((id, _)) = self.coordinator.stop_the_world {
                    return err(ActionError::SourcesPaused { checkpoint: id.0 });
                }
                let off = self.source_offset(task);
                if off as usize >= info.log.len() {
                    return err(ActionError::LogExhausted { task: info.name.clone(), records: info.log.len() });
                }
                self.room(task)
            }
            Action::Checkpoint => {
                if !self.strategy().uses_coordinator() {
                    return err(ActionError::NoCheckpoints { strategy: self.strategy().id() });
                }
                self.need_running()
            }
            Action::Timer { task } => {
                if task.index() >= self.tasks.len() {
                    return err(ActionError::NoSuchTask(task.0));
                }
                self.check(Action::AllTimers)
            }
            Action::AllTimers => {
                if self.strategy() != Strategy::Timers {
                    return err(ActionError::NotTimers { strategy: self.strategy().id() });
                }
                self.need_running()
            }
            Action::Crash | Action::CrashJobManager => self.need_running(),
            Action::CrashTask { task } => {
                if task.index() >= self.tasks.len() {
                    return err(ActionError::NoSuchTask(task.0));
                }
                self.need_running()
            }
            Action::Restore => match self.down {
                Some(_) => Ok(()),
                None => err(ActionError::JobRunning),
            },
            Action::Auto => {
                if self.down.is_some() || self.has_work() {
                    Ok(())
                } else {
                    err(ActionError::NothingToDo)
                }
            }
        }
    }

    fn has_work(&self) -> bool {
        (0..self.channels.len()).any(|c| self.deliverable(ChannelId(c as u16)))
            || self.graph.sources().any(|task| self.readable(task))
    }

    fn has_room(&self, t: TaskId) -> bool {
        match self.settings.channel_capacity {
            None => true,
            Some(cap) => {
                self.graph.task(t).out_channels.iter().all(|c| self.channels[c.index()].queue.len() < cap as usize)
            }
        }
    }

    /// The fast, allocation-free form of `check(Deliver)` for a running job.
    fn deliverable(&self, c: ChannelId) -> bool {
        let ch = &self.channels[c.index()];
        match ch.queue.front() {
            None => false,
            Some(_) if ch.blocked => false,
            Some(Item::Barrier(_)) => true,
            Some(Item::Record { .. }) => self.has_room(self.graph.channel(c).to),
        }
    }

    /// The fast form of `check(Read)` for a source of a running job.
    fn readable(&self, t: TaskId) -> bool {
        self.coordinator.stop_the_world.is_none()
            && (self.source_offset(t) as usize) < self.graph.task(t).log.len()
            && self.has_room(t)
    }

    /// The deliveries and reads the scheduler may draw from now, in a fixed order.
    pub fn enabled_steps(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.down.is_some() {
            out.push(Action::Restore);
            return;
        }
        for c in 0..self.channels.len() {
            let channel = ChannelId(c as u16);
            if self.deliverable(channel) {
                out.push(Action::Deliver { channel });
            }
        }
        for task in self.graph.sources() {
            if self.readable(task) {
                out.push(Action::Read { task });
            }
        }
    }

    pub fn source_offset(&self, t: TaskId) -> u32 {
        match self.tasks[t.index()].state {
            OpState::Source { next_offset } => next_offset,
            _ => 0,
        }
    }

    // ----- applying actions ------------------------------------------------------------------

    /// Applies `a` and returns its events. On error nothing changed.
    pub fn step(&mut self, a: Action) -> Result<Vec<Event>, ActionError> {
        let mut out = Vec::new();
        self.apply(a, &mut out)?;
        Ok(out)
    }

    /// Applies `a`, appending its events to `out`. On error nothing changed.
    pub fn apply(&mut self, a: Action, out: &mut Vec<Event>) -> Result<(), ActionError> {
        let a = if a == Action::Auto {
            let mut choices = std::mem::take(&mut self.scratch);
            self.enabled_steps(&mut choices);
            if choices.is_empty() {
                self.scratch = choices;
                return self.check(Action::Auto);
            }
            let pick = choices[self.rng.below(choices.len() as u64) as usize];
            self.scratch = choices;
            pick
        } else {
            self.check(a)?;
            a
        };
        match a {
            Action::Deliver { channel } => self.deliver(channel, out),
            Action::Read { task } => self.read(task, out),
            Action::Checkpoint => self.trigger(out),
            Action::Timer { task } => self.fire_timer(task, out),
            Action::AllTimers => {
                for t in 0..self.tasks.len() {
                    self.fire_timer(TaskId(t as u16), out);
                }
            }
            Action::Crash => self.crash(CrashScope::Cluster, out),
            Action::CrashTask { task } => self.crash(CrashScope::Task(task), out),
            Action::CrashJobManager => self.crash(CrashScope::JobManager, out),
            Action::Restore => self.restore(out),
            Action::Auto => unreachable!("Auto resolves to a concrete action"),
        }
        self.after_tick(out);
        self.tick += 1;
        Ok(())
    }

    fn read(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let g = self.graph.clone();
        let info = g.task(t);
        let OpState::Source { next_offset } = &mut self.tasks[t.index()].state else { unreachable!() };
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

    /// Sends a record on the task's outputs by each edge's partitioning; returns how many channels.
    fn emit(&mut self, t: TaskId, rec: Record) -> u16 {
        let g = self.graph.clone();
        let info = g.task(t);
        let mut n = 0;
        for group in &info.outputs {
            let k = group.channels.len();
            let mut send = |sim: &mut Sim, c: ChannelId| {
                let ch = &mut sim.channels[c.index()];
                ch.queue.push_back(Item::Record { seq: ch.next_seq, rec });
                ch.next_seq += 1;
                n += 1;
            };
            match group.partitioning {
                Partitioning::Forward => send(self, group.channels[0]),
                Partitioning::Hash => send(self, group.channels[g.record(rec.id).key.index() % k]),
                Partitioning::Rebalance => {
                    let rr = &mut self.tasks[t.index()].rr;
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

    fn deliver(&mut self, c: ChannelId, out: &mut Vec<Event>) {
        let info = self.graph.channel(c).clone();
        let item = self.channels[c.index()].queue.pop_front().expect("checked non-empty");
        match item {
            Item::Record { seq, rec } => {
                let task = &mut self.tasks[info.to.index()];
                task.in_pos[info.input_index] = seq + 1;
                if let Some(al) = &mut task.alignment {
                    if let Some(snap) = &mut al.unaligned {
                        if !al.received[info.input_index] {
                            snap.in_flight.push((c, seq, rec));
                            out.push(Event::InFlightRecorded { task: info.to, channel: c, record: rec.id });
                        }
                    }
                }
                self.channels[c.index()].retain(seq, rec, Fate::Delivered);
                self.process(info.to, c, rec, out);
            }
            Item::Barrier(id) => self.on_barrier(info.to, c, info.input_index, id, out),
        }
    }

    fn process(&mut self, t: TaskId, c: ChannelId, rec: Record, out: &mut Vec<Event>) {
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
                let OpState::Keyed { entries } = &mut self.tasks[t.index()].state else { unreachable!() };
                let e = entries.entry(key).or_default();
                e.contributors.push(rec.id);
                e.sum += rec.value;
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
        let at = if info.kind == OperatorKind::Sink { out.len() - 1 } else { out.len() };
        out.insert(at, Event::Processed { task: t, channel: c, record: rec.id, value, emitted, filtered });
    }

    fn sink_write(&mut self, t: TaskId, rec: Record, out: &mut Vec<Event>) {
        let row = Row { record: rec.id, value: rec.value, sink: t, tick: self.tick };
        match self.settings.sink {
            SinkMode::Append => {
                self.external.appended.push(row);
                out.push(Event::SinkWrite { task: t, record: rec.id, txn: None, overwrote: false });
            }
            SinkMode::Upsert => {
                let overwrote = self.external.table.insert(rec.id, row).is_some();
                out.push(Event::SinkWrite { task: t, record: rec.id, txn: None, overwrote });
            }
            SinkMode::TwoPhaseCommit => {
                let next = TxnId(self.external.txns.len() as u32);
                let OpState::Sink { open, .. } = &mut self.tasks[t.index()].state else { unreachable!() };
                let txn = *open.get_or_insert(next);
                if txn == next {
                    self.external.txns.push(Txn { id: txn, sink: t, rows: vec![], status: TxnStatus::Open });
                }
                self.external.txn_mut(txn).rows.push(row);
                out.push(Event::SinkWrite { task: t, record: rec.id, txn: Some(txn), overwrote: false });
            }
        }
    }

    // ----- snapshots and barriers ------------------------------------------------------------

    /// The task's synchronous snapshot. A two-phase-commit sink pre-commits its open transaction
    /// here (snapshotState) and starts a new one with its next write.
    fn take_snapshot(&mut self, t: TaskId, checkpoint: Option<CheckpointId>, out: &mut Vec<Event>) -> TaskSnapshot {
        if let (Some(id), OpState::Sink { open, pending }) = (checkpoint, &mut self.tasks[t.index()].state) {
            if let Some(txn) = open.take() {
                pending.push((id, txn));
                self.external.txn_mut(txn).status = TxnStatus::PreCommitted(id);
                out.push(Event::TxnPreCommitted { task: t, txn, checkpoint: id });
            }
        }
        let info = self.graph.task(t);
        TaskSnapshot {
            task: t,
            state: self.tasks[t.index()].state.clone(),
            checkpoint,
            tick: self.tick,
            out_pos: info.out_channels.iter().map(|c| self.channels[c.index()].next_seq).collect(),
            in_pos: self.tasks[t.index()].in_pos.clone(),
            in_flight: vec![],
        }
    }

    /// Puts barrier `id` on every output channel. Unaligned: at the head of the queue (behind
    /// earlier barriers only), storing the records it overtakes in `snap` as in-flight data.
    fn emit_barrier(&mut self, t: TaskId, id: CheckpointId, mut snap: Option<&mut TaskSnapshot>, out: &mut Vec<Event>) {
        let mut overtook = 0u32;
        for &c in &self.graph.clone().task(t).out_channels {
            let q = &mut self.channels[c.index()].queue;
            match snap.as_deref_mut() {
                Some(s) => {
                    let pos = q.iter().rposition(|i| matches!(i, Item::Barrier(_))).map_or(0, |p| p + 1);
                    for it in q.iter().skip(pos) {
                        if let Item::Record { seq, rec } = it {
                            s.in_flight.push((c, *seq, *rec));
                            overtook += 1;
                        }
                    }
                    q.insert(pos, Item::Barrier(id));
                }
                None => q.push_back(Item::Barrier(id)),
            }
        }
        out.push(Event::BarrierEmitted { task: t, checkpoint: id, overtook });
    }

    fn unaligned(&self) -> bool {
        self.strategy() == Strategy::Unaligned
    }

    /// Snapshot, forward the barrier, and (unless still collecting in-flight data) acknowledge.
    fn snapshot_and_forward(
        &mut self,
        t: TaskId,
        id: CheckpointId,
        kind: SnapshotKind,
        out: &mut Vec<Event>,
    ) -> TaskSnapshot {
        let mut snap = self.take_snapshot(t, Some(id), out);
        let overtake = kind == SnapshotKind::Unaligned || (kind == SnapshotKind::Source && self.unaligned());
        self.emit_barrier(t, id, if overtake { Some(&mut snap) } else { None }, out);
        out.push(Event::SnapshotTaken { task: t, checkpoint: Some(id), kind });
        snap
    }

    fn on_barrier(&mut self, t: TaskId, c: ChannelId, idx: usize, id: CheckpointId, out: &mut Vec<Event>) {
        let task = &self.tasks[t.index()];
        if self.coordinator.aborted.contains(&id) || task.last_checkpoint >= Some(id) {
            out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id });
            return;
        }
        let n = task.in_pos.len();
        self.note_barrier(t, id);
        match self.strategy() {
            Strategy::AtLeastOnce => {
                let task = &mut self.tasks[t.index()];
                if task.tracker.range(id..).any(|(k, _)| *k > id) {
                    out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id });
                    return;
                }
                let older: Vec<CheckpointId> = task.tracker.range(..id).map(|(k, _)| *k).collect();
                for o in older {
                    task.tracker.remove(&o);
                    out.push(Event::AlignmentAborted { task: t, checkpoint: o });
                }
                let count = task.tracker.entry(id).or_insert(0);
                *count += 1;
                let (first, seen) = (*count == 1, *count);
                out.push(Event::BarrierReceived {
                    task: t,
                    channel: c,
                    checkpoint: id,
                    first,
                    waiting: n as u16 - seen,
                });
                if seen as usize == n {
                    self.tasks[t.index()].tracker.remove(&id);
                    self.tasks[t.index()].last_checkpoint = Some(id);
                    let snap = self.snapshot_and_forward(t, id, SnapshotKind::Tracker, out);
                    self.acknowledge(t, id, snap, out);
                }
            }
            Strategy::Aligned | Strategy::Unaligned => {
                if let Some(al) = &self.tasks[t.index()].alignment {
                    if al.checkpoint < id {
                        // Barrier n+1 before n completed: n is subsumed at this task.
                        let old = al.checkpoint;
                        self.abort_alignment(t, old, out);
                    }
                }
                if self.tasks[t.index()].alignment.as_ref().is_some_and(|a| a.checkpoint > id) {
                    out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id });
                    return;
                }
                let first = self.tasks[t.index()].alignment.is_none();
                let mark = out.len();
                if first {
                    let unaligned = if self.unaligned() {
                        Some(Box::new(self.snapshot_and_forward(t, id, SnapshotKind::Unaligned, out)))
                    } else {
                        None
                    };
                    self.tasks[t.index()].alignment =
                        Some(Alignment { checkpoint: id, started: self.tick, received: vec![false; n], unaligned });
                }
                let al = self.tasks[t.index()].alignment.as_mut().expect("just set");
                al.received[idx] = true;
                let waiting = al.waiting();
                let collecting = al.unaligned.is_some();
                // Events in causal order: the barrier arrives, then (unaligned) the snapshot it caused.
                let at = if first && collecting { mark } else { out.len() };
                out.insert(at, Event::BarrierReceived { task: t, channel: c, checkpoint: id, first, waiting });
                if waiting > 0 {
                    if !collecting {
                        self.channels[c.index()].blocked = true;
                        out.push(Event::ChannelBlocked { channel: c, checkpoint: id });
                    }
                    return;
                }
                let al = self.tasks[t.index()].alignment.take().expect("aligning");
                self.tasks[t.index()].last_checkpoint = Some(id);
                let snap = match al.unaligned {
                    Some(snap) => *snap,
                    None => {
                        self.unblock_inputs(t, out);
                        self.snapshot_and_forward(t, id, SnapshotKind::Aligned, out)
                    }
                };
                self.acknowledge(t, id, snap, out);
            }
            _ => out.push(Event::BarrierIgnored { task: t, channel: c, checkpoint: id }),
        }
    }

    fn note_barrier(&mut self, t: TaskId, id: CheckpointId) {
        let tick = self.tick;
        if let Some(r) = self.stats.get_mut(id) {
            let s = &mut r.subtasks[t.index()];
            if s.first_barrier.is_none() {
                s.first_barrier = Some(tick);
                s.start_delay = Some(tick - r.trigger_tick);
            }
            s.last_barrier = Some(tick);
            s.alignment = Some(tick - s.first_barrier.unwrap_or(tick));
        }
    }

    fn unblock_inputs(&mut self, t: TaskId, out: &mut Vec<Event>) {
        for &c in &self.graph.clone().task(t).inputs {
            if std::mem::take(&mut self.channels[c.index()].blocked) {
                out.push(Event::ChannelUnblocked { channel: c });
            }
        }
    }

    fn abort_alignment(&mut self, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
        let task = &mut self.tasks[t.index()];
        if task.alignment.as_ref().is_some_and(|a| a.checkpoint == id) {
            task.alignment = None;
            task.last_checkpoint = task.last_checkpoint.max(Some(id));
            out.push(Event::AlignmentAborted { task: t, checkpoint: id });
            self.unblock_inputs(t, out);
        }
        if self.tasks[t.index()].tracker.remove(&id).is_some() {
            out.push(Event::AlignmentAborted { task: t, checkpoint: id });
        }
    }

    /// Aligned checkpoint past its alignment timeout: switch to unaligned at this task.
    fn alignment_timed_out(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let id = self.tasks[t.index()].alignment.as_ref().expect("aligning").checkpoint;
        out.push(Event::AlignmentTimedOut { task: t, checkpoint: id });
        if let Some(r) = self.stats.get_mut(id) {
            r.subtasks[t.index()].unaligned = true;
        }
        let snap = self.snapshot_and_forward(t, id, SnapshotKind::Unaligned, out);
        // Records queued behind barriers on the blocked channels are post-checkpoint; the
        // channels still waiting for their barrier are recorded from now on.
        self.unblock_inputs(t, out);
        self.tasks[t.index()].alignment.as_mut().expect("aligning").unaligned = Some(Box::new(snap));
    }

    fn fire_timer(&mut self, t: TaskId, out: &mut Vec<Event>) {
        if self.tasks[t.index()].status != TaskStatus::Running {
            return;
        }
        let snap = self.take_snapshot(t, None, out);
        let saves = &mut self.storage.saves[t.index()];
        saves.push(snap);
        if saves.len() > SAVES_KEPT {
            saves.remove(0);
        }
        out.push(Event::SnapshotTaken { task: t, checkpoint: None, kind: SnapshotKind::Timer });
        self.recompute_retention();
    }

    // ----- the CheckpointCoordinator ---------------------------------------------------------

    fn trigger(&mut self, out: &mut Vec<Event>) {
        let pending = self.coordinator.pending.len() as u32;
        if pending >= self.settings.max_concurrent_checkpoints || self.coordinator.stop_the_world.is_some() {
            out.push(Event::CheckpointRefused { pending });
            return;
        }
        let id = CheckpointId(self.coordinator.next_id);
        self.coordinator.next_id += 1;
        let n = self.tasks.len();
        self.coordinator.pending.push(PendingCheckpoint {
            id,
            trigger_tick: self.tick,
            snapshots: vec![None; n],
            acked: 0,
        });
        self.stats.history.push(CheckpointRecord {
            id,
            status: CheckpointStatus::InProgress,
            acked: 0,
            total: n as u16,
            trigger_tick: self.tick,
            latest_ack: None,
            end_tick: None,
            state_size: 0,
            in_flight: 0,
            stall: None,
            subtasks: vec![SubtaskStats::default(); n],
        });
        out.push(Event::CheckpointTriggered { checkpoint: id });
        if self.strategy() == Strategy::StopTheWorld {
            self.coordinator.stop_the_world = Some((id, self.tick));
            out.push(Event::SourcesPaused { checkpoint: id });
            return;
        }
        let sources: Vec<TaskId> = self.graph.sources().collect();
        for s in sources {
            self.note_barrier(s, id);
            self.tasks[s.index()].last_checkpoint = Some(id);
            let snap = self.snapshot_and_forward(s, id, SnapshotKind::Source, out);
            self.acknowledge(s, id, snap, out);
        }
    }

    fn acknowledge(&mut self, t: TaskId, id: CheckpointId, snap: TaskSnapshot, out: &mut Vec<Event>) {
        let unaligned = !snap.in_flight.is_empty() || self.strategy() == Strategy::Unaligned;
        let Some(p) = self.coordinator.pending.iter_mut().find(|p| p.id == id) else {
            out.push(Event::AckDiscarded { task: t, checkpoint: id });
            return;
        };
        let (size, in_flight) = (snap.size(), snap.in_flight.len() as u32);
        p.snapshots[t.index()] = Some(snap);
        p.acked += 1;
        let (acked, total) = (p.acked, p.snapshots.len() as u16);
        if let Some(r) = self.stats.get_mut(id) {
            r.acked = acked;
            r.latest_ack = Some(self.tick);
            r.state_size += size;
            r.in_flight += in_flight;
            let s = &mut r.subtasks[t.index()];
            s.ack_tick = Some(self.tick);
            s.state_size = size;
            s.in_flight = in_flight;
            s.unaligned |= unaligned;
        }
        out.push(Event::Acknowledged { task: t, checkpoint: id, acked, total });
        self.recompute_retention();
        if acked == total {
            self.complete(id, out);
        }
    }

    fn complete(&mut self, id: CheckpointId, out: &mut Vec<Event>) {
        let i = self.coordinator.pending.iter().position(|p| p.id == id).expect("pending");
        let p = self.coordinator.pending.remove(i);
        let cp = CompletedCheckpoint {
            id,
            trigger_tick: p.trigger_tick,
            completed_tick: self.tick,
            snapshots: p.snapshots.into_iter().map(|s| s.expect("fully acknowledged")).collect(),
        };
        self.storage.completed.push(cp);
        let keep = self.settings.num_retained as usize;
        let len = self.storage.completed.len();
        if len > keep {
            self.storage.completed.drain(..len - keep);
        }
        let tick = self.tick;
        if let Some(r) = self.stats.get_mut(id) {
            r.status = CheckpointStatus::Completed;
            r.end_tick = Some(tick);
        }
        out.push(Event::CheckpointCompleted { checkpoint: id, duration: tick - p.trigger_tick });
        let older: Vec<CheckpointId> = self.coordinator.pending.iter().filter(|p| p.id < id).map(|p| p.id).collect();
        for o in older {
            self.abort(o, AbortReason::Subsumed, out);
        }
        // notifyCheckpointComplete: two-phase-commit sinks commit every transaction up to `id`.
        for t in 0..self.tasks.len() {
            let t = TaskId(t as u16);
            if self.tasks[t.index()].status != TaskStatus::Running {
                continue;
            }
            if let OpState::Sink { pending, .. } = &mut self.tasks[t.index()].state {
                let (done, keep): (Vec<_>, Vec<_>) = pending.iter().partition(|(c, _)| *c <= id);
                *pending = keep;
                for (_, txn) in done {
                    self.commit_txn(t, txn, out);
                }
            }
        }
        self.recompute_retention();
    }

    /// Commit is idempotent: committing a committed transaction does nothing.
    fn commit_txn(&mut self, t: TaskId, txn: TxnId, out: &mut Vec<Event>) {
        let x = self.external.txn_mut(txn);
        if matches!(x.status, TxnStatus::Open | TxnStatus::PreCommitted(_)) {
            x.status = TxnStatus::Committed;
            out.push(Event::TxnCommitted { task: t, txn, rows: x.rows.len() as u32 });
        }
    }

    fn abort(&mut self, id: CheckpointId, reason: AbortReason, out: &mut Vec<Event>) {
        let Some(i) = self.coordinator.pending.iter().position(|p| p.id == id) else { return };
        self.coordinator.pending.remove(i);
        self.coordinator.aborted.insert(id);
        let tick = self.tick;
        if let Some(r) = self.stats.get_mut(id) {
            r.status = CheckpointStatus::Failed(reason);
            r.end_tick = Some(tick);
        }
        out.push(Event::CheckpointAborted { checkpoint: id, reason });
        // notifyCheckpointAborted: tasks drop their alignment for it.
        if self.down.is_none() {
            for t in 0..self.tasks.len() {
                self.abort_alignment(TaskId(t as u16), id, out);
            }
        }
        if let Some((sid, t0)) = self.coordinator.stop_the_world {
            if sid == id {
                self.coordinator.stop_the_world = None;
                out.push(Event::SourcesResumed { checkpoint: id, stall: tick - t0 });
            }
        }
        self.recompute_retention();
    }

    /// What the logical clock does after each action: timers, periodic triggers, timeouts and the
    /// stop-the-world barrier-free snapshot once everything is drained.
    fn after_tick(&mut self, out: &mut Vec<Event>) {
        if self.down.is_some() {
            return;
        }
        let tick = self.tick;
        if self.strategy() == Strategy::Timers {
            for t in 0..self.tasks.len() {
                let spec = self.timers[t];
                if spec.period > 0 && tick >= spec.phase && (tick - spec.phase) % spec.period == 0 {
                    self.fire_timer(TaskId(t as u16), out);
                }
            }
        }
        if let Some(every) = self.settings.checkpoint_interval {
            if (tick + 1) % every == 0 {
                self.trigger(out);
            }
        }
        let timeout = self.settings.checkpoint_timeout;
        let expired: Vec<CheckpointId> =
            self.coordinator.pending.iter().filter(|p| tick - p.trigger_tick >= timeout).map(|p| p.id).collect();
        for id in expired {
            self.abort(id, AbortReason::Expired, out);
        }
        if let Some(limit) = self.settings.alignment_timeout {
            for t in 0..self.tasks.len() {
                let late = self.tasks[t]
                    .alignment
                    .as_ref()
                    .is_some_and(|a| a.unaligned.is_none() && tick - a.started >= limit);
                if late {
                    self.alignment_timed_out(TaskId(t as u16), out);
                }
            }
        }
        if let Some((id, t0)) = self.coordinator.stop_the_world {
            if self.channels.iter().all(|c| c.queue.is_empty()) {
                self.coordinator.stop_the_world = None;
                for t in self.graph.topo_order.clone() {
                    let snap = self.take_snapshot(t, Some(id), out);
                    out.push(Event::SnapshotTaken { task: t, checkpoint: Some(id), kind: SnapshotKind::StopTheWorld });
                    self.acknowledge(t, id, snap, out);
                }
                if let Some(r) = self.stats.get_mut(id) {
                    r.stall = Some(tick - t0);
                }
                out.push(Event::SourcesResumed { checkpoint: id, stall: tick - t0 });
            }
        }
    }

    /// Keeps delivered records only as far back as some stored snapshot's channel position
    /// reaches: what the consistent-cut check can ask for.
    fn recompute_retention(&mut self) {
        let mut from = vec![u64::MAX; self.channels.len()];
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
        self.storage.completed.iter().flat_map(|c| &c.snapshots).for_each(&mut note);
        self.storage.saves.iter().flatten().for_each(&mut note);
        self.coordinator.pending.iter().flat_map(|p| p.snapshots.iter().flatten()).for_each(&mut note);
        self.tasks.iter().filter_map(|t| t.alignment.as_ref()?.unaligned.as_deref()).for_each(&mut note);
        for (c, f) in self.channels.iter_mut().zip(from) {
            c.retain_from = f;
            while c.history.front().is_some_and(|h| h.0 < f) {
                c.history.pop_front();
            }
        }
    }

    // ----- failure and recovery --------------------------------------------------------------

    fn crash(&mut self, scope: CrashScope, out: &mut Vec<Event>) {
        let mut lost = 0;
        for ch in &mut self.channels {
            for it in std::mem::take(&mut ch.queue) {
                if let Item::Record { seq, rec } = it {
                    lost += 1;
                    ch.retain(seq, rec, Fate::Dropped);
                }
            }
            ch.blocked = false;
        }
        for t in 0..self.tasks.len() {
            let crashed = match scope {
                CrashScope::Cluster => true,
                CrashScope::Task(x) => x.index() == t,
                CrashScope::JobManager => false,
            };
            let init = self.initial_state(TaskId(t as u16));
            let task = &mut self.tasks[t];
            task.alignment = None;
            task.tracker.clear();
            if crashed {
                task.status = TaskStatus::Crashed;
                task.state = init;
            } else {
                task.status = TaskStatus::Canceled;
            }
        }
        out.push(Event::Crashed { scope, lost_in_flight: lost });
        self.down = Some(scope);
        let reason = if scope == CrashScope::JobManager {
            self.jobmanager_up = false;
            AbortReason::JobManagerFailure
        } else {
            AbortReason::TaskFailure
        };
        let pending: Vec<CheckpointId> = self.coordinator.pending.iter().map(|p| p.id).collect();
        for id in pending {
            self.abort(id, reason, out);
        }
        self.coordinator.stop_the_world = None;
    }

    fn restore(&mut self, out: &mut Vec<Event>) {
        self.down = None;
        self.jobmanager_up = true;
        let n = self.tasks.len();
        for t in 0..n {
            self.tasks[t] = self.fresh_task(TaskId(t as u16));
        }
        let mut in_flight: Vec<(ChannelId, u64, Record)> = Vec::new();
        let from = match self.strategy() {
            Strategy::Timers => {
                for t in 0..n {
                    if let Some(s) = self.storage.saves[t].last() {
                        self.tasks[t].state = s.state.clone();
                    }
                }
                RestoreFrom::OwnSaves
            }
            Strategy::None => {
                if self.settings.restart == RestartPolicy::FromLatest {
                    for s in self.graph.sources().collect::<Vec<_>>() {
                        self.tasks[s.index()].state = OpState::Source { next_offset: self.read_high_water[s.index()] };
                    }
                }
                RestoreFrom::Policy
            }
            _ => match self.storage.completed.last().cloned() {
                None => RestoreFrom::Nothing,
                Some(cp) => {
                    in_flight.clear();
                    for s in &cp.snapshots {
                        self.tasks[s.task.index()].state = s.state.clone();
                        self.tasks[s.task.index()].last_checkpoint = Some(cp.id);
                        in_flight.extend(s.in_flight.iter().copied());
                    }
                    self.stats.latest_restored = Some(cp.id);
                    RestoreFrom::Checkpoint { checkpoint: cp.id }
                }
            },
        };
        if matches!(from, RestoreFrom::Checkpoint { .. }) {
            self.stats.restored += 1;
        }
        out.push(Event::Restored { from });
        // Unaligned in-flight data goes back on its channels before any new upstream data.
        in_flight.sort_by_key(|(c, seq, _)| (*c, *seq));
        in_flight.dedup_by_key(|(c, seq, _)| (*c, *seq));
        for (c, _, rec) in in_flight {
            let ch = &mut self.channels[c.index()];
            ch.queue.push_back(Item::Record { seq: ch.next_seq, rec: Record { replayed: true, ..rec } });
            ch.next_seq += 1;
            out.push(Event::Replayed { channel: c, record: rec.id });
        }
        for s in self.graph.sources().collect::<Vec<_>>() {
            out.push(Event::Rewound { task: s, offset: self.source_offset(s) });
        }
        // Two-phase-commit sinks: recoverAndCommit what the snapshot had pre-committed, abort the rest.
        for t in 0..n {
            let t = TaskId(t as u16);
            if let OpState::Sink { pending, .. } = &self.tasks[t.index()].state {
                let pending = pending.clone();
                for (_, txn) in &pending {
                    self.commit_txn(t, *txn, out);
                }
                for i in 0..self.external.txns.len() {
                    let x = &mut self.external.txns[i];
                    if x.sink == t && matches!(x.status, TxnStatus::Open | TxnStatus::PreCommitted(_)) {
                        x.status = TxnStatus::Aborted;
                        out.push(Event::TxnAborted { task: t, txn: x.id, rows: x.rows.len() as u32 });
                    }
                }
                self.tasks[t.index()].state = OpState::Sink { open: None, pending: vec![] };
            }
        }
        self.recompute_retention();
    }

    // ----- what the ledger and the canvas read -----------------------------------------------

    /// Per source record: how often it is reflected in the state of stateful operators.
    pub fn state_counts(&self) -> Vec<u32> {
        let mut v = vec![0u32; self.graph.records.len()];
        for t in &self.tasks {
            if let OpState::Keyed { entries } = &t.state {
                for e in entries.values() {
                    for r in &e.contributors {
                        v[r.0 as usize] += 1;
                    }
                }
            }
        }
        v
    }

    /// Per source record: how often an outside reader sees it in the sinks' external system.
    pub fn external_counts(&self) -> Vec<u32> {
        let mut v = vec![0u32; self.graph.records.len()];
        for row in self.external.visible() {
            v[row.record.0 as usize] += 1;
        }
        v
    }

    /// Per task: can what it emits still reach a stateful operator (`state`) or a sink (`!state`)?
    fn feeds(&self, state: bool) -> Vec<bool> {
        let g = &self.graph;
        let mut v = vec![false; g.tasks.len()];
        for t in g.topo_order.iter().rev() {
            let info = g.task(*t);
            let own = if state { info.kind.is_stateful() } else { info.kind == OperatorKind::Sink };
            v[t.index()] = own || info.out_channels.iter().any(|c| v[g.channel(*c).to.index()]);
        }
        v
    }

    /// Records still on their way to a stateful operator (`state`) or to a sink: unread by a
    /// running source that leads there, or queued in a channel that leads there. While the job is
    /// down every record is: the restore decides what becomes of it.
    pub fn on_its_way(&self, state: bool) -> Vec<bool> {
        let mut v = vec![false; self.graph.records.len()];
        if self.down.is_some() {
            return vec![true; self.graph.records.len()];
        }
        let feeds = self.feeds(state);
        for s in self.graph.sources().filter(|s| feeds[s.index()]) {
            for r in &self.graph.task(s).log[self.source_offset(s) as usize..] {
                v[r.0 as usize] = true;
            }
        }
        for (i, ch) in self.channels.iter().enumerate() {
            if !feeds[self.graph.channels[i].to.index()] {
                continue;
            }
            for it in &ch.queue {
                if let Item::Record { rec, .. } = it {
                    v[rec.id.0 as usize] = true;
                }
            }
        }
        v
    }

    /// Drives the run to its end: every record through, then (with a checkpointing strategy) one
    /// final checkpoint so that two-phase-commit sinks commit, as Flink does when bounded input
    /// ends. Each step is an ordinary `Auto` or `Checkpoint` action; returns them all.
    pub fn run_to_end(&mut self, limit: usize, out: &mut Vec<Event>) -> Vec<Action> {
        let mut done = Vec::new();
        self.run_to_end_each(limit, |a, events| {
            done.push(a);
            out.extend_from_slice(events);
        });
        done
    }

    /// [`Sim::run_to_end`], handing each step's action and events to `each`; returns the number
    /// of steps taken.
    pub fn run_to_end_each(&mut self, limit: usize, mut each: impl FnMut(Action, &[Event])) -> usize {
        let mut taken = 0;
        let mut events = Vec::new();
        let mut step = |sim: &mut Sim, a: Action, taken: &mut usize| {
            events.clear();
            sim.apply(a, &mut events).expect("enabled");
            each(a, &events);
            *taken += 1;
        };
        let drain = |sim: &mut Sim, taken: &mut usize, step: &mut dyn FnMut(&mut Sim, Action, &mut usize)| {
            while *taken < limit && sim.check(Action::Auto).is_ok() {
                step(sim, Action::Auto, taken);
            }
        };
        drain(self, &mut taken, &mut step);
        if self.strategy().uses_coordinator() && self.running() {
            while !self.coordinator.pending.is_empty() && taken < limit {
                // Nothing left to deliver but a checkpoint still pending: let time pass until it
                // expires (its barriers were lost).
                step(self, Action::Checkpoint, &mut taken);
                drain(self, &mut taken, &mut step);
            }
            if taken < limit {
                step(self, Action::Checkpoint, &mut taken);
                drain(self, &mut taken, &mut step);
            }
        }
        taken
    }

    /// The channel an item of a task's output goes out on, for drawing: the queue's items.
    pub fn queue(&self, c: ChannelId) -> &std::collections::VecDeque<Item> {
        &self.channels[c.index()].queue
    }

    pub fn record_label(&self, r: RecordId) -> &str {
        self.graph.label(r)
    }
}
