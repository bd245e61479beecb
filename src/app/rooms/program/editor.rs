//! The job editor's edits: pure functions from one program (`JobSpec`) to the next, as a user
//! changes a Flink program between `flink stop` and `flink run -s`: parallelism, `uid`, max
//! parallelism, inserting a Filter before the keyed operator, removing an operator.

use crate::app::text::Lang;
use crate::engine::dataflow::job_graph::{EdgeSpec, JobSpec, OperatorKind, OperatorSpec, Partitioning, MAX_PARALLELISM};

/// One edit of the program.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    Parallelism(usize, u16),
    Uid(usize, Option<String>),
    MaxParallelism(usize, Option<u16>),
    InsertFilter,
    Remove(usize),
}

/// Why operator `i`'s parallelism can't change, if it can't.
pub fn parallelism_locked(spec: &JobSpec, i: usize, l: Lang) -> Option<&'static str> {
    let op = &spec.operators[i];
    if op.kind == OperatorKind::Source {
        return Some(l.t(
            "A source reads one log partition per subtask here, so its parallelism stays",
            "这里每个源子任务读一个日志分区，所以源的并行度不变",
        ));
    }
    let forward = spec.edges.iter().any(|e| (e.to == op.name || e.from == op.name) && e.partitioning == Partitioning::Forward);
    forward.then(|| {
        l.t(
            "A forward edge joins it to its neighbour: both keep the same parallelism (pick keyed-count to rescale)",
            "它与相邻算子以 forward 边相连，二者并行度必须相同（选 keyed-count 来改并行度）",
        )
    })
}

/// Why operator `i` can't be removed, if it can't.
pub fn removal_locked(spec: &JobSpec, i: usize, l: Lang) -> Option<&'static str> {
    let op = &spec.operators[i];
    if op.kind == OperatorKind::Source {
        return Some(l.t("The source stays: the job reads its input through it", "源要保留：作业通过它读取输入"));
    }
    let ins = spec.edges.iter().filter(|e| e.to == op.name).count();
    let outs = spec.edges.iter().filter(|e| e.from == op.name).count();
    if ins != 1 || outs > 1 {
        return Some(l.t("Only an operator on a single path can be removed here", "这里只能删除单一路径上的算子"));
    }
    if op.kind.is_stateful() && spec.operators.iter().filter(|o| o.kind.is_stateful()).count() == 1 {
        return Some(l.t("The job keeps one keyed operator, so the verdict has state to judge", "作业要保留一个键控算子，判定才有状态可查"));
    }
    None
}

/// Why a Filter can't be inserted, if it can't.
pub fn insert_locked(spec: &JobSpec, l: Lang) -> Option<&'static str> {
    if spec.operators.iter().any(|o| matches!(o.kind, OperatorKind::Filter { .. })) {
        return Some(l.t("The program already has a Filter", "程序里已经有一个 Filter"));
    }
    if !spec.operators.iter().any(|o| o.kind.is_stateful()) {
        return Some(l.t("There is no keyed operator to put it before", "没有键控算子可以放在它前面"));
    }
    None
}

/// The keys every source record carries, for a Filter that keeps them all.
fn all_keys(keys: &[String]) -> Vec<String> {
    keys.to_vec()
}

/// Applies `edit`; `keys` are the job's keys (an inserted Filter keeps every one, so it changes
/// the program, not its results).
pub fn apply(spec: &JobSpec, edit: &Edit, keys: &[String]) -> JobSpec {
    let mut s = spec.clone();
    match edit {
        Edit::Parallelism(i, p) => s.operators[*i].parallelism = (*p).clamp(1, MAX_PARALLELISM),
        Edit::Uid(i, uid) => s.operators[*i].uid = uid.clone().filter(|u| !u.trim().is_empty()),
        Edit::MaxParallelism(i, m) => s.operators[*i].max_parallelism = *m,
        Edit::InsertFilter => {
            let Some(k) = s.operators.iter().position(|o| o.kind.is_stateful()) else { return s };
            let target = s.operators[k].name.clone();
            let p = s.operators[k].parallelism;
            let name = "Filter".to_string();
            s.operators.insert(
                k,
                OperatorSpec {
                    name: name.clone(),
                    kind: OperatorKind::Filter { keep_keys: all_keys(keys) },
                    parallelism: s.operators.iter().find(|o| s.edges.iter().any(|e| e.to == target && e.from == o.name)).map_or(p, |o| o.parallelism),
                    uid: None,
                    max_parallelism: None,
                },
            );
            let mut edges = Vec::new();
            for e in &s.edges {
                if e.to == target {
                    edges.push(EdgeSpec { from: e.from.clone(), to: name.clone(), partitioning: Partitioning::Forward });
                    edges.push(EdgeSpec { from: name.clone(), to: target.clone(), partitioning: e.partitioning });
                } else {
                    edges.push(e.clone());
                }
            }
            s.edges = edges;
        }
        Edit::Remove(i) => {
            let name = s.operators[*i].name.clone();
            let Some(input) = s.edges.iter().find(|e| e.to == name).cloned() else { return s };
            let out = s.edges.iter().find(|e| e.from == name).cloned();
            s.edges.retain(|e| e.to != name && e.from != name);
            if let Some(out) = out {
                // The removed operator's outgoing routing stays in front of its consumer.
                let partitioning = if input.partitioning == Partitioning::Forward { out.partitioning } else { input.partitioning };
                let pos = spec.edges.iter().position(|e| e.to == name).unwrap_or(0).min(s.edges.len());
                s.edges.insert(pos, EdgeSpec { from: input.from.clone(), to: out.to.clone(), partitioning });
            }
            s.operators.remove(*i);
        }
    }
    s
}
