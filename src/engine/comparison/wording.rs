//! The comparison's words, English and Chinese side by side: what a crash place means under each
//! mechanism. The action is the same in every run ([`CrashPlace::action`]); what it takes down is
//! the mechanism's, and the cost table says so beside its column.

use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::lang::{say, Lang};
use crate::engine::settings::{HighAvailability, Setting, Settings};

use super::format::CrashPlace;

/// What a crash of `place` takes down under `settings`' mechanism, with the action it is: the
/// mechanism's own words where its row has them (Storm's one worker, Spark's driver and
/// executors), Flink's otherwise.
pub fn crash_meaning(place: &CrashPlace, settings: &Settings, graph: &JobGraph, lang: Lang) -> String {
    if let Some(words) = place.action(graph).ok().and_then(|a| settings.strategy.crash_words(&a, graph, lang)) {
        return words;
    }
    match place {
        CrashPlace::Cluster => {
            lang.t("crash: every TaskManager dies, and every task with it", "crash：所有 TaskManager 宕机，所有任务随之失败").into()
        }
        CrashPlace::Master if settings.strategy.takes(Setting::HighAvailability) => match settings.high_availability {
            HighAvailability::Standby => lang
                .t(
                    "crash-job-manager: the JobManager fails; a standby wins the election at the restore",
                    "crash-job-manager：JobManager 故障；恢复时备用 JobManager 赢得选举",
                )
                .into(),
            HighAvailability::None => lang
                .t(
                    "crash-job-manager: the JobManager fails, and the job with it (no HA): a new JobManager, then a resubmission",
                    "crash-job-manager：JobManager 故障，作业随之失败（无高可用）：先启动新的 JobManager，再重新提交作业",
                )
                .into(),
        },
        CrashPlace::Master => lang
            .t("crash-job-manager: the JobManager fails, and the tasks with it", "crash-job-manager：JobManager 故障，任务随之停止")
            .into(),
        CrashPlace::WorkerRunning(name) => say!(
            lang,
            "crash-task {}: the task fails and the job fails over ({} failover)",
            "crash-task {}：该任务失败，作业进行故障转移（{} 故障转移）",
            name,
            settings.failover_strategy.id()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::builtin;
    use crate::engine::settings::Strategy;

    /// Every place under every strategy is worded in both languages, naming its action.
    #[test]
    fn every_place_means_something_under_every_strategy() {
        let b = builtin("line-sink").unwrap();
        let g = JobGraph::build(&b.spec, &b.input).unwrap();
        for place in [CrashPlace::Cluster, CrashPlace::Master, CrashPlace::WorkerRunning("Count".into())] {
            let action = match place.action(&g).unwrap() {
                crate::engine::Action::Crash => "crash",
                crate::engine::Action::CrashJobManager => "crash-job-manager",
                _ => "crash-task Count",
            };
            for strategy in Strategy::ALL {
                let s = Settings::new(strategy);
                let (en, zh) = (crash_meaning(&place, &s, &g, Lang::En), crash_meaning(&place, &s, &g, Lang::Zh));
                assert!(en.starts_with(action) && zh.starts_with(action), "{place:?} {strategy:?}: {en} / {zh}");
                assert_ne!(en, zh);
            }
        }
    }
}
