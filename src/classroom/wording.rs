//! The classroom's own words in English and Simplified Chinese, each sentence written once with
//! its two languages side by side: the session's notices, why a saved run could not be opened,
//! and a step's name in the narration. (Actions and events are worded by the engine; the lessons'
//! texts are in `curriculum.rs`.)

use super::saved_run::{LoadError, Origin, MAX_SAVED_ACTIONS, MAX_SAVED_BYTES, SAVED_VERSION};
use super::session::{Notice, StepLog};
use crate::engine::lang::say;
use crate::engine::{describe, Action, Event, Lang, Sim};

impl LoadError {
    /// Why the saved run could not be opened, in one clause.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            LoadError::TooLarge(n) => say!(
                lang,
                "it is {n} bytes; at most {MAX_SAVED_BYTES} are allowed",
                "它有 {n} 字节，最多允许 {MAX_SAVED_BYTES} 字节"
            ),
            LoadError::Encoding => {
                lang.t("it is not a Barrierscope link (bad encoding)", "它不是 Barrierscope 链接（编码错误）").into()
            }
            LoadError::Json(e) => say!(lang, "it is not a valid JSON run: {e}", "它不是有效的 JSON 运行记录：{e}"),
            LoadError::Version(v) => say!(
                lang,
                "it has format version {v}; this build reads version {SAVED_VERSION}",
                "它的格式版本是 {v}；此版本只能读取版本 {SAVED_VERSION}"
            ),
            LoadError::Config(e) => say!(lang, "its job or settings are invalid: {e}", "它的作业或设置无效：{e}"),
            LoadError::TooManyActions(n) => say!(
                lang,
                "it has {n} actions; at most {MAX_SAVED_ACTIONS} are allowed",
                "它有 {n} 个动作；最多允许 {MAX_SAVED_ACTIONS} 个"
            ),
            LoadError::UnknownAction { index, code } => {
                say!(lang, "action #{} {code:?} is not an action", "第 {} 个动作 {code:?} 无法识别", index + 1)
            }
            LoadError::Action { index, action, error } => say!(
                lang,
                "action #{} ({action}) is not enabled: {}",
                "第 {} 个动作（{action}）不可执行：{}",
                index + 1,
                error.message(lang)
            ),
            LoadError::Playhead { at, len } => {
                say!(lang, "its playhead {at} is past its {len} steps", "它的播放位置 {at} 超出了 {len} 步的历史")
            }
            LoadError::Lesson(m) => say!(lang, "its lesson state is invalid: {m}", "它的课程状态无效：{m}"),
        }
    }
}

/// Where a saved run came from, as a notice names it.
fn origin(o: Origin, lang: Lang) -> &'static str {
    match o {
        Origin::Link => lang.t("the link", "链接"),
        Origin::File => lang.t("the file", "文件"),
        Origin::Storage => lang.t("the run saved in this browser", "浏览器中保存的运行"),
    }
}

impl Notice {
    /// The notice as the learner reads it.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            Notice::Refused { action, action_zh, error } => {
                say!(lang, "Can't {action}: {}.", "无法{action_zh}：{}。", error.message(lang))
            }
            Notice::AtFirstStep => lang.t("Already at the first step.", "已经在第一步。").into(),
            Notice::NothingToPlay => lang
                .t(
                    "Nothing left to play: every record is through. Crash, restore, or reset.",
                    "没有可播放的了：所有记录都已处理完。可以崩溃、恢复或重置。",
                )
                .into(),
            Notice::MarkEveryRecord(n) => say!(
                lang,
                "Mark every record first: {n} left. Click a record to mark it.",
                "请先标记每一条记录：还剩 {n} 条。点击记录即可标记。"
            ),
            Notice::Config(e) => say!(lang, "Can't use these settings: {e}", "无法使用这些设置：{e}"),
            Notice::LoadFailed { origin: o, error } => say!(
                lang,
                "Couldn't open {}: {}. Your current run is unchanged.",
                "无法打开{}：{}。当前的运行保持不变。",
                origin(*o, lang),
                error.message(lang)
            ),
            Notice::Opened(o) => {
                say!(lang, "Opened {}, paused at its saved step.", "已打开{}，暂停在保存时的那一步。", origin(*o, lang))
            }
            Notice::LessonError(m) => m.clone(),
        }
    }
}

/// A step's name in the narration: what the action did (an auto step is named by its effect,
/// "auto step: deliver Source->Map").
pub fn step_title(sim: &Sim, log: &StepLog, lang: Lang) -> String {
    let g = &sim.graph;
    let base = describe(g, &log.action, lang);
    if log.action != Action::Auto {
        return base;
    }
    let what = match log.events.first() {
        Some(Event::Read { task, .. }) => describe(g, &Action::Read { task: *task }, lang),
        Some(Event::Processed { channel, .. })
        | Some(Event::BarrierReceived { channel, .. })
        | Some(Event::BarrierIgnored { channel, .. })
        | Some(Event::CancelMarkerReceived { channel, .. })
        | Some(Event::InFlightRecorded { channel, .. }) => describe(g, &Action::Deliver { channel: *channel }, lang),
        Some(Event::Restored { .. }) | Some(Event::RegionRestored { .. }) => describe(g, &Action::Restore, lang),
        Some(Event::NotificationDelivered { task, .. }) => describe(g, &Action::Notify { task: *task }, lang),
        _ => lang.t("step", "单步").into(),
    };
    format!("{base}: {what}")
}
