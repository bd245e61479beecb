//! Explanations: why a counterexample loses or duplicates what it does, in plain words, built
//! from the run and never written by hand, as Jepsen's Elle explains each anomaly it finds by the
//! operations that make it one. The schedule is replayed and its events and saves are read for
//! the facts that decide a record's fate, following the rollback-recovery survey's terms (Elnozahy
//! et al.): a record the restored source has sent but the restored downstream task has not
//! received is **in transit** across the cut and lost; one the task has received but the source
//! has not sent is an **orphan** and counted twice.
//!
//! For each record with the bad verdict, the facts are: the source that sends it and the save
//! the restore resumes that source from (its step, its offset), the step the source sent the
//! record; the task whose state or output is wrong (the first stateful task, or the sink, that
//! reflects it a different number of times than the failure-free run) and the save the restore
//! gives it, the step the record reached it; the crash and the restore; and for a duplicate,
//! the steps at which the record is sent and taken again. Records with the same story (the same
//! tasks, saves and verdict) are told together. Each fact's step is a **decisive step**, returned
//! for a timeline to mark. The story follows the last crash of the schedule.
//!
//! Steps are numbered from 1, as the runner's `--events` lists them: step n is the n-th action of
//! the schedule, and a timeline shows its effect at position n.

use serde::{Deserialize, Serialize};

use super::counterexample::{BadOutcome, Judged};
use crate::engine::action::{Action, Event};
use crate::engine::dataflow::job_graph::{JobGraph, OperatorKind};
use crate::engine::dataflow::state::OpState;
use crate::engine::ids::{ChannelId, CheckpointId, RecordId, TaskId};
use crate::engine::lang::{say, Lang};
use crate::engine::ledger::{Completeness, LedgerRow, Order, Verdict};
use crate::engine::settings::Strategy;
use crate::engine::sim::Sim;
use crate::engine::snapshot::TaskSnapshot;

/// What a decisive step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decisive {
    /// The source sent the record (before the crash).
    Sent,
    /// A task took the save the restore uses.
    Saved,
    /// The record reached the task whose state or output is wrong (before the crash).
    Received,
    /// A checkpoint's barrier reached that task ahead of the record, on the record's channel.
    BarrierAhead,
    /// The cluster crashed.
    Crashed,
    /// The restore.
    Restored,
    /// After the restore: the source sent the record again, or the restore replayed it.
    SentAgain,
    /// After the restore: the record reached the task again.
    ReceivedAgain,
    /// A barrier handler of the lab dropped the record.
    Dropped,
}

/// A step a timeline should mark, with what happened there, at which task, to which records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecisiveStep {
    /// Numbered from 1: the n-th action of the schedule.
    pub step: u32,
    pub what: Decisive,
    pub task: Option<TaskId>,
    pub records: Vec<RecordId>,
}

/// Where a task came back from at the restore.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "from")]
pub enum Save {
    /// Its save (a timer's, or its snapshot in `checkpoint`) taken at `step`; `step` is None if
    /// it was taken before the schedule began.
    At { step: Option<u32>, checkpoint: Option<CheckpointId> },
    /// It had no save the restore could use: it starts empty (a source at offset 0).
    NotYet,
    /// No checkpoint had completed: every task starts empty, every source at offset 0.
    NoCheckpoint,
    /// Strategy `none` keeps no snapshot: tasks start empty, sources where the restart policy says.
    NoSnapshots,
}

/// Why some records ended with the verdict: one story shared by all of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Account {
    /// Sent by the source before its save, not in the task's restored state (or not written by
    /// the sink), and the restored source resumes after them: in transit across the cut.
    InTransit {
        records: Vec<RecordId>,
        source: TaskId,
        source_save: Save,
        /// Where the restored source resumes.
        resume: u32,
        /// Per record: the step the source sent it.
        sent: Vec<Option<u32>>,
        task: TaskId,
        task_save: Save,
        /// Per record: the step it reached the task before the crash, after the task's save.
        reached: Vec<Option<u32>>,
    },
    /// In the task's restored state (or written by the sink before the crash), and the restored
    /// source sends them again (or the restore replays them): orphans of the cut.
    Orphans {
        records: Vec<RecordId>,
        source: TaskId,
        source_save: Save,
        resume: u32,
        /// Per record: the step the source sent it before the crash.
        sent: Vec<Option<u32>>,
        task: TaskId,
        task_save: Save,
        /// Per record: the step it reached the task (the sink wrote it) before the crash.
        reached: Vec<Option<u32>>,
        /// Per record: the step the checkpoint's barrier had reached the task on the record's
        /// channel before the record did (barriers without alignment let it in before the
        /// snapshot), and that channel.
        behind_barrier: Vec<Option<(u32, ChannelId)>>,
        /// The restore put them back from the in-flight data of the checkpoint.
        replayed: bool,
        /// Per record: the step it was sent again, and the step it reached the task again.
        sent_again: Vec<Option<u32>>,
        reached_again: Vec<Option<u32>>,
    },
    /// A barrier handler (of the lab) dropped them on arrival, after the checkpoint's barrier
    /// on their channel, and nothing sent them again.
    Dropped {
        records: Vec<RecordId>,
        task: TaskId,
        /// Per record: the step it was dropped, and the step and channel of the barrier it came
        /// behind.
        dropped: Vec<Option<u32>>,
        behind_barrier: Vec<Option<(u32, ChannelId)>>,
    },
    /// Completeness: in the failure-free run they take effect at `task` from `channel` (a path of
    /// the job they take); here a restore took that effect back, or it never happened, and
    /// nothing brought them along that path again.
    Incomplete {
        records: Vec<RecordId>,
        channel: ChannelId,
        task: TaskId,
        /// The save the restore gave the task (None without a crash and restore).
        task_save: Option<Save>,
        /// Per record: the step it last took effect there before the crash (taken back).
        took: Vec<Option<u32>>,
    },
    /// Order: they took effect at `task` from `channel` (or, `external`, appear in what a reader
    /// sees of the sink's rows) after a record of the same source partition with the same or a
    /// later offset had.
    OutOfOrder {
        records: Vec<RecordId>,
        channel: ChannelId,
        external: bool,
        task: TaskId,
        /// Per record: the step it took effect out of order.
        at: Vec<Option<u32>>,
        /// Per record: the newer record it came after (itself: a second effect), and that one's
        /// step.
        after: Vec<Option<(RecordId, Option<u32>)>>,
        /// The save the restore gave the task (None without a crash and restore).
        task_save: Option<Save>,
    },
    /// No story above fits: the verdict alone.
    Unexplained { records: Vec<RecordId>, reflected: Vec<u32>, expected: Vec<u32> },
}

