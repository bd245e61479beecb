//! The banners across the job: the job is down (and why, and what brings it back), or a
//! region is restarting.

use super::layout::Layout;
use super::layout::BANNER_H;
use crate::app::mechanism_drawing::MechanismDrawing;
use crate::app::svg_number::num;
use crate::app::svg_text::fit;
use crate::app::text::Lang;
use crate::engine::*;
use yew::prelude::*;

pub(super) fn down_banner(sim: &Sim, drawing: &MechanismDrawing, lay: &Layout, l: Lang) -> Html {
    if let Some((why, hint)) = sim.down().zip(drawing.down_banner).and_then(|(scope, words)| words(scope, l)) {
        return banner(lay, "down-banner", why.into(), hint.into());
    }
    let why = match sim.down() {
        Some(CrashScope::Cluster) => l.t("✖ The cluster crashed.", "✖ 集群崩溃。"),
        Some(CrashScope::Task(_)) => l.t("✖ A task crashed: the job fails over.", "✖ 任务崩溃，作业需要故障转移。"),
        Some(CrashScope::JobManager) if sim.strategy().takes(Setting::HighAvailability) => {
            let (a, b) = (sim.masters().leader.letter(), sim.masters().leader.other().letter());
            let (why, hint) = match (sim.settings.high_availability, sim.masters().awaiting_resubmission) {
                (HighAvailability::Standby, _) => match l {
                    Lang::Zh => (format!("✖ JobManager {a} 故障。"), format!("按 R：{b} 接管。")),
                    _ => (format!("✖ JobManager {a} failed."), format!("Press R: {b} takes over.")),
                },
                (HighAvailability::None, false) => (
                    l.t("✖ The job failed (no HA).", "✖ 作业失败（无高可用）。").to_string(),
                    l.t("R starts a JobManager.", "按 R 启动 JobManager。").to_string(),
                ),
                (HighAvailability::None, true) => (
                    l.t("No job is running.", "没有作业在运行。").to_string(),
                    l.t("Press R to resubmit it.", "按 R 重新提交作业。").to_string(),
                ),
            };
            return banner(lay, "down-banner", why, hint);
        }
        Some(CrashScope::JobManager) => l.t("✖ The JobManager crashed.", "✖ JobManager 崩溃。"),
        Some(CrashScope::Global) => l.t("✖ Too many failed checkpoints: failover.", "✖ 检查点失败次数过多，故障转移。"),
        None => "",
    };
    banner(lay, "down-banner", why.to_string(), l.t("Press Restore (R).", "按“恢复”（R）。").to_string())
}

/// A failed pipelined region is down while the rest of the job runs.
pub(super) fn region_banner(sim: &Sim, lay: &Layout, l: Lang) -> Html {
    let tasks = sim.tasks();
    let failed = tasks
        .iter()
        .position(|t| t.status == TaskStatus::Crashed)
        .or_else(|| tasks.iter().position(|t| t.status != TaskStatus::Running))
        .map(|i| sim.graph.tasks[i].name.as_str())
        .unwrap_or("?");
    let (first, second) = match l {
        Lang::Zh => (format!("{failed} 所在的区域正在重启"), "按“恢复”（R）".to_string()),
        _ => (format!("Region of {failed} is restarting"), "— press Restore (R)".to_string()),
    };
    banner(lay, "region-banner", first, second)
}

pub(super) fn banner(lay: &Layout, id: &'static str, first: String, second: String) -> Html {
    let r = lay.banner;
    let max = r.w - 20.0;
    html! {
        <g class="down-banner" id={id} role="status">
            <rect x={num(r.x)} y={num(r.y)} width={num(r.w)} height={num(BANNER_H)} rx="10" />
            <text x={num(r.cx())} y={num(r.y + 24.0)} text-anchor="middle">
                <tspan x={num(r.cx())}>{ fit(&first, max, 18.0) }</tspan>
                <tspan x={num(r.cx())} dy="23">{ fit(&second, max, 18.0) }</tspan>
            </text>
        </g>
    }
}
