//! Export to PySpark: a Spark scenario becomes one Python file that runs the same job on a real
//! Apache Spark (PySpark 4.3, local mode) and prints each record's count in state and in the
//! output in the runner's JSON shape (`scripts/groundtruth.sh` compares it with the simulator).
//!
//! What it follows:
//! - **Spark Streaming** (a `spark-streaming` scenario): the DStream API of `pyspark.streaming`,
//!   after the Streaming Programming Guide's fault-tolerance semantics: `socketTextStream` (a
//!   receiver, Spark's `SocketReceiver`; PySpark's only built-in one: a receiver is a Scala or
//!   Java class), `spark.streaming.receiver.writeAheadLog.enable`, `map`, `filter`,
//!   `updateStateByKey` with `DStream.checkpoint(interval)`, output by `foreachRDD` (appending, or
//!   keyed by (batch time, partition) and skipped when committed, as the guide's "transactional
//!   updates" say), and the driver's restart by `StreamingContext.getOrCreate` from the
//!   checkpoint directory. The driver is killed with SIGKILL (its JVM and Python workers with it)
//!   and restarted as a new process. The source is a server on 127.0.0.1 that sends each record
//!   when the simulator's socket delivers it, to whoever is connected (nobody while the driver is
//!   down: a socket does not replay).
//! - **RDD batch jobs** (a `barrierscope-batch` file of engine `spark`): the same RDD chain
//!   (`parallelize`, `flatMap`, `filter`, `reduceByKey` with the simulator's partitioner,
//!   `persist(MEMORY_ONLY)`, `checkpoint()`), one or two actions (each `collect` in a job group
//!   of its own, so that the partitions each job computed, the checkpoint job's included, can be
//!   compared), a task that fails on its first attempt in the first action
//!   (`TaskContext.attemptNumber()`, `local[2,2]`: two attempts a task), and `toDebugString`'s
//!   stages for the lineage.
//!
//! The moments are read off the simulator's run of the scenario (which records the driver had
//! processed, had stored, or never got, at the crash); the exported file waits for those moments
//! in real time and checks afterwards that the real schedule matched. The shared Python is
//! `pyspark_runtime.py`, beside this file. Pure: no I/O.

use crate::engine::mechanisms::catalogue::carried::MechanismEvent;
use serde::Serialize;

use crate::engine::batch::spark::{SparkEvent, SparkJob, SparkSpec};
use crate::engine::batch::{BatchAction, BatchSim, Keep};
use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::job_graph::{JobGraph, OperatorKind, Partitioning};
use crate::engine::core::error::ScenarioError;
use crate::engine::core::lang::{say, Lang};
use crate::engine::jobmanager::stats::FailureCause;
use crate::engine::mechanisms::spark::events::SparkStreamingEvent;
use crate::engine::runs::scenario::Scenario;
use crate::engine::settings::{SinkMode, SourceKind, Strategy};

const RUNTIME: &str = include_str!("pyspark_runtime.py");

/// Seconds a real batch lasts: long enough that a batch of a few records completes well inside
/// one, so that a kill can be placed before the next batch is cut.
pub const BATCH_SECONDS: u32 = 2;

/// Why a scenario can't be exported to PySpark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SparkExportError {
    Scenario(ScenarioError),
    /// Not Spark Streaming.
    Strategy(Strategy),
    /// A replayable log: a reliable receiver, which PySpark cannot write.
    ReliableReceiver,
    /// Not a chain of one source, maps and filters, at most one keyed count or sum, and a sink.
    Job(String),
    /// A sink mode the export has no Spark output for.
    Sink(SinkMode),
    /// An executor crash: local mode runs the executor inside the driver's JVM.
    ExecutorCrash,
    /// A failure that is not the driver's, or more than one.
    Failure(String),
    /// The crash falls while a batch is queued or running.
    CrashInsideBatch,
    /// A batch job this export does not cover.
    Batch(String),
}

