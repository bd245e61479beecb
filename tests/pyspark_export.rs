//! The export to PySpark (issue 34): each Spark ground-truth scenario's plan follows the
//! simulator's run (which records the driver had processed, stored or never got at the crash,
//! and whether the kill comes before the next batch is cut), the batch files' plans carry the
//! simulator's stages and failing task, every scenario file either exports or gives the error the
//! book documents for it, the refusals are worded in both languages, and the generated Python
//! compiles (`python3 -m py_compile`, when python3 is on PATH). Running the files on Spark is
//! `scripts/groundtruth.sh`.
#![cfg(not(target_arch = "wasm32"))]

use barrierscope::engine::batch::{BatchFile, BATCH_LESSON};
use barrierscope::engine::exports::pyspark_export::{batch_plan, stream_plan, SparkExportError};
use barrierscope::engine::*;

#[path = "support/export.rs"]
mod export_support;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn scenario(path: &str) -> Scenario {
    Scenario::from_json(&std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap()).unwrap()
}

fn batch_run(path: &str) -> (barrierscope::engine::batch::BatchRun, String) {
    let text = std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap();
    let opened = BatchFile::open(&text, BATCH_LESSON.len()).unwrap_or_else(|_| panic!("{path} opens"));
    let name = opened.file.name.clone().unwrap_or_default();
    (opened.run, name)
}

