//! The built-in jobs a learner picks from (line, line-sink, two-inputs, diamond, keyed-shuffle),
//! each a [`JobSpec`] with a default input log, and generated input logs of any size.

use crate::engine::core::dataflow::job_graph::*;

/// Labels a, b, ..., z, aa, ab, ... for generated logs.
pub fn auto_label(mut i: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).expect("ascii")
}

/// A generated input for `spec`: every source partition gets `per_partition` records with labels
/// a, b, ..., z, aa, ... (unique across the job) and keys cycling over x, y, z.
pub fn generated_input(spec: &JobSpec, per_partition: usize) -> InputSpec {
    let mut input = InputSpec::new();
    let mut n = 0;
    for op in spec.operators.iter().filter(|o| o.kind == OperatorKind::Source) {
        let parts: Vec<Vec<LogEntry>> = (0..op.parallelism)
            .map(|_| {
                (0..per_partition)
                    .map(|i| {
                        n += 1;
                        LogEntry::Short(format!("{}:{}", auto_label(n - 1), ["x", "y", "z"][i % 3]))
                    })
                    .collect()
            })
            .collect();
        input.insert(op.name.clone(), SourceInput::for_parallelism(op.parallelism, parts));
    }
    input
}

/// A built-in job: its topology and a default input log.
pub struct BuiltinJob {
    pub name: &'static str,
    pub description: &'static str,
    pub spec: JobSpec,
    pub input: InputSpec,
}

fn op(name: &str, kind: OperatorKind, parallelism: u16) -> OperatorSpec {
    OperatorSpec { name: name.into(), kind, parallelism, uid: None, max_parallelism: None }
}
fn edge(from: &str, to: &str, partitioning: Partitioning) -> EdgeSpec {
    EdgeSpec { from: from.into(), to: to.into(), partitioning }
}
fn log(entries: &str) -> Vec<LogEntry> {
    entries.split_whitespace().map(|s| LogEntry::Short(s.into())).collect()
}

/// The line: Source -> Map -> Count, parallelism 1.
fn line() -> (&'static str, JobSpec) {
    use OperatorKind::*;
    use Partitioning::*;
    (
        "Source -> Map -> Count, parallelism 1: the three tasks of the a, b, c story.",
        JobSpec {
            operators: vec![op("Source", Source, 1), op("Map", Map, 1), op("Count", Count, 1)],
            edges: vec![edge("Source", "Map", Forward), edge("Map", "Count", Forward)],
        },
    )
}

pub const BUILTIN_NAMES: [&str; 5] = ["line", "line-sink", "two-inputs", "diamond", "keyed-shuffle"];

/// The built-in jobs made for restoring into a changed program (the Program & savepoints room and
/// its lesson): every operator has a `uid`. They are kept apart from [`BUILTIN_NAMES`], whose
/// operators have generated ids.
pub const PROGRAM_JOB_NAMES: [&str; 2] = ["line-uids", "keyed-count"];

/// `op` with a `uid`.
fn op_uid(name: &str, kind: OperatorKind, parallelism: u16, uid: &str) -> OperatorSpec {
    OperatorSpec { uid: Some(uid.into()), ..op(name, kind, parallelism) }
}