impl SparkExportError {
    pub fn message(&self, lang: Lang) -> String {
        match self {
            SparkExportError::Scenario(e) => say!(lang, "the scenario is invalid: {e}", "场景无效：{e}"),
            SparkExportError::Strategy(s) => say!(
                lang,
                "strategy {} can't be exported to PySpark: only spark-streaming scenarios (and batch files of engine spark) are Spark",
                "策略 {} 无法导出到 PySpark：只有 spark-streaming 场景（以及 engine 为 spark 的批处理文件）是 Spark",
                s.id()
            ),
            SparkExportError::ReliableReceiver => lang
                .t(
                    "a replayable log (a reliable receiver, acknowledged after the store) can't be exported to PySpark: a receiver is a Scala or Java class, and PySpark's only receiver, socketTextStream, cannot acknowledge; use \"source\": \"socket\"",
                    "可重放日志（存储后确认的可靠接收器）无法导出到 PySpark：接收器须用 Scala 或 Java 编写，PySpark 唯一的接收器 socketTextStream 无法确认；请用 \"source\": \"socket\"",
                )
                .into(),
            SparkExportError::Job(why) => say!(
                lang,
                "this job can't be exported to PySpark: {why}; the export takes a chain Source -> map/filter -> keyed count or sum -> Sink, each of parallelism 1",
                "此作业无法导出到 PySpark：{why}；导出只接受并行度为 1 的链：数据源 -> map/filter -> 按键计数或求和 -> 汇",
            ),
            SparkExportError::Sink(m) => say!(
                lang,
                "sink {} can't be exported to PySpark: the export writes append and transactional output",
                "汇模式 {} 无法导出到 PySpark：导出只写 append 与 transactional 输出",
                m.id()
            ),
            SparkExportError::ExecutorCrash => lang
                .t(
                    "an executor crash can't be exported to PySpark: in local mode the executor runs inside the driver's JVM, and local-cluster mode does not start executors with pip's PySpark on Java 17",
                    "执行器崩溃无法导出到 PySpark：本地模式下执行器运行在驱动器的 JVM 里，而 pip 安装的 PySpark 在 Java 17 上的 local-cluster 模式启动不了执行器",
                )
                .into(),
            SparkExportError::Failure(what) => say!(
                lang,
                "{what} can't be exported to PySpark: the exported job kills the driver once",
                "{what}无法导出到 PySpark：导出的作业只杀掉驱动器一次"
            ),
            SparkExportError::CrashInsideBatch => lang
                .t(
                    "a driver crash while a batch is queued or running can't be exported to PySpark: a real batch of a few records runs in well under a second, too short to place a kill in",
                    "批次排队或运行时的驱动器崩溃无法导出到 PySpark：真实的小批次不到一秒就跑完，来不及在其间杀掉驱动器",
                )
                .into(),
            SparkExportError::Batch(why) => say!(lang, "this batch job can't be exported to PySpark: {why}", "此批处理作业无法导出到 PySpark：{why}"),
        }
    }
}

impl std::fmt::Display for SparkExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl From<ScenarioError> for SparkExportError {
    fn from(e: ScenarioError) -> Self {
        SparkExportError::Scenario(e)
    }
}

/// One record as the exported job sends and counts it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlanRecord {
    pub label: String,
    pub key: String,
    pub value: i64,
    pub expected_state: u32,
    pub expected_external: Option<u32>,
}

/// What the exported streaming job does, read off the simulator's run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StreamPlan {
    pub name: String,
    pub write_ahead_log: bool,
    /// `append` or `transactional`; None without a sink.
    pub sink: Option<&'static str>,
    /// `count` or `sum`; None without a stateful operator.
    pub state: Option<&'static str>,
    /// The keys each filter keeps, in order.
    pub filters: Vec<Vec<String>>,
    /// The state DStream is checkpointed every this many batches.
    pub checkpoint_interval: u32,
    pub batch_seconds: u32,
    pub records: Vec<PlanRecord>,
    /// Records the driver processed before the crash, one group per batch.
    pub processed: Vec<Vec<String>>,
    /// Each processed group's place among the simulator's batches with records (1, 2, …; the
    /// simulator checkpoints the state RDD every `checkpoint-interval` such batches): the
    /// exported job sends each group so that its batch falls at the same place in the state
    /// checkpoint interval (Spark checkpoints the state RDD of the batches whose time since the
    /// start is a multiple of the checkpoint duration, empty batches counted).
    pub processed_batches: Vec<u64>,
    /// Whether the crash came before the batch after the last processed one was cut.
    pub kill_before_next_cut: bool,
    /// Records stored by the receiver at the crash, in no batch yet.
    pub stored: Vec<String>,
    /// Records that arrive while the driver is down.
    pub while_down: Vec<String>,
    /// Records that arrive after the restart (or, without a crash, all of them).
    pub after: Vec<String>,
    /// Whether the driver is killed.
    pub crash: bool,
}

