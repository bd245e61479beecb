//! The classroom's own words in English and Simplified Chinese, each sentence written once with
//! its two languages side by side: the session's notices, why a saved run could not be opened,
//! what acting at an earlier step would drop, what a Settings field did with a value, and a
//! step's name in the narration. (Actions and events are worded by the engine; the lessons'
//! texts are in `curriculum.rs`.)

use super::lessons::Text;
use super::number_fields::{FieldNote, SettingField};
use super::saved_run::{LoadError, Origin, MAX_SAVED_ACTIONS, MAX_SAVED_BYTES, SAVED_VERSION};
use super::session::{Notice, StepLog, Steps};
use crate::engine::core::lang::say;
use crate::engine::mechanisms::catalogue::carried::MechanismEvent;
use crate::engine::mechanisms::spark::events::SparkStreamingEvent;
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
            LoadError::LessonFile(e) => {
                say!(lang, "it is not a valid lesson file: {}", "它不是有效的课程文件：{}", e.message(lang))
            }
        }
    }
}

/// Where a saved run came from, as a notice names it.
pub(crate) fn origin(o: Origin, lang: Lang) -> &'static str {
    match o {
        Origin::Link => lang.t("the link", "链接"),
        Origin::File => lang.t("the file", "文件"),
        Origin::Storage => lang.t("the run saved in this browser", "浏览器中保存的运行"),
    }
}

impl Notice {
    /// A lesson opened from `o` (a lesson file, or a `#lesson=ID` link): the notice that names
    /// it and where it came from.
    pub(crate) fn lesson_opened(title: Text, o: Origin) -> Notice {
        let from = |l: Lang| origin(o, l);
        Notice::Done(Box::new([
            format!("Opened the lesson \u{201c}{}\u{201d} from {}.", title.en, from(Lang::En)),
            format!("已从{}打开课程“{}”。", from(Lang::Zh), title.zh),
        ]))
    }

