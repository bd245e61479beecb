//! The headless runner, as a user calls it: scenario files give the verdicts the articles tell,
//! and every kind of bad input gets one clear error naming the problem, never a panic.
#![cfg(not(target_arch = "wasm32"))]

mod cli;
use cli::runner;

fn verdict(file: &str) -> serde_json::Value {
    let (code, out, err) = runner(&["run", &format!("{}/scenarios/{file}", env!("CARGO_MANIFEST_DIR")), "--json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("JSON output")
}

#[test]
fn scenario_files_tell_the_stories() {
    let v = verdict("abc-timers-lost.json");
    assert_eq!(v["verdict"]["state"], "lost");
    let lost: Vec<&str> = v["ledger"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["state_verdict"] == "lost")
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(lost, ["a", "b", "c"]);
    assert_eq!(verdict("abc-timers-duplicated.json")["verdict"]["state"], "duplicated");
    // Issue 10: on a socket, Flink loses a, b, c; Spark Streaming's write-ahead log keeps them.
    let lost = verdict("socket-flink-loses.json");
    let lost_labels: Vec<&str> = lost["ledger"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["state_verdict"] == "lost")
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(lost_labels, ["a", "b", "c"], "{lost}");
    let kept = verdict("socket-spark-wal-keeps.json");
    assert_eq!(
        (&kept["verdict"]["state"], &kept["verdict"]["external"]),
        (&"exactly-once".into(), &"exactly-once".into()),
        "{kept}"
    );
    let storm = verdict("storm-crash-duplicates.json");
    assert_eq!(storm["verdict"]["external"], "duplicated", "{storm}");
    let dup: Vec<&str> = storm["ledger"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["external_verdict"] == "duplicated")
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(dup, ["a"], "only a was written before the crash");
    assert_eq!(verdict("abc-barriers-exactly-once.json")["verdict"]["state"], "exactly-once");
    assert_eq!(verdict("two-inputs-at-least-once.json")["verdict"]["state"], "duplicated");
    let v = verdict("two-inputs-unaligned.json");
    assert_eq!(v["verdict"]["state"], "exactly-once");
    assert_eq!(v["checkpoints"]["history"][0]["in_flight"], 4);
    let v = verdict("sink-two-phase-commit.json");
    assert_eq!(v["verdict"]["external"], "exactly-once");
}

#[test]
fn order_and_completeness_are_in_the_json_and_the_table() {
    // The same verdicts the ledger gives, by the runner: orphans come again, in-transit records
    // never arrive.
    let v = verdict("abc-timers-duplicated.json");
    assert_eq!(
        (v["verdict"]["order"].as_str(), v["verdict"]["complete"].as_str()),
        (Some("out-of-order"), Some("complete"))
    );
    let late: Vec<&str> = v["ledger"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["order_verdict"] == "out-of-order")
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(late, ["a", "b", "c"]);
    let v = verdict("abc-timers-lost.json");
    assert_eq!(v["tally"]["complete"]["incomplete"], 3);
    let path = format!("{}/scenarios/abc-timers-lost.json", env!("CARGO_MANIFEST_DIR"));
    let (code, out, _) = runner(&["run", &path]);
    assert_eq!(code, 0);
    assert!(out.contains("complete: 5 complete, 3 incomplete, 0 pending -> INCOMPLETE"), "{out}");
    assert!(out.contains("a        INCOMPLETE at Source->Map, Map->Count"), "{out}");
    let v = verdict("abc-barriers-exactly-once.json");
    assert_eq!(
        (v["verdict"]["order"].as_str(), v["verdict"]["complete"].as_str()),
        (Some("in-order"), Some("complete"))
    );
}

#[test]
fn the_table_shows_verdict_ledger_and_checkpoints() {
    let path = format!("{}/scenarios/abc-barriers-exactly-once.json", env!("CARGO_MANIFEST_DIR"));
    let (code, out, _) = runner(&["run", &path, "--events"]);
    assert_eq!(code, 0);
    assert!(out.contains("state:    8 exactly once, 0 lost, 0 duplicated, 0 pending -> exactly once"), "{out}");
    assert!(out.contains("Checkpoints: 2 triggered, 0 in progress, 2 completed, 0 failed, 1 restored"), "{out}");
    assert!(out.contains("Count has barrier 1 from every input") || out.contains("Count received barrier 1."), "{out}");
    assert!(out.contains("Restored every task from completed checkpoint 1."), "{out}");
}

/// Without HA: the JSON and the table give the failover (two steps down, a resubmission from the
/// retained checkpoint) and keep the failed job's checkpoints apart from the new job's, whose ids
/// continue after the restored one.
#[test]
fn the_runner_reports_failovers_and_a_resubmitted_job() {
    let v = verdict("jobmanager-without-ha.json");
    assert_eq!(v["verdict"]["state"], "exactly-once");
    let f = &v["failovers"][0];
    assert_eq!(f["cause"]["cause"], "job-manager-without-ha", "{f}");
    assert_eq!(f["running_tick"].as_u64().unwrap() - f["failed_tick"].as_u64().unwrap(), 2, "{f}");
    assert_eq!(f["takeover"], serde_json::json!({"how": "resubmission", "submission": 2}));
    let restored = f["restored"]["checkpoint"].as_u64().expect("from a checkpoint");
    let earlier = &v["checkpoints"]["earlier_submissions"][0];
    let done: Vec<u64> = earlier
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"]["status"] == "completed")
        .map(|r| r["id"].as_u64().unwrap())
        .collect();
    assert_eq!(done.last(), Some(&restored), "the latest retained checkpoint");
    assert_eq!(v["checkpoints"]["history"][0]["id"].as_u64(), Some(restored + 1), "a new job counts on from it");
    let path = format!("{}/scenarios/jobmanager-without-ha.json", env!("CARGO_MANIFEST_DIR"));
    let (code, out, _) = runner(&["run", &path]);
    assert_eq!(code, 0);
    assert!(out.contains("Checkpoints of submission 1 (a failed job):"), "{out}");
    assert!(out.contains("the JobManager failed (no HA)") && out.contains("resubmitted (submission 2)"), "{out}");
}

#[test]
fn example_scenarios_round_trip_through_the_runner() {
    for job in ["line", "line-sink", "two-inputs", "diamond", "keyed-shuffle"] {
        let (code, text, err) = runner(&["example", job]);
        assert_eq!(code, 0, "{err}");
        let path = std::env::temp_dir().join(format!("barrierscope-example-{job}-{}.json", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let (code, out, err) = runner(&["run", path.to_str().unwrap(), "--json"]);
        std::fs::remove_file(&path).ok();
        assert_eq!(code, 0, "{job}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["verdict"]["state"], "exactly-once", "{job}");
    }
}

/// (scenario text, words the error must contain)
const BAD: &[(&str, &str)] = &[
    ("{ not json", "not valid JSON"),
    ("[1, 2]", "top level must be an object"),
    (r#"{"version": 9, "job": "line"}"#, "format version 9"),
    (r#"{"version": "one", "job": "line"}"#, "\"version\" must be a whole number"),
    (r#"{"job": "triangle"}"#, "no built-in job is called \"triangle\""),
    (r#"{"job": "line", "colour": "red"}"#, "unknown field `colour`"),
    (r#"{"job": "line", "actions": [{"deliver": "Map->Nowhere"}]}"#, "no channel is named \"Map->Nowhere\""),
    (r#"{"job": "line", "actions": [{"timer": "Ghost"}]}"#, "no task is named \"Ghost\""),
    (
        r#"{"job": "line", "actions": [{"deliver": "Source->Map"}]}"#,
        "action #1 of the script: deliver Source->Map: channel Source->Map is empty",
    ),
    (r#"{"job": "line", "actions": ["restore"]}"#, "the job is running; there is nothing to restore"),
    (r#"{"job": "line", "actions": ["all-timers"]}"#, "snapshot timers belong to per-task timers"),
    (r#"{"job": "line", "actions": ["crash", {"read": "Source"}]}"#, "the job is down; restore it first"),
    (r#"{"job": "line", "actions": [{"read": "Map"}]}"#, "Map is not a source"),
    (r#"{"job": "line", "actions": [{"dance": "Map"}]}"#, "unknown variant `dance`"),
    (
        r#"{"job": {"operators": [{"name": "S", "kind": "source"}, {"name": "M", "kind": "map"}], "edges": [{"from": "M", "to": "S"}]}, "input": {"S": ["a:x"]}}"#,
        "a source can't have inputs",
    ),
    (
        r#"{"job": {"operators": [{"name": "S", "kind": "source"}, {"name": "M", "kind": "map"}, {"name": "N", "kind": "map"}], "edges": [{"from": "S", "to": "M"}, {"from": "M", "to": "N"}, {"from": "N", "to": "M"}]}, "input": {"S": ["a:x"]}}"#,
        "cycle",
    ),
    (
        r#"{"job": {"operators": [{"name": "S", "kind": "source", "parallelism": 1000}], "edges": []}, "input": {"S": []}}"#,
        "parallelism 1000",
    ),
    (r#"{"job": {"operators": [{"name": "S", "kind": "source"}], "edges": []}}"#, "needs an \"input\" log"),
    (r#"{"job": "line", "input": {"Source": ["a:x", "a:y"]}}"#, "labelled \"a\""),
    (r#"{"job": "line", "input": {"Source": ["ax"]}}"#, "is not \"label:key\""),
    (
        r#"{"job": "line", "settings": {"strategy": "timers", "checkpoint-interval": 5}}"#,
        "checkpoint-interval needs a checkpointing strategy",
    ),
    (
        r#"{"job": "line", "settings": {"max-concurrent-checkpoints": 4000000000}}"#,
        "max-concurrent-checkpoints must be 1 to 16",
    ),
    (r#"{"job": "line", "settings": {"strategy": "sometimes"}}"#, "unknown variant `sometimes`"),
    (
        r#"{"job": "line-sink", "settings": {"strategy": "timers", "sink": "two-phase-commit"}}"#,
        "needs a checkpointing strategy",
    ),
    (r#"{"job": "line", "actions": [{"auto": 99999999999}]}"#, "not valid JSON"),
    (
        r#"{"job": {"operators": [{"name": "S", "kind": "source", "paralelism": 2}], "edges": []}, "input": {"S": []}}"#,
        "in \"job\": unknown field `paralelism`",
    ),
    (
        r#"{"job": {"operators": [{"name": "S", "kind": "sorce"}], "edges": []}, "input": {"S": []}}"#,
        "the kinds are source, map, filter",
    ),
    (
        r#"{"job": {"operators": [{"name": "S", "kind": "source"}, {"name": "M", "kind": "map"}], "edges": [{"from": "S", "to": "M", "partitoning": "hash"}]}, "input": {"S": []}}"#,
        "unknown field `partitoning`",
    ),
    (r#"{"job": 5}"#, "\"job\" must be a built-in job name or an object"),
];

#[test]
fn bad_input_gets_one_clear_error_and_no_panic() {
    let dir = std::env::temp_dir();
    for (i, (text, words)) in BAD.iter().enumerate() {
        let path = dir.join(format!("barrierscope-bad-{i}-{}.json", std::process::id()));
        std::fs::write(&path, text).unwrap();
        let (code, out, err) = runner(&["run", path.to_str().unwrap()]);
        std::fs::remove_file(&path).ok();
        assert_eq!(code, 2, "case {i}: {text}\n{out}{err}");
        assert!(!err.contains("panicked"), "case {i}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "case {i}: one line: {err}");
        assert!(err.starts_with("error: ") && err.contains(words), "case {i}: expected {words:?} in {err}");
    }
    let (code, _, err) = runner(&["run", "/no/such/file.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("can't read /no/such/file.json"), "{err}");
    // A usage error is clap's: the error, the usage and where to read more, exit code 2.
    let (code, _, err) = runner(&["fly"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: unrecognized subcommand 'fly'") && err.contains("Usage: barrierscope <COMMAND>"),
        "{err}"
    );
}

#[test]
fn absurd_sizes_are_refused() {
    let big: Vec<String> = (0..200_001).map(|i| format!("\"{}:k\"", barrierscope::engine::auto_label(i))).collect();
    let text = format!(r#"{{"job": "line", "input": {{"Source": [{}]}}}}"#, big.join(","));
    let path = std::env::temp_dir().join(format!("barrierscope-big-{}.json", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let (code, _, err) = runner(&["run", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 2);
    assert!(err.contains("more than 200000 records"), "{err}");
}

/// Plays scenario text through `barrierscope run` with `args`; returns its output.
fn run_text(name: &str, text: &str, args: &[&str]) -> String {
    let path = std::env::temp_dir().join(format!("barrierscope-{name}-{}.json", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let mut all = vec!["run", path.to_str().unwrap()];
    all.extend(args);
    let (code, out, err) = runner(&all);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn an_unaligned_task_not_yet_acknowledged_reads_cleanly() {
    // Count snapshots at Left's barrier (unaligned) and acknowledges only once Right's arrives.
    let out = run_text(
        "unaligned-pending",
        r#"{"job": "two-inputs", "settings": {"strategy": "unaligned"},
            "actions": [{"read": "Left"}, "checkpoint", {"deliver": "Left->Count"}]}"#,
        &[],
    );
    assert!(out.contains("Count              start delay   1  alignment   0  unaligned, not acknowledged\n"), "{out}");
    assert!(!out.contains(" , "), "{out}");
}

fn labels(v: &serde_json::Value) -> Vec<&str> {
    v.as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect()
}

/// The runner prints the consistent-cut report of the end state, in the table and under `cut` in
/// the JSON: per channel the orphans, the records in transit and those stored as in-flight data,
/// by label.
#[test]
fn the_runner_shows_the_cut() {
    // Timers together after the source sent a, b, c: in transit, lost.
    let v = verdict("abc-timers-lost.json");
    let cut = &v["cut"];
    assert_eq!(cut["consistent"], false);
    assert_eq!(cut["checkpoint"], serde_json::Value::Null);
    assert_eq!(cut["saves"][0], serde_json::json!({"task": "Source", "step": 3}));
    assert_eq!(cut["channels"][0]["channel"], "Source->Map");
    assert_eq!(labels(&cut["channels"][0]["in_transit"]), ["a", "b", "c"]);
    assert!(labels(&cut["channels"][0]["orphans"]).is_empty());
    // The other way round: orphans, duplicated.
    let v = verdict("abc-timers-duplicated.json");
    assert_eq!(labels(&v["cut"]["channels"][0]["orphans"]), ["a", "b", "c"]);
    // Aligned barriers: the latest completed checkpoint is a consistent cut.
    let v = verdict("abc-barriers-exactly-once.json");
    assert_eq!(v["cut"]["consistent"], true);
    assert_eq!(v["cut"]["checkpoint"], 2);
    // Unaligned: the barriers overtook a, b and f, g, stored with checkpoint 1.
    let text = r#"{"job": "two-inputs", "settings": {"strategy": "unaligned"}, "actions": [
        {"read": "Left"}, {"read": "Left"}, {"read": "Right"}, {"read": "Right"}, "checkpoint",
        {"deliver": "Left->Count"}, {"deliver": "Right->Count"}]}"#;
    let v: serde_json::Value = serde_json::from_str(&run_text("cut-stored", text, &["--json"])).unwrap();
    assert_eq!(v["cut"]["consistent"], true);
    assert_eq!(labels(&v["cut"]["channels"][0]["stored"]), ["a", "b"]);
    assert_eq!(labels(&v["cut"]["channels"][1]["stored"]), ["f", "g"]);
    let out = run_text("cut-stored-table", text, &[]);
    assert!(out.contains("Cut of completed checkpoint 1 (what a restore would use now): consistent"), "{out}");
    assert!(out.contains("    stored in-flight: a b (replayed on restore)"), "{out}");
    // The table, for the timers that lose a, b, c.
    let path = format!("{}/scenarios/abc-timers-lost.json", env!("CARGO_MANIFEST_DIR"));
    let (_, out, _) = runner(&["run", &path]);
    assert!(out.contains("Cut of each task's latest save (what a restore would use now): NOT consistent"), "{out}");
    assert!(out.contains("  saves: Source at step 3, Map at step 3, Count at step 3\n"), "{out}");
    assert!(
        out.contains("  Source->Map            sent    3, received    0\n    in transit: a b c (lost on restore)\n"),
        "{out}"
    );
    // Nothing saved: no cut.
    let v: serde_json::Value = serde_json::from_str(&run_text(
        "cut-none",
        r#"{"job": "line", "settings": {"strategy": "none"}}"#,
        &["--json"],
    ))
    .unwrap();
    assert_eq!(v["cut"], serde_json::Value::Null);
}

#[test]
fn export_pyflink_writes_the_job_or_says_why_not() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let (code, help, _) = runner(&["export-pyflink", "--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("Usage: barrierscope export-pyflink [OPTIONS] <SCENARIO.json>"), "{help}");
    assert!(help.contains("-o, --output <OUT.py>"), "{help}");
    // To stdout, or to a file with -o (then nothing on stdout).
    let scenario = format!("{dir}/scenarios/groundtruth/2-aligned-two-phase-commit-after-checkpoint.json");
    let (code, py, err) = runner(&["export-pyflink", &scenario]);
    assert_eq!(code, 0, "{err}");
    assert!(py.starts_with("#!/usr/bin/env python3\n# Ground truth 2") && py.contains("sink_to(file_sink(\"Sink\"))"));
    let out = std::env::temp_dir().join(format!("barrierscope-runner-export-{}.py", std::process::id()));
    let (code, stdout, err) = runner(&["export-pyflink", &scenario, "-o", out.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), py);
    std::fs::remove_file(&out).unwrap();
    // A scenario Flink can't run: one error line, exit code 2.
    let (code, _, err) = runner(&["export-pyflink", &format!("{dir}/scenarios/abc-timers-lost.json")]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: ") && err.contains("abc-timers-lost.json: strategy timers can't be exported"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    for args in [
        &["export-pyflink"][..],
        &["export-pyflink", &scenario, "-o"][..],
        &["export-pyflink", &scenario, "--nope"][..],
    ] {
        let (code, _, err) = runner(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

#[test]
fn export_pyspark_writes_the_job_or_says_why_not() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let (code, help, _) = runner(&["help", "export-pyspark"]);
    assert_eq!(code, 0);
    assert!(help.contains("Usage: barrierscope export-pyspark [OPTIONS] <FILE.json>"), "{help}");
    // A streaming scenario and a batch file, to stdout or to a file with -o.
    for (file, kind) in [
        ("scenarios/groundtruth-spark/s4-transactional-exactly-once.json", "KIND = \"streaming\""),
        ("scenarios/groundtruth-spark/b1-task-fails-once.json", "KIND = \"batch\""),
    ] {
        let scenario = format!("{dir}/{file}");
        let (code, py, err) = runner(&["export-pyspark", &scenario]);
        assert_eq!(code, 0, "{err}");
        assert!(py.starts_with("#!/usr/bin/env python3\n\"\"\"Spark") && py.contains(kind), "{file}");
        let out = std::env::temp_dir().join(format!("barrierscope-runner-pyspark-{}.py", std::process::id()));
        let (code, stdout, err) = runner(&["export-pyspark", &scenario, "-o", out.to_str().unwrap()]);
        assert_eq!((code, stdout.as_str()), (0, ""), "{err}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), py);
        std::fs::remove_file(&out).unwrap();
    }
    // What PySpark can't run: one error line, exit code 2.
    for (file, says) in [
        ("scenarios/abc-timers-lost.json", "strategy timers can't be exported to PySpark"),
        ("scenarios/batch/spark-persist-dies.json", "an executor crash can't be exported to PySpark"),
        ("scenarios/batch/hadoop-node-lost.json", "it is a Hadoop job"),
    ] {
        let (code, _, err) = runner(&["export-pyspark", &format!("{dir}/{file}")]);
        assert_eq!(code, 2, "{file}");
        assert!(err.starts_with("error: ") && err.contains(says), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    for args in [&["export-pyspark"][..], &["export-pyspark", "x.json", "-o"][..], &["export-pyspark", "--nope"][..]] {
        let (code, _, err) = runner(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

/// Issue 49: a restore into a changed program, headless. A scenario's `"restore"` edits the
/// program and submits it from the savepoint (`flink run -s`, after Flink's
/// `Checkpoints.loadAndValidateCheckpoint` and `StateAssignmentOperation`); the runner reports
/// the mapping by operator id (after `StreamGraphHasherV2`), the refusal if any, and the restored
/// job's verdicts and ledger.
#[test]
fn a_scenario_restores_into_a_changed_program() {
    let root = env!("CARGO_MANIFEST_DIR");
    let fates = |v: &serde_json::Value| -> Vec<(String, String)> {
        v["restore"]["mapping"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["operator"].as_str().unwrap().to_string(), r["fate"].as_str().unwrap().to_string()))
            .collect()
    };
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    // line-sink: the Filter takes Count's id; restored without a word, Count's records lost.
    let v = verdict("restore/line-sink-filter-takes-counts-id.json");
    assert_eq!(v["restore"]["refused"], serde_json::Value::Null);
    assert_eq!(
        fates(&v),
        [pair("Source", "kept"), pair("Map", "kept"), pair("Count", "unread"), pair("Sink", "skipped-empty")]
    );
    assert_eq!(v["restore"]["mapping"][2]["target"], "Filter");
    assert_eq!(v["verdict"]["state"], "lost");
    // line-uids: the same Filter maps every state; exactly once.
    let v = verdict("restore/line-uids-filter-maps-every-state.json");
    assert!(fates(&v).iter().all(|(_, f)| f == "kept"), "{:?}", fates(&v));
    assert_eq!(v["verdict"]["state"], "exactly-once");
    // A uid set on Count changes its id: Flink's refusal, unless --allowNonRestoredState drops it.
    let text =
        std::fs::read_to_string(format!("{root}/scenarios/restore/line-sink-filter-takes-counts-id.json")).unwrap();
    let mut sc: serde_json::Value = serde_json::from_str(&text).unwrap();
    sc["restore"]["edits"] = serde_json::json!(["uid Count=count", "max Count=64"]);
    let dir = std::env::temp_dir().join(format!("barrierscope-restore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("refused.json");
    std::fs::write(&file, sc.to_string()).unwrap();
    let (code, out, err) = runner(&["run", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("new program: Source x1, Map x1, Count x1 uid count max 64, Sink x1"), "{out}");
    assert!(out.contains("refused: Failed to rollback to checkpoint/savepoint file:/savepoints/savepoint-1. Cannot map checkpoint/savepoint state for operator"), "{out}");
    sc["restore"]["allow-non-restored-state"] = serde_json::json!(true);
    std::fs::write(&file, sc.to_string()).unwrap();
    let (code, out, _) = runner(&["run", file.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(fates(&v)[2], pair("Count", "dropped"));
    // A bad edit is an error naming it.
    sc["restore"]["edits"] = serde_json::json!(["uid Nope=x"]);
    std::fs::write(&file, sc.to_string()).unwrap();
    let (code, _, err) = runner(&["run", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("restore: \"uid Nope=x\": no operator \"Nope\""), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
