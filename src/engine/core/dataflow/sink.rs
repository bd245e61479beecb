//! Sinks and the external system they write to. The external system (a database, a topic) is
//! outside the job and survives every crash. Three ways to write:
//! - append: every write lands at once (a replay duplicates);
//! - upsert: one row per record key, so a replay overwrites (idempotent writes);
//! - two-phase commit, after Flink's `TwoPhaseCommitSinkFunction`: writes go into an open
//!   transaction, `snapshotState` pre-commits it at the barrier, `notifyCheckpointComplete`
//!   commits it when the JobManager's notification arrives (a step of its own, after the
//!   checkpoint completed), and a restore's `recoverAndCommit` commits what the restored snapshot
//!   had pre-committed (the notification may never have arrived) and aborts the rest
//!   (`recoverAndAbort`). Readers see committed rows only;
//! - Kafka, after Flink's `KafkaSink`: the two-phase commit above through a broker's
//!   transactions, with producer epochs, a transaction timeout and two readers
//!   (`core/dataflow/kafka/`).

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::external_system::{Row, Txn, TxnStatus};
use crate::engine::core::dataflow::record::Record;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::dataflow::task::TaskStatus;
use crate::engine::core::ids::{CheckpointId, TaskId, TxnId};
use crate::engine::core::seam::Rerun;
use crate::engine::core::sim::Sim;
use crate::engine::jobmanager::checkpoint::Notification;
use crate::engine::settings::SinkMode;

impl Sim {
    pub(crate) fn sink_write(&mut self, t: TaskId, rec: Record, out: &mut Vec<Event>) {
        if self.hooks.reruns && self.rerun() == Rerun::StateOnly {
            return; // work recomputed from lineage to rebuild state: its output ran before
        }
        let row = Row { record: rec.id, value: rec.value, sink: t, tick: self.tick };
        let sink = self.settings.sink;
        if sink == SinkMode::Kafka {
            return self.kafka_write(t, row, out);
        }
        let external = &mut self.durable.external;
        match sink {
            SinkMode::Append => {
                external.appended.push(row);
                out.push(Event::SinkWrite { task: t, record: rec.id, txn: None, overwrote: false });
            }
            SinkMode::Upsert => {
                let overwrote = external.table.insert(rec.id, row).is_some();
                out.push(Event::SinkWrite { task: t, record: rec.id, txn: None, overwrote });
            }
            SinkMode::TwoPhaseCommit | SinkMode::Transactional => {
                let next = TxnId(external.txns.len() as u32);
                let OpState::Sink { open, .. } = &mut self.live.tasks[t.index()].state else { unreachable!() };
                let txn = *open.get_or_insert(next);
                if txn == next {
                    external.txns.push(Txn { id: txn, sink: t, rows: vec![], status: TxnStatus::Open });
                }
                external.txn_mut(txn).rows.push(row);
                out.push(Event::SinkWrite { task: t, record: rec.id, txn: Some(txn), overwrote: false });
            }
            SinkMode::Kafka => unreachable!("written above"),
        }
    }

    /// `snapshotState`: a two-phase-commit sink pre-commits its open transaction for checkpoint
    /// `id` and starts a new one with its next write.
    pub(crate) fn pre_commit(&mut self, t: TaskId, id: CheckpointId, out: &mut Vec<Event>) {
        if let OpState::Sink { open, pending } = &mut self.live.tasks[t.index()].state {
            let pre_committed = open.take();
            if let Some(txn) = pre_committed {
                pending.push((id, txn));
                self.durable.external.txn_mut(txn).status = TxnStatus::PreCommitted(id);
                out.push(Event::TxnPreCommitted { task: t, txn, checkpoint: id });
            }
            if self.settings.sink == SinkMode::Kafka {
                self.kafka_pre_commit(t, id, pre_committed, out);
            }
        }
    }

