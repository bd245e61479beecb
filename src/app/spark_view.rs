//! Spark Streaming on the canvas: a band under the job with three boxes. The receiver's blocks
//! not yet processed, each with its copies (executor 0, executor 1, the write-ahead log); the
//! driver's batch queue (the running job, its attempt, the queued batches, the recomputations
//! after a restart); the state RDD's lineage chain and its checkpoint, the log's bytes, and the
//! statistics (scheduling and processing delay of the last batch, per-record latency from
//! arrival to a visible output). Presenter mode draws a compact strip instead. Every text wraps
//! to its box's width and the band grows to hold it: no figure or state is cut off.

use crate::app::svg_number::num;
use yew::prelude::*;

use super::text::Lang;
use crate::app::legend_item::legend_item;
use crate::app::svg_text::{text_w, wrap};
use crate::engine::mechanisms::marks::Mark;
use crate::engine::mechanisms::spark::received_blocks::{Block, SparkRuntime, WAL_BYTES_PER_RECORD};
use crate::engine::{Action, Sim};

/// Height of the band, and of presenter mode's strip, in canvas units: the least they take
/// (wrapped lines make them taller).
pub const BAND_H: f64 = 250.0;
pub const STRIP_H: f64 = 104.0;
/// The narrowest the band draws in.
pub const MIN_W: f64 = 1180.0;
const LINE: f64 = 28.0;
/// A line of the strip's large type.
const STRIP_LINE: f64 = 40.0;

/// A block as a chip's words: its record and where copies are ("a ▪0 ▪1 ✎log").
fn block_text(sim: &Sim, b: &Block) -> String {
    let mut s = sim.graph.label(b.record).to_string();
    for e in 0..2 {
        if b.copies & (1 << e) != 0 {
            s += &format!(" ▪{e}");
        }
    }
    if b.wal {
        s += " ✎";
    }
    s
}

/// The metadata checkpoint in one line: the step it was written, its batch time (a restart runs
/// every batch from it on again), the completed batches it lists and the incomplete ones.
pub fn metadata_line(sim: &Sim, l: Lang) -> String {
    let d = sim.durable_spark();
    match &d.meta {
        None => l.t("metadata checkpoint: none yet", "元数据检查点：还没有").to_string(),
        Some(m) => {
            let done: Vec<String> = m.batches.iter().filter(|b| b.2).map(|b| b.0.to_string()).collect();
            let open: Vec<String> = m.batches.iter().filter(|b| !b.2).map(|b| b.0.to_string()).collect();
            let list = |v: Vec<String>| if v.is_empty() { "—".to_string() } else { v.join(" ") };
            format!(
                "{} @{} · {} {} · {} {} · {} {}",
                l.t("metadata checkpoint", "元数据检查点"),
                m.time,
                l.t("done", "已完成"),
                list(done),
                l.t("incomplete", "未完成"),
                list(open),
                l.t("a restart re-runs from batch time", "重启时从批次时间起重跑："),
                m.checkpoint_time
            )
        }
    }
}

/// The metadata checkpoint in the driver's box: short enough for it.
pub fn metadata_short(sim: &Sim, l: Lang) -> String {
    match &sim.durable_spark().meta {
        None => l.t("metadata checkpoint: none yet", "元数据检查点：还没有").to_string(),
        Some(m) => format!(
            "{} @{} · {} {}",
            l.t("metadata ckpt", "元数据检查点"),
            m.time,
            l.t("re-run from", "重跑自"),
            m.checkpoint_time
        ),
    }
}

/// The lineage, the log and the statistics, one line each.
fn state_lines(sim: &Sim, s: Option<&SparkRuntime>, l: Lang) -> Vec<String> {
    let d = sim.durable_spark();
    let chain: Vec<String> = s.map(|s| s.chain.iter().map(|(k, _)| k.to_string()).collect()).unwrap_or_default();
    let chain = if chain.is_empty() { "—".into() } else { format!("{} ({})", chain.len(), chain.join(" ← ")) };
    let ckpt = d
        .state
        .as_ref()
        .map_or_else(|| l.t("none", "无").to_string(), |c| format!("{} {}", l.t("batch", "批次"), c.batch));
    let wal_bytes = d.wal.len() as u64 * WAL_BYTES_PER_RECORD;
    let last = d.batches.iter().rev().find(|b| b.finished.is_some());
    let (sum, n, max) = sim.record_latency();
    let steps = l.t("steps", "步");
    vec![
        format!(
            "{} {chain} · {} {ckpt}",
            l.t("state RDD: lineage", "状态 RDD：血统链"),
            l.t("checkpointed:", "已检查点：")
        ),
        format!(
            "{} {} · {} {wal_bytes} B · {} {} B",
            l.t("write-ahead log:", "预写日志："),
            if sim.settings.mechanism.spark.write_ahead_log { l.t("on", "开启") } else { l.t("off", "关闭") },
            l.t("holds", "现存"),
            l.t("written", "累计写入"),
            d.wal_written
        ),
        match last {
            Some(b) => format!(
                "{} {}: {} {} · {} {} {steps}",
                l.t("batch", "批次"),
                b.batch,
                l.t("scheduling delay", "调度延迟"),
                b.scheduling_delay(),
                l.t("processing", "处理"),
                b.processing_delay().unwrap_or(0)
            ),
            None => l.t("no batch completed yet", "还没有完成的批次").into(),
        },
        if n == 0 {
            l.t("latency: no record visible yet", "延迟：还没有可见的输出").into()
        } else {
            format!(
                "{} {} · {} {max} {steps}",
                l.t("latency to output: mean", "到达至可见的延迟：平均"),
                sum / n,
                l.t("max", "最长")
            )
        },
    ]
}

