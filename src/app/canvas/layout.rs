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
//!
//! One try at the layout ([`attempt`]) goes in this order, a file each: the sizes
//! (`layout/sizes.rs`) and the screen (`screen.rs`); the boxes on their grid (`grid.rs`), or
//! upright on a phone (`upright.rs`); the lanes' paths and token corridors (`lanes.rs`), kept off
//! what is placed and off the cut's runs (`obstacles.rs`); then the flags beside the lanes and
//! their leaders (`flags.rs`), on the plane of `geometry.rs`.

mod flags;
mod geometry;
mod grid;
mod lanes;
mod obstacles;
mod screen;
mod sizes;
mod upright;

pub use crate::app::svg_text::text_w;
use crate::engine::{JobGraph, TaskId};
use grid::{several_inputs, Grid, Placement};
use sizes::{BADGE_H, FLAG_H, GAP, M, SNAP_UP};

pub use geometry::Rect;
pub use grid::{shape, Shape};
pub use lanes::LaneGeo;
pub use screen::Screen;
pub use sizes::{box_height, BANNER_H, FLAG_W, ITEM_GAP, ROW, ROW0, TOKEN_H};

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
    let grid = Grid::of(g, presenter, screen, two_phase);
    let placed = if grid.upright { upright::place(g, &grid, extra) } else { grid::place(g, &grid, extra) };
    let (width, height) = extent(g, &grid, &placed);
    let paths = lanes::paths(g, &grid, &placed.boxes);
    let gutters = obstacles::gutters(&grid, &placed.cut_groups, width);

    let (sky, cut_runs) = obstacles::cut_runs(&grid, &placed, &gutters, width);
    // What every reserved text keeps clear of.
    let mut obstacles = obstacles::placed(g, &grid, &placed);
    let mut lanes = lanes::corridors(g, &grid, &placed, &paths, &cut_runs);
    // A label may sit on a lane's bed but never across its line, nor where its tokens queue.
    let fixed = obstacles.len() + cut_runs.len();
    obstacles.extend(cut_runs.iter().copied());
    let own = lanes::own_obstacles(&lanes);
    for v in &own {
        obstacles.extend(v.iter().copied());
    }

    // Places for the texts that come and go, nearest their lane first; a flag that finds no
    // room near its lane at full size tries the compact size (its explanation then goes to its
    // tooltip and the legend). Texts may use a band under the lowest row.
    // (Beside three rows or more the JobManager leaves room at the right instead: no band.)
    let band = if grid.beside { 0.0 } else { FLAG_H + GAP };
    let bounds = Rect::new(M, M, width - 2.0 * M, height - 2.0 * M + band);
    let ok = flags::place(&mut lanes, &mut obstacles, bounds, band, (width, height), near);
    flags::leaders(&mut lanes, &obstacles[..fixed], &own);
    let lowest = lanes.iter().map(|l| l.flag.bottom()).fold(height - M, f64::max);
    let height = lowest + M;

    // Labels of generated logs run to three letters: tokens and log cells fit the longest.
    let bw = grid.box_w;
    let longest = g.records.iter().map(|r| text_w(&r.label, 16.0)).fold(0.0, f64::max);
    let token_w = (longest + 14.0).max(TOKEN_H);
    let cell_w = (longest + 8.0).max(24.0);
    let cells = (((bw - 28.0 + 4.0) / (cell_w + 4.0)).floor() as usize).max(1);
    let Placement { boxes, column, external, jm, banner, .. } = placed;
    let layout = Layout {
        width,
        height,
        box_w: bw,
        box_h: grid.box_h,
        compact: grid.compact,
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
        shape: if grid.rows == 1 { Shape::Wide } else { Shape::Tall },
    };
    (layout, ok)
}

/// The drawing's width and height before any flag is placed: everything placed, and the margin
/// around it.
fn extent(g: &JobGraph, grid: &Grid, p: &Placement) -> (f64, f64) {
    let (bw, box_h) = (grid.box_w, grid.box_h);
    let mut width = p.banner.right().max(p.jm.right());
    if grid.upright {
        width = width.max(upright::PORTRAIT_W - M);
    }
    let mut height = p.jm.bottom().max(p.banner.bottom());
    for (t, (x, y)) in p.boxes.iter().copied().enumerate() {
        width = width.max(x + bw);
        height = height.max(y + box_h + if several_inputs(g, t) { BADGE_H } else { 0.0 });
    }
    if let Some((r, _)) = p.external {
        width = width.max(r.right());
        height = height.max(r.bottom());
    }
    width += M;
    height += M;
    (width, height)
}
