//! The JobManager's box: its title, its CheckpointCoordinator's lines (or a mechanism's own),
//! and high availability's standby and leader.

use super::layout::Layout;
use crate::app::mechanism_drawing::MechanismDrawing;
use crate::app::svg_number::num;
use crate::app::svg_text::fit;
use crate::app::text::Lang;
use crate::engine::*;
use yew::prelude::*;

pub(super) fn jobmanager(sim: &Sim, drawing: &MechanismDrawing, lay: &Layout, l: Lang) -> Html {
    let up = sim.jobmanager_up();
    let max = lay.jm.w - 28.0;
    let (title, line2, line3) = match drawing.jobmanager {
        Some(words) => words(sim, l),
        None => coordinator_lines(sim, l),
    };
    let notify: Vec<String> = sim
        .notifications()
        .iter()
        .map(|n| {
            format!(
                "{} {}: {} {}",
                l.t("notify", "通知"),
                sim.graph.task(n.task).name,
                l.t("chk", "检查点"),
                n.checkpoint.0
            )
        })
        .collect();
    let line3 = if notify.is_empty() { line3 } else { format!("{line3} · ✉ {}", notify.join(", ")) };
    let takes_ha = sim.strategy().takes(Setting::HighAvailability);
    let ha = takes_ha.then(|| high_availability(sim, l));
    let stw = sim.stop_the_world().map(|(id, _)| {
        format!("{} {}", l.t("❚❚ sources paused for stop-the-world checkpoint", "❚❚ 源已暂停，等待全局快照"), id.0)
    });
    let r = lay.jm;
    let full = format!("{line2}\n{}", stw.clone().unwrap_or_else(|| line3.clone()));
    html! {
        <g id="jobmanager" class={classes!("jobmanager", (!up).then_some("down"))} data-up={up.to_string()}
            data-leader={takes_ha.then(|| sim.masters().leader.letter())}
            data-ha={takes_ha.then(|| sim.settings.high_availability.id())}
            data-submission={sim.masters().submission.to_string()}>
            <title>{ full }</title>
            <rect x={num(r.x)} y={num(r.y)} width={num(r.w)} height={num(r.h)} rx="10" />
            <text class="jm-title" x={num(r.x + 14.0)} y={num(r.y + 25.0)} id="jm-title">
                { fit(&title.map(str::to_string).unwrap_or_else(|| match (&ha, up) {
                    (Some((title, _)), _) => title.clone(),
                    (None, true) => l.t("JobManager · CheckpointCoordinator", "JobManager · 检查点协调器").to_string(),
                    (None, false) => l.t("✖ JobManager down", "✖ JobManager 故障").to_string(),
                }), max, 19.0) }
            </text>
            // With nothing pending (always so while the JobManager is down), the line tells what
            // high availability holds instead.
            { match ha.as_ref().map(|(_, line)| line).filter(|_| sim.pending().is_empty()) {
                Some(line) => html! { <text class="jm-line jm-ha" x={num(r.x + 14.0)} y={num(r.y + 48.0)} id="jm-ha">{ fit(line, max, 17.0) }</text> },
                None => html! { <text class="jm-line" x={num(r.x + 14.0)} y={num(r.y + 48.0)} id="jm-pending">{ fit(&line2, max, 17.0) }</text> },
            } }
            <text class="jm-line" x={num(r.x + 14.0)} y={num(r.y + 70.0)} id="jm-completed">{ fit(&stw.unwrap_or(line3), max, 17.0) }</text>
        </g>
    }
}

/// The JobManager box's second and third lines by default: the CheckpointCoordinator's
/// checkpoints in progress and those completed; with no coordinator, what the mechanism saves and
/// what a restore starts from, in its catalogue row's words.
pub(super) fn coordinator_lines(sim: &Sim, l: Lang) -> (Option<&'static str>, String, String) {
    if let Some(keeps) = &sim.strategy().row().keeps {
        return (
            None,
            keeps.saved.get(l).to_string(),
            format!("{}{}", l.t("restore: ", "恢复："), keeps.restore.get(l)),
        );
    }
    let pending: Vec<String> = sim
        .pending()
        .iter()
        .map(|p| format!("{} {} ({}/{})", l.t("chk", "检查点"), p.id.0, p.acked, p.snapshots.len()))
        .collect();
    let line2 = if pending.is_empty() {
        l.t("pending: none", "进行中：无").to_string()
    } else {
        format!("{} {}", l.t("pending:", "进行中："), pending.join(", "))
    };
    let done: Vec<String> = sim.storage().completed.iter().map(|c| format!("{} ✓", c.id.0)).collect();
    let line3 = format!(
        "{} {}",
        l.t("completed (retained):", "已完成（保留）："),
        if done.is_empty() { l.t("none", "无").to_string() } else { done.join(", ") }
    );
    (None, line2, line3)
}