fn labels(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Per streaming ground truth: processed groups, kill before the next cut, stored, while down,
/// after the restart, and the simulator's verdicts (state, output).
#[allow(clippy::type_complexity)]
const STREAMING: &[(&str, &[&[&str]], bool, &[&str], &[&str], &[&str], (&str, Option<&str>))] = &[
    (
        "s1-wal-driver-killed-before-batch",
        &[],
        false,
        &["a", "b", "c"],
        &[],
        &["d", "e"],
        ("exactly-once", Some("exactly-once")),
    ),
    ("s2-no-wal-receiver-memory-lost", &[], false, &["a", "b", "c"], &[], &["d", "e"], ("lost", Some("lost"))),
    (
        "s3-append-rerun-after-completed-batch",
        &[&["a", "b"]],
        true,
        &[],
        &[],
        &["c", "d"],
        ("exactly-once", Some("duplicated")),
    ),
    (
        "s4-transactional-exactly-once",
        &[&["a", "b"]],
        true,
        &[],
        &[],
        &["c", "d"],
        ("exactly-once", Some("exactly-once")),
    ),
    (
        "s5-update-state-by-key-survives",
        &[&["a", "b"], &["c", "d"], &["e"]],
        true,
        &[],
        &[],
        &["f", "g"],
        ("exactly-once", None),
    ),
    (
        "s6-socket-no-wal-in-flight-lost",
        &[&["a", "b"]],
        true,
        &["c", "d"],
        &["e", "f"],
        &["g", "h"],
        ("lost", Some("lost")),
    ),
];

#[test]
fn each_streaming_plan_follows_the_simulator_run() {
    for (file, processed, before_cut, stored, down, after, (state, output)) in STREAMING {
        let sc = scenario(&format!("scenarios/groundtruth-spark/{file}.json"));
        let p = stream_plan(&sc).unwrap_or_else(|e| panic!("{file}: {e}"));
        let groups: Vec<Vec<String>> = processed.iter().map(|g| labels(g)).collect();
        assert_eq!(p.processed, groups, "{file}: processed before the crash");
        assert_eq!(p.kill_before_next_cut, *before_cut, "{file}");
        assert_eq!(p.stored, labels(stored), "{file}: stored at the crash");
        assert_eq!(p.while_down, labels(down), "{file}: arriving while the driver is down");
        assert_eq!(p.after, labels(after), "{file}: after the restart");
        assert!(p.crash);
        // Every record is in exactly one phase.
        let mut all: Vec<String> = p.processed.concat();
        all.extend(p.stored.iter().chain(&p.while_down).chain(&p.after).cloned());
        all.sort();
        let mut want: Vec<String> = p.records.iter().map(|r| r.label.clone()).collect();
        want.sort();
        assert_eq!(all, want, "{file}: every record has one phase");
        // The simulator's verdicts, which the suite compares with Spark's.
        let v = sc.play().unwrap().sim.ledger();
        assert_eq!(v.state.headline().id(), *state, "{file}");
        assert_eq!(v.external.map(|h| h.headline().id()), *output, "{file}");
        let py = export_pyspark(&sc).unwrap();
        assert!(py.contains("KIND = \"streaming\"") && py.contains("socketTextStream") && py.contains("getOrCreate"));
        assert_eq!(py.contains("\"write_ahead_log\": true"), sc.settings.mechanism.spark.write_ahead_log, "{file}");
    }
}

#[test]
fn each_batch_plan_has_the_simulator_stages_and_failing_task() {
    let cases: &[(&str, Option<(usize, u8, &str)>, &[&str], bool)] = &[
        ("b1-task-fails-once", Some((0, 1, "P0")), &["L1", "W1"], false),
        ("b2-persisted-partition-survives-task-failure", Some((0, 1, "P0")), &[], false),
        ("b3-checkpoint-cuts-lineage", None, &[], true),
    ];
    for (file, fail, reran, cut) in cases {
        let (run, name) = batch_run(&format!("scenarios/groundtruth-spark/{file}.json"));
        let p = batch_plan(&run, &name).unwrap();
        assert_eq!(p.fail, fail.map(|(s, q, l)| (s, q, l.to_string())), "{file}");
        assert_eq!(p.reran, labels(reran), "{file}");
        assert_eq!(p.lineage_cut, *cut, "{file}");
        assert!(p.exactly_once, "{file}");
        // The article's chain: a narrow stage L, W, P0, then the shuffle into P1.
        assert_eq!(p.stages, vec![(2, labels(&["L", "W", "P0"])), (2, labels(&["P1"]))], "{file}");
        let py = export_pyspark_batch(&run, &name).unwrap();
        assert!(py.contains("KIND = \"batch\"") && py.contains("local[2,2]") && py.contains("toDebugString"));
    }
    // checkpoint() inside the action that marks it (issue 49, item 1; Spark's
    // SparkContext.runJob calls rdd.doCheckpoint() after the job, ReliableRDDCheckpointData writes
    // in a job of its own): the retry in the first action computes C0 again from the shuffle, the
    // checkpoint job computes C, and the second action reads it.
    let (run, name) = batch_run("scenarios/groundtruth-spark/b4-checkpoint-in-first-action.json");
    let p = batch_plan(&run, &name).unwrap();
    assert_eq!(p.fail, Some((1, 0, "D".to_string())));
    assert_eq!(p.reran, labels(&["C0"]));
    assert!(p.exactly_once && p.lineage_cut);
    let jobs: Vec<(&str, Vec<(&str, u32)>, Vec<&str>)> = p
        .jobs
        .iter()
        .map(|j| {
            (
                j.job.as_str(),
                j.computed.iter().map(|(n, k)| (n.as_str(), *k)).collect(),
                j.read_checkpoint.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        jobs,
        vec![
            (
                "action 1",
                vec![("C0", 2), ("C1", 1), ("D0", 1), ("D1", 1), ("L0", 1), ("L1", 1), ("W0", 1), ("W1", 1)],
                vec![]
            ),
            ("checkpoint", vec![("C0", 1), ("C1", 1)], vec![]),
            ("action 2", vec![("D0", 1), ("D1", 1)], vec!["C0", "C1"]),
        ]
    );
    // An executor loss is refused: local mode has no executor to kill.
    let (run, name) = batch_run("scenarios/batch/spark-p10-lost.json");
    assert_eq!(batch_plan(&run, &name).unwrap_err(), SparkExportError::ExecutorCrash);
    let (run, name) = batch_run("scenarios/batch/hadoop-node-lost.json");
    assert!(batch_plan(&run, &name).unwrap_err().to_string().contains("Hadoop"));
}

fn book_table() -> Vec<(String, String)> {
    export_support::export_table("export-pyspark")
}

#[test]
fn every_scenario_exports_or_gives_the_error_the_book_documents() {
    let table = book_table();
    let json_in = |dir: &str, prefix: &str| {
        let mut v: Vec<String> = std::fs::read_dir(format!("{ROOT}/{dir}"))
            .unwrap()
            .map(|e| format!("{prefix}{}", e.unwrap().file_name().into_string().unwrap()))
            .filter(|n| n.ends_with(".json"))
            .collect();
        v.sort();
        v
    };
    let mut files = json_in("scenarios", "");
    files.extend(json_in("scenarios/batch", "batch/"));
    let listed: Vec<&str> = table.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(listed, files, "the book's PySpark export table lists every scenario and batch file, in order");
    for (file, said) in &table {
        let exported = if file.starts_with("batch/") {
            let (run, name) = batch_run(&format!("scenarios/{file}"));
            export_pyspark_batch(&run, &name)
        } else {
            export_pyspark(&scenario(&format!("scenarios/{file}")))
        };
        match exported {
            Ok(_) => assert_eq!(said, "exports", "{file} exports, the book says {said:?}"),
            Err(e) => assert_eq!(said, &e.to_string(), "{file}"),
        }
    }
}

#[test]
fn refusals_name_why_in_both_languages() {
    let spark = |f: &dyn Fn(&mut Settings)| {
        let mut s = Settings::new(Strategy::SparkStreaming);
        s.source = SourceKind::Socket;
        f(&mut s);
        Scenario::builtin("line-sink", s, 1)
    };
    let refused = |sc: &Scenario| export_pyspark(sc).unwrap_err();
    let mut executor = scenario("scenarios/groundtruth-spark/s1-wal-driver-killed-before-batch.json");
    executor.actions[3] = ScriptAction::CrashTask("Count".into());
    executor.actions.remove(4); // a new executor takes its place at once: nothing to restore
    let cases: Vec<(SparkExportError, &str)> = vec![
        (refused(&Scenario::builtin("line", Settings::new(Strategy::Aligned), 1)), "spark-streaming"),
        (refused(&spark(&|s| s.source = SourceKind::ReplayableLog)), "reliable receiver"),
        (refused(&spark(&|s| s.sink = SinkMode::Upsert)), "append and transactional"),
        (
            refused(&{
                let mut s = Settings::new(Strategy::SparkStreaming);
                s.source = SourceKind::Socket;
                Scenario::builtin("two-inputs", s, 1)
            }),
            "chain",
        ),
        (refused(&executor), "executor"),
    ];
    for (e, words) in cases {
        let (en, zh) = (e.message(Lang::En), e.message(Lang::Zh));
        assert!(en.contains(words), "{en:?} should say {words:?}");
        assert!(en.contains("PySpark"), "{en}");
        assert!(!zh.is_empty() && zh != en && zh.chars().any(|c| c > '\u{2e80}'), "{zh}");
        assert_eq!(e.to_string(), en);
    }
}

#[test]
fn the_generated_python_compiles() {
    let dir = std::env::temp_dir().join(format!("barrierscope-pyspark-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut written = vec![];
    for entry in std::fs::read_dir(format!("{ROOT}/scenarios/groundtruth-spark")).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let rel = format!("scenarios/groundtruth-spark/{stem}.json");
        let py = if stem.starts_with('b') {
            let (run, name) = batch_run(&rel);
            export_pyspark_batch(&run, &name).unwrap()
        } else {
            export_pyspark(&scenario(&rel)).unwrap()
        };
        let out = dir.join(format!("{stem}.py"));
        std::fs::write(&out, py).unwrap();
        written.push(out);
    }
    assert_eq!(written.len(), 10, "six streaming and four batch ground truths");
    export_support::assert_python_compiles(&written);
    std::fs::remove_dir_all(&dir).unwrap();
}
