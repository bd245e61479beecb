//! The sizes of what the canvas draws, in SVG user units: a task's box and its rows of text, the
//! JobManager and the down banner, what sits on a lane, the cut's flags; a box's height for a
//! number of rows of text. The page draws them 1:1 on a 1366-pixel-wide projector
//! in presenter mode, where the smallest text is 16 units.

/// A task's box: its buttons spelled out, or (presenter mode) their symbols only.
pub const BOX_W: f64 = 250.0;
pub const BOX_W_COMPACT: f64 = 210.0;
/// The margin around the drawing.
pub const M: f64 = 10.0;
/// A save marker straddles the top edge of its box and reaches this far above it.
pub const SNAP_UP: f64 = 18.0;
/// Room under a box with several inputs for its alignment badge.
pub const BADGE_H: f64 = 30.0;
pub const GAP: f64 = 10.0;
pub const JM_W: f64 = 500.0;
/// The JobManager beside the rows of a tall job in presenter mode: narrower, so the drawing keeps
/// the projector's width.
pub const JM_BESIDE_W: f64 = 440.0;
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

/// The box height for `rows` rows of text and the row of buttons under them.
pub fn box_height(rows: usize) -> f64 {
    ROW0 + ROW * (rows.max(1) - 1) as f64 + 11.0 + 28.0 + 8.0
}

/// The external system: its sink mode, how many rows a reader sees and which, and (two-phase
/// commit) what is not committed yet.
pub fn external_height(two_phase: bool) -> f64 {
    box_height(if two_phase { 4 } else { 3 }) - 28.0 - 8.0
}
