//! The grid the boxes sit on: a column per depth from the sources, a row per subtask, every box as
//! tall as the rows of text the tallest needs (a source's log strip, a keyed operator's counts, a
//! two-phase-commit sink's transactions), with lanes between the columns as long as the screen
//! allows. The external system goes under the sink; the
//! JobManager and the down banner go where they cost no height (a free band at the bottom left),
//! beside the rows (three rows or more in presenter mode), or else on top.

use super::geometry::Rect;
use super::screen::Screen;
use super::sizes::{box_height, external_height};
use super::sizes::{BADGE_H, BANNER_H, BANNER_W, BOX_W, BOX_W_COMPACT, GAP, JM_BESIDE_W, JM_H, JM_W, M, SNAP_UP};
use crate::app::svg_number::within;
use crate::engine::core::sorted_vec::SortedMap;
use crate::engine::{JobGraph, OperatorKind, TaskId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One row of tasks: in presenter mode the canvas takes the whole width.
    Wide,
    /// Several rows: in presenter mode the verdict goes beside the canvas.
    Tall,
}

/// Tasks by column: a column per depth from the sources (the longest path), in topological order.
pub fn columns_of(g: &JobGraph) -> Vec<Vec<usize>> {
    let ops = g.spec.operators.len();
    let mut depth = vec![0usize; ops];
    for t in &g.topo_order {
        let info = g.task(*t);
        for c in &info.inputs {
            let from = g.task(g.channel(*c).from).operator.index();
            depth[info.operator.index()] = depth[info.operator.index()].max(depth[from] + 1);
        }
    }
    let mut columns: SortedMap<usize, Vec<usize>> = SortedMap::new();
    for t in &g.topo_order {
        columns.get_or_insert_with(depth[g.task(*t).operator.index()], Vec::new).push(t.index());
    }
    columns.into_values().collect()
}

/// The shape of job `g`'s drawing: one row of tasks is wide.
pub fn shape(g: &JobGraph) -> Shape {
    if columns_of(g).iter().all(|c| c.len() <= 1) {
        Shape::Wide
    } else {
        Shape::Tall
    }
}

/// The rows of text a task's box needs: a source's offset and its log strip, a keyed operator's
/// counts (up to three rows), a two-phase-commit sink's transactions.
fn rows_needed(g: &JobGraph, t: usize, two_phase: bool) -> usize {
    match g.tasks[t].kind {
        OperatorKind::Source => 2,
        OperatorKind::Count | OperatorKind::Sum => keys_at(g, t).clamp(1, 3),
        OperatorKind::Sink if two_phase => 2,
        _ => 1,
    }
}

/// How many keys can reach task `t`: on keyed edges (by key group) only those routed to
/// its subtask, as `Sim::emit` routes them; on any other edge every key.
fn keys_at(g: &JobGraph, t: usize) -> usize {
    use crate::engine::core::dataflow::job_graph::Partitioning;
    let routed = |k: usize, c: crate::engine::ChannelId| {
        let from = g.task(g.channel(c).from);
        let Some(o) = from.outputs.iter().find(|o| o.channels.contains(&c)) else { return true };
        let (n, sub) = (o.channels.len(), g.tasks[t].subtask as usize);
        match o.partitioning {
            Partitioning::Hash => {
                let max = g.max_parallelism[g.tasks[t].operator.index()];
                crate::engine::core::dataflow::key_groups::subtask_for_key(&g.keys[k], max, n as u16) as usize == sub
            }
            _ => true,
        }
    };
    (0..g.keys.len()).filter(|&k| g.tasks[t].inputs.iter().any(|&c| routed(k, c))).count()
}

/// Whether task `t` has several inputs, so an alignment badge goes under its box.
pub fn several_inputs(g: &JobGraph, t: usize) -> bool {
    g.tasks[t].inputs.len() >= 2
}

/// The lane length between columns: in presenter mode as long as the projector's width allows
/// with the smallest text at 16 pixels, elsewhere roomy.
fn lane_length(columns: usize, rows: usize, presenter: bool, screen: Screen, sink: bool, bw: f64, reserve: f64) -> f64 {
    if screen == Screen::Narrow && columns >= 2 {
        return within((820.0 - 2.0 * M - columns as f64 * bw) / (columns - 1) as f64, 96.0, 240.0);
    }
    if !presenter || columns < 2 {
        return 240.0;
    }
    // The canvas's width at 1366 pixels: the whole page, or beside the verdict (wider with a
    // sink: two verdict columns).
    let target = if rows == 1 {
        1296.0
    } else if sink {
        940.0
    } else {
        1028.0
    };
    within((target - 2.0 * M - columns as f64 * bw - reserve) / (columns - 1) as f64, 96.0, 240.0)
}

/// The grid of job `g` on a screen: its columns and rows, the boxes' size, the lanes' length.
pub struct Grid {
    /// Tasks by column (see [`columns_of`]).
    pub columns: Vec<Vec<usize>>,
    /// The most tasks in a column.
    pub rows: usize,
    pub box_w: f64,
    /// The tallest box any task needs: every box has this height.
    pub box_h: f64,
    /// The external system's height.
    pub ext_h: f64,
    /// The compact geometry: presenter mode, or any screen but a desk's.
    pub compact: bool,
    /// The job turned a quarter, for a phone held upright (see `upright.rs`).
    pub upright: bool,
    /// Three rows or more in presenter mode: the JobManager and the banner go beside the rows, at
    /// the right, so the rows have the whole height (a projector is wider than tall).
    pub beside: bool,
    /// The lane length between columns.
    pub lane: f64,
    /// The sink, the last if there are several.
    pub sink: Option<usize>,
}

