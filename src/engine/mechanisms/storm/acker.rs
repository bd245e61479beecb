//! Storm's acker: at-least-once by acknowledging every tuple (Apache Storm's "Guaranteeing
//! Message Processing"; `daemon/Acker.java`, `executor/bolt/BoltOutputCollectorImpl.java`,
//! `executor/spout/SpoutExecutor.java`, and `KafkaSpout` for the replayable spout). Storm saves no
//! operator state at all: a bolt's counts live in the worker's memory and die with it.
//!
//! What happens, step by step (the data is in [`super::tuple_tree`]):
//! - **read**: the spout emits the record with its offset as message id, draws a random root id
//!   and an edge id per emitted tuple, keeps the root pending, and sends `__ack_init` to the
//!   acker. With acking off (0 ackers) the spout acks at once and tracks nothing: at most once.
//! - **process**: a bolt emits its children anchored to the input (a fresh edge id each), except on
//!   an unanchored edge, then acks the input: `__ack_ack [root, input edge ^ children's edges]`.
//!   A tuple that arrives unanchored is not tracked, and neither are its children.
//! - **to the acker** (its own step `q`, [`super::steps::to_acker`]): the acker XORs the message into the root's
//!   value; at 0 the tree is complete and an answer goes to the spout.
//! - **to the spout** (its own step `p`, [`super::steps::from_acker`]): the spout forgets the tuple; the offset
//!   is acked and the contiguous acked offsets are committed to the log (Kafka keeps them).
//! - **timeout**: the spout's and the acker's pending maps rotate once per `message-timeout`
//!   steps; a spout tuple that falls out of the 2-bucket map failed (between T and 2T after it
//!   was emitted), and the spout emits that offset again, before new ones, as a new tree (marked
//!   a replay). An ack for the old tree is ignored when it comes.
//! - **crash and restore**: the workers' memory is gone (every bolt's counts, every pending tree:
//!   the live slot goes with the job); bolts start empty and each spout resumes at its committed
//!   offset (the durable slot), so what was acked above a gap, or processed and not yet acked,
//!   comes again. Storm runs every task in one worker, which dies and restarts whole, whatever
//!   the failover strategy.
//! - **Nimbus** (the JobManager's place): its crash stops nothing that runs ("no worker processes
//!   are affected by the death of Nimbus"); only new submissions and reassignment wait until it
//!   is back. The supervisors restart a dead worker without it ("supervisors will continue to
//!   restart workers if they die"): Nimbus comes back only at a restore with no worker down.

use super::events::StormEvent;
use super::refusals::StormRefusal;
use super::steps::{from_acker, to_acker, FROM_ACKER, TO_ACKER};
use super::tuple_tree::{AckMessage, StormRuntime, TupleId};
use crate::engine::core::action::{Action, CrashScope, Event, RestoreFrom};
use crate::engine::core::dataflow::record::Record;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::error::ActionError;
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::lang::Lang;
use crate::engine::core::seam::{InFlight, Mechanism, OnCrash, OnRestore, OwnSources, OwnSteps};
use crate::engine::core::sim::Sim;
use crate::engine::core::step::Step;
use crate::engine::mechanisms::committed_offsets::CommittedOffsets;
use crate::engine::mechanisms::storm::events::StormRestore;
use crate::engine::settings::Settings;

/// The XOR acker (strategy `storm-acker`).
pub struct XorAcker;

