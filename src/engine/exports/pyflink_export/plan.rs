//! The export's plan: what a scenario becomes on Flink before any Python is written. The job and
//! its source partitions (`NumberSequenceSource` splits), Flink's configuration
//! (`execution.checkpointing.*`, the restart and failover strategies), the expected count of
//! every record, and the crash read off the simulator's run (the operators that raise, the record
//! and the side of the checkpoint it comes on, a pipelined region's failover).

use crate::engine::exports::pyflink_export::limits::{
    ExportError, BUNDLE_SIZE, BY_HAND_INTERVAL_MS, INTERVAL_MS, STEP_MS,
};

use std::collections::BTreeSet;

use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::job_graph::{JobGraph, OperatorKind, Partitioning};
use crate::engine::core::ids::{CheckpointId, OperatorId, TaskId};
use crate::engine::jobmanager::stats::FailureCause;
use crate::engine::runs::scenario::Scenario;
use crate::engine::runs::script::ScriptAction;
use crate::engine::settings::{CheckpointRetention, FailoverStrategy, RestartPolicy, SinkMode, SourceKind, Strategy};

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

/// Checks that the scenario can be exported and reads off everything the Python file needs.
pub fn plan(scenario: &Scenario) -> Result<ExportPlan, ExportError> {
    let s = &scenario.settings;
    if s.strategy.row().pyflink.is_err() {
        return Err(ExportError::Strategy(s.strategy));
    }
    if s.strategy == Strategy::None && s.restart == RestartPolicy::FromLatest {
        return Err(ExportError::RestartFromLatest);
    }
    if s.source == SourceKind::Socket {
        return Err(ExportError::Socket);
    }
    let job_control = |a: &ScriptAction| {
        matches!(
            a,
            ScriptAction::Savepoint | ScriptAction::StopWithSavepoint | ScriptAction::Cancel | ScriptAction::Resume(_)
        )
    };
    if scenario.actions.iter().any(job_control) {
        return Err(ExportError::JobControl);
    }
    if matches!(s.sink, SinkMode::Transactional | SinkMode::Kafka) {
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
pub(super) fn records_of(g: &JobGraph, op: OperatorId) -> Option<(u32, u32)> {
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
    // Buffer debloating (FLIP-183) with its target; the simulator's channel-capacity counts
    // records, which Flink's buffers (memory segments of many records) cannot express: the file
    // says so (`python.rs`).
    if let Some(steps) = s.buffer_debloat_target {
        set("taskmanager.network.memory.buffer-debloat.enabled", "true".into());
        set("taskmanager.network.memory.buffer-debloat.target", format!("{} ms", steps as u64 * STEP_MS));
    }
    set("python.fn-execution.bundle.size", BUNDLE_SIZE.to_string());
    // Each of the mini-cluster's TaskManagers can take the whole job (see the runtime).
    set("taskmanager.numberOfTaskSlots", slots.to_string());
    v
}
