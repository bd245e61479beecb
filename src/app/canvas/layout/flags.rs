//! The flags: what is written beside a lane (the cut's flag for its channel: in transit, orphans,
//! stored in-flight; "⊘ blocked" while it is blocked), each given a place of its own, tested
//! against everything reserved before it. Nearest their lane first, at full size, else compact
//! (the explanation then goes to the tooltip and the legend); a flag with no room near its lane
//! goes anywhere, names its channel, and gets a dotted leader to its lane if one can go there
//! without crossing anything.

use super::geometry::{seg_seg, Obstacle, Rect, Segment};
use super::lanes::{segments, LaneGeo};
use super::sizes::{FLAG_COMPACT_W, FLAG_H, FLAG_W, GAP, HALF, M};
use crate::app::svg_number::within;

/// Places every lane's flag within `bounds` (and a band `band` deeper for those that find no
/// room near their lane), each then an obstacle for the next. Returns whether every flag found a
/// place (with `near`: near its lane).
pub fn place(
    lanes: &mut [LaneGeo],
    obstacles: &mut Vec<Obstacle>,
    bounds: Rect,
    band: f64,
    (width, height): (f64, f64),
    near: bool,
) -> bool {
    // First the flags that fit near their lanes: full size, else compact. Then the others,
    // anywhere, named after their channel since nothing else shows which lane they belong to.
    let runs: Vec<((f64, f64), (f64, f64))> = lanes.iter().map(|l| (l.path[l.path.len() - 2], l.b)).collect();
    let mut placed: Vec<Option<(Rect, bool)>> = vec![None; lanes.len()];
    for (i, (a, b)) in runs.iter().enumerate() {
        // Near: closer to its own lane than to any other, so it reads as that lane's.
        let mine = segments(&lanes[i].path);
        let theirs: Vec<Segment> =
            lanes.iter().enumerate().filter(|(j, _)| *j != i).flat_map(|(_, l)| segments(&l.path)).collect();
        let owned = |r: &Rect| {
            let d = |segs: &[Segment]| segs.iter().map(|(p, q)| r.dist_seg(*p, *q)).fold(f64::MAX, f64::min);
            d(&mine) + 8.0 <= d(&theirs)
        };
        let spot = [(FLAG_W, 120.0), (FLAG_COMPACT_W, 170.0)]
            .iter()
            .find_map(|(w, reach)| find_place(obstacles, &bounds, *a, *b, *w, FLAG_H, *reach, &owned));
        if let Some(r) = spot {
            obstacles.push(Obstacle::Rect(r.grow(3.0)));
            placed[i] = Some((r, true));
        }
    }
    let mut ok = placed.iter().all(Option::is_some) || !near;
    let mut spill = height + FLAG_H + GAP;
    for (i, (a, b)) in runs.iter().enumerate() {
        if placed[i].is_some() {
            continue;
        }
        let deeper = Rect::new(bounds.x, bounds.y, bounds.w, bounds.h + band);
        let r = find_place(obstacles, &deeper, *a, *b, FLAG_W, FLAG_H, f64::MAX, &|_| true).unwrap_or_else(|| {
            ok = false;
            let mid = within((a.0 + b.0) / 2.0 - FLAG_W / 2.0, M, (width - M - FLAG_W).max(M));
            let r = Rect::new(mid, spill, FLAG_W, FLAG_H);
            spill += FLAG_H + 4.0;
            r
        });
        obstacles.push(Obstacle::Rect(r.grow(3.0)));
        placed[i] = Some((r, false));
    }
    for (lane, spot) in lanes.iter_mut().zip(placed) {
        (lane.flag, lane.flag_near) = spot.expect("placed");
    }
    ok
}

