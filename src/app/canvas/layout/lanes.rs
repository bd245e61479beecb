//! The lanes: a channel's path from its producer's box to its consumer's, and the corridor where
//! its tokens queue. A lane between rows leaves its producer, climbs or drops steeply, and runs
//! level into its consumer: lanes cross near producers, and the level run near the consumer (where
//! the tokens queue) is clear of other lanes. The corridor stops short of any other lane, of the
//! cut's runs and of any box the lane does not belong to, so tokens of two lanes never touch and
//! the cut never strikes through one.

use super::geometry::{dist_point_seg, Obstacle, Rect, Segment};
use super::grid::{several_inputs, Grid, Placement};
use super::sizes::{BADGE_H, HALF};
use crate::engine::JobGraph;

/// A lane: a channel from its producer's right edge to its consumer's left edge.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneGeo {
    /// The lane from the producer's edge to the consumer's edge: straight, or with a steep
    /// middle between a short stub and a level run.
    pub path: Vec<(f64, f64)>,
    /// The consumer's end, where the head of the queue sits.
    pub b: (f64, f64),
    /// The unit vector from the consumer's end back along the last run.
    pub back: (f64, f64),
    /// Where items may sit: distances back from the consumer's end.
    pub corridor: (f64, f64),
    /// The place of what is written beside the lane: the cut's flag for this channel (in
    /// transit, orphans, stored in-flight), and "⊘ blocked" while it is blocked (a blocked lane
    /// belongs to an aligned checkpoint, whose cut flags nothing, so the two rarely meet; when
    /// they do, they share the place).
    pub flag: Rect,
    /// Whether the flag sits near its lane; one that does not names its channel.
    pub flag_near: bool,
    /// A dotted line from a flag that sits away from its lane to the lane.
    pub leader: Option<Segment>,
}

impl LaneGeo {
    /// The point `d` units back from the consumer's end.
    pub fn at(&self, d: f64) -> (f64, f64) {
        (self.b.0 + self.back.0 * d, self.b.1 + self.back.1 * d)
    }
}

/// A path's runs, one segment between each two of its points.
pub fn segments(path: &[(f64, f64)]) -> Vec<Segment> {
    path.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>()
}

/// Each channel's path, from its producer's edge to its consumer's: spread where several leave or
/// enter one box.
pub fn paths(g: &JobGraph, grid: &Grid, boxes: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
    let (bw, box_h, upright) = (grid.box_w, grid.box_h, grid.upright);
    let multi = |t: usize| several_inputs(g, t);
    let spread = |i: usize, k: usize| {
        let step = if k < 2 { 0.0 } else { ((box_h - 24.0) / (k - 1) as f64).min(box_h * 0.6) };
        (i as f64 - (k as f64 - 1.0) / 2.0) * step
    };
    g.channels
        .iter()
        .map(|c| {
            let (fx, fy) = boxes[c.from.index()];
            let (tx, ty) = boxes[c.to.index()];
            let out_n = g.task(c.from).out_channels.len();
            let in_n = g.task(c.to).inputs.len();
            if upright {
                // Down from under the producer (and its badge) to the consumer's top.
                let across = |i: usize, k: usize| {
                    let step = if k < 2 { 0.0 } else { ((bw - 60.0) / (k - 1) as f64).min(bw * 0.6) };
                    (i as f64 - (k as f64 - 1.0) / 2.0) * step
                };
                let badge = if multi(c.from.index()) { BADGE_H } else { 0.0 };
                let a = (fx + bw / 2.0 + across(c.output_index, out_n), fy + box_h + badge);
                let b = (tx + bw / 2.0 + across(c.input_index, in_n), ty);
                let dx = (b.0 - a.0).abs();
                if dx < 1.0 || b.1 - a.1 < 60.0 {
                    return vec![a, b];
                }
                let stub = 16.0;
                let slant = (dx * 0.55).min((b.1 - a.1 - stub) * 0.45);
                return vec![a, (a.0, a.1 + stub), (b.0, a.1 + stub + slant), b];
            }
            let a = (fx + bw, fy + box_h / 2.0 + spread(c.output_index, out_n));
            let b = (tx, ty + box_h / 2.0 + spread(c.input_index, in_n));
            let dy = (b.1 - a.1).abs();
            if dy < 1.0 || b.0 - a.0 < 60.0 {
                return vec![a, b];
            }
            let stub = 16.0;
            let slant = (dy * 0.55).min((b.0 - a.0 - stub) * 0.45);
            vec![a, (a.0 + stub, a.1), (a.0 + stub + slant, b.1), b]
        })
        .collect()
}

