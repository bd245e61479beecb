//! The accounting of an explanation: the schedule's replay read for the facts that decide each
//! bad record's fate (the source's save and send, the wrong task's save and receipt, the crash and
//! the restore: in transit or orphan, after Elnozahy et al.), from the ledger or from the history
//! that counts, and the records with the same story told together.

use super::replay::{expected_at, reflected, Replay};
use super::{Account, Decisive, DecisiveStep, Save, Story};

use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::ids::{RecordId, TaskId};
use crate::engine::core::ledger::{Completeness, LedgerRow, Order, Verdict};
use crate::engine::core::sim::Sim;
use crate::engine::explorer::outcome::{BadOutcome, Judged};

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
        crate::engine::core::stable_sort::sort_stable_by_key(&mut decisive, |d| (d.step, d.what));
        Story { bad, records, crash, restore, accounts, decisive }
    }
}

/// The facts of record `r`'s fate.
fn account_of(replay: &Replay, r: RecordId, bad: BadOutcome) -> Account {
    let end = &replay.end;
    // Completeness and order are told by `history_account`: here State or Output.
    let state = bad.judged == Judged::State;
    let expected_total = if state { end.expected.state[r.0 as usize] } else { end.expected.external[r.0 as usize] };
    let reflected_total = if state { end.state_counts()[r.0 as usize] } else { end.external_counts()[r.0 as usize] };
    let unexplained =
        Account::Unexplained { records: vec![r], reflected: vec![reflected_total], expected: vec![expected_total] };
    // Dropped by a barrier handler of the lab, and never taken again where it was dropped?
    if bad.judged == Judged::State && bad.verdict == Verdict::Lost {
        if let Some(dropped) = dropped_by_handler(replay, r) {
            return dropped;
        }
    }
    let Some(way) = Way::of(replay, r, state) else { return unexplained };
    match bad.verdict {
        Verdict::Lost if !way.comes_again => way.in_transit(),
        Verdict::Duplicated if way.comes_again && way.in_restored > 0 => way.orphans(bad.judged),
        _ => unexplained,
    }
}

/// Record `r` dropped on arrival by a barrier handler of the lab, behind the checkpoint's barrier
/// on its channel, and never taken again where it was dropped.
fn dropped_by_handler(replay: &Replay, r: RecordId) -> Option<Account> {
    let drop = (0..replay.events.len()).rev().find_map(|i| {
        replay.events[i].iter().find_map(|e| match e {
            Event::RecordDiscarded { task, channel, record, checkpoint } if *record == r => {
                Some((i, *task, *channel, *checkpoint))
            }
            _ => None,
        })
    });
    let (at, task, channel, checkpoint) = drop?;
    let taken_later = !replay
        .steps(
            at + 1..replay.events.len(),
            |e| matches!(e, Event::Processed { task: t, record, .. } if *t == task && *record == r),
        )
        .is_empty();
    if taken_later {
        return None;
    }
    let barrier = |e: &Event| matches!(e, Event::BarrierReceived { task: t, channel: c, checkpoint: id, .. } if *t == task && *c == channel && *id == checkpoint);
    let behind = replay.steps(0..at, barrier).last().map(|s| (*s, channel));
    Some(Account::Dropped { records: vec![r], task, dropped: vec![Some(at as u32 + 1)], behind_barrier: vec![behind] })
}

/// Record `r`'s way from its source to the task whose state (or, `state` false, output) is off:
/// the saves the restore gave both, the steps it was sent and received before the crash, where
/// the restored source resumes, and what the restored task holds of it.
struct Way<'a> {
    replay: &'a Replay,
    r: RecordId,
    state: bool,
    restore: usize,
    source: TaskId,
    source_save: Save,
    resume: u32,
    sent: Option<u32>,
    task: TaskId,
    task_save: Save,
    task_step: Option<u32>,
    /// The steps the task received it (the sink wrote it) before the crash.
    received: Vec<u32>,
    /// The restore put it back from the in-flight data of the checkpoint.
    replayed: bool,
    /// How often the restored task's state (or what a reader saw of the sink) reflects it.
    in_restored: u32,
    /// The restored source sends it again, or the restore replays it.
    comes_again: bool,
}

