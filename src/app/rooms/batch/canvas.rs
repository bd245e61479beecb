//! The room's drawing, in SVG: Spark's lineage as a grid of partitions (`spark_lineage.rs`), or
//! Hadoop's job as columns (`hadoop_job.rs`), each with the last step's partitions or tasks
//! highlighted.

use yew::prelude::*;

use super::hadoop_job::hadoop;
use super::spark_lineage::spark;
use crate::engine::batch::{BatchEvent, BatchRun, BatchSim};
use crate::engine::Lang;

fn last_events(run: &BatchRun) -> &[BatchEvent] {
    run.log.last().map_or(&[], Vec::as_slice)
}

/// The drawing of the run.
pub fn drawing(run: &BatchRun, l: Lang) -> Html {
    match run.sim() {
        BatchSim::Spark(s) => spark(s, last_events(run), l),
        BatchSim::Hadoop(h) => hadoop(h, last_events(run), l),
    }
}
