//! Which drawing each strategy has on the canvas: the one place on the page that names the
//! strategies whose drawings differ. A new mechanism with a drawing of its own adds one arm here.

use super::mechanism_drawing::MechanismDrawing;
use crate::engine::Strategy;

/// The drawing of `strategy`'s mechanism.
pub fn drawing_for(strategy: Strategy) -> &'static MechanismDrawing {
    match strategy {
        Strategy::Timers => &super::timers_drawing::TIMERS,
        Strategy::StormAcker => &super::storm_drawing::STORM,
        Strategy::SparkStreaming => &super::spark_drawing::SPARK,
        Strategy::None | Strategy::Aligned | Strategy::AtLeastOnce | Strategy::Unaligned | Strategy::StopTheWorld => {
            &MechanismDrawing::DEFAULT
        }
    }
}