impl Mechanism for XorAcker {
    fn start(&self, sim: &mut Sim) {
        sim.live.mechanism.put(sim.fresh_storm());
        sim.durable.mechanism.put(CommittedOffsets::default());
    }
    fn check(&self, sim: &Sim, a: Action) -> Result<(), ActionError> {
        match a {
            Action::CrashJobManager if !sim.live.jobmanager_up => Err(ActionError::from(StormRefusal::NimbusDown)),
            Action::Mechanism { step } => {
                if sim.settings.mechanism.storm.ackers == 0 {
                    return Err(ActionError::from(StormRefusal::NoAcker { strategy: sim.strategy() }));
                }
                sim.need_running()?;
                let storm = sim.storm();
                let task = || sim.graph.task(step.task).name.clone();
                match step.kind {
                    TO_ACKER if storm.is_some_and(|s| s.to_acker[step.task.index()].is_empty()) => {
                        Err(ActionError::from(StormRefusal::NoAckMessage { task: task() }))
                    }
                    FROM_ACKER if storm.is_some_and(|s| s.to_spout[step.task.index()].is_empty()) => {
                        Err(ActionError::from(StormRefusal::NoAckerAnswer { task: task() }))
                    }
                    TO_ACKER | FROM_ACKER => Ok(()),
                    kind => Err(ActionError::NoSuchStep { step: kind, strategy: sim.strategy() }),
                }
            }
            _ => Ok(()),
        }
    }
    fn on_crash(&self, sim: &mut Sim, scope: CrashScope, out: &mut Vec<Event>) -> OnCrash {
        match scope {
            CrashScope::JobManager => {
                sim.live.jobmanager_up = false;
                out.push(Event::from(StormEvent::NimbusDown));
                sim.master_lost_alone();
                OnCrash::Done
            }
            CrashScope::Task(_) => OnCrash::WholeJob,
            CrashScope::Cluster | CrashScope::Global => OnCrash::Failover,
        }
    }
    fn before_restore(&self, sim: &mut Sim, out: &mut Vec<Event>) -> OnRestore {
        if sim.live.jobmanager_up {
            return OnRestore::Restart { master_stays_down: false };
        }
        if sim.live.down.is_none() && !sim.region_down() {
            sim.live.jobmanager_up = true;
            out.push(Event::from(StormEvent::NimbusRestarted));
            return OnRestore::Done;
        }
        out.push(Event::from(StormEvent::SupervisorRestarted));
        OnRestore::Restart { master_stays_down: true }
    }
    fn on_trigger(&self, _sim: &mut Sim, _id: crate::engine::core::ids::CheckpointId, _out: &mut Vec<Event>) {
        unreachable!("Storm has no checkpoints: the trigger is refused before it reaches the mechanism")
    }
    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks { follows_records: true, checks_actions: true, own_steps: true, ticks: true, ..Hooks::default() }
    }
    fn on_tick(&self, sim: &mut Sim, out: &mut Vec<Event>) {
        let period = sim.settings.mechanism.storm.message_timeout;
        if (sim.tick + 1) % period == 0 {
            sim.rotate_pending(out);
        }
    }
    /// Bolts start empty (Storm keeps no state); each spout resumes at its committed offset.
    fn restore(&self, sim: &mut Sim) -> (RestoreFrom, InFlight) {
        for s in sim.graph.sources().collect::<Vec<_>>() {
            let committed = sim.committed_offset(s);
            if let OpState::Source { next_offset } = &mut sim.live.tasks[s.index()].state {
                *next_offset = committed;
            }
        }
        let fresh = sim.fresh_storm();
        sim.live.mechanism.put(fresh);
        (RestoreFrom::from(StormRestore::Committed), vec![])
    }
    fn own_sources(&self) -> Option<&dyn OwnSources> {
        Some(self)
    }
    fn own_steps(&self) -> Option<&dyn OwnSteps> {
        Some(self)
    }
}

impl OwnSources for XorAcker {
    /// A tuple not yet acked will be emitted again if it fails.
    fn on_its_way(&self, sim: &Sim, v: &mut [bool]) {
        for (i, again) in sim.awaiting_replay().into_iter().enumerate() {
            v[i] |= again;
        }
    }
    fn committed_offset(&self, sim: &Sim, t: TaskId) -> u32 {
        sim.durable.mechanism.get::<CommittedOffsets>().map_or(0, |c| c.of(t))
    }
    fn next_read(&self, sim: &Sim, t: TaskId) -> Option<u32> {
        let retry = sim.storm().and_then(|s| s.spouts[t.index()].retry.first().copied());
        retry.or_else(|| sim.next_in_log(t))
    }
    /// The spout emits the record, anchored to a new tree (a failed offset it emits again is no
    /// longer due).
    fn on_read(&self, sim: &mut Sim, t: TaskId, offset: u32, rec: Record, out: &mut Vec<Event>) {
        out.push(Event::Read { task: t, record: rec.id, offset, replayed: rec.replayed });
        sim.emitted.clear();
        sim.emit(t, rec);
        let children = std::mem::take(&mut sim.emitted);
        if let Some(s) = sim.live.mechanism.get_mut::<StormRuntime>() {
            s.spouts[t.index()].retry.remove(&offset);
        }
        sim.spout_emitted(t, offset, rec.id, &children, out);
        sim.emitted = children;
    }
    fn after_record(
        &self,
        sim: &mut Sim,
        t: TaskId,
        c: ChannelId,
        seq: u64,
        record: RecordId,
        children: &[(ChannelId, u64)],
        out: &mut Vec<Event>,
    ) {
        sim.bolt_acks(t, c, seq, record, children, out);
    }
}

