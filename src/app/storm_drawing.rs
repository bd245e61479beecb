//! Storm's drawing on the canvas: the acker's band under the job (drawn in `acker_view.rs`, which
//! comes in the bands part), and Nimbus in the JobManager's place: it assigns workers and is not
//! on the data path, and no state is saved.

use super::acker_view;
use super::bands_part::bands_now;
use super::mechanism_drawing::{BandDrawing, MechanismDrawing};
use crate::engine::Sim;

pub static STORM: MechanismDrawing = MechanismDrawing {
    band: Some(BandDrawing {
        shows: shows_band,
        pick: |b| b.acker,
        wait_height: acker_view::band_height,
        min_width: acker_view::MIN_W as f32,
    }),
    // The box's lines come in the bands part, with the acker's band.
    jobmanager: Some(|sim, l| {
        let (line2, line3) = bands_now().map_or_else(|| ("…".to_string(), String::new()), |b| (b.nimbus_lines)(sim, l));
        let title = if sim.jobmanager_up() {
            l.t("Storm · Nimbus", "Storm · Nimbus")
        } else {
            l.t("✖ Nimbus down", "✖ Nimbus 故障")
        };
        (Some(title), line2, line3)
    }),
    ..MechanismDrawing::DEFAULT
};

/// The acker's band shows while there are ackers. In presenter mode only while the acker has a
/// tree or a message to show: the strip costs the drawing some of its height on a projector.
fn shows_band(sim: &Sim, compact: bool) -> bool {
    sim.storm().is_some_and(|s| {
        sim.settings.mechanism.storm.ackers > 0
            && (!compact
                || !s.acker.is_empty()
                || s.messages_to_acker() > 0
                || s.to_spout.iter().any(|q| !q.is_empty()))
    })
}
