//! The job graph. A job is a topology of operators with parallelism, as a user writes it
//! ([`JobSpec`]); [`JobGraph::build`] expands it into tasks (operator subtasks) and channels: one
//! FIFO channel per producer/consumer subtask pair, chosen by the edge's partitioning
//! (forward, hash-by-key, rebalance, broadcast), just as Flink's JobGraph becomes an
//! ExecutionGraph. Sources get their replayable input log ([`InputSpec`]) here, one partition per
//! subtask.

use serde::{Deserialize, Serialize};

pub use crate::engine::core::dataflow::input_log::{InputSpec, LogEntry, SourceInput};
pub use crate::engine::core::dataflow::job_spec::{EdgeSpec, JobSpec, OperatorKind, OperatorSpec, Partitioning};
use crate::engine::core::error::ScenarioError;
use crate::engine::core::ids::{ChannelId, KeyId, OperatorId, RecordId, TaskId};
use crate::engine::core::sorted_vec::{SortedMap, SortedSet};

/// Limits that keep a scenario teachable and a hostile file harmless.
pub const MAX_OPERATORS: usize = 32;
pub const MAX_PARALLELISM: u16 = 8;
pub const MAX_TASKS: usize = 64;
pub const MAX_CHANNELS: usize = 512;
pub const MAX_RECORDS: usize = 200_000;
pub const MAX_NAME_LEN: usize = 40;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordInfo {
    pub label: String,
    pub key: KeyId,
    pub value: i64,
    pub source: TaskId,
    pub offset: u32,
    /// The tick it arrives on a socket source (its offset unless the log entry says).
    pub at: u64,
}

/// The outgoing channels of one task for one outgoing edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputGroup {
    pub partitioning: Partitioning,
    pub channels: Vec<ChannelId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskInfo {
    /// "Count", or `"Count[1]"` for one subtask of a parallel operator.
    pub name: String,
    /// The operator this task is a subtask of.
    pub operator: OperatorId,
    /// Its index among the operator's subtasks.
    pub subtask: u16,
    pub kind: OperatorKind,
    /// Input channels, in order: a barrier handler counts barriers per input.
    pub inputs: Vec<ChannelId>,
    /// Output channels grouped by outgoing edge, each with its partitioning.
    pub outputs: Vec<OutputGroup>,
    /// Every output channel, in order (the union of `outputs`).
    pub out_channels: Vec<ChannelId>,
    /// For a filter: the kept keys.
    pub keep: Vec<KeyId>,
    /// For a source: its input log partition.
    pub log: Vec<RecordId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelInfo {
    /// "Source->Map", or with subtask indices.
    pub name: String,
    /// The producer.
    pub from: TaskId,
    /// The consumer.
    pub to: TaskId,
    /// Position of this channel among the consumer's inputs.
    pub input_index: usize,
    /// Position of this channel among the producer's `out_channels`.
    pub output_index: usize,
}

/// The expanded, immutable job: tasks, channels, records and keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobGraph {
    /// The job as the user wrote it.
    pub spec: JobSpec,
    /// Every subtask, by [`TaskId`].
    pub tasks: Vec<TaskInfo>,
    /// Every channel, by [`ChannelId`].
    pub channels: Vec<ChannelInfo>,
    /// Every source record of every log, by [`RecordId`].
    pub records: Vec<RecordInfo>,
    /// Key names, by [`KeyId`].
    pub keys: Vec<String>,
    /// Tasks in topological order (sources first).
    pub topo_order: Vec<TaskId>,
    /// Per operator: its max parallelism, the number of its key groups (set by the user, else
    /// Flink's default for its parallelism, else, after a restore, the saved state's).
    #[serde(default)]
    pub max_parallelism: Vec<u16>,
}

