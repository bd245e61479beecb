//! The verdict. A per-record ledger compares how often each source record is reflected in
//! operator state and in the sinks' external output against the failure-free run of the same input
//! (`crate::engine::verdict::reference_run`): lost, duplicated, or exactly once. A record still on its way is
//! pending, not lost.
//!
//! Two more verdicts judge what took effect at each task, on the history that counts after
//! recovery (`crate::engine::core::history`), as the second article asks of a correct recovery: **complete**
//! (processed on every path of the DAG it takes in the failure-free run) and **in order** (at each
//! task, the records of one source partition take effect in source order; at a sink, as an outside
//! reader sees its rows).

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::external_system::TxnStatus;
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::record::Item;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::history::{judge, Place};
use crate::engine::core::ids::RecordId;
use crate::engine::core::sim::Sim;
use crate::engine::settings::SinkMode;

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

/// Was the record processed on every path of the DAG it takes in the failure-free run?
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Completeness {
    /// At every task input where the failure-free run processed it, the history that counts has it
    /// at least as often.
    #[default]
    Complete,
    /// Missing at some task input, and nothing on its way to bring it.
    Incomplete,
    /// Missing somewhere, but still on its way.
    Pending,
}

impl Completeness {
    pub fn id(self) -> &'static str {
        match self {
            Completeness::Complete => "complete",
            Completeness::Incomplete => "incomplete",
            Completeness::Pending => "pending",
        }
    }
}

/// Did the record take effect in source order at every task?
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Nowhere did it take effect after a record of its partition at the same or a later offset,
    /// and it is not on its way any more.
    #[default]
    InOrder,
    /// At some task input (or in what a reader sees of a sink) it took effect after a record of
    /// its partition at the same or a later offset: late, or again.
    OutOfOrder,
    /// In order so far, and still on its way.
    Pending,
}

impl Order {
    pub fn id(self) -> &'static str {
        match self {
            Order::InOrder => "in-order",
            Order::OutOfOrder => "out-of-order",
            Order::Pending => "pending",
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
    #[serde(default)]
    pub complete_verdict: Completeness,
    /// Where it is missing: the task inputs whose history that counts has it fewer times than
    /// the failure-free run (still to come while pending).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete_at: Vec<Place>,
    #[serde(default)]
    pub order_verdict: Order,
    /// Where it came late or again: task inputs, or (`external`) what a reader sees of the rows a
    /// sink wrote from that input.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out_of_order_at: Vec<Place>,
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

/// How many records are complete, incomplete, still on their way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompleteTally {
    pub complete: u32,
    pub incomplete: u32,
    pub pending: u32,
}

impl CompleteTally {
    fn add(&mut self, v: Completeness) {
        match v {
            Completeness::Complete => self.complete += 1,
            Completeness::Incomplete => self.incomplete += 1,
            Completeness::Pending => self.pending += 1,
        }
    }
    /// The worst outcome present: incomplete, then pending, then complete.
    pub fn headline(&self) -> Completeness {
        if self.incomplete > 0 {
            Completeness::Incomplete
        } else if self.pending > 0 {
            Completeness::Pending
        } else {
            Completeness::Complete
        }
    }
}

/// How many records are in order, out of order, still on their way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderTally {
    pub in_order: u32,
    pub out_of_order: u32,
    pub pending: u32,
}