/// The story of a counterexample: its records, the crash and restore it turns on, the accounts
/// of the records, and the decisive steps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Story {
    pub bad: BadOutcome,
    /// The records with the bad verdict at the end.
    pub records: Vec<RecordId>,
    pub crash: Option<u32>,
    pub restore: Option<u32>,
    pub accounts: Vec<Account>,
    /// In step order.
    pub decisive: Vec<DecisiveStep>,
}

/// One replayed schedule: per step (from 0) its events; the run just before the last crash's
/// restore, and at the end.
struct Replay {
    events: Vec<Vec<Event>>,
    crash: Option<usize>,
    restore: Option<usize>,
    before_restore: Option<Sim>,
    end: Sim,
    first_tick: u64,
}

impl Replay {
    fn of(initial: &Sim, schedule: &[Action]) -> Replay {
        let mut sim = initial.clone();
        let mut r = Replay {
            events: vec![],
            crash: None,
            restore: None,
            before_restore: None,
            end: sim.clone(),
            first_tick: sim.tick,
        };
        for (i, a) in schedule.iter().enumerate() {
            if *a == Action::Crash {
                r.crash = Some(i);
                r.restore = None;
            }
            if *a == Action::Restore && r.crash.is_some() && r.restore.is_none() {
                r.restore = Some(i);
                r.before_restore = Some(sim.clone());
            }
            let mut ev = Vec::new();
            sim.apply(*a, &mut ev).expect("a counterexample replays");
            r.events.push(ev);
        }
        r.end = sim;
        r
    }
    /// The step (from 1) of a snapshot taken at `tick`, if the schedule took it.
    fn step_of_tick(&self, tick: u64) -> Option<u32> {
        (tick >= self.first_tick).then(|| (tick - self.first_tick + 1) as u32)
    }
    /// The steps (from 1) in `range` (indices from 0) with an event matching `f`.
    fn steps(&self, range: std::ops::Range<usize>, f: impl Fn(&Event) -> bool) -> Vec<u32> {
        range.filter(|&i| self.events.get(i).is_some_and(|ev| ev.iter().any(&f))).map(|i| i as u32 + 1).collect()
    }
    fn save(&self, s: Option<&TaskSnapshot>, strategy: Strategy) -> Save {
        match s {
            _ if strategy == Strategy::None => Save::NoSnapshots,
            Some(s) => Save::At { step: self.step_of_tick(s.tick), checkpoint: s.checkpoint },
            None if strategy.uses_coordinator() => Save::NoCheckpoint,
            None => Save::NotYet,
        }
    }
    fn save_step(save: &Save) -> Option<u32> {
        match save {
            Save::At { step, .. } => *step,
            _ => None,
        }
    }
}

/// How often the failure-free run reflects `r` at task `t`: the records it processed from its
/// inputs (a keyed task counts each once).
fn expected_at(sim: &Sim, t: TaskId, r: RecordId) -> u32 {
    sim.graph
        .task(t)
        .inputs
        .iter()
        .filter_map(|c| sim.expected.places.0.get(c.index()))
        .flat_map(|v| v.iter().filter(|(rec, _)| *rec == r).map(|(_, n)| *n))
        .sum()
}

fn reflected(state: &OpState, r: RecordId) -> u32 {
    match state {
        OpState::Keyed { entries } => {
            entries.values().map(|e| e.contributors.iter().filter(|c| **c == r).count() as u32).sum()
        }
        _ => 0,
    }
}

