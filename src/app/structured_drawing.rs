//! Structured Streaming's drawing on the canvas: the band of its checkpoint location under the job
//! (drawn in `structured_view.rs`, which comes in the bands part), the driver in the JobManager's
//! place with its two logs' latest entries and the batch it stands at, a task's crash as the
//! query failing, and the driver's death on the banner.

use super::bands_part::bands_now;
use super::mechanism_drawing::{BandDrawing, MechanismDrawing};
use crate::engine::mechanisms::structured::checkpoint_location::Phase;
use crate::engine::CrashScope;

pub static STRUCTURED: MechanismDrawing = MechanismDrawing {
    band: Some(BandDrawing {
        // Presenter mode folds it away between batches, for a prediction's chips.
        shows: |sim, compact| !compact || sim.query().is_some_and(|q| q.phase != Phase::Idle),
        pick: |b| b.logs,
        wait_height: |_| 90.0,
        min_width: super::structured_view::MIN_W as f32,
    }),
    jobmanager: Some(|sim, l| {
        let title = if sim.running() {
            l.t("Spark driver · MicroBatchExecution", "Spark 驱动器 · MicroBatchExecution")
        } else {
            l.t("✖ Spark driver down", "✖ Spark 驱动器故障")
        };
        // The box's lines come in the bands part, with the band.
        let (line2, line3) = bands_now().map_or_else(|| ("…".to_string(), String::new()), |b| (b.query_lines)(sim, l));
        (Some(title), line2, line3)
    }),
    crash_tip: Some(|l| l.t("Fail the query with a task failure in", "让查询因任务失败而停止：")),
    // A cluster's crash reads as under any mechanism; the rest is the driver's death.
    down_banner: Some(|scope, l| match scope {
        CrashScope::Cluster => None,
        _ => Some((
            l.t("✖ The Spark driver died, and the query with it.", "✖ Spark 驱动器挂了，查询随之停止。"),
            l.t("Press Restore (R).", "按“恢复”（R）。"),
        )),
    }),
    ..MechanismDrawing::DEFAULT
};
