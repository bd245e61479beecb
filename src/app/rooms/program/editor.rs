//! The job editor's limits: why an edit is not offered for an operator (a source's parallelism, a
//! forward edge, the last keyed operator, a second Filter). The edits themselves are the
//! classroom's (`classroom::program_edit`), which the lessons' `restore-into` uses too.

use crate::app::text::Lang;
pub use crate::classroom::program_edit::{apply, Edit};
use crate::engine::core::dataflow::job_graph::{JobSpec, OperatorKind, Partitioning};

/// Why operator `i`'s parallelism can't change, if it can't.
pub fn parallelism_locked(spec: &JobSpec, i: usize, l: Lang) -> Option<&'static str> {
    let op = &spec.operators[i];
    if op.kind == OperatorKind::Source {
        return Some(l.t(
            "A source reads one log partition per subtask here, so its parallelism stays",
            "这里每个源子任务读一个日志分区，所以源的并行度不变",
        ));
    }
    let forward =
        spec.edges.iter().any(|e| (e.to == op.name || e.from == op.name) && e.partitioning == Partitioning::Forward);
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
        return Some(l.t(
            "The job keeps one keyed operator, so the verdict has state to judge",
            "作业要保留一个键控算子，判定才有状态可查",
        ));
    }
    None
}

/// Why a Filter can't be inserted, if it can't.
pub fn insert_locked(spec: &JobSpec, l: Lang) -> Option<&'static str> {
    crate::classroom::program_edit::insert_filter_refusal(spec).map(|(en, zh)| l.t(en, zh))
}