impl OwnSteps for XorAcker {
    /// Is there an acker message for the scheduler to deliver?
    fn pending_work(&self, sim: &Sim) -> bool {
        sim.storm()
            .is_some_and(|s| s.to_acker.iter().any(|q| !q.is_empty()) || s.to_spout.iter().any(|q| !q.is_empty()))
    }
    /// Every task's message to the acker, then every answer to a spout.
    fn steps(&self, sim: &Sim, out: &mut Vec<Action>) {
        let Some(storm) = sim.storm() else { return };
        for (t, q) in storm.to_acker.iter().enumerate() {
            if !q.is_empty() {
                out.push(to_acker(TaskId(t as u16)));
            }
        }
        for (t, q) in storm.to_spout.iter().enumerate() {
            if !q.is_empty() {
                out.push(from_acker(TaskId(t as u16)));
            }
        }
    }
    fn apply_step(&self, sim: &mut Sim, step: Step, out: &mut Vec<Event>) {
        match step.kind {
            TO_ACKER => sim.deliver_to_acker(step.task, out),
            _ => sim.deliver_to_spout(step.task, out),
        }
    }
    fn step_words(&self, step: Step, task: &str, lang: Lang) -> Option<String> {
        super::wording::step(step, task, lang)
    }
}

impl Sim {
    /// Storm's reliability machinery, while the workers run.
    pub fn storm(&self) -> Option<&StormRuntime> {
        self.live.mechanism.get()
    }

    fn storm_mut(&mut self) -> &mut StormRuntime {
        self.live.mechanism.get_mut().expect("the workers run")
    }

    /// Storm's machinery for a fresh start of the workers: nothing pending, and per channel
    /// whether its edge is unanchored (read from the settings once, not at every emit).
    pub(crate) fn fresh_storm(&self) -> StormRuntime {
        let g = &self.graph;
        let op = |t| g.spec.operators[g.task(t).operator.index()].name.as_str();
        let unanchored = g
            .channels
            .iter()
            .map(|c| {
                self.settings
                    .mechanism
                    .storm
                    .unanchored
                    .iter()
                    .any(|e| e.split_once("->") == Some((op(c.from), op(c.to))))
            })
            .collect();
        StormRuntime::new(g.tasks.len(), unanchored)
    }

    /// The spout emitted `record` (message id `offset`) as `children`: a new tree, or (no acker)
    /// acked at once.
    fn spout_emitted(
        &mut self,
        t: TaskId,
        offset: u32,
        record: RecordId,
        children: &[(ChannelId, u64)],
        out: &mut Vec<Event>,
    ) {
        if self.settings.mechanism.storm.ackers == 0 {
            self.mark_acked(t, offset);
            return;
        }
        let root = self.rng.next_u64();
        let mut xor = 0;
        let mut opened = Vec::with_capacity(children.len());
        for &child in children {
            let edge = self.rng.next_u64();
            self.storm_mut().anchors.insert(child, TupleId { root, edge });
            xor ^= edge;
            opened.push(edge);
        }
        let storm = self.storm_mut();
        storm.spouts[t.index()].pending.put(root, (offset, record));
        storm.to_acker[t.index()].push_back(AckMessage::Init { root, xor, spout: t, offset, record, opened });
        out.push(Event::from(StormEvent::AckInitSent { task: t, record, root }));
    }

