//! Export to PyFlink: a scenario becomes one Python file that builds the same job on a real Apache
//! Flink (PyFlink 2.3's DataStream API, a local mini-cluster), runs it, and prints each record's
//! count in state and in the output in the runner's JSON shape, so a run shown in the browser can
//! be checked against Flink itself (`scripts/groundtruth.sh`).
//!
//! What it follows, piece by piece:
//! - the input: `NumberSequenceSource`, a replayable source whose split position is checkpointed,
//!   mapped to the scenario's records (one number per record; a partitioned source's
//!   partitions are the source's splits);
//! - the operators: `map`, `filter`, and a `KeyedProcessFunction` with a `ValueState` for keyed
//!   count and sum, on `key_by` of the pinned key that puts each key on the simulator's subtask
//!   (`crate::engine::pyflink_placement`); edges as `forward`, `partition_custom` (hash, by the
//!   simulator's subtask of each key), `rebalance`, `broadcast`, and `union` where an operator
//!   has several inputs;
//! - the sinks: a plain Python sink that appends at once (duplicates on replay), an idempotent
//!   one (a row per record), and `FileSink` for two-phase commit, whose part files are committed
//!   when the checkpoint completes (`OnCheckpointRollingPolicy`);
//! - `CheckpointingMode` (`EXACTLY_ONCE` for aligned and unaligned barriers, `AT_LEAST_ONCE` for
//!   barriers without alignment), `execution.checkpointing.*` (interval, unaligned, alignment
//!   timeout, max concurrent, retained, tolerable failures, externalized retention), no
//!   checkpointing for strategy `none`, and the fixed-delay restart strategy with
//!   `jobmanager.execution.failover-strategy`;
//! - the crash: an operator that raises once, the first time it sees the crash record (or a later
//!   one) after a completed checkpoint (or before any), remembered in a marker file so that the
//!   restarted attempt passes. The record, the side of the checkpoint and whether records took
//!   effect at the crash point in between are read off the simulator's run of the scenario.
//!
//! Simulator steps have no wall-clock meaning: the export paces each source at
//! [`PACE_MS`] per record and counts [`STEP_MS`] per step for the checkpoint interval. The
//! Python runtime every export shares is `pyflink_runtime.py`, beside this file. Pure: no I/O,
//! usable from the page (wasm) as from the runner.

use std::collections::BTreeSet;
use std::fmt;

use super::action::{Action, Event};
use super::dataflow::job_graph::{JobGraph, OperatorKind, Partitioning};
use super::error::ScenarioError;
use super::ids::{CheckpointId, OperatorId, TaskId};
use super::lang::{say, Lang};
use super::pyflink_placement;
use super::scenario::{JobRef, Scenario};
use super::script::ScriptAction;
use super::settings::{CheckpointRetention, FailoverStrategy, RestartPolicy, SinkMode, SourceKind, Strategy};
use super::stats::FailureCause;

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

const RUNTIME: &str = include_str!("pyflink_runtime.py");

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
                let why = match s {
                    Strategy::Timers => lang.t(
                        "Flink has no per-task timer snapshots; its checkpoints are always coordinated",
                        "Flink 没有各任务各自的定时快照，它的检查点总是协调的",
                    ),
                    Strategy::StopTheWorld => lang.t(
                        "stop-the-world is a teaching baseline, not a Flink checkpointing mode",
                        "全局暂停是教学用的对照，不是 Flink 的检查点模式",
                    ),
                    Strategy::StormAcker => lang.t("Storm's acker is not Flink", "Storm 的 acker 不是 Flink"),
                    Strategy::SparkStreaming => lang.t("Spark Streaming is not Flink", "Spark Streaming 不是 Flink"),
                    _ => lang.t("Flink has no such mode", "Flink 没有这种模式"),
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
            ExportError::SinkMode(m) => say!(
                lang,
                "sink {} can't be exported to PyFlink: it is Spark Streaming's output",
                "sink {} 无法导出到 PyFlink：它是 Spark Streaming 的输出",
                m.id()
            ),
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

/// The crash the exported job injects, as read off the simulator's run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrashPlan {
    /// The operators whose tasks may raise: the sinks of the failed region, or its sources when it
    /// has no sink.
    pub at: Vec<String>,
    /// Per source partition (see [`partitions`]): the first record number the crash points had
    /// not seen at the crash. The crash comes at such a record, in any partition; a partition
    /// they had seen whole has its end + 1 (none of its records qualifies), unless every
    /// partition was seen whole: then each has its last record.
    pub next: Vec<u32>,
    /// The crash record as the README and the file name it: the lowest of `next` that is a
    /// record.
    pub index: u32,
    /// Whether a checkpoint had completed before the crash.
    pub after_checkpoint: Option<CheckpointId>,
    /// Whether records took effect at the crash points after that checkpoint (or, before any,
    /// since the start): 1 if so, else 0.
    pub effects: u32,
    /// The whole cluster (every task restarts) or one task (its failover strategy decides).
    pub cluster: bool,
}

