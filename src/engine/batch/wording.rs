//! The batch words in English and Chinese: the narration of each event, the actions, the
//! refusals and the reasons a batch text could not be opened.

use super::action::{BatchAction, Refusal};
use super::format::BatchLoadError;
use super::hadoop::{HadoopEvent, TaskName};
use super::lineage::Lineage;
use super::run::{BatchEvent, BatchSim};
use super::spark::{Source, SparkEvent};
use crate::engine::core::lang::say;
use crate::engine::Lang;

/// "step", "the running task fails", "node 1 is lost", "executor 0 is lost".
pub fn action_name(l: Lang, a: BatchAction, hadoop: bool) -> String {
    match a {
        BatchAction::Step => l.t("Step", "单步").into(),
        BatchAction::FailTask => l.t("The running task fails", "正在运行的任务失败").into(),
        BatchAction::Crash(n) if hadoop => say!(l, "Node {n} is lost", "节点 {n} 丢失"),
        BatchAction::Crash(n) => say!(l, "Executor {n} is lost", "执行器 {n} 丢失"),
    }
}

pub fn refusal(l: Lang, r: Refusal, hadoop: bool) -> String {
    match r {
        Refusal::Done => l.t("The job is done: nothing is left to run.", "作业已完成：没有要运行的了。").into(),
        Refusal::NoRunningTask => {
            l.t("No task is running, so none can fail.", "没有正在运行的任务，无法让它失败。").into()
        }
        Refusal::NoSuchMachine(n) if hadoop => say!(l, "There is no node {n}.", "没有节点 {n}。"),
        Refusal::NoSuchMachine(n) => say!(l, "There is no executor {n}.", "没有执行器 {n}。"),
        Refusal::AlreadyDown(n) => say!(l, "Node {n} is already lost.", "节点 {n} 已经丢失。"),
        Refusal::Aborted => l
            .t(
                "The job failed: a task failed spark.task.maxFailures (4) times. Nothing is left to run.",
                "作业已失败：有个任务失败了 spark.task.maxFailures（4）次。没有要运行的了。",
            )
            .into(),
        Refusal::LastNode => l
            .t(
                "That is the last live node: the job would have nowhere to run.",
                "这是最后一个存活的节点：作业将无处运行。",
            )
            .into(),
    }
}

pub fn load_error(l: Lang, e: &BatchLoadError) -> String {
    match e {
        BatchLoadError::TooLarge(n) => {
            say!(l, "The batch run is too large ({n} bytes).", "批处理运行太大（{n} 字节）。")
        }
        BatchLoadError::Encoding => l
            .t(
                "The link's batch run is damaged (not base64url text).",
                "链接中的批处理运行已损坏（不是 base64url 文本）。",
            )
            .into(),
        BatchLoadError::Json(m) => say!(l, "This is not a batch run: {m}.", "这不是批处理运行：{m}。"),
        BatchLoadError::Version(v) => say!(
            l,
            "Batch format version {v} is not one this page reads (it reads 1).",
            "本页面读不了第 {v} 版批处理格式（只读第 1 版）。"
        ),
        BatchLoadError::Job(m) => say!(l, "The batch job is not valid: {m}.", "批处理作业无效：{m}。"),
        BatchLoadError::TooManyActions(n) => say!(l, "Too many actions ({n}).", "动作太多（{n} 个）。"),
        BatchLoadError::UnknownAction { index, code } => {
            say!(l, "Action {} ({code:?}) is not an action.", "第 {} 个动作（{code:?}）不是动作。", index + 1)
        }
        BatchLoadError::Refused { index, code, why } => say!(
            l,
            "Action {} ({code}) was refused: {}",
            "第 {} 个动作（{code}）被拒绝：{}",
            index + 1,
            refusal(l, *why, false)
        ),
        BatchLoadError::Playhead { at, len } => {
            say!(l, "The playhead {at} is past the {len} actions.", "播放位置 {at} 超出了 {len} 个动作。")
        }
        BatchLoadError::Lesson(m) => say!(l, "The lesson position is not valid: {m}.", "课程位置无效：{m}。"),
    }
}