fn check_name(what: &str, name: &str) -> Result<(), ScenarioError> {
    if name.is_empty() || name.chars().count() > MAX_NAME_LEN {
        return Err(ScenarioError::Topology(format!("{what} name {name:?} must be 1 to {MAX_NAME_LEN} characters")));
    }
    if name.chars().any(|c| c.is_control() || matches!(c, '[' | ']' | '>' | '"')) {
        return Err(ScenarioError::Topology(format!(
            "{what} name {name:?} may not contain control characters, brackets, '>' or quotes"
        )));
    }
    Ok(())
}

impl JobGraph {
    /// Validates the topology and the input and expands them into tasks and channels.
    pub fn build(spec: &JobSpec, input: &InputSpec) -> Result<JobGraph, ScenarioError> {
        let index = check_operators(spec)?;
        let edges = check_edges(spec, &index)?;
        let op_order = operator_order(spec, &edges)?;
        let (parsed, keys) = read_inputs(spec, input, &index)?;
        let (mut tasks, records, first_task) = expand_tasks(spec, &parsed, &keys);
        let channels = connect(spec, &edges, &mut tasks, &first_task)?;
        let topo_order = op_order
            .iter()
            .flat_map(|&i| (0..spec.operators[i].parallelism as usize).map(move |s| (i, s)))
            .map(|(i, s)| TaskId((first_task[i] + s) as u16))
            .collect();
        let max_parallelism = spec
            .operators
            .iter()
            .map(|o| {
                o.max_parallelism.unwrap_or_else(|| {
                    crate::engine::core::dataflow::key_groups::default_max_parallelism(o.parallelism)
                })
            })
            .collect();
        Ok(JobGraph { spec: spec.clone(), tasks, channels, records, keys, topo_order, max_parallelism })
    }

    pub fn task(&self, t: TaskId) -> &TaskInfo {
        &self.tasks[t.index()]
    }
    pub fn channel(&self, c: ChannelId) -> &ChannelInfo {
        &self.channels[c.index()]
    }
    pub fn record(&self, r: RecordId) -> &RecordInfo {
        &self.records[r.0 as usize]
    }
    pub fn label(&self, r: RecordId) -> &str {
        &self.records[r.0 as usize].label
    }
    pub fn key_name(&self, k: KeyId) -> &str {
        &self.keys[k.index()]
    }
    pub fn task_by_name(&self, name: &str) -> Option<TaskId> {
        self.tasks.iter().position(|t| t.name == name).map(|i| TaskId(i as u16))
    }
    pub fn channel_by_name(&self, name: &str) -> Option<ChannelId> {
        self.channels.iter().position(|c| c.name == name).map(|i| ChannelId(i as u16))
    }
    pub fn sources(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.tasks.iter().enumerate().filter(|(_, t)| t.kind == OperatorKind::Source).map(|(i, _)| TaskId(i as u16))
    }
    pub fn has_sink(&self) -> bool {
        self.tasks.iter().any(|t| t.kind == OperatorKind::Sink)
    }
}

/// An edge between two operators, by their places in the spec, with its partitioning.
type Edge = (usize, usize, Partitioning);
/// Per source operator, per partition: (label, key, value, arrival).
type Partitions = Vec<Vec<(String, String, i64, Option<u64>)>>;

