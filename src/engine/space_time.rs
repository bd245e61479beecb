//! The space-time diagram of a run, after Lamport's "Time, Clocks, and the Ordering of Events in
//! a Distributed System" (1978) and the figures of Chandy and Lamport's "Distributed Snapshots"
//! (1985), as ShiViz draws them from logs: one line per task, logical time (the run's steps) left
//! to right, one arrow per message from its send to its receipt, the saves as markers on the
//! lines, crashes as breaks and restores as new segments.
//!
//! The arrows are read from a replay of the run on the timeline. A record's sending is what the
//! channel's sender numbered (`next_seq`), its receipt what the receiver's input position passed
//! (the same positions [`crate::engine::verdict::drawn_cut`] judges a cut by); a barrier's sending is the task's
//! `BarrierEmitted` on each output, its receipt the `BarrierReceived` (or `BarrierIgnored`) on
//! that channel. A crash is any task that was running before a step and not after it, a restore
//! the reverse. [`thin`] chooses the arrows to draw when too many are in view, keeping every
//! barrier and every arrow the learner must see (crossing a cut, highlighted).

use serde::{Deserialize, Serialize};

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::record::{Item, Record};
use crate::engine::core::dataflow::task::TaskStatus;
use crate::engine::core::ids::{ChannelId, CheckpointId, KeyId, RecordId, TaskId};
use crate::engine::core::sim::Sim;
use crate::engine::runs::replay::replay;
use crate::engine::runs::timeline::Timeline;

/// What an arrow carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Carries {
    Record { record: RecordId, key: KeyId },
    Barrier(CheckpointId),
}

/// One message: one sending on one channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub carries: Carries,
    pub channel: ChannelId,
    pub from: TaskId,
    pub to: TaskId,
    /// The step (1-based) whose action sent it.
    pub sent_at: u64,
    /// The step that delivered it; None: not (yet) delivered, or lost in a crash.
    pub received_at: Option<u64>,
}

impl Message {
    pub fn record(&self) -> Option<RecordId> {
        match self.carries {
            Carries::Record { record, .. } => Some(record),
            Carries::Barrier(_) => None,
        }
    }
}

/// What a marker on a task line stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkKind {
    /// The task saved its state (for this checkpoint; None: its own timer).
    Save(Option<CheckpointId>),
    /// The task stopped: its line breaks here.
    Crash,
    /// The task was started again from a save: a new segment of its line.
    Restore,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub task: TaskId,
    pub step: u64,
    pub kind: MarkKind,
}

/// The whole run on the timeline as a diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagram {
    /// The task lines, in the job's task order.
    pub tasks: Vec<String>,
    /// How many steps the run has.
    pub steps: u64,
    /// In order of sending (by step, then channel).
    pub messages: Vec<Message>,
    pub marks: Vec<Mark>,
}

impl Diagram {
    /// Whether task `t` is down (between a crash and the restore) after step `p`.
    pub fn down_after(&self, t: TaskId, p: u64) -> bool {
        self.marks
            .iter()
            .filter(|m| m.task == t && m.step <= p)
            .filter_map(|m| match m.kind {
                MarkKind::Crash => Some(true),
                MarkKind::Restore => Some(false),
                MarkKind::Save(_) => None,
            })
            .last()
            .unwrap_or(false)
    }
}

/// What one step sent and received, by channel index and sequence number.
pub(crate) struct Changes {
    pub sent: Vec<(usize, u64, Option<Record>)>,
    pub received: Vec<(usize, u64)>,
}

/// Each channel's sender and receiver positions before a step: what the step's sendings and
/// receipts are read against.
pub(crate) struct Positions(Vec<(u64, u64, u64)>);

impl Positions {
    pub(crate) fn of(sim: &Sim) -> Positions {
        Positions(
            sim.graph
                .channels
                .iter()
                .enumerate()
                .map(|(c, info)| {
                    let to = &sim.live.tasks[info.to.index()];
                    (sim.wire[c].next_seq, to.in_from[info.input_index], to.in_pos[info.input_index])
                })
                .collect(),
        )
    }

    /// After the step: every record sent on each channel (with its sequence number) and every
    /// sequence number received.
    pub(crate) fn changes(&self, sim: &Sim) -> Changes {
        let mut ch = Changes { sent: Vec::new(), received: Vec::new() };
        for (c, info) in sim.graph.channels.iter().enumerate() {
            let (next, in_from, in_pos) = self.0[c];
            for seq in next..sim.wire[c].next_seq {
                let record = sim.live.channels[c]
                    .queue
                    .iter()
                    .find_map(|it| match it {
                        Item::Record { seq: s, rec } if *s == seq => Some(*rec),
                        _ => None,
                    })
                    .or_else(|| sim.wire[c].find(&sim.live.channels[c], seq));
                ch.sent.push((c, seq, record));
            }
            let to = &sim.live.tasks[info.to.index()];
            let (new_from, new_pos) = (to.in_from[info.input_index], to.in_pos[info.input_index]);
            let first = if new_from == in_from { in_pos.max(new_from) } else { new_from };
            for seq in first..new_pos {
                ch.received.push((c, seq));
            }
        }
        ch
    }
}

