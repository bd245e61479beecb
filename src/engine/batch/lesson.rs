//! The batch lesson, "Batch: re-run the task, recompute the lineage": Hadoop re-runs a failed task
//! and a lost node's maps; Spark recomputes a lost partition from its lineage, `persist` and
//! `checkpoint` cut the climb short, and a micro-batch recovers the same way. Each step sets the
//! run to a built-in job with a script of actions from its start, so a step is the same run
//! however the learner got there. One step asks for a prediction: which partitions will be
//! recomputed. Where the article and the systems disagree, the lesson follows the systems and says
//! so (steps 8, 9 and 10, counted from 0; step 11 shows `checkpoint()`, written by a second job
//! after the action, helping a later action).

use super::action::BatchAction;
use super::jobs::batch_job;
use super::lineage::Keep;
use super::run::BatchRun;

/// One step of the lesson.
#[derive(Clone, Copy, Debug)]
pub struct BatchStep {
    pub title: (&'static str, &'static str),
    pub say: (&'static str, &'static str),
    /// Said after the reveal (predict steps only).
    pub reveal: (&'static str, &'static str),
    pub job: &'static str,
    pub keep: &'static [(usize, Keep)],
    /// How many actions the Spark program calls on the last RDD (1 or 2).
    pub actions: u8,
    /// Action codes from the job's start.
    pub script: &'static str,
    /// Step on to the end of the job after the script.
    pub to_end: bool,
    /// Ask which partitions will be recomputed, before running on.
    pub predict: bool,
}

/// The lesson's title.
pub const LESSON_TITLE: (&str, &str) =
    ("Batch: re-run the task, recompute the lineage", "批处理：重跑任务，按血统重算");

const NO: &[(usize, Keep)] = &[];
const MAPS: &str = "s s s s s s";
const R0_FAILS: &str = "s s s s s s s f";
const NODE_LOST: &str = "s s s s s s s f s s c1";
const STAGE0_P10: &str = "s s s s s s s s s";
const E0_LOST: &str = "s s s s s s s s s c0";
/// Two actions with P0 checkpointed: the first action (12 steps), the checkpoint job (8), then
/// the second action's task for P10, and executor 0 lost while it runs.
const E0_LOST_SECOND_ACTION: &str = "s s s s s s s s s s s s s s s s s s s s s c0";

const fn step(title: (&'static str, &'static str), say: (&'static str, &'static str)) -> BatchStep {
    BatchStep {
        title,
        say,
        reveal: ("", ""),
        job: "hadoop-wordcount",
        keep: NO,
        actions: 1,
        script: "",
        to_end: false,
        predict: false,
    }
}

