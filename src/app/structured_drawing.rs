//! Structured Streaming's drawing on the canvas: the band of its checkpoint location under the job
//! (drawn in `structured_view.rs`, which comes in the bands part), the driver in the JobManager's
//! place with its two logs' latest entries and the batch it stands at, a task's crash as the
//! query failing, and the driver's death on the banner.

use super::mechanism_drawing::{BandDrawing, MechanismDrawing};
use crate::engine::core::lang::say;
use crate::engine::mechanisms::structured::checkpoint_location::Phase;
use crate::engine::{CrashScope, Lang, Sim};

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
        (Some(title), logs_line(sim, l), batch_line(sim, l))
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

/// The checkpoint location's two logs: their latest entries.
fn logs_line(sim: &Sim, l: Lang) -> String {
    let loc = sim.checkpoint_location();
    let latest = |b: Option<u32>| b.map_or_else(|| "–".to_string(), |b| b.to_string());
    let (offsets, commits) = (latest(loc.latest_offsets().map(|e| e.batch)), latest(loc.latest_commit()));
    say!(l, "latest offsets/{offsets} · commits/{commits}", "最新 offsets/{offsets} · commits/{commits}")
}

/// Where the driver stands in its batch.
fn batch_line(sim: &Sim, l: Lang) -> String {
    let Some(q) = sim.query() else { return String::new() };
    let b = q.batch;
    match q.phase {
        Phase::Idle => say!(l, "batch {b}: to plan", "批次 {b}：待规划"),
        Phase::Running => say!(l, "batch {b}: running (state v{b})", "批次 {b}：运行中（状态 v{b}）"),
        Phase::SinkDone => say!(l, "batch {b}: sink done, to commit", "批次 {b}：sink 已完成，待提交"),
    }
}