/// The driver's queue, one line per job.
fn job_lines(sim: &Sim, s: &SparkRuntime, l: Lang) -> Vec<String> {
    s.jobs
        .iter()
        .map(|j| {
            let recs: Vec<&str> = j
                .blocks
                .iter()
                .filter_map(|id| s.block(*id).filter(|b| b.readable()))
                .map(|b| sim.graph.label(b.record))
                .collect();
            let gone = j.blocks.len() - recs.len();
            let what = match (j.started.is_some(), j.output) {
                (true, true) if j.attempt > 1 => format!("{} {}", l.t("▶ running, attempt", "▶ 运行中，第"), j.attempt),
                (true, true) => l.t("▶ running", "▶ 运行中").to_string(),
                (true, false) => l.t("▶ recomputing (lineage)", "▶ 按血统重算").to_string(),
                (false, true) => l.t("queued", "排队中").to_string(),
                (false, false) => l.t("queued: recompute", "排队：重算").to_string(),
            };
            let gone = if gone > 0 {
                format!(" · {gone} {}", l.t("block(s) gone", "个块已丢失"))
            } else {
                String::new()
            };
            format!(
                "{} {} @{} · {} · {what}{gone}",
                l.t("batch", "批次"),
                j.batch,
                j.time,
                if recs.is_empty() { "—".into() } else { recs.join(" ") }
            )
        })
        .collect()
}

/// What the checkpoint directory and the write-ahead log hold, a line each (the storage panel).
pub fn storage_lines(sim: &Sim, l: Lang) -> Vec<String> {
    if sim.strategy() != crate::engine::Strategy::SparkStreaming {
        return vec![];
    }
    let d = sim.durable_spark();
    let wal: Vec<&str> = d.wal.iter().map(|b| sim.graph.label(b.record)).collect();
    let state = match &d.state {
        Some(c) => format!(
            "{} {}, {} {}",
            l.t("state RDD checkpoint: batch", "状态 RDD 检查点：批次"),
            c.batch,
            l.t("written at step", "写于步"),
            c.tick + 1
        ),
        None => l
            .t(
                "state RDD checkpoint: none yet (a restart rebuilds the state from batch 1)",
                "状态 RDD 检查点：还没有（重启时从批次 1 起重建状态）",
            )
            .to_string(),
    };
    let log = match (sim.settings.mechanism.spark.write_ahead_log, wal.is_empty()) {
        (false, _) => l
            .t("write-ahead log: off (blocks live only in executor memory)", "预写日志：关闭（块只在执行器内存中）")
            .to_string(),
        (true, true) => l.t("write-ahead log: empty", "预写日志：空").to_string(),
        (true, false) => format!("{} {}", l.t("write-ahead log:", "预写日志："), wal.join(" ")),
    };
    vec![metadata_line(sim, l), state, log]
}

/// The band, or presenter mode's strip (`compact`), and the height its wrapped lines take.
pub fn band(sim: &Sim, top: f64, width: f64, _act: &Callback<Action>, l: Lang, compact: bool) -> (Html, f64) {
    (if compact { batch_strip } else { batch_band })(sim, sim.spark(), top, width, l)
}

