//! State hashing: when are two states of a run the same state? The explorer merges schedules that
//! reach the same state, as explicit-state model checkers do (TLA+'s TLC keeps a fingerprint of
//! every state it has seen; SPIN hashes its state vector): one state, however many schedules lead
//! to it, is expanded once. That is sound only if two states with the same key have the same
//! futures and the same verdicts. The key is therefore everything that can affect what the job
//! does next or what the ledger says at the end, and nothing else:
//!
//! - **In the key.** Whether the job is down (and why) and the JobManager's state; per task its
//!   status, operator state (with the records that contributed: the verdict counts them), barrier
//!   progress (alignment, the tracker's counts, the newest checkpoint handled, the checkpoints it
//!   knows were aborted, the round-robin position); per channel its queue (records with their
//!   value, barriers, cancel markers) and whether it is blocked; the CheckpointCoordinator's pending
//!   checkpoints (with the snapshots acknowledged so far), its aborted ids and its count of
//!   failed checkpoints; a stop-the-world in progress (the mechanism's own live state, keyed in
//!   full: the sources are paused or not); the notifications on their way; checkpoint
//!   storage (completed checkpoints and timer saves, by content), the checkpoint id counter and
//!   what the external system holds; whether the job was stopped or cancelled, a stop with
//!   savepoint in progress, which pending checkpoints are savepoints, and the user's savepoints;
//!   and the fault budget spent so far.
//! - **Out of the key, because nothing reads it to decide anything.** The logical clock and the
//!   steps recorded in states (when a snapshot, a row or a checkpoint was taken), unless an
//!   alignment timeout makes time matter (then the clock is in the key: a barrier's trigger step
//!   decides when it times out; the explorer refuses the other timed settings); the sequence
//!   numbers that name each sending on a channel (the cut check's), unless the strategy can store
//!   in-flight records, whose restore orders and de-duplicates them by sequence number. Even then
//!   only their order on each channel matters (a number sent later is always larger), so the key
//!   holds each number's rank among the numbers of its channel that the state holds, not the
//!   number: two states that sent a different number of records before a crash but hold the same
//!   records in the same order are one state, and stay one after every next step; whether a
//!   record on the wire is a replay, and the read high-water marks behind it (only strategy
//!   `none` restarting `from-latest` reads those, and then they are in the key); the observer's
//!   channel logs, history and statistics; the PRNG (only `auto` draws from it, and the explorer
//!   chooses every step itself).
//!
//! - **The history that counts, as far as completeness and order are judged on it**
//!   (`crate::engine::core::history`). Per channel, of the effects at its consumer that still count (a
//!   restore keeps a prefix of them, the one its snapshot reflects; an effect taken back never
//!   counts again): per record the edge of the job wants, how often it took effect on the edge's
//!   channel, up to what the edge wants (completeness asks only "fewer than the failure-free
//!   run?", and counts only grow until a restore); and, at a task other than a sink, per source
//!   partition whose records come along one path, the newest offset that took effect, and
//!   whether some record already took effect out of order there (order asks only "after a newer
//!   one?"). The same summary of the prefix each snapshot held in the state reflects, per input
//!   of its task, with the rank of the snapshot's step among the steps of the snapshots of its
//!   task the state holds (a restore from one takes the later ones back to it too). Per row of
//!   the external system, the rank of the step that wrote it among the rows' steps and (a sink
//!   with several inputs) the input it came from: a reader's order, on which order at a sink is
//!   judged. Not the steps themselves, not the order of records of different partitions, not the
//!   effects a restore took back: two runs that differ only there have the same verdicts in
//!   every future.
//!
//! So the ledger's four verdicts (state, output, completeness, order) are a function of the key,
//! and so is every future's: `tests/explorer.rs` checks the shares against a search that merges
//! nothing.
//!
//! Every struct is taken apart with all its fields named, so a new field does not compile until
//! someone decides here whether it belongs in the key. The key is written as bytes and hashed with
//! 128-bit FNV-1a: with a million states the chance that two different ones collide is about
//! 10^-27.

