//! Where everything on the canvas goes, computed once per job and mode, so that nothing drawn can
//! overlap anything else. Boxes sit on a grid (a column per depth from the sources, a row per
//! subtask); the external system goes under the sink; the JobManager and the down banner go where
//! they cost no height (a free band at the bottom left) or else on top. Every text that comes and
//! goes gets a place reserved here, tested against everything reserved before it: each box, save
//! marker and alignment badge, every lane's bed, the cut's possible runs, the JobManager. A lane's
//! tokens sit in a corridor that stops short of any other lane and of the cut's runs, so tokens of
//! two lanes never touch and the cut never strikes through one.
//!
//! All sizes are in SVG user units, which the page draws 1:1 on a 1366-pixel-wide projector in
//! presenter mode: the smallest text on the canvas is 16 units.

use crate::app::svg_number::within;
pub use crate::app::svg_text::text_w;
use crate::engine::sorted_vec::SortedMap;
use crate::engine::{JobGraph, OperatorKind, TaskId};

/// A task's box: its buttons spelled out, or (presenter mode) their symbols only.
pub const BOX_W: f64 = 250.0;
pub const BOX_W_COMPACT: f64 = 210.0;
/// The margin around the drawing.
const M: f64 = 10.0;
/// A save marker straddles the top edge of its box and reaches this far above it.
pub const SNAP_UP: f64 = 18.0;
/// Room under a box with several inputs for its alignment badge.
const BADGE_H: f64 = 30.0;
const GAP: f64 = 10.0;
pub const JM_W: f64 = 500.0;
/// The JobManager beside the rows of a tall job in presenter mode: narrower, so the drawing keeps
/// the projector's width.
const JM_BESIDE_W: f64 = 440.0;
pub const JM_H: f64 = 78.0;
pub const BANNER_W: f64 = 400.0;
pub const BANNER_H: f64 = 58.0;
/// Half the height of a lane's bed and of what sits on it (a barrier reaches 22 up and down).
pub const HALF: f64 = 22.0;
pub const TOKEN_H: f64 = 34.0;
/// Space between two items on a lane.
pub const ITEM_GAP: f64 = 5.0;
pub const FLAG_W: f64 = 230.0;
/// A flag with its explanation left to its tooltip and the legend.
pub const FLAG_COMPACT_W: f64 = 150.0;
pub const FLAG_H: f64 = 46.0;
/// A row of text inside a box: the first state row's baseline, and the spacing.
pub const ROW0: f64 = 52.0;
pub const ROW: f64 = 23.0;

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
    fn grow(&self, d: f64) -> Rect {
        Rect::new(self.x - d, self.y - d, self.w + 2.0 * d, self.h + 2.0 * d)
    }
    fn hits(&self, o: &Rect) -> bool {
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

fn dist_point_seg(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l2 = dx * dx + dy * dy;
    let t = if l2 == 0.0 { 0.0 } else { within(((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l2, 0.0, 1.0) };
    let (qx, qy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - qx).powi(2) + (p.1 - qy).powi(2)).sqrt()
}

fn cross(o: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

fn seg_seg(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> f64 {
    let (d1, d2, d3, d4) = (cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    dist_point_seg(a, c, d).min(dist_point_seg(b, c, d)).min(dist_point_seg(c, a, b)).min(dist_point_seg(d, a, b))
}

/// Something drawn that a reserved place must keep clear of: a rectangle, or a segment with a
/// half-width.
#[derive(Clone, Copy, Debug)]
enum Obstacle {
    Rect(Rect),
    Seg((f64, f64), (f64, f64), f64),
}

impl Obstacle {
    fn hits(&self, r: &Rect) -> bool {
        match self {
            Obstacle::Rect(o) => o.hits(r),
            Obstacle::Seg(a, b, half) => r.dist_seg(*a, *b) < *half,
        }
    }
    /// Distance from a point, less the obstacle's own half-width.
    fn dist(&self, p: (f64, f64)) -> f64 {
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

/// The screen the drawing is for, besides presenter mode: a desk's, a narrow one (a phone held
/// sideways, a small window: the compact geometry, lanes as short as fit), or a phone held
/// upright (the job turned a quarter: each depth a row, the sources at the top, records falling
/// down the lanes, so the drawing is as wide as a phone and its text stays readable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Screen {
    #[default]
    Desk,
    Narrow,
    Portrait,
}

impl Screen {
    /// The screen of a window `width` CSS pixels wide.
    pub fn of_width(width: f64) -> Screen {
        if width <= 640.0 {
            Screen::Portrait
        } else if width <= 1000.0 {
            Screen::Narrow
        } else {
            Screen::Desk
        }
    }
}

/// The drawing upright: the length of a lane between two rows, and the room beside the boxes for
/// what is written by a lane.
const PORTRAIT_LANE: f64 = 150.0;
const PORTRAIT_W: f64 = 464.0;
/// Between two boxes side by side, upright: room for the cut's run down the right of a box.
const PORTRAIT_GAP: f64 = 24.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One row of tasks: in presenter mode the canvas takes the whole width.
    Wide,
    /// Several rows: in presenter mode the verdict goes beside the canvas.
    Tall,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    pub box_w: f64,
    pub box_h: f64,
    /// The compact geometry of presenter mode: a task's buttons show their symbols only.
    pub compact: bool,
    /// Top-left corner of each task's box.
    pub boxes: Vec<(f64, f64)>,
    /// The column of each task.
    pub column: Vec<usize>,
    /// Per column, the x of the cut's vertical run just right of its boxes.
    pub gutters: Vec<f64>,
    /// The y of the cut's horizontal run: through the save markers of the top row.
    pub sky: f64,
    pub lanes: Vec<LaneGeo>,
    /// The external system's box and the sink that writes to it.
    pub external: Option<(Rect, TaskId)>,
    pub jm: Rect,
    pub banner: Rect,
    /// How many cells of a source's log strip are shown, and how wide each is.
    pub cells: usize,
    pub cell_w: f64,
    /// The width of a record's token (fits the longest label).
    pub token_w: f64,
    pub shape: Shape,
}

impl Layout {
    /// The save marker of task `t`: on the top edge of its box, at the right.
    pub fn snap(&self, t: usize) -> Rect {
        let (x, y) = self.boxes[t];
        Rect::new(x + self.box_w - 84.0, y - SNAP_UP, 76.0, 26.0)
    }
    /// The size of a box's state text: one size smaller in the compact geometry.
    pub fn state_px(&self) -> f64 {
        if self.compact {
            16.0
        } else {
            17.0
        }
    }
    /// The alignment badge of task `t`, under its box.
    pub fn badge(&self, t: usize) -> Rect {
        let (x, y) = self.boxes[t];
        Rect::new(x, y + self.box_h + 2.0, self.box_w, BADGE_H - 2.0)
    }
    pub fn box_rect(&self, t: usize) -> Rect {
        let (x, y) = self.boxes[t];
        Rect::new(x, y, self.box_w, self.box_h)
    }
}

/// Tasks by column: a column per depth from the sources (the longest path), in topological order.
fn columns_of(g: &JobGraph) -> Vec<Vec<usize>> {
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
    use crate::engine::dataflow::job_graph::Partitioning;
    let routed = |k: usize, c: crate::engine::ChannelId| {
        let from = g.task(g.channel(c).from);
        let Some(o) = from.outputs.iter().find(|o| o.channels.contains(&c)) else { return true };
        let (n, sub) = (o.channels.len(), g.tasks[t].subtask as usize);
        match o.partitioning {
            Partitioning::Hash => {
                let max = g.max_parallelism[g.tasks[t].operator.index()];
                crate::engine::key_groups::subtask_for_key(&g.keys[k], max, n as u16) as usize == sub
            }
            _ => true,
        }
    };
    (0..g.keys.len()).filter(|&k| g.tasks[t].inputs.iter().any(|&c| routed(k, c))).count()
}

/// The box height for `rows` rows of text and the row of buttons under them.
pub fn box_height(rows: usize) -> f64 {
    ROW0 + ROW * (rows.max(1) - 1) as f64 + 11.0 + 28.0 + 8.0
}

/// The external system: its sink mode, how many rows a reader sees and which, and (two-phase
/// commit) what is not committed yet.
fn external_height(two_phase: bool) -> f64 {
    box_height(if two_phase { 4 } else { 3 }) - 28.0 - 8.0
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

/// The layout of job `g`. `presenter`: the projector's compact geometry. `two_phase`: the sink
/// shows its transactions.
pub fn layout(g: &JobGraph, presenter: bool, screen: Screen, two_phase: bool) -> Layout {
    // Each text near its lane, with more room between the rows if that is what it takes (as long
    // as the drawing stays short enough for its smallest text to keep its size on the screen),
    // else wherever there is room.
    let (first, near) = attempt(g, presenter, screen, two_phase, 0.0, true);
    if near {
        return first;
    }
    // (The JobManager beside three rows or more: only as much as keeps the rows on a projector.)
    let cap = match (presenter, first.shape) {
        _ if screen == Screen::Portrait => f64::MAX,
        (true, Shape::Tall) if first.jm.x > M => 470.0,
        (true, Shape::Tall) => 650.0,
        (true, Shape::Wide) => 420.0,
        (false, _) => 610.0,
    };
    [FLAG_H + 4.0, 2.0 * (FLAG_H + 4.0)]
        .into_iter()
        .map(|extra| attempt(g, presenter, screen, two_phase, extra, true))
        .find(|(l, near)| *near && l.height <= cap)
        .map(|(l, _)| l)
        .unwrap_or_else(|| attempt(g, presenter, screen, two_phase, 0.0, false).0)
}

/// One try at the layout with `extra` room between the rows, and whether every text found a place
/// (with `near`: a place near its lane).
pub fn attempt(
    g: &JobGraph,
    presenter: bool,
    screen: Screen,
    two_phase: bool,
    extra: f64,
    near: bool,
) -> (Layout, bool) {
    let n = g.tasks.len();
    let columns = columns_of(g);
    let rows = columns.iter().map(Vec::len).max().unwrap_or(1);
    let box_h = (0..n).map(|t| box_height(rows_needed(g, t, two_phase))).fold(0.0, f64::max);
    let multi = |t: usize| g.tasks[t].inputs.len() >= 2;
    let compact = presenter || screen != Screen::Desk;
    let upright = screen == Screen::Portrait && !presenter;
    let bw = if compact { BOX_W_COMPACT } else { BOX_W };
    // Three rows or more in presenter mode: the JobManager and the banner go beside the rows, at
    // the right, so the rows have the whole height (a projector is wider than tall).
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
    let col_x = |c: usize| M + c as f64 * (bw + lane);
    let sink = g.tasks.iter().rposition(|t| t.kind == OperatorKind::Sink);
    let sink_col = sink.and_then(|s| columns.iter().position(|c| c.contains(&s)));

    // Row gaps: room for a save marker, and for the badges of the row above.
    let mut gaps = vec![0.0; rows];
    for (r, gap) in gaps.iter_mut().enumerate() {
        let badge = columns.iter().any(|c| c.len() == rows && c.get(r).is_some_and(|t| multi(*t)));
        *gap = SNAP_UP + GAP + if badge { BADGE_H } else { 0.0 } + extra;
    }
    // The external system goes under the sink: in the sink's column if it has room below,
    // else in a band of its own under the rows.
    let ext_h = external_height(two_phase);
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
    let top = if bottom_left || beside { M + SNAP_UP } else { M + JM_H + GAP + SNAP_UP };
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
    let (jm, banner) = if beside {
        let x = col_x(columns.len() - 1) + bw + 16.0;
        (Rect::new(x, M, JM_BESIDE_W, JM_H), Rect::new(x, M + JM_H + GAP, BANNER_W, BANNER_H))
    } else if bottom_left {
        let y = external.map(|(r, _)| r.y).unwrap_or(rows_bottom + GAP);
        (Rect::new(M, y, JM_W, JM_H), Rect::new(M + JM_W + 16.0, y, BANNER_W, BANNER_H))
    } else {
        (Rect::new(M, M, JM_W, JM_H), Rect::new(M + JM_W + 16.0, M, BANNER_W, BANNER_H))
    };

    // Upright (a phone held upright): the same job turned a quarter. Each depth is a row, its
    // subtasks side by side, the JobManager on top and the down banner at the bottom; lanes fall
    // from a box's bottom to the next row's top, and the cut's teeth run down the right of each
    // column of boxes.
    let (boxes, column, external, jm, banner, cut_groups) = if upright {
        let slots = columns.iter().map(Vec::len).max().unwrap_or(1);
        let inner = (slots as f64 * (bw + PORTRAIT_GAP) - PORTRAIT_GAP).max(PORTRAIT_W - 2.0 * M);
        let jm = Rect::new(M, M, inner.min(JM_W), JM_H);
        let mut y = jm.bottom() + GAP + SNAP_UP;
        let mut boxes = vec![(0.0, 0.0); n];
        let mut column = vec![0; n];
        let mut groups: Vec<Vec<usize>> = vec![Vec::new(); slots];
        for tasks in &columns {
            let badge = tasks.iter().any(|t| multi(*t));
            for (i, t) in tasks.iter().enumerate() {
                boxes[*t] = (M + i as f64 * (bw + PORTRAIT_GAP), y);
                column[*t] = i;
                groups[i].push(*t);
            }
            y += box_h + if badge { BADGE_H } else { 0.0 } + PORTRAIT_LANE + extra + SNAP_UP + GAP;
        }
        let external = sink.map(|s| {
            let (x, sy) = boxes[s];
            let badge = if multi(s) { BADGE_H } else { 0.0 };
            (Rect::new(x, sy + box_h + GAP + badge, bw, ext_h), TaskId(s as u16))
        });
        let bottom = (0..n).map(|t| boxes[t].1 + box_h + if multi(t) { BADGE_H } else { 0.0 }).fold(0.0, f64::max);
        let bottom = external.map_or(bottom, |(r, _)| bottom.max(r.bottom()));
        let banner = Rect::new(M, bottom + GAP, inner.min(BANNER_W), BANNER_H);
        (boxes, column, external, jm, banner, groups)
    } else {
        (boxes, column, external, jm, banner, columns.clone())
    };
    let mut width = banner.right().max(jm.right());
    if upright {
        width = width.max(PORTRAIT_W - M);
    }
    let mut height = jm.bottom().max(banner.bottom());
    for (t, (x, y)) in boxes.iter().copied().enumerate() {
        width = width.max(x + bw);
        height = height.max(y + box_h + if multi(t) { BADGE_H } else { 0.0 });
    }
    if let Some((r, _)) = external {
        width = width.max(r.right());
        height = height.max(r.bottom());
    }
    width += M;
    height += M;

    // Lanes: spread where several leave or enter one box.
    let spread = |i: usize, k: usize| {
        let step = if k < 2 { 0.0 } else { ((box_h - 24.0) / (k - 1) as f64).min(box_h * 0.6) };
        (i as f64 - (k as f64 - 1.0) / 2.0) * step
    };
    // A lane between rows leaves its producer, climbs or drops steeply, and runs level into its
    // consumer: lanes cross near producers, and the level run near the consumer (where the
    // tokens queue) is clear of other lanes.
    let paths: Vec<Vec<(f64, f64)>> = g
        .channels
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
        .collect();
    let segments = |path: &Vec<(f64, f64)>| path.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>();
    let gutters: Vec<f64> = if upright && cut_groups.len() == 1 {
        // One box a row: the cut's run goes down the drawing's right edge, so what is written by a
        // lane fits between the lane and the cut.
        vec![width - M - 6.0]
    } else if upright {
        (0..cut_groups.len()).map(|i| M + i as f64 * (bw + PORTRAIT_GAP) + bw + 7.0).collect()
    } else {
        (0..columns.len()).map(|c| col_x(c) + bw + 7.0).collect()
    };

    // What every reserved text keeps clear of.
    let mut obstacles: Vec<Obstacle> = Vec::new();
    for (t, (x, y)) in boxes.iter().copied().enumerate() {
        obstacles.push(Obstacle::Rect(Rect::new(x, y, bw, box_h).grow(3.0)));
        obstacles.push(Obstacle::Rect(Rect::new(x + bw - 84.0, y - SNAP_UP, 76.0, 26.0).grow(2.0)));
        if multi(t) {
            obstacles.push(Obstacle::Rect(Rect::new(x, y + box_h + 2.0, bw, BADGE_H - 2.0)));
        }
    }
    obstacles.push(Obstacle::Rect(jm.grow(3.0)));
    obstacles.push(Obstacle::Rect(banner.grow(3.0)));
    if let Some((r, s)) = external {
        obstacles.push(Obstacle::Rect(r.grow(3.0)));
        let (sx, sy) = boxes[s.index()];
        obstacles.push(Obstacle::Seg((sx + bw - 16.0, sy + box_h), (sx + bw - 16.0, r.y), 4.0));
    }
    // The cut's possible runs: a spine along the top row's save markers, and from it a tooth down
    // the gutter right of each column to the markers lower in it.
    let sky = boxes.iter().map(|b| b.1).fold(f64::MAX, f64::min) - SNAP_UP + 13.0;
    let mut cut_runs: Vec<Obstacle> = vec![Obstacle::Seg((M, sky), (width - M, sky), 3.0)];
    for (c, tasks) in cut_groups.iter().enumerate() {
        let lowest = tasks.iter().map(|t| boxes[*t].1 - SNAP_UP + 13.0).fold(sky, f64::max);
        cut_runs.push(Obstacle::Seg((gutters[c], sky), (gutters[c], lowest), 3.0));
        for t in tasks {
            let cy = boxes[*t].1 - SNAP_UP + 13.0;
            cut_runs.push(Obstacle::Seg((boxes[*t].0 + bw - 8.0, cy), (gutters[c], cy), 3.0));
        }
    }

    // Token corridors: from the consumer's end back until an item would come near another lane,
    // a cut run or a box it does not belong to.
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
    // A label may sit on a lane's bed but never across its line, nor where its tokens queue.
    let fixed = obstacles.len() + cut_runs.len();
    obstacles.extend(cut_runs.iter().copied());
    let own: Vec<Vec<Obstacle>> = lanes
        .iter()
        .map(|lane| {
            let mut v: Vec<Obstacle> =
                segments(&lane.path).into_iter().map(|(a, b)| Obstacle::Seg(a, b, 6.0)).collect();
            v.push(Obstacle::Seg(lane.at(lane.corridor.0 - 12.0), lane.at(lane.corridor.1), HALF + 3.0));
            v
        })
        .collect();
    for v in &own {
        obstacles.extend(v.iter().copied());
    }

    // Places for the texts that come and go, nearest their lane first; a flag that finds no
    // room near its lane at full size tries the compact size (its explanation then goes to its
    // tooltip and the legend). Texts may use a band under the lowest row.
    // (Beside three rows or more the JobManager leaves room at the right instead: no band.)
    let band = if beside { 0.0 } else { FLAG_H + GAP };
    let bounds = Rect::new(M, M, width - 2.0 * M, height - 2.0 * M + band);
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
            .find_map(|(w, reach)| find_place(&obstacles, &bounds, *a, *b, *w, FLAG_H, *reach, &owned));
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
        let r = find_place(&obstacles, &deeper, *a, *b, FLAG_W, FLAG_H, f64::MAX, &|_| true).unwrap_or_else(|| {
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
    // A flag away from its lane gets a dotted leader to it, if one can go there without crossing
    // anything.
    for i in 0..lanes.len() {
        let flag = lanes[i].flag;
        let near = segments(&lanes[i].path).iter().map(|(a, b)| flag.dist_seg(*a, *b)).fold(f64::MAX, f64::min);
        if near < 34.0 {
            continue;
        }
        let others: Vec<Obstacle> = obstacles[..fixed]
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
    let lowest = lanes.iter().map(|l| l.flag.bottom()).fold(height - M, f64::max);
    let height = lowest + M;

    // Labels of generated logs run to three letters: tokens and log cells fit the longest.
    let longest = g.records.iter().map(|r| text_w(&r.label, 16.0)).fold(0.0, f64::max);
    let token_w = (longest + 14.0).max(TOKEN_H);
    let cell_w = (longest + 8.0).max(24.0);
    let cells = (((bw - 28.0 + 4.0) / (cell_w + 4.0)).floor() as usize).max(1);
    let layout = Layout {
        width,
        height,
        box_w: bw,
        box_h,
        compact,
        boxes,
        column,
        gutters,
        sky,
        lanes,
        external,
        jm,
        banner,
        cells,
        cell_w,
        token_w,
        shape: if rows == 1 { Shape::Wide } else { Shape::Tall },
    };
    (layout, ok)
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
    crate::engine::stable_sort::sort_stable_by(&mut candidates, |p, q| d2(p).total_cmp(&d2(q)));
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
