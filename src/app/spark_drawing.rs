//! Spark Streaming's drawing on the canvas: the band of blocks, batches and state under the job
//! (drawn in `spark_view.rs`, which comes in the bands part), the driver and its JobScheduler in
//! the JobManager's place, an executor's crash for a task's, and the driver's death on the banner.

use super::bands_part::bands_now;
use super::mechanism_drawing::{BandDrawing, MechanismDrawing};
use crate::engine::{CrashScope, Sim};

pub static SPARK: MechanismDrawing = MechanismDrawing {
    band: Some(BandDrawing {
        shows: shows_band,
        pick: |b| b.batches,
        // While the drawing loads, the words that say so.
        wait_height: |_| 90.0,
        min_width: super::spark_view::MIN_W as f32,
    }),
    // The box's lines come in the bands part, with the band.
    jobmanager: Some(|sim, l| {
        let title = if sim.running() {
            l.t("Spark driver · JobScheduler", "Spark 驱动器 · JobScheduler")
        } else {
            l.t("✖ Spark driver down", "✖ Spark 驱动器故障")
        };
        let (line2, line3) = bands_now().map_or_else(|| ("…".to_string(), String::new()), |b| (b.driver_lines)(sim, l));
        (Some(title), line2, line3)
    }),
    crash_tip: Some(|l| l.t("Crash the executor running", "使运行它的执行器崩溃：")),
    // A cluster's or a task's crash reads as under any mechanism; the rest is the driver's death.
    down_banner: Some(|scope, l| match scope {
        CrashScope::Cluster | CrashScope::Task(_) => None,
        _ => Some((
            l.t("✖ The Spark driver died.", "✖ Spark 驱动器挂了。"),
            l.t("Press Restore (R).", "按“恢复”（R）。"),
        )),
    }),
    ..MechanismDrawing::DEFAULT
};

/// The band shows always; in presenter mode only while blocks or batches wait: on a projector the
/// strip costs the drawing its size, and a prediction's chips need the room.
fn shows_band(sim: &Sim, compact: bool) -> bool {
    !compact
        || sim.spark().is_some_and(|s| !s.jobs.is_empty() || s.blocks.iter().any(|b| b.batch.is_none() && b.readable()))
}