/// The band: blocks, the driver's queue, the state and the logs. While the driver is down (`s`
/// None) it shows what survived: the log's blocks and the metadata checkpoint.
fn batch_band(sim: &Sim, s: Option<&SparkRuntime>, top: f64, width: f64, l: Lang) -> (Html, f64) {
    let g = &sim.graph;
    let col = (width - 80.0) / 3.0;
    let x = |c: usize| 24.0 + c as f64 * (col + 16.0);
    // Blocks still to be processed: not yet in a batch, or in a batch still queued or running;
    // while the driver is down, the blocks the log kept.
    let waiting: Vec<&Block> = match s {
        Some(s) => s
            .blocks
            .iter()
            .filter(|b| b.readable() && b.batch.is_none_or(|k| s.jobs.iter().any(|j| j.batch == k)))
            .collect(),
        None => sim.durable_spark().wal.iter().collect(),
    };
    let per_row = ((col - 24.0) / 112.0).floor().max(1.0) as usize;
    let muted = "spout-line muted";
    let receivers: Vec<&str> = g.sources().map(|t| g.task(t).name.as_str()).collect();
    // Every text of the band, per column, in order: (class, words). Each wraps to the column and
    // the next one starts below it.
    let mut cols: [Vec<(&'static str, String)>; 3] = [
        vec![("task-name", format!("{} {}", l.t("Blocks received by", "接收器收到的块："), receivers.join(", ")))],
        vec![("task-name", l.t("Driver: batch jobs, one at a time", "驱动器：批次作业，一次一个").into())],
        vec![("task-name", l.t("State, logs, delays", "状态、日志、延迟").into())],
    ];
    if waiting.is_empty() {
        let none = match s {
            Some(_) => l.t("no block waits for its batch", "没有等待批次的块"),
            None => {
                l.t("memory died with the executors; the log holds nothing", "内存随执行器一起没了；日志里什么都没有")
            }
        };
        cols[0].push((muted, none.into()));
    }
    let more = waiting.len().saturating_sub(per_row * 3);
    if more > 0 {
        cols[0].push((muted, format!("+{more} {}", l.t("more blocks", "个块"))));
    }
    cols[0].push((muted, l.t("▪0 ▪1 a copy in executor 0 / 1 memory", "▪0 ▪1 执行器 0/1 内存中的副本").into()));
    cols[0].push((muted, l.t("✎ in the log · outlined: no batch yet", "✎ 在日志中 · 描边：尚未分批").into()));
    let mut jobs = match s {
        Some(s) => job_lines(sim, s, l),
        None => vec![
            l.t("✖ down: the queue died with the driver", "✖ 故障：队列随驱动器一起没了").to_string(),
            metadata_line(sim, l),
        ],
    };
    if jobs.len() > 5 {
        let n = jobs.len() - 4;
        jobs.truncate(4);
        jobs.push(format!("+{n} {}", l.t("more batches", "个批次")));
    }
    if jobs.is_empty() {
        jobs.push(l.t("no batch queued", "没有排队的批次").into());
    }
    let running = s.is_some_and(|s| s.running().is_some());
    for (i, j) in jobs.into_iter().enumerate() {
        cols[1].push((if i == 0 && running { "spout-line spark-running" } else { "spout-line" }, j));
    }
    for t in state_lines(sim, s, l) {
        cols[2].push(("spout-line", t));
    }
    // Lay each column out: its title, then (column 0) the block chips, then its lines, wrapped.
    let chip_rows = waiting.len().min(per_row * 3).div_ceil(per_row) as f64;
    let mut placed: Vec<(usize, f64, &'static str, String)> = Vec::new();
    let mut bottom: f64 = 0.0;
    let mut chips_at = 0.0;
    for (c, texts) in cols.into_iter().enumerate() {
        let mut y = 38.0;
        for (i, (class, t)) in texts.into_iter().enumerate() {
            let px = if class == "task-name" { 19.0 } else { 17.0 };
            for line in wrap(&t, col - 24.0, px) {
                placed.push((c, y, class, line));
                y += if class == "task-name" { 24.0 } else { LINE };
            }
            if i == 0 {
                // Below the title: the block chips (column 0), or a gap as wide.
                y += 10.0;
                if c == 0 {
                    chips_at = y - 10.0;
                    y += chip_rows * 34.0;
                }
            }
        }
        bottom = bottom.max(y);
    }
    let h = (bottom - 4.0).max(BAND_H - 20.0);
    let band = html! {
        <g id="spark-band" class="spark-band" role="group" aria-label={l.t("Spark Streaming: blocks, batches, state", "Spark Streaming：块、批次、状态")}>
            { for (0..3).map(|c| html! { <rect class="spark-box" x={num(x(c))} y={num(top + 8.0)} width={num(col)} height={num(h)} rx="12" /> }) }
            { for waiting.iter().take(per_row * 3).enumerate().map(|(i, b)| {
                let (bx, by) = (x(0) + 12.0 + (i % per_row) as f64 * 112.0, top + chips_at + (i / per_row) as f64 * 34.0);
                html! {
                    <g class={classes!("spark-block", b.batch.is_none().then_some("unallocated"))} data-wal={b.wal.to_string()} data-copies={b.copies.to_string()}>
                        <rect x={num(bx)} y={num(by)} width="104" height="26" rx="13" />
                        <text x={num(bx + 52.0)} y={num(by + 19.0)} text-anchor="middle">{ block_text(sim, b) }</text>
                    </g>
                }
            }) }
            { for placed.into_iter().map(|(c, y, class, t)| html! {
                <text class={class} x={num(x(c) + 12.0)} y={num(top + y)}>{ t }</text>
            }) }
        </g>
    };
    (band, h + 20.0)
}

/// Presenter mode's strip: the blocks and the queue on one line, the state and the log on the
/// next, in large type.
fn batch_strip(sim: &Sim, s: Option<&SparkRuntime>, top: f64, width: f64, l: Lang) -> (Html, f64) {
    let Some(s) = s else {
        let lines = storage_lines(sim, l);
        let (first, second) = (format!("{} · {}", l.t("✖ driver down", "✖ 驱动器故障"), lines[2]), lines[0].clone());
        return strip(top, width, l, first, second);
    };
    let waiting: Vec<String> =
        s.blocks.iter().filter(|b| b.readable() && b.batch.is_none()).map(|b| block_text(sim, b)).collect();
    let jobs: Vec<String> =
        s.jobs.iter().map(|j| format!("{}{}", j.batch, if j.started.is_some() { "▶" } else { "" })).collect();
    let first = match l {
        Lang::En => format!(
            "blocks: {} · batches: {}",
            if waiting.is_empty() { "—".into() } else { waiting.join(", ") },
            if jobs.is_empty() { "—".into() } else { jobs.join(" ") }
        ),
        Lang::Zh => format!(
            "块：{} · 批次：{}",
            if waiting.is_empty() { "—".into() } else { waiting.join("，") },
            if jobs.is_empty() { "—".into() } else { jobs.join(" ") }
        ),
    };
    let lines = state_lines(sim, Some(s), l);
    let second = format!("{} · {}", lines[0], lines[1]);
    strip(top, width, l, first, second)
}

/// The strip's lines of large type: two, or more where they wrap.
fn strip(top: f64, width: f64, l: Lang, first: String, second: String) -> (Html, f64) {
    let px = 20.0;
    let lines: Vec<String> = [first, second].iter().flat_map(|t| wrap(t, width - 56.0, px)).collect();
    let h = (24.0 + lines.len() as f64 * STRIP_LINE).max(STRIP_H);
    debug_assert!(lines.iter().all(|t| text_w(t, px) <= width - 56.0 || t.chars().count() == 1));
    let strip = html! {
        <g id="spark-band" class="spark-band compact" role="group" aria-label={l.t("Spark Streaming: blocks, batches, state", "Spark Streaming：块、批次、状态")}>
            <rect class="spark-box" x="16" y={num(top + 4.0)} width={num(width - 32.0)} height={num(h - 8.0)} rx="10" />
            { for lines.into_iter().enumerate().map(|(i, t)| html! {
                <text class="ack-strip-text" x="28" y={num(top + 38.0 + i as f64 * STRIP_LINE)}>{ t }</text>
            }) }
        </g>
    };
    (strip, h)
}

/// The legend's lines for Spark's marks: a block a receiver stored, the driver's batch job.
pub fn legend(m: Mark, l: Lang) -> Html {
    match m {
        Mark::Block => legend_item(
            html! { <g class="g-spark-block"><rect x="4" y="10" width="104" height="26" rx="13" /><text x="56" y="29" text-anchor="middle">{ "a ▪0 ✎" }</text></g> },
            112,
            l.t(
                "a block: ▪0 ▪1 a copy in executor 0 / 1, ✎ in the write-ahead log",
                "块：▪0 ▪1 执行器 0/1 中的副本，✎ 在预写日志中",
            ),
        ),
        _ => legend_item(
            html! { <g class="g-batch"><text x="4" y="30">{ l.t("batch 1 ▶", "批次 1 ▶") }</text></g> },
            110,
            l.t(
                "batch k ▶: the driver's batch job running (the others queue behind it)",
                "批次 k ▶：驱动器正在运行的批次作业（其余在后面排队）",
            ),
        ),
    }
}

/// The driver's lines in the JobManager's place: when the next batch is cut, and the metadata
/// checkpoint.
pub fn driver_lines(sim: &Sim, l: Lang) -> (String, String) {
    let every = sim.settings.mechanism.spark.batch_interval;
    let next = (sim.tick / every + 1) * every;
    let line2 = match sim.spark() {
        Some(_) => format!(
            "{} {every} {} · {} {next}",
            l.t("a batch every", "批次间隔"),
            l.t("steps", "步"),
            l.t("next at step", "下一个在步")
        ),
        None => l.t("driver down: every executor died with it", "驱动器故障：所有执行器随之退出").to_string(),
    };
    (line2, metadata_short(sim, l))
}