/// Exports a Spark Streaming scenario (see the module's note).
///
/// ```
/// use barrierscope::engine::{export_pyspark, Scenario, Settings, Strategy};
///
/// let flink = Scenario::builtin("line-sink", Settings::new(Strategy::Aligned), 1);
/// assert!(export_pyspark(&flink).unwrap_err().to_string().contains("spark-streaming"));
/// ```
pub fn export_pyspark(scenario: &Scenario) -> Result<String, SparkExportError> {
    let plan = stream_plan(scenario)?;
    Ok(write_python("streaming", &scenario.name, &serde_json::to_string_pretty(&plan).expect("plan serializes")))
}

fn chain_of(g: &JobGraph) -> Result<(), SparkExportError> {
    let ops = &g.spec.operators;
    if ops.iter().any(|o| o.parallelism != 1) {
        return Err(SparkExportError::Job("an operator has parallelism above 1".into()));
    }
    if ops.first().map(|o| o.kind != OperatorKind::Source).unwrap_or(true)
        || ops.iter().skip(1).any(|o| o.kind == OperatorKind::Source)
    {
        return Err(SparkExportError::Job("it needs exactly one source, first".into()));
    }
    if g.spec.edges.len() + 1 != ops.len() {
        return Err(SparkExportError::Job("it is not a chain".into()));
    }
    for (i, e) in g.spec.edges.iter().enumerate() {
        if e.from != ops[i].name || e.to != ops[i + 1].name {
            return Err(SparkExportError::Job(format!("edge {} is not the chain's next link", e.name())));
        }
        if matches!(e.partitioning, Partitioning::Broadcast) {
            return Err(SparkExportError::Job(format!("edge {} broadcasts", e.name())));
        }
    }
    let mut stage = 0; // 0 maps and filters, 1 after the state, 2 after the sink
    for o in &ops[1..] {
        let next = match o.kind {
            OperatorKind::Map | OperatorKind::Filter { .. } if stage == 0 => 0,
            OperatorKind::Count | OperatorKind::Sum if stage == 0 => 1,
            OperatorKind::Sink if stage < 2 => 2,
            _ => return Err(SparkExportError::Job(format!("operator {} is out of place", o.name))),
        };
        stage = next;
    }
    Ok(())
}

