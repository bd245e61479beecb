//! The export's limits (how simulator steps become milliseconds, what a run may ask of Flink) and
//! its refusals: why a run has no PyFlink counterpart, in English and Chinese ([`ExportError`]).

use std::fmt;

use crate::engine::core::error::ScenarioError;
use crate::engine::core::lang::{say, Lang};
use crate::engine::jobmanager::stats::FailureCause;
use crate::engine::settings::{SinkMode, Strategy};

/// Milliseconds each source waits before each record: checkpoints then fall between records, as
/// with a source that waits for its input, rather than after all of them.
pub const PACE_MS: u64 = 30;
/// Milliseconds per simulator step, for the checkpoint interval and the alignment timeout.
pub const STEP_MS: u64 = 10;
/// The shortest and longest checkpoint interval the export uses, in milliseconds.
pub const INTERVAL_MS: (u64, u64) = (300, 10_000);
/// The interval when the scenario triggers its checkpoints by hand.
pub const BY_HAND_INTERVAL_MS: u64 = 500;
/// PyFlink's bundle size in the export: each record goes through a Python operator on its own.
pub const BUNDLE_SIZE: u32 = 1;

/// Why a scenario can't be exported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportError {
    /// The scenario itself does not build or play.
    Scenario(ScenarioError),
    /// A strategy Flink has no mode for.
    Strategy(Strategy),
    /// Strategy `none` restarting from the latest offsets.
    RestartFromLatest,
    /// Sources on a socket.
    Socket,
    /// Spark Streaming's transactional output.
    SinkMode(SinkMode),
    /// A broadcast edge into a keyed count or sum.
    BroadcastIntoKeyed { operator: String },
    /// A source with an empty input log.
    EmptySource { operator: String },
    /// A failure a job can't inject into itself: the JobManager, or too many failed checkpoints.
    Failure(FailureCause),
    /// More than one failure: the export injects one.
    MoreThanOneFailure { failures: usize },
    /// A savepoint, a stop, a cancellation or a new submission: the export runs one job once.
    JobControl,
}

impl ExportError {
    /// A short stable name for the kind of refusal (tests and the README use it).
    pub fn id(&self) -> &'static str {
        match self {
            ExportError::Scenario(_) => "scenario",
            ExportError::Strategy(_) => "strategy",
            ExportError::RestartFromLatest => "restart-from-latest",
            ExportError::Socket => "socket",
            ExportError::SinkMode(_) => "sink",
            ExportError::BroadcastIntoKeyed { .. } => "broadcast-into-keyed",
            ExportError::EmptySource { .. } => "empty-source",
            ExportError::Failure(_) => "failure",
            ExportError::MoreThanOneFailure { .. } => "more-than-one-failure",
            ExportError::JobControl => "job-control",
        }
    }

    /// Why, in one sentence.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            ExportError::Scenario(e) => say!(lang, "the scenario is invalid: {e}", "场景无效：{e}"),
            ExportError::JobControl => lang
                .t(
                    "a scenario with a savepoint, a stop, a cancellation or a new submission can't be exported to PyFlink: the exported job runs once, from start to end",
                    "含保存点、停止、取消或重新提交的场景无法导出到 PyFlink：导出的作业从头到尾只运行一次",
                )
                .into(),
            ExportError::Strategy(s) => {
                let why = match s.row().pyflink {
                    Err(why) => why.get(lang),
                    Ok(()) => lang.t("Flink has no such mode", "Flink 没有这种模式"),
                };
                say!(lang, "strategy {} can't be exported to PyFlink: {why}", "策略 {} 无法导出到 PyFlink：{why}", s.id())
            }
            ExportError::RestartFromLatest => lang
                .t(
                    "restart from-latest can't be exported to PyFlink: without checkpoints a Flink source restarts from the beginning",
                    "restart 为 from-latest 的场景无法导出到 PyFlink：没有检查点时 Flink 的数据源从头重读",
                )
                .into(),
            ExportError::Socket => lang
                .t(
                    "a socket source can't be exported to PyFlink: the exported job needs a replayable source to check a restore against",
                    "套接字数据源无法导出到 PyFlink：导出的作业需要可重放的数据源，才能检验恢复",
                )
                .into(),
            ExportError::SinkMode(SinkMode::Kafka) => lang
                .t(
                    "a Kafka sink can't be exported to PyFlink here: the exported job runs on its own, and no Kafka broker is reachable from it. To try the story on your own broker, give the job a KafkaSink with DeliveryGuarantee.EXACTLY_ONCE, a transactional id prefix and a transaction.timeout.ms within the broker's transaction.max.timeout.ms, and read the topic with isolation.level=read_committed",
                    "Kafka sink 无法在这里导出到 PyFlink：导出的作业独立运行，连不到任何 Kafka broker。要在你自己的 broker 上试这个故事，请给作业一个 KafkaSink：DeliveryGuarantee.EXACTLY_ONCE、事务 id 前缀、不超过 broker 的 transaction.max.timeout.ms 的 transaction.timeout.ms，并用 isolation.level=read_committed 读取主题",
                )
                .into(),
            ExportError::SinkMode(m) => {
                // The systems whose output it is: the rows that take a transactional sink.
                let whose: Vec<&str> = Strategy::ALL
                    .into_iter()
                    .filter(|s| s.row().transactional_sink)
                    .map(|s| s.name(lang))
                    .collect();
                let whose = whose.join(lang.t(" or ", "或"));
                say!(
                    lang,
                    "sink {} can't be exported to PyFlink: it is {whose}'s output",
                    "sink {} 无法导出到 PyFlink：它是 {whose} 的输出",
                    m.id()
                )
            }
            ExportError::BroadcastIntoKeyed { operator } => say!(
                lang,
                "the broadcast edge into {operator} can't be exported to PyFlink: Flink keeps keyed state only on a keyed stream",
                "进入 {operator} 的广播边无法导出到 PyFlink：Flink 只在按键分区的流上保存键控状态"
            ),
            ExportError::EmptySource { operator } => say!(
                lang,
                "source {operator} has an empty log; the exported job needs at least one record per source",
                "数据源 {operator} 的日志为空；导出的作业要求每个数据源至少有一条记录"
            ),
            ExportError::Failure(cause) => {
                let what = match cause {
                    FailureCause::TooManyFailedCheckpoints => {
                        lang.t("a failover after too many failed checkpoints", "检查点连续失败过多引起的故障转移")
                    }
                    _ => lang.t("a JobManager failure", "JobManager 故障"),
                };
                say!(
                    lang,
                    "{what} can't be exported to PyFlink: the exported job injects its failure by raising in a task",
                    "{what}无法导出到 PyFlink：导出的作业只能在任务中抛出异常来注入故障"
                )
            }
            ExportError::MoreThanOneFailure { failures } => say!(
                lang,
                "the scenario fails {failures} times; the exported job injects one failure",
                "该场景故障 {failures} 次；导出的作业只注入一次故障"
            ),
        }
    }
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ExportError {}

impl From<ScenarioError> for ExportError {
    fn from(e: ScenarioError) -> Self {
        ExportError::Scenario(e)
    }
}