/// "stage 0 (shuffle map)" or "stage 1 (result)".
pub fn stage_name(l: Lang, lineage: &Lineage, s: usize) -> String {
    if s + 1 == lineage.stages.len() {
        say!(l, "stage {s} (result)", "阶段 {s}（结果）")
    } else {
        say!(l, "stage {s} (shuffle map)", "阶段 {s}（shuffle map）")
    }
}

fn names(lineage: &Lineage, parts: &[(usize, u8)]) -> String {
    parts.iter().map(|&(r, p)| lineage.name(r, p)).collect::<Vec<_>>().join(" ")
}

/// One event as a sentence.
pub fn narrate(l: Lang, sim: &BatchSim, ev: &BatchEvent) -> String {
    match (sim, ev) {
        (_, BatchEvent::Hadoop(e)) => hadoop(l, e),
        (BatchSim::Spark(s), BatchEvent::Spark(e)) => spark(l, &s.lineage, e),
        (BatchSim::Hadoop(_), BatchEvent::Spark(_)) => String::new(),
    }
}

fn hadoop(l: Lang, e: &HadoopEvent) -> String {
    match e {
        HadoopEvent::Started { task: TaskName::Map(i), node, attempt, records } => say!(
            l,
            "Map M{i} (attempt {attempt}) started on node {node}: it read split S{i} from HDFS ({records} lines) and mapped it.",
            "Map 任务 M{i}（第 {attempt} 次尝试）在节点 {node} 上启动：从 HDFS 读取分片 S{i}（{records} 行）并执行 map。"
        ),
        HadoopEvent::Started { task: TaskName::Reduce(j), node, attempt, records } => say!(
            l,
            "Reduce R{j} (attempt {attempt}) started on node {node}: the shuffle fetched its partition of every map output from the mappers' local disks ({records} records).",
            "Reduce 任务 R{j}（第 {attempt} 次尝试）在节点 {node} 上启动：shuffle 从各 mapper 的本地磁盘取来每个 map 输出中属于它的分区（{records} 条记录）。"
        ),
        HadoopEvent::MapWritten { map, node, records } => say!(
            l,
            "M{map} finished: its output ({records} records, partitioned by reduce) is on node {node}'s local disk, not in HDFS.",
            "M{map} 完成：它的输出（{records} 条记录，按 reduce 分区）写在节点 {node} 的本地磁盘上，而不是 HDFS。"
        ),
        HadoopEvent::ReduceCommitted { reduce, node, records } => say!(
            l,
            "R{reduce} finished on node {node}: it committed part-r-0000{reduce} ({records} words) to HDFS.",
            "R{reduce} 在节点 {node} 上完成：把 part-r-0000{reduce}（{records} 个词）提交到 HDFS。"
        ),
        HadoopEvent::TaskFailed { task, node } => say!(
            l,
            "{} failed on node {node}. Only this task runs again; the finished map outputs stay on their disks.",
            "{} 在节点 {node} 上失败。只有这个任务重跑；已完成的 map 输出仍在各自的磁盘上。",
            task.label()
        ),
        HadoopEvent::NodeLost { node, killed, lost_outputs, rerun } => {
            let killed = killed.map(|t| t.label());
            let maps = lost_outputs.iter().map(|i| format!("M{i}")).collect::<Vec<_>>().join(", ");
            let first = match &killed {
                Some(t) => say!(l, "Node {node} was lost, and {t} with it. ", "节点 {node} 丢失，{t} 随之失败。"),
                None => say!(l, "Node {node} was lost. ", "节点 {node} 丢失。"),
            };
            let second = match (lost_outputs.is_empty(), rerun) {
                (true, _) => l.t("Its local disk held no map output.", "它的本地磁盘上没有 map 输出。").to_string(),
                (false, true) => say!(
                    l,
                    "Its local disk held the output of {maps}: those maps run again on another node. Committed reduce output is in HDFS and stays.",
                    "它的本地磁盘上有 {maps} 的输出：这些 map 要在别的节点上重跑。已提交的 reduce 输出在 HDFS 中，不受影响。"
                ),
                (false, false) => say!(
                    l,
                    "The output of {maps} went with it, but every reduce has committed: nothing needs it.",
                    "{maps} 的输出随之丢失，但所有 reduce 都已提交：没有任务还需要它。"
                ),
            };
            first + &second
        }
        HadoopEvent::JobDone => l
            .t(
                "Every task succeeded and every reduce committed: the job commits and is done.",
                "所有任务都已成功，所有 reduce 都已提交：作业提交，完成。",
            )
            .into(),
    }
}

