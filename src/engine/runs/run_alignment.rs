//! Two runs of one input aligned by what happened, for comparing a run with the same moves under
//! other settings (issue 31's "Compare with"): the first run's moves are replayed on a second
//! simulation, and each step of either run becomes one column. ShiViz aligns two logs by their
//! events, not by their line numbers; this follows the same idea for the simulator's steps.
//!
//! A step of the first run is a move with a meaning: a delivery on a channel delivers one item,
//! a record (by identity) or a barrier. The second run takes the move only where it means the same
//! there:
//! - a record's delivery is replayed when the same record is at the head of that channel in the
//!   second run; barriers and cancel markers the second run has ahead of it (a strategy that sends
//!   barriers where the first does not) are delivered first, each in a column of its own;
//! - a barrier's delivery is replayed when a barrier is at the head there;
//! - any other move (a read, a checkpoint, timers, a crash, a restore…) when the second run's
//!   engine accepts it.
//!
//! Otherwise the column has the first run's step only (the move was refused, or its item is not
//! there in the second run), and the second run does not take a wait in its place, so it never
//! falls behind: the same record's receipt stays in the same column in both runs wherever both
//! deliver it. A column differs ([`Column::differs`]) only where one run has a step the other does
//! not.

use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::record::Item;
use crate::engine::core::sim::Sim;
use crate::engine::runs::timeline::Timeline;

/// One column of the aligned runs: the step (1-based) each run took there, if it took one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub first: Option<u64>,
    pub second: Option<u64>,
}

impl Column {
    /// Only one of the runs took a step here.
    pub fn differs(&self) -> bool {
        self.first.is_none() || self.second.is_none()
    }
}

/// The second run, and the columns of both.
#[derive(Clone, Debug)]
pub struct Aligned {
    pub second: Timeline,
    pub columns: Vec<Column>,
}

impl Aligned {
    /// The column of the first run's step `step` (1-based), if it took that many.
    pub fn column_of_first(&self, step: u64) -> Option<usize> {
        self.columns.iter().position(|c| c.first == Some(step))
    }
    /// The column of the second run's step `step`.
    pub fn column_of_second(&self, step: u64) -> Option<usize> {
        self.columns.iter().position(|c| c.second == Some(step))
    }
}

/// What a move delivers on its channel, in a run standing before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Head {
    Record(crate::engine::core::ids::RecordId),
    Marker,
    Empty,
}

fn head(sim: &Sim, channel: crate::engine::core::ids::ChannelId) -> Head {
    match sim.channels().get(channel.index()).and_then(|c| c.queue.front()) {
        Some(Item::Record { rec, .. }) => Head::Record(rec.id),
        Some(Item::Barrier(_)) | Some(Item::Cancel(_)) => Head::Marker,
        None => Head::Empty,
    }
}

/// The move a step made: itself, or for a seeded scheduler step (`Action::Auto`) the move its
/// first event tells (as the narration's step titles read it); None if no event tells it.
fn concrete(a: Action, events: &[Event]) -> Option<Action> {
    if a != Action::Auto {
        return Some(a);
    }
    Some(match events.first()? {
        Event::Read { task, .. } => Action::Read { task: *task },
        Event::Processed { channel, .. }
        | Event::BarrierReceived { channel, .. }
        | Event::BarrierIgnored { channel, .. }
        | Event::CancelMarkerReceived { channel, .. }
        | Event::InFlightRecorded { channel, .. }
        | Event::RecordDiscarded { channel, .. } => Action::Deliver { channel: *channel },
        _ => return None,
    })
}

/// Replays `first`'s moves (its whole history) on `second_start`, aligned by what happened.
pub fn align(first: &Timeline, second_start: Sim) -> Aligned {
    let mut one = first.initial().clone();
    let mut two = second_start.clone();
    let mut taken: Vec<Action> = Vec::new();
    let mut columns = Vec::new();
    let mut sink = Vec::new();
    let mut take = |two: &mut Sim, a: Action, taken: &mut Vec<Action>| -> Option<u64> {
        sink.clear();
        two.apply(a, &mut sink).ok().map(|_| {
            taken.push(a);
            taken.len() as u64
        })
    };
    for (i, &recorded) in first.actions().iter().enumerate() {
        let step = i as u64 + 1;
        // A seeded scheduler step is replayed as the move it made in the first run (the second
        // run's scheduler would pick its own); one whose move can't be told is not replayed.
        let before = one.clone();
        let mut events = Vec::new();
        one.apply(recorded, &mut events).expect("a recorded history replays");
        let Some(a) = concrete(recorded, &events) else {
            columns.push(Column { first: Some(step), second: None });
            continue;
        };
        let one = &before;
        let second = match a {
            Action::Deliver { channel } => match head(one, channel) {
                Head::Record(r) => {
                    // Markers the second run has ahead of the record: each in a column of its own.
                    let mut guard = 0;
                    while head(&two, channel) == Head::Marker && guard < 64 {
                        guard += 1;
                        match take(&mut two, a, &mut taken) {
                            Some(s) => columns.push(Column { first: None, second: Some(s) }),
                            None => break,
                        }
                    }
                    if head(&two, channel) == Head::Record(r) {
                        take(&mut two, a, &mut taken)
                    } else {
                        None
                    }
                }
                Head::Marker if head(&two, channel) == Head::Marker => take(&mut two, a, &mut taken),
                Head::Marker | Head::Empty => None,
            },
            _ => take(&mut two, a, &mut taken),
        };
        columns.push(Column { first: Some(step), second });
    }
    let second = Timeline::from_actions(second_start, &taken).expect("the moves the second run took replay");
    Aligned { second, columns }
}

impl Aligned {
    /// The first-run step at which the second run's step `s` is drawn: its column's first-run
    /// step, or for a column of the second run only, the first-run step before it (0 at the
    /// start). Step 0 stays 0.
    pub fn on_first_steps(&self, s: u64) -> u64 {
        let mut at = 0;
        for c in &self.columns {
            if let Some(f) = c.first {
                at = f;
            }
            if c.second == Some(s) {
                return at;
            }
        }
        at
    }
    /// A point on the first run's steps (after its first `p` steps) as a point of the second
    /// run: the steps the second run took in the columns up to there.
    pub fn second_point(&self, p: u64) -> u64 {
        let mut taken = 0;
        for c in &self.columns {
            if c.first.is_some_and(|f| f > p) {
                break;
            }
            if let Some(s) = c.second {
                taken = s;
            }
        }
        taken
    }
    /// The first run's steps the second run did not take (≠: a move refused there, or whose item
    /// is not there).
    pub fn first_only(&self) -> Vec<u64> {
        self.columns.iter().filter(|c| c.second.is_none()).filter_map(|c| c.first).collect()
    }
    /// The second run's diagram redrawn on the first run's steps ([`Aligned::on_first_steps`]).
    pub fn second_on_first_steps(&self, d: &crate::engine::space_time::Diagram) -> crate::engine::space_time::Diagram {
        let mut out = d.clone();
        for m in &mut out.messages {
            m.sent_at = self.on_first_steps(m.sent_at);
            m.received_at = m.received_at.map(|r| self.on_first_steps(r));
        }
        for k in &mut out.marks {
            k.step = self.on_first_steps(k.step);
        }
        out.steps = self.columns.iter().filter_map(|c| c.first).max().unwrap_or(0);
        out
    }
}