impl Story {
    /// Replays `schedule` from `initial` and tells why it ends with `bad`.
    pub fn of(initial: &Sim, schedule: &[Action], bad: BadOutcome) -> Story {
        let replay = Replay::of(initial, schedule);
        let end = &replay.end;
        let ledger = end.ledger();
        let records: Vec<RecordId> = ledger
            .rows
            .iter()
            .filter(|row| match bad.judged {
                Judged::State => row.state_verdict == bad.verdict,
                Judged::Output => row.external_verdict == Some(bad.verdict),
                Judged::Complete => row.complete_verdict == Completeness::Incomplete,
                Judged::Order => row.order_verdict == Order::OutOfOrder,
            })
            .map(|row| row.record)
            .collect();
        let mut accounts: Vec<Account> = Vec::new();
        for &r in &records {
            let account = match bad.judged {
                Judged::State | Judged::Output => account_of(&replay, r, bad),
                Judged::Complete | Judged::Order => history_account(&replay, &ledger.rows[r.index()], bad),
            };
            merge_into(&mut accounts, account);
        }
        let crash = replay.crash.map(|i| i as u32 + 1);
        let restore = replay.restore.map(|i| i as u32 + 1);
        let mut decisive = Vec::new();
        let mut mark = |step: Option<u32>, what: Decisive, task: Option<TaskId>, records: &[RecordId]| {
            if let Some(step) = step {
                match decisive
                    .iter_mut()
                    .find(|d: &&mut DecisiveStep| d.step == step && d.what == what && d.task == task)
                {
                    Some(d) => {
                        for r in records {
                            if !d.records.contains(r) {
                                d.records.push(*r);
                            }
                        }
                    }
                    None => decisive.push(DecisiveStep { step, what, task, records: records.to_vec() }),
                }
            }
        };
        mark(crash, Decisive::Crashed, None, &[]);
        mark(restore, Decisive::Restored, None, &[]);
        for a in &accounts {
            match a {
                Account::InTransit { records, source, source_save, sent, task, task_save, reached, .. }
                | Account::Orphans { records, source, source_save, sent, task, task_save, reached, .. } => {
                    mark(Replay::save_step(source_save), Decisive::Saved, Some(*source), records);
                    mark(Replay::save_step(task_save), Decisive::Saved, Some(*task), records);
                    for (i, r) in records.iter().enumerate() {
                        mark(sent[i], Decisive::Sent, Some(*source), &[*r]);
                        mark(reached[i], Decisive::Received, Some(*task), &[*r]);
                    }
                    if let Account::Orphans { sent_again, reached_again, replayed, behind_barrier, .. } = a {
                        for (i, r) in records.iter().enumerate() {
                            mark(behind_barrier[i].map(|(s, _)| s), Decisive::BarrierAhead, Some(*task), &[*r]);
                            let by = if *replayed { None } else { Some(*source) };
                            mark(sent_again[i], Decisive::SentAgain, by, &[*r]);
                            mark(reached_again[i], Decisive::ReceivedAgain, Some(*task), &[*r]);
                        }
                    }
                }
                Account::Dropped { records, task, dropped, behind_barrier } => {
                    for (i, r) in records.iter().enumerate() {
                        mark(behind_barrier[i].map(|(s, _)| s), Decisive::BarrierAhead, Some(*task), &[*r]);
                        mark(dropped[i], Decisive::Dropped, Some(*task), &[*r]);
                    }
                }
                Account::Incomplete { records, task, task_save, took, .. } => {
                    mark(task_save.as_ref().and_then(Replay::save_step), Decisive::Saved, Some(*task), records);
                    for (i, r) in records.iter().enumerate() {
                        mark(took[i], Decisive::Received, Some(*task), &[*r]);
                    }
                }
                Account::OutOfOrder { records, task, at, after, task_save, .. } => {
                    mark(task_save.as_ref().and_then(Replay::save_step), Decisive::Saved, Some(*task), records);
                    for (i, r) in records.iter().enumerate() {
                        if let Some((newer, step)) = after[i] {
                            mark(step, Decisive::Received, Some(*task), &[newer]);
                        }
                        mark(at[i], Decisive::ReceivedAgain, Some(*task), &[*r]);
                    }
                }
                Account::Unexplained { .. } => {}
            }
        }
        decisive.sort_by_key(|d| (d.step, d.what));
        Story { bad, records, crash, restore, accounts, decisive }
    }

    /// The explanation in `lang`: one sentence per account.
    pub fn text(&self, g: &JobGraph, lang: Lang) -> String {
        let crash = self.crash.map_or(String::new(), |s| s.to_string());
        let restore = self.restore.map_or(String::new(), |s| s.to_string());
        let mut out = Vec::new();
        for a in &self.accounts {
            out.push(account_text(a, g, self.bad, &crash, &restore, lang));
        }
        match lang {
            Lang::En => out.join(" "),
            Lang::Zh => tidy_zh(&out.concat()),
        }
    }
}