use crate::engine::core::action::CrashScope;
use crate::engine::core::dataflow::external_system::{ExternalSystem, Row};
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::record::Item;
use crate::engine::core::history::{edge_wants, single_path, Effect};
use crate::engine::core::ids::RecordId;
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::jobmanager::high_availability::Masters;
use crate::engine::jobmanager::savepoint_kinds::JobEnd;
use crate::engine::mechanisms::progress::Alignment;
use crate::engine::settings::{RestartPolicy, Strategy};

use super::FaultsSpent;

mod durable;
mod live;

/// What the key must hold beyond the job's state, decided once per exploration from the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyScope {
    /// An alignment timeout: time decides when a barrier times out; or slow tasks and debloated
    /// buffers, whose busy steps and windows count time.
    pub clock: bool,
    /// Slow tasks or debloated buffers: each task's busy step and window are keyed.
    pub flow: bool,
    /// The strategy can store in-flight records: sequence numbers order and de-duplicate them on
    /// restore.
    pub sequence_numbers: bool,
    /// Strategy `none` restarting `from-latest`: the sources resume after the newest record read.
    pub read_high_water: bool,
}

impl KeyScope {
    pub fn for_sim(sim: &Sim) -> KeyScope {
        let s = &sim.settings;
        KeyScope {
            clock: s.alignment_timeout.is_some() || sim.flow.slow || sim.flow.debloat_target.is_some(),
            flow: sim.flow.slow || sim.flow.debloat_target.is_some(),
            sequence_numbers: sim.stores_in_flight() || s.alignment_timeout.is_some(),
            read_high_water: s.strategy == Strategy::None && s.restart == RestartPolicy::FromLatest,
        }
    }
}

/// The canonical bytes of a state's key (see the module note). Equal bytes, same state.
///
/// It derives what the key reads of the job each time; an exploration keys thousands of states
/// with one [`Keyer`], which derives it once.
pub fn key_bytes(sim: &Sim, spent: &FaultsSpent, scope: KeyScope, out: &mut Vec<u8>) {
    Keyer::new(sim, scope).key_bytes(sim, spent, out);
}

/// The state key of one exploration: what it reads of the job, derived once (what completeness
/// wants on each edge, which source partitions come along one path), and the space the key's
/// summaries are built in, reused from one state to the next. Its bytes are [`key_bytes`]'s,
/// only cheaper to get, as TLC and SPIN compute a state's fingerprint without allocating.
pub struct Keyer {
    scope: KeyScope,
    history: History,
}

impl Keyer {
    /// The key of the states of a run of `sim`'s job (any state of it: the job, its input and
    /// the failure-free run never change).
    pub fn new(sim: &Sim, scope: KeyScope) -> Keyer {
        let wants = edge_wants(&sim.graph, &sim.expected.places);
        let want_index = wants
            .iter()
            .map(|w| {
                let mut index = vec![NOT_WANTED; sim.graph.records.len()];
                for (i, (r, _)) in w.iter().enumerate() {
                    index[r.index()] = i as u32;
                }
                index
            })
            .collect();
        let history = History {
            wants,
            want_index,
            single: single_path(&sim.graph),
            counted: Vec::new(),
            snapshot_ticks: Vec::new(),
            row_ticks: Vec::new(),
            ranks: Vec::new(),
            got: Vec::new(),
            newest: Vec::new(),
            cursor: Vec::new(),
        };
        Keyer { scope, history }
    }

    pub fn scope(&self) -> KeyScope {
        self.scope
    }

    /// The canonical bytes of `sim`'s key with the faults `spent` (see the module note).
    pub fn key_bytes(&mut self, sim: &Sim, spent: &FaultsSpent, out: &mut Vec<u8>) {
        out.clear();
        let h = &mut self.history;
        h.collect(sim, self.scope);
        let bytes = Bytes { out, chunk: [0; CHUNK], n: 0 };
        let mut w = KeyWriter { bytes, scope: self.scope, sim, history: h };
        w.spent(spent);
        w.sim(sim);
        w.bytes.flush();
    }

    /// The key's hash ([`hash128`] of its bytes), with `buf` as the space for the bytes.
    pub fn key(&mut self, sim: &Sim, spent: &FaultsSpent, buf: &mut Vec<u8>) -> u128 {
        self.key_bytes(sim, spent, buf);
        hash128(buf)
    }
}

