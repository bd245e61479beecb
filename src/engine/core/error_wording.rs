//! Why an action was refused, in English and Chinese: [`ActionError::message`] (and `Display`, in
//! English), beside the refusals themselves in `core/error.rs`.

use std::fmt;

use crate::engine::core::error::ActionError;
use crate::engine::core::lang::{say, Lang};
use crate::engine::settings::strategy::Strategy;

impl ActionError {
    /// Why the action was refused, in one clause ("the job is down; restore it first").
    pub fn message(&self, lang: Lang) -> String {
        use ActionError::*;
        match self {
            NoSuchChannel(c) => say!(lang, "there is no channel #{c}", "没有编号为 {c} 的通道"),
            NoSuchTask(t) => say!(lang, "there is no task #{t}", "没有编号为 {t} 的任务"),
            JobDown => lang.t("the job is down; restore it first", "作业已停止，请先恢复").into(),
            JobRunning => {
                lang.t("the job is running; there is nothing to restore", "作业正在运行，没有需要恢复的东西").into()
            }
            TaskDown { task } => say!(
                lang,
                "{task} is down with its failed region; restore it first",
                "{task} 随所在的失败区域停止了，请先恢复"
            ),
            NoNotification { task } => say!(
                lang,
                "no notification that a checkpoint completed is on its way to {task}",
                "没有发往 {task} 的检查点完成通知"
            ),
            ChannelEmpty { channel } => say!(lang, "channel {channel} is empty", "通道 {channel} 是空的"),
            ChannelBlocked { channel, task } => say!(
                lang,
                "channel {channel} is blocked: {task} is aligning barriers and buffers what comes after the barrier",
                "通道 {channel} 已阻塞：{task} 正在对齐屏障，屏障之后的记录被缓存"
            ),
            Backpressured { task, channel, capacity } => say!(
                lang,
                "{task} is backpressured: its output channel {channel} is full ({capacity} items)",
                "{task} 受到反压：它的输出通道 {channel} 已满（{capacity} 项）"
            ),
            Busy { task, until, cost } => say!(
                lang,
                "{task} is busy with a record until step {until} (it takes {cost} steps a record)",
                "{task} 正在处理一条记录，直到第 {until} 步（每条记录要 {cost} 步）"
            ),
            NotASource { task } => say!(lang, "{task} is not a source", "{task} 不是数据源"),
            SourcesPaused { checkpoint } => say!(
                lang,
                "sources are paused until stop-the-world checkpoint {checkpoint} completes",
                "数据源已暂停，直到全局暂停检查点 {checkpoint} 完成"
            ),
            NotArrived { task, at } => say!(
                lang,
                "nothing has arrived on {task}'s socket yet: its next record arrives at step {at} (wait)",
                "{task} 的 socket 上还没有数据到达：下一条记录在第 {at} 步到达（等待）"
            ),
            LogExhausted { task, records } => {
                say!(
                    lang,
                    "{task} has read its whole log ({records} records)",
                    "{task} 已读完整个日志（{records} 条记录）"
                )
            }
            NoCheckpoints { strategy } => {
                let name = strategy.in_sentence(lang);
                say!(lang, "there are no checkpoints with {name}", "“{name}”不做检查点")
            }
            NotTimers { strategy } => {
                let (timers, name) = (Strategy::Timers.in_sentence(lang), strategy.in_sentence(lang));
                say!(
                    lang,
                    "snapshot timers belong to {timers}, not to {name}",
                    "快照定时器只属于“{timers}”，而不属于“{name}”"
                )
            }
            Mechanism(refusal) => refusal.message(lang),
            NoSuchStep { step, strategy } => {
                let name = strategy.in_sentence(lang);
                say!(lang, "{name} has no step “{step}”", "“{name}”没有“{step}”这一步")
            }
            JobStopped => lang
                .t("the job was stopped; submit it again from a savepoint first", "作业已停止，请先从保存点重新提交")
                .into(),
            NotStopped => lang
                .t(
                    "the job still runs; stop it with a savepoint or cancel it first",
                    "作业仍在运行，请先停止并保存或取消它",
                )
                .into(),
            Stopping { savepoint } => say!(
                lang,
                "the job is stopping: its final savepoint {savepoint} is being taken",
                "作业正在停止：正在制作最后的保存点 {savepoint}"
            ),
            NoSavepoint { id } => say!(
                lang,
                "there is no savepoint {id}, nor a newest retained checkpoint {id}",
                "没有编号为 {id} 的保存点，也没有编号为 {id} 的最新保留检查点"
            ),
            Kafka(crate::engine::core::error::KafkaRefusal::NotKafka) => {
                lang.t("the sink does not write to Kafka", "sink 不写入 Kafka").into()
            }
            Kafka(crate::engine::core::error::KafkaRefusal::NotASink { task }) => {
                say!(lang, "{task} is not a sink", "{task} 不是 sink")
            }
            Kafka(crate::engine::core::error::KafkaRefusal::NoZombie { task }) => say!(
                lang,
                "no zombie of {task} can write: none was cut off, it was fenced, or it wrote all it held",
                "{task} 没有能写入的僵尸：没有被断开的，已被隔离，或已写完它持有的记录"
            ),
            Kafka(crate::engine::core::error::KafkaRefusal::PassTime { max }) => say!(
                lang,
                "time passes on the broker by 1 to {max} ms at a time",
                "broker 上的时间每次只能过去 1 到 {max} 毫秒"
            ),
            NothingToDo => lang
                .t(
                    "nothing left to do: every log is read and every channel is empty or blocked",
                    "无事可做：日志已全部读完，通道都为空或已阻塞",
                )
                .into(),
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}
