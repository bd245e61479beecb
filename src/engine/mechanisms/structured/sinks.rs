//! How a Structured Streaming sink finishes a micro-batch, and so what a batch run again writes:
//! - the **file sink** (`FileStreamSink.addBatch`, `ManifestFileCommitProtocol`): a batch's files
//!   are visible once the driver writes its entry in the `_spark_metadata` log; a batch whose
//!   entry is already there is skipped ("Skipping already committed batch"). Exactly once. (Spark
//!   skips before writing anything; here the re-run's writes are staged and discarded, which a
//!   reader cannot tell apart.)
//! - **`foreachBatch` with an idempotence check** (`ForeachBatchSink`, the programming guide's
//!   "use the batchId to deduplicate"): the function writes the batch's rows with its `batchId`
//!   in one transaction and skips a `batchId` the table has. Exactly once.
//! - **`foreachBatch` without it**: the function writes the batch whatever its `batchId`; a batch
//!   run again after its output was written is written twice. At least once.
//! - **`foreach`** (`ForeachWriter`): each row is written as it is processed; a batch run again
//!   writes again what its first attempt had written. At least once.
//!
//! The batch-wise sinks write through the simulator's `transactional` sink: a batch's rows wait
//! in an open transaction per sink task, committed or discarded here; a crash before that leaves
//! them uncommitted, and the restart aborts them. `foreach` writes through `append` or `upsert`.

use super::events::StructuredEvent;
use super::settings::OutputSink;
use crate::engine::core::dataflow::external_system::TxnStatus;
use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::TaskId;
use crate::engine::core::sim::Sim;

impl Sim {
    /// Batch `batch`'s work is done: its sink finishes it. Returns what it did.
    pub(super) fn finish_sink(&mut self, batch: u32) -> StructuredEvent {
        let sink = self.settings.mechanism.structured.sink(self.settings.sink);
        let ext = &self.durable.external;
        let skipped = match sink {
            OutputSink::File => self.checkpoint_location().sink_log.contains(&batch),
            OutputSink::ForeachBatchIdempotent => ext.batch_commits.iter().any(|(b, _)| *b == u64::from(batch)),
            OutputSink::ForeachBatch => false,
            OutputSink::Foreach => {
                let visible = ext.visible().len() as u32;
                let rows = visible.saturating_sub(self.query().map_or(0, |q| q.visible_at_start));
                return StructuredEvent::SinkCommitted { batch, sink, rows, skipped: false };
            }
        };
        let rows = self.close_batch_writes(!skipped);
        if !skipped {
            match sink {
                OutputSink::File => self.location_mut().sink_log.push(batch),
                OutputSink::ForeachBatchIdempotent => {
                    let g = &self.graph;
                    let sinks: Vec<TaskId> = (0..g.tasks.len())
                        .filter(|t| g.tasks[*t].kind == OperatorKind::Sink)
                        .map(|t| TaskId(t as u16))
                        .collect();
                    self.durable.external.batch_commits.extend(sinks.into_iter().map(|t| (u64::from(batch), t)));
                }
                _ => {}
            }
        }
        StructuredEvent::SinkCommitted { batch, sink, rows, skipped }
    }

    /// Commits (or, with `commit` false, discards) every sink task's open writes of the batch;
    /// returns how many rows it committed or discarded.
    fn close_batch_writes(&mut self, commit: bool) -> u32 {
        let tick = self.tick;
        let mut rows = 0;
        for t in 0..self.live.tasks.len() {
            let OpState::Sink { open, .. } = &mut self.live.tasks[t].state else { continue };
            let Some(txn) = open.take() else { continue };
            let x = self.durable.external.txn_mut(txn);
            x.status = if commit { TxnStatus::Committed } else { TxnStatus::Aborted };
            x.rows.iter_mut().for_each(|r| r.tick = tick);
            rows += x.rows.len() as u32;
        }
        rows
    }
}
