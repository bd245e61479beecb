//! The checkpoints drawn over the run, one group of bars per checkpoint: its end-to-end duration,
//! the longest start delay (trigger to the first barrier at a subtask) and the longest alignment
//! (first to last barrier), in steps, with the checkpoint timeout as a line, and ✗ over one that
//! failed; under them the in-flight records it persisted. Flink's Checkpoints tab lists these figures as numbers; drawn
//! side by side, what backpressure does to them shows: the start delay and the alignment grow with
//! the queues until a checkpoint times out, and unaligned checkpoints trade them for persisted
//! records. A click on a checkpoint (or Enter) moves the timeline to its trigger.

use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::app::svg_number::num;
use crate::app::text::Lang;
use crate::app::ui_state::{Dispatch, Msg};
use crate::classroom::Command;
use crate::engine::{CheckpointRecord, CheckpointStatus};

/// Checkpoints drawn: the latest.
const SHOWN: usize = 12;
const BAR: f64 = 14.0;
const GAP: f64 = 22.0;
const LEFT: f64 = 56.0;
const TOP: f64 = 30.0;
const HIGH: f64 = 150.0;
const PERSISTED: f64 = 44.0;

/// One checkpoint's figures: duration, start delay and alignment in steps, persisted records.
fn figures(r: &CheckpointRecord, now: u64) -> [u64; 4] {
    let delay = r.subtasks.iter().filter_map(|s| s.start_delay).max().unwrap_or(0);
    let alignment = r.subtasks.iter().filter_map(|s| s.alignment).max().unwrap_or(0);
    [r.duration(now), delay, alignment, r.in_flight as u64]
}