/// A dotted leader from each flag that sits away from its lane to the lane, if one can go there
/// without crossing anything: what was reserved before the lanes (`fixed`), the other lanes and
/// their flags.
pub fn leaders(lanes: &mut [LaneGeo], fixed: &[Obstacle], own: &[Vec<Obstacle>]) {
    for i in 0..lanes.len() {
        let flag = lanes[i].flag;
        let near = segments(&lanes[i].path).iter().map(|(a, b)| flag.dist_seg(*a, *b)).fold(f64::MAX, f64::min);
        if near < 34.0 {
            continue;
        }
        let others: Vec<Obstacle> = fixed
            .iter()
            .copied()
            .chain(own.iter().enumerate().filter(|(j, _)| *j != i).flat_map(|(_, v)| v.iter().copied()))
            .chain(lanes.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, l)| Obstacle::Rect(l.flag.grow(3.0))))
            .collect();
        let lane = &lanes[i];
        let mut best: Option<(f64, Segment)> = None;
        for (a, b) in segments(&lane.path) {
            let steps = 24;
            for k in 0..=steps {
                let t = (a.0 + (b.0 - a.0) * k as f64 / steps as f64, a.1 + (b.1 - a.1) * k as f64 / steps as f64);
                let from =
                    (within(t.0, flag.x + 8.0, flag.right() - 8.0), within(t.1, flag.y - 2.0, flag.bottom() + 2.0));
                let len = ((t.0 - from.0).powi(2) + (t.1 - from.1).powi(2)).sqrt();
                let clear = others.iter().all(|o| match o {
                    Obstacle::Rect(r) => r.dist_seg(from, t) > 1.0,
                    Obstacle::Seg(c, d, half) => seg_seg(from, t, *c, *d) > *half + 1.0,
                });
                if clear && best.is_none_or(|(l, _)| len < l) {
                    best = Some((len, (from, t)));
                }
            }
        }
        lanes[i].leader = best.map(|(_, s)| s);
    }
}

/// The free place for a `w`×`h` text nearest the middle of lane run a→b, no farther than `reach`:
/// beside the lane on either side, or anywhere around.
#[allow(clippy::too_many_arguments)]
fn find_place(
    obstacles: &[Obstacle],
    bounds: &Rect,
    a: (f64, f64),
    b: (f64, f64),
    w: f64,
    h: f64,
    reach: f64,
    fits: &dyn Fn(&Rect) -> bool,
) -> Option<Rect> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let normal = (-dy / len, dx / len);
    let ts = [0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78];
    let aim = (a.0 + 0.5 * dx, a.1 + 0.5 * dy);
    let mut candidates: Vec<(f64, f64)> = Vec::new();
    for t in ts {
        let p = (a.0 + t * dx, a.1 + t * dy);
        for side in [1.0, -1.0] {
            for k in 0..6 {
                let off = HALF + 6.0 + k as f64 * 14.0;
                // Perpendicular to the lane, and straight up or down from it.
                let o1 = off + (h / 2.0) * normal.1.abs() + (w / 2.0) * normal.0.abs();
                candidates.push((p.0 + side * normal.0 * o1, p.1 + side * normal.1 * o1));
                candidates.push((p.0, p.1 + side * (off + h / 2.0)));
            }
        }
    }
    // And anywhere around it, nearest first.
    let span = reach.min(480.0);
    let mut dy = -span;
    while dy <= span {
        let mut dx = -span;
        while dx <= span {
            candidates.push((aim.0 + dx, aim.1 + dy));
            dx += 16.0;
        }
        dy += 12.0;
    }
    let d2 = |p: &(f64, f64)| (p.0 - aim.0).powi(2) + (p.1 - aim.1).powi(2);
    crate::engine::core::stable_sort::sort_stable_by(&mut candidates, |p, q| d2(p).total_cmp(&d2(q)));
    candidates
        .into_iter()
        .filter(|p| d2(p) <= reach * reach)
        .map(|(cx, cy)| Rect::new(cx - w / 2.0, cy - h / 2.0, w, h))
        .find(|r| {
            r.x >= bounds.x
                && r.right() <= bounds.right()
                && r.y >= bounds.y
                && r.bottom() <= bounds.bottom()
                && !obstacles.iter().any(|o| o.hits(r))
                && fits(r)
        })
}