fn spark(l: Lang, g: &Lineage, e: &SparkEvent) -> String {
    match e {
        SparkEvent::Resubmitted { stage, parts } => {
            let parts: Vec<String> = parts.iter().map(|&p| g.name(g.stages[*stage].last, p)).collect();
            say!(
                l,
                "The DAGScheduler resubmits {} for its missing partitions only: {}.",
                "DAGScheduler 重新提交{}，只提交缺失的分区：{}。",
                stage_name(l, g, *stage),
                parts.join(" ")
            )
        }
        SparkEvent::Started { stage, part, exec, attempt, from, source } => {
            let target = g.name(g.stages[*stage].last, *part);
            let start = g.name(*from, *part);
            let how = match source {
                Source::Input => say!(l, "from the input split of {start}", "从 {start} 的输入分片开始"),
                Source::Shuffle => say!(l, "from the shuffle, to make {start}", "从 shuffle 开始，计算 {start}"),
                Source::Memory(e) => say!(
                    l,
                    "from {start}, persisted in executor {e}'s memory",
                    "从执行器 {e} 内存中持久化的 {start} 开始"
                ),
                Source::Checkpoint => {
                    say!(l, "from {start}, checkpointed in reliable storage", "从可靠存储中检查点的 {start} 开始")
                }
            };
            say!(
                l,
                "Task for {target} (attempt {attempt}, {}) started on executor {exec}, {how}.",
                "计算 {target} 的任务（第 {attempt} 次尝试，{}）在执行器 {exec} 上启动，{how}。",
                stage_name(l, g, *stage)
            )
        }
        SparkEvent::Computed { rdd, part, exec, records, again, fetched } => {
            let name = g.name(*rdd, *part);
            let how = match (fetched, *rdd) {
                (Some(n), _) => say!(l, "from its bucket of {n} map outputs", "从 {n} 个 map 输出中属于它的桶"),
                (None, 0) => l.t("from the input", "从输入").to_string(),
                (None, r) => say!(l, "from {} ({})", "由 {}（{}）", g.name(r - 1, *part), g.rdds[r].op.call()),
            };
            match again {
                true => say!(
                    l,
                    "Recomputed {name} on executor {exec} {how}: {records} records.",
                    "在执行器 {exec} 上{how}重新计算 {name}：{records} 条记录。"
                ),
                false => say!(
                    l,
                    "Computed {name} on executor {exec} {how}: {records} records.",
                    "在执行器 {exec} 上{how}计算 {name}：{records} 条记录。"
                ),
            }
        }
        SparkEvent::ReadMemory { rdd, part, exec } => say!(
            l,
            "Read {} from executor {exec}'s memory (persist): the climb stops here.",
            "从执行器 {exec} 的内存读取 {}（persist）：回溯到此为止。",
            g.name(*rdd, *part)
        ),
        SparkEvent::ReadCheckpoint { rdd, part } => say!(
            l,
            "Read {} from its checkpoint in reliable storage: the lineage is cut here.",
            "从可靠存储中的检查点读取 {}：血统在此截断。",
            g.name(*rdd, *part)
        ),
        SparkEvent::Persisted { rdd, part, exec } => say!(
            l,
            "persist(): {} stays in executor {exec}'s memory (MEMORY_ONLY).",
            "persist()：{} 留在执行器 {exec} 的内存中（MEMORY_ONLY）。",
            g.name(*rdd, *part)
        ),
        SparkEvent::Checkpointed { rdd, part } => say!(
            l,
            "The checkpoint job wrote {} to reliable storage.",
            "检查点作业把 {} 写入了可靠存储。",
            g.name(*rdd, *part)
        ),
        SparkEvent::ActionDone { action } => say!(
            l,
            "Action {} returned: its output is written.",
            "第 {} 个 action 返回：它的输出已写入。",
            action + 1
        ),
        SparkEvent::CheckpointJob { rdd } => say!(
            l,
            "doCheckpoint(): only now, after the action, a second job writes {} to reliable storage; it computes it again (unless it is persisted). Until it is done, no checkpoint file exists and the lineage is whole.",
            "doCheckpoint()：直到现在，action 结束之后，才由第二个作业把 {} 写入可靠存储；它要再算一遍（除非已 persist）。写完之前没有检查点文件，血统是完整的。",
            g.rdds[*rdd].name
        ),
        SparkEvent::LineageCut { rdd } => say!(
            l,
            "Every partition of {} is in reliable storage: its lineage is cut there (markCheckpointed). A later action reads it from there.",
            "{} 的每个分区都在可靠存储中：血统在此截断（markCheckpointed）。之后的 action 从那里读取。",
            g.rdds[*rdd].name
        ),
        SparkEvent::ActionStarted { action } => say!(
            l,
            "Action {} submits its job; a stage whose shuffle outputs are still registered is skipped.",
            "第 {} 个 action 提交作业；shuffle 输出仍然登记在案的阶段会被跳过。",
            action + 1
        ),
        SparkEvent::ShuffleWritten { stage, part, exec } => say!(
            l,
            "The shuffle output of {} is a file on executor {exec}, registered with the MapOutputTracker.",
            "{} 的 shuffle 输出是执行器 {exec} 上的文件，已在 MapOutputTracker 登记。",
            g.name(g.stages[*stage].last, *part)
        ),
        SparkEvent::ResultWritten { part, records } => say!(
            l,
            "{} written to the job's output ({records} words).",
            "{} 写入作业输出（{records} 个词）。",
            g.name(g.rdds.len() - 1, *part)
        ),
        SparkEvent::FetchFailed { stage, part, missing } => {
            let parent = g.stages[stage - 1].last;
            let lost: Vec<String> = missing.iter().map(|&p| g.name(parent, p)).collect();
            say!(
                l,
                "FetchFailed: the task for {} found the shuffle output of {} missing, so {} fails; its parent stage runs again for those partitions only.",
                "FetchFailed：计算 {} 的任务发现 {} 的 shuffle 输出不见了，于是{}失败；父阶段只为这些分区重跑。",
                g.name(g.stages[*stage].last, *part),
                lost.join(" "),
                stage_name(l, g, *stage)
            )
        }
        SparkEvent::TaskFailed { stage, part, exec } => say!(
            l,
            "The task for {} failed on executor {exec}; the executor lives on, with what it keeps in memory.",
            "计算 {} 的任务在执行器 {exec} 上失败；执行器仍在，内存中保存的也还在。",
            g.name(g.stages[*stage].last, *part)
        ),
        SparkEvent::ExecutorLost { exec, killed, memory, shuffle } => {
            let mut s = say!(
                l,
                "Executor {exec} was lost; a fresh one takes its place.",
                "执行器 {exec} 丢失；新的执行器取而代之。"
            );
            if let Some((st, p)) = killed {
                s += &say!(
                    l,
                    " Its task for {} died with it.",
                    " 它正在计算 {} 的任务随之失败。",
                    g.name(g.stages[*st].last, *p)
                );
            }
            if !memory.is_empty() {
                s += &say!(
                    l,
                    " Persisted in its memory and gone: {}.",
                    " 它内存中持久化的分区也没了：{}。",
                    names(g, memory)
                );
            }
            let outs: Vec<(usize, u8)> = shuffle.iter().map(|&(st, p)| (g.stages[st].last, p)).collect();
            if !outs.is_empty() {
                s += &say!(
                    l,
                    " Shuffle outputs on it, unregistered: {}.",
                    " 它上面的 shuffle 输出被注销：{}。",
                    names(g, &outs)
                );
            }
            s
        }
        SparkEvent::JobAborted { stage, part, failures } => say!(
            l,
            "The task for {} has failed {failures} times (spark.task.maxFailures): the TaskSetManager aborts {}, and the job fails. Its output is never committed: nothing is written.",
            "计算 {} 的任务已失败 {failures} 次（spark.task.maxFailures）：TaskSetManager 中止{}，作业失败。它的输出从未提交：什么也没写出。",
            g.name(g.stages[*stage].last, *part),
            stage_name(l, g, *stage)
        ),
        SparkEvent::JobDone => {
            l.t("Every output partition is written: the job is done.", "所有输出分区都已写入：作业完成。").into()
        }
    }
}
