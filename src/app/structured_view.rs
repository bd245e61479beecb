//! Structured Streaming on the canvas: a band under the job with three boxes, the query's
//! checkpoint location as its folders hold it. The offset log (`offsets/N`: each source's range of
//! offsets, the batch running now marked ▶); the commit log (`commits/N`) and where the driver
//! stands in its batch; the state stores' versions, the file sink's `_spark_metadata` log, and
//! what a restart would run now. Presenter mode draws a compact strip instead. Every text wraps to
//! its box's width and the band grows to hold it.

use yew::prelude::*;

use super::text::Lang;
use crate::app::svg_number::num;
use crate::app::svg_text::wrap;
use crate::engine::core::lang::say;
use crate::engine::mechanisms::structured::checkpoint_location::{CheckpointLocation, OffsetEntry, Phase};
use crate::engine::{Action, Sim};

/// The least height of the band, and of presenter mode's strip, in canvas units.
pub const BAND_H: f64 = 200.0;
pub const STRIP_H: f64 = 64.0;
/// The narrowest the band draws in.
pub const MIN_W: f64 = 1000.0;
const LINE: f64 = 26.0;
/// The most entries of a log the band lists (the latest ones).
const SHOWN: usize = 5;

/// An offset log entry as a line: "offsets/1: Source 2–4".
fn offsets_line(sim: &Sim, e: &OffsetEntry) -> String {
    let ranges: Vec<String> =
        e.ranges.iter().map(|r| format!("{} {}–{}", sim.graph.task(r.source).name, r.start, r.end)).collect();
    format!("offsets/{}: {}", e.batch, ranges.join(", "))
}

/// The latest `SHOWN` of `items`, with how many are left out before them.
fn latest<T>(items: &[T]) -> (usize, &[T]) {
    let skip = items.len().saturating_sub(SHOWN);
    (skip, &items[skip..])
}

/// What a restart would run now: the latest offset entry again, or the next batch.
fn restart_line(loc: &CheckpointLocation, l: Lang) -> String {
    match loc.latest_offsets() {
        None => l.t("a restart now: batch 0, state empty", "现在重启：批次 0，状态为空").to_string(),
        Some(e) if loc.latest_commit() == Some(e.batch) => {
            let (b, v) = (e.batch + 1, e.batch + 1);
            say!(l, "a restart now: batch {b} (new), state v{v}", "现在重启：批次 {b}（新的），状态 v{v}")
        }
        Some(e) => {
            let b = e.batch;
            say!(
                l,
                "a restart now: batch {b} again, same offsets, state v{b}",
                "现在重启：批次 {b} 重跑，偏移相同，状态 v{b}"
            )
        }
    }
}

