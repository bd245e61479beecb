//! Storm's drawing on the canvas: the acker's band under the job (drawn in `acker_view.rs`, which
//! comes in the bands part), and Nimbus in the JobManager's place: it assigns workers and is not
//! on the data path, and no state is saved.

use super::acker_view;
use super::mechanism_drawing::{BandDrawing, MechanismDrawing};
use super::text::Lang;
use crate::engine::Sim;

pub static STORM: MechanismDrawing = MechanismDrawing {
    band: Some(BandDrawing {
        shows: shows_band,
        pick: |b| b.acker,
        wait_height: acker_view::band_height,
        min_width: acker_view::MIN_W as f32,
    }),
    jobmanager: Some(|sim, l| {
        if sim.jobmanager_up() {
            (
                Some(l.t("Storm · Nimbus", "Storm · Nimbus")),
                l.t("Nimbus: assigns workers; not on the data path", "Nimbus：分配 worker，不在数据路径上").to_string(),
                no_state(l),
            )
        } else {
            (
                Some(l.t("✖ Nimbus down", "✖ Nimbus 故障")),
                l.t(
                    "Nimbus down: workers keep processing; reassignment waits",
                    "Nimbus 故障：worker 继续处理，重新分配需等待",
                )
                .to_string(),
                no_state(l),
            )
        }
    }),
    ..MechanismDrawing::DEFAULT
};

fn no_state(l: Lang) -> String {
    l.t("no state is saved: a restarted bolt starts empty", "不保存状态：重启的 bolt 从空开始").to_string()
}

/// The acker's band shows while there are ackers. In presenter mode only while the acker has a
/// tree or a message to show: the strip costs the drawing some of its height on a projector.
fn shows_band(sim: &Sim, compact: bool) -> bool {
    sim.storm().is_some_and(|s| {
        sim.settings.ackers > 0
            && (!compact
                || !s.acker.is_empty()
                || s.messages_to_acker() > 0
                || s.to_spout.iter().any(|q| !q.is_empty()))
    })
}
