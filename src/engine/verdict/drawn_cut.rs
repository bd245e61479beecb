//! A cut the learner draws: one point per task line of the space-time diagram, and what a restore
//! from it would do. After Chandy and Lamport's consistent cut: a cut is consistent when no
//! message crosses it from the future into the past, that is, when no record is received before
//! the receiver's point yet sent after the sender's (an **orphan**, in the vocabulary of
//! `crate::engine::verdict::cut`: counted, and sent again after a restore, so duplicated). A record sent before the
//! sender's point and received after the receiver's point, or never, is **in transit**: a restore
//! that keeps no channel state (per-task timers, or a checkpoint without in-flight data) loses it.
//!
//! A point `p` is a position on the run's timeline: task `t`'s line is cut after its first `p`
//! steps, and its state there is what a timer save at the end of step `p` would hold. The
//! classification judges each channel exactly as [`Sim::cut_check`] judges a checkpoint's
//! snapshots (what the sender's state at its point has sent, against what the receiver's state has
//! received, by sequence number), and names each crossing arrow with the steps of its send and
//! receipt, read from a replay of the run.
//!
//! The restore crashes a copy of the run at the latest point and puts every task back from its
//! own point, through the engine's own restore: as the per-task-timers strategy does from each
//! task's latest save, or, under a checkpointing strategy, as from a completed checkpoint made of
//! the drawn snapshots (with no in-flight data: a drawn cut records no channel state). The copy
//! then runs to the end and the ledger says what became of each record.

use serde::{Deserialize, Serialize};

use crate::engine::core::action::Action;
use crate::engine::core::dataflow::channel::SeqSet;
use crate::engine::core::dataflow::record::Record;
use crate::engine::core::dataflow::task::TaskStatus;
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::ledger::Ledger;
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::jobmanager::storage::CompletedCheckpoint;
use crate::engine::runs::replay::try_replay;
use crate::engine::runs::timeline::Timeline;
use crate::engine::settings::{SinkMode, Strategy};
use crate::engine::space_time::Positions;

/// How an arrow crosses the drawn cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Crossing {
    /// Received at or before the receiver's point, sent after the sender's: the cut is
    /// inconsistent, and a restore from it counts the record once more.
    Orphan,
    /// Sent at or before the sender's point, received after the receiver's point or never: a
    /// restore from the cut, with no channel state, loses it.
    InTransit,
}

impl Crossing {
    pub fn id(self) -> &'static str {
        match self {
            Crossing::Orphan => "orphan",
            Crossing::InTransit => "in transit",
        }
    }
}

/// One record's arrow across the cut: one sending on one channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrow {
    pub crossing: Crossing,
    pub record: RecordId,
    pub label: String,
    pub channel: ChannelId,
    pub channel_name: String,
    /// The sending's sequence number on the channel.
    pub seq: u64,
    /// The step (1-based position on the timeline) whose action sent it.
    pub sent_at: Option<u64>,
    /// The step that delivered it, if any did.
    pub received_at: Option<u64>,
}

/// A drawn cut and the arrows that cross it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawnCut {
    /// Per task, in the job's task order: the step after which its line is cut.
    pub points: Vec<u64>,
    /// Orphans first, then records in transit, each by channel and sequence number.
    pub arrows: Vec<Arrow>,
}

impl DrawnCut {
    /// Consistent iff no arrow is an orphan (records in transit are allowed: Chandy and Lamport
    /// record them as channel state).
    pub fn consistent(&self) -> bool {
        !self.arrows.iter().any(|a| a.crossing == Crossing::Orphan)
    }
    pub fn orphans(&self) -> Vec<RecordId> {
        self.of(Crossing::Orphan)
    }
    pub fn in_transit(&self) -> Vec<RecordId> {
        self.of(Crossing::InTransit)
    }
    fn of(&self, c: Crossing) -> Vec<RecordId> {
        self.arrows.iter().filter(|a| a.crossing == c).map(|a| a.record).collect()
    }
}

/// What a restore from the drawn cut did, once the copy of the run reached its end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutRestore {
    /// The copy crashed after this step (the latest point), then restored from the cut.
    pub crashed_after: u64,
    /// The steps the copy took after the restore, to its end.
    pub steps_to_end: usize,
    pub ledger: Ledger,
}

/// Why a cut can't be classified or restored from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawnCutError {
    /// One point per task is needed.
    Points { tasks: usize, given: usize },
    /// A point past the end of the run.
    PastTheEnd { task: String, point: u64, steps: usize },
    /// The task was not running at its point: it has no state to cut.
    TaskDown { task: String, point: u64 },
    /// The strategy's restore can't be fed a drawn cut.
    Unsupported(String),
}