/// The diagram of the whole run on `tl` (every step of its history, not only up to the playhead).
pub fn diagram(tl: &Timeline) -> Diagram {
    let mut sim = tl.initial().clone();
    let g = sim.graph.clone();
    let mut messages: Vec<Message> = Vec::new();
    let mut marks = Vec::new();
    // Per channel, by sequence number: the record message's index.
    let mut by_seq: Vec<Vec<Option<usize>>> = vec![Vec::new(); g.channels.len()];
    // The channels' positions and which tasks ran, before the step just replayed.
    let mut before: Option<(Positions, Vec<bool>)> = None;
    replay(&mut sim, tl.actions(), |at| {
        let (step, sim) = (at.step as u64, at.sim);
        if let Some((before, was)) = &before {
            let ch = before.changes(sim);
            for (c, seq, record) in ch.sent {
                let log = &mut by_seq[c];
                if log.len() <= seq as usize {
                    log.resize(seq as usize + 1, None);
                }
                log[seq as usize] = record.map(|r| {
                    let info = &g.channels[c];
                    messages.push(Message {
                        carries: Carries::Record { record: r.id, key: g.records[r.id.0 as usize].key },
                        channel: ChannelId(c as u16),
                        from: info.from,
                        to: info.to,
                        sent_at: step,
                        received_at: None,
                    });
                    messages.len() - 1
                });
            }
            for (c, seq) in ch.received {
                if let Some(Some(m)) = by_seq[c].get(seq as usize) {
                    messages[*m].received_at.get_or_insert(step);
                }
            }
            for e in at.events.iter() {
                match *e {
                    Event::BarrierEmitted { task, checkpoint, .. } => {
                        for &c in &g.task(task).out_channels {
                            messages.push(Message {
                                carries: Carries::Barrier(checkpoint),
                                channel: c,
                                from: task,
                                to: g.channel(c).to,
                                sent_at: step,
                                received_at: None,
                            });
                        }
                    }
                    Event::BarrierReceived { channel, checkpoint, .. }
                    | Event::BarrierIgnored { channel, checkpoint, .. } => {
                        if let Some(m) = messages.iter_mut().find(|m| {
                            m.channel == channel && m.carries == Carries::Barrier(checkpoint) && m.received_at.is_none()
                        }) {
                            m.received_at = Some(step);
                        }
                    }
                    Event::SnapshotTaken { task, checkpoint, .. } => {
                        marks.push(Mark { task, step, kind: MarkKind::Save(checkpoint) })
                    }
                    _ => {}
                }
            }
            for (t, &up) in was.iter().enumerate() {
                let now = sim.live.tasks[t].status == TaskStatus::Running;
                if up != now {
                    let kind = if up { MarkKind::Crash } else { MarkKind::Restore };
                    marks.push(Mark { task: TaskId(t as u16), step, kind });
                }
            }
        }
        if at.next.is_some() {
            let was = sim.live.tasks.iter().map(|t| t.status == TaskStatus::Running).collect();
            before = Some((Positions::of(sim), was));
        }
    });
    // A crash loses what was in flight: those sendings are never received.
    Diagram { tasks: g.tasks.iter().map(|t| t.name.clone()).collect(), steps: tl.len() as u64, messages, marks }
}

/// Which of the messages sent in the steps `from..=to` to draw, at most `max` (more only if the
/// ones that must be drawn are more): every barrier and every `must` message is kept, and the
/// other records are thinned evenly (every k-th by order of sending). Returns, per message,
/// whether it is drawn; the ones not drawn are counted per channel by the view.
pub fn thin(d: &Diagram, from: u64, to: u64, must: &[bool], max: usize) -> Vec<bool> {
    let in_view = |m: &Message| m.sent_at <= to && m.received_at.unwrap_or(u64::MAX) >= from && m.sent_at + 1 >= from;
    let forced =
        |i: usize, m: &Message| matches!(m.carries, Carries::Barrier(_)) || must.get(i).copied().unwrap_or(false);
    let mut keep: Vec<bool> = d.messages.iter().enumerate().map(|(i, m)| in_view(m) && forced(i, m)).collect();
    let free: Vec<usize> =
        d.messages.iter().enumerate().filter(|(i, m)| in_view(m) && !forced(*i, m)).map(|(i, _)| i).collect();
    let room = max.saturating_sub(keep.iter().filter(|k| **k).count());
    if free.len() <= room {
        for i in free {
            keep[i] = true;
        }
    } else if room > 0 {
        // `room` of the `free` ones, spread evenly: the j-th kept is free[j * len / room].
        for j in 0..room {
            keep[free[j * free.len() / room]] = true;
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, Scenario, Settings, Strategy};

    fn run(strategy: Strategy, actions: &[Action]) -> Timeline {
        let mut s = Settings::new(strategy);
        if strategy.uses_coordinator() {
            s.checkpoint_interval = Some(5);
        }
        let mut tl = Timeline::new(Scenario::builtin("line", s, 7).sim().unwrap());
        for &a in actions {
            if tl.apply(a).is_err() {
                break;
            }
        }
        tl
    }

    #[test]
    fn thinning_keeps_barriers_and_must_and_stays_within_max() {
        let tl = run(Strategy::Aligned, &[Action::Auto; 40]);
        let d = diagram(&tl);
        let must: Vec<bool> = (0..d.messages.len()).map(|i| i % 7 == 3).collect();
        for max in [0, 3, 10, 1000] {
            let keep = thin(&d, 0, d.steps, &must, max);
            for (i, m) in d.messages.iter().enumerate() {
                if matches!(m.carries, Carries::Barrier(_)) || must[i] {
                    assert!(keep[i], "message {i} must be drawn");
                }
            }
            let forced = d
                .messages
                .iter()
                .enumerate()
                .filter(|(i, m)| matches!(m.carries, Carries::Barrier(_)) || must[*i])
                .count();
            assert!(keep.iter().filter(|k| **k).count() <= max.max(forced));
            if max >= d.messages.len() {
                assert!(keep.iter().all(|k| *k));
            }
        }
    }
}
