//! The durable part of a state's key, what outlives a crash: checkpoint storage (completed
//! checkpoints and timer saves, by content), the user's savepoints, the checkpoint id counter,
//! the transactions committed, and what the external system holds, each row with the rank of the
//! step that wrote it (a reader's order; see the module note of [`super`]).

use super::KeyWriter;
use crate::engine::core::dataflow::external_system::{ExternalSystem, Row, Txn, TxnStatus};
use crate::engine::core::sim::Durable;
use crate::engine::jobmanager::savepoint_kinds::Savepoint;
use crate::engine::jobmanager::storage::{CheckpointStorage, CompletedCheckpoint};

impl KeyWriter<'_> {
    fn completed(&mut self, cp: &CompletedCheckpoint) {
        let CompletedCheckpoint { id, trigger_tick, completed_tick, snapshots } = cp;
        self.u64(id.0);
        self.tick(*trigger_tick);
        self.tick(*completed_tick);
        self.len(snapshots.len());
        for s in snapshots {
            self.snapshot(s);
        }
    }

    pub(super) fn durable(&mut self, d: &Durable) {
        let Durable { storage, checkpoint_ids, external, mechanism, masters, savepoints } = d;
        // The JobManagers: keyed with whether the JobManager is up (`KeyWriter::sim`).
        let _ = masters;
        let CheckpointStorage { completed, saves } = storage;
        self.len(savepoints.len());
        for Savepoint { stop, checkpoint } in savepoints {
            self.bool(*stop);
            self.completed(checkpoint);
        }
        self.len(completed.len());
        for cp in completed {
            self.completed(cp);
        }
        self.len(saves.len());
        for task in saves {
            self.len(task.len());
            for s in task {
                self.snapshot(s);
            }
        }
        self.u64(checkpoint_ids.0);
        self.external(external);
        // A mechanism's own durable state (Storm's committed offsets, Spark's log and checkpoint
        // directory) counts only by being there: the explorer refuses those strategies.
        self.bool(!mechanism.is_empty());
    }

    fn external(&mut self, e: &ExternalSystem) {
        // The Kafka broker never is: the explorer refuses the Kafka sink.
        let ExternalSystem { appended, table, txns, batch_commits, kafka: _ } = e;
        self.len(appended.len());
        for r in appended {
            self.row(r);
        }
        self.len(table.len());
        for (_, r) in table.iter() {
            self.row(r);
        }
        self.len(txns.len());
        for Txn { id, sink, rows, status } in txns {
            self.u64(id.0 as u64);
            self.u64(sink.0 as u64);
            self.len(rows.len());
            for r in rows {
                self.row(r);
            }
            match status {
                TxnStatus::Open => self.u8(0),
                TxnStatus::PreCommitted(c) => {
                    self.u8(1);
                    self.u64(c.0);
                }
                TxnStatus::Committed => self.u8(2),
                TxnStatus::Aborted => self.u8(3),
            }
        }
        self.len(batch_commits.len());
        for (time, t) in batch_commits {
            self.u64(*time);
            self.u64(t.0 as u64);
        }
    }

    fn row(&mut self, r: &Row) {
        let Row { record, value, sink, tick } = r;
        self.u64(record.0 as u64);
        self.i64(*value);
        self.u64(sink.0 as u64);
        // When a reader first saw it: the latency statistics'; its rank among the rows is an
        // outside reader's order.
        self.tick(*tick);
        let rank = self.history.row_ticks.binary_search(tick).expect("every row's step was collected");
        self.len(rank);
        let g = &self.sim.graph;
        if g.task(*sink).inputs.len() > 1 {
            let from = self
                .sim
                .effects
                .iter()
                .find(|e| e.step == *tick && e.record == *record && g.channel(e.channel).to == *sink);
            self.opt_u64(from.map(|e| e.channel.0 as u64));
        }
    }
}