/// What the export makes of a scenario, before it is written as Python: also what the tests
/// check.
#[derive(Clone, Debug)]
pub struct ExportPlan {
    pub graph: JobGraph,
    /// Flink's configuration, key and value, in order.
    pub settings: Vec<(String, String)>,
    /// Per record: expected count in state, and in the output (None without a sink).
    pub expected: Vec<(u32, Option<u32>)>,
    pub crash: Option<CrashPlan>,
    pub interval_ms: Option<u64>,
}

/// Writes the scenario as one PyFlink program (see the module's note).
///
/// ```
/// use barrierscope::engine::{export_pyflink, Scenario, Settings, Strategy};
///
/// let sc = Scenario::builtin("line-sink", Settings::new(Strategy::Aligned), 1);
/// let py = export_pyflink(&sc).unwrap();
/// assert!(py.contains("\"execution.checkpointing.mode\": \"EXACTLY_ONCE\""));
/// let timers = Scenario::builtin("line", Settings::new(Strategy::Timers), 1);
/// assert!(export_pyflink(&timers).unwrap_err().to_string().contains("per-task timer"));
/// ```
pub fn export_pyflink(scenario: &Scenario) -> Result<String, ExportError> {
    let plan = plan(scenario)?;
    Ok(write_python(scenario, &plan))
}

/// Checks that the scenario can be exported and reads off everything the Python file needs.
pub fn plan(scenario: &Scenario) -> Result<ExportPlan, ExportError> {
    let s = &scenario.settings;
    match s.strategy {
        Strategy::None | Strategy::Aligned | Strategy::AtLeastOnce | Strategy::Unaligned => {}
        other => return Err(ExportError::Strategy(other)),
    }
    if s.strategy == Strategy::None && s.restart == RestartPolicy::FromLatest {
        return Err(ExportError::RestartFromLatest);
    }
    if s.source == SourceKind::Socket {
        return Err(ExportError::Socket);
    }
    let job_control = |a: &ScriptAction| {
        matches!(a, ScriptAction::Savepoint | ScriptAction::StopWithSavepoint | ScriptAction::Cancel | ScriptAction::Resume(_))
    };
    if scenario.actions.iter().any(job_control) {
        return Err(ExportError::JobControl);
    }
    if s.sink == SinkMode::Transactional {
        return Err(ExportError::SinkMode(s.sink));
    }
    let graph = scenario.graph()?;
    for e in &graph.spec.edges {
        let to = graph.spec.operators.iter().find(|o| o.name == e.to).expect("built");
        if e.partitioning == Partitioning::Broadcast && to.kind.is_stateful() {
            return Err(ExportError::BroadcastIntoKeyed { operator: to.name.clone() });
        }
    }
    for (i, op) in graph.spec.operators.iter().enumerate() {
        if op.kind == OperatorKind::Source && records_of(&graph, OperatorId(i as u16)).is_none() {
            return Err(ExportError::EmptySource { operator: op.name.clone() });
        }
    }
    let played = scenario.play()?;
    let failovers = &played.sim.stats.failovers;
    if failovers.len() > 1 {
        return Err(ExportError::MoreThanOneFailure { failures: failovers.len() });
    }
    if let Some(f) = failovers.first() {
        if !matches!(f.cause, FailureCause::Cluster | FailureCause::Task(_) | FailureCause::Region(_)) {
            return Err(ExportError::Failure(f.cause));
        }
    }
    let crash = crash_plan(&graph, &played.actions, &played.events);
    let expected = (0..graph.records.len())
        .map(|i| (played.sim.expected.state[i], graph.has_sink().then(|| played.sim.expected.external[i])))
        .collect();
    let interval_ms = (s.strategy != Strategy::None).then(|| match s.checkpoint_interval {
        Some(steps) => steps.saturating_mul(STEP_MS).clamp(INTERVAL_MS.0, INTERVAL_MS.1),
        None => BY_HAND_INTERVAL_MS,
    });
    let slots = graph.spec.operators.iter().map(|o| o.parallelism).max().unwrap_or(1);
    let settings = flink_settings(scenario, interval_ms, crash.as_ref(), slots);
    Ok(ExportPlan { graph, settings, expected, crash, interval_ms })
}