impl<'a> Way<'a> {
    /// The way, if the schedule crashed and restored and a task on the record's way is off.
    fn of(replay: &'a Replay, r: RecordId, state: bool) -> Option<Way<'a>> {
        let end = &replay.end;
        let g = end.graph.clone();
        let info = g.record(r);
        let source = info.source;
        let (Some(crash), Some(restore), Some(before)) = (replay.crash, replay.restore, replay.before_restore.as_ref())
        else {
            return None;
        };
        // The task whose state (or output) is off: the first stateful task (or sink) on the record's
        // way that reflects it a different number of times than the failure-free run.
        let task = g.topo_order.iter().copied().find(|t| {
            let kind = &g.task(*t).kind;
            let wanted = if state { kind.is_stateful() } else { *kind == OperatorKind::Sink };
            wanted
                && expected_at(end, *t, r) > 0
                && (!state || reflected(&end.tasks()[t.index()].state, r) != expected_at(end, *t, r))
        })?;
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
        let replayed =
            replay.events[restore].iter().any(|e| matches!(e, Event::Replayed { record, .. } if *record == r));
        let sent = replay
            .steps(0..crash, |e| matches!(e, Event::Read { task: t, record, .. } if *t == source && *record == r));
        let sent = sent.last().copied();
        let received = replay.steps(0..crash, |e| receipt(state, task, r, e));
        let in_restored = if state {
            point[task.index()].map_or(0, |s| reflected(&s.state, r))
        } else {
            // What a reader saw of the sink before the crash stays: the external system survives it.
            before.external_counts()[r.0 as usize]
        };
        let comes_again = resume <= info.offset || replayed;
        Some(Way {
            replay,
            r,
            state,
            restore,
            source,
            source_save,
            resume,
            sent,
            task,
            task_save,
            task_step,
            received,
            replayed,
            in_restored,
            comes_again,
        })
    }

    /// Lost in transit: reached after the task's save (so not in it), if at all; for the output,
    /// written at all before the crash (a write no reader sees went into a transaction that never
    /// committed).
    fn in_transit(self) -> Account {
        let reached = if self.state {
            self.received.iter().copied().find(|s| self.task_step.is_none_or(|t| *s > t))
        } else {
            self.received.first().copied()
        };
        Account::InTransit {
            records: vec![self.r],
            source: self.source,
            source_save: self.source_save,
            resume: self.resume,
            sent: vec![self.sent],
            task: self.task,
            task_save: self.task_save,
            reached: vec![reached],
        }
    }

    /// Duplicated as an orphan: in the task's restored state (or written before the crash), and
    /// sent again (or replayed) and received again after the restore.
    fn orphans(self, judged: Judged) -> Account {
        let (replay, r, task, restore) = (self.replay, self.r, self.task, self.restore);
        let reached = if self.state {
            self.received.iter().copied().rfind(|s| self.task_step.is_none_or(|t| *s < t))
        } else {
            self.received.last().copied()
        };
        // Did the checkpoint's barrier come ahead of the record on its channel, and the
        // snapshot still count it?
        let checkpoint = match self.task_save {
            Save::At { checkpoint, .. } => checkpoint,
            _ => None,
        };
        let behind_barrier = match (judged, reached, checkpoint) {
            (Judged::State, Some(at), Some(id)) => {
                let channel = replay.events[at as usize - 1].iter().find_map(|e| match e {
                    Event::Processed { task: t, record, channel, .. } if *t == task && *record == r => Some(*channel),
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
        let sent_again = if self.replayed {
            Some(restore as u32 + 1)
        } else {
            replay
                .steps(
                    after.clone(),
                    |e| matches!(e, Event::Read { task: t, record, .. } if *t == self.source && *record == r),
                )
                .first()
                .copied()
        };
        let reached_again = replay.steps(after, |e| receipt(self.state, task, r, e)).first().copied();
        Account::Orphans {
            records: vec![r],
            source: self.source,
            source_save: self.source_save,
            resume: self.resume,
            sent: vec![self.sent],
            task,
            task_save: self.task_save,
            reached: vec![reached],
            behind_barrier: vec![behind_barrier],
            replayed: self.replayed,
            sent_again: vec![sent_again],
            reached_again: vec![reached_again],
        }
    }
}

/// Whether event `e` is task `task` taking record `r` into its state (`state`), or writing it out.
fn receipt(state: bool, task: TaskId, r: RecordId, e: &Event) -> bool {
    match (state, e) {
        (true, Event::Processed { task: t, record, .. }) => *t == task && *record == r,
        (false, Event::SinkWrite { task: t, record, .. }) => *t == task && *record == r,
        _ => false,
    }
}

/// The facts of an incomplete or out-of-order record, from the history that counts
/// (`crate::engine::core::history`): where the ledger found it wanting, the save the restore gave that
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
        let task_save =
            replay.before_restore.as_ref().map(|b| replay.save(b.restore_point()[task.index()], end.strategy()));
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
    let task_save =
        replay.before_restore.as_ref().map(|b| replay.save(b.restore_point()[task.index()], end.strategy()));
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
            Account::Incomplete { channel, task, task_save, .. } => (
                4,
                Some((
                    *task,
                    task_save.unwrap_or(Save::NotYet),
                    channel.0 as u32,
                    *task,
                    Save::NotYet,
                    task_save.is_some(),
                )),
            ),
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