impl Grid {
    pub fn of(g: &JobGraph, presenter: bool, screen: Screen, two_phase: bool) -> Grid {
        let n = g.tasks.len();
        let columns = columns_of(g);
        let rows = columns.iter().map(Vec::len).max().unwrap_or(1);
        let box_h = (0..n).map(|t| box_height(rows_needed(g, t, two_phase))).fold(0.0, f64::max);
        let compact = presenter || screen != Screen::Desk;
        let upright = screen == Screen::Portrait && !presenter;
        let bw = if compact { BOX_W_COMPACT } else { BOX_W };
        let beside = presenter && rows >= 3 && !g.has_sink();
        let lane = lane_length(
            columns.len(),
            rows,
            presenter,
            screen,
            g.has_sink(),
            bw,
            if beside { 16.0 + JM_BESIDE_W } else { 0.0 },
        );
        let sink = g.tasks.iter().rposition(|t| t.kind == OperatorKind::Sink);
        let ext_h = external_height(two_phase);
        Grid { columns, rows, box_w: bw, box_h, ext_h, compact, upright, beside, lane, sink }
    }

    /// The left edge of column `c`'s boxes.
    pub fn col_x(&self, c: usize) -> f64 {
        M + c as f64 * (self.box_w + self.lane)
    }
}

/// Where the boxes go, and what goes around them.
pub struct Placement {
    /// Top-left corner of each task's box.
    pub boxes: Vec<(f64, f64)>,
    /// The column of each task (upright: its place in its row).
    pub column: Vec<usize>,
    /// The external system's box and the sink that writes to it.
    pub external: Option<(Rect, TaskId)>,
    pub jm: Rect,
    pub banner: Rect,
    /// The tasks whose save markers one run of the cut goes down to: a column's (upright, the
    /// boxes one above the other).
    pub cut_groups: Vec<Vec<usize>>,
}

/// The boxes on the grid, `extra` more room between the rows.
pub fn place(g: &JobGraph, grid: &Grid, extra: f64) -> Placement {
    let n = g.tasks.len();
    let (columns, rows, box_h, bw) = (&grid.columns, grid.rows, grid.box_h, grid.box_w);
    let multi = |t: usize| several_inputs(g, t);
    let col_x = |c: usize| grid.col_x(c);
    let sink = grid.sink;
    let sink_col = sink.and_then(|s| columns.iter().position(|c| c.contains(&s)));

    // Row gaps: room for a save marker, and for the badges of the row above.
    let mut gaps = vec![0.0; rows];
    for (r, gap) in gaps.iter_mut().enumerate() {
        let badge = columns.iter().any(|c| c.len() == rows && c.get(r).is_some_and(|t| multi(*t)));
        *gap = SNAP_UP + GAP + if badge { BADGE_H } else { 0.0 } + extra;
    }
    // The external system goes under the sink: in the sink's column if it has room below,
    // else in a band of its own under the rows.
    let ext_h = grid.ext_h;
    let own_band = sink_col.is_some_and(|c| columns[c].len() == rows);
    let tasks_h = |top: f64| {
        let mut y = top;
        let mut ys = Vec::with_capacity(rows);
        for gap in gaps.iter().take(rows) {
            ys.push(y);
            y += box_h + gap;
        }
        ys
    };
    // The JobManager and the banner: in the band at the bottom left when the external system
    // leaves it free, else on top.
    let jm_block = JM_W + 16.0 + BANNER_W;
    let bottom_left = own_band && sink_col.is_some_and(|c| col_x(c) - 16.0 >= M + jm_block);
    let top = if bottom_left || grid.beside { M + SNAP_UP } else { M + JM_H + GAP + SNAP_UP };
    let row_y = tasks_h(top);
    let rows_bottom = row_y[rows - 1] + box_h;
    let mut boxes = vec![(0.0, 0.0); n];
    let mut column = vec![0; n];
    for (c, tasks) in columns.iter().enumerate() {
        let k = tasks.len();
        for (i, t) in tasks.iter().enumerate() {
            column[*t] = c;
            let y = if k == rows || (Some(c) == sink_col && g.has_sink()) {
                row_y[i]
            } else {
                // Centred between the first and the last row.
                let block = k as f64 * box_h + (k - 1) as f64 * (SNAP_UP + GAP);
                row_y[0] + (rows_bottom - row_y[0] - block) / 2.0 + i as f64 * (box_h + SNAP_UP + GAP)
            };
            boxes[*t] = (col_x(c), y);
        }
    }
    let external = sink.zip(sink_col).map(|(s, c)| {
        let below = columns[c].len();
        let y = if own_band {
            let badge = if multi(s) { BADGE_H } else { 0.0 };
            rows_bottom + GAP + badge + extra
        } else {
            row_y[below]
        };
        (Rect::new(col_x(c), y, bw, ext_h), TaskId(s as u16))
    });
    let (jm, banner) = if grid.beside {
        let x = col_x(columns.len() - 1) + bw + 16.0;
        (Rect::new(x, M, JM_BESIDE_W, JM_H), Rect::new(x, M + JM_H + GAP, BANNER_W, BANNER_H))
    } else if bottom_left {
        let y = external.map(|(r, _)| r.y).unwrap_or(rows_bottom + GAP);
        (Rect::new(M, y, JM_W, JM_H), Rect::new(M + JM_W + 16.0, y, BANNER_W, BANNER_H))
    } else {
        (Rect::new(M, M, JM_W, JM_H), Rect::new(M + JM_W + 16.0, M, BANNER_W, BANNER_H))
    };
    Placement { boxes, column, external, jm, banner, cut_groups: columns.clone() }
}
