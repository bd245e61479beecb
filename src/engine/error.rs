//! Errors a user can cause: a scenario that doesn't parse or make sense, or an action that is not
//! enabled in the current state. Each names its problem in one sentence; none is a panic.

use std::fmt;

pub use super::lang::Lang;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// The text is not valid JSON, or has the wrong shape.
    Json(String),
    /// The scenario declares a format version (`found`) other than the one this build reads.
    Version { found: u32, reads: u32 },
    /// The topology is invalid (unknown operator, cycle, bad parallelism, ...).
    Topology(String),
    /// The input log is invalid.
    Input(String),
    /// The strategy or settings are invalid or absurd.
    Settings(String),
    /// An action of the script names something unknown or is not enabled.
    Action { index: usize, message: String },
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Json(m) => write!(f, "the scenario is not valid JSON for this format: {m}"),
            ScenarioError::Version { found, reads } => {
                write!(f, "the scenario has format version {found}; this build reads version {reads}")
            }
            ScenarioError::Topology(m) => write!(f, "invalid topology: {m}"),
            ScenarioError::Input(m) => write!(f, "invalid input log: {m}"),
            ScenarioError::Settings(m) => write!(f, "invalid settings: {m}"),
            ScenarioError::Action { index, message } => write!(f, "action #{} of the script: {message}", index + 1),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Why an action was refused. The state is untouched when this is returned. Names are resolved
/// when the error is made, so it can be worded in either language without the job graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    NoSuchChannel(u16),
    NoSuchTask(u16),
    JobDown,
    JobRunning,
    ChannelEmpty { channel: String },
    ChannelBlocked { channel: String, task: String },
    Backpressured { task: String, channel: String, capacity: u32 },
    NotASource { task: String },
    SourcesPaused { checkpoint: u64 },
    LogExhausted { task: String, records: usize },
    NoCheckpoints { strategy: &'static str },
    NotTimers { strategy: &'static str },
    NothingToDo,
}

impl ActionError {
    pub fn message(&self, lang: Lang) -> String {
        use ActionError::*;
        match (lang, self) {
            (Lang::En, NoSuchChannel(c)) => format!("there is no channel #{c}"),
            (Lang::Zh, NoSuchChannel(c)) => format!("没有编号为 {c} 的通道"),
            (Lang::En, NoSuchTask(t)) => format!("there is no task #{t}"),
            (Lang::Zh, NoSuchTask(t)) => format!("没有编号为 {t} 的任务"),
            (Lang::En, JobDown) => "the job is down; restore it first".into(),
            (Lang::Zh, JobDown) => "作业已停止，请先恢复".into(),
            (Lang::En, JobRunning) => "the job is running; there is nothing to restore".into(),
            (Lang::Zh, JobRunning) => "作业正在运行，没有需要恢复的东西".into(),
            (Lang::En, ChannelEmpty { channel }) => format!("channel {channel} is empty"),
            (Lang::Zh, ChannelEmpty { channel }) => format!("通道 {channel} 是空的"),
            (Lang::En, ChannelBlocked { channel, task }) => format!(
                "channel {channel} is blocked: {task} is aligning barriers and buffers what comes after the barrier"
            ),
            (Lang::Zh, ChannelBlocked { channel, task }) => {
                format!("通道 {channel} 已阻塞：{task} 正在对齐屏障，屏障之后的记录被缓存")
            }
            (Lang::En, Backpressured { task, channel, capacity }) => {
                format!("{task} is backpressured: its output channel {channel} is full ({capacity} items)")
            }
            (Lang::Zh, Backpressured { task, channel, capacity }) => {
                format!("{task} 受到反压：它的输出通道 {channel} 已满（{capacity} 项）")
            }
            (Lang::En, NotASource { task }) => format!("{task} is not a source"),
            (Lang::Zh, NotASource { task }) => format!("{task} 不是数据源"),
            (Lang::En, SourcesPaused { checkpoint }) => {
                format!("sources are paused until stop-the-world checkpoint {checkpoint} completes")
            }
            (Lang::Zh, SourcesPaused { checkpoint }) => format!("数据源已暂停，直到全局暂停检查点 {checkpoint} 完成"),
            (Lang::En, LogExhausted { task, records }) => format!("{task} has read its whole log ({records} records)"),
            (Lang::Zh, LogExhausted { task, records }) => format!("{task} 已读完整个日志（{records} 条记录）"),
            (Lang::En, NoCheckpoints { strategy }) => format!("strategy {strategy} takes no checkpoints"),
            (Lang::Zh, NoCheckpoints { strategy }) => format!("策略 {strategy} 不做检查点"),
            (Lang::En, NotTimers { strategy }) => {
                format!("snapshot timers belong to strategy timers, not {strategy}")
            }
            (Lang::Zh, NotTimers { strategy }) => format!("快照定时器属于 timers 策略，而不是 {strategy}"),
            (Lang::En, NothingToDo) => {
                "nothing left to do: every log is read and every channel is empty or blocked".into()
            }
            (Lang::Zh, NothingToDo) => "无事可做：日志已全部读完，通道都为空或已阻塞".into(),
        }
    }
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ActionError {}