/// The first and last record numbers of a source operator (its records are numbered together).
fn records_of(g: &JobGraph, op: OperatorId) -> Option<(u32, u32)> {
    let ids: Vec<u32> = g.tasks.iter().filter(|t| t.operator == op).flat_map(|t| t.log.iter().map(|r| r.0)).collect();
    Some((*ids.first()?, *ids.last()?))
}

/// Every source partition (a source task's log) as its first and last record number.
pub fn partitions(g: &JobGraph) -> Vec<(u32, u32)> {
    g.tasks.iter().filter_map(|t| Some((t.log.first()?.0, t.log.last()?.0))).collect()
}

/// The operators connected to `op` by edges, either way: its pipelined region.
fn region_of(g: &JobGraph, op: usize) -> BTreeSet<usize> {
    let index = |name: &str| g.spec.operators.iter().position(|o| o.name == name).expect("built");
    let mut region = BTreeSet::from([op]);
    loop {
        let before = region.len();
        for e in &g.spec.edges {
            let (f, t) = (index(&e.from), index(&e.to));
            if region.contains(&f) || region.contains(&t) {
                region.insert(f);
                region.insert(t);
            }
        }
        if region.len() == before {
            return region;
        }
    }
}

/// Reads the crash off the simulator's run: where it struck, which records the crash points had
/// seen, which checkpoint had completed, and whether records took effect there after it.
fn crash_plan(g: &JobGraph, actions: &[Action], events: &[Vec<Event>]) -> Option<CrashPlan> {
    let step = actions.iter().position(|a| matches!(a, Action::Crash | Action::CrashTask { .. }))?;
    let (cluster, region): (bool, BTreeSet<usize>) = match actions[step] {
        Action::CrashTask { task } => (false, region_of(g, g.task(task).operator.index())),
        _ => (true, (0..g.spec.operators.len()).collect()),
    };
    let kind = |i: &usize| &g.spec.operators[*i].kind;
    let sinks: BTreeSet<usize> = region.iter().copied().filter(|i| *kind(i) == OperatorKind::Sink).collect();
    let points = if sinks.is_empty() {
        region.iter().copied().filter(|i| *kind(i) == OperatorKind::Source).collect()
    } else {
        sinks
    };
    let sink_points = points.iter().any(|i| *kind(i) == OperatorKind::Sink);
    let at_point = |t: TaskId| points.contains(&g.task(t).operator.index());
    let before = events[..step].iter().flatten();
    let completed = before
        .clone()
        .filter_map(|e| match e {
            Event::CheckpointCompleted { checkpoint, .. } => Some(*checkpoint),
            _ => None,
        })
        .max();
    // Per crash-point task: the records that took effect there since its snapshot for the
    // completed checkpoint (or since the start); and every record seen there.
    let mut since = vec![0u32; g.tasks.len()];
    let mut seen = vec![None::<u32>; g.records.len()];
    for e in before {
        match *e {
            Event::SinkWrite { task, record, .. } if sink_points && at_point(task) => {
                seen[record.index()] = Some(record.0);
                since[task.index()] += 1;
            }
            Event::Read { task, record, .. } if !sink_points && at_point(task) => {
                seen[record.index()] = Some(record.0);
                since[task.index()] += 1;
            }
            Event::SnapshotTaken { task, checkpoint: Some(c), .. } if at_point(task) && Some(c) == completed => {
                since[task.index()] = 0;
            }
            _ => {}
        }
    }
    let since: u32 = since.iter().sum();
    let parts = partitions(g);
    let mut next: Vec<u32> = parts
        .iter()
        .map(|&(first, last)| (first..=last).rev().find_map(|r| seen[r as usize]).map_or(first, |r| r + 1))
        .collect();
    if next.iter().zip(&parts).all(|(n, (_, last))| n > last) {
        next = parts.iter().map(|(_, last)| *last).collect();
    }
    let index = next.iter().zip(&parts).filter(|(n, (_, last))| *n <= last).map(|(n, _)| *n).min().unwrap_or(0);
    Some(CrashPlan {
        at: points.iter().map(|i| g.spec.operators[*i].name.clone()).collect(),
        next,
        index,
        after_checkpoint: completed,
        effects: since.min(1),
        cluster,
    })
}