/// The lanes along `paths`, each with its token corridor: from the consumer's end back until an
/// item would come near another lane, a cut run or a box it does not belong to. Their flags are
/// placed later (`flags.rs`).
pub fn corridors(
    g: &JobGraph,
    grid: &Grid,
    placed: &Placement,
    paths: &[Vec<(f64, f64)>],
    cut_runs: &[Obstacle],
) -> Vec<LaneGeo> {
    let n = g.tasks.len();
    let (bw, box_h, boxes) = (grid.box_w, grid.box_h, &placed.boxes);
    let (jm, external) = (placed.jm, placed.external);
    let mut lanes: Vec<LaneGeo> = Vec::with_capacity(paths.len());
    for (i, path) in paths.iter().enumerate() {
        let b = path[path.len() - 1];
        let bend = path[path.len() - 2];
        let (dx, dy) = (bend.0 - b.0, bend.1 - b.1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let back = (dx / len, dy / len);
        let start = 12.0;
        let mut end = start;
        let info = &g.channels[i];
        let foreign: Vec<Rect> = (0..n)
            .filter(|t| *t != info.from.index() && *t != info.to.index())
            .map(|t| Rect::new(boxes[t].0, boxes[t].1, bw, box_h))
            .collect();
        let others: Vec<((f64, f64), (f64, f64))> =
            paths.iter().enumerate().filter(|(j, _)| *j != i).flat_map(|(_, p)| segments(p)).collect();
        // On a level run that ends at a bend, items stop short of the bend's slope.
        let limit = if path.len() > 2 { len - 10.0 } else { len - 8.0 };
        let mut d = start;
        while d <= limit {
            let p = (b.0 + back.0 * d, b.1 + back.1 * d);
            let near_lane = others.iter().any(|(c2, d2)| dist_point_seg(p, *c2, *d2) < 2.0 * HALF + 6.0);
            let near_cut = cut_runs.iter().any(|o| o.dist(p) < HALF + 4.0);
            let near_box = foreign.iter().any(|r| Obstacle::Rect(*r).dist(p) < HALF + 4.0)
                || Obstacle::Rect(jm).dist(p) < HALF + 4.0
                || external.is_some_and(|(r, _)| Obstacle::Rect(r).dist(p) < HALF + 4.0);
            if near_lane || near_cut || near_box {
                break;
            }
            end = d;
            d += 2.0;
        }
        lanes.push(LaneGeo {
            path: path.clone(),
            b,
            back,
            corridor: (start, end),
            flag: Rect::new(0.0, 0.0, 0.0, 0.0),
            flag_near: true,
            leader: None,
        });
    }
    lanes
}

/// What a label keeps clear of on each lane: it may sit on a lane's bed but never across its
/// line, nor where its tokens queue.
pub fn own_obstacles(lanes: &[LaneGeo]) -> Vec<Vec<Obstacle>> {
    lanes
        .iter()
        .map(|lane| {
            let mut v: Vec<Obstacle> =
                segments(&lane.path).into_iter().map(|(a, b)| Obstacle::Seg(a, b, 6.0)).collect();
            v.push(Obstacle::Seg(lane.at(lane.corridor.0 - 12.0), lane.at(lane.corridor.1), HALF + 3.0));
            v
        })
        .collect()
}
