//! Sharing: a run encodes into a link, a file and a stored entry, and opens paused at the same
//! frame. Malformed or hostile text (bad JSON, unknown version, huge sizes, actions that are not
//! enabled, ...) from any of the three is refused with a message naming the problem, in both
//! languages, and never panics.
#![cfg(not(target_arch = "wasm32"))]

use barrierscope::classroom::*;
use barrierscope::engine::{Action, Lang, TaskId};

fn story() -> Session {
    let mut s = Session::new(RunConfig::default()).unwrap();
    for _ in 0..3 {
        s.handle(Command::Act(Action::Read { task: TaskId(0) }));
    }
    s.handle(Command::Act(Action::AllTimers));
    s.handle(Command::Act(Action::Crash));
    s
}

fn good_json() -> serde_json::Value {
    serde_json::to_value(story().save(Lang::En)).unwrap()
}

fn with(field: &str, v: serde_json::Value) -> String {
    let mut j = good_json();
    j[field] = v;
    j.to_string()
}

/// (text, words the English message must contain)
fn bad_texts() -> Vec<(String, &'static str)> {
    use serde_json::json;
    vec![
        ("".into(), "not a valid JSON run"),
        ("{ nope".into(), "not a valid JSON run"),
        ("[1,2,3]".into(), "\"barrierscope\" version field is missing"),
        ("{}".into(), "\"barrierscope\" version field is missing"),
        (with("barrierscope", json!(2)), "format version 2"),
        (with("barrierscope", json!("1")), "must be a whole number"),
        (with("barrierscope", json!(-1)), "must be a whole number"),
        (with("job", json!("triangle")), "no built-in job is called \"triangle\""),
        (with("job", json!(42)), "not a valid JSON run"),
        (with("seed", json!(-5)), "not a valid JSON run"),
        (with("records", json!(10_000_000)), "records per partition must be 1 to 5000"),
        (with("settings", json!({"strategy": "sometimes"})), "unknown variant `sometimes`"),
        (
            with("settings", json!({"strategy": "timers", "checkpoint-interval": 3})),
            "checkpoint-interval needs a checkpointing strategy",
        ),
        (with("settings", json!({"max-concurrent-checkpoints": 0})), "max-concurrent-checkpoints must be 1 to 16"),
        (with("settings", json!({"high-availability": "zookeeper"})), "unknown variant `zookeeper`"),
        (
            with("settings", json!({"strategy": "timers", "high-availability": "none"})),
            "high-availability and externalized-checkpoint-retention concern the checkpoints the JobManager keeps",
        ),
        (with("actions", json!("r0 r0 zz")), "action #3 \"zz\" is not an action"),
        (with("actions", json!("R")), "action #1 (restore) is not enabled: the job is running"),
        (with("actions", json!("d0")), "action #1 (deliver Source->Map) is not enabled: channel Source->Map is empty"),
        (with("actions", json!("d99")), "action #1 (deliver ?) is not enabled: there is no channel #99"),
        (with("actions", json!("X r0")), "the job is down; restore it first"),
        (with("actions", json!(["r0"])), "not a valid JSON run"),
        (with("actions", json!("a ".repeat(MAX_SAVED_ACTIONS + 1))), "at most 200000 are allowed"),
        (with("at", json!(99)), "playhead 99 is past its 5 steps"),
        (with("at", json!(-1)), "not a valid JSON run"),
        (with("lesson", json!({"id": "no-such-lesson", "step": 0})), "no lesson is called \"no-such-lesson\""),
        (with("lesson", json!({"id": "state", "step": 999})), "has no step 1000"),
        (with("lesson", json!({"id": "state", "step": 0, "predictions": {"zz": "lost"}})), "names record \"zz\""),
        (with("lesson", json!({"id": "state", "step": 0, "predictions": {"a": "maybe"}})), "not a valid JSON run"),
        (with("lang", json!("fr")), "not a valid JSON run"),
        (with("colour", json!("red")), "unknown field `colour`"),
        ("x".repeat(MAX_SAVED_BYTES + 1), "at most 4194304 are allowed"),
    ]
}

#[test]
fn a_run_round_trips_through_link_and_file_and_storage() {
    let s = story();
    let saved = s.save(Lang::Zh);
    let link = to_fragment(&saved);
    assert!(link.starts_with("run="));
    let (t, lang) = Session::load(&from_fragment(&format!("#{link}")).unwrap()).unwrap();
    assert_eq!(lang, Lang::Zh);
    assert_eq!(t.save(Lang::Zh), saved);
    let file = serde_json::to_string_pretty(&saved).unwrap();
    let (u, _) = Session::load(&file).unwrap();
    assert_eq!(u.timeline.position(), s.timeline.position());
    assert_eq!(u.sim().ledger(), s.sim().ledger());
}

