//! Spark's RDD lineage: each RDD remembers the RDD it was made from and how, and a lost partition
//! is computed again from it. Follows Spark's `RDD` and `Dependency` classes:
//!
//! - A **narrow** dependency (`map`, `flatMap`, `filter`: a `OneToOneDependency`) makes partition
//!   *p* from partition *p* of the parent alone, in the same task (a pipeline).
//! - A **wide** dependency (`reduceByKey`: a `ShuffleDependency`) makes every partition from a piece
//!   of every parent partition. The DAGScheduler cuts the lineage there into **stages**: the parent
//!   side is a shuffle-map stage whose tasks write shuffle outputs, the child side reads them.
//! - **Storage levels**: `persist()` (MEMORY_ONLY, as `cache()`) keeps a computed partition in its
//!   executor's memory; `checkpoint()` writes it to reliable storage and truncates the lineage there.
//!
//! The job here is a chain (each RDD has one parent), as in the article's figure: a narrow chain
//! above P00 and P01, and a wide dependency from them to P10 and P11.

use serde::{Deserialize, Serialize};

/// How an RDD is made from its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    /// `textFile`: the first RDD, read from the input splits in reliable storage (HDFS).
    Input,
    /// `flatMap` into lower-case words, (word, 1) each: narrow.
    Words,
    /// `filter` keeping the words of at least three letters: narrow.
    DropShort,
    /// `reduceByKey(_ + _)`: wide, a shuffle.
    CountByKey,
}

impl Op {
    pub fn wide(self) -> bool {
        self == Op::CountByKey
    }
    /// The Spark call.
    pub fn call(self) -> &'static str {
        match self {
            Op::Input => "textFile",
            Op::Words => "flatMap",
            Op::DropShort => "filter",
            Op::CountByKey => "reduceByKey",
        }
    }
}

/// Where an RDD's computed partitions are kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Keep {
    /// Nowhere: computed, used, dropped.
    #[default]
    None,
    /// `persist()` with MEMORY_ONLY: in the executor's memory, lost with the executor.
    Persist,
    /// `checkpoint()`: in reliable storage, which survives executors.
    Checkpoint,
}

impl Keep {
    pub fn id(self) -> &'static str {
        match self {
            Keep::None => "none",
            Keep::Persist => "persist",
            Keep::Checkpoint => "checkpoint",
        }
    }
    pub fn from_id(s: &str) -> Option<Keep> {
        [Keep::None, Keep::Persist, Keep::Checkpoint].into_iter().find(|k| k.id() == s)
    }
}

/// One RDD of the chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RddSpec {
    /// The RDD's name ("words").
    pub name: String,
    /// Its partitions are named label + index ("P1" gives P10, P11).
    pub label: String,
    pub op: Op,
    /// Partitions: for the input and a wide dependency (a narrow one keeps its parent's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partitions: Option<u8>,
    #[serde(default, skip_serializing_if = "is_none")]
    pub keep: Keep,
}

fn is_none(k: &Keep) -> bool {
    *k == Keep::None
}

/// A stage: the RDDs `first..=last` of the chain, computed by one task per partition of `last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stage {
    pub first: usize,
    pub last: usize,
    pub partitions: u8,
}

/// The lineage: the chain of RDDs, their partition counts and the stages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lineage {
    pub rdds: Vec<RddSpec>,
    pub partitions: Vec<u8>,
    pub stages: Vec<Stage>,
}

impl Lineage {
    /// Checks the chain (an input first, then narrow and wide steps, 1 to 8 partitions, labels
    /// unique) and cuts it into stages.
    pub fn new(rdds: Vec<RddSpec>) -> Result<Lineage, String> {
        if rdds.is_empty() || rdds.len() > 8 {
            return Err("\"rdds\" must list 1 to 8 RDDs".into());
        }
        if rdds[0].op != Op::Input || rdds.iter().skip(1).any(|r| r.op == Op::Input) {
            return Err("the first RDD, and only it, must have \"op\": \"input\"".into());
        }
        let mut partitions = Vec::with_capacity(rdds.len());
        for (i, r) in rdds.iter().enumerate() {
            let n = match (r.op == Op::Input || r.op.wide(), r.partitions) {
                (true, Some(n)) => n,
                (true, None) => return Err(format!("RDD \"{}\" needs \"partitions\"", r.name)),
                (false, None) => partitions[i - 1],
                (false, Some(_)) => {
                    return Err(format!("RDD \"{}\" is narrow: it keeps its parent's partitions", r.name))
                }
            };
            if !(1..=8).contains(&n) {
                return Err(format!("RDD \"{}\" must have 1 to 8 partitions", r.name));
            }
            if r.label.is_empty() || r.label.len() > 4 || rdds[..i].iter().any(|o| o.label == r.label) {
                return Err(format!("RDD \"{}\" needs a label of 1 to 4 characters, unlike the others", r.name));
            }
            partitions.push(n);
        }
        let mut stages = Vec::new();
        let mut first = 0;
        for i in 1..=rdds.len() {
            if i == rdds.len() || rdds[i].op.wide() {
                stages.push(Stage { first, last: i - 1, partitions: partitions[i - 1] });
                first = i;
            }
        }
        Ok(Lineage { rdds, partitions, stages })
    }

    /// The stage that computes RDD `rdd`.
    pub fn stage_of(&self, rdd: usize) -> usize {
        self.stages.iter().position(|s| (s.first..=s.last).contains(&rdd)).expect("every RDD is in a stage")
    }

    /// The partition's name: label + index ("P10").
    pub fn name(&self, rdd: usize, part: u8) -> String {
        format!("{}{part}", self.rdds[rdd].label)
    }

    /// The partitions of the parent that partition `part` of `rdd` depends on.
    pub fn parents(&self, rdd: usize, part: u8) -> Vec<(usize, u8)> {
        match rdd {
            0 => Vec::new(),
            _ if self.rdds[rdd].op.wide() => (0..self.partitions[rdd - 1]).map(|p| (rdd - 1, p)).collect(),
            _ => vec![(rdd - 1, part)],
        }
    }

    /// Finds a partition by name.
    pub fn find(&self, name: &str) -> Option<(usize, u8)> {
        (0..self.rdds.len())
            .flat_map(|r| (0..self.partitions[r]).map(move |p| (r, p)))
            .find(|&(r, p)| self.name(r, p) == name)
    }
}
