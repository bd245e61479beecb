//! Restoring a savepoint (or retained checkpoint) into a changed program, after Flink's
//! `Checkpoints.loadAndValidateCheckpoint` and `StateAssignmentOperation`. Any program that can
//! read the saved state may restore it; what decides is the operator id
//! (`crate::engine::program::operator_id`), never the name.
//!
//! - **Mapping by operator id.** Each saved operator's state goes to the new program's operator
//!   with the same id. A saved operator with state and no such operator refuses the restore with
//!   Flink's message ("Cannot map checkpoint/savepoint state for operator … to the new program,
//!   because the operator is not available in the new program. If you want to allow to skip
//!   this, you can set the --allowNonRestoredState option on the CLI."), unless
//!   `--allowNonRestoredState` is set, which skips (drops) that state. A saved operator without
//!   state is skipped either way ("Skipping empty savepoint state for operator"); a keyed
//!   operator always has state, even before its first key, since it registers its state when it
//!   opens.
//! - **State on the wrong operator.** The id is all that counts: a Filter inserted without uids
//!   before Count can take Count's generated id (same place in the traversal, same chainable
//!   out-edges, same inputs), and then Count's state is restored into the Filter, which never
//!   reads it, while Count, with a new id, starts empty. Flink accepts this without the option
//!   and without a word; the records Count had counted are lost (`StateFate::Unread`).
//! - **Max parallelism.** A new operator that sets its max parallelism to another value than the
//!   saved state's is refused ("Max parallelism mismatch between checkpoint/savepoint state and
//!   new program"); one that does not set it takes the saved value. A saved max parallelism below
//!   the new parallelism is refused too (`checkParallelismPreconditions`).
//! - **Keyed state** is cut into key groups; each new subtask takes the key groups of its range
//!   (`createKeyGroupPartitions`), so whole key groups move and every key keeps its count.
//! - **Operator state** that is not keyed (a source's offset) goes back to the same subtask when
//!   the parallelism is unchanged (`RoundRobinOperatorStateRepartitioner` returns the old
//!   assignment as it is). The simulator reads one log partition per source subtask, so it
//!   refuses a changed source parallelism (listed among the simplifications).
//!
//! The new job runs the new program on the same input. Its ledger judges against the new
//! program's failure-free run (`Sim::new` builds that run from the new graph).

use serde::{Deserialize, Serialize};

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::channel::SeqSet;
use crate::engine::core::dataflow::external_system::ExternalSystem;
use crate::engine::core::dataflow::job_graph::{
    InputSpec, JobGraph, JobSpec, LogEntry, OperatorKind, Partitioning, SourceInput,
};
use crate::engine::core::dataflow::key_groups::{assign_to_key_group, operator_index_for_key_group};
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::error::{ActionError, ScenarioError};
use crate::engine::core::ids::{CheckpointId, OperatorId, RecordId, TaskId};
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::core::sorted_vec::SortedMap;
use crate::engine::jobmanager::stats::Takeover;
use crate::engine::jobmanager::storage::CompletedCheckpoint;
use crate::engine::program::operator_id::{operator_ids, OperatorHash};

/// What became of one saved operator's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StateFate {
    /// Mapped to the new operator with the same id.
    Kept,
    /// No operator has its id; skipped by `--allowNonRestoredState`.
    Dropped,
    /// No operator has its id, but it had no state: skipped without a word.
    SkippedEmpty,
    /// No operator has its id and it had state: the restore is refused.
    Refused,
    /// Mapped by id to an operator that never reads it (a Filter that took Count's generated
    /// id): Flink restores it without a word and the operator ignores it, so the state is lost.
    Unread,
}

impl StateFate {
    pub fn id(self) -> &'static str {
        match self {
            StateFate::Kept => "kept",
            StateFate::Dropped => "dropped",
            StateFate::SkippedEmpty => "skipped-empty",
            StateFate::Refused => "refused",
            StateFate::Unread => "unread",
        }
    }
}