/// The facts of record `r`'s fate.
fn account_of(replay: &Replay, r: RecordId, bad: BadOutcome) -> Account {
    let end = &replay.end;
    let g = end.graph.clone();
    let info = g.record(r);
    let source = info.source;
    // Completeness and order are told by `history_account`: here State or Output.
    let state = bad.judged == Judged::State;
    let expected_total =
        if state { end.expected.state[r.0 as usize] } else { end.expected.external[r.0 as usize] };
    let reflected_total = if state { end.state_counts()[r.0 as usize] } else { end.external_counts()[r.0 as usize] };
    let unexplained =
        Account::Unexplained { records: vec![r], reflected: vec![reflected_total], expected: vec![expected_total] };
    // Dropped by a barrier handler of the lab, and never taken again where it was dropped?
    if bad.judged == Judged::State && bad.verdict == Verdict::Lost {
        let drop = (0..replay.events.len()).rev().find_map(|i| {
            replay.events[i].iter().find_map(|e| match e {
                Event::RecordDiscarded { task, channel, record, checkpoint } if *record == r => {
                    Some((i, *task, *channel, *checkpoint))
                }
                _ => None,
            })
        });
        if let Some((at, task, channel, checkpoint)) = drop {
            let taken_later = !replay
                .steps(
                    at + 1..replay.events.len(),
                    |e| matches!(e, Event::Processed { task: t, record, .. } if *t == task && *record == r),
                )
                .is_empty();
            if !taken_later {
                let barrier = |e: &Event| matches!(e, Event::BarrierReceived { task: t, channel: c, checkpoint: id, .. } if *t == task && *c == channel && *id == checkpoint);
                let behind = replay.steps(0..at, barrier).last().map(|s| (*s, channel));
                return Account::Dropped {
                    records: vec![r],
                    task,
                    dropped: vec![Some(at as u32 + 1)],
                    behind_barrier: vec![behind],
                };
            }
        }
    }
    let (Some(crash), Some(restore), Some(before)) = (replay.crash, replay.restore, replay.before_restore.as_ref())
    else {
        return unexplained;
    };
    // The task whose state (or output) is off: the first stateful task (or sink) on the record's
    // way that reflects it a different number of times than the failure-free run.
    let task = g.topo_order.iter().copied().find(|t| {
        let kind = &g.task(*t).kind;
        let wanted = if state { kind.is_stateful() } else { *kind == OperatorKind::Sink };
        wanted
            && expected_at(end, *t, r) > 0
            && (!state || reflected(&end.tasks()[t.index()].state, r) != expected_at(end, *t, r))
    });
    let Some(task) = task else { return unexplained };
    let strategy = end.strategy();
    let point = before.restore_point();
    let source_save = replay.save(point[source.index()], strategy);
    let task_save = replay.save(point[task.index()], strategy);
    let task_step = Replay::save_step(&task_save);
    let resume = replay.events[restore]
        .iter()
        .find_map(|e| match e {
            Event::Rewound { task: t, offset } if *t == source => Some(*offset),
            _ => None,
        })
        .unwrap_or(0);
    let replayed = replay.events[restore].iter().any(|e| matches!(e, Event::Replayed { record, .. } if *record == r));
    let sent =
        replay.steps(0..crash, |e| matches!(e, Event::Read { task: t, record, .. } if *t == source && *record == r));
    let sent = sent.last().copied();
    let is_receipt = |e: &Event| match (state, e) {
        (true, Event::Processed { task: t, record, .. }) => *t == task && *record == r,
        (false, Event::SinkWrite { task: t, record, .. }) => *t == task && *record == r,
        _ => false,
    };
    let received = replay.steps(0..crash, is_receipt);
    let in_restored = if state {
        point[task.index()].map_or(0, |s| reflected(&s.state, r))
    } else {
        // What a reader saw of the sink before the crash stays: the external system survives it.
        before.external_counts()[r.0 as usize]
    };
    let comes_again = resume <= info.offset || replayed;
    match bad.verdict {
        Verdict::Lost if !comes_again => {
            // Reached after the task's save (so not in it), if at all; for the output, written
            // at all before the crash (a write no reader sees went into a transaction that never
            // committed).
            let reached = if state {
                received.iter().copied().find(|s| task_step.is_none_or(|t| *s > t))
            } else {
                received.first().copied()
            };
            Account::InTransit {
                records: vec![r],
                source,
                source_save,
                resume,
                sent: vec![sent],
                task,
                task_save,
                reached: vec![reached],
            }
        }
        Verdict::Duplicated if comes_again && in_restored > 0 => {
            let reached = if state {
                received.iter().copied().rfind(|s| task_step.is_none_or(|t| *s < t))
            } else {
                received.last().copied()
            };
            // Did the checkpoint's barrier come ahead of the record on its channel, and the
            // snapshot still count it?
            let checkpoint = match task_save {
                Save::At { checkpoint, .. } => checkpoint,
                _ => None,
            };
            let behind_barrier = match (bad.judged, reached, checkpoint) {
                (Judged::State, Some(at), Some(id)) => {
                    let channel = replay.events[at as usize - 1].iter().find_map(|e| match e {
                        Event::Processed { task: t, record, channel, .. } if *t == task && *record == r => {
                            Some(*channel)
                        }
                        _ => None,
                    });
                    channel.and_then(|c| {
                        let barrier = |e: &Event| {
                            matches!(e, Event::BarrierReceived { task: t, channel, checkpoint, .. } if *t == task && *channel == c && *checkpoint == id)
                        };
                        replay.steps(0..at as usize - 1, barrier).last().map(|s| (*s, c))
                    })
                }
                _ => None,
            };
            let after = restore + 1..replay.events.len();
            let sent_again = if replayed {
                Some(restore as u32 + 1)
            } else {
                replay
                    .steps(
                        after.clone(),
                        |e| matches!(e, Event::Read { task: t, record, .. } if *t == source && *record == r),
                    )
                    .first()
                    .copied()
            };
            let reached_again = replay.steps(after, is_receipt).first().copied();
            Account::Orphans {
                records: vec![r],
                source,
                source_save,
                resume,
                sent: vec![sent],
                task,
                task_save,
                reached: vec![reached],
                behind_barrier: vec![behind_barrier],
                replayed,
                sent_again: vec![sent_again],
                reached_again: vec![reached_again],
            }
        }
        _ => unexplained,
    }
}

/// The facts of an incomplete or out-of-order record, from the history that counts
/// (`crate::engine::history`): where the ledger found it wanting, the save the restore gave that
/// task, and the steps of the effects involved.
fn history_account(replay: &Replay, row: &LedgerRow, bad: BadOutcome) -> Account {
    let end = &replay.end;
    let g = &end.graph;
    let r = row.record;
    let step = |tick: u64| replay.step_of_tick(tick);
    let before_crash = |tick: u64| replay.crash.is_none_or(|c| step(tick).is_some_and(|s| (s as usize) <= c));
    let unexplained = || Account::Unexplained { records: vec![r], reflected: vec![], expected: vec![] };
    if bad.judged == Judged::Complete {
        let Some(place) = row.incomplete_at.first() else { return unexplained() };
        let task = g.channel(place.channel).to;
        let task_save = replay.before_restore.as_ref().map(|b| replay.save(b.restore_point()[task.index()], end.strategy()));
        let took = end
            .effects
            .iter()
            .filter(|e| e.record == r && e.channel == place.channel && before_crash(e.step))
            .last()
            .and_then(|e| step(e.step));
        return Account::Incomplete { records: vec![r], channel: place.channel, task, task_save, took: vec![took] };
    }
    let Some(place) = row.out_of_order_at.first().copied() else { return unexplained() };
    let task = g.channel(place.channel).to;
    let history = if place.external {
        end.effects.seen_effects_by_channel(g, &end.durable.external.visible()).swap_remove(place.channel.index())
    } else {
        end.effects.counted_effects_by_channel(g).swap_remove(place.channel.index())
    };
    let source = g.record(r).source;
    let mut newest: Option<(u32, RecordId, u64)> = None;
    let mut found = None;
    for e in &history {
        let info = g.record(e.record);
        if info.source != source {
            continue;
        }
        if e.record == r {
            if let Some((offset, newer, at)) = newest.filter(|n| info.offset <= n.0) {
                found = Some((step(e.step), (newer, step(at))));
                let _ = offset;
                break;
            }
        }
        if newest.is_none_or(|n| info.offset > n.0) || newest.is_some_and(|n| info.offset == n.0) {
            newest = Some((info.offset, e.record, e.step));
        }
    }
    let Some((at, after)) = found else { return unexplained() };
    let task_save = replay.before_restore.as_ref().map(|b| replay.save(b.restore_point()[task.index()], end.strategy()));
    Account::OutOfOrder {
        task_save,
        records: vec![r],
        channel: place.channel,
        external: place.external,
        task,
        at: vec![at],
        after: vec![Some(after)],
    }
}

