//! The Python writer: an [`ExportPlan`](super::ExportPlan) written as one PyFlink program (the
//! scenario's constants, the configuration, the crash, each key's pin, the shared runtime
//! `pyflink_runtime.py`, and the job built operator by operator on PyFlink's DataStream API).

use crate::engine::exports::pyflink_export::limits::{BUNDLE_SIZE, INTERVAL_MS, PACE_MS, STEP_MS};
use crate::engine::exports::pyflink_export::plan::ExportPlan;
use crate::engine::exports::pyflink_export::plan::{partitions, records_of};

use std::collections::BTreeSet;

use crate::engine::core::dataflow::job_graph::{JobGraph, OperatorKind, Partitioning};
use crate::engine::core::ids::OperatorId;
use crate::engine::exports::pyflink_placement;
use crate::engine::runs::scenario::{JobRef, Scenario};
use crate::engine::settings::{Settings, SinkMode, Strategy};

const RUNTIME: &str = include_str!("../pyflink_runtime.py");

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

/// The plan written as one PyFlink program: the header, the constants, the shared runtime, the job.
pub(super) fn write_python(sc: &Scenario, plan: &ExportPlan) -> String {
    let mut py = String::new();
    let title = if sc.name.is_empty() {
        match &sc.job {
            JobRef::Builtin(name) => format!("built-in job {name}"),
            JobRef::Custom(_) => "a custom job".to_string(),
        }
    } else {
        sc.name.clone()
    };
    header(&mut py, sc, plan, &title);
    constants(&mut py, sc, plan, &title);
    py.push_str(RUNTIME);
    line(&mut py, "");
    line(&mut py, "");
    build_job(&mut py, sc, &plan.graph);
    line(&mut py, "");
    line(&mut py, "");
    line(&mut py, "if __name__ == \"__main__\":");
    line(&mut py, "    main(build_job)");
    py
}

/// A line of Python.
fn line(py: &mut String, text: &str) {
    py.push_str(text);
    py.push('\n');
}

