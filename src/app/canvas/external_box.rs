//! The external system under the sink: what a reader outside the job sees.

use super::layout::{text_w, Layout, Rect};
use super::layout::{ROW, ROW0};
use super::parts::*;
use crate::app::svg_number::num;
use crate::app::text::Lang;
use crate::engine::*;
use yew::prelude::*;

pub(super) fn external_box(sim: &Sim, lay: &Layout, r: Rect, sink: TaskId, l: Lang) -> Html {
    let g = &sim.graph;
    let visible = sim.external().visible();
    let labels: Vec<&str> = visible.iter().map(|r| g.label(r.record)).collect();
    let mode = sim.settings.sink;
    let open: usize = sim
        .external()
        .txns
        .iter()
        .filter(|t| matches!(t.status, TxnStatus::Open | TxnStatus::PreCommitted(_)))
        .map(|t| t.rows.len())
        .sum();
    let tail: Vec<&str> = labels.iter().rev().take(12).rev().copied().collect();
    let (sx, sy) = lay.boxes[sink.index()];
    let ax = sx + lay.box_w - 16.0;
    let max = r.w - 28.0;
    let seen = format!("{} {}", visible.len(), l.t("row(s) a reader sees", "行对读者可见"));
    let seen_short = format!("{} {}", visible.len(), l.t("row(s) seen", "行可见"));
    let px = lay.state_px();
    let rows = if tail.len() < labels.len() {
        fit_labels("… ", &tail, "", max, px)
    } else {
        fit_labels("", &tail, "", max, px)
    };
    html! {
        <g class="external" id="external-box">
            <title>{ format!("{}: {seen}", l.t("External system", "外部系统")) }</title>
            <line class="to-external" x1={num(ax)} y1={num(sy + lay.box_h)} x2={num(ax)} y2={num(r.y - 4.0)} marker-end="url(#arrow)" />
            <rect x={num(r.x)} y={num(r.y)} width={num(r.w)} height={num(r.h)} rx="12" />
            <text class="task-name" x={num(r.x + 14.0)} y={num(r.y + 28.0)}>{ l.t("External system", "外部系统") }</text>
            <text class="state muted" x={num(r.x + 14.0)} y={num(r.y + ROW0)}>{ crate::app::text::sink_name(l, mode) }</text>
            <text class="state main seen" x={num(r.x + 14.0)} y={num(r.y + ROW0 + ROW)}>{ if text_w(&seen, 16.0) <= max { seen.clone() } else { seen_short } }</text>
            { if rows.is_empty() { html!{} } else {
                html!{ <text class="state" x={num(r.x + 14.0)} y={num(r.y + ROW0 + 2.0 * ROW)}>{ rows }</text> } } }
            { if matches!(mode, SinkMode::TwoPhaseCommit | SinkMode::Kafka) {
                html!{ <text class="state muted" x={num(r.x + 14.0)} y={num(r.y + ROW0 + 3.0 * ROW)}>
                    { { let full = format!("{} {}", open, l.t("row(s) uncommitted, invisible", "行未提交，不可见"));
                      if text_w(&full, px) <= max { full } else { format!("{} {}", open, l.t("uncommitted", "未提交")) } } }</text> }
              } else { html!{} } }
        </g>
    }
}