/// One row of the mapping table: a saved operator, its id, and where its state went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MappingRow {
    /// The saved operator's name in the old program.
    pub operator: String,
    pub id: OperatorHash,
    /// Did it hold state (`OperatorSubtaskState.hasState()`)?
    pub has_state: bool,
    /// The new program's operator with the same id.
    pub target: Option<String>,
    pub fate: StateFate,
    pub old_parallelism: u16,
    pub new_parallelism: Option<u16>,
    /// The saved max parallelism (the number of key groups).
    pub max_parallelism: u16,
}

/// Why a restore into a changed program does not happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No such savepoint or retained checkpoint, or the job still runs.
    Action(ActionError),
    /// The new program does not build, or its settings don't fit it.
    Build(ScenarioError),
    /// Flink's refusal: saved state with no operator to go to.
    NotAvailable { pointer: String, id: OperatorHash, operator: String },
    /// Flink's refusal: the new program sets another max parallelism.
    MaxParallelismMismatch { pointer: String, id: OperatorHash, saved: u16, new: u16 },
    /// Flink's refusal: the saved max parallelism is below the new parallelism.
    MaxParallelismTooLow { id: OperatorHash, saved: u16, parallelism: u16 },
    /// The simulator's limit: a source reads one partition per subtask.
    SourceRescaled { operator: String, old: u16, new: u16 },
    /// A keyed operator whose input is not keyed (forward, rebalance, broadcast) changed its
    /// parallelism: Flink keeps keyed state only behind `keyBy`, whose key groups a rescale moves.
    NotKeyGroupRouted { operator: String },
    /// The simulator's limit: in-flight records stored with an unaligned snapshot.
    ChannelState { operator: String },
    /// The simulator's limit: a sink changed its parallelism.
    SinkRescaled { operator: String },
}