/// The program's opening comment: what wrote it, how to run it, how the scenario became this job
/// (strategy, interval, pacing, sink, restarts, the crash), and three PyFlink traps handled.
fn header(py: &mut String, sc: &Scenario, plan: &ExportPlan, title: &str) {
    let (g, s) = (&plan.graph, &sc.settings);
    line(py, "#!/usr/bin/env python3");
    line(py, &format!("# {title}"));
    line(py, "#");
    line(py, "# Written by `barrierscope export-pyflink`: the scenario's job on a real Apache Flink, through");
    line(py, "# PyFlink's DataStream API on a local mini-cluster. It needs Java 11 or later and PyFlink:");
    line(py, "#     python -m venv .venv-flink && .venv-flink/bin/pip install apache-flink==2.3.0");
    line(py, "#     .venv-flink/bin/python this-file.py [--work FOLDER] [--result result.json]");
    line(py, "# It prints each record's count in state and in the output against the failure-free run, in");
    line(py, "# the shape of `barrierscope run --json`, and what the REST API said of a completed checkpoint.");
    line(py, "#");
    line(py, "# How the scenario became this job:");
    let strategy_words = match s.strategy {
        Strategy::Aligned if s.alignment_timeout.is_some() => {
            "aligned barriers with an alignment timeout: EXACTLY_ONCE, unaligned checkpoints enabled, aligned-checkpoint-timeout"
        }
        Strategy::Aligned => "aligned barriers: CheckpointingMode.EXACTLY_ONCE",
        Strategy::Unaligned => "unaligned checkpoints: EXACTLY_ONCE with execution.checkpointing.unaligned.enabled",
        Strategy::AtLeastOnce => "barriers without alignment: CheckpointingMode.AT_LEAST_ONCE",
        _ => "none: checkpointing disabled; a restart reads every source from the beginning",
    };
    line(py, &format!("# - strategy {}: {strategy_words}.", s.strategy.id()));
    if let Some(ms) = plan.interval_ms {
        let how = match s.checkpoint_interval {
            Some(steps) => {
                format!("the simulator's {steps} steps at {STEP_MS} ms a step, at least {} ms", INTERVAL_MS.0)
            }
            None => "by hand in the simulator".to_string(),
        };
        line(py, &format!("# - a checkpoint every {ms} ms ({how});"));
        if s.max_concurrent_checkpoints <= 1 {
            line(py, "#   min-pause is the same, so the first checkpoint comes one interval after the start, not at");
            line(py, "#   a random moment before it.");
        } else {
            let n = s.max_concurrent_checkpoints;
            line(
                py,
                &format!(
                    "#   max-concurrent-checkpoints {n}, and no min-pause: Flink's docs say concurrent checkpoints"
                ),
            );
            line(py, "#   cannot be used when a minimum time between checkpoints is defined. So the first checkpoint");
            line(py, "#   comes at a random moment within the first interval, where the simulator's came at its end.");
        }
    }
    line(py, &format!("# - each source waits {PACE_MS} ms before each record, so checkpoints fall between records."));
    for (name, steps) in &s.record_cost {
        line(
            py,
            &format!(
                "# - {name} is slow: {steps} steps a record become {} ms a record (SLOW_MS).",
                *steps as u64 * STEP_MS
            ),
        );
    }
    if let Some(cap) = s.channel_capacity {
        line(
            py,
            &format!("# - channel-capacity {cap} is not carried: it counts records, and Flink's buffers are memory"),
        );
        line(py, "#   segments of many records (2 exclusive buffers per channel and 8 floating per gate by default),");
        line(py, "#   so Flink's channels hold more records than the simulator's, and backpressure comes later.");
    }
    if !s.channel_capacities.is_empty() {
        let named: Vec<String> = s.channel_capacities.iter().map(|(c, n)| format!("{c} {n}")).collect();
        line(py, &format!("# - channel-capacities ({}) are not carried: Flink sets buffers per", named.join(", ")));
        line(py, "#   TaskManager (taskmanager.network.memory.buffers-per-channel, floating-buffers-per-gate),");
        line(py, "#   not per channel.");
    }
    if let Some(steps) = s.buffer_debloat_target {
        line(py, &format!("# - buffer debloating's target of {steps} steps becomes {} ms.", steps as u64 * STEP_MS));
    }
    let sink_words = match s.sink {
        SinkMode::Append => "append: a Python sink appends each record to a file at once (duplicates on replay)",
        SinkMode::Upsert => "upsert: a Python sink writes one file per record, which a replay overwrites",
        _ => "two-phase-commit: FileSink, whose part files are committed when the checkpoint completes",
    };
    if g.has_sink() {
        line(py, &format!("# - sink {sink_words}."));
    }
    line(py, "# - restart strategy: fixed-delay, 3 attempts, 200 ms apart (the simulator's restore).");
    match &plan.crash {
        Some(c) => {
            let side = match c.after_checkpoint {
                Some(id) => format!("after a completed checkpoint (checkpoint {} in the simulator)", id.0),
                None => "before any checkpoint completed".to_string(),
            };
            line(
                py,
                &format!(
                    "# - the crash: {} raises once, at record {} or a later one of its partition,",
                    c.at.join(" or "),
                    g.records[c.index as usize].label,
                ),
            );
            line(
                py,
                &format!(
                    "#   {side}{}.",
                    if c.effects > 0 { ",\n#   once a record has taken effect there since" } else { "" }
                ),
            );
            line(
                py,
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
        None => line(py, "# - no crash: the scenario has none."),
    }
    line(py, "#");
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
    line(py, "");
}

/// The scenario as Python constants: its name, settings, parallelism, pacing, partitions, every
/// record, each key's pin and subtask, the expected counts, the crash, Flink's configuration.
fn constants(py: &mut String, sc: &Scenario, plan: &ExportPlan, title: &str) {
    let (g, s) = (&plan.graph, &sc.settings);
    line(py, &format!("NAME = {}", py_str(&sc.name)));
    line(py, &format!("DESCRIPTION = {}", py_str(&format!("{title} on Apache Flink, exported by barrierscope"))));
    line(py, &format!("STRATEGY = {}", py_str(s.strategy.id())));
    line(py, &format!("SINK = {}", py_str(s.sink.id())));
    line(
        py,
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
    line(py, &format!("PACE_MS = {PACE_MS}"));
    // Slow tasks (`record-cost`): each record keeps the operator busy for its steps.
    let slow: Vec<String> = sc
        .settings
        .record_cost
        .iter()
        .map(|(name, steps)| format!("{}: {}", py_str(name), *steps as u64 * STEP_MS))
        .collect();
    line(py, "# Slow operators (the simulator's record-cost): milliseconds each record keeps one busy.");
    line(py, &format!("SLOW_MS = {{{}}}", slow.join(", ")));
    line(py, &format!("BUNDLE_SIZE = {BUNDLE_SIZE}"));
    line(py, &format!("# Each source partition's first and last record number ({}).", "NumberSequenceSource's splits"));
    line(
        py,
        &format!(
            "PARTITIONS = [{}]",
            partitions(g).iter().map(|(f, l)| format!("({f}, {l})")).collect::<Vec<_>>().join(", ")
        ),
    );
    line(py, "# Every record: (label, key, value), numbered as NumberSequenceSource numbers them.");
    line(py, "RECORDS = [");
    for r in &g.records {
        line(py, &format!("    ({}, {}, {}),", py_str(&r.label), py_str(g.key_name(r.key)), r.value));
    }
    line(py, "]");
    let pinned = pinned_operators(g);
    line(
        py,
        "# Each key's pin (barrierscope's src/engine/exports/pyflink_placement.rs): Flink hashes the key (key, pin)",
    );
    line(py, "# as a Java job hashes the string key, so each key gets the simulator's key group and subtask.");
    line(
        py,
        &format!(
            "KEY_PIN = {{{}}}",
            g.keys
                .iter()
                .map(|k| format!("{}: {}", py_str(k), pyflink_placement::pin(k)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    line(py, "# The simulator's subtask of each key, per operator behind hash edges: a keyed operator's state is");
    line(py, "# checked against it, any other operator is routed by it (partition_custom).");
    line(py, "SUBTASK = {");
    for &i in &pinned {
        let table = pyflink_placement::subtask_table(g, OperatorId(i as u16));
        line(
            py,
            &format!(
                "    {}: {{{}}},",
                py_str(&g.spec.operators[i].name),
                table.iter().map(|(k, t)| format!("{}: {t}", py_str(k))).collect::<Vec<_>>().join(", ")
            ),
        );
    }
    line(py, "}");
    line(py, "# Per record: how often the failure-free run reflects it in state, and in the output.");
    line(py, "EXPECTED = [");
    for (st, out) in &plan.expected {
        line(py, &format!("    ({st}, {}),", out.map_or("None".to_string(), |o| o.to_string())));
    }
    line(py, "]");
    match &plan.crash {
        Some(c) => line(py, &format!(
            "CRASH = {{\"at\": [{}], \"next\": [{}], \"record\": {}, \"after_checkpoint\": {}, \"effects\": {}, \"scope\": {}}}",
            c.at.iter().map(|n| py_str(n)).collect::<Vec<_>>().join(", "),
            c.next.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
            py_str(&g.records[c.index as usize].label),
            if c.after_checkpoint.is_some() { "True" } else { "False" },
            c.effects,
            py_str(if c.cluster { "cluster" } else { "task" }),
        )),
        None => line(py, "CRASH = None"),
    }
    line(py, "SETTINGS = {");
    for (k, v) in &plan.settings {
        let value = if k == "python.fn-execution.bundle.size" { "str(BUNDLE_SIZE)".to_string() } else { py_str(v) };
        line(py, &format!("    {}: {value},", py_str(k)));
    }
    line(py, "}");
    line(py, "");
}

/// `build_job(env)`: the job built operator by operator on the DataStream API, every input before
/// the operators it feeds.
fn build_job(py: &mut String, sc: &Scenario, g: &JobGraph) {
    let s = &sc.settings;
    line(py, "def build_job(env):");
    let mut taken = BTreeSet::new();
    let names: Vec<String> = g.spec.operators.iter().map(|o| py_name(&o.name, &mut taken)).collect();
    let index = |name: &str| g.spec.operators.iter().position(|o| o.name == name).expect("built");
    for i in operator_order(g) {
        let op = &g.spec.operators[i];
        let (var, p) = (&names[i], op.parallelism);
        let inputs: Vec<(String, Partitioning)> = g
            .spec
            .edges
            .iter()
            .filter(|e| e.to == op.name)
            .map(|e| (names[index(&e.from)].clone(), e.partitioning))
            .collect();
        let (role, expr) = operator_expr(g, s, i, &inputs);
        let keyed_note = matches!(op.kind, OperatorKind::Count | OperatorKind::Sum)
            && inputs.iter().any(|(_, p)| *p != Partitioning::Hash);
        line(
            py,
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
        line(py, &format!("    {var} = {expr}"));
    }
}

/// Operator `i`'s role in words and its stream as a Python expression, from its `inputs` (each a
/// stream's name and the edge's partitioning).
fn operator_expr(g: &JobGraph, s: &Settings, i: usize, inputs: &[(String, Partitioning)]) -> (&'static str, String) {
    let op = &g.spec.operators[i];
    let (p, name) = (op.parallelism, py_str(&op.name));
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
                "{}.map(PassOn({name}), output_type=RECORD).name({name}).set_parallelism({p})",
                union(inputs.iter().map(partitioned).collect())
            ),
        ),
        OperatorKind::Filter { keep_keys } => (
            "filter",
            format!(
                "{}.filter(KeepKeys({name}, [{}])).name({name}).set_parallelism({p})",
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
    (role, expr)
}