/// Flink's configuration for the scenario's settings.
fn flink_settings(
    sc: &Scenario,
    interval_ms: Option<u64>,
    crash: Option<&CrashPlan>,
    slots: u16,
) -> Vec<(String, String)> {
    let s = &sc.settings;
    let mut v: Vec<(String, String)> = vec![];
    let mut set = |k: &str, val: String| v.push((k.to_string(), val));
    if let Some(ms) = interval_ms {
        set("execution.checkpointing.interval", format!("{ms} ms"));
        // Flink's checkpointing docs: concurrent checkpoints "cannot be used when a minimum time
        // between checkpoints is defined". With max-concurrent-checkpoints above 1 the export
        // leaves the min-pause at 0 (and says so in the file); otherwise it sets it to the
        // interval, so the first checkpoint comes one interval after the start.
        if s.max_concurrent_checkpoints <= 1 {
            set("execution.checkpointing.min-pause", format!("{ms} ms"));
        }
        let mode = if s.strategy == Strategy::AtLeastOnce { "AT_LEAST_ONCE" } else { "EXACTLY_ONCE" };
        set("execution.checkpointing.mode", mode.into());
        let unaligned = s.strategy == Strategy::Unaligned || s.alignment_timeout.is_some();
        set("execution.checkpointing.unaligned.enabled", unaligned.to_string());
        if let (Strategy::Aligned, Some(steps)) = (s.strategy, s.alignment_timeout) {
            set("execution.checkpointing.aligned-checkpoint-timeout", format!("{} ms", steps.saturating_mul(STEP_MS)));
        }
        set("execution.checkpointing.max-concurrent-checkpoints", s.max_concurrent_checkpoints.to_string());
        set("execution.checkpointing.num-retained", s.num_retained.to_string());
        set("execution.checkpointing.tolerable-failed-checkpoints", s.tolerable_failed_checkpoints.to_string());
        let retention = match s.externalized_checkpoint_retention {
            CheckpointRetention::NoExternalizedCheckpoints => "NO_EXTERNALIZED_CHECKPOINTS",
            CheckpointRetention::RetainOnCancellation => "RETAIN_ON_CANCELLATION",
            CheckpointRetention::DeleteOnCancellation => "DELETE_ON_CANCELLATION",
        };
        set("execution.checkpointing.externalized-checkpoint-retention", retention.into());
    }
    set("restart-strategy.type", "fixed-delay".into());
    set("restart-strategy.fixed-delay.attempts", "3".into());
    set("restart-strategy.fixed-delay.delay", "200 ms".into());
    let failover = match (crash.map(|c| c.cluster), s.failover_strategy) {
        (Some(true), _) | (_, FailoverStrategy::Full) => "full",
        _ => "region",
    };
    set("jobmanager.execution.failover-strategy", failover.into());
    set("python.fn-execution.bundle.size", BUNDLE_SIZE.to_string());
    // Each of the mini-cluster's TaskManagers can take the whole job (see the runtime).
    set("taskmanager.numberOfTaskSlots", slots.to_string());
    v
}