impl Refusal {
    /// A stable name for tests and the page.
    pub fn id(&self) -> &'static str {
        match self {
            Refusal::Action(_) => "action",
            Refusal::Build(_) => "build",
            Refusal::NotAvailable { .. } => "not-available",
            Refusal::MaxParallelismMismatch { .. } => "max-parallelism-mismatch",
            Refusal::MaxParallelismTooLow { .. } => "max-parallelism-too-low",
            Refusal::SourceRescaled { .. } => "source-rescaled",
            Refusal::NotKeyGroupRouted { .. } => "not-key-group-routed",
            Refusal::ChannelState { .. } => "channel-state",
            Refusal::SinkRescaled { .. } => "sink-rescaled",
        }
    }

    /// The message: Flink's own words where Flink refuses (`IllegalStateException` texts of
    /// `Checkpoints.java` and `StateAssignmentOperation.java`), the simulator's where it is the
    /// simulator's limit.
    pub fn message(&self) -> String {
        match self {
            Refusal::Action(e) => e.to_string(),
            Refusal::Build(e) => e.to_string(),
            Refusal::NotAvailable { pointer, id, .. } => format!(
                "Failed to rollback to checkpoint/savepoint {pointer}. Cannot map checkpoint/savepoint state for operator {id} to the new program, because the operator is not available in the new program. If you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI."
            ),
            Refusal::MaxParallelismMismatch { pointer, id, saved, new } => format!(
                "Failed to rollback to checkpoint/savepoint {pointer}. Max parallelism mismatch between checkpoint/savepoint state and new program. Cannot map operator {id} with max parallelism {saved} to new program with max parallelism {new}. This indicates that the program has been changed in a non-compatible way after the checkpoint/savepoint."
            ),
            Refusal::MaxParallelismTooLow { id, saved, parallelism } => format!(
                "The state for task {id} can not be restored. The maximum parallelism ({saved}) of the restored state is lower than the configured parallelism ({parallelism}). Please reduce the parallelism of the task to be lower or equal to the maximum parallelism."
            ),
            Refusal::SourceRescaled { operator, old, new } => format!(
                "source {operator:?} changed its parallelism from {old} to {new}: in this simulator a source reads one log partition per subtask, so its parallelism can't change (Flink would deal its splits out round robin)"
            ),
            Refusal::NotKeyGroupRouted { operator } => format!(
                "keyed operator {operator:?} changed its parallelism, but its input is not keyed by key (a forward, rebalance or broadcast edge, which the simulator lets into a count): Flink keeps keyed state only on a keyed stream (\"Keyed state can only be used on a 'keyed stream', i.e., after a 'keyBy()' operation.\"), and a rescale moves its key groups; give the operator's inputs hash edges (keyBy)"
            ),
            Refusal::ChannelState { operator } => format!(
                "the snapshot stores in-flight records for operator {operator:?} (unaligned): this simulator restores a changed program only from snapshots without channel state, as Flink's savepoints are always aligned"
            ),
            Refusal::SinkRescaled { operator } => {
                format!("sink {operator:?} changed its parallelism: in this simulator a sink keeps its parallelism")
            }
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

/// A restore into a changed program that happened: the mapping table, and per new task whether
/// it got state from the snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestorePlan {
    pub rows: Vec<MappingRow>,
    /// The new program's graph, with the max parallelism it took from the saved state.
    pub graph: JobGraph,
    /// Per new task: its state (the saved one, redistributed; or a fresh one).
    pub states: Vec<OpState>,
    /// Per new task: was its operator mapped to saved state?
    pub restored: Vec<bool>,
}

/// The savepoint's path as the page shows it (Flink prints the external pointer).
pub fn pointer(id: CheckpointId, savepoint: bool) -> String {
    if savepoint {
        format!("file:/savepoints/savepoint-{}", id.0)
    } else {
        format!("file:/checkpoints/chk-{}", id.0)
    }
}

/// The old job's input, as the new job reads it: the same logs, partition by partition.
pub fn input_of(g: &JobGraph) -> InputSpec {
    let mut input = InputSpec::new();
    for (i, op) in g.spec.operators.iter().enumerate().filter(|(_, o)| o.kind == OperatorKind::Source) {
        let parts: Vec<Vec<LogEntry>> = g
            .tasks
            .iter()
            .filter(|t| t.operator == OperatorId(i as u16))
            .map(|t| {
                t.log
                    .iter()
                    .map(|r| {
                        let r = g.record(*r);
                        LogEntry::Full {
                            label: r.label.clone(),
                            key: g.key_name(r.key).to_string(),
                            value: r.value,
                            at: Some(r.at),
                        }
                    })
                    .collect()
            })
            .collect();
        input.insert(op.name.clone(), SourceInput::for_parallelism(op.parallelism, parts));
    }
    input
}

fn state_kind(s: &OpState) -> &'static str {
    match s {
        OpState::Source { .. } => "source",
        OpState::Stateless => "stateless",
        OpState::Keyed { .. } => "keyed",
        OpState::Sink { .. } => "sink",
    }
}

/// `OperatorSubtaskState.hasState()`: a source always has its offset; a keyed operator always,
/// because it registers its keyed state when it opens (`HeapKeyedStateBackend`), and
/// `HeapSnapshotStrategy` writes a registered state's meta information even with no key in it;
/// a two-phase-commit sink once it holds a transaction.
fn has_state(s: &OpState) -> bool {
    match s {
        OpState::Source { .. } => true,
        OpState::Stateless => false,
        OpState::Keyed { .. } => true,
        OpState::Sink { open, pending } => open.is_some() || !pending.is_empty(),
    }
}