/// The operators checked: at least one, not too many, each well named with a parallelism (and a
/// max parallelism) in range, no uid twice, not too many tasks. Returns each operator's place by
/// its name.
fn check_operators(spec: &JobSpec) -> Result<SortedMap<&str, usize>, ScenarioError> {
    let topo = |m: String| ScenarioError::Topology(m);
    if spec.operators.is_empty() {
        return Err(topo("the job has no operators".into()));
    }
    if spec.operators.len() > MAX_OPERATORS {
        return Err(topo(format!(
            "the job has {} operators; at most {MAX_OPERATORS} are allowed",
            spec.operators.len()
        )));
    }
    let mut index: SortedMap<&str, usize> = SortedMap::new();
    for (i, op) in spec.operators.iter().enumerate() {
        check_name("operator", &op.name)?;
        if index.insert(op.name.as_str(), i).is_some() {
            return Err(topo(format!("two operators are named {:?}", op.name)));
        }
        if op.parallelism == 0 || op.parallelism > MAX_PARALLELISM {
            return Err(topo(format!(
                "operator {:?} has parallelism {}; it must be 1 to {MAX_PARALLELISM}",
                op.name, op.parallelism
            )));
        }
        if let Some(m) = op.max_parallelism {
            if m == 0 || m > crate::engine::core::dataflow::key_groups::UPPER_BOUND_MAX_PARALLELISM {
                return Err(topo(format!(
                    "operator {:?} has max parallelism {m}; it must be 1 to {}",
                    op.name,
                    crate::engine::core::dataflow::key_groups::UPPER_BOUND_MAX_PARALLELISM
                )));
            }
            if m < op.parallelism {
                return Err(topo(format!(
                    "operator {:?} has max parallelism {m}, below its parallelism {}; the max parallelism must be at least the parallelism",
                    op.name, op.parallelism
                )));
            }
        }
        if let Some(u) = &op.uid {
            check_name("uid", u)?;
            if spec.operators[..i].iter().any(|o| o.uid.as_deref() == Some(u.as_str())) {
                // StreamGraphHasherV2's refusal of a repeated uid.
                return Err(topo(format!(
                    "operator {:?}: Hash collision on user-specified ID {u:?}. Most likely cause is a non-unique ID. Please check that all IDs specified via `uid(String)` are unique.",
                    op.name
                )));
            }
        }
    }
    let total_tasks: usize = spec.operators.iter().map(|o| o.parallelism as usize).sum();
    if total_tasks > MAX_TASKS {
        return Err(topo(format!("the job expands to {total_tasks} tasks; at most {MAX_TASKS} are allowed")));
    }
    Ok(index)
}

/// The edges checked: between named operators, no self-loop, none twice, no input to a source or
/// output from a sink, forward only between equal parallelisms; every operator but a source has an
/// input.
fn check_edges(spec: &JobSpec, index: &SortedMap<&str, usize>) -> Result<Vec<Edge>, ScenarioError> {
    let topo = |m: String| ScenarioError::Topology(m);
    let op_of = |name: &str, side: &str| -> Result<usize, ScenarioError> {
        index
            .get(&name)
            .copied()
            .ok_or_else(|| ScenarioError::Topology(format!("edge {side} {name:?}: no operator has that name")))
    };
    let mut edges = Vec::new();
    let mut seen_edges = SortedSet::new();
    for e in &spec.edges {
        let (f, t) = (op_of(&e.from, "from")?, op_of(&e.to, "to")?);
        if f == t {
            return Err(topo(format!("edge {:?} -> {:?} is a self-loop; jobs must be acyclic", e.from, e.to)));
        }
        if !seen_edges.insert((f, t)) {
            return Err(topo(format!("edge {:?} -> {:?} appears twice", e.from, e.to)));
        }
        let (fo, to) = (&spec.operators[f], &spec.operators[t]);
        if matches!(to.kind, OperatorKind::Source) {
            return Err(topo(format!("edge {:?} -> {:?}: a source can't have inputs", e.from, e.to)));
        }
        if matches!(fo.kind, OperatorKind::Sink) {
            return Err(topo(format!("edge {:?} -> {:?}: a sink can't have outputs", e.from, e.to)));
        }
        if e.partitioning == Partitioning::Forward && fo.parallelism != to.parallelism {
            return Err(topo(format!(
                "edge {:?} -> {:?} is forward but the parallelisms differ ({} and {}); use hash, rebalance or broadcast",
                e.from, e.to, fo.parallelism, to.parallelism
            )));
        }
        edges.push((f, t, e.partitioning));
    }
    for (i, op) in spec.operators.iter().enumerate() {
        let has_in = edges.iter().any(|&(_, t, _)| t == i);
        if !matches!(op.kind, OperatorKind::Source) && !has_in {
            return Err(topo(format!("operator {:?} has no input; only sources may have none", op.name)));
        }
    }
    Ok(edges)
}

