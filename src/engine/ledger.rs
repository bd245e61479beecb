//! The verdict. A per-record ledger compares how often each source record is reflected in
//! operator state and in the sinks' external output against the failure-free run of the same input
//! (`super::reference_run`): lost, duplicated, or exactly once. A record still on its way is
//! pending, not lost.

use serde::{Deserialize, Serialize};

use super::dataflow::external_system::TxnStatus;
use super::dataflow::job_graph::OperatorKind;
use super::dataflow::record::Item;
use super::dataflow::state::OpState;
use super::ids::RecordId;
use super::settings::SinkMode;
use super::sim::Sim;

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
            for t in &self.durable.external.txns {
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

    /// Per source record: how often it is reflected in the state of stateful operators.
    pub fn state_counts(&self) -> Vec<u32> {
        let mut v = vec![0u32; self.graph.records.len()];
        for t in &self.live.tasks {
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
        for row in self.durable.external.visible() {
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
    /// down every record is: the restore decides what becomes of it; while a failed region is
    /// down, every record of its sources is (a record stays in its source's region).
    pub fn on_its_way(&self, state: bool) -> Vec<bool> {
        let mut v = vec![false; self.graph.records.len()];
        if self.down.is_some() {
            return vec![true; self.graph.records.len()];
        }
        for s in self.graph.sources().filter(|s| !self.task_up(*s)) {
            for r in &self.graph.task(s).log {
                v[r.0 as usize] = true;
            }
        }
        let feeds = self.feeds(state);
        for s in self.graph.sources().filter(|s| feeds[s.index()]) {
            for r in &self.graph.task(s).log[self.source_offset(s) as usize..] {
                v[r.0 as usize] = true;
            }
        }
        // Storm: a tuple not yet acked will be emitted again if it fails.
        if self.tracks_tuples {
            for (i, again) in self.awaiting_replay().into_iter().enumerate() {
                v[i] |= again;
            }
        }
        for (i, ch) in self.live.channels.iter().enumerate() {
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
}