/// A new task's state before any restore, as `Sim::initial_state` gives it.
pub fn fresh_state(g: &JobGraph, t: TaskId, sink: crate::engine::settings::SinkMode) -> OpState {
    use crate::engine::settings::SinkMode;
    match g.task(t).kind {
        OperatorKind::Source => OpState::Source { next_offset: 0 },
        OperatorKind::Count | OperatorKind::Sum => OpState::Keyed { entries: SortedMap::new() },
        OperatorKind::Sink if matches!(sink, SinkMode::TwoPhaseCommit | SinkMode::Transactional | SinkMode::Kafka) => {
            OpState::Sink { open: None, pending: vec![] }
        }
        _ => OpState::Stateless,
    }
}

/// Maps the snapshot `cp` of program `old` into `new_spec`: Flink's checks, then the state of
/// each new task. `initial` gives a new task's fresh state.
pub fn plan(
    old: &JobGraph,
    cp: &CompletedCheckpoint,
    pointer: &str,
    new_spec: &JobSpec,
    allow_non_restored_state: bool,
    initial: impl Fn(&JobGraph, TaskId) -> OpState,
) -> Result<RestorePlan, Refusal> {
    let input = input_of(old);
    // The simulator's limit first: a source reads one partition per subtask.
    for o in &new_spec.operators {
        if let Some(old_op) = old.spec.operators.iter().find(|x| x.name == o.name && x.kind == OperatorKind::Source) {
            if o.kind == OperatorKind::Source && o.parallelism != old_op.parallelism {
                return Err(Refusal::SourceRescaled {
                    operator: o.name.clone(),
                    old: old_op.parallelism,
                    new: o.parallelism,
                });
            }
        }
    }
    let mut graph = JobGraph::build(new_spec, &input).map_err(Refusal::Build)?;
    let old_ids = operator_ids(&old.spec);
    let new_ids = operator_ids(new_spec);
    let mut states: Vec<OpState> = (0..graph.tasks.len()).map(|t| initial(&graph, TaskId(t as u16))).collect();
    let mut restored = vec![false; graph.tasks.len()];
    let mut rows = Vec::new();
    for (oi, op) in old.spec.operators.iter().enumerate() {
        let id = old_ids[oi];
        let saved: Vec<&TaskSnapshot> =
            cp.snapshots.iter().filter(|s| old.task(s.task).operator == OperatorId(oi as u16)).collect();
        let stateful = saved.iter().any(|s| has_state(&s.state));
        let saved_max = old.max_parallelism[oi];
        let target = new_ids.iter().position(|h| *h == id);
        let mut row = MappingRow {
            operator: op.name.clone(),
            id,
            has_state: stateful,
            target: target.map(|t| new_spec.operators[t].name.clone()),
            fate: StateFate::Kept,
            old_parallelism: op.parallelism,
            new_parallelism: target.map(|t| new_spec.operators[t].parallelism),
            max_parallelism: saved_max,
        };
        let Some(ni) = target else {
            row.fate = match (stateful, allow_non_restored_state) {
                (false, _) => StateFate::SkippedEmpty,
                (true, true) => StateFate::Dropped,
                (true, false) => {
                    return Err(Refusal::NotAvailable { pointer: pointer.into(), id, operator: op.name.clone() })
                }
            };
            rows.push(row);
            continue;
        };
        let new_op = &new_spec.operators[ni];
        // Checkpoints.loadAndValidateCheckpoint: a configured max parallelism must match.
        match new_op.max_parallelism {
            Some(m) if m != saved_max => {
                return Err(Refusal::MaxParallelismMismatch { pointer: pointer.into(), id, saved: saved_max, new: m })
            }
            _ => graph.max_parallelism[ni] = saved_max,
        }
        if stateful && saved_max < new_op.parallelism {
            return Err(Refusal::MaxParallelismTooLow { id, saved: saved_max, parallelism: new_op.parallelism });
        }
        if saved.iter().any(|s| !s.in_flight.is_empty()) {
            return Err(Refusal::ChannelState { operator: op.name.clone() });
        }
        let new_tasks: Vec<TaskId> = (0..graph.tasks.len())
            .filter(|t| graph.tasks[*t].operator == OperatorId(ni as u16))
            .map(|t| TaskId(t as u16))
            .collect();
        for &t in &new_tasks {
            restored[t.index()] = true;
        }
        if !stateful {
            rows.push(row);
            continue;
        }
        let fresh = &states[new_tasks[0].index()];
        if state_kind(&saved[0].state) != state_kind(fresh) {
            // Checkpoints.loadAndValidateCheckpoint maps state by id alone, and an operator that
            // does not register the saved state never reads it (a Filter has no keyed backend:
            // StreamTaskStateInitializerImpl builds one only for a keyed operator). No refusal,
            // no log line: the state is gone, and the operator that would read it starts empty.
            row.fate = StateFate::Unread;
            rows.push(row);
            continue;
        }
        match &saved[0].state {
            OpState::Keyed { .. } => {
                let by_key_group =
                    new_spec.edges.iter().filter(|e| e.to == new_op.name).all(|e| e.partitioning == Partitioning::Hash);
                let same = new_op.parallelism == op.parallelism;
                if !by_key_group && !same && new_op.parallelism != 1 {
                    return Err(Refusal::NotKeyGroupRouted { operator: new_op.name.clone() });
                }
                for s in &saved {
                    let OpState::Keyed { entries } = &s.state else { continue };
                    for (k, e) in entries.iter() {
                        let key = old.key_name(*k);
                        let sub = if by_key_group {
                            operator_index_for_key_group(
                                saved_max,
                                new_op.parallelism,
                                assign_to_key_group(key, saved_max),
                            )
                        } else if same {
                            old.task(s.task).subtask
                        } else {
                            0
                        };
                        let nk = graph.keys.binary_search_by(|x| x.as_str().cmp(key)).expect("same input, same keys");
                        let mut e = e.clone();
                        e.contributors = e.contributors.iter().map(|r| remap_record(old, &graph, *r)).collect();
                        let OpState::Keyed { entries: to } = &mut states[new_tasks[sub as usize].index()] else {
                            unreachable!("kind checked")
                        };
                        to.insert(crate::engine::core::ids::KeyId(nk as u16), e);
                    }
                }
            }
            OpState::Sink { .. } if new_op.parallelism != op.parallelism => {
                return Err(Refusal::SinkRescaled { operator: new_op.name.clone() })
            }
            _ => {
                // Operator state, same parallelism (sources are checked above): each subtask
                // gets its own back.
                for s in &saved {
                    states[new_tasks[old.task(s.task).subtask as usize].index()] = s.state.clone();
                }
            }
        }
        rows.push(row);
    }
    Ok(RestorePlan { rows, graph, states, restored })
}

