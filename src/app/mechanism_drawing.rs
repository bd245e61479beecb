//! A mechanism's drawing: what the canvas draws differently for one fault-tolerance mechanism: its
//! band under the job, the JobManager box's title and lines, a button of its own in each task and
//! the crash button's words, the down banner's words. The canvas asks the drawing for these
//! parts and names no strategy; `drawing_catalogue.rs` says which drawing each strategy has.
//! Flink's barrier handlers and "no snapshots" draw with [`MechanismDrawing::DEFAULT`], the canvas's
//! own parts.

use super::bands_part::{BandFn, Bands};
use super::text::Lang;
use crate::engine::{Action, CrashScope, Sim, TaskId};

/// One of a task's own buttons: (action, label, symbol, tooltip, id prefix). The compact
/// geometry shows the symbol only.
pub type TaskButton = (Action, &'static str, &'static str, &'static str, &'static str);

/// A band under the job. Its drawing comes in the bands part, fetched when the strategy is first
/// chosen (with the mechanism's words in the narration and the Storage panel).
pub struct BandDrawing {
    /// Whether the band shows now (`compact`: presenter mode's geometry).
    pub shows: fn(&Sim, bool) -> bool,
    /// The band, picked from the loaded part: it draws the band (or presenter mode's strip) at a
    /// top and width, and says the height it takes.
    pub pick: fn(Bands) -> BandFn,
    /// The height kept for the band while its part loads.
    pub wait_height: fn(bool) -> f64,
    /// The narrowest the canvas draws while the band shows (presenter mode keeps its width).
    pub min_width: f32,
}

/// The parts of the canvas a mechanism draws its own way. What it leaves out (None) the canvas
/// draws as for Flink's barrier handlers.
pub struct MechanismDrawing {
    /// Its band under the job, if it has one.
    pub band: Option<BandDrawing>,
    /// What the JobManager's box says: its title, where the mechanism's master has another name,
    /// and its second and third lines (by default the CheckpointCoordinator's checkpoints).
    pub jobmanager: Option<fn(&Sim, Lang) -> (Option<&'static str>, String, String)>,
    /// A button of its own in task `t`, between Read and Notify.
    pub task_button: Option<fn(TaskId, Lang) -> TaskButton>,
    /// What a task's crash button says it crashes (by default, the task).
    pub crash_tip: Option<fn(Lang) -> &'static str>,
    /// The down banner's two lines, for a crash the mechanism words its own way.
    pub down_banner: Option<fn(CrashScope, Lang) -> Option<(&'static str, &'static str)>>,
}

impl MechanismDrawing {
    /// The drawing of Flink's barrier handlers and of "no snapshots": the canvas's own, with no
    /// band.
    pub const DEFAULT: MechanismDrawing =
        MechanismDrawing { band: None, jobmanager: None, task_button: None, crash_tip: None, down_banner: None };
}