/// A topological order of the operators, by Kahn's algorithm, which also finds a cycle.
fn operator_order(spec: &JobSpec, edges: &[Edge]) -> Result<Vec<usize>, ScenarioError> {
    let topo = |m: String| ScenarioError::Topology(m);
    let mut indeg = vec![0usize; spec.operators.len()];
    for &(_, t, _) in edges {
        indeg[t] += 1;
    }
    let mut ready: Vec<usize> = (0..spec.operators.len()).filter(|&i| indeg[i] == 0).collect();
    let mut op_order = Vec::new();
    while let Some(i) = ready.first().copied() {
        ready.remove(0);
        op_order.push(i);
        for &(f, t, _) in edges {
            if f == i {
                indeg[t] -= 1;
                if indeg[t] == 0 {
                    ready.push(t);
                }
            }
        }
    }
    if op_order.len() != spec.operators.len() {
        return Err(topo("the job has a cycle; barriers in this simulator need an acyclic job".into()));
    }
    Ok(op_order)
}

/// The input logs read: each for a source, a partition per subtask, records well labelled and
/// keyed, not too many. Returns each source's partitions and every key (a filter's kept keys too),
/// sorted.
fn read_inputs(
    spec: &JobSpec,
    input: &InputSpec,
    index: &SortedMap<&str, usize>,
) -> Result<(SortedMap<usize, Partitions>, Vec<String>), ScenarioError> {
    for name in input.keys() {
        match index.get(&name.as_str()) {
            None => return Err(ScenarioError::Input(format!("input for {name:?}: no operator has that name"))),
            Some(&i) if !matches!(spec.operators[i].kind, OperatorKind::Source) => {
                return Err(ScenarioError::Input(format!("input for {name:?}: that operator is not a source")))
            }
            _ => {}
        }
    }
    let mut parsed: SortedMap<usize, Partitions> = SortedMap::new();
    let mut keyset = SortedSet::new();
    let mut labels = SortedSet::new();
    let mut total = 0usize;
    for (i, op) in spec.operators.iter().enumerate() {
        if !matches!(op.kind, OperatorKind::Source) {
            continue;
        }
        let src = input
            .get(&op.name)
            .ok_or_else(|| ScenarioError::Input(format!("source {:?} has no input log", op.name)))?;
        let empty = Vec::new();
        let parts: Vec<&Vec<LogEntry>> = match src {
            SourceInput::Single(v) => vec![v],
            // `[]` parses as zero partitions; for one subtask it means an empty log.
            SourceInput::Partitions(p) if p.is_empty() && op.parallelism == 1 => vec![&empty],
            SourceInput::Partitions(p) => p.iter().collect(),
        };
        if parts.len() != op.parallelism as usize {
            return Err(ScenarioError::Input(format!(
                "source {:?} has parallelism {} but its input has {} partition(s)",
                op.name,
                op.parallelism,
                parts.len()
            )));
        }
        let mut out = Vec::new();
        for p in parts {
            total += p.len();
            if total > MAX_RECORDS {
                return Err(ScenarioError::Input(format!("the input logs hold more than {MAX_RECORDS} records")));
            }
            let mut v = Vec::new();
            for e in p {
                let (label, key, value, at) = e.parse().map_err(ScenarioError::Input)?;
                if label.is_empty() || label.chars().count() > 12 {
                    return Err(ScenarioError::Input(format!("record label {label:?} must be 1 to 12 characters")));
                }
                if key.is_empty() || key.chars().count() > 12 {
                    return Err(ScenarioError::Input(format!(
                        "record {label:?}: key {key:?} must be 1 to 12 characters"
                    )));
                }
                if !labels.insert(label.clone()) {
                    return Err(ScenarioError::Input(format!(
                        "two records are labelled {label:?}; labels must be unique"
                    )));
                }
                keyset.insert(key.clone());
                v.push((label, key, value, at));
            }
            out.push(v);
        }
        parsed.insert(i, out);
    }
    for op in &spec.operators {
        if let OperatorKind::Filter { keep_keys } = &op.kind {
            for k in keep_keys {
                keyset.insert(k.clone());
            }
        }
    }
    if keyset.len() > u16::MAX as usize {
        return Err(ScenarioError::Input("too many distinct keys".into()));
    }
    let keys: Vec<String> = keyset.into_iter().collect();
    Ok((parsed, keys))
}