/// A record of the old graph as the new graph numbers it (same input, same label).
fn remap_record(old: &JobGraph, new: &JobGraph, r: RecordId) -> RecordId {
    let label = old.label(r);
    RecordId(new.records.iter().position(|x| x.label == label).expect("same input, same labels") as u32)
}

/// The external system as the new job sees it: the same rows, numbered by the new graph.
fn remap_external(old: &JobGraph, new: &JobGraph, ext: &ExternalSystem) -> ExternalSystem {
    let sink_of = |t: TaskId| -> TaskId {
        let info = old.task(t);
        let name = &old.spec.operators[info.operator.index()].name;
        new.tasks
            .iter()
            .position(|x| {
                x.kind == OperatorKind::Sink
                    && &new.spec.operators[x.operator.index()].name == name
                    && x.subtask == info.subtask
            })
            .or_else(|| new.tasks.iter().position(|x| x.kind == OperatorKind::Sink))
            .map(|i| TaskId(i as u16))
            .unwrap_or(t)
    };
    let row =
        |r: &crate::engine::core::dataflow::external_system::Row| crate::engine::core::dataflow::external_system::Row {
            record: remap_record(old, new, r.record),
            sink: sink_of(r.sink),
            ..*r
        };
    let mut out = ExternalSystem {
        appended: ext.appended.iter().map(row).collect(),
        table: SortedMap::new(),
        txns: ext
            .txns
            .iter()
            .map(|t| crate::engine::core::dataflow::external_system::Txn {
                id: t.id,
                sink: sink_of(t.sink),
                rows: t.rows.iter().map(row).collect(),
                status: t.status,
            })
            .collect(),
        batch_commits: ext.batch_commits.clone(),
        kafka: ext.kafka.clone(),
    };
    for (_, r) in ext.table.iter() {
        let r = row(r);
        out.table.insert(r.record, r);
    }
    out
}

