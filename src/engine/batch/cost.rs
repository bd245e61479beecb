//! What recovery cost: the counts every batch run keeps, failure-free or not. The gap between a
//! run's counts and the failure-free run's is the price of its failures.

use serde::Serialize;

/// The counts of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// Task attempts started (Hadoop: maps and reduces; Spark: every stage's tasks).
    pub task_runs: u32,
    /// Of those, attempts of a task that had run before (a retry, a re-run).
    pub task_reruns: u32,
    /// Hadoop: map attempts started; Spark: shuffle-map tasks started.
    pub map_runs: u32,
    /// Hadoop: reduce attempts started; Spark: result tasks started.
    pub reduce_runs: u32,
    /// Spark: partitions computed (a read from memory or a checkpoint is not a computation).
    pub partitions_computed: u32,
    /// Spark: partitions computed again after they had been computed once. Hadoop: 0.
    pub partitions_recomputed: u32,
    /// Records of the partitions computed again (Spark), or the input records of re-run tasks
    /// (Hadoop).
    pub records_recomputed: u32,
    /// Spark: partitions read from executor memory (`persist`).
    pub cache_reads: u32,
    /// Spark: partitions read from reliable storage (`checkpoint`).
    pub checkpoint_reads: u32,
    /// Spark: result tasks that found a shuffle output missing (`FetchFailed`).
    pub fetch_failures: u32,
}