/// A Python string literal (JSON's escapes are Python's).
fn py_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// A Python name for an operator's stream: lower case letters, digits and underscores.
fn py_name(name: &str, taken: &mut BTreeSet<String>) -> String {
    let mut base: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    base = format!("s_{}", base.trim_matches('_'));
    let mut n = base.clone();
    let mut i = 2;
    while !taken.insert(n.clone()) {
        n = format!("{base}_{i}");
        i += 1;
    }
    n
}

/// The operators whose keys the export places as the simulator does, in order: any with a hash
/// input (routed by `SUBTASK`, or keyed by the pinned key), and a keyed one at parallelism 1.
/// A keyed operator behind another edge at a higher parallelism is on `key_by` in Flink but not
/// in the simulator, so its placement is not compared.
fn pinned_operators(g: &JobGraph) -> Vec<usize> {
    (0..g.spec.operators.len())
        .filter(|&i| {
            let op = &g.spec.operators[i];
            let mut inputs = g.spec.edges.iter().filter(|e| e.to == op.name).map(|e| e.partitioning);
            if op.kind.is_stateful() {
                inputs.all(|p| p == Partitioning::Hash) || op.parallelism == 1
            } else {
                inputs.any(|p| p == Partitioning::Hash)
            }
        })
        .filter(|&i| g.spec.operators[i].kind != OperatorKind::Source)
        .collect()
}

/// The operators in an order where every input comes first.
fn operator_order(g: &JobGraph) -> Vec<usize> {
    let mut order = Vec::new();
    let index = |name: &str| g.spec.operators.iter().position(|o| o.name == name).expect("built");
    while order.len() < g.spec.operators.len() {
        for i in 0..g.spec.operators.len() {
            if !order.contains(&i)
                && g.spec.edges.iter().filter(|e| index(&e.to) == i).all(|e| order.contains(&index(&e.from)))
            {
                order.push(i);
            }
        }
    }
    order
}