impl Sim {
    /// `flink run -s PATH [--allowNonRestoredState]` with a changed program: a new job of
    /// `new_spec`, on the same input and settings, restored from savepoint (or newest retained
    /// checkpoint) `from` of this stopped job. Returns the new run, the mapping table and the
    /// events of its start.
    pub fn restore_into(
        &self,
        from: CheckpointId,
        new_spec: &JobSpec,
        allow_non_restored_state: bool,
    ) -> Result<(Sim, RestorePlan, Vec<Event>), Refusal> {
        self.check_job_control(crate::engine::Action::Resume { from }).map_err(Refusal::Action)?;
        let (cp, savepoint) = self.snapshot_to_resume(from).map(|(c, s)| (c.clone(), s)).expect("checked");
        let settings = (*self.settings).clone();
        let sink = settings.sink;
        let initial = |g: &JobGraph, t: TaskId| fresh_state(g, t, sink);
        let plan = plan(&self.graph, &cp, &pointer(from, savepoint), new_spec, allow_non_restored_state, initial)?;
        let mut new = Sim::new(plan.graph.clone(), settings, self.seed).map_err(Refusal::Build)?;
        let g = new.graph.clone();
        new.tick = self.tick;
        new.durable.checkpoint_ids = self.durable.checkpoint_ids.clone();
        new.durable.external = remap_external(&self.graph, &g, &self.durable.external);
        // The restored snapshot, as the new program's checkpoint: it starts the new job's store
        // (one snapshot per task, as every checkpoint has; a task without saved state has its
        // fresh one).
        let snapshots: Vec<TaskSnapshot> = (0..g.tasks.len())
            .map(|t| TaskSnapshot {
                task: TaskId(t as u16),
                state: plan.states[t].clone(),
                checkpoint: Some(from),
                tick: self.tick,
                sent: vec![SeqSet::default(); g.tasks[t].out_channels.len()],
                received: vec![SeqSet::default(); g.tasks[t].inputs.len()],
                in_flight: vec![],
            })
            .collect();
        new.durable.storage.completed = vec![CompletedCheckpoint {
            id: from,
            trigger_tick: cp.trigger_tick,
            completed_tick: cp.completed_tick,
            snapshots,
        }];
        // The history that counts: what the restored operators' state stands for. A record before
        // a restored source offset took effect wherever the new program's failure-free run takes
        // it, at the tasks restored from saved state.
        let offsets: Vec<u32> = (0..g.tasks.len())
            .map(|t| match &plan.states[t] {
                OpState::Source { next_offset } if plan.restored[t] => *next_offset,
                _ => 0,
            })
            .collect();
        let expected = new.expected.clone();
        for (c, counts) in expected.places.0.iter().enumerate() {
            if !plan.restored[g.channels[c].to.index()] {
                continue;
            }
            for &(r, n) in counts {
                let rec = g.record(r);
                if rec.offset < offsets[rec.source.index()] {
                    for _ in 0..n {
                        new.effects.note(0, r, crate::engine::core::ids::ChannelId(c as u16));
                    }
                }
            }
        }
        for s in g.sources() {
            new.read_high_water[s.index()] = offsets[s.index()];
        }
        let mut out =
            vec![Event::JobSubmitted { from, savepoint, next_id: CheckpointId(self.durable.checkpoint_ids.0) }];
        new.restart(true, Takeover::Restart, false, &mut out);
        Ok((new, plan, out))
    }
}
