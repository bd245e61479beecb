//! The job upright, for a phone held upright: the same grid turned a quarter. Each depth is a row,
//! its subtasks side by side, the JobManager on top and the down banner at the bottom; lanes fall
//! from a box's bottom to the next row's top, and the cut's teeth run down the right of each
//! column of boxes. The drawing is then as wide as a phone, and its text stays readable.

use super::geometry::Rect;
use super::grid::{several_inputs, Grid, Placement};
use super::sizes::{BADGE_H, BANNER_H, BANNER_W, GAP, JM_H, JM_W, M, SNAP_UP};
use crate::engine::{JobGraph, TaskId};

/// The drawing upright: the length of a lane between two rows, and the room beside the boxes for
/// what is written by a lane.
pub const PORTRAIT_LANE: f64 = 150.0;
pub const PORTRAIT_W: f64 = 464.0;
/// Between two boxes side by side, upright: room for the cut's run down the right of a box.
pub const PORTRAIT_GAP: f64 = 24.0;

/// The boxes upright, `extra` more room between the rows.
pub fn place(g: &JobGraph, grid: &Grid, extra: f64) -> Placement {
    let n = g.tasks.len();
    let (columns, box_h, bw, ext_h) = (&grid.columns, grid.box_h, grid.box_w, grid.ext_h);
    let multi = |t: usize| several_inputs(g, t);
    let slots = columns.iter().map(Vec::len).max().unwrap_or(1);
    let inner = (slots as f64 * (bw + PORTRAIT_GAP) - PORTRAIT_GAP).max(PORTRAIT_W - 2.0 * M);
    let jm = Rect::new(M, M, inner.min(JM_W), JM_H);
    let mut y = jm.bottom() + GAP + SNAP_UP;
    let mut boxes = vec![(0.0, 0.0); n];
    let mut column = vec![0; n];
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); slots];
    for tasks in columns {
        let badge = tasks.iter().any(|t| multi(*t));
        for (i, t) in tasks.iter().enumerate() {
            boxes[*t] = (M + i as f64 * (bw + PORTRAIT_GAP), y);
            column[*t] = i;
            groups[i].push(*t);
        }
        y += box_h + if badge { BADGE_H } else { 0.0 } + PORTRAIT_LANE + extra + SNAP_UP + GAP;
    }
    let external = grid.sink.map(|s| {
        let (x, sy) = boxes[s];
        let badge = if multi(s) { BADGE_H } else { 0.0 };
        (Rect::new(x, sy + box_h + GAP + badge, bw, ext_h), TaskId(s as u16))
    });
    let bottom = (0..n).map(|t| boxes[t].1 + box_h + if multi(t) { BADGE_H } else { 0.0 }).fold(0.0, f64::max);
    let bottom = external.map_or(bottom, |(r, _)| bottom.max(r.bottom()));
    let banner = Rect::new(M, bottom + GAP, inner.min(BANNER_W), BANNER_H);
    Placement { boxes, column, external, jm, banner, cut_groups: groups }
}