/// A record the edge does not want: no place in its wants.
const NOT_WANTED: u32 = u32::MAX;

/// Clears each of `v`'s first `n` vectors, keeping their space, and makes it `n` long.
fn reset<T>(v: &mut Vec<Vec<T>>, n: usize) {
    v.truncate(n);
    v.iter_mut().for_each(Vec::clear);
    v.resize_with(n, Vec::new);
}

impl History {
    /// Reads what the key needs of `sim`'s history into the reused space.
    fn collect(&mut self, sim: &Sim, scope: KeyScope) {
        let g = &sim.graph;
        // Per channel, the effects at its consumer that still count, in step order
        // (`EffectLog::counted_effects_by_channel`): effects come in step order and each task's
        // ranges ascend, so one cursor per task.
        reset(&mut self.counted, g.channels.len());
        self.cursor.clear();
        self.cursor.resize(g.tasks.len(), 0);
        let cursor = &mut self.cursor;
        for e in sim.effects.iter() {
            let t = g.channel(e.channel).to;
            let ranges = sim.effects.counted(t);
            let i = &mut cursor[t.index()];
            while *i < ranges.len() && ranges[*i].1 < e.step {
                *i += 1;
            }
            if ranges.get(*i).is_some_and(|r| r.0 <= e.step) {
                self.counted[e.channel.index()].push(*e);
            }
        }
        self.row_ticks.clear();
        self.row_ticks.extend(external_rows(&sim.durable.external).map(|r| r.tick));
        self.row_ticks.sort_unstable();
        self.row_ticks.dedup();
        reset(&mut self.snapshot_ticks, g.tasks.len());
        let ticks = &mut self.snapshot_ticks;
        for_each_snapshot(sim, |s| ticks[s.task.index()].push(s.tick));
        for t in &mut self.snapshot_ticks {
            t.sort_unstable();
            t.dedup();
        }
        if scope.sequence_numbers {
            sequence_numbers(sim, &mut self.ranks);
        } else {
            self.ranks.clear();
        }
    }
}

/// Per channel, the sequence numbers held anywhere in the state (queues, and the in-flight data of
/// every snapshot [`for_each_snapshot`] finds, savepoints' too), sorted and without repeats.
fn sequence_numbers(sim: &Sim, v: &mut Vec<Vec<u64>>) {
    reset(v, sim.live.channels.len());
    for (c, ch) in sim.live.channels.iter().enumerate() {
        for item in &ch.queue {
            if let Item::Record { seq, .. } = item {
                v[c].push(*seq);
            }
        }
    }
    for_each_snapshot(sim, |s| {
        for (c, seq, _) in &s.in_flight {
            v[c.index()].push(*seq);
        }
    });
    for c in v.iter_mut() {
        c.sort_unstable();
        c.dedup();
    }
}

/// Every snapshot the state holds: taken unaligned during an alignment, in pending and completed
/// checkpoints, timer saves, savepoints.
fn for_each_snapshot<'s>(sim: &'s Sim, mut f: impl FnMut(&'s TaskSnapshot)) {
    for t in &sim.live.tasks {
        if let Some(s) = Alignment::of(t).and_then(|a| a.unaligned.as_deref()) {
            f(s);
        }
    }
    for p in &sim.live.coordinator.pending {
        p.snapshots.iter().flatten().for_each(&mut f);
    }
    for cp in &sim.durable.storage.completed {
        cp.snapshots.iter().for_each(&mut f);
    }
    sim.durable.storage.saves.iter().flatten().for_each(&mut f);
    for sp in &sim.durable.savepoints {
        sp.checkpoint.snapshots.iter().for_each(&mut f);
    }
}