/// What makes two records' stories one: the kind, the tasks and saves, where the source resumes,
/// whether the restore replayed them.
type Signature = (u8, Option<(TaskId, Save, u32, TaskId, Save, bool)>);

impl Account {
    fn signature(&self) -> Signature {
        match self {
            Account::InTransit { source, source_save, resume, task, task_save, .. } => {
                (0, Some((*source, *source_save, *resume, *task, *task_save, false)))
            }
            Account::Orphans { source, source_save, resume, task, task_save, replayed, .. } => {
                (1, Some((*source, *source_save, *resume, *task, *task_save, *replayed)))
            }
            Account::Dropped { task, .. } => (3, Some((*task, Save::NotYet, 0, *task, Save::NotYet, false))),
            Account::Incomplete { channel, task, task_save, .. } => {
                (4, Some((*task, task_save.unwrap_or(Save::NotYet), channel.0 as u32, *task, Save::NotYet, task_save.is_some())))
            }
            Account::OutOfOrder { channel, external, task, task_save, .. } => {
                (5, Some((*task, task_save.unwrap_or(Save::NotYet), channel.0 as u32, *task, Save::NotYet, *external)))
            }
            Account::Unexplained { .. } => (2, None),
        }
    }

    /// Takes `other`'s records (with the same signature) into this account.
    fn absorb(&mut self, other: Account) {
        match (self, other) {
            (
                Account::InTransit { records, sent, reached, .. },
                Account::InTransit { records: r2, sent: s2, reached: c2, .. },
            ) => {
                records.extend(r2);
                sent.extend(s2);
                reached.extend(c2);
            }
            (
                Account::Orphans { records, sent, reached, behind_barrier, sent_again, reached_again, .. },
                Account::Orphans {
                    records: r2,
                    sent: s2,
                    reached: c2,
                    behind_barrier: d2,
                    sent_again: a2,
                    reached_again: b2,
                    ..
                },
            ) => {
                records.extend(r2);
                sent.extend(s2);
                reached.extend(c2);
                behind_barrier.extend(d2);
                sent_again.extend(a2);
                reached_again.extend(b2);
            }
            (
                Account::Dropped { records, dropped, behind_barrier, .. },
                Account::Dropped { records: r2, dropped: d2, behind_barrier: b2, .. },
            ) => {
                records.extend(r2);
                dropped.extend(d2);
                behind_barrier.extend(b2);
            }
            (
                Account::Unexplained { records, reflected, expected },
                Account::Unexplained { records: r2, reflected: f2, expected: e2 },
            ) => {
                records.extend(r2);
                reflected.extend(f2);
                expected.extend(e2);
            }
            (Account::Incomplete { records, took, .. }, Account::Incomplete { records: r2, took: t2, .. }) => {
                records.extend(r2);
                took.extend(t2);
            }
            (
                Account::OutOfOrder { records, at, after, .. },
                Account::OutOfOrder { records: r2, at: a2, after: f2, .. },
            ) => {
                records.extend(r2);
                at.extend(a2);
                after.extend(f2);
            }
            _ => unreachable!("accounts with the same signature have the same kind"),
        }
    }
}

/// Adds `a` to the account with the same story, or as a new one.
fn merge_into(accounts: &mut Vec<Account>, a: Account) {
    let sig = a.signature();
    match accounts.iter_mut().find(|b| b.signature() == sig) {
        Some(b) => b.absorb(a),
        None => accounts.push(a),
    }
}

/// Chinese puts no space beside its own punctuation, and one between a Latin name and a Chinese
/// word: the sentences are assembled with spaces around names, tidied here.
fn tidy_zh(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let punct = |c: char| "，。；：（）、".contains(c);
        if c == ' ' && (out.ends_with(' ') || out.chars().last().is_some_and(punct) || out.is_empty()) {
            continue;
        }
        if punct(c) && out.ends_with(' ') {
            out.pop();
        }
        out.push(c);
    }
    out.trim_end().to_string()
}

/// "a", "a and b", "a, b and c"; "a"、"a 和 b"、"a、b 和 c".
fn list(items: &[String], lang: Lang) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => match lang {
            Lang::En => format!("{} and {last}", init.join(", ")),
            Lang::Zh => format!("{} 和 {last}", init.join("、")),
        },
    }
}

/// "step 3", "steps 1, 2 and 3"; "第 3 步", "第 1、2、3 步". None if no step is known.
fn steps(v: &[Option<u32>], lang: Lang) -> Option<String> {
    let known: Vec<String> = v.iter().flatten().map(|s| s.to_string()).collect();
    match (known.len(), lang) {
        (0, _) => None,
        (1, Lang::En) => Some(format!("step {}", known[0])),
        (_, Lang::En) => Some(format!("steps {}", list(&known, Lang::En))),
        (_, Lang::Zh) => Some(format!("第 {} 步", known.join("、"))),
    }
}