/// The tasks, in operator order (each operator's subtasks), with a filter's kept keys and a
/// source's log; every record of every log. Returns the tasks, the records and each operator's
/// first task.
fn expand_tasks(
    spec: &JobSpec,
    parsed: &SortedMap<usize, Partitions>,
    keys: &[String],
) -> (Vec<TaskInfo>, Vec<RecordInfo>, Vec<usize>) {
    let key_id = |k: &str| KeyId(keys.binary_search_by(|x| x.as_str().cmp(k)).expect("key collected") as u16);
    // Tasks, in operator order.
    let mut first_task = vec![0usize; spec.operators.len()];
    let mut tasks: Vec<TaskInfo> = Vec::new();
    let mut records = Vec::new();
    for (i, op) in spec.operators.iter().enumerate() {
        first_task[i] = tasks.len();
        for s in 0..op.parallelism {
            let name = if op.parallelism == 1 { op.name.clone() } else { format!("{}[{}]", op.name, s) };
            let keep = match &op.kind {
                OperatorKind::Filter { keep_keys } => keep_keys.iter().map(|k| key_id(k)).collect(),
                _ => vec![],
            };
            let tid = TaskId(tasks.len() as u16);
            let mut log = Vec::new();
            if let Some(parts) = parsed.get(&i) {
                for (off, (label, key, value, at)) in parts[s as usize].iter().enumerate() {
                    log.push(RecordId(records.len() as u32));
                    records.push(RecordInfo {
                        label: label.clone(),
                        key: key_id(key),
                        value: *value,
                        source: tid,
                        offset: off as u32,
                        at: at.unwrap_or(off as u64),
                    });
                }
            }
            tasks.push(TaskInfo {
                name,
                operator: OperatorId(i as u16),
                subtask: s,
                kind: op.kind.clone(),
                inputs: vec![],
                outputs: vec![],
                out_channels: vec![],
                keep,
                log,
            });
        }
    }
    (tasks, records, first_task)
}

/// The channels, edge by edge: one per producer and consumer subtask pair its partitioning
/// connects, each added to its tasks' inputs and outputs.
fn connect(
    spec: &JobSpec,
    edges: &[Edge],
    tasks: &mut [TaskInfo],
    first_task: &[usize],
) -> Result<Vec<ChannelInfo>, ScenarioError> {
    let topo = |m: String| ScenarioError::Topology(m);
    // Channels, edge by edge.
    let mut channels: Vec<ChannelInfo> = Vec::new();
    for &(f, t, part) in edges {
        let (pf, pt) = (spec.operators[f].parallelism as usize, spec.operators[t].parallelism as usize);
        for s in 0..pf {
            let from = first_task[f] + s;
            let targets: Vec<usize> = if part == Partitioning::Forward { vec![s] } else { (0..pt).collect() };
            let mut group = OutputGroup { partitioning: part, channels: vec![] };
            for d in targets {
                let to = first_task[t] + d;
                if channels.len() >= MAX_CHANNELS {
                    return Err(topo(format!("the job expands to more than {MAX_CHANNELS} channels")));
                }
                let cid = ChannelId(channels.len() as u16);
                channels.push(ChannelInfo {
                    name: format!("{}->{}", tasks[from].name, tasks[to].name),
                    from: TaskId(from as u16),
                    to: TaskId(to as u16),
                    input_index: tasks[to].inputs.len(),
                    output_index: tasks[from].out_channels.len(),
                });
                tasks[to].inputs.push(cid);
                tasks[from].out_channels.push(cid);
                group.channels.push(cid);
            }
            tasks[from].outputs.push(group);
        }
    }
    Ok(channels)
}