    /// The notice as the learner reads it.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            Notice::Refused { action, action_zh, error } => {
                say!(lang, "Can't {action}: {}.", "无法{action_zh}：{}。", error.message(lang))
            }
            Notice::AtFirstStep => lang.t("Already at the first step.", "已经在第一步。").into(),
            Notice::Unfinished(u) => u.message(lang),
            Notice::NothingToPlay => lang
                .t(
                    "Nothing left to play: every record is through. Crash, restore, or reset.",
                    "没有可播放的了：所有记录都已处理完。可以崩溃、恢复或重置。",
                )
                .into(),
            Notice::MarkEveryRecord(n) => say!(
                lang,
                "Mark every record first: {n} left. Click a record or press its number (1–9) to mark it, or press PageDown again to reveal without marking.",
                "请先标记每一条记录：还剩 {n} 条。点击记录或按它的序号（1–9）即可标记；再按一次 PageDown 则不标记直接揭晓。"
            ),
            Notice::PredictCheckpoint(id) => say!(
                lang,
                "Predict first: will checkpoint {id} complete (1) or fail (2)? Or press PageDown again to reveal without a guess.",
                "请先预测：检查点 {id} 会完成（1）还是失败（2）？或者再按一次 PageDown，不预测直接揭晓。"
            ),
            Notice::DrawConsistentCut => lang
                .t(
                    "Draw a consistent cut first: open the space-time diagram, set one point on each task line, predict, and check it.",
                    "请先画出一个一致的切面：打开时空图，在每条任务线上设一个点，先预测，再检查。",
                )
                .into(),
            Notice::Config(e) => say!(lang, "Can't use these settings: {e}", "无法使用这些设置：{e}"),
            Notice::LoadFailed { origin: o, why, .. } => say!(
                lang,
                "Couldn't open {}: {}. Your current run is unchanged.",
                "无法打开{}：{}。当前的运行保持不变。",
                origin(*o, lang),
                why[usize::from(lang == Lang::Zh)]
            ),
            Notice::Done(words) => words[usize::from(lang == Lang::Zh)].clone(),
            Notice::Opened(o) => {
                say!(lang, "Opened {}, paused at its saved step.", "已打开{}，暂停在保存时的那一步。", origin(*o, lang))
            }
            Notice::LessonError(m) => m.clone(),
            Notice::Forked(s) => say!(
                lang,
                "Forked the run at step {}: {} dropped. Undo (Ctrl+Z) brings them back.",
                "已在第 {} 步分叉：丢弃了{}。撤销（Ctrl+Z）可以找回。",
                s.after,
                s.words(lang)
            ),
            Notice::Undone { back, at, set_aside } => {
                let mut m = say!(
                    lang,
                    "Brought back {}; you are at step {at}.",
                    "已找回{}；你在第 {at} 步。",
                    back.words(lang)
                );
                if *set_aside > 0 {
                    m += &say!(
                        lang,
                        " The {set_aside} step(s) after the fork are set aside: Redo (Ctrl+Y) puts them back.",
                        "分叉之后的 {set_aside} 步已暂存：重做（Ctrl+Y）可以放回。"
                    );
                }
                m
            }
            Notice::Redone { back, at, set_aside } => {
                let mut m = say!(lang, "Put back {}; you are at step {at}.", "已放回{}；你在第 {at} 步。", back.words(lang));
                if *set_aside > 0 {
                    m += &say!(
                        lang,
                        " Undo (Ctrl+Z) brings back the {set_aside} step(s) it set aside.",
                        "撤销（Ctrl+Z）可以找回被暂存的 {set_aside} 步。"
                    );
                }
                m
            }
            Notice::NothingToUndo => lang
                .t(
                    "Nothing to undo: Ctrl+Z brings back steps that acting at an earlier step dropped, and none were dropped.",
                    "没有可撤销的：Ctrl+Z 用来找回在较早的步骤上操作时丢弃的步骤，而目前没有丢弃任何步骤。",
                )
                .into(),
            Notice::NothingToRedo => lang
                .t(
                    "Nothing to redo: Ctrl+Y puts back the steps an undo set aside, and none are set aside.",
                    "没有可重做的：Ctrl+Y 用来放回撤销时暂存的步骤，而目前没有暂存的步骤。",
                )
                .into(),
            Notice::Setting(note) => note.message(lang),
            Notice::PartUnavailable => lang
                .t(
                    "This part of the page could not be loaded: the network is off, or the server did not answer. Your run is kept; try again once the network is back.",
                    "页面的这一部分没能加载：网络已断开，或服务器没有响应。你的运行仍然保留；网络恢复后请再试一次。",
                )
                .into(),
        }
    }
}

impl Steps {
    /// "steps 7–12 (6 steps)", or "step 12".
    pub fn words(&self, lang: Lang) -> String {
        let (first, last, n) = (self.first(), self.last(), self.steps);
        if n == 1 {
            say!(lang, "step {first}", "第 {first} 步")
        } else {
            say!(lang, "steps {first}–{last} ({n} steps)", "第 {first}–{last} 步（共 {n} 步）")
        }
    }

    /// What acting at the playhead would drop, said before it happens.
    pub fn fork_warning(&self, lang: Lang) -> String {
        say!(
            lang,
            "Acting at this step drops {}. Step, Play and End keep them; Ctrl+Z brings them back.",
            "在这一步操作会丢弃{}。单步、播放和到结尾会保留它们；按 Ctrl+Z 可以找回。",
            self.words(lang)
        )
    }
}

impl SettingField {
    /// The field's name, as a note about it starts.
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            SettingField::Records => lang.t("Records per source partition", "每个源分区的记录数"),
            SettingField::Seed => lang.t("Seed", "随机种子"),
            SettingField::CheckpointInterval => lang.t("Checkpoint every (steps)", "检查点间隔（步）"),
            SettingField::AlignmentTimeout => lang.t("Alignment timeout (steps)", "对齐超时（步）"),
            SettingField::ChannelCapacity => lang.t("Channel capacity", "通道容量"),
            SettingField::RecordCost => lang.t("Steps a record of the slow task", "慢任务每条记录的步数"),
            SettingField::BufferDebloatTarget => lang.t("Buffer debloating target", "缓冲区消胀目标"),
            SettingField::TolerableFailedCheckpoints => {
                lang.t("Tolerable failed checkpoints", "可容忍的连续失败检查点数")
            }
            SettingField::MessageTimeout => lang.t("Storm message timeout (steps)", "Storm 消息超时（步）"),
            SettingField::BatchInterval => lang.t("Spark batch interval (steps)", "Spark 批次间隔（步）"),
        }
    }
}

