//! The export to PyFlink (issue 16): each ground-truth scenario's Python file has the right
//! pieces (checkpointing mode, interval, sink, crash record, parallelism), every scenario file
//! either exports or gives the error the book documents for it, the refusals are worded in both
//! languages, and the generated Python compiles (`python3 -m py_compile`, when python3 is on
//! PATH). Running the files on Flink is `scripts/groundtruth.sh`.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

use barrierscope::engine::exports::pyflink_export::{plan, ExportError};
use barrierscope::engine::runs::scenario::JobRef;
use barrierscope::engine::*;

#[path = "support/export.rs"]
mod export_support;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn scenario(path: &str) -> Scenario {
    Scenario::from_json(&std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap()).unwrap()
}

fn export(path: &str) -> String {
    export_pyflink(&scenario(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What each ground-truth scenario's file must say.
struct Expect {
    file: &'static str,
    /// `Some(("EXACTLY_ONCE", "400 ms"))`, or None for no checkpointing.
    checkpointing: Option<(&'static str, &'static str)>,
    unaligned: bool,
    /// The sink's Python, or None without a sink.
    sink: Option<&'static str>,
    /// The crash record, per partition the first unseen record number, and the side of the
    /// checkpoint; None for a run without a crash.
    crash: Option<(&'static str, &'static [u32], bool)>,
    /// Lines that set parallelism, as written.
    parallelism: &'static [&'static str],
}

const GROUND_TRUTH: &[Expect] = &[
    Expect {
        file: "1-aligned-append-after-checkpoint.json",
        checkpointing: Some(("EXACTLY_ONCE", "400 ms")),
        unaligned: false,
        sink: Some("process(AppendSink(\"Sink\"))"),
        crash: Some(("t", &[19], true)),
        parallelism: &["source(env, \"Source\", 0, 59, 1)", ".name(\"Count\").set_parallelism(1)"],
    },
    Expect {
        file: "2-aligned-two-phase-commit-after-checkpoint.json",
        checkpointing: Some(("EXACTLY_ONCE", "400 ms")),
        unaligned: false,
        sink: Some("sink_to(file_sink(\"Sink\"))"),
        crash: Some(("s", &[18], true)),
        parallelism: &["source(env, \"Source\", 0, 59, 1)"],
    },
    Expect {
        file: "3-no-checkpoints-from-beginning.json",
        checkpointing: None,
        unaligned: false,
        sink: Some("process(AppendSink(\"Sink\"))"),
        crash: Some(("n", &[13], false)),
        parallelism: &["source(env, \"Source\", 0, 59, 1)"],
    },
    Expect {
        file: "4-keyed-shuffle-aligned.json",
        checkpointing: Some(("EXACTLY_ONCE", "400 ms")),
        unaligned: false,
        sink: Some("s_count.rebalance().process(AppendSink(\"Sink\"))"),
        crash: Some(("t", &[19, 40], true)),
        parallelism: &[
            "source(env, \"Source\", 0, 59, 2)",
            "s_source.key_by(pinned_key, key_type=PINNED_KEY).process(KeyedCount(\"Count\", \"count\"), output_type=RECORD).name(\"Count\").set_parallelism(2).set_max_parallelism(128)",
            ".name(\"Sink\").set_parallelism(1)",
        ],
    },
    Expect {
        file: "5-diamond-aligned.json",
        checkpointing: Some(("EXACTLY_ONCE", "400 ms")),
        unaligned: false,
        sink: None,
        crash: Some(("ak", &[36], true)),
        parallelism: &["s_b.union(s_c).key_by(pinned_key, key_type=PINNED_KEY).process(KeyedCount(\"D\", \"count\")"],
    },
    Expect {
        file: "6-crash-before-any-checkpoint.json",
        checkpointing: Some(("EXACTLY_ONCE", "1500 ms")),
        unaligned: false,
        sink: Some("process(AppendSink(\"Sink\"))"),
        crash: Some(("h", &[7], false)),
        parallelism: &["source(env, \"Source\", 0, 59, 1)"],
    },
    Expect {
        file: "7-two-inputs-at-least-once.json",
        checkpointing: Some(("AT_LEAST_ONCE", "400 ms")),
        unaligned: false,
        sink: None,
        crash: Some(("p", &[15, 40], true)),
        parallelism: &["source(env, \"Left\", 0, 29, 1)", "source(env, \"Right\", 30, 59, 1)", "s_left.union(s_right).key_by"],
    },
    Expect {
        file: "8-keyed-shuffle-at-least-once.json",
        checkpointing: Some(("AT_LEAST_ONCE", "400 ms")),
        unaligned: false,
        sink: Some("process(AppendSink(\"Sink\"))"),
        crash: Some(("r", &[17, 44], true)),
        parallelism: &["source(env, \"Source\", 0, 59, 2)", ".name(\"Count\").set_parallelism(2)"],
    },
    Expect {
        file: "9-keyed-shuffle-unaligned-two-phase-commit.json",
        checkpointing: Some(("EXACTLY_ONCE", "400 ms")),
        unaligned: true,
        sink: Some("sink_to(file_sink(\"Sink\")).name(\"Sink (FileSink)\").set_parallelism(1)"),
        crash: Some(("w", &[22, 43], true)),
        parallelism: &["source(env, \"Source\", 0, 59, 2)", ".name(\"Count\").set_parallelism(2)"],
    },
    Expect {
        file: "10-keyed-count-aligned.json",
        checkpointing: Some(("EXACTLY_ONCE", "400 ms")),
        unaligned: false,
        sink: None,
        crash: Some(("av", &[47], true)),
        parallelism: &[
            "source(env, \"Source\", 0, 47, 1)",
            "s_source.key_by(pinned_key, key_type=PINNED_KEY).process(KeyedCount(\"Count\", \"count\"), output_type=RECORD).name(\"Count\").set_parallelism(2).set_max_parallelism(128)",
        ],
    },
    Expect {
        file: "11-backpressure-aligned.json",
        checkpointing: Some(("EXACTLY_ONCE", "600 ms")),
        unaligned: false,
        sink: None,
        crash: None,
        parallelism: &["source(env, \"Source\", 0, 39, 1)", "SLOW_MS = {\"Count\": 100}\n"],
    },
    Expect {
        file: "12-backpressure-unaligned.json",
        checkpointing: Some(("EXACTLY_ONCE", "600 ms")),
        unaligned: true,
        sink: None,
        crash: None,
        parallelism: &["source(env, \"Source\", 0, 39, 1)", "SLOW_MS = {\"Count\": 100}\n"],
    },
];

#[test]
fn each_ground_truth_export_has_the_right_pieces() {
    let files: Vec<String> = std::fs::read_dir(format!("{ROOT}/scenarios/groundtruth"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    assert_eq!(files.len(), GROUND_TRUTH.len(), "every ground-truth scenario has its expectations here: {files:?}");
    for x in GROUND_TRUTH {
        let py = export(&format!("scenarios/groundtruth/{}", x.file));
        let has = |s: &str| assert!(py.contains(s), "{}: the export lacks {s:?}", x.file);
        let lacks = |s: &str| assert!(!py.contains(s), "{}: the export has {s:?}", x.file);
        match x.checkpointing {
            Some((mode, interval)) => {
                has(&format!("\"execution.checkpointing.mode\": \"{mode}\""));
                has(&format!("\"execution.checkpointing.interval\": \"{interval}\""));
                has(&format!("\"execution.checkpointing.min-pause\": \"{interval}\""));
                has(&format!("\"execution.checkpointing.unaligned.enabled\": \"{}\"", x.unaligned));
            }
            None => {
                lacks("execution.checkpointing.interval");
                lacks("execution.checkpointing.mode");
            }
        }
        has("\"restart-strategy.type\": \"fixed-delay\"");
        has("\"python.fn-execution.bundle.size\": str(BUNDLE_SIZE)");
        has("BUNDLE_SIZE = 1\n");
        has("config.set_string(\"python.executable\", sys.executable)");
        match x.sink {
            Some(s) => has(s),
            None => {
                lacks("AppendSink(\"");
                lacks("file_sink(\"");
            }
        }
        match x.crash {
            Some((label, next, after)) => {
                let next = next.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ");
                has(&format!(
                    "\"next\": [{next}], \"record\": \"{label}\", \"after_checkpoint\": {}, \"effects\": 1",
                    if after { "True" } else { "False" }
                ));
            }
            None => has("CRASH = None\n"),
        }
        for p in x.parallelism {
            has(p);
        }
    }
}

#[test]
fn the_crash_plan_follows_the_simulator_run() {
    let p = plan(&scenario("scenarios/groundtruth/1-aligned-append-after-checkpoint.json")).unwrap();
    let c = p.crash.unwrap();
    assert_eq!(c.at, ["Sink"]);
    assert!(c.after_checkpoint.is_some() && c.effects == 1 && c.cluster);
    // The crash record is the one after the last the sink wrote before the crash.
    let sc = scenario("scenarios/groundtruth/1-aligned-append-after-checkpoint.json");
    let played = sc.play().unwrap();
    let crash = played.actions.iter().position(|a| *a == Action::Crash).unwrap();
    let last_written = played.events[..crash]
        .iter()
        .flatten()
        .filter_map(|e| if let Event::SinkWrite { record, .. } = e { Some(record.0) } else { None })
        .max()
        .unwrap();
    assert_eq!(c.next, [last_written + 1]);

    let p = plan(&scenario("scenarios/groundtruth/6-crash-before-any-checkpoint.json")).unwrap();
    assert_eq!(p.crash.unwrap().after_checkpoint, None);
    assert_eq!(p.interval_ms, Some(1500));
    // A job without a sink crashes at its sources; a task's crash keeps its region's failover.
    let p = plan(&scenario("scenarios/two-pipelines-region-failover.json")).unwrap();
    let c = p.crash.unwrap();
    assert_eq!((c.at.as_slice(), c.cluster), (["Orders".to_string()].as_slice(), false));
    assert!(p.settings.contains(&("jobmanager.execution.failover-strategy".into(), "region".into())));
    let p = plan(&scenario("scenarios/abc-barriers-exactly-once.json")).unwrap();
    assert!(p.settings.contains(&("jobmanager.execution.failover-strategy".into(), "full".into())));
    // Expected counts come from the failure-free run: in the diamond, x twice.
    let p = plan(&scenario("scenarios/groundtruth/5-diamond-aligned.json")).unwrap();
    assert_eq!(&p.expected[..3], [(2, None), (1, None), (1, None)]);
}

fn readme_export_table() -> Vec<(String, String)> {
    export_support::export_table("export-pyflink")
}

#[test]
fn every_scenario_exports_or_gives_the_error_the_readme_documents() {
    let table = readme_export_table();
    let mut files: Vec<String> = std::fs::read_dir(format!("{ROOT}/scenarios"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    files.sort();
    let listed: Vec<&str> = table.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(listed, files, "the book's export table lists every scenario file, in order");
    for (file, said) in &table {
        match export_pyflink(&scenario(&format!("scenarios/{file}"))) {
            Ok(py) => {
                assert_eq!(said, "exports", "{file} exports, the book says {said:?}");
                assert!(py.contains("def build_job(env):"));
            }
            Err(e) => assert_eq!(said, &e.to_string(), "{file}"),
        }
    }
    // Every ground-truth scenario exports.
    for x in GROUND_TRUTH {
        export(&format!("scenarios/groundtruth/{}", x.file));
    }
}

#[test]
fn refusals_name_why_in_both_languages() {
    let refused = |sc: &Scenario| export_pyflink(sc).unwrap_err();
    let builtin = |job: &str, f: &dyn Fn(&mut Settings)| {
        let mut s = Settings::new(Strategy::Aligned);
        f(&mut s);
        Scenario::builtin(job, s, 1)
    };
    let cases: Vec<(ExportError, &str)> = vec![
        (refused(&builtin("line", &|s| s.strategy = Strategy::Timers)), "per-task timer"),
        (refused(&builtin("line", &|s| s.strategy = Strategy::StopTheWorld)), "teaching baseline"),
        (refused(&builtin("line", &|s| s.strategy = Strategy::StormAcker)), "Storm"),
        (refused(&builtin("line", &|s| s.strategy = Strategy::SparkStreaming)), "Spark Streaming"),
        (
            refused(&builtin("line", &|s| {
                s.strategy = Strategy::None;
                s.restart = RestartPolicy::FromLatest;
            })),
            "from the beginning",
        ),
        (refused(&builtin("line", &|s| s.source = SourceKind::Socket)), "replayable source"),
        (
            {
                let mut sc = scenario("scenarios/sink-two-phase-commit.json");
                let JobRef::Custom(spec) = &mut sc.job else { panic!() };
                spec.edges[0].partitioning = barrierscope::engine::core::dataflow::job_graph::Partitioning::Broadcast;
                refused(&sc)
            },
            "keyed stream",
        ),
        (
            {
                let mut sc = scenario("scenarios/abc-barriers-exactly-once.json");
                sc.actions.extend([ScriptAction::Crash, ScriptAction::Restore]);
                refused(&sc)
            },
            "fails 2 times",
        ),
        (refused(&scenario("scenarios/jobmanager-without-ha.json")), "JobManager failure"),
    ];
    for (e, words) in cases {
        let (en, zh) = (e.message(Lang::En), e.message(Lang::Zh));
        assert!(en.contains(words), "{en:?} should say {words:?}");
        assert!(en.contains("PyFlink") || en.contains("exported job"), "{en}");
        assert!(!zh.is_empty() && zh != en && zh.chars().any(|c| c > '\u{2e80}'), "{zh}");
        assert_eq!(e.to_string(), en);
    }
}

#[test]
fn the_generated_python_compiles() {
    let dir = std::env::temp_dir().join(format!("barrierscope-pyflink-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = vec![];
    for x in GROUND_TRUTH {
        files.push(format!("scenarios/groundtruth/{}", x.file));
    }
    for (file, said) in readme_export_table() {
        if said == "exports" {
            files.push(format!("scenarios/{file}"));
        }
    }
    // A built-in job with every operator kind and an upsert sink, and one with odd names.
    let mut upsert = Settings::new(Strategy::Unaligned);
    upsert.sink = SinkMode::Upsert;
    let extra = [
        ("keyed-shuffle-upsert", Scenario::builtin("keyed-shuffle", upsert, 2)),
        ("line-slow-debloated", Scenario::builtin("line", slow_debloated(), 2)),
        ("diamond-none", Scenario::builtin("diamond", Settings::new(Strategy::None), 2)),
    ];
    let mut written = vec![];
    for f in &files {
        let path = dir.join(Path::new(f).file_stem().unwrap()).with_extension("py");
        std::fs::write(&path, export(f)).unwrap();
        written.push(path);
    }
    for (name, sc) in extra {
        let path = dir.join(format!("{name}.py"));
        std::fs::write(&path, export_pyflink(&sc).unwrap()).unwrap();
        written.push(path);
    }
    export_support::assert_python_compiles(&written);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Lesson 16's settings: Count slow, bounded channels, buffer debloating.
fn slow_debloated() -> Settings {
    let mut s = Settings::new(Strategy::Aligned);
    s.channel_capacity = Some(3);
    s.record_cost.insert("Count".into(), 3);
    s.buffer_debloat_target = Some(3);
    s
}

/// Issue 53, 7: the export carries what PyFlink can express of backpressure (a slow operator as
/// time spent on each record, buffer debloating with its target) and says in the file why the
/// channel capacity, counted in records, is not carried.
#[test]
fn the_export_carries_slow_operators_and_debloating() {
    let py = export_pyflink(&Scenario::builtin("line", slow_debloated(), 2)).unwrap();
    assert!(py.contains("SLOW_MS = {\"Count\": 30}"), "the slow Count");
    assert!(py.contains("\"taskmanager.network.memory.buffer-debloat.enabled\": \"true\""));
    assert!(py.contains("\"taskmanager.network.memory.buffer-debloat.target\": \"30 ms\""));
    assert!(py.contains("channel-capacity 3 is not carried"));
    let plain = export_pyflink(&Scenario::builtin("line", Settings::new(Strategy::Aligned), 2)).unwrap();
    assert!(plain.contains("SLOW_MS = {}") && !plain.contains("buffer-debloat"), "nothing slow, nothing debloated");
}

/// Issue 26, 6: Flink's checkpointing docs say concurrent checkpoints "cannot be used when a
/// minimum time between checkpoints is defined". Model: that rule, over every ground-truth
/// scenario with max-concurrent-checkpoints 1 to 3 (where unaligned checkpoints allow it): the
/// export never sets both a min-pause above 0 and max-concurrent-checkpoints above 1, and it
/// says in the file why the min-pause is left out.
#[test]
fn the_export_never_sets_a_min_pause_beside_concurrent_checkpoints() {
    let mut checked = 0;
    for entry in std::fs::read_dir(format!("{ROOT}/scenarios/groundtruth")).unwrap() {
        let path = entry.unwrap().path();
        let base = Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for max in 1..=3u32 {
            let mut sc = base.clone();
            sc.settings.max_concurrent_checkpoints = max;
            sc.settings.checkpoint_interval.get_or_insert(40);
            let Ok(py) = export_pyflink(&sc) else { continue };
            let value = |key: &str| {
                py.lines()
                    .find(|l| l.contains(&format!("\"{key}\"")))
                    .map(|l| l.rsplit_once(':').map_or(l, |x| x.1).to_string())
            };
            let concurrent = value("execution.checkpointing.max-concurrent-checkpoints");
            let pause = value("execution.checkpointing.min-pause");
            let pause_set = pause.as_deref().is_some_and(|p| !p.contains("\"0 ms\""));
            let concurrent_set = concurrent.as_deref().is_some_and(|c| !c.contains("\"1\""));
            assert!(
                !(pause_set && concurrent_set),
                "{}: max {max}: min-pause {pause:?} beside max-concurrent {concurrent:?}",
                path.display()
            );
            if concurrent_set {
                assert!(
                    py.contains("cannot be used when a minimum time between checkpoints is defined"),
                    "the file says why"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "some export had concurrent checkpoints");
}

/// The placement rule (`pyflink_placement`) against where a real PyFlink 2.3 put each key
/// (`fixtures/pyflink_placement/measured.json`, printed by `measure.py` beside it): keyed by the
/// string, Flink hashes `hashCode + 62`, which puts some keys elsewhere than a Java job keyed by
/// the string (so elsewhere than the simulator); keyed by the pinned pair, every key is on the
/// simulator's subtask, "Aa" and "BB" (one `hashCode`) included.
#[test]
fn the_placement_rule_matches_a_real_pyflink_run() {
    use barrierscope::engine::core::dataflow::key_groups::{java_string_hash, subtask_for_key};
    use barrierscope::engine::exports::pyflink_placement::{pair_key_hash, pin, string_key_hash, subtask_for_hash};
    let measured: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/pyflink_placement/measured.json")).unwrap();
    assert_eq!(measured["pyflink"], "2.3.0");
    let (mut rows, mut string_elsewhere) = (0, 0);
    for run in measured["runs"].as_array().unwrap() {
        let (p, m) = (run["parallelism"].as_u64().unwrap() as u16, run["max_parallelism"].as_u64().unwrap() as u16);
        for row in run["rows"].as_array().unwrap() {
            let (key, pinned, subtask) =
                (row[0].as_str().unwrap(), row[1].as_i64().unwrap() as i32, row[2].as_u64().unwrap() as u16);
            let simulator = subtask_for_key(key, m, p);
            match run["key_by"].as_str().unwrap() {
                "string" => {
                    assert_eq!(subtask, subtask_for_hash(string_key_hash(key), m, p), "{key} p {p} max {m}");
                    string_elsewhere += (subtask != simulator) as u32;
                }
                "pair" => {
                    assert_eq!(pinned, pin(key), "{key}");
                    assert_eq!(pair_key_hash(key, pinned), java_string_hash(key));
                    assert_eq!(subtask, simulator, "{key} p {p} max {m}: the pinned key is on the simulator's subtask");
                }
                other => panic!("{other}"),
            }
            rows += 1;
        }
    }
    assert_eq!(rows, 2 * 3 * 19, "every run and key measured");
    assert!(string_elsewhere > 0, "keyed by the string, some keys land elsewhere");
}

/// The table the export pins (`SUBTASK`) is where the simulator's run leaves each key's state,
/// and the export keys a keyed operator by the pinned pair with the graph's max parallelism.
#[test]
fn the_export_pins_the_simulators_subtasks() {
    use barrierscope::engine::core::dataflow::state::OpState;
    use barrierscope::engine::core::ids::OperatorId;
    use barrierscope::engine::exports::pyflink_placement::subtask_table;
    for file in
        ["scenarios/groundtruth/4-keyed-shuffle-aligned.json", "scenarios/groundtruth/10-keyed-count-aligned.json"]
    {
        let sc = scenario(file);
        let played = sc.play().unwrap();
        let g = &played.sim.graph;
        let count = OperatorId(g.spec.operators.iter().position(|o| o.name == "Count").unwrap() as u16);
        let table = subtask_table(g, count);
        let mut held = 0;
        for (t, info) in g.tasks.iter().enumerate() {
            if info.operator != count {
                continue;
            }
            let OpState::Keyed { entries } = &played.sim.tasks()[t].state else { panic!() };
            for (k, _) in entries.iter() {
                let name = g.key_name(*k);
                assert_eq!(table.iter().find(|(n, _)| *n == name).unwrap().1, info.subtask, "{file}: {name}");
                held += 1;
            }
        }
        assert_eq!(held, table.len(), "{file}: every key is held");
        let py = export(file);
        let row = table.iter().map(|(k, t)| format!("\"{k}\": {t}")).collect::<Vec<_>>().join(", ");
        assert!(py.contains(&format!("    \"Count\": {{{row}}},")), "{file}");
        assert!(py.contains("key_by(pinned_key, key_type=PINNED_KEY)") && py.contains(".set_max_parallelism(128)"));
        assert!(py.contains("\"x\": -3662"), "{file}: x's pin");
    }
}
