//! What every text the layout reserves a place for keeps clear of: each box with its save marker
//! and (several inputs) its alignment badge, the JobManager, the down banner, the external system
//! and the sink's line down to it; and the cut's possible runs, which the lanes' tokens keep clear
//! of too: a spine (the sky) along the top row's save markers, and from it a tooth down the gutter
//! right of each column of boxes to the markers lower in it. The cut line is drawn on these runs
//! (`canvas/cut_line.rs`). The lanes (`lanes.rs`) add their own.

use super::geometry::{Obstacle, Rect};
use super::grid::{several_inputs, Grid, Placement};
use super::sizes::{BADGE_H, M, SNAP_UP};
use super::upright::PORTRAIT_GAP;
use crate::engine::JobGraph;

/// The obstacles of what is placed: boxes, save markers, badges, the JobManager, the banner, the
/// external system and its line from the sink.
pub fn placed(g: &JobGraph, grid: &Grid, p: &Placement) -> Vec<Obstacle> {
    let (bw, box_h) = (grid.box_w, grid.box_h);
    let mut obstacles: Vec<Obstacle> = Vec::new();
    for (t, (x, y)) in p.boxes.iter().copied().enumerate() {
        obstacles.push(Obstacle::Rect(Rect::new(x, y, bw, box_h).grow(3.0)));
        obstacles.push(Obstacle::Rect(Rect::new(x + bw - 84.0, y - SNAP_UP, 76.0, 26.0).grow(2.0)));
        if several_inputs(g, t) {
            obstacles.push(Obstacle::Rect(Rect::new(x, y + box_h + 2.0, bw, BADGE_H - 2.0)));
        }
    }
    obstacles.push(Obstacle::Rect(p.jm.grow(3.0)));
    obstacles.push(Obstacle::Rect(p.banner.grow(3.0)));
    if let Some((r, s)) = p.external {
        obstacles.push(Obstacle::Rect(r.grow(3.0)));
        let (sx, sy) = p.boxes[s.index()];
        obstacles.push(Obstacle::Seg((sx + bw - 16.0, sy + box_h), (sx + bw - 16.0, r.y), 4.0));
    }
    obstacles
}

/// Per group of boxes the cut goes down to, the x of its run just right of them.
pub fn gutters(grid: &Grid, cut_groups: &[Vec<usize>], width: f64) -> Vec<f64> {
    let bw = grid.box_w;
    if grid.upright && cut_groups.len() == 1 {
        // One box a row: the cut's run goes down the drawing's right edge, so what is written by a
        // lane fits between the lane and the cut.
        vec![width - M - 6.0]
    } else if grid.upright {
        (0..cut_groups.len()).map(|i| M + i as f64 * (bw + PORTRAIT_GAP) + bw + 7.0).collect()
    } else {
        (0..grid.columns.len()).map(|c| grid.col_x(c) + bw + 7.0).collect()
    }
}

/// The y of the sky, and the cut's possible runs as obstacles.
pub fn cut_runs(grid: &Grid, p: &Placement, gutters: &[f64], width: f64) -> (f64, Vec<Obstacle>) {
    let (bw, boxes) = (grid.box_w, &p.boxes);
    let sky = boxes.iter().map(|b| b.1).fold(f64::MAX, f64::min) - SNAP_UP + 13.0;
    let mut cut_runs: Vec<Obstacle> = vec![Obstacle::Seg((M, sky), (width - M, sky), 3.0)];
    for (c, tasks) in p.cut_groups.iter().enumerate() {
        let lowest = tasks.iter().map(|t| boxes[*t].1 - SNAP_UP + 13.0).fold(sky, f64::max);
        cut_runs.push(Obstacle::Seg((gutters[c], sky), (gutters[c], lowest), 3.0));
        for t in tasks {
            let cy = boxes[*t].1 - SNAP_UP + 13.0;
            cut_runs.push(Obstacle::Seg((boxes[*t].0 + bw - 8.0, cy), (gutters[c], cy), 3.0));
        }
    }
    (sky, cut_runs)
}
