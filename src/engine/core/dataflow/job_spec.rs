//! The job spec: the topology as a user writes it in a scenario file, before it is expanded
//! ([`crate::engine::core::dataflow::job_graph::JobGraph::build`]): operators, each of a kind (source, map, filter, keyed
//! count, keyed sum, sink) with a parallelism and optionally a `uid` and a max parallelism, and
//! the edges between them, each with its partitioning (forward, hash-by-key, rebalance,
//! broadcast), as Flink's DataStream program declares its operators and their connections.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum OperatorKind {
    /// Reads a replayable log by offset; its state is the next offset to read.
    Source,
    /// Stateless: passes every record on unchanged.
    Map,
    /// Stateless: passes on only records whose key is listed.
    Filter { keep_keys: Vec<String> },
    /// Keyed count: per key, the records that contributed (count(x) = 3 from {a, b, c}).
    /// Emits each updated count downstream.
    Count,
    /// Keyed sum of record values, keeping the contributing records too.
    Sum,
    /// Writes to an external system outside the job that survives crashes.
    Sink,
}

impl OperatorKind {
    pub fn is_stateful(&self) -> bool {
        matches!(self, OperatorKind::Count | OperatorKind::Sum)
    }
    pub fn label(&self) -> &'static str {
        match self {
            OperatorKind::Source => "source",
            OperatorKind::Map => "map",
            OperatorKind::Filter { .. } => "filter",
            OperatorKind::Count => "keyed count",
            OperatorKind::Sum => "keyed sum",
            OperatorKind::Sink => "sink",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Partitioning {
    /// Subtask i sends to subtask i; both sides need the same parallelism.
    #[default]
    Forward,
    /// keyBy, routed as Flink routes it (`KeyGroupStreamPartitioner`, shown as HASH in Flink's
    /// web UI): the key's Java `hashCode`, murmur-hashed into one of the consumer's
    /// max-parallelism key groups, goes to the subtask owning that key group
    /// (`crate::engine::core::dataflow::key_groups`). Files may also spell it `key-groups`.
    #[serde(alias = "key-groups")]
    Hash,
    /// Round robin over the consumer subtasks.
    Rebalance,
    /// Every record to every consumer subtask.
    Broadcast,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawOperator", into = "RawOperator")]
pub struct OperatorSpec {
    pub name: String,
    pub kind: OperatorKind,
    pub parallelism: u16,
    /// `uid(...)`: the operator's id is the hash of this string instead of one generated from
    /// its place in the graph (`crate::engine::program::operator_id`).
    pub uid: Option<String>,
    /// `setMaxParallelism(...)`, set by the user: the number of key groups. Unset, it is
    /// Flink's default for the parallelism (`computeDefaultMaxParallelism`), or, on a restore,
    /// the saved state's.
    pub max_parallelism: Option<u16>,
}

/// An operator as spelled in a scenario file:
/// `{"name": "C", "kind": "filter", "keep-keys": ["x"], "parallelism": 2}`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOperator {
    name: String,
    kind: String,
    #[serde(default = "one")]
    parallelism: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keep_keys: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_parallelism: Option<u16>,
}

impl TryFrom<RawOperator> for OperatorSpec {
    type Error = String;
    fn try_from(r: RawOperator) -> Result<Self, String> {
        let kind = match (r.kind.as_str(), r.keep_keys) {
            ("filter", Some(keep_keys)) => OperatorKind::Filter { keep_keys },
            ("filter", None) => return Err(format!("filter {:?} needs \"keep-keys\"", r.name)),
            (_, Some(_)) => return Err(format!("operator {:?}: only a filter has \"keep-keys\"", r.name)),
            ("source", None) => OperatorKind::Source,
            ("map", None) => OperatorKind::Map,
            ("count", None) => OperatorKind::Count,
            ("sum", None) => OperatorKind::Sum,
            ("sink", None) => OperatorKind::Sink,
            (other, None) => {
                return Err(format!(
                    "operator {:?} has kind {other:?}; the kinds are source, map, filter, count, sum, sink",
                    r.name
                ))
            }
        };
        Ok(OperatorSpec {
            name: r.name,
            kind,
            parallelism: r.parallelism,
            uid: r.uid,
            max_parallelism: r.max_parallelism,
        })
    }
}

impl From<OperatorSpec> for RawOperator {
    fn from(o: OperatorSpec) -> Self {
        let (kind, keep_keys) = match o.kind {
            OperatorKind::Source => ("source", None),
            OperatorKind::Map => ("map", None),
            OperatorKind::Filter { keep_keys } => ("filter", Some(keep_keys)),
            OperatorKind::Count => ("count", None),
            OperatorKind::Sum => ("sum", None),
            OperatorKind::Sink => ("sink", None),
        };
        RawOperator {
            name: o.name,
            kind: kind.into(),
            parallelism: o.parallelism,
            keep_keys,
            uid: o.uid,
            max_parallelism: o.max_parallelism,
        }
    }
}

fn one() -> u16 {
    1
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeSpec {
    pub from: String,
    pub to: String,
    #[serde(default)]
    pub partitioning: Partitioning,
}

impl EdgeSpec {
    /// The edge as settings and menus name it: "From->To", by operator names.
    pub fn name(&self) -> String {
        format!("{}->{}", self.from, self.to)
    }
}

/// A topology as written in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobSpec {
    pub operators: Vec<OperatorSpec>,
    pub edges: Vec<EdgeSpec>,
}
