//! Which drawing each mechanism has on the canvas: the one place on the
//! page that names the mechanisms whose drawings differ. A drawing is Yew code, so it lives in the
//! page's layer, not in the engine's row; a mechanism without a drawing of its own (Flink's barrier
//! handlers, "no snapshots", the toy state log) draws with the canvas's own parts and needs no line
//! here.

use super::mechanism_drawing::MechanismDrawing;
use crate::engine::Strategy;

/// The drawing of `strategy`'s mechanism.
pub fn drawing_for(strategy: Strategy) -> &'static MechanismDrawing {
    match strategy {
        Strategy::Timers => &super::timers_drawing::TIMERS,
        Strategy::StormAcker => &super::storm_drawing::STORM,
        Strategy::SparkStreaming => &super::spark_drawing::SPARK,
        Strategy::StructuredStreaming => &super::structured_drawing::STRUCTURED,
        _ => &MechanismDrawing::DEFAULT,
    }
}