/// A run without HA, its JobManager failed and the job resubmitted from the retained checkpoint,
/// opens from a link at the same frame: the settings travel with it, and the failover, the
/// submission and the new job's checkpoints are as they were.
/// A run with a savepoint, a stop with savepoint and a new submission from it opens from its link
/// as it was: the same savepoints, the same statistics, the job running again.
#[test]
fn a_run_with_savepoints_round_trips_through_a_link() {
    use barrierscope::engine::{Settings, Strategy};
    let config = RunConfig { job: "line".into(), settings: Settings::new(Strategy::Aligned), seed: 1, records: None };
    let mut s = Session::new(config).unwrap();
    let script = ["r0", "r0", "v", "d0", "d0", "d0", "d1", "d1", "d1", "r0", "V", "d0", "d0", "d1", "d1", "u2", "r0"];
    for a in script {
        s.handle(Command::Act(Action::from_code(a).unwrap()));
    }
    assert_eq!(s.sim().savepoints().len(), 2);
    assert_eq!(s.sim().stopped(), None, "submitted again from savepoint 2");
    let saved = s.save(Lang::En);
    let (t, _) = Session::load(&from_fragment(&format!("#{}", to_fragment(&saved))).unwrap()).unwrap();
    assert_eq!(t.save(Lang::En), saved);
    assert_eq!(t.sim().savepoints(), s.sim().savepoints());
    assert_eq!(t.sim().stats, s.sim().stats);
}

#[test]
fn a_run_without_ha_round_trips_with_its_resubmission() {
    use barrierscope::engine::{CheckpointRetention, HighAvailability, Settings, Strategy};
    let mut settings = Settings::new(Strategy::Aligned);
    settings.high_availability = HighAvailability::None;
    settings.externalized_checkpoint_retention = CheckpointRetention::DeleteOnCancellation;
    let config = RunConfig { job: "line".into(), settings, seed: 1, records: None };
    let mut s = Session::new(config).unwrap();
    for a in ["r0", "r0", "c", "d0", "d0", "d0", "d1", "d1", "d1", "r0", "c", "J", "R", "R", "c"] {
        s.handle(Command::Act(Action::from_code(a).unwrap()));
    }
    assert_eq!(s.sim().masters().submission, 2);
    let saved = s.save(Lang::En);
    let json = serde_json::to_value(&saved).unwrap();
    assert_eq!(json["settings"]["high-availability"], "none");
    assert_eq!(json["settings"]["externalized-checkpoint-retention"], "delete-on-cancellation");
    let (t, _) = Session::load(&from_fragment(&format!("#{}", to_fragment(&saved))).unwrap()).unwrap();
    assert_eq!(t.save(Lang::En), saved);
    assert_eq!(t.sim().masters(), s.sim().masters());
    assert_eq!(t.sim().stats, s.sim().stats);
    // A link from before the setting existed opens with the defaults: a standby.
    let mut old = json.clone();
    old["settings"].as_object_mut().unwrap().retain(|k, _| k == "strategy");
    old["actions"] = serde_json::json!("r0 c J R");
    old["at"] = serde_json::json!(4);
    let (u, _) = Session::load(&old.to_string()).unwrap();
    assert_eq!(u.sim().masters().leader.letter(), "B", "the standby won the election");
}

#[test]
fn malformed_files_and_stored_entries_name_their_problem() {
    let bad = bad_texts();
    assert!(bad.len() >= 20);
    for (text, words) in &bad {
        let err = Session::load(text).err().unwrap_or_else(|| panic!("accepted: {}", &text[..text.len().min(200)]));
        let en = err.message(Lang::En);
        let zh = err.message(Lang::Zh);
        assert!(en.contains(words), "expected {words:?} in {en:?}");
        assert_ne!(en, zh, "the Chinese message differs from the English one");
        let notice = Notice::load_failed(Origin::Storage, err);
        assert!(notice.message(Lang::En).ends_with("Your current run is unchanged."));
        assert!(notice.message(Lang::Zh).contains("当前的运行保持不变"));
    }
}