impl std::fmt::Display for DrawnCutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawnCutError::Points { tasks, given } => {
                write!(f, "the job has {tasks} tasks; give one point per task ({given} given)")
            }
            DrawnCutError::PastTheEnd { task, point, steps } => {
                write!(f, "{task}: step {point} is past the end of the run ({steps} steps)")
            }
            DrawnCutError::TaskDown { task, point } => {
                write!(f, "{task} is not running after step {point}: it has no state to cut there")
            }
            DrawnCutError::Unsupported(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for DrawnCutError {}

/// Each sending of the run: the record, and the steps of its send and receipt.
#[derive(Clone, Copy, Debug)]
struct Sending {
    record: Record,
    sent_at: u64,
    received_at: Option<u64>,
}

/// A replay of the run: every sending per channel (indexed by sequence number), each task's
/// snapshot at its point, and the run after the latest point.
struct Replay {
    sendings: Vec<Vec<Option<Sending>>>,
    snaps: Vec<TaskSnapshot>,
    at_latest: Sim,
}

fn replay(tl: &Timeline, points: &[u64]) -> Result<Replay, DrawnCutError> {
    let start = tl.initial();
    let g = start.graph.clone();
    if points.len() != g.tasks.len() {
        return Err(DrawnCutError::Points { tasks: g.tasks.len(), given: points.len() });
    }
    let actions = tl.actions();
    for (t, &p) in points.iter().enumerate() {
        if p as usize > actions.len() {
            return Err(DrawnCutError::PastTheEnd { task: g.tasks[t].name.clone(), point: p, steps: actions.len() });
        }
    }
    let latest = points.iter().copied().max().unwrap_or(0);
    let mut sim = start.clone();
    let mut sendings: Vec<Vec<Option<Sending>>> = vec![Vec::new(); g.channels.len()];
    let mut snaps: Vec<Option<TaskSnapshot>> = vec![None; g.tasks.len()];
    let mut at_latest = None;
    // The channels' positions before the step just replayed.
    let mut before: Option<Positions> = None;
    let mut out = Vec::new();
    // Replayed to the end, for the receipts after the points.
    try_replay(&mut sim, actions, |at| {
        let (step, sim) = (at.step as u64, at.sim);
        if let Some(before) = &before {
            let ch = before.changes(sim);
            for (c, seq, record) in ch.sent {
                let log = &mut sendings[c];
                if log.len() <= seq as usize {
                    log.resize(seq as usize + 1, None);
                }
                log[seq as usize] = record.map(|record| Sending { record, sent_at: step, received_at: None });
            }
            for (c, seq) in ch.received {
                if let Some(Some(s)) = sendings[c].get_mut(seq as usize) {
                    s.received_at.get_or_insert(step);
                }
            }
        }
        for (t, &p) in points.iter().enumerate().filter(|(_, p)| **p == step) {
            let task = TaskId(t as u16);
            if sim.live.tasks[t].status != TaskStatus::Running || sim.down().is_some() {
                return Err(DrawnCutError::TaskDown { task: g.tasks[t].name.clone(), point: p });
            }
            let mut snap = sim.take_snapshot(task, None, &mut out);
            // A save at the end of step p is taken during it, at tick p - 1, and reflects the
            // effects of that step: the history that counts rolls back to it.
            snap.tick = p.saturating_sub(1);
            snaps[t] = Some(snap);
        }
        if step == latest {
            at_latest = Some(sim.clone());
        }
        before = Some(Positions::of(sim));
        Ok(())
    })?;
    Ok(Replay {
        sendings,
        snaps: snaps.into_iter().map(|s| s.expect("every point is within the run")).collect(),
        at_latest: at_latest.expect("the latest point is within the run"),
    })
}

/// Classifies a drawn cut of the run on `tl`: one point per task, in the job's task order.
pub fn classify(tl: &Timeline, points: &[u64]) -> Result<DrawnCut, DrawnCutError> {
    let r = replay(tl, points)?;
    Ok(crossings(tl.initial(), &r, points))
}

fn crossings(sim: &Sim, r: &Replay, points: &[u64]) -> DrawnCut {
    let g = &sim.graph;
    let mut arrows = Vec::new();
    for (ci, info) in g.channels.iter().enumerate() {
        let sent: &SeqSet = &r.snaps[info.from.index()].sent[info.output_index];
        let received: &SeqSet = &r.snaps[info.to.index()].received[info.input_index];
        let known = |seq: u64| r.sendings[ci].get(seq as usize).copied().flatten().map(|s| (seq, s));
        let not_received: Vec<(u64, Sending)> = sent.difference(received).iter().filter_map(known).collect();
        let not_sent: Vec<(u64, Sending)> = received.difference(sent).iter().filter_map(known).collect();
        // As in the engine's cut check: the same record on both sides, carried by two sendings
        // (before and after an earlier restore), makes no difference.
        let (orphans, in_transit) = cancel(not_sent, not_received);
        for (crossing, list) in [(Crossing::Orphan, orphans), (Crossing::InTransit, in_transit)] {
            for (seq, s) in list {
                arrows.push(Arrow {
                    crossing,
                    record: s.record.id,
                    label: g.label(s.record.id).to_string(),
                    channel: ChannelId(ci as u16),
                    channel_name: info.name.clone(),
                    seq,
                    sent_at: Some(s.sent_at),
                    received_at: s.received_at,
                });
            }
        }
    }
    crate::engine::core::stable_sort::sort_stable_by_key(&mut arrows, |a| (a.crossing, a.channel, a.seq));
    DrawnCut { points: points.to_vec(), arrows }
}

/// Sendings by sequence number.
type Numbered = Vec<(u64, Sending)>;

/// Drops the sendings whose record appears on both sides, pairwise, earliest first.
fn cancel(mut not_sent: Numbered, mut not_received: Numbered) -> (Numbered, Numbered) {
    let mut i = 0;
    while i < not_sent.len() {
        let id = not_sent[i].1.record.id;
        match not_received.iter().position(|(_, s)| s.record.id == id) {
            Some(j) => {
                not_sent.remove(i);
                not_received.remove(j);
            }
            None => i += 1,
        }
    }
    (not_sent, not_received)
}

/// Can a drawn cut be restored from under this run's configuration? None: yes.
fn refusal(sim: &Sim) -> Option<String> {
    let strategy = sim.strategy();
    if sim.handler.is_some() {
        return Some("a barrier-handler lab run can't be restored from a drawn cut".into());
    }
    if !strategy.row().restores_snapshots {
        return Some(format!(
            "a restore from a drawn cut needs a strategy that restores task snapshots (timers or a checkpointing \
             one), not `{}`",
            strategy.id()
        ));
    }
    if matches!(sim.settings.sink, SinkMode::TwoPhaseCommit | SinkMode::Transactional | SinkMode::Kafka) {
        return Some(format!(
            "a restore from a drawn cut is refused with a `{}` sink: a drawn snapshot has no pre-committed transaction",
            sim.settings.sink.id()
        ));
    }
    None
}

/// Restores a copy of the run on `tl` from a drawn cut and runs it to the end (at most `limit`
/// steps): the copy crashes after the latest point, every task is put back to its state at its
/// own point by the strategy's restore, and the ledger judges each record at the end.
pub fn restore_from(tl: &Timeline, points: &[u64], limit: usize) -> Result<(DrawnCut, CutRestore), DrawnCutError> {
    if let Some(why) = refusal(tl.initial()) {
        return Err(DrawnCutError::Unsupported(why));
    }
    let r = replay(tl, points)?;
    let cut = crossings(tl.initial(), &r, points);
    let latest = points.iter().copied().max().unwrap_or(0);
    let mut sim = r.at_latest;
    let mut out = Vec::new();
    if sim.check(Action::Crash).is_ok() {
        sim.apply(Action::Crash, &mut out).expect("checked");
    }
    match sim.strategy() {
        Strategy::Timers => {
            for s in r.snaps {
                let t = s.task.index();
                sim.durable.storage.saves[t] = vec![s];
            }
        }
        _ => {
            let id = sim.durable.checkpoint_ids.get_and_increment();
            let snapshots = r.snaps.into_iter().map(|s| TaskSnapshot { checkpoint: Some(id), ..s }).collect();
            let cp = CompletedCheckpoint { id, trigger_tick: latest, completed_tick: latest, snapshots };
            let retained = sim.durable.storage.completed.len() + 1;
            sim.durable.storage.retain_completed(cp, retained);
        }
    }
    sim.apply(Action::Restore, &mut out)
        .map_err(|e| DrawnCutError::Unsupported(format!("the restore was refused: {e}")))?;
    let steps_to_end = sim.run_to_end_each(limit, &mut |_, _| {});
    Ok((cut, CutRestore { crashed_after: latest, steps_to_end, ledger: sim.ledger() }))
}