pub fn builtin(name: &str) -> Option<BuiltinJob> {
    use OperatorKind::*;
    use Partitioning::*;
    let mut input = InputSpec::new();
    let (description, spec) = match name {
        "line" => {
            input.insert("Source".into(), SourceInput::Single(log("a:x b:x c:x d:y e:x f:y g:x h:y")));
            line()
        }
        "line-sink" => {
            input.insert("Source".into(), SourceInput::Single(log("a:x b:x c:x d:y e:x f:y g:x h:y")));
            let (_, mut spec) = line();
            spec.operators.push(op("Sink", Sink, 1));
            spec.edges.push(edge("Count", "Sink", Forward));
            ("Source -> Map -> Count -> Sink: the line with an external system at the end.", spec)
        }
        "two-inputs" => {
            input.insert("Left".into(), SourceInput::Single(log("a:x b:y c:x d:y e:x")));
            input.insert("Right".into(), SourceInput::Single(log("f:y g:x h:y i:x j:y")));
            (
                "Two sources -> one keyed Count: the task with two inputs, where alignment matters.",
                JobSpec {
                    operators: vec![op("Left", Source, 1), op("Right", Source, 1), op("Count", Count, 1)],
                    edges: vec![edge("Left", "Count", Hash), edge("Right", "Count", Hash)],
                },
            )
        }
        "diamond" => {
            input.insert("A".into(), SourceInput::Single(log("a:x b:y c:x d:y e:x f:y")));
            (
                "A -> B, A -> C, B -> D, C -> D: one source fans out to a map and a filter, joined by a count.",
                JobSpec {
                    operators: vec![
                        op("A", Source, 1),
                        op("B", Map, 1),
                        op("C", Filter { keep_keys: vec!["x".into()] }, 1),
                        op("D", Count, 1),
                    ],
                    edges: vec![
                        edge("A", "B", Forward),
                        edge("A", "C", Forward),
                        edge("B", "D", Forward),
                        edge("C", "D", Forward),
                    ],
                },
            )
        }
        "keyed-shuffle" => {
            input.insert(
                "Source".into(),
                SourceInput::Partitions(vec![log("a:x b:y c:z d:x e:y f:z"), log("g:y h:x i:z j:y k:x l:z")]),
            );
            (
                "Two source partitions, keyBy -> two Counts -> Sink: a shuffle with parallelism 2.",
                JobSpec {
                    operators: vec![op("Source", Source, 2), op("Count", Count, 2), op("Sink", Sink, 1)],
                    edges: vec![edge("Source", "Count", Hash), edge("Count", "Sink", Rebalance)],
                },
            )
        }
        "line-uids" => {
            input.insert("Source".into(), SourceInput::Single(log("a:x b:x c:x d:y e:x f:y g:x h:y")));
            (
                "The line with a uid on every operator: Source -> Map -> Count, parallelism 1, uids source, map, count.",
                JobSpec {
                    operators: vec![
                        op_uid("Source", Source, 1, "source"),
                        op_uid("Map", Map, 1, "map"),
                        op_uid("Count", Count, 1, "count"),
                    ],
                    edges: vec![edge("Source", "Map", Forward), edge("Map", "Count", Forward)],
                },
            )
        }
        "keyed-count" => {
            input.insert("Source".into(), SourceInput::Single(log("a:x b:y c:z d:u e:x f:y g:z h:u")));
            (
                "Source -> keyBy -> two Counts, routed by key group (128 key groups), uids source and count.",
                JobSpec {
                    operators: vec![op_uid("Source", Source, 1, "source"), op_uid("Count", Count, 2, "count")],
                    edges: vec![edge("Source", "Count", Hash)],
                },
            )
        }
        _ => return None,
    };
    let name = BUILTIN_NAMES.iter().chain(PROGRAM_JOB_NAMES.iter()).find(|n| **n == name).copied()?;
    Some(BuiltinJob { name, description, spec, input })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_expand() {
        let shape = |n: &str| {
            let b = builtin(n).unwrap();
            let g = JobGraph::build(&b.spec, &b.input).unwrap();
            (g.tasks.len(), g.channels.len())
        };
        assert_eq!(shape("line"), (3, 2));
        assert_eq!(shape("two-inputs"), (3, 2));
        assert_eq!(shape("diamond"), (4, 4));
        // 2 sources x 2 counts + 2 counts x 1 sink.
        assert_eq!(shape("keyed-shuffle"), (5, 6));
        assert_eq!(shape("line-uids"), (3, 2));
        assert_eq!(shape("keyed-count"), (3, 2));
        let b = builtin("keyed-shuffle").unwrap();
        let g = JobGraph::build(&b.spec, &b.input).unwrap();
        assert_eq!(g.channels[1].name, "Source[0]->Count[1]");
        assert_eq!(g.tasks[g.channels[1].to.index()].inputs.len(), 2);
    }

    #[test]
    fn labels() {
        assert_eq!(auto_label(0), "a");
        assert_eq!(auto_label(25), "z");
        assert_eq!(auto_label(26), "aa");
        assert_eq!(auto_label(27), "ab");
        assert_eq!(auto_label(26 + 26 * 26), "aaa");
    }

    /// `hash` is keyBy by key group; files written when keyed-count's edge was spelled
    /// `key-groups` read as the same edge, and are written back as `hash`.
    #[test]
    fn key_groups_is_read_as_hash() {
        let read = |s: &str| serde_json::from_str::<EdgeSpec>(s).unwrap();
        let a = read(r#"{"from": "Source", "to": "Count", "partitioning": "key-groups"}"#);
        assert_eq!(a, read(r#"{"from": "Source", "to": "Count", "partitioning": "hash"}"#));
        assert_eq!(a.partitioning, Partitioning::Hash);
        assert!(serde_json::to_string(&a).unwrap().contains(r#""partitioning":"hash""#));
    }

    #[test]
    fn invalid_topologies_are_named() {
        let b = builtin("line").unwrap();
        let mut spec = b.spec.clone();
        spec.edges.push(edge("Count", "Source", Partitioning::Forward));
        let e = JobGraph::build(&spec, &b.input).unwrap_err().to_string();
        assert!(e.contains("a source can't have inputs"), "{e}");

        let mut spec = b.spec.clone();
        spec.edges.push(edge("Count", "Map", Partitioning::Hash));
        let e = JobGraph::build(&spec, &b.input).unwrap_err().to_string();
        assert!(e.contains("cycle"), "{e}");

        let mut spec = b.spec.clone();
        spec.operators[1].parallelism = 2;
        let e = JobGraph::build(&spec, &b.input).unwrap_err().to_string();
        assert!(e.contains("forward but the parallelisms differ"), "{e}");

        let mut spec = b.spec.clone();
        spec.edges[0].to = "Nope".into();
        let e = JobGraph::build(&spec, &b.input).unwrap_err().to_string();
        assert!(e.contains("\"Nope\""), "{e}");

        let mut input = b.input.clone();
        input.insert("Source".into(), SourceInput::Single(log("a:x a:y")));
        let e = JobGraph::build(&b.spec, &input).unwrap_err().to_string();
        assert!(e.contains("labelled \"a\""), "{e}");
    }
}