/// The JobManager box's title and HA line under a checkpointing strategy: the leader and the
/// standby and the switch between them (with a standby), or the one JobManager, the failed job and
/// its resubmission (without HA).
pub(super) fn high_availability(sim: &Sim, l: Lang) -> (String, String) {
    let m = sim.masters();
    let (leader, standby) = (m.leader.letter(), m.leader.other().letter());
    let latest = sim.storage().completed.last().map(|c| c.id.0);
    let chk = |id: Option<u64>| match id {
        Some(id) => format!("{} {id}", l.t("chk", "检查点")),
        None => l.t("no checkpoint", "无检查点").to_string(),
    };
    let zh = l == Lang::Zh;
    let down = sim.down() == Some(CrashScope::JobManager);
    match sim.settings.high_availability {
        HighAvailability::Standby if down => (
            if zh {
                format!("{leader} ✖ · {standby}（备用）将赢得选举")
            } else {
                format!("{leader} ✖ · {standby} (standby) wins the election")
            },
            if zh {
                format!("HA 存储：作业图，指针 → {}", chk(latest))
            } else {
                format!("HA store: job graph, pointer → {}", chk(latest))
            },
        ),
        HighAvailability::Standby => (
            if zh {
                format!("JobManager {leader}（主）· {standby}（备用）")
            } else {
                format!("JobManager {leader} (leader) · {standby} (standby)")
            },
            match m.elected_at {
                Some(t) if zh => format!(
                    "{leader} 于第 {} 步当选 · HA 指针 → {}",
                    t + 1,
                    chk(sim.stats.latest_restored.map(|c| c.0))
                ),
                Some(t) => format!(
                    "{leader} elected at step {} · HA pointer → {}",
                    t + 1,
                    chk(sim.stats.latest_restored.map(|c| c.0))
                ),
                None if zh => format!("HA 存储：作业图，指针 → {}", chk(latest)),
                None => format!("HA store: job graph, pointer → {}", chk(latest)),
            },
        ),
        HighAvailability::None if down && m.awaiting_resubmission => (
            l.t("New JobManager (no HA) · no job", "新的 JobManager（无高可用）· 无作业").to_string(),
            match latest {
                Some(id) if zh => format!("R 重新提交：从保留的检查点 {id} 恢复，编号从 {} 继续", id + 1),
                Some(id) => format!("R: from retained chk {id}, ids continue at {}", id + 1),
                None => {
                    l.t("resubmit (R): from nothing, ids from 1", "重新提交（R）：从零开始，编号从 1 开始").to_string()
                }
            },
        ),
        HighAvailability::None if down => (
            l.t("✖ JobManager down: the job failed", "✖ JobManager 故障：作业失败").to_string(),
            match latest {
                Some(id) if zh => format!("检查点 {id} 已外部化保留；R 启动新的 JobManager"),
                Some(id) => format!("chk {id} retained; R starts a new JobManager"),
                None => l
                    .t("no checkpoint retained; R starts a JobManager", "没有保留的检查点；R 启动 JobManager")
                    .to_string(),
            },
        ),
        HighAvailability::None => (
            if m.submission > 1 && zh {
                format!("JobManager（无高可用）· 第 {} 次提交", m.submission)
            } else if m.submission > 1 {
                format!("JobManager (no HA) · submission {}", m.submission)
            } else {
                l.t("JobManager (no HA, no standby)", "JobManager（无高可用，无备用）").to_string()
            },
            l.t(
                "checkpoints only in its memory: its failure fails the job",
                "检查点只在它的内存里：它一故障，作业就失败",
            )
            .to_string(),
        ),
    }
}