pub fn checkpoint_chart(history: &[CheckpointRecord], now: u64, timeout: u64, l: Lang, dispatch: &Dispatch) -> Html {
    if history.is_empty() {
        return html! {};
    }
    let shown = &history[history.len().saturating_sub(SHOWN)..];
    let all: Vec<[u64; 4]> = shown.iter().map(|r| figures(r, now)).collect();
    let longest = all.iter().map(|f| f[0].max(f[1]).max(f[2])).max().unwrap_or(0).max(1);
    // The timeout line is drawn when it is within reach of the bars; otherwise it is named.
    let timeout_drawn = timeout <= longest * 2;
    let top_steps = if timeout_drawn { longest.max(timeout) } else { longest } as f64;
    let any_persisted = all.iter().any(|f| f[3] > 0);
    let most_persisted = all.iter().map(|f| f[3]).max().unwrap_or(0).max(1) as f64;
    let y_steps = |v: u64| TOP + HIGH - HIGH * v as f64 / top_steps;
    let base = TOP + HIGH;
    let persisted_base = base + 34.0 + PERSISTED;
    let width = LEFT + shown.len() as f64 * (3.0 * BAR + GAP) + 10.0;
    let height = persisted_base + 26.0;
    let names = [
        l.t("end to end", "端到端"),
        l.t("start delay", "启动延迟"),
        l.t("alignment", "对齐耗时"),
        l.t("persisted in-flight", "持久化在途记录"),
    ];
    let said = l.t(
        "Chart of each checkpoint's end-to-end duration, start delay and alignment in steps, with the checkpoint timeout, and the in-flight records it persisted. The table below has the same figures.",
        "图：每个检查点的端到端耗时、启动延迟和对齐耗时（步），以及检查点超时线和持久化的在途记录数。下表有同样的数字。",
    );
    let groups = shown.iter().zip(&all).enumerate().map(|(i, (r, f))| {
        let x0 = LEFT + i as f64 * (3.0 * BAR + GAP);
        let id = r.id;
        let go = {
            let d = dispatch.clone();
            Callback::from(move |_: MouseEvent| d.dispatch(Msg::Cmd(Command::SelectCheckpoint(id))))
        };
        let key = {
            let d = dispatch.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" {
                    e.prevent_default();
                    d.dispatch(Msg::Cmd(Command::SelectCheckpoint(id)))
                }
            })
        };
        let status = match r.status {
            CheckpointStatus::Completed => "completed",
            CheckpointStatus::InProgress => "in-progress",
            CheckpointStatus::Failed(_) => "failed",
        };
        let tip = format!(
            "{} {}: {} {}, {} {}, {} {} {}; {} {}",
            l.t("Checkpoint", "检查点"),
            id.0,
            names[0],
            f[0],
            names[1],
            f[1],
            names[2],
            f[2],
            l.t("steps", "步"),
            names[3],
            f[3]
        );
        let bars = (0..3).map(|k| {
            let y = y_steps(f[k]);
            html! { <rect class={classes!("bar", ["duration", "delay", "alignment"][k])} x={num(x0 + k as f64 * BAR)} y={num(y)}
                width={num(BAR - 2.0)} height={num((base - y).max(0.0))} /> }
        });
        let ph = PERSISTED * f[3] as f64 / most_persisted;
        // A failed checkpoint is marked over its bars.
        let failed = matches!(r.status, CheckpointStatus::Failed(_)).then(|| {
            let top = (0..3).map(|k| y_steps(f[k])).fold(base, f64::min);
            html! { <text class="chart-failed" x={num(x0 + 1.5 * BAR)} y={num(top - 4.0)} text-anchor="middle">{ "✗" }</text> }
        });
        html! {
            <g class={classes!("chart-checkpoint", status)} data-checkpoint={id.0.to_string()} role="button" tabindex="0"
                aria-label={tip.clone()} onclick={go} onkeydown={key}>
                <title>{ tip }</title>
                <rect class="hit" x={num(x0 - 3.0)} y={num(TOP)} width={num(3.0 * BAR + 4.0)} height={num(persisted_base - TOP)} />
                { for bars }
                <rect class="bar persisted" x={num(x0 + BAR)} y={num(persisted_base - ph)} width={num(BAR - 2.0)} height={num(ph)} />
                { failed.unwrap_or_default() }
                <text class="chart-id" x={num(x0 + 1.5 * BAR)} y={num(base + 20.0)} text-anchor="middle">{ id.0 }</text>
            </g>
        }
    });
    let timeout_line = timeout_drawn.then(|| {
        let y = y_steps(timeout);
        html! { <g class="timeout-line" data-timeout={timeout.to_string()}>
            <line x1={num(LEFT - 6.0)} x2={num(width - 4.0)} y1={num(y)} y2={num(y)} />
            <text x={num(LEFT - 8.0)} y={num(y + 5.0)} text-anchor="end">{ timeout }</text>
        </g> }
    });
    html! {
        <figure class="checkpoint-chart" id="checkpoint-chart">
            <figcaption>
                <span class="key duration">{ names[0] }</span>
                <span class="key delay">{ names[1] }</span>
                <span class="key alignment">{ names[2] }</span>
                <span class="key persisted">{ names[3] }</span>
                <span class="key timeout">{ if timeout_drawn {
                    format!("{} ({} {})", l.t("timeout", "超时"), timeout, l.t("steps", "步"))
                } else {
                    format!("{} {} {}", l.t("timeout", "超时"), timeout, l.t("steps, above the chart", "步，超出图的范围"))
                } }</span>
            </figcaption>
            <div class="chart-scroll">
                <svg role="group" aria-label={said} width={num(width)} height={num(height)} viewBox={format!("0 0 {} {}", num(width), num(height))}>
                    <text class="axis" x={num(LEFT - 8.0)} y={num(base + 5.0)} text-anchor="end">{ "0" }</text>
                    <text class="axis" x={num(LEFT - 8.0)} y={num(TOP + 10.0)} text-anchor="end">{ if timeout_drawn && timeout as f64 >= top_steps { String::new() } else { (top_steps as u64).to_string() } }</text>
                    <line class="axis" x1={num(LEFT - 4.0)} x2={num(width - 4.0)} y1={num(base)} y2={num(base)} />
                    <line class="axis" x1={num(LEFT - 4.0)} x2={num(width - 4.0)} y1={num(persisted_base)} y2={num(persisted_base)} />
                    <text class="axis" x={num(LEFT - 8.0)} y={num(persisted_base + 5.0)} text-anchor="end">{ "0" }</text>
                    { if any_persisted {
                        html! { <text class="axis" x={num(LEFT - 8.0)} y={num(persisted_base - PERSISTED + 10.0)} text-anchor="end">{ most_persisted as u64 }</text> }
                    } else {
                        html! { <text class="axis muted" x={num(LEFT)} y={num(persisted_base - 8.0)}>{ l.t("no in-flight records persisted", "没有持久化在途记录") }</text> }
                    } }
                    { for groups }
                    { timeout_line.unwrap_or_default() }
                </svg>
            </div>
        </figure>
    }
}