/// Checks the scenario and reads off what the exported job does when.
pub fn stream_plan(scenario: &Scenario) -> Result<StreamPlan, SparkExportError> {
    let s = &scenario.settings;
    if !s.strategy.row().pyspark {
        return Err(SparkExportError::Strategy(s.strategy));
    }
    if s.source != SourceKind::Socket {
        return Err(SparkExportError::ReliableReceiver);
    }
    let g = scenario.graph()?;
    chain_of(&g)?;
    let sink = match (g.has_sink(), s.sink) {
        (false, _) => None,
        (true, SinkMode::Append) => Some("append"),
        (true, SinkMode::Transactional) => Some("transactional"),
        (true, m) => return Err(SparkExportError::Sink(m)),
    };
    let ops = &g.spec.operators;
    let state = ops.iter().find_map(|o| match o.kind {
        OperatorKind::Count => Some("count"),
        OperatorKind::Sum => Some("sum"),
        _ => None,
    });
    let filters = ops
        .iter()
        .filter_map(|o| match &o.kind {
            OperatorKind::Filter { keep_keys } => Some(keep_keys.clone()),
            _ => None,
        })
        .collect();
    let played = scenario.play()?;
    let failovers = &played.sim.stats.failovers;
    if failovers.len() > 1 {
        return Err(SparkExportError::Failure(format!("more than one failure ({})", failovers.len())));
    }
    if let Some(f) = failovers.first() {
        match f.cause {
            FailureCause::Cluster | FailureCause::JobManager => {}
            FailureCause::Task(_) | FailureCause::Region(_) => return Err(SparkExportError::ExecutorCrash),
            other => return Err(SparkExportError::Failure(format!("failure {other:?}"))),
        }
    }
    if played.actions.iter().any(|a| matches!(a, Action::CrashTask { .. })) {
        return Err(SparkExportError::ExecutorCrash);
    }
    let n = g.records.len();
    // The step at which each record was first stored as a block.
    let mut stored_at = vec![None; n];
    for (i, evs) in played.events.iter().enumerate() {
        for e in evs {
            if let Event::Mechanism(MechanismEvent::Spark(SparkStreamingEvent::BlockStored { record, .. })) = e {
                stored_at[record.0 as usize].get_or_insert(i);
            }
        }
    }
    let crash = played.actions.iter().position(|a| matches!(a, Action::Crash | Action::CrashJobManager));
    let restore = played.actions.iter().position(|a| matches!(a, Action::Restore));
    let records: Vec<PlanRecord> = (0..n)
        .map(|i| {
            let r = &g.records[i];
            PlanRecord {
                label: r.label.clone(),
                key: g.keys[r.key.0 as usize].clone(),
                value: r.value,
                expected_state: played.sim.expected.state[i],
                expected_external: g.has_sink().then(|| played.sim.expected.external[i]),
            }
        })
        .collect();
    let label = |i: usize| records[i].label.clone();
    let mut plan = StreamPlan {
        name: scenario.name.clone(),
        write_ahead_log: s.mechanism.spark.write_ahead_log,
        sink,
        state,
        filters,
        checkpoint_interval: s.state_checkpoint_batches() as u32,
        batch_seconds: BATCH_SECONDS,
        records: records.clone(),
        processed: Vec::new(),
        processed_batches: Vec::new(),
        kill_before_next_cut: false,
        stored: Vec::new(),
        while_down: Vec::new(),
        after: Vec::new(),
        crash: crash.is_some(),
    };
    let Some(c) = crash else {
        plan.after = (0..n).map(label).collect();
        return Ok(plan);
    };
    // The simulator just before the crash.
    let mut sim = scenario.sim()?;
    let mut scratch = Vec::new();
    for a in &played.actions[..c] {
        sim.apply(*a, &mut scratch).expect("the played actions replay");
        scratch.clear();
    }
    let spark = sim.spark().expect("the driver runs before the crash");
    if spark.running().is_some() || !spark.jobs.is_empty() {
        return Err(SparkExportError::CrashInsideBatch);
    }
    let counted = sim.state_counts();
    let written = sim.external_counts();
    let interval = s.mechanism.spark.batch_interval.max(1);
    let mut groups: Vec<(u64, Vec<String>)> = Vec::new();
    for i in 0..n {
        let before = stored_at[i].is_some_and(|t| t < c);
        if before && (counted[i] > 0 || written[i] > 0) {
            let at = g.records[i].at / interval;
            match groups.last_mut() {
                Some((b, v)) if *b == at => v.push(label(i)),
                _ => groups.push((at, vec![label(i)])),
            }
        } else if before {
            plan.stored.push(label(i));
        } else if stored_at[i].is_none() || restore.is_some_and(|r| stored_at[i].is_some_and(|t| t < r)) {
            plan.while_down.push(label(i));
        } else {
            plan.after.push(label(i));
        }
    }
    // The last completed batch with records: was the next one cut before the crash?
    let last =
        sim.durable_spark().batches.iter().filter(|b| b.records > 0 && b.finished.is_some()).map(|b| b.time).max();
    plan.kill_before_next_cut = last.is_some_and(|t| sim.tick < t + interval);
    plan.processed_batches = (1..=groups.len() as u64).collect();
    plan.processed = groups.into_iter().map(|(_, v)| v).collect();
    Ok(plan)
}

/// What the exported batch job does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchPlan {
    pub name: String,
    pub spec: SparkSpec,
    /// The simulator's stages: per stage, its partitions and the labels of its RDDs.
    pub stages: Vec<(u8, Vec<String>)>,
    /// The task that fails on its first attempt: (stage, partition, the RDD label it fails in).
    pub fail: Option<(usize, u8, String)>,
    /// The simulator's verdict: every word exactly once, and the partitions computed again.
    pub exactly_once: bool,
    pub reran: Vec<String>,
    /// The failure-free word counts.
    pub expected: Vec<(String, u64)>,
    /// Whether a `checkpoint()`ed RDD ended in reliable storage, every partition: the lineage
    /// above it is cut.
    pub lineage_cut: bool,
    /// The simulator's jobs in order: the first action's, the checkpoint job (if an RDD is
    /// marked), the second action's (if the program calls two).
    pub jobs: Vec<BatchJob>,
}

/// One job of a batch run, as the simulator ran it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchJob {
    /// "action 1", "checkpoint" or "action 2".
    pub job: String,
    /// The partitions it computed, and how many times.
    pub computed: Vec<(String, u32)>,
    /// The partitions it read from a checkpoint instead.
    pub read_checkpoint: Vec<String>,
}

/// Exports a Spark batch run (a `barrierscope-batch` file of engine `spark`) to PySpark.
pub fn export_pyspark_batch(run: &crate::engine::batch::BatchRun, name: &str) -> Result<String, SparkExportError> {
    let plan = batch_plan(run, name)?;
    Ok(write_python("batch", name, &serde_json::to_string_pretty(&plan).expect("plan serializes")))
}