    /// Bolt `t` processed tuple `seq` of channel `c` and emitted `children`: anchored ones get an
    /// edge id each, then the input is acked.
    fn bolt_acks(
        &mut self,
        t: TaskId,
        c: ChannelId,
        seq: u64,
        record: RecordId,
        children: &[(ChannelId, u64)],
        out: &mut Vec<Event>,
    ) {
        let Some(input) = self.storm_mut().anchors.remove(&(c, seq)) else { return };
        let mut xor = input.edge;
        let mut opened = Vec::new();
        for &child in children {
            if self.storm_mut().unanchored[child.0.index()] {
                continue;
            }
            let edge = self.rng.next_u64();
            self.storm_mut().anchors.insert(child, TupleId { root: input.root, edge });
            xor ^= edge;
            opened.push(edge);
        }
        let anchored = opened.len() as u16;
        self.storm_mut().to_acker[t.index()].push_back(AckMessage::Ack {
            root: input.root,
            xor,
            record,
            closed: input.edge,
            opened,
        });
        out.push(Event::from(StormEvent::AckSent {
            task: t,
            record,
            root: input.root,
            anchored,
            unanchored: children.len() as u16 - anchored,
        }));
    }

    /// The acker takes the oldest message from task `from`.
    pub(crate) fn deliver_to_acker(&mut self, from: TaskId, out: &mut Vec<Event>) {
        let step = self.storm_mut().acker_receive(from).expect("checked");
        out.push(Event::from(StormEvent::AckerUpdated { from, record: step.record, root: step.root, val: step.val }));
        if let Some((spout, answer)) = step.completed {
            out.push(Event::from(StormEvent::TreeCompleted { spout, record: answer.record, root: answer.root }));
        }
    }

    /// Spout `t` takes the acker's oldest answer: it forgets the tuple and commits.
    pub(crate) fn deliver_to_spout(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let storm = self.storm_mut();
        let answer = storm.to_spout[t.index()].pop_front().expect("checked");
        match storm.spouts[t.index()].pending.remove(&answer.root) {
            Some((offset, record)) => {
                self.mark_acked(t, offset);
                out.push(Event::from(StormEvent::SpoutAcked {
                    task: t,
                    record,
                    offset,
                    committed: self.committed_offset(t),
                }));
            }
            None => out.push(Event::from(StormEvent::StaleAckIgnored { task: t, record: answer.record })),
        }
    }

    /// `offset` of spout `t` is acked: commit every contiguous acked offset.
    fn mark_acked(&mut self, t: TaskId, offset: u32) {
        let mut committed = self.committed_offset(t);
        if let Some(storm) = self.live.mechanism.get_mut::<StormRuntime>() {
            let acked = &mut storm.spouts[t.index()].acked;
            acked.insert(offset);
            while acked.remove(&committed) {
                committed += 1;
            }
        } else if offset == committed {
            committed += 1;
        }
        let tasks = self.graph.tasks.len();
        self.durable.mechanism.get_mut::<CommittedOffsets>().expect("Storm's offsets").commit(t, committed, tasks);
    }

    /// One message timeout passed: the spouts' and the acker's pending maps rotate. A spout tuple
    /// that falls out has failed and its offset is emitted again; the acker forgets its entry.
    fn rotate_pending(&mut self, out: &mut Vec<Event>) {
        let Some(storm) = self.live.mechanism.get_mut::<StormRuntime>() else { return };
        for (t, spout) in storm.spouts.iter_mut().enumerate() {
            for (_, (offset, record)) in spout.pending.rotate() {
                spout.retry.insert(offset);
                out.push(Event::from(StormEvent::TupleTimedOut { task: TaskId(t as u16), record, offset }));
            }
        }
        for (root, entry) in storm.acker.rotate() {
            out.push(Event::from(StormEvent::AckerForgot { root, record: entry.spout.map(|s| s.2) }));
        }
    }

    /// Per source record: will a spout emit it again (pending without an ack, or failed and due)?
    pub fn awaiting_replay(&self) -> Vec<bool> {
        let mut v = vec![false; self.graph.records.len()];
        if let Some(storm) = self.storm() {
            for s in self.graph.sources() {
                let spout = &storm.spouts[s.index()];
                for (_, (_, r)) in spout.pending.entries() {
                    v[r.0 as usize] = true;
                }
                for o in &spout.retry {
                    v[self.graph.task(s).log[*o as usize].0 as usize] = true;
                }
            }
        }
        v
    }
}