pub const BATCH_LESSON: [BatchStep; 14] = [
    step(
        ("A MapReduce job", "一个 MapReduce 作业"),
        ("A word count in Hadoop. Three map tasks each read an input split from HDFS and write their output, partitioned by reduce, to their node's local disk. Two reduce tasks fetch their partition from every map output (the shuffle) and commit their output to HDFS. Step through it: a step starts a task or finishes it.",
         "Hadoop 里的词频统计。三个 map 任务各从 HDFS 读取一个输入分片，把按 reduce 分区的输出写到所在节点的本地磁盘。两个 reduce 任务从每个 map 输出中取来属于自己的分区（shuffle），再把结果提交到 HDFS。单步执行：每一步启动或结束一个任务。"),
    ),
    BatchStep {
        script: MAPS,
        ..step(("The maps ran", "map 任务都跑完了"),
            ("Every map finished. Their outputs sit on the nodes' local disks: as good as a saved intermediate result, as the article says.",
             "所有 map 都完成了。它们的输出留在各节点的本地磁盘上：正如文章所说，相当于把中间结果持久化了。"))
    },
    BatchStep {
        script: R0_FAILS,
        ..step(("A reduce fails", "一个 reduce 失败"),
            ("R0 fetched its partition and then failed. Step on: R0 runs again as a new attempt, and no map runs again, because the map outputs are still on the disks.",
             "R0 取到了自己的分区后失败了。继续单步：R0 以新的尝试重跑，没有任何 map 重跑，因为 map 输出还在磁盘上。"))
    },
    BatchStep {
        script: NODE_LOST,
        ..step(("A node is lost", "一个节点丢失"),
            ("R0 committed its output to HDFS. Then node 1 was lost, and its local disk with it: M1's output is gone, and R1 still needs it. So M1 runs again, on another node. R0 does not: its output is in HDFS.",
             "R0 把输出提交到了 HDFS。随后节点 1 丢失，连同它的本地磁盘：M1 的输出没了，而 R1 还需要它。所以 M1 要在别的节点上重跑。R0 不用：它的输出在 HDFS 中。"))
    },
    BatchStep {
        script: NODE_LOST,
        to_end: true,
        ..step(("What it cost", "代价"),
            ("The job is done. Count the task runs against the failure-free run: one more R0, one more M1. Every word is in the output once, with its count.",
             "作业完成。把任务运行次数和无故障运行比较：多了一次 R0，多了一次 M1。每个词都在输出中出现一次，计数正确。"))
    },
    BatchStep {
        job: "spark-figure",
        ..step(("Spark: the lineage", "Spark：血统"),
            ("The article's figure as a Spark job: lines (L) → words (W) → long words (P0) are narrow steps, computed partition by partition in one task; counts (P1) is a reduceByKey, a wide dependency: P10 needs a piece of both P00 and P01. The DAGScheduler cuts the job there into two stages.",
             "文章中的图，作为一个 Spark 作业：lines（L）→ words（W）→ long words（P0）是窄依赖，在一个任务里逐个分区计算；counts（P1）是 reduceByKey，宽依赖：P10 需要 P00 和 P01 各一部分。DAGScheduler 在这里把作业切成两个阶段。"))
    },
    BatchStep {
        job: "spark-figure",
        script: STAGE0_P10,
        ..step(("Stage 0 ran, P10 is computed", "阶段 0 跑完，P10 已算出"),
            ("Stage 0 computed L0 → W0 → P00 on executor 0 and L1 → W1 → P01 on executor 1; each wrote its shuffle output on its executor. The task for P10 on executor 0 fetched its bucket of both.",
             "阶段 0 在执行器 0 上计算了 L0 → W0 → P00，在执行器 1 上计算了 L1 → W1 → P01；各自把 shuffle 输出写在本执行器上。执行器 0 上计算 P10 的任务取来了两边属于它的桶。"))
    },
    BatchStep {
        job: "spark-figure",
        script: E0_LOST,
        predict: true,
        ..step(("Predict: executor 0 is lost", "预测：执行器 0 丢失"),
            ("Executor 0 is lost while its task for P10 runs. Which partitions will Spark compute again before the job ends? Pick them, then reveal.",
             "执行器 0 在计算 P10 时丢失。作业结束前，Spark 会重新计算哪些分区？选出来，然后揭晓。"))
    },
    BatchStep {
        job: "spark-figure",
        script: E0_LOST,
        to_end: true,
        ..step(("Only what was lost", "只重算丢失的"),
            ("Spark recomputed P10, and P00 with what P00 needs (W0, L0): executor 0 held P00's shuffle output. P01's output is on executor 1, which lives, so P01 was not recomputed. The article says P00 and P01 are both recomputed; in Spark that happens only when both outputs are lost, as on one executor.",
             "Spark 重算了 P10，以及 P00 和 P00 所需的 W0、L0：P00 的 shuffle 输出在执行器 0 上。P01 的输出在仍然存活的执行器 1 上，所以 P01 没有重算。文章说 P00 和 P01 都会重算；在 Spark 中这只在两份输出都丢失时才发生，例如只有一个执行器时。"))
    },
    BatchStep {
        job: "spark-figure",
        keep: &[(2, Keep::Persist)],
        script: E0_LOST,
        to_end: true,
        ..step(("persist() dies with its executor", "persist() 随执行器一起消失"),
            ("Now P0 is persisted. P00 was kept in executor 0's memory, and went with executor 0: the climb still goes up to L0. The article says a persisted partition stops the climb; with persist() (MEMORY_ONLY) that holds only while its executor lives.",
             "现在 P0 做了 persist。P00 保存在执行器 0 的内存里，随执行器 0 一起没了：回溯仍然一直到 L0。文章说持久化的分区可以止住回溯；对 persist()（MEMORY_ONLY）而言，这只在它的执行器活着时成立。"))
    },
    BatchStep {
        job: "spark-figure",
        keep: &[(2, Keep::Checkpoint)],
        script: E0_LOST,
        to_end: true,
        ..step(("checkpoint() writes after the action", "checkpoint() 在 action 之后才写"),
            ("Now P0 is marked with checkpoint(), and executor 0 is lost while P10 runs, as before. Spark recomputes P10, P00, W0 and L0, just as without a checkpoint: checkpoint() only marks the RDD. When the action's job has returned, SparkContext.runJob calls doCheckpoint(), and a second job computes P00 and P01 again (P0 is not persisted) and writes them to reliable storage. During the first action no checkpoint file exists.",
             "现在 P0 用 checkpoint() 做了标记，执行器 0 同样在计算 P10 时丢失。Spark 重算了 P10、P00、W0 和 L0，和没有检查点时一样：checkpoint() 只是给 RDD 做标记。action 的作业返回之后，SparkContext.runJob 才调用 doCheckpoint()，由第二个作业把 P00 和 P01 再算一遍（P0 没有 persist）并写入可靠存储。第一个 action 运行期间，检查点文件还不存在。"))
    },
    BatchStep {
        job: "spark-figure",
        keep: &[(2, Keep::Checkpoint)],
        actions: 2,
        script: E0_LOST_SECOND_ACTION,
        to_end: true,
        ..step(("A second action reads the checkpoint", "第二个 action 读取检查点"),
            ("Now the program calls a second action on the counts. Its job finds stage 0's shuffle outputs registered and runs only P10 and P11. Executor 0 is lost while P10 runs, and P00's shuffle output with it: the map task for P00 now reads P00 from the checkpoint, so only P10 is recomputed. A checkpoint pays off in the actions after the one that marks it; persist() the RDD as well, and the checkpoint job reads it from memory instead of computing it again.",
             "现在程序对计数再调用第二个 action。它的作业发现阶段 0 的 shuffle 输出仍然登记在案，只运行 P10 和 P11。执行器 0 在计算 P10 时丢失，P00 的 shuffle 输出也随之丢失：P00 的 map 任务这回从检查点读取 P00，所以只重算 P10。检查点的好处在标记它的那个 action 之后的 action 里才体现；再对这个 RDD 做 persist()，检查点作业就从内存读取，而不必重算。"))
    },
    BatchStep {
        job: "spark-figure",
        keep: &[(1, Keep::Persist)],
        script: "s s s s s s f",
        to_end: true,
        ..step(("persist() stops the climb while its executor lives", "执行器活着时 persist() 止住回溯"),
            ("W is persisted, and the task for P01 fails after computing W1; executor 1 lives. The new attempt reads W1 from memory and computes only P01. Without persist it would start from L1 again. Whatever failed, every run of this job ends with every word once.",
             "W 做了 persist，计算 P01 的任务在算出 W1 后失败；执行器 1 仍然活着。新的尝试从内存读取 W1，只计算 P01。没有 persist 的话，它会从 L1 重新开始。无论哪里失败，这个作业的每次运行最后都让每个词恰好出现一次。"))
    },
    BatchStep {
        job: "spark-figure",
        script: E0_LOST,
        to_end: true,
        ..step(("A micro-batch is a small batch job", "微批就是一个小批处理作业"),
            ("Without persist the job recomputed more, and still ended exactly once: batch recovery is simple because a batch job can run again, its input still in reliable storage. Spark Streaming cuts a stream into micro-batches, each a small batch job like this one, so its recovery is this recovery. A stream never ends, though, and that is why Flink needed something lighter. Continue with lesson 13 on the main screen.",
             "没有 persist，作业多算了一些，但仍然精确一次：批处理的恢复之所以简单，是因为批作业可以重跑，它的输入仍在可靠存储中。Spark Streaming 把流切成微批，每一批都是这样一个小批处理作业，所以它的恢复就是这种恢复。可是流永远不会结束，这正是 Flink 需要更轻量机制的原因。请在主界面继续第 13 课。"))
    },
];

impl BatchStep {
    /// The run this step sets up.
    pub fn run(&self) -> BatchRun {
        let mut spec = batch_job(self.job).expect("the lesson's jobs are built in");
        for &(rdd, keep) in self.keep {
            spec = spec.with_keep(rdd, keep);
        }
        if let super::run::BatchSpec::Spark(s) = &mut spec {
            s.actions = self.actions;
        }
        let actions: Vec<BatchAction> = self
            .script
            .split_whitespace()
            .map(|c| BatchAction::from_code(c).expect("the lesson's codes are valid"))
            .collect();
        let mut run = BatchRun::with_actions(spec, &actions).expect("the lesson's scripts are accepted");
        if self.to_end {
            run.run_to_end();
        }
        run
    }

    /// A predict step's answer: what will have run again by the end (Spark: the partitions
    /// recomputed; Hadoop: the tasks re-run), by name, sorted.
    pub fn answer(&self) -> Vec<String> {
        let mut run = self.run();
        run.run_to_end();
        let mut names = run.sim().reran();
        crate::engine::core::stable_sort::sort_stable_by(&mut names, |a, b| a.cmp(b));
        names
    }
}
