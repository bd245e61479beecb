//! The narration of Storm's acker (`storm-acker`): a spout's `__ack_init`, a bolt's `__ack_ack`,
//! the acker's XOR, a tree completed or timed out, the spout's commit, and Nimbus and the
//! supervisors failing and coming back.

use super::events::StormEvent;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::ids::{RecordId, TaskId};
use crate::engine::core::lang::{say, Lang};
use crate::engine::core::step::Step;

/// An id of a tuple tree or an XOR value, short ("9f2c…"); 0 is "0".
fn hex(x: u64) -> String {
    if x == 0 {
        "0".into()
    } else {
        format!("{}…", crate::engine::mechanisms::storm::tuple_tree::short_hex(x))
    }
}

/// Storm's own steps, as a button or a log line says them.
pub(crate) fn step(step: Step, task: &str, lang: Lang) -> Option<String> {
    Some(match step.kind {
        super::steps::TO_ACKER => say!(lang, "deliver {task}'s message to the acker", "把 {task} 的消息送到 acker"),
        super::steps::FROM_ACKER => say!(lang, "deliver the acker's answer to {task}", "把 acker 的答复送到 {task}"),
        _ => return None,
    })
}

pub(crate) fn narrate(e: &StormEvent, g: &JobGraph, lang: Lang) -> String {
    let t = |id: TaskId| g.task(id).name.as_str();
    let r = |id: RecordId| g.label(id);
    match *e {
        StormEvent::AckInitSent { task, record, root } => say!(
            lang,
            "{} started tuple tree {} for {} and told the acker its edges (init).",
            "{0} 为 {2} 建立了元组树 {1}，并把它的边告诉 acker（init）。",
            t(task),
            hex(root),
            r(record)
        ),
        StormEvent::AckSent { task, record, root, anchored, unanchored } => {
            let extra = if unanchored > 0 {
                say!(lang, "; {unanchored} child(ren) went out unanchored, untracked", "；{unanchored} 个子元组未锚定，不被跟踪")
            } else {
                String::new()
            };
            say!(
                lang,
                "{} acked its {} tuple of tree {} with {anchored} anchored child(ren){extra}.",
                "{0} 确认（ack）了树 {2} 中的 {1} 元组，带 {anchored} 个锚定的子元组{extra}。",
                t(task),
                r(record),
                hex(root)
            )
        }
        StormEvent::AckerUpdated { from, record, root, val } => say!(
            lang,
            "The acker XORed {}'s message into tree {} ({}): its value is now {}.",
            "acker 把 {} 的消息异或进树 {}（{}）：值现在是 {}。",
            t(from),
            hex(root),
            r(record),
            hex(val)
        ),
        StormEvent::TreeCompleted { spout, record, root } => say!(
            lang,
            "Tree {} of {} reached 0: every tuple in it was acked. The acker tells {}.",
            "{1} 的树 {0} 归零：其中每个元组都已确认。acker 通知 {2}。",
            hex(root),
            r(record),
            t(spout)
        ),
        StormEvent::SpoutAcked { task, record, offset, committed } => say!(
            lang,
            "{} got the ack for {} (offset {offset}) and forgot it; it has committed up to offset {committed}.",
            "{} 收到 {}（偏移量 {offset}）的确认并不再保留它；已提交到偏移量 {committed}。",
            t(task),
            r(record)
        ),
        StormEvent::StaleAckIgnored { task, record } => say!(
            lang,
            "{} ignored an ack for {}: that tree had already timed out and {} was sent again as a new tree.",
            "{} 忽略了 {} 的确认：那棵树已经超时，{} 已作为新树重发。",
            t(task),
            r(record),
            r(record)
        ),
        StormEvent::TupleTimedOut { task, record, offset } => say!(
            lang,
            "{}'s tuple {} (offset {offset}) was not fully acked within the message timeout: it failed, and {} will emit it again.",
            "{} 的元组 {}（偏移量 {offset}）没有在消息超时内被完全确认：它失败了，{} 会重新发出它。",
            t(task),
            r(record),
            t(task)
        ),
        StormEvent::AckerForgot { root, record } => say!(
            lang,
            "The acker dropped unfinished tree {}{} after its timeout, silently.",
            "acker 在超时后悄悄丢弃了未完成的树 {}{}。",
            hex(root),
            record.map(|x| format!(" ({})", r(x))).unwrap_or_default()
        ),
        StormEvent::NimbusDown => lang
            .t(
                "Nimbus died. The workers keep processing; only new submissions and reassigning failed workers wait for it.",
                "Nimbus 挂了。worker 照常处理；只有提交新作业和重新分配失败的 worker 要等它恢复。",
            )
            .into(),
        StormEvent::NimbusRestarted => lang.t("Nimbus is back.", "Nimbus 已恢复。").into(),
        StormEvent::SupervisorRestarted => lang
            .t(
                "Nimbus is still down, but the supervisor restarts the dead worker on its own: supervisors keep restarting workers that die without Nimbus.",
                "Nimbus 仍然宕着，但 supervisor 自己重启了挂掉的 worker：没有 Nimbus，supervisor 照样会重启挂掉的 worker。",
            )
            .into(),
    }
}

/// How Storm's restart is said: the worker restarted from the spouts' committed offsets
/// (`StormRestore::Committed`).
pub(crate) fn storm_restart(lang: Lang) -> String {
    lang.t(
        "The worker restarted: Storm saves no state, so every bolt starts empty; each spout resumes at the offset it committed, and every tree that was pending is gone.",
        "worker 重启：Storm 不保存状态，每个 bolt 都从空开始；每个 spout 从它提交的偏移量继续，进行中的元组树全部消失。",
    )
    .into()
}

/// What a crash action takes down under Storm, in the comparison's words: the simulator runs one
/// worker, which holds every task, and Nimbus is a master the workers run without.
pub(crate) fn crash_words(crash: &crate::engine::core::action::Action, g: &JobGraph, lang: Lang) -> Option<String> {
    use crate::engine::core::action::Action;
    Some(match *crash {
        Action::Crash => lang
            .t(
                "crash: the worker dies; the simulator runs one worker, which holds every task",
                "crash：worker 宕机；模拟器只运行一个 worker，所有任务都在其中",
            )
            .into(),
        Action::CrashJobManager => lang
            .t(
                "crash-job-manager: Nimbus dies; the workers go on without it",
                "crash-job-manager：Nimbus 宕机；worker 照常运行",
            )
            .into(),
        Action::CrashTask { task } => say!(
            lang,
            "crash-task {}: the worker running it dies; one worker runs every task, so all restart",
            "crash-task {}：运行它的 worker 宕机；所有任务都在这一个 worker 中，因此全部重启",
            g.task(task).name
        ),
        _ => return None,
    })
}