/// Checks a batch run and reads off the failing task.
pub fn batch_plan(run: &crate::engine::batch::BatchRun, name: &str) -> Result<BatchPlan, SparkExportError> {
    let BatchSim::Spark(end) = run.sim() else {
        return Err(SparkExportError::Batch("it is a Hadoop job; PySpark runs Spark".into()));
    };
    if run.actions.iter().any(|a| matches!(a, BatchAction::Crash(_))) {
        return Err(SparkExportError::ExecutorCrash);
    }
    let fails: Vec<usize> =
        run.actions.iter().enumerate().filter(|(_, a)| **a == BatchAction::FailTask).map(|(i, _)| i).collect();
    if fails.len() > 1 {
        return Err(SparkExportError::Batch(format!("{} task failures; the export fails one task once", fails.len())));
    }
    let spec = end.spec.clone();
    let mut fail = None;
    if let Some(&f) = fails.first() {
        let mut sim =
            BatchSim::new(&crate::engine::batch::BatchSpec::Spark(spec.clone())).expect("the run's spec builds");
        for a in &run.actions[..f] {
            sim.apply(*a).expect("the run's actions replay");
        }
        let BatchSim::Spark(sp) = &sim else { unreachable!("a Spark run") };
        if sp.job != SparkJob::Action(0) {
            // The exported job fails the first attempt of the first task that computes the
            // partition, which is in the first action's job.
            return Err(SparkExportError::Batch(
                "a task fails after the first action; the export fails one in the first".into(),
            ));
        }
        let t = sp.running.as_ref().expect("a task runs when one fails");
        fail = Some((t.stage, t.part, sp.lineage.rdds[t.next.min(sp.lineage.stages[t.stage].last)].label.clone()));
    }
    let l = &end.lineage;
    let stages = l
        .stages
        .iter()
        .map(|s| (s.partitions, (s.first..=s.last).map(|r| l.rdds[r].label.clone()).collect()))
        .collect();
    let ledger = run.ledger();
    // Job by job (the first action's, the checkpoint job, the second action's): the partitions
    // computed, how many times, and those read from a checkpoint.
    let mut jobs = vec![BatchJob { job: "action 1".into(), computed: Vec::new(), read_checkpoint: Vec::new() }];
    for e in run.log.iter().flatten() {
        let crate::engine::batch::BatchEvent::Spark(e) = e else { continue };
        match e {
            SparkEvent::CheckpointJob { .. } => {
                jobs.push(BatchJob { job: "checkpoint".into(), computed: Vec::new(), read_checkpoint: Vec::new() })
            }
            SparkEvent::ActionStarted { action } => jobs.push(BatchJob {
                job: format!("action {}", action + 1),
                computed: Vec::new(),
                read_checkpoint: Vec::new(),
            }),
            SparkEvent::Computed { rdd, part, .. } => {
                let name = l.name(*rdd, *part);
                let job = jobs.last_mut().expect("a job");
                match job.computed.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, k)) => *k += 1,
                    None => job.computed.push((name, 1)),
                }
            }
            SparkEvent::ReadCheckpoint { rdd, part } => {
                jobs.last_mut().expect("a job").read_checkpoint.push(l.name(*rdd, *part))
            }
            _ => {}
        }
    }
    for j in &mut jobs {
        crate::engine::core::stable_sort::sort_stable_by(&mut j.computed, |a, b| a.cmp(b));
        crate::engine::core::stable_sort::sort_stable_by(&mut j.read_checkpoint, |a, b| a.cmp(b));
    }
    Ok(BatchPlan {
        jobs,
        name: name.into(),
        spec,
        stages,
        fail,
        exactly_once: ledger.exactly_once(),
        reran: run.sim().reran(),
        expected: run.expected().iter().map(|r| (r.key.clone(), r.n)).collect(),
        lineage_cut: l
            .rdds
            .iter()
            .enumerate()
            .any(|(i, r)| r.keep == Keep::Checkpoint && (0..l.partitions[i]).all(|p| end.checkpointed(i, p))),
    })
}

fn write_python(kind: &str, name: &str, plan: &str) -> String {
    let mut py = String::new();
    py += "#!/usr/bin/env python3\n";
    py += &format!(
        "\"\"\"{} on a real Apache Spark (PySpark 4.3, local mode), exported by `barrierscope export-pyspark`.\n\n",
        name.replace('"', "'")
    );
    py += "Run: python job.py [--work DIR] [--result result.json]. It prints the verdicts in the runner's JSON shape.\n\"\"\"\n";
    py += &format!("KIND = {kind:?}\n");
    py += &format!("PLAN = json_plan = r'''{plan}'''\n\n");
    py += RUNTIME;
    py
}