/// The three boxes' texts: (class, words), a title first.
fn columns(sim: &Sim, l: Lang) -> [Vec<(&'static str, String)>; 3] {
    let loc = sim.checkpoint_location();
    let running = sim.query().filter(|q| q.phase == Phase::Running).map(|q| q.batch);
    let mut offsets =
        vec![("task-name", l.t("offsets/: written before a batch runs", "offsets/：批次运行前写下").to_string())];
    let (skip, shown) = latest(&loc.offsets);
    if skip > 0 {
        offsets.push(("spout-line muted", say!(l, "… {skip} earlier", "……之前 {skip} 个")));
    }
    for e in shown {
        let mark = if running == Some(e.batch) { " ▶" } else { "" };
        offsets.push(("spout-line", format!("{}{mark}", offsets_line(sim, e))));
    }
    if loc.offsets.is_empty() {
        offsets.push(("spout-line muted", l.t("empty", "空").to_string()));
    }
    let mut commits =
        vec![("task-name", l.t("commits/: written after its sink finished", "commits/：sink 完成后写下").to_string())];
    let (skip, shown) = latest(&loc.commits);
    let listed: Vec<String> = shown.iter().map(|b| format!("commits/{b}")).collect();
    let more = if skip > 0 { say!(l, "… {skip} earlier, ", "……之前 {skip} 个，") } else { String::new() };
    commits.push((
        "spout-line",
        if listed.is_empty() { l.t("empty", "空").to_string() } else { more + &listed.join(" ") },
    ));
    commits.push((
        "spout-line spark-running",
        match sim.query() {
            None => l.t("✖ driver down: a restart reads both logs", "✖ 驱动器故障：重启时读取两个日志").to_string(),
            Some(q) => {
                let b = q.batch;
                match q.phase {
                    Phase::Idle => say!(l, "driver: batch {b} to plan", "驱动器：批次 {b} 待规划"),
                    Phase::Running => say!(l, "driver: batch {b} running", "驱动器：批次 {b} 运行中"),
                    Phase::SinkDone => say!(
                        l,
                        "driver: batch {b}'s sink done, commit to write",
                        "驱动器：批次 {b} 的 sink 已完成，待写提交"
                    ),
                }
            }
        },
    ));
    let versions: Vec<String> = latest(&loc.state).1.iter().map(|v| format!("v{}", v.version)).collect();
    let sink_log: Vec<String> = latest(&loc.sink_log).1.iter().map(|b| b.to_string()).collect();
    let none = || "—".to_string();
    let state = vec![
        ("task-name", l.t("state/ and the sink's log", "state/ 与 sink 的日志").to_string()),
        (
            "spout-line",
            format!(
                "{} {}",
                l.t("state versions:", "状态版本："),
                if versions.is_empty() { none() } else { versions.join(" ") }
            ),
        ),
        ("spout-line", format!("_spark_metadata/: {}", if sink_log.is_empty() { none() } else { sink_log.join(" ") })),
        ("spout-line muted", restart_line(loc, l)),
    ];
    [offsets, commits, state]
}

/// The band, or presenter mode's strip (`compact`), and the height its wrapped lines take.
pub fn band(sim: &Sim, top: f64, width: f64, _act: &Callback<Action>, l: Lang, compact: bool) -> (Html, f64) {
    let label = l.t("Structured Streaming: the checkpoint location", "Spark 结构化流：检查点目录");
    if compact {
        let loc = sim.checkpoint_location();
        let last = |b: Option<u32>| b.map_or_else(|| "—".to_string(), |b| b.to_string());
        let line = format!(
            "offsets/{} · commits/{} · {}",
            last(loc.latest_offsets().map(|e| e.batch)),
            last(loc.latest_commit()),
            restart_line(loc, l)
        );
        let lines = wrap(&line, width - 56.0, 20.0);
        let h = (24.0 + lines.len() as f64 * 40.0).max(STRIP_H);
        return (
            html! {
                <g id="structured-band" class="spark-band compact" role="group" aria-label={label}>
                    <rect class="spark-box" x="16" y={num(top + 4.0)} width={num(width - 32.0)} height={num(h - 8.0)} rx="10" />
                    { for lines.into_iter().enumerate().map(|(i, t)| html! {
                        <text class="ack-strip-text" x="28" y={num(top + 38.0 + i as f64 * 40.0)}>{ t }</text>
                    }) }
                </g>
            },
            h,
        );
    }
    let col = (width - 80.0) / 3.0;
    let x = |c: usize| 24.0 + c as f64 * (col + 16.0);
    let mut placed: Vec<(usize, f64, &'static str, String)> = Vec::new();
    let mut bottom: f64 = 0.0;
    for (c, texts) in columns(sim, l).into_iter().enumerate() {
        let mut y = 38.0;
        for (class, t) in texts {
            let title = class == "task-name";
            for line in wrap(&t, col - 24.0, if title { 19.0 } else { 17.0 }) {
                placed.push((c, y, class, line));
                y += if title { 24.0 } else { LINE };
            }
            if title {
                y += 8.0;
            }
        }
        bottom = bottom.max(y);
    }
    let h = (bottom - 4.0).max(BAND_H - 20.0);
    let band = html! {
        <g id="structured-band" class="spark-band" role="group" aria-label={label}>
            { for (0..3).map(|c| html! { <rect class="spark-box" x={num(x(c))} y={num(top + 8.0)} width={num(col)} height={num(h)} rx="12" /> }) }
            { for placed.into_iter().map(|(c, y, class, t)| html! {
                <text class={class} x={num(x(c) + 12.0)} y={num(top + y)}>{ t }</text>
            }) }
        </g>
    };
    (band, h + 20.0)
}

/// The second and third lines of the driver's box on the canvas: the two logs' latest entries,
/// and where the driver stands in its batch.
pub fn query_lines(sim: &Sim, l: Lang) -> (String, String) {
    (logs_line(sim, l), batch_line(sim, l))
}

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
