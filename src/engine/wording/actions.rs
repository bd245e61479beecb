//! The short name of an action, as the event log, the runner and a refusal show it ("deliver
//! Source->Map", "投递 Source->Map").

use crate::engine::core::action::Action;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::ids::TaskId;
use crate::engine::core::lang::{say, Lang};

/// A short name for an action ("deliver Source->Map", "投递 Source->Map"); an id the job graph
/// doesn't have is named "?".
pub fn describe(g: &JobGraph, a: &Action, lang: Lang) -> String {
    let task = |t: TaskId| g.tasks.get(t.index()).map_or("?", |t| t.name.as_str());
    match *a {
        Action::Deliver { channel } => {
            let channel = g.channels.get(channel.index()).map_or("?", |c| c.name.as_str());
            say!(lang, "deliver {channel}", "投递 {channel}")
        }
        Action::Read { task: t } => say!(lang, "read {}", "让 {} 读取", task(t)),
        Action::Checkpoint => lang.t("checkpoint", "触发检查点").into(),
        Action::Timer { task: t } => say!(lang, "fire {}'s timer", "触发 {} 的定时器", task(t)),
        Action::AllTimers => lang.t("fire all timers", "触发全部定时器").into(),
        Action::Crash => lang.t("crash the cluster", "使集群崩溃").into(),
        Action::CrashTask { task: t } => say!(lang, "crash {}", "使 {} 崩溃", task(t)),
        Action::CrashJobManager => lang.t("crash the JobManager", "使 JobManager 崩溃").into(),
        Action::Restore => lang.t("restore", "恢复").into(),
        Action::Notify { task: t } => {
            say!(lang, "notify {} (checkpoint complete)", "把检查点完成通知送达 {}", task(t))
        }
        Action::Mechanism { step } => crate::engine::mechanisms::step_words(step, task(step.task), lang),
        Action::Auto => lang.t("take an auto step", "自动单步").into(),
        Action::Wait => lang.t("wait one step", "等待一步").into(),
        Action::CutOff { .. } | Action::ZombieWrite { .. } | Action::PassTime { .. } => {
            use crate::engine::core::dataflow::kafka::faults::KafkaFault;
            match a.kafka_fault().expect("a Kafka fault") {
                KafkaFault::CutOff { task: t } => {
                    say!(lang, "cut {} off from the JobManager (a zombie)", "让 {} 与 JobManager 断开（僵尸）", task(t))
                }
                KafkaFault::ZombieWrite { task: t } => say!(lang, "the zombie of {} writes", "{} 的僵尸写入", task(t)),
                KafkaFault::PassTime { ms } => say!(lang, "{ms} ms pass on the broker", "broker 上过去 {ms} 毫秒"),
            }
        }
        Action::Savepoint | Action::StopWithSavepoint | Action::Cancel | Action::Resume { .. } => {
            crate::engine::program::savepoint_wording::describe(a, lang).unwrap_or_default()
        }
    }
}