/// What the key reads of the history that counts (see the module note).
struct History {
    /// Per channel, what completeness wants on its edge: (record, times), by record.
    wants: Vec<Vec<(RecordId, u32)>>,
    /// Per channel, per record: its place in `wants`, or [`NOT_WANTED`].
    want_index: Vec<Vec<u32>>,
    /// Per channel, per source task: do its records come along one path (order is judged)?
    single: Vec<Vec<bool>>,
    /// Per channel, the effects at its consumer that still count, in step order.
    counted: Vec<Vec<Effect>>,
    /// Per task, the steps of the snapshots of it the state holds, sorted, without repeats.
    snapshot_ticks: Vec<Vec<u64>>,
    /// The steps that wrote the external system's rows, sorted, without repeats.
    row_ticks: Vec<u64>,
    /// Per channel, the sequence numbers the state holds, sorted: a number is keyed by its rank.
    ranks: Vec<Vec<u64>>,
    /// Space for a summary: per record an edge wants, its effects; per source task, the newest
    /// offset.
    got: Vec<u32>,
    newest: Vec<Option<u32>>,
    /// Per task, how far its ranges of effects that count have been read.
    cursor: Vec<usize>,
}

/// Every row the external system holds: appended, in the table, in transactions of any status.
fn external_rows(e: &ExternalSystem) -> impl Iterator<Item = &Row> + '_ {
    e.appended.iter().chain(e.table.values()).chain(e.txns.iter().flat_map(|t| t.rows.iter()))
}

/// The 128-bit FNV-1a hash of a key's bytes: the id under which the explorer merges states.
pub fn hash128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    let mut h = OFFSET;
    for &b in bytes {
        h ^= b as u128;
        h = h.wrapping_mul(PRIME);
    }
    h
}

/// How many bytes a [`KeyWriter`] gathers before it appends them to the key.
const CHUNK: usize = 128;

/// A key's bytes as they are written.
struct Bytes<'a> {
    out: &'a mut Vec<u8>,
    /// The bytes not yet appended to `out`: a byte is stored in an array, not pushed onto the
    /// vector (a call per byte where the page's build optimises for size).
    chunk: [u8; CHUNK],
    n: usize,
}

impl Bytes<'_> {
    fn flush(&mut self) {
        self.out.extend_from_slice(&self.chunk[..self.n]);
        self.n = 0;
    }
    #[inline(always)]
    fn u8(&mut self, x: u8) {
        if self.n == CHUNK {
            self.flush();
        }
        self.chunk[self.n] = x;
        self.n += 1;
    }
    #[inline(always)]
    fn u64(&mut self, x: u64) {
        // Small numbers dominate: a varint keeps the key short.
        let mut x = x;
        while x >= 0x80 {
            self.u8((x as u8) | 0x80);
            x >>= 7;
        }
        self.u8(x as u8);
    }
    #[inline(always)]
    fn opt_u64(&mut self, x: Option<u64>) {
        match x {
            None => self.u8(0),
            Some(v) => {
                self.u8(1);
                self.u64(v);
            }
        }
    }
}

struct KeyWriter<'a> {
    bytes: Bytes<'a>,
    scope: KeyScope,
    sim: &'a Sim,
    history: &'a mut History,
}