fn write_python(sc: &Scenario, plan: &ExportPlan) -> String {
    let g = &plan.graph;
    let s = &sc.settings;
    let mut py = String::new();
    let line = |py: &mut String, text: &str| {
        py.push_str(text);
        py.push('\n');
    };
    let title = if sc.name.is_empty() {
        match &sc.job {
            JobRef::Builtin(name) => format!("built-in job {name}"),
            JobRef::Custom(_) => "a custom job".to_string(),
        }
    } else {
        sc.name.clone()
    };
    line(&mut py, "#!/usr/bin/env python3");
    line(&mut py, &format!("# {title}"));
    line(&mut py, "#");
    line(&mut py, "# Written by `barrierscope export-pyflink`: the scenario's job on a real Apache Flink, through");
    line(&mut py, "# PyFlink's DataStream API on a local mini-cluster. It needs Java 11 or later and PyFlink:");
    line(&mut py, "#     python -m venv .venv-flink && .venv-flink/bin/pip install apache-flink==2.3.0");
    line(&mut py, "#     .venv-flink/bin/python this-file.py [--work FOLDER] [--result result.json]");
    line(&mut py, "# It prints each record's count in state and in the output against the failure-free run, in");
    line(&mut py, "# the shape of `barrierscope run --json`, and what the REST API said of a completed checkpoint.");
    line(&mut py, "#");
    line(&mut py, "# How the scenario became this job:");
    let strategy_words = match s.strategy {
        Strategy::Aligned if s.alignment_timeout.is_some() => {
            "aligned barriers with an alignment timeout: EXACTLY_ONCE, unaligned checkpoints enabled, aligned-checkpoint-timeout"
        }
        Strategy::Aligned => "aligned barriers: CheckpointingMode.EXACTLY_ONCE",
        Strategy::Unaligned => "unaligned checkpoints: EXACTLY_ONCE with execution.checkpointing.unaligned.enabled",
        Strategy::AtLeastOnce => "barriers without alignment: CheckpointingMode.AT_LEAST_ONCE",
        _ => "none: checkpointing disabled; a restart reads every source from the beginning",
    };
    line(&mut py, &format!("# - strategy {}: {strategy_words}.", s.strategy.id()));
    if let Some(ms) = plan.interval_ms {
        let how = match s.checkpoint_interval {
            Some(steps) => {
                format!("the simulator's {steps} steps at {STEP_MS} ms a step, at least {} ms", INTERVAL_MS.0)
            }
            None => "by hand in the simulator".to_string(),
        };
        line(&mut py, &format!("# - a checkpoint every {ms} ms ({how});"));
        if s.max_concurrent_checkpoints <= 1 {
            line(&mut py, "#   min-pause is the same, so the first checkpoint comes one interval after the start, not at");
            line(&mut py, "#   a random moment before it.");
        } else {
            let n = s.max_concurrent_checkpoints;
            line(&mut py, &format!("#   max-concurrent-checkpoints {n}, and no min-pause: Flink's docs say concurrent checkpoints"));
            line(&mut py, "#   cannot be used when a minimum time between checkpoints is defined. So the first checkpoint");
            line(&mut py, "#   comes at a random moment within the first interval, where the simulator's came at its end.");
        }
    }
    line(
        &mut py,
        &format!("# - each source waits {PACE_MS} ms before each record, so checkpoints fall between records."),
    );
    let sink_words = match s.sink {
        SinkMode::Append => "append: a Python sink appends each record to a file at once (duplicates on replay)",
        SinkMode::Upsert => "upsert: a Python sink writes one file per record, which a replay overwrites",
        _ => "two-phase-commit: FileSink, whose part files are committed when the checkpoint completes",
    };
    if g.has_sink() {
        line(&mut py, &format!("# - sink {sink_words}."));
    }
    line(&mut py, "# - restart strategy: fixed-delay, 3 attempts, 200 ms apart (the simulator's restore).");
    match &plan.crash {
        Some(c) => {
            let side = match c.after_checkpoint {
                Some(id) => format!("after a completed checkpoint (checkpoint {} in the simulator)", id.0),
                None => "before any checkpoint completed".to_string(),
            };
            line(
                &mut py,
                &format!(
                    "# - the crash: {} raises once, at record {} or a later one of its partition,",
                    c.at.join(" or "),
                    g.records[c.index as usize].label,
                ),
            );
            line(
                &mut py,
                &format!(
                    "#   {side}{}.",
                    if c.effects > 0 { ",\n#   once a record has taken effect there since" } else { "" }
                ),
            );
            line(
                &mut py,
                &format!(
                    "#   {}.",
                    if c.cluster {
                        "The simulator crashed the cluster: failover-strategy full restarts every task"
                    } else {
                        "The simulator crashed one task: its failover strategy applies"
                    }
                ),
            );
        }
        None => line(&mut py, "# - no crash: the scenario has none."),
    }
    line(&mut py, "#");
    py.push_str(&format!(
        "\
# Three PyFlink traps, handled here:
# - Python operators buffer records in bundles (python.fn-execution.bundle.size, default 100000;
#   bundle.time, default 1 s) and flush them at every checkpoint barrier. With the default,
#   records reach a plain Python sink only with a barrier (or once a second), so a crash between
#   checkpoints throws away records that the restore replays, and nothing is duplicated: real
#   Flink behaviour, but not the record-at-a-time operators the simulator (like Flink's Java API)
#   has. BUNDLE_SIZE = {BUNDLE_SIZE} sends each record through on its own. (With 100000, the crash point,
#   which waits for a record written after a completed checkpoint while no newer one is pending,
#   may never find one.)
# - The Python workers run `python` from PATH: python.executable is set to this interpreter.
# - When a Python function raises, Beam may release the worker's environment twice and kill the
#   whole TaskManager (\"Reference count must not be negative\"); the restart then waits five
#   minutes for a slot and fails. The mini-cluster here has a spare TaskManager (see main).
"
    ));
    line(&mut py, "");

    // The data.
    line(&mut py, &format!("NAME = {}", py_str(&sc.name)));
    line(&mut py, &format!("DESCRIPTION = {}", py_str(&format!("{title} on Apache Flink, exported by barrierscope"))));
    line(&mut py, &format!("STRATEGY = {}", py_str(s.strategy.id())));
    line(&mut py, &format!("SINK = {}", py_str(s.sink.id())));
    line(
        &mut py,
        &format!(
            "PARALLELISM = {{{}}}",
            g.spec
                .operators
                .iter()
                .map(|o| format!("{}: {}", py_str(&o.name), o.parallelism))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    line(&mut py, &format!("PACE_MS = {PACE_MS}"));
    line(&mut py, &format!("BUNDLE_SIZE = {BUNDLE_SIZE}"));
    line(
        &mut py,
        &format!("# Each source partition's first and last record number ({}).", "NumberSequenceSource's splits"),
    );
    line(
        &mut py,
        &format!(
            "PARTITIONS = [{}]",
            partitions(g).iter().map(|(f, l)| format!("({f}, {l})")).collect::<Vec<_>>().join(", ")
        ),
    );
    line(&mut py, "# Every record: (label, key, value), numbered as NumberSequenceSource numbers them.");
    line(&mut py, "RECORDS = [");
    for r in &g.records {
        line(&mut py, &format!("    ({}, {}, {}),", py_str(&r.label), py_str(g.key_name(r.key)), r.value));
    }
    line(&mut py, "]");
    let pinned = pinned_operators(g);
    line(&mut py, "# Each key's pin (barrierscope's src/engine/pyflink_placement.rs): Flink hashes the key (key, pin)");
    line(&mut py, "# as a Java job hashes the string key, so each key gets the simulator's key group and subtask.");
    line(
        &mut py,
        &format!(
            "KEY_PIN = {{{}}}",
            g.keys.iter().map(|k| format!("{}: {}", py_str(k), pyflink_placement::pin(k))).collect::<Vec<_>>().join(", ")
        ),
    );
    line(&mut py, "# The simulator's subtask of each key, per operator behind hash edges: a keyed operator's state is");
    line(&mut py, "# checked against it, any other operator is routed by it (partition_custom).");
    line(&mut py, "SUBTASK = {");
    for &i in &pinned {
        let table = pyflink_placement::subtask_table(g, OperatorId(i as u16));
        line(
            &mut py,
            &format!(
                "    {}: {{{}}},",
                py_str(&g.spec.operators[i].name),
                table.iter().map(|(k, t)| format!("{}: {t}", py_str(k))).collect::<Vec<_>>().join(", ")
            ),
        );
    }
    line(&mut py, "}");
    line(&mut py, "# Per record: how often the failure-free run reflects it in state, and in the output.");
    line(&mut py, "EXPECTED = [");
    for (st, out) in &plan.expected {
        line(&mut py, &format!("    ({st}, {}),", out.map_or("None".to_string(), |o| o.to_string())));
    }
    line(&mut py, "]");
    match &plan.crash {
        Some(c) => line(&mut py, &format!(
            "CRASH = {{\"at\": [{}], \"next\": [{}], \"record\": {}, \"after_checkpoint\": {}, \"effects\": {}, \"scope\": {}}}",
            c.at.iter().map(|n| py_str(n)).collect::<Vec<_>>().join(", "),
            c.next.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
            py_str(&g.records[c.index as usize].label),
            if c.after_checkpoint.is_some() { "True" } else { "False" },
            c.effects,
            py_str(if c.cluster { "cluster" } else { "task" }),
        )),
        None => line(&mut py, "CRASH = None"),
    }
    line(&mut py, "SETTINGS = {");
    for (k, v) in &plan.settings {
        let value = if k == "python.fn-execution.bundle.size" { "str(BUNDLE_SIZE)".to_string() } else { py_str(v) };
        line(&mut py, &format!("    {}: {value},", py_str(k)));
    }
    line(&mut py, "}");
    line(&mut py, "");
    py.push_str(RUNTIME);
    line(&mut py, "");
    line(&mut py, "");

    // The job.
    line(&mut py, "def build_job(env):");
    let mut taken = BTreeSet::new();
    let names: Vec<String> = g.spec.operators.iter().map(|o| py_name(&o.name, &mut taken)).collect();
    let index = |name: &str| g.spec.operators.iter().position(|o| o.name == name).expect("built");
    for i in operator_order(g) {
        let op = &g.spec.operators[i];
        let (var, p, name) = (&names[i], op.parallelism, py_str(&op.name));
        let inputs: Vec<(String, Partitioning)> = g
            .spec
            .edges
            .iter()
            .filter(|e| e.to == op.name)
            .map(|e| (names[index(&e.from)].clone(), e.partitioning))
            .collect();
        let union = |parts: Vec<String>| -> String {
            match parts.split_first() {
                Some((first, [])) => first.clone(),
                Some((first, rest)) => format!("{first}.union({})", rest.join(", ")),
                None => unreachable!("only sources have no inputs"),
            }
        };
        let partitioned = |(v, p): &(String, Partitioning)| match p {
            Partitioning::Forward => v.clone(),
            Partitioning::Rebalance => format!("{v}.rebalance()"),
            Partitioning::Broadcast => format!("{v}.broadcast()"),
            Partitioning::Hash => format!("{v}.partition_custom(lambda key, n: SUBTASK[{name}][key], key_of)"),
        };
        let (role, expr) = match &op.kind {
            OperatorKind::Source => {
                let (first, last) = records_of(g, OperatorId(i as u16)).expect("checked");
                ("a replayable source", format!("source(env, {name}, {first}, {last}, {p})"))
            }
            OperatorKind::Map => (
                "map",
                format!(
                    "{}.map(PassOn(), output_type=RECORD).name({name}).set_parallelism({p})",
                    union(inputs.iter().map(partitioned).collect())
                ),
            ),
            OperatorKind::Filter { keep_keys } => (
                "filter",
                format!(
                    "{}.filter(KeepKeys([{}])).name({name}).set_parallelism({p})",
                    union(inputs.iter().map(partitioned).collect()),
                    keep_keys.iter().map(|k| py_str(k)).collect::<Vec<_>>().join(", ")
                ),
            ),
            OperatorKind::Count | OperatorKind::Sum => {
                let kind = if op.kind == OperatorKind::Count { "count" } else { "sum" };
                (
                    if op.kind == OperatorKind::Count { "keyed count" } else { "keyed sum" },
                    format!(
                        "{}.key_by(pinned_key, key_type=PINNED_KEY).process(KeyedCount({name}, {}), output_type=RECORD).name({name}).set_parallelism({p}).set_max_parallelism({})",
                        union(inputs.iter().map(|(v, _)| v.clone()).collect()),
                        py_str(kind),
                        g.max_parallelism[i]
                    ),
                )
            }
            OperatorKind::Sink => {
                let input = union(inputs.iter().map(partitioned).collect());
                match s.sink {
                    SinkMode::TwoPhaseCommit => (
                        "two-phase-commit sink",
                        format!(
                            "{input}.map(BeforeFileSink({name}), output_type=Types.STRING()).name({name}).set_parallelism({p}).sink_to(file_sink({name})).name({}).set_parallelism({p})",
                            py_str(&format!("{} (FileSink)", op.name))
                        ),
                    ),
                    SinkMode::Upsert => {
                        ("upsert sink", format!("{input}.process(UpsertSink({name})).name({name}).set_parallelism({p})"))
                    }
                    _ => ("append sink", format!("{input}.process(AppendSink({name})).name({name}).set_parallelism({p})")),
                }
            }
        };
        let keyed_note = matches!(op.kind, OperatorKind::Count | OperatorKind::Sum)
            && inputs.iter().any(|(_, p)| *p != Partitioning::Hash);
        line(
            &mut py,
            &format!(
                "    # {} ({role}, parallelism {p}){}",
                op.name,
                if keyed_note {
                    ": keyed state needs key_by; the simulator's forward or rebalance edge becomes keyBy here"
                } else {
                    ""
                }
            ),
        );
        line(&mut py, &format!("    {var} = {expr}"));
    }
    line(&mut py, "");
    line(&mut py, "");
    line(&mut py, "if __name__ == \"__main__\":");
    line(&mut py, "    main(build_job)");
    py
}