impl FieldNote {
    /// What the field did with the value: "Records per source partition: 9000 is above the
    /// maximum 5000; using 5000."
    pub fn message(&self, lang: Lang) -> String {
        let name = self.field().name(lang);
        match self {
            FieldNote::Clamped { typed, limit, above: true, .. } => say!(
                lang,
                "{name}: {typed} is above the maximum {limit}; using {limit}.",
                "{name}：{typed} 超过上限 {limit}，改用 {limit}。"
            ),
            FieldNote::Clamped { typed, limit, above: false, .. } => say!(
                lang,
                "{name}: {typed} is below the minimum {limit}; using {limit}.",
                "{name}：{typed} 低于下限 {limit}，改用 {limit}。"
            ),
            FieldNote::Refused { typed: Some(typed), .. } => say!(
                lang,
                "{name}: \"{typed}\" is not a whole number; nothing changed.",
                "{name}：“{typed}”不是整数；没有任何改动。"
            ),
            FieldNote::Refused { typed: None, .. } => {
                say!(lang, "{name}: that is not a number; nothing changed.", "{name}：输入的不是数字；没有任何改动。")
            }
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
        Some(Event::Mechanism(MechanismEvent::Spark(SparkStreamingEvent::BlockStored { task, .. }))) => {
            describe(g, &Action::Read { task: *task }, lang)
        }
        Some(Event::Waited) => describe(g, &Action::Wait, lang),
        _ => lang.t("step", "单步").into(),
    };
    format!("{base}: {what}")
}

/// What a crash of `place` takes down under `settings`' mechanism, in a learner's words: the
/// crash named as the narration names its action ("crash Count: the task fails…", "使 Count
/// 崩溃：…"), not by its script code (`crash-task Count`), which the runner's output keeps
/// (`engine::comparison::crash_meaning`).
pub fn crash_words(
    place: &crate::engine::comparison::CrashPlace,
    settings: &crate::engine::Settings,
    graph: &crate::engine::core::dataflow::job_graph::JobGraph,
    lang: Lang,
) -> String {
    let meaning = crate::engine::comparison::crash_meaning(place, settings, graph, lang);
    let effect = meaning.split_once('：').or_else(|| meaning.split_once(": ")).map_or(meaning.as_str(), |(_, e)| e);
    match place.action(graph) {
        Ok(a) => say!(lang, "{}: {}", "{}：{}", describe(graph, &a, lang), effect),
        Err(_) => effect.to_string(),
    }
}

#[cfg(test)]
mod crash_words_tests {
    use super::*;
    use crate::engine::comparison::CrashPlace;
    use crate::engine::core::dataflow::job_graph::JobGraph;
    use crate::engine::{builtin, Settings, Strategy};

    /// A learner reads what the crash does, never its script code (issue 48).
    #[test]
    fn no_script_code_in_the_words() {
        let b = builtin("line-sink").unwrap();
        let g = JobGraph::build(&b.spec, &b.input).unwrap();
        for place in [CrashPlace::Cluster, CrashPlace::Master, CrashPlace::WorkerRunning("Count".into())] {
            for strategy in Strategy::ALL {
                let s = Settings::new(strategy);
                for lang in [Lang::En, Lang::Zh] {
                    let w = crash_words(&place, &s, &g, lang);
                    assert!(
                        !w.contains("crash-task") && !w.contains("crash-job-manager") && !w.starts_with("crash:"),
                        "{w}"
                    );
                }
            }
        }
        let s = Settings::new(Strategy::StormAcker);
        let w = crash_words(&CrashPlace::WorkerRunning("Count".into()), &s, &g, Lang::En);
        assert!(w.starts_with("crash Count: the worker running it dies"), "{w}");
    }
}