fn account_text(a: &Account, g: &JobGraph, bad: BadOutcome, crash: &str, restore: &str, lang: Lang) -> String {
    let name = |t: &TaskId| g.task(*t).name.clone();
    let labels = |rs: &[RecordId]| rs.iter().map(|r| g.label(*r).to_string()).collect::<Vec<_>>();
    let cp = |save: &Save| match save {
        Save::At { checkpoint: Some(c), .. } => say!(lang, " (checkpoint {})", "（检查点 {}）", c.0),
        _ => String::new(),
    };
    let at = |save: &Save| match save {
        Save::At { step: Some(s), .. } => say!(lang, " at step {s}", "在第 {s} 步"),
        Save::At { step: None, .. } => lang.t(" before the schedule began", "在调度开始之前").into(),
        _ => String::new(),
    };
    // In transit and orphans are stories of state (true) or of the output (false).
    let state = bad.judged == Judged::State;
    match a {
        Account::Incomplete { records, channel, task, task_save, took } => {
            let recs = list(&labels(records), lang);
            let many = records.len() > 1;
            let (t, ch) = (name(task), g.channel(*channel).name.clone());
            let verb = if many { lang.t("are incomplete", "不完整") } else { lang.t("is incomplete", "不完整") };
            let they = if many { lang.t("they take", "它们") } else { lang.t("it takes", "它") };
            let took_at = match steps(took, lang) {
                Some(st) => say!(lang, ", and did at {st} before the crash", "，崩溃前也已在{st}生效"),
                None => String::new(),
            };
            let first = say!(
                lang,
                "{recs} {verb}: in the failure-free run {they} effect at {t} from {ch}, a path of the job{took_at}",
                "{recs} {verb}：无故障运行中{they}会经 {ch} 在 {t} 生效（作业的一条路径）{took_at}"
            );
            match task_save {
                None => say!(
                    lang,
                    "{first}; in this schedule that effect never happens.",
                    "{first}；在这个调度中这一效果从未发生。"
                ),
                Some(save) => {
                    let saved = match save {
                        Save::At { .. } => say!(lang, "{t} saved{}{}", "{t} {}保存了状态{}", at(save), cp(save)),
                        Save::NotYet => say!(lang, "{t} had not saved", "{t} 还没有保存过"),
                        Save::NoCheckpoint => say!(lang, "no checkpoint had completed", "还没有检查点完成"),
                        Save::NoSnapshots => say!(lang, "{t} keeps no snapshot", "{t} 不保存快照"),
                    };
                    let back = match save {
                        Save::At { .. } => say!(lang, "gives {t} that save", "把 {t} 恢复到那份保存"),
                        _ => say!(lang, "starts {t} from nothing", "让 {t} 从空状态重新开始"),
                    };
                    say!(
                        lang,
                        "{first}; {saved}; the cluster crashed at step {crash}; the restore at step {restore} {back}, and nothing brings {} along {ch} again: that path lost {}.",
                        "{first}；{saved}；集群在第 {crash} 步崩溃；第 {restore} 步的恢复{back}，之后再也没有谁经 {ch} 把{}送来：这条路径丢失了{}。",
                        if many { lang.t("them", "它们") } else { recs.as_str() },
                        if many { lang.t("them", "它们") } else { recs.as_str() }
                    )
                }
            }
        }
        Account::OutOfOrder { records, channel, external, task, at: at_steps, after, task_save } => {
            let (t, ch) = (name(task), g.channel(*channel).name.clone());
            let where_ = if *external {
                say!(lang, "in what a reader sees of {t}'s rows from {ch}", "在读者看到的 {t} 经 {ch} 写出的行中")
            } else {
                say!(lang, "at {t} on {ch}", "在 {t}（经 {ch}）")
            };
            let parts: Vec<String> = records
                .iter()
                .zip(at_steps.iter().zip(after))
                .map(|(r, (s, newer))| {
                    let rl = g.label(*r);
                    let when = s.map_or(String::new(), |s| say!(lang, " at step {s}", "在第 {s} 步"));
                    match newer {
                        Some((n, ns)) if n == r => {
                            let first = ns.map_or(String::new(), |s| say!(lang, " at step {s}", "在第 {s} 步"));
                            say!(
                                lang,
                                "{rl} took effect{when} after it had already taken effect{first}",
                                "{rl} {when}生效，而它此前已{first}生效过一次"
                            )
                        }
                        Some((n, ns)) => {
                            let first = ns.map_or(String::new(), |s| say!(lang, " at step {s}", "在第 {s} 步"));
                            say!(
                                lang,
                                "{rl} took effect{when} after {}, a later record of the same source, had{first}",
                                "{rl} {when}生效，而同一来源中更晚的 {} 已{first}生效",
                                g.label(*n)
                            )
                        }
                        None => say!(lang, "{rl} took effect{when} after a newer record", "{rl} {when}在更新的记录之后生效"),
                    }
                })
                .collect();
            let saved = match task_save {
                Some(save @ Save::At { .. }) if !*external => {
                    say!(lang, "; {t} saved{}{}, after the earlier effect", "；{t} {}保存了状态{}，在较早的效果之后", at(save), cp(save))
                }
                _ => String::new(),
            };
            let restore_clause = match (crash.is_empty(), lang) {
                (true, _) => String::new(),
                (false, Lang::En) => format!(
                    "{saved}; the cluster crashed at step {crash}, and the restore at step {restore} kept that earlier effect at {t} while the record came along {ch} again"
                ),
                (false, Lang::Zh) => {
                    format!("{saved}；集群在第 {crash} 步崩溃，第 {restore} 步的恢复保留了 {t} 上那个较早的效果，而这条记录又经 {ch} 来了一次")
                }
            };
            say!(
                lang,
                "Out of order {where_}: {}{restore_clause}.",
                "{where_}乱序：{}{restore_clause}。",
                parts.join(lang.t("; ", "；"))
            )
        }
        Account::Dropped { records, task, dropped, behind_barrier } => {
            let recs = list(&labels(records), lang);
            let many = records.len() > 1;
            let spaced = format!(" {recs} ");
            let them = match (many, lang) {
                (true, _) => lang.t("them", "它们"),
                (false, Lang::En) => recs.as_str(),
                (false, Lang::Zh) => spaced.as_str(),
            };
            let t = name(task);
            let at_steps = steps(dropped, lang).map_or(String::new(), |st| say!(lang, " at {st}", "在{st}"));
            let mut barriers: Vec<(u32, ChannelId)> = behind_barrier.iter().flatten().copied().collect();
            barriers.dedup();
            let each: Vec<String> = barriers
                .iter()
                .map(|(s, c)| say!(lang, "on {} at step {s}", "第 {s} 步经 {} 到达", g.channel(*c).name))
                .collect();
            let verb = if many { lang.t("are lost", "丢失了") } else { lang.t("is lost", "丢失了") };
            say!(
                lang,
                "{recs} {verb}: {t} dropped {them}{at_steps}, behind the checkpoint's barrier, which had come {}: this handler drops what comes on an input after its barrier until the last barrier, and nothing sends {them} again.",
                "{recs} {verb}：{t} {at_steps}丢弃了{them}，它们排在检查点屏障之后（屏障{}）：这个处理器会丢弃输入上屏障之后到达的记录，直到最后一个屏障到达，之后再也没有谁重新发送{them}。",
                each.join(lang.t(" and ", "、"))
            )
        }
        Account::Unexplained { records, reflected, expected } => {
            let parts: Vec<String> = records
                .iter()
                .zip(reflected.iter().zip(expected))
                .map(|(r, (n, m))| {
                    say!(
                        lang,
                        "{} is reflected {n} time(s), {m} in the failure-free run",
                        "{} 被反映了 {n} 次，无故障运行中为 {m} 次",
                        g.label(*r)
                    )
                })
                .collect();
            say!(lang, "{}.", "{}。", parts.join(lang.t("; ", "；")))
        }
        Account::InTransit { records, source, source_save, resume, sent, task, task_save, reached } => {
            let recs = list(&labels(records), lang);
            let many = records.len() > 1;
            let spaced = format!(" {recs} ");
            let them = match (many, lang) {
                (true, _) => lang.t("them", "它们"),
                (false, Lang::En) => recs.as_str(),
                (false, Lang::Zh) => spaced.as_str(),
            };
            let verb = match (state, many, lang) {
                (true, false, Lang::En) => "is lost".to_string(),
                (true, true, Lang::En) => "are lost".to_string(),
                (false, false, Lang::En) => "is missing from the output".to_string(),
                (false, true, Lang::En) => "are missing from the output".to_string(),
                (true, _, Lang::Zh) => "丢失了".to_string(),
                (false, _, Lang::Zh) => "没有出现在输出中".to_string(),
            };
            let (s, t) = (name(source), name(task));
            let sent_at = steps(sent, lang).map_or(String::new(), |st| say!(lang, " at {st}", "在{st}"));
            let source_clause = match source_save {
                Save::NoSnapshots => say!(
                    lang,
                    "{s} keeps no snapshot; it had sent {them}{sent_at}",
                    "{s} 不保存快照；它已{sent_at}发送了{them}"
                ),
                _ => say!(
                    lang,
                    "{s} saved offset {resume}{}{}, after sending {them}{sent_at}",
                    "{s} {}保存了偏移量 {resume}{}，此前已{sent_at}发送了{them}",
                    at(source_save),
                    cp(source_save)
                ),
            };
            let arrived = match steps(reached, lang) {
                None => String::new(),
                Some(st) if !many => say!(lang, " at {st}", "（{st}才到达）"),
                Some(_) => {
                    let pairs: Vec<String> = records
                        .iter()
                        .zip(reached)
                        .filter_map(|(r, s)| s.map(|s| say!(lang, "{} at step {s}", "{} 在第 {s} 步", g.label(*r))))
                        .collect();
                    say!(lang, " ({})", "（{}）", pairs.join(lang.t(", ", "，")))
                }
            };
            let (took, without) = (lang.t("reached it", "到达它"), lang.t("a state without", "一个不含"));
            let they = if many { lang.t("they", "它们") } else { them };
            let written = steps(reached, lang);
            let task_clause = match (state, task_save) {
                (false, _) => match (written, lang) {
                    (None, Lang::En) => format!("{t} had not written {them}"),
                    (None, Lang::Zh) => format!("{t} 还没有写出{them}"),
                    (Some(st), Lang::En) => format!("{t} wrote {them} at {st} into a transaction that never committed"),
                    (Some(st), Lang::Zh) => format!("{t} 在{st}把{them}写入了一个从未提交的事务"),
                },
                (_, Save::At { .. }) => match lang {
                    Lang::En => format!("{t} saved{}{}, before {they} {took}{arrived}", at(task_save), cp(task_save)),
                    Lang::Zh => {
                        format!("{t} {}保存了状态{}，那时{them}还没有{took}{arrived}", at(task_save), cp(task_save))
                    }
                },
                (_, Save::NotYet) => say!(lang, "{t} had not saved", "{t} 还没有保存过"),
                (_, Save::NoCheckpoint) => say!(lang, "no checkpoint had completed", "还没有检查点完成"),
                (_, Save::NoSnapshots) => say!(lang, "{t} keeps no snapshot", "{t} 不保存快照"),
            };
            let restored_task = match (state, lang) {
                (true, Lang::En) => format!("gives {t} {without} {them}"),
                (true, Lang::Zh) => format!("并给了 {t} {without}{them}的状态"),
                (false, Lang::En) => format!("{t} never writes {them}"),
                (false, Lang::Zh) => format!("{t} 再也不会写出{them}"),
            };
            let closing = match (source_save, many, lang) {
                (Save::NoSnapshots, _, Lang::En) => format!("no snapshot holds {them}"),
                (Save::NoSnapshots, _, Lang::Zh) => format!("没有任何快照保存{them}"),
                (_, true, Lang::En) => "they were in transit across the cut".into(),
                (_, false, Lang::En) => "it was in transit across the cut".into(),
                (_, _, Lang::Zh) => format!("{them}在切面上处于在途状态"),
            };
            match lang {
                Lang::En => format!(
                    "{recs} {verb}: {source_clause}; {task_clause}; the cluster crashed at step {crash}; the restore at step {restore} resumes {s} after {them} and {restored_task}: {closing}."
                ),
                Lang::Zh => format!(
                    "{recs} {verb}：{source_clause}；{task_clause}；集群在第 {crash} 步崩溃；第 {restore} 步的恢复让 {s} 从{them}之后继续读取，{restored_task}：{closing}。"
                ),
            }
        }
        Account::Orphans {
            records,
            source,
            source_save,
            resume,
            sent,
            task,
            task_save,
            reached,
            behind_barrier,
            replayed,
            sent_again,
            reached_again,
        } => {
            let recs = list(&labels(records), lang);
            let many = records.len() > 1;
            let spaced = format!(" {recs} ");
            let them = match (many, lang) {
                (true, _) => lang.t("them", "它们"),
                (false, Lang::En) => recs.as_str(),
                (false, Lang::Zh) => spaced.as_str(),
            };
            let (s, t) = (name(source), name(task));
            let verb = match (state, many, lang) {
                (true, false, Lang::En) => "is counted twice",
                (true, true, Lang::En) => "are counted twice",
                (false, false, Lang::En) => "is written twice",
                (false, true, Lang::En) => "are written twice",
                (true, _, Lang::Zh) => "被重复计入",
                (false, _, Lang::Zh) => "被重复写出",
            };
            let at_steps =
                |v: &[Option<u32>]| steps(v, lang).map_or(String::new(), |st| say!(lang, " at {st}", "在{st}"));
            // Behind which barriers the records came: "behind the barrier that came on
            // Right->Count at step 8".
            let mut barriers: Vec<(u32, ChannelId)> = behind_barrier.iter().flatten().copied().collect();
            barriers.dedup();
            let behind = match barriers.as_slice() {
                [] => String::new(),
                bs => {
                    let each: Vec<String> = bs
                        .iter()
                        .map(|(s, c)| say!(lang, "on {} at step {s}", "第 {s} 步经 {} 到达", g.channel(*c).name))
                        .collect();
                    say!(
                        lang,
                        ", behind the checkpoint's barrier, which had come {}: the snapshot counts a record that came after its barrier",
                        "，排在检查点屏障之后（屏障{}）：快照计入了在屏障之后到达的记录",
                        each.join(lang.t(" and ", "、"))
                    )
                }
            };
            let task_clause = match (state, lang) {
                (true, Lang::En) => {
                    let they = if many { "they" } else { them };
                    format!(
                        "{t} saved{}{}, after {they} reached it{}{behind}",
                        at(task_save),
                        cp(task_save),
                        at_steps(reached)
                    )
                }
                (true, Lang::Zh) => {
                    format!(
                        "{t} {}保存了状态{}，此前{them}已{}到达它{behind}",
                        at(task_save),
                        cp(task_save),
                        at_steps(reached)
                    )
                }
                (false, Lang::En) => format!("{t} wrote {them}{}", at_steps(reached)),
                (false, Lang::Zh) => format!("{t} 已{}写出{them}", at_steps(reached)),
            };
            let source_clause = match source_save {
                Save::At { .. } => say!(
                    lang,
                    "{s} saved offset {resume}{}{}, before sending {them}{}",
                    "{s} {}保存了偏移量 {resume}{}，那时还没有发送{them}（{}才发送）",
                    at(source_save),
                    cp(source_save),
                    at_steps(sent)
                ),
                Save::NotYet => say!(lang, "{s} had not saved", "{s} 还没有保存过"),
                Save::NoCheckpoint => say!(lang, "no checkpoint had completed", "还没有检查点完成"),
                Save::NoSnapshots => say!(lang, "{s} keeps no snapshot", "{s} 不保存快照"),
            };
            let again = match (state, lang) {
                (true, Lang::En) => format!("{t} counts {them} again{}", at_steps(reached_again)),
                (true, Lang::Zh) => format!("{t} {}再次计入{them}", at_steps(reached_again)),
                (false, Lang::En) => format!("{t} writes {them} again{}", at_steps(reached_again)),
                (false, Lang::Zh) => format!("{t} {}再次写出{them}", at_steps(reached_again)),
            };
            let how = match (replayed, bad.judged, lang) {
                (true, _, Lang::En) => {
                    format!("replays {them} from the in-flight data stored with the checkpoint: {again}")
                }
                (true, _, Lang::Zh) => format!("从检查点保存的在途数据中重放{them}：{again}"),
                (false, _, Lang::En) => {
                    format!(
                        "resumes {s} at offset {resume}: {s} sends {them} again{} and {again}",
                        at_steps(sent_again)
                    )
                }
                (false, _, Lang::Zh) => {
                    format!("让 {s} 从偏移量 {resume} 继续读取：{s} {}再次发送{them}，{again}", at_steps(sent_again))
                }
            };
            let keeps = match (state, lang) {
                (true, Lang::En) => format!("gives {t} a state that counts {them} and "),
                (true, Lang::Zh) => format!("给了 {t} 一个已经计入{them}的状态，并"),
                (false, Lang::En) => String::new(),
                (false, Lang::Zh) => String::new(),
            };
            let orphan = match (state, many, lang) {
                (true, false, Lang::En) => "it was an orphan of the cut".to_string(),
                (true, true, Lang::En) => "they were orphans of the cut".to_string(),
                (true, _, Lang::Zh) => format!("{them}是切面上的孤儿消息"),
                (false, _, Lang::En) => format!("the external system keeps what {t} wrote before the crash"),
                (false, _, Lang::Zh) => format!("外部系统保留了 {t} 在崩溃前写出的内容"),
            };
            match lang {
                Lang::En => format!(
                    "{recs} {verb}: {task_clause}; {source_clause}; the cluster crashed at step {crash}; the restore at step {restore} {keeps}{how}: {orphan}."
                ),
                Lang::Zh => format!(
                    "{recs} {verb}：{task_clause}；{source_clause}；集群在第 {crash} 步崩溃；第 {restore} 步的恢复{keeps}{how}：{orphan}。"
                ),
            }
        }
    }
}