impl OrderTally {
    fn add(&mut self, v: Order) {
        match v {
            Order::InOrder => self.in_order += 1,
            Order::OutOfOrder => self.out_of_order += 1,
            Order::Pending => self.pending += 1,
        }
    }
    /// The worst outcome present: out of order, then pending, then in order.
    pub fn headline(&self) -> Order {
        if self.out_of_order > 0 {
            Order::OutOfOrder
        } else if self.pending > 0 {
            Order::Pending
        } else {
            Order::InOrder
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    pub rows: Vec<LedgerRow>,
    pub state: Tally,
    pub external: Option<Tally>,
    #[serde(default)]
    pub complete: CompleteTally,
    #[serde(default)]
    pub order: OrderTally,
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
    /// Labels of the records with this completeness verdict.
    pub fn complete_labels(&self, v: Completeness) -> Vec<&str> {
        self.rows.iter().filter(|r| r.complete_verdict == v).map(|r| r.label.as_str()).collect()
    }
    /// Labels of the records with this order verdict.
    pub fn order_labels(&self, v: Order) -> Vec<&str> {
        self.rows.iter().filter(|r| r.order_verdict == v).map(|r| r.label.as_str()).collect()
    }
    /// Is every record complete and in order?
    pub fn complete_and_in_order(&self) -> bool {
        self.rows.iter().all(|r| r.complete_verdict == Completeness::Complete && r.order_verdict == Order::InOrder)
    }
}

impl LedgerRow {
    /// Is the record out of order at a task (on the history that counts, not in what a reader
    /// sees of a sink)?
    pub fn out_of_order_at_a_task(&self) -> bool {
        self.out_of_order_at.iter().any(|p| !p.external)
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
        if matches!(self.settings.sink, SinkMode::TwoPhaseCommit | SinkMode::Transactional | SinkMode::Kafka) {
            for t in &self.durable.external.txns {
                if matches!(t.status, TxnStatus::Open | TxnStatus::PreCommitted(_)) {
                    for r in &t.rows {
                        uncommitted[r.record.0 as usize] = true;
                    }
                }
            }
        }
        // Order and completeness: still to come while the record is on its way to any task, or
        // (order) its rows wait in an uncommitted transaction.
        let anywhere = self.on_its_way_to(&vec![true; g.tasks.len()]);
        let counted = self.effects.counted_by_channel(g);
        let seen = if has_sink { self.effects.seen_by_channel(g, &self.durable.external.visible()) } else { vec![] };
        let mut found = judge(g, &counted, &seen, &self.expected.places);
        let mut rows = Vec::with_capacity(g.records.len());
        let (mut ts, mut te) = (Tally::default(), Tally::default());
        let (mut tc, mut to) = (CompleteTally::default(), OrderTally::default());
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
            let incomplete_at = std::mem::take(&mut found.incomplete[i]);
            let out_of_order_at = std::mem::take(&mut found.out_of_order[i]);
            let cv = if incomplete_at.is_empty() {
                Completeness::Complete
            } else if anywhere[i] {
                Completeness::Pending
            } else {
                Completeness::Incomplete
            };
            let ov = if !out_of_order_at.is_empty() {
                Order::OutOfOrder
            } else if anywhere[i] || uncommitted[i] {
                Order::Pending
            } else {
                Order::InOrder
            };
            tc.add(cv);
            to.add(ov);
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
                complete_verdict: cv,
                incomplete_at,
                order_verdict: ov,
                out_of_order_at,
            });
        }
        Ledger { rows, state: ts, external: has_sink.then_some(te), complete: tc, order: to }
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
        self.on_its_way_to(&self.feeds(state))
    }

    /// Records still on their way to a task that `feeds` (per task: can what it emits still reach
    /// a task that matters?): as [`Sim::on_its_way`].
    fn on_its_way_to(&self, feeds: &[bool]) -> Vec<bool> {
        let mut v = vec![false; self.graph.records.len()];
        if self.live.down.is_some() {
            return vec![true; self.graph.records.len()];
        }
        for s in self.graph.sources().filter(|s| !self.task_up(*s)) {
            for r in &self.graph.task(s).log {
                v[r.0 as usize] = true;
            }
        }
        for s in self.graph.sources().filter(|s| feeds[s.index()]) {
            for r in &self.graph.task(s).log[self.source_offset(s) as usize..] {
                v[r.0 as usize] = true;
            }
        }
        // What the mechanism will still bring (`OwnSources::on_its_way`), of its own state.
        if let Some(s) = self.mechanism().own_sources() {
            s.on_its_way(self, &mut v);
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