#[test]
fn malformed_links_name_their_problem() {
    let cases: Vec<(String, &str)> = vec![
        ("#".into(), "not a Barrierscope link"),
        ("#view=1".into(), "not a Barrierscope link"),
        ("#run=***".into(), "not a Barrierscope link"),
        ("#run=a".into(), "not a Barrierscope link"),
        (format!("#run={}", to_base64url(&[0xff, 0xfe, 0x00])), "not a Barrierscope link"),
        (format!("#run={}", "A".repeat(MAX_SAVED_BYTES * 2)), "at most 4194304 are allowed"),
        (format!("#run={}", to_base64url(b"{\"barrierscope\": 7}")), "format version 7"),
        (format!("#run={}", to_base64url(with("actions", serde_json::json!("R")).as_bytes())), "is not enabled"),
    ];
    for (link, words) in cases {
        let err = from_fragment(&link).and_then(|t| Session::load(&t).map(|_| ())).expect_err("refused");
        assert!(err.message(Lang::En).contains(words), "{link:.60}: expected {words:?} in {:?}", err.message(Lang::En));
    }
}

#[test]
fn the_lesson_position_is_part_of_the_run() {
    let mut s = Session::new(RunConfig::default()).unwrap();
    assert!(s.handle(Command::StartLesson(0)));
    assert!(s.handle(Command::LessonNext));
    assert!(s.handle(Command::LessonNext));
    let saved = s.save(Lang::En);
    let (t, _) = Session::load(&serde_json::to_string(&saved).unwrap()).unwrap();
    assert_eq!(t.lesson.as_ref().unwrap().step, 2);
    assert_eq!(t.timeline.position(), s.timeline.position());
    assert!(!t.took_over);
}

/// Storm's acker travels in a link too: its settings (timeout, unanchored edges) and its steps
/// (messages to the acker, answers to the spout) come back the same, acker table included.
#[test]
fn a_storm_run_round_trips_through_a_link() {
    use barrierscope::engine::{Settings, Strategy};
    let mut settings = Settings::new(Strategy::StormAcker);
    settings.mechanism.storm.message_timeout = 7;
    settings.mechanism.storm.unanchored = vec!["Count->Sink".into()];
    let config = RunConfig { job: "line-sink".into(), settings, seed: 3, records: None };
    let mut s = Session::new(config).unwrap();
    let (source, map) = (TaskId(0), TaskId(1));
    for a in [
        Action::Read { task: source },
        barrierscope::engine::mechanisms::storm::steps::to_acker(source),
        Action::Deliver { channel: barrierscope::engine::ChannelId(0) },
        barrierscope::engine::mechanisms::storm::steps::to_acker(map),
    ] {
        s.handle(Command::Act(a));
    }
    let saved = s.save(Lang::En);
    assert!(saved.actions.contains("q0") && saved.actions.contains("q1"), "{}", saved.actions);
    let link = to_fragment(&saved);
    let (t, _) = Session::load(&from_fragment(&format!("#{link}")).unwrap()).unwrap();
    assert_eq!(t.save(Lang::En), saved);
    assert_eq!(t.sim().storm(), s.sim().storm(), "the same trees, values and messages");
    assert_eq!(t.sim().settings.mechanism.storm.unanchored, vec!["Count->Sink".to_string()]);
}

/// Issue 10: a Spark Streaming run on a socket with the write-ahead log, a wait and a driver
/// crash, round-trips through a link with its settings and `w` steps.
#[test]
fn a_spark_streaming_run_round_trips_through_a_link() {
    use barrierscope::engine::{Settings, SinkMode, SourceKind, Strategy};
    let mut settings = Settings::new(Strategy::SparkStreaming).with_sink(SinkMode::Transactional);
    settings.source = SourceKind::Socket;
    settings.mechanism.spark.write_ahead_log = true;
    settings.mechanism.spark.batch_interval = 3;
    let config = RunConfig { job: "line-sink".into(), settings, seed: 5, records: None };
    let mut s = Session::new(config).unwrap();
    for a in [Action::Wait, Action::Wait, Action::Wait, Action::CrashJobManager, Action::Restore, Action::Auto] {
        s.handle(Command::Act(a));
    }
    let saved = s.save(Lang::En);
    assert!(saved.actions.starts_with("w w w J R"), "{}", saved.actions);
    let link = to_fragment(&saved);
    let (t, _) = Session::load(&from_fragment(&format!("#{link}")).unwrap()).unwrap();
    assert_eq!(t.save(Lang::En), saved);
    assert_eq!(t.sim().spark(), s.sim().spark(), "the same blocks, batches and state");
    assert_eq!(t.sim().durable_spark(), s.sim().durable_spark(), "the same log and checkpoints");
    assert_eq!((t.sim().settings.source, t.sim().settings.mechanism.spark.batch_interval), (SourceKind::Socket, 3));
}