impl KeyWriter<'_> {
    #[inline(always)]
    fn u8(&mut self, x: u8) {
        self.bytes.u8(x);
    }
    #[inline(always)]
    fn bool(&mut self, x: bool) {
        self.bytes.u8(x as u8);
    }
    #[inline(always)]
    fn u64(&mut self, x: u64) {
        self.bytes.u64(x);
    }
    fn i64(&mut self, x: i64) {
        self.u64(((x << 1) ^ (x >> 63)) as u64);
    }
    fn len(&mut self, n: usize) {
        self.u64(n as u64);
    }
    #[inline(always)]
    fn opt_u64(&mut self, x: Option<u64>) {
        self.bytes.opt_u64(x);
    }
    /// A step number: in the key only while time matters.
    fn tick(&mut self, t: u64) {
        if self.scope.clock {
            self.u64(t);
        }
    }
    /// A sequence number on channel `c`: its rank among the channel's numbers in the state.
    fn seq(&mut self, c: usize, s: u64) {
        if self.scope.sequence_numbers {
            let rank = self.history.ranks[c].binary_search(&s).expect("every number held was collected");
            self.u64(rank as u64);
        }
    }

    fn spent(&mut self, f: &FaultsSpent) {
        let FaultsSpent { checkpoints, timers, crashes, final_checkpoint } = f;
        self.u8(*checkpoints);
        self.len(timers.len());
        for t in timers {
            self.u8(*t);
        }
        self.u8(*crashes);
        self.bool(*final_checkpoint);
    }

    fn sim(&mut self, sim: &Sim) {
        let Sim {
            graph,
            settings,
            seed,
            timers,
            expected,
            tick,
            rng,
            stopped,
            live,
            durable,
            wire,
            effects,
            read_high_water,
            stats,
            scratch,
            hooks,
            emitted,
            handler,
            flow,
        } = sim;
        // Fixed for the whole run: the job, its settings, timers, flow and barrier handler, the
        // failure-free run.
        let _ = (graph, settings, seed, timers, expected, hooks, handler, flow);
        // Only `auto` draws from the PRNG; the explorer picks every step itself.
        let _ = rng;
        // The observer's: channel logs, the statistics; and scratch space. The history that
        // counts (`effects`) is written at the end, as far as the verdicts read it.
        let _ = (wire, effects, stats, scratch, emitted);
        self.tick(*tick);
        match &live.down {
            None => self.u8(0),
            Some(scope) => {
                self.u8(1);
                self.crash_scope(*scope);
            }
        }
        self.u8(match stopped {
            None => 0,
            Some(JobEnd::Finished) => 1,
            Some(JobEnd::Canceled) => 2,
        });
        self.bool(live.jobmanager_up);
        self.masters(&durable.masters);
        self.live(live);
        self.durable(durable);
        if self.scope.read_high_water {
            self.len(read_high_water.len());
            for &h in read_high_water {
                self.u64(h as u64);
            }
        }
        // The history that counts (see the module note). While the whole job is down, every task
        // restarts at the restore, to what a snapshot held in the state reflects or to nothing:
        // what counts now is taken back whatever it is, and only the snapshots' part is keyed.
        if matches!(live.down, Some(CrashScope::Cluster | CrashScope::Global)) {
            return;
        }
        for c in 0..self.history.counted.len() {
            let n = self.history.counted[c].len();
            self.history_summary(c, n);
        }
    }

    /// What completeness and order read of the first `n` effects that count on channel `c`.
    fn history_summary(&mut self, c: usize, n: usize) {
        let KeyWriter { bytes, sim, history: h, .. } = self;
        let g = &sim.graph;
        let prefix = &h.counted[c][..n];
        // Per record the edge wants (sorted by record), how often it took effect, up to that.
        let wants = &h.wants[c];
        h.got.clear();
        h.got.resize(wants.len(), 0);
        let index = &h.want_index[c];
        for e in prefix {
            if let Some(&i) = index.get(e.record.index()).filter(|&&i| i != NOT_WANTED) {
                h.got[i as usize] += 1;
            }
        }
        for (&(_, want), &got) in wants.iter().zip(&h.got) {
            bytes.u8(got.min(want) as u8);
        }
        if g.task(g.channels[c].to).kind == OperatorKind::Sink {
            // Order at a sink is judged on the rows a reader sees.
            return;
        }
        h.newest.clear();
        h.newest.resize(g.tasks.len(), None);
        let single = &h.single[c];
        let mut out_of_order = false;
        for e in prefix {
            let rec = g.record(e.record);
            if !single[rec.source.index()] {
                continue;
            }
            let max = &mut h.newest[rec.source.index()];
            out_of_order |= max.is_some_and(|m| rec.offset <= m);
            *max = (*max).max(Some(rec.offset));
        }
        bytes.u8(out_of_order as u8);
        for s in &h.newest {
            bytes.opt_u64(s.map(u64::from));
        }
    }

    fn crash_scope(&mut self, s: CrashScope) {
        match s {
            CrashScope::Cluster => self.u8(0),
            CrashScope::Task(t) => {
                self.u8(1);
                self.u64(t.0 as u64);
            }
            CrashScope::JobManager => self.u8(2),
            CrashScope::Global => self.u8(3),
        }
    }

    fn masters(&mut self, m: &Masters) {
        let Masters { leader, elected_at, awaiting_resubmission, submission } = m;
        self.u8(*leader as u8);
        // When the last election was is the failover statistics'.
        let _ = elected_at;
        self.bool(*awaiting_resubmission);
        self.u64(*submission as u64);
    }
}
