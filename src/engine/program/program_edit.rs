//! Edits of a program between `flink stop` and `flink run -s`: pure functions from one program
//! (`JobSpec`) to the next, as a user changes a Flink job: parallelism, `uid`, max parallelism,
//! inserting a Filter before the keyed operator, removing an operator. The Program & savepoints
//! room's editor and the lessons' `restore-into` script word both make their edits here.

use crate::engine::core::dataflow::job_graph::{
    EdgeSpec, JobSpec, OperatorKind, OperatorSpec, Partitioning, MAX_PARALLELISM,
};

/// One edit of the program.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    Parallelism(usize, u16),
    Uid(usize, Option<String>),
    MaxParallelism(usize, Option<u16>),
    InsertFilter,
    Remove(usize),
}

/// Why "insert a Filter before the keyed operator" can't be done to `spec` (English, Chinese),
/// if it can't: the program already has a Filter, has no keyed operator, or its keyed operator
/// has several inputs (a Filter in front of them would have to merge them, a union this editor
/// does not build; inserting one Filter on each edge would give the keyed operator two edges
/// from one Filter, an invalid job).
pub fn insert_filter_refusal(spec: &JobSpec) -> Option<(&'static str, &'static str)> {
    if spec.operators.iter().any(|o| matches!(o.kind, OperatorKind::Filter { .. })) {
        return Some(("The program already has a Filter", "程序里已经有一个 Filter"));
    }
    let Some(k) = spec.operators.iter().find(|o| o.kind.is_stateful()) else {
        return Some(("There is no keyed operator to put it before", "没有键控算子可以放在它前面"));
    };
    if spec.edges.iter().filter(|e| e.to == k.name).count() > 1 {
        return Some((
            "The keyed operator has two inputs: a Filter before it would have to merge them (a union), which this editor does not build",
            "键控算子有两个输入：放在它前面的 Filter 得先把两路合并（union），这个编辑器不构造这种程序",
        ));
    }
    None
}

impl Edit {
    /// An edit as a lesson's `restore-into` line or a scenario's `"restore"` writes it:
    /// `insert-filter`; `NAME=P` (operator NAME's parallelism becomes P); `uid NAME=UID` (`uid
    /// NAME=` clears it); `max NAME=M` (its max parallelism; `max NAME=` unsets it); `remove NAME`.
    pub fn parse(spec: &JobSpec, word: &str) -> Result<Edit, String> {
        if word == "insert-filter" {
            if let Some((why, _)) = insert_filter_refusal(spec) {
                return Err(format!("{word:?}: {why}"));
            }
            return Ok(Edit::InsertFilter);
        }
        let op = |name: &str| {
            spec.operators.iter().position(|o| o.name == name).ok_or_else(|| format!("{word:?}: no operator {name:?}"))
        };
        if let Some(name) = word.strip_prefix("remove ") {
            let i = op(name.trim())?;
            if spec.operators[i].kind == OperatorKind::Source
                || !spec.edges.iter().any(|e| e.to == spec.operators[i].name)
            {
                return Err(format!("{word:?}: a source stays"));
            }
            return Ok(Edit::Remove(i));
        }
        if let Some(rest) = word.strip_prefix("uid ") {
            let (name, uid) = rest.split_once('=').ok_or_else(|| format!("{word:?}: uid NAME=UID"))?;
            let uid = uid.trim();
            if uid.len() > 40 || uid.chars().any(char::is_control) {
                return Err(format!("{word:?}: a uid of at most 40 characters"));
            }
            return Ok(Edit::Uid(op(name.trim())?, (!uid.is_empty()).then(|| uid.to_string())));
        }
        if let Some(rest) = word.strip_prefix("max ") {
            let (name, m) = rest.split_once('=').ok_or_else(|| format!("{word:?}: max NAME=MAX_PARALLELISM"))?;
            let i = op(name.trim())?;
            if !spec.operators[i].kind.is_stateful() {
                return Err(format!("{word:?}: only a keyed operator has a max parallelism"));
            }
            let m = match m.trim() {
                "" => None,
                m => Some(
                    m.parse::<u16>()
                        .ok()
                        .filter(|m| (1..=32768).contains(m))
                        .ok_or_else(|| format!("{word:?}: a max parallelism from 1 to 32768"))?,
                ),
            };
            return Ok(Edit::MaxParallelism(i, m));
        }
        let (name, p) = word.split_once('=').ok_or_else(|| {
            format!("{word:?}: not an edit (insert-filter, NAME=PARALLELISM, uid NAME=UID, max NAME=M or remove NAME)")
        })?;
        let i = op(name)?;
        let p: u16 = p
            .parse()
            .ok()
            .filter(|p| (1..=MAX_PARALLELISM).contains(p))
            .ok_or_else(|| format!("{word:?}: a parallelism from 1 to {MAX_PARALLELISM}"))?;
        Ok(Edit::Parallelism(i, p))
    }
}

/// Applies `edit`; `keys` are the job's keys (an inserted Filter keeps every one, so it changes
/// the program, not its results). An insertion [`insert_filter_refusal`] refuses changes nothing.
pub fn apply(spec: &JobSpec, edit: &Edit, keys: &[String]) -> JobSpec {
    let mut s = spec.clone();
    if *edit == Edit::InsertFilter && insert_filter_refusal(spec).is_some() {
        return s;
    }
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
                    kind: OperatorKind::Filter { keep_keys: keys.to_vec() },
                    parallelism: s
                        .operators
                        .iter()
                        .find(|o| s.edges.iter().any(|e| e.to == target && e.from == o.name))
                        .map_or(p, |o| o.parallelism),
                    uid: None,
                    max_parallelism: None,
                },
            );
            let mut edges = Vec::new();
            for e in &s.edges {
                if e.to == target {
                    edges.push(EdgeSpec {
                        from: e.from.clone(),
                        to: name.clone(),
                        partitioning: Partitioning::Forward,
                    });
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
                let partitioning =
                    if input.partitioning == Partitioning::Forward { out.partitioning } else { input.partitioning };
                let pos = spec.edges.iter().position(|e| e.to == name).unwrap_or(0).min(s.edges.len());
                s.edges.insert(pos, EdgeSpec { from: input.from.clone(), to: out.to.clone(), partitioning });
            }
            s.operators.remove(*i);
        }
    }
    s
}
