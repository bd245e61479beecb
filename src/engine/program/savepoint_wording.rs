//! The words of savepoints, stop with savepoint, cancel and a new submission from a savepoint, in
//! English and Simplified Chinese, beside the engine's other words in `crate::engine::wording`: the
//! narration of their events and their actions' short names (why one was refused is in `core/error_wording.rs`).

use crate::engine::core::action::{Action, Event};
use crate::engine::core::lang::{say, Lang};

/// The short name of a savepoint action, or None for any other action.
pub fn describe(a: &Action, lang: Lang) -> Option<String> {
    Some(match *a {
        Action::Savepoint => lang.t("savepoint", "保存点").into(),
        Action::StopWithSavepoint => lang.t("stop with savepoint", "停止并保存").into(),
        Action::Cancel => lang.t("cancel the job", "取消作业").into(),
        Action::Resume { from } => say!(lang, "submit again from {}", "从 {} 重新提交", from.0),
        _ => return None,
    })
}

/// One sentence for a savepoint event, or None for any other event.
pub fn narrate(e: &Event, lang: Lang) -> Option<String> {
    Some(match *e {
        Event::SavepointTriggered { savepoint, stop: false } => say!(
            lang,
            "The user triggered savepoint {}: its barriers go out like a checkpoint's, but it will belong to the user, not to the job.",
            "用户触发了保存点 {}：它的屏障像检查点一样发出，但它将属于用户，而不属于作业。",
            savepoint.0
        ),
        Event::SavepointTriggered { savepoint, stop: true } => say!(
            lang,
            "Stop with savepoint: the periodic checkpoints stopped and synchronous savepoint {} was triggered; the sources read nothing after its barrier.",
            "停止并保存：周期性检查点停止，同步保存点 {} 已触发；数据源在它的屏障之后不再读取。",
            savepoint.0
        ),
        Event::SavepointCompleted { savepoint, stop, duration } => {
            let then = if stop {
                lang.t(" Every task is notified; once the notifications arrive, the job finishes.", "每个任务都会收到通知；通知送达后，作业结束。")
            } else {
                lang.t(
                    " It is not one of the retained checkpoints and subsumes none of them; no task is notified.",
                    "它不在保留的检查点之列，也不取代任何检查点；不通知任何任务。",
                )
            };
            say!(
                lang,
                "Savepoint {} completed after {duration} steps and went to the savepoint directory.{then}",
                "保存点 {} 在 {duration} 步后完成，存入保存点目录。{then}",
                savepoint.0
            )
        }
        Event::JobFinished { savepoint, discarded } => say!(
            lang,
            "The job finished with savepoint {}. Its {discarded} retained checkpoint(s) were deleted with it: checkpoints belong to the job, savepoints to the user.",
            "作业以保存点 {} 结束。它保留的 {discarded} 个检查点随作业一起删除：检查点属于作业，保存点属于用户。",
            savepoint.0
        ),
        Event::JobCanceled { discarded, retained, lost_in_flight } => say!(
            lang,
            "The job was cancelled; {lost_in_flight} record(s) in flight vanished. {discarded} retained checkpoint(s) were deleted, {retained} kept (retain on cancellation); the savepoints stay.",
            "作业被取消；{lost_in_flight} 条在途记录消失。删除了 {discarded} 个保留的检查点，保留 {retained} 个（取消时保留）；保存点都还在。"
        ),
        Event::JobSubmitted { from, savepoint: true, next_id } => say!(
            lang,
            "The job was submitted again from savepoint {}: every task restores from it, and its checkpoint ids continue at {}.",
            "作业从保存点 {} 重新提交：每个任务都从它恢复，检查点编号从 {} 继续。",
            from.0,
            next_id.0
        ),
        Event::JobSubmitted { from, savepoint: false, next_id } => say!(
            lang,
            "The job was submitted again from retained checkpoint {}: every task restores from it, and its checkpoint ids continue at {}.",
            "作业从保留的检查点 {} 重新提交：每个任务都从它恢复，检查点编号从 {} 继续。",
            from.0,
            next_id.0
        ),
        _ => return None,
    })
}
