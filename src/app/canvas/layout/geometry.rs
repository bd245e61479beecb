//! The plane the layout works in: rectangles, segments and the distances between them, and an
//! obstacle, something drawn that a reserved place must keep clear of. All in SVG user units.

use crate::app::svg_number::within;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
    pub fn cx(&self) -> f64 {
        self.x + self.w / 2.0
    }
    pub fn grow(&self, d: f64) -> Rect {
        Rect::new(self.x - d, self.y - d, self.w + 2.0 * d, self.h + 2.0 * d)
    }
    pub fn hits(&self, o: &Rect) -> bool {
        self.x < o.right() && o.x < self.right() && self.y < o.bottom() && o.y < self.bottom()
    }
    fn contains(&self, p: (f64, f64)) -> bool {
        p.0 >= self.x && p.0 <= self.right() && p.1 >= self.y && p.1 <= self.bottom()
    }
    pub fn dist_seg(&self, a: (f64, f64), b: (f64, f64)) -> f64 {
        if self.contains(a) || self.contains(b) {
            return 0.0;
        }
        let (x0, y0, x1, y1) = (self.x, self.y, self.right(), self.bottom());
        [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
            .iter()
            .map(|(c, d)| seg_seg(a, b, *c, *d))
            .fold(f64::MAX, f64::min)
    }
}

pub fn dist_point_seg(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l2 = dx * dx + dy * dy;
    let t = if l2 == 0.0 { 0.0 } else { within(((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l2, 0.0, 1.0) };
    let (qx, qy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - qx).powi(2) + (p.1 - qy).powi(2)).sqrt()
}

fn cross(o: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

pub fn seg_seg(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> f64 {
    let (d1, d2, d3, d4) = (cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    dist_point_seg(a, c, d).min(dist_point_seg(b, c, d)).min(dist_point_seg(c, a, b)).min(dist_point_seg(d, a, b))
}

/// Something drawn that a reserved place must keep clear of: a rectangle, or a segment with a
/// half-width.
#[derive(Clone, Copy, Debug)]
pub enum Obstacle {
    Rect(Rect),
    Seg((f64, f64), (f64, f64), f64),
}

impl Obstacle {
    pub fn hits(&self, r: &Rect) -> bool {
        match self {
            Obstacle::Rect(o) => o.hits(r),
            Obstacle::Seg(a, b, half) => r.dist_seg(*a, *b) < *half,
        }
    }
    /// Distance from a point, less the obstacle's own half-width.
    pub fn dist(&self, p: (f64, f64)) -> f64 {
        match self {
            Obstacle::Rect(o) => {
                let dx = (o.x - p.0).max(p.0 - o.right()).max(0.0);
                let dy = (o.y - p.1).max(p.1 - o.bottom()).max(0.0);
                (dx * dx + dy * dy).sqrt()
            }
            Obstacle::Seg(a, b, half) => dist_point_seg(p, *a, *b) - half,
        }
    }
}

/// A line from one point to another.
pub type Segment = ((f64, f64), (f64, f64));
