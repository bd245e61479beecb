//! The verdict. A per-record ledger compares how often each source record is reflected in
//! operator state and in the sinks' external output against the failure-free run of the same input:
//! lost, duplicated, or exactly once. And the consistent-cut check (Elnozahy et al.) over any set
//! of saved snapshots: orphan records (receipt saved, sending not) and in-transit records (sent
//! before the sender's snapshot, received after the receiver's, and stored nowhere).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::ids::{ChannelId, RecordId};
use super::settings::{SinkMode, Strategy};
use super::sim::Sim;
use super::state::{Fate, TaskSnapshot, TxnStatus};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Reflected as often as in the failure-free run.
    ExactlyOnce,
    /// Reflected less often, and nothing will bring it.
    Lost,
    /// Reflected more often.
    Duplicated,
    /// Still on its way (unread, in a channel, or in an uncommitted transaction).
    Pending,
}

impl Verdict {
    pub fn id(self) -> &'static str {
        match self {
            Verdict::ExactlyOnce => "exactly-once",
            Verdict::Lost => "lost",
            Verdict::Duplicated => "duplicated",
            Verdict::Pending => "pending",
        }
    }
    fn judge(count: u32, expected: u32, on_its_way: bool) -> Verdict {
        if count > expected {
            Verdict::Duplicated
        } else if on_its_way {
            Verdict::Pending
        } else if count == expected {
            Verdict::ExactlyOnce
        } else {
            Verdict::Lost
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerRow {
    pub record: RecordId,
    pub label: String,
    pub key: String,
    pub state: u32,
    pub expected_state: u32,
    pub state_verdict: Verdict,
    pub external: u32,
    pub expected_external: u32,
    /// None when the job has no sink.
    pub external_verdict: Option<Verdict>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub exactly_once: u32,
    pub lost: u32,
    pub duplicated: u32,
    pub pending: u32,
}

impl Tally {
    fn add(&mut self, v: Verdict) {
        match v {
            Verdict::ExactlyOnce => self.exactly_once += 1,
            Verdict::Lost => self.lost += 1,
            Verdict::Duplicated => self.duplicated += 1,
            Verdict::Pending => self.pending += 1,
        }
    }
    /// The worst outcome present, for a one-word summary.
    pub fn headline(&self) -> Verdict {
        if self.lost > 0 {
            Verdict::Lost
        } else if self.duplicated > 0 {
            Verdict::Duplicated
        } else if self.pending > 0 {
            Verdict::Pending
        } else {
            Verdict::ExactlyOnce
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    pub rows: Vec<LedgerRow>,
    pub state: Tally,
    pub external: Option<Tally>,
}

impl Ledger {
    pub fn row(&self, label: &str) -> Option<&LedgerRow> {
        self.rows.iter().find(|r| r.label == label)
    }
    /// Labels of the records with this state verdict.
    pub fn state_labels(&self, v: Verdict) -> Vec<&str> {
        self.rows.iter().filter(|r| r.state_verdict == v).map(|r| r.label.as_str()).collect()
    }
    pub fn external_labels(&self, v: Verdict) -> Vec<&str> {
        self.rows.iter().filter(|r| r.external_verdict == Some(v)).map(|r| r.label.as_str()).collect()
    }
}

/// The cut across one channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelCut {
    pub channel: ChannelId,
    /// Records the sender had sent when it saved.
    pub sent: u64,
    /// Records the receiver had received when it saved.
    pub received: u64,
    /// Received before the receiver's save but sent after the sender's: counted, yet will be sent again.
    pub orphans: Vec<RecordId>,
    /// Sent before the sender's save, received after the receiver's, stored nowhere: lost on restore.
    pub in_transit: Vec<RecordId>,
    /// In transit but stored with the snapshot as in-flight data (unaligned): replayed on restore.
    pub stored: Vec<RecordId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutReport {
    /// Per task: the step its snapshot was taken at, if it has one in this cut.
    pub taken_at: Vec<Option<u64>>,
    pub channels: Vec<ChannelCut>,
}

impl CutReport {
    pub fn consistent(&self) -> bool {
        self.channels.iter().all(|c| c.orphans.is_empty() && c.in_transit.is_empty())
    }
    pub fn orphans(&self) -> Vec<RecordId> {
        self.channels.iter().flat_map(|c| c.orphans.iter().copied()).collect()
    }
    pub fn in_transit(&self) -> Vec<RecordId> {
        self.channels.iter().flat_map(|c| c.in_transit.iter().copied()).collect()
    }
}

impl Sim {
    pub fn ledger(&self) -> Ledger {
        let g = &self.graph;
        let state = self.state_counts();
        let external = self.external_counts();
        let way = self.on_its_way(true);
        let mut way_out = self.on_its_way(false);
        let has_sink = g.has_sink();
        let mut uncommitted = vec![false; g.records.len()];
        if self.settings.sink == SinkMode::TwoPhaseCommit {
            for t in &self.external.txns {
                if matches!(t.status, TxnStatus::Open | TxnStatus::PreCommitted(_)) {
                    for r in &t.rows {
                        uncommitted[r.record.0 as usize] = true;
                    }
                }
            }
        }
        let mut rows = Vec::with_capacity(g.records.len());
        let (mut ts, mut te) = (Tally::default(), Tally::default());
        for (i, info) in g.records.iter().enumerate() {
            let sv = Verdict::judge(state[i], self.expected.state[i], way[i]);
            ts.add(sv);
            let ev = has_sink.then(|| {
                way_out[i] |= uncommitted[i];
                Verdict::judge(external[i], self.expected.external[i], way_out[i])
            });
            if let Some(v) = ev {
                te.add(v);
            }
            rows.push(LedgerRow {
                record: RecordId(i as u32),
                label: info.label.clone(),
                key: g.key_name(info.key).to_string(),
                state: state[i],
                expected_state: self.expected.state[i],
                state_verdict: sv,
                external: external[i],
                expected_external: self.expected.external[i],
                external_verdict: ev,
            });
        }
        Ledger { rows, state: ts, external: has_sink.then_some(te) }
    }

    /// The consistent-cut check over one snapshot per task (None: the task is not in the cut).
    pub fn cut_check(&self, snaps: &[Option<&TaskSnapshot>]) -> CutReport {
        let g = &self.graph;
        let mut channels = Vec::new();
        for (ci, info) in g.channels.iter().enumerate() {
            let (Some(Some(s)), Some(Some(r))) = (snaps.get(info.from.index()), snaps.get(info.to.index())) else {
                continue;
            };
            let c = ChannelId(ci as u16);
            let ch = &self.channels[ci];
            let sent = s.out_pos[info.output_index];
            let received = r.in_pos[info.input_index];
            let stored_seqs: BTreeSet<u64> =
                s.in_flight.iter().chain(&r.in_flight).filter(|(x, _, _)| *x == c).map(|(_, seq, _)| *seq).collect();
            let mut cut =
                ChannelCut { channel: c, sent, received, orphans: vec![], in_transit: vec![], stored: vec![] };
            if received > sent {
                for (seq, rec, fate) in &ch.history {
                    if (sent..received).contains(seq) && *fate == Fate::Delivered {
                        cut.orphans.push(rec.id);
                    }
                }
            } else {
                for seq in received..sent {
                    let Some(rec) = ch.find(seq) else { continue };
                    if stored_seqs.contains(&seq) {
                        cut.stored.push(rec.id);
                    } else {
                        cut.in_transit.push(rec.id);
                    }
                }
            }
            channels.push(cut);
        }
        CutReport { taken_at: snaps.iter().map(|s| s.map(|s| s.tick)).collect(), channels }
    }

    /// The snapshots a restore would use now: each task's latest own save (timers) or the latest
    /// completed checkpoint.
    pub fn restore_point(&self) -> Vec<Option<&TaskSnapshot>> {
        match self.strategy() {
            Strategy::Timers => self.storage.saves.iter().map(|s| s.last()).collect(),
            s if s.uses_coordinator() => match self.storage.completed.last() {
                Some(cp) => cp.snapshots.iter().map(Some).collect(),
                None => vec![None; self.tasks.len()],
            },
            _ => vec![None; self.tasks.len()],
        }
    }

    /// The cut of [`Sim::restore_point`], if at least one task has a snapshot in it.
    pub fn latest_cut(&self) -> Option<CutReport> {
        let snaps = self.restore_point();
        snaps.iter().any(|s| s.is_some()).then(|| self.cut_check(&snaps))
    }
}
