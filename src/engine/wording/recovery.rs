//! The narration of failure and recovery: a crash and what it destroyed, a restore and what it
//! started from, a region's failover, sources rewinding and in-flight records replayed, and the
//! JobManager's high availability (leadership lost, a standby elected, the job recovered, failed or
//! resubmitted).

use crate::engine::core::action::{CrashScope, Event, RestoreFrom};
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::lang::{say, Lang};

pub(super) fn narrate(e: &Event, g: &JobGraph, lang: Lang) -> Option<String> {
    let t = |id: TaskId| g.task(id).name.as_str();
    let ch = |id: ChannelId| g.channel(id).name.as_str();
    let r = |id: RecordId| g.label(id);
    Some(match *e {
        Event::Crashed { scope, lost_in_flight } => {
            let what = match scope {
                CrashScope::Cluster => {
                    lang.t("The cluster crashed: every task lost its state", "集群崩溃：每个任务都丢失了状态").to_string()
                }
                CrashScope::Task(x) => say!(
                    lang,
                    "{} crashed and lost its state; the job fails over",
                    "{} 崩溃并丢失了状态，作业进行故障转移",
                    t(x)
                ),
                CrashScope::JobManager => lang
                    .t(
                        "The JobManager crashed: its pending checkpoints are lost and the job's tasks are canceled",
                        "JobManager 崩溃：进行中的检查点丢失，作业的任务被取消",
                    )
                    .to_string(),
                CrashScope::Global => lang
                    .t(
                        "The job fails over as a whole: every task is canceled",
                        "整个作业进行故障转移：所有任务都被取消",
                    )
                    .to_string(),
            };
            say!(lang, "{what}; {lost_in_flight} in-flight record(s) vanished.", "{what}；{lost_in_flight} 条在途记录消失了。")
        }
        Event::Restored { from } => match from {
            RestoreFrom::Checkpoint { checkpoint } => say!(
                lang,
                "Restored every task from completed checkpoint {}.",
                "所有任务都从已完成的检查点 {} 恢复。",
                checkpoint.0
            ),
            RestoreFrom::Nothing => lang
                .t("No completed checkpoint: every task restarts empty.", "没有已完成的检查点：每个任务都从空开始。")
                .into(),
            RestoreFrom::OwnSaves => {
                lang.t("Restored each task from its own latest save.", "每个任务都从自己最近一次保存恢复。").into()
            }
            RestoreFrom::Policy => {
                lang.t("Nothing was saved: every task restarts empty.", "什么都没有保存：每个任务都从空开始。").into()
            }
            RestoreFrom::Mechanism(own) => own.words(lang),
        },
        Event::RegionFailedOver { task, tasks, total, lost_in_flight } => say!(
            lang,
            "{} crashed and lost its state; its pipelined region ({tasks} of {total} tasks) fails over while the other tasks keep running; {lost_in_flight} in-flight record(s) of the region vanished.",
            "{} 崩溃并丢失了状态；它所在的流水线区域（{total} 个任务中的 {tasks} 个）进行故障转移，其他任务继续运行；该区域的 {lost_in_flight} 条在途记录消失了。",
            t(task)
        ),
        Event::RegionRestored { from, tasks } => match from {
            RestoreFrom::Checkpoint { checkpoint } => say!(
                lang,
                "Restored the failed region's {tasks} task(s) from completed checkpoint {}; the other tasks kept running and keep their state.",
                "失败区域的 {tasks} 个任务从已完成的检查点 {} 恢复；其他任务一直在运行，保留各自的状态。",
                checkpoint.0
            ),
            RestoreFrom::Nothing => say!(
                lang,
                "No completed checkpoint: the failed region's {tasks} task(s) restart empty; the other tasks kept running.",
                "没有已完成的检查点：失败区域的 {tasks} 个任务从空开始；其他任务一直在运行。"
            ),
            RestoreFrom::OwnSaves => say!(
                lang,
                "Restored each of the failed region's {tasks} task(s) from its own latest save; the other tasks kept running.",
                "失败区域的 {tasks} 个任务各自从最近一次保存恢复；其他任务一直在运行。"
            ),
            RestoreFrom::Policy | RestoreFrom::Mechanism(_) => say!(
                lang,
                "Nothing was saved: the failed region's {tasks} task(s) restart empty; the other tasks kept running.",
                "什么都没有保存：失败区域的 {tasks} 个任务从空开始；其他任务一直在运行。"
            ),
        },
        Event::Rewound { task, offset } => {
            say!(lang, "{} resumes reading at offset {offset}.", "{} 从偏移量 {offset} 继续读取。", t(task))
        }
        Event::Replayed { channel, record } => say!(
            lang,
            "In-flight {} goes back on {} to be delivered first.",
            "在途记录 {} 被放回 {}，最先投递。",
            r(record),
            ch(channel)
        ),
        Event::LeadershipLost { leader, standby, checkpoint } => {
            let (leader, standby) = (leader.letter(), standby.letter());
            match checkpoint {
                Some(c) => say!(
                    lang,
                    "JobManager {leader} lost its leadership. The HA store still holds the job graph and the pointer to completed checkpoint {}; standby {standby} will win the election.",
                    "JobManager {leader} 失去了领导权。HA 存储里仍有作业图和指向已完成检查点 {} 的指针；备用的 {standby} 将赢得选举。",
                    c.0
                ),
                None => say!(
                    lang,
                    "JobManager {leader} lost its leadership. The HA store still holds the job graph (no checkpoint has completed yet); standby {standby} will win the election.",
                    "JobManager {leader} 失去了领导权。HA 存储里仍有作业图（还没有已完成的检查点）；备用的 {standby} 将赢得选举。"
                ),
            }
        }
        Event::LeaderElected { leader, previous } => say!(
            lang,
            "JobManager {} won the leader election and leads now; {} comes back as its standby.",
            "JobManager {} 赢得了 Leader 选举，成为新的 Leader；{} 重启后作为它的备用。",
            leader.letter(),
            previous.letter()
        ),
        Event::JobRecovered { checkpoint, next_id } => match checkpoint {
            Some(c) => say!(
                lang,
                "It read the job graph and the pointer to completed checkpoint {} from the HA store; the checkpoint id counter, kept there too, continues at {}.",
                "它从 HA 存储读取了作业图和指向已完成检查点 {} 的指针；同样保存在那里的检查点编号计数器从 {} 继续。",
                c.0,
                next_id.0
            ),
            None => say!(
                lang,
                "It read the job graph from the HA store, which points to no completed checkpoint; the checkpoint id counter continues at {}.",
                "它从 HA 存储读取了作业图，其中没有指向任何已完成检查点的指针；检查点编号计数器从 {} 继续。",
                next_id.0
            ),
        },
        Event::JobFailed { retained, discarded } => match retained {
            Some(c) => say!(
                lang,
                "Without high availability the job fails with its JobManager: only its memory knew the completed checkpoints. Checkpoint {} was externalized and stays in storage for a resubmission.",
                "没有高可用时，作业随 JobManager 一起失败：只有它的内存知道已完成的检查点。检查点 {} 是外部化保留的，留在存储中以便重新提交。",
                c.0
            ),
            None if discarded > 0 => say!(
                lang,
                "Without high availability the job fails with its JobManager: only its memory knew the completed checkpoints, and they were not externalized, so {discarded} completed checkpoint(s) went with the job.",
                "没有高可用时，作业随 JobManager 一起失败：只有它的内存知道已完成的检查点，而它们没有外部化保留，于是 {discarded} 个已完成的检查点随作业一起消失了。"
            ),
            None => lang
                .t(
                    "Without high availability the job fails with its JobManager; no checkpoint had completed.",
                    "没有高可用时，作业随 JobManager 一起失败；此前没有已完成的检查点。",
                )
                .into(),
        },
        Event::JobManagerStarted => lang
            .t(
                "A new JobManager started. Without high availability it knows nothing of the failed job: the job must be submitted again (restore).",
                "新的 JobManager 启动了。没有高可用，它对失败的作业一无所知：作业必须重新提交（恢复）。",
            )
            .into(),
        Event::JobResubmitted { submission, from, next_id } => match from {
            Some(c) => say!(
                lang,
                "The job was submitted again, as a new job (submission {submission}), from retained checkpoint {}; as a new job its checkpoint ids continue at {}.",
                "作业作为一个新作业（第 {submission} 次提交）从保留的检查点 {} 重新提交；作为新作业，它的检查点编号从 {} 继续。",
                c.0,
                next_id.0
            ),
            None => say!(
                lang,
                "The job was submitted again, as a new job (submission {submission}), from nothing: no checkpoint was retained. Its checkpoint ids start again at {}.",
                "作业作为一个新作业（第 {submission} 次提交）从零开始重新提交：没有保留任何检查点。它的检查点编号重新从 {} 开始。",
                next_id.0
            ),
        },
        _ => return None,
    })
}