    /// `sendAcknowledgeMessages`: checkpoint `id` completed; a `notifyCheckpointComplete` goes to
    /// every running two-phase-commit sink, to arrive later ([`Sim::deliver_notification`]).
    pub(crate) fn send_notifications(&mut self, id: CheckpointId, out: &mut Vec<Event>) {
        for t in 0..self.live.tasks.len() {
            let task = &self.live.tasks[t];
            if task.status == TaskStatus::Running && matches!(task.state, OpState::Sink { .. }) {
                let task = TaskId(t as u16);
                self.live.notifications.push(Notification { task, checkpoint: id });
                out.push(Event::NotificationSent { task, checkpoint: id });
            }
        }
    }

    /// The oldest notification on its way to task `t`, if any.
    pub(crate) fn next_notification(&self, t: TaskId) -> Option<CheckpointId> {
        self.live.notifications.iter().find(|n| n.task == t).map(|n| n.checkpoint)
    }

    /// `notifyCheckpointComplete` reaches task `t`: a two-phase-commit sink commits its
    /// transactions up to that checkpoint.
    pub(crate) fn deliver_notification(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let i = self.live.notifications.iter().position(|n| n.task == t).expect("checked: one is on its way");
        let id = self.live.notifications.remove(i).checkpoint;
        out.push(Event::NotificationDelivered { task: t, checkpoint: id });
        if let OpState::Sink { pending, .. } = &mut self.live.tasks[t.index()].state {
            let (done, keep): (Vec<_>, Vec<_>) = pending.iter().partition(|(c, _)| *c <= id);
            *pending = keep;
            for (_, txn) in done {
                self.commit_txn(t, txn, out);
            }
        }
    }

    /// Restore, after Flink's `recoverAndCommit` / `recoverAndAbort`: every restarted sink
    /// commits the transactions its restored snapshot had pre-committed (whose checkpoint
    /// completed, though its notification may never have arrived), aborts every other unfinished
    /// one of its own, and starts with no open transaction.
    pub(crate) fn recover_sinks(&mut self, restarted: &[bool], out: &mut Vec<Event>) {
        for t in (0..self.live.tasks.len()).filter(|t| restarted[*t]) {
            let t = TaskId(t as u16);
            if let OpState::Sink { pending, .. } = &self.live.tasks[t.index()].state {
                let pending = pending.clone();
                for (_, txn) in &pending {
                    self.commit_txn(t, *txn, out);
                }
                if self.settings.sink == SinkMode::Kafka {
                    let restored = self.live.tasks[t.index()].last_checkpoint;
                    self.kafka_recover(t, restored, out);
                    self.live.tasks[t.index()].state = OpState::Sink { open: None, pending: vec![] };
                    continue;
                }
                for x in self.durable.external.txns.iter_mut() {
                    if x.sink == t && matches!(x.status, TxnStatus::Open | TxnStatus::PreCommitted(_)) {
                        x.status = TxnStatus::Aborted;
                        out.push(Event::TxnAborted { task: t, txn: x.id, rows: x.rows.len() as u32 });
                    }
                }
                self.live.tasks[t.index()].state = OpState::Sink { open: None, pending: vec![] };
            }
        }
    }

    /// Commit is idempotent: committing a committed transaction does nothing. The Kafka sink's
    /// committer asks the broker even for a transaction the broker aborted (it does not know),
    /// and the broker refuses.
    fn commit_txn(&mut self, t: TaskId, txn: TxnId, out: &mut Vec<Event>) {
        let x = self.durable.external.txn_mut(txn);
        let kafka = self.settings.sink == SinkMode::Kafka;
        if matches!(x.status, TxnStatus::Open | TxnStatus::PreCommitted(_)) || kafka && x.status == TxnStatus::Aborted {
            if kafka && !self.kafka_commit(t, txn, out) {
                return;
            }
            let x = self.durable.external.txn_mut(txn);
            x.status = TxnStatus::Committed;
            out.push(Event::TxnCommitted { task: t, txn, rows: x.rows.len() as u32 });
        }
    }
}
