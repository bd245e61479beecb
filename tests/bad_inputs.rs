//! The catalogue of bad inputs: files, links, stored runs, Settings fields, actions at the wrong
//! moment and scenario files, each with the exact message its user sees. For every entry on the
//! page, the test opens or applies the input against a run in progress and checks the message,
//! its Chinese wording, and that the run is exactly as it was (its saved form, playhead
//! included). For a scenario file, the runner has no run to keep: the message is checked.
//!
//! The book's chapter "Bad inputs and what the user sees" is this catalogue, written out by
//! `BLESS=1 cargo test --test bad_inputs`; the test fails when the two differ.
#![cfg(not(target_arch = "wasm32"))]

use barrierscope::classroom::batch_room::{BatchCommand, BatchSession};
use barrierscope::classroom::compare_room::CompareSession;
use barrierscope::classroom::quiz::history::set_in_link;
use barrierscope::classroom::saved_comparison::{self, SavedComparison};
use barrierscope::classroom::*;
use barrierscope::engine::batch::format::{from_link_fragment, to_link_fragment};
use barrierscope::engine::comparison::format::is_comparison;
use barrierscope::engine::comparison::{ComparisonFile, Lockstep};
use barrierscope::engine::explorer::{Completion, Explorer};
use barrierscope::engine::{Action, ChannelId, Lang, Scenario, Settings, Strategy, TaskId};
use serde_json::{json, Value};

/// A run in progress to damage: a few steps of the default story under `strategy`.
fn running(strategy: Strategy) -> Session {
    let job = if strategy == Strategy::StormAcker { "line-sink" } else { "line" };
    let config = RunConfig { job: job.into(), settings: Settings::new(strategy), seed: 1, records: None };
    let mut s = Session::new(config).unwrap();
    for _ in 0..2 {
        s.handle(Command::Act(Action::Read { task: TaskId(0) }));
    }
    s.notice = None;
    s
}

fn good() -> Value {
    serde_json::to_value(running(Strategy::Timers).save(Lang::En)).unwrap()
}

fn with(field: &str, v: Value) -> String {
    let mut j = good();
    j[field] = v;
    j.to_string()
}

fn link(text: &str) -> String {
    format!("#run={}", to_base64url(text.as_bytes()))
}

/// How an input reaches the app.
enum Via {
    /// Opened from a file, a link (the fragment) or the browser's storage.
    Open(Origin, String),
    /// Typed into a Settings field, on a run with this strategy.
    Setting(Strategy, SettingField, Option<&'static str>),
    /// A command (a button or a key) on a run with this strategy, after these action codes.
    Do(Strategy, &'static str, Command),
    /// A scenario file given to the headless runner.
    Scenario(String),
    /// `barrierscope compare`: one comparison file, or scenario files (name, text).
    Compare(Vec<(&'static str, String)>),
    /// A scenario file given to the schedule explorer (`barrierscope explore`).
    Explore(String),
    /// A batch scenario opened in the Batch room: from a file (↑ Import) or a `#room=batch&run=`
    /// link (the fragment).
    Batch(Origin, String),
    /// A `#room=compare&run=` link opened by the Side by side room (the fragment).
    CompareLink(String),
    /// A `#room=quiz&set=` link read by the quiz room (the fragment).
    QuizLink(String),
}

struct Bad {
    shown: &'static str,
    via: Via,
}

fn bad(shown: &'static str, via: Via) -> Bad {
    Bad { shown, via }
}

fn scenario(v: Value) -> Via {
    Via::Scenario(v.to_string())
}

fn line_scenario(patch: impl FnOnce(&mut Value)) -> Via {
    let mut v = json!({
        "version": 1,
        "job": {
            "operators": [
                {"name": "Source", "kind": "source"},
                {"name": "Count", "kind": "count"}
            ],
            "edges": [{"from": "Source", "to": "Count"}]
        },
        "input": {"Source": ["a:x", "b:y"]},
        "settings": {"strategy": "aligned"},
        "actions": [{"read": "Source"}]
    });
    patch(&mut v);
    Via::Scenario(v.to_string())
}

/// The example comparison, changed by `patch`.
fn comparison(patch: impl FnOnce(&mut Value)) -> Via {
    let mut v: Value = serde_json::from_str(include_str!("../scenarios/compare/three-ways.json")).unwrap();
    patch(&mut v);
    Via::Compare(vec![("three-ways.json", v.to_string())])
}

/// Flink's and Storm's scenario files of the example comparison, Storm's changed by `patch`.
fn columns(patch: impl FnOnce(&mut Value)) -> Via {
    let mut storm: Value = serde_json::from_str(include_str!("../scenarios/compare/storm-acks.json")).unwrap();
    patch(&mut storm);
    Via::Compare(vec![
        ("flink-barriers.json", include_str!("../scenarios/compare/flink-barriers.json").to_string()),
        ("storm-acks.json", storm.to_string()),
    ])
}

/// A scenario for the explorer: the line with three records, these settings and this budget.
fn explore(budget: Value, settings: Value) -> Via {
    let v = json!({
        "version": 1,
        "job": "line",
        "input": {"Source": ["a:x", "b:x", "c:x"]},
        "settings": settings,
        "explore": budget
    });
    Via::Explore(v.to_string())
}

/// The first built-in lesson's file, changed by `patch`.
fn lesson(patch: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(include_str!("../lessons/01-state.json")).unwrap();
    patch(&mut v);
    v.to_string()
}

/// A saved run with a `"restore"` into a changed program: the line under aligned barriers,
/// stopped with a savepoint and restored into the same program, changed by `patch`.
fn restored(patch: impl FnOnce(&mut Value)) -> String {
    let stopped = Scenario::from_json(
        &json!({"version": 1, "job": "line", "settings": {"strategy": "aligned"}, "seed": 1,
                "actions": [{"auto": 12}, "stop-with-savepoint", "run-to-end"]})
        .to_string(),
    )
    .unwrap()
    .play()
    .unwrap();
    let before: Vec<String> = stopped.actions.iter().map(Action::code).collect();
    let from = stopped.sim.savepoints().last().expect("a savepoint").checkpoint.id.0;
    let program = serde_json::to_value(barrierscope::engine::builtin("line").unwrap().spec).unwrap();
    let mut r = json!({"before": before.join(" "), "from": from, "program": program});
    patch(&mut r);
    let mut j = serde_json::to_value(running(Strategy::Aligned).save(Lang::En)).unwrap();
    j["actions"] = json!("");
    j["at"] = json!(0);
    j["restore"] = r;
    j.to_string()
}

/// A batch scenario from the repository, changed by `patch`.
fn batch(patch: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(include_str!("../scenarios/batch/hadoop-reduce-fails.json")).unwrap();
    patch(&mut v);
    v.to_string()
}

/// A saved comparison's link (`#room=compare&run=…`) around `text`.
fn compare_link(text: &str) -> Via {
    Via::CompareLink(format!("#room=compare&run={}", to_base64url(text.as_bytes())))
}

/// A scenario with a restore into a changed program: keyed-count stopped with a savepoint, then
/// the restore `restore`.
fn restore_scenario(restore: Value) -> Via {
    let v = json!({
        "version": 1,
        "job": "keyed-count",
        "settings": {"strategy": "aligned"},
        "seed": 1,
        "actions": [{"auto": 12}, "stop-with-savepoint", "run-to-end"],
        "restore": restore
    });
    Via::Scenario(v.to_string())
}

/// The restores above are refused for what they change, not for the run before them.
#[test]
fn the_restores_the_catalogue_damages_open_as_they_are() {
    let mut s = running(Strategy::Aligned);
    assert!(open_run(&mut s, Origin::File, Ok(restored(|_| {}))).is_some(), "{:?}", s.notice);
    let Via::Scenario(text) = restore_scenario(json!({"edits": ["Count=3"]})) else { unreachable!() };
    let (_, report) = Scenario::from_json(&text).unwrap().play_restore().unwrap();
    assert_eq!(report.unwrap().refused, None);
}

fn catalogue() -> Vec<Bad> {
    use Origin::{File, Link, Storage};
    use SettingField as F;
    let file = |t: String| Via::Open(File, t);
    vec![
        // ---- files (↑ Import) ----
        bad("an empty file", file(String::new())),
        bad("`{ nope`", file("{ nope".into())),
        bad("`[1,2,3]`", file("[1,2,3]".into())),
        bad("`{}`", file("{}".into())),
        bad("`\"barrierscope\": 2`", file(with("barrierscope", json!(2)))),
        bad("`\"barrierscope\": \"1\"`", file(with("barrierscope", json!("1")))),
        bad("`\"job\": \"triangle\"`", file(with("job", json!("triangle")))),
        bad("`\"job\": 42`", file(with("job", json!(42)))),
        bad("`\"seed\": -5`", file(with("seed", json!(-5)))),
        bad("`\"records\": 10000000`", file(with("records", json!(10_000_000)))),
        bad("`\"records\": 0`", file(with("records", json!(0)))),
        bad("`\"settings\": {\"strategy\": \"sometimes\"}`", file(with("settings", json!({"strategy": "sometimes"})))),
        bad(
            "`\"settings\": {\"strategy\": \"timers\", \"checkpoint-interval\": 3}`",
            file(with("settings", json!({"strategy": "timers", "checkpoint-interval": 3}))),
        ),
        bad(
            "`\"settings\": {\"max-concurrent-checkpoints\": 0}`",
            file(with("settings", json!({"max-concurrent-checkpoints": 0}))),
        ),
        bad(
            "`\"settings\": {\"high-availability\": \"zookeeper\"}`",
            file(with("settings", json!({"high-availability": "zookeeper"}))),
        ),
        bad(
            "`\"settings\": {\"strategy\": \"timers\", \"high-availability\": \"none\"}`",
            file(with("settings", json!({"strategy": "timers", "high-availability": "none"}))),
        ),
        bad(
            "`\"settings\": {\"message-timeout\": 5}` (not Storm)",
            file(with("settings", json!({"message-timeout": 5}))),
        ),
        bad("`\"actions\": \"r0 r0 zz\"`", file(with("actions", json!("r0 r0 zz")))),
        bad("`\"actions\": \"R\"` (restore a running job)", file(with("actions", json!("R")))),
        bad("`\"actions\": \"d0\"` (deliver from an empty channel)", file(with("actions", json!("d0")))),
        bad("`\"actions\": \"d99\"`", file(with("actions", json!("d99")))),
        bad("`\"actions\": \"r7\"` (no task 7)", file(with("actions", json!("r7")))),
        bad("`\"actions\": \"X r0\"` (read while the job is down)", file(with("actions", json!("X r0")))),
        bad("`\"actions\": \"n1\"` (no notification on its way)", file(with("actions", json!("n1")))),
        bad("`\"actions\": [\"r0\"]`", file(with("actions", json!(["r0"])))),
        bad("200,001 actions", file(with("actions", json!("a ".repeat(MAX_SAVED_ACTIONS + 1))))),
        bad("`\"at\": 99` (past the last step)", file(with("at", json!(99)))),
        bad("`\"at\": -1`", file(with("at", json!(-1)))),
        bad(
            "`\"lesson\": {\"id\": \"no-such-lesson\", \"step\": 0}`",
            file(with("lesson", json!({"id": "no-such-lesson", "step": 0}))),
        ),
        bad(
            "`\"lesson\": {\"id\": \"state\", \"step\": 999}`",
            file(with("lesson", json!({"id": "state", "step": 999}))),
        ),
        bad(
            "`\"lesson\": {\"id\": \"state\", \"step\": 18446744073709551615}`",
            file(with("lesson", json!({"id": "state", "step": u64::MAX}))),
        ),
        bad(
            "a prediction for record `zz`",
            file(with("lesson", json!({"id": "state", "step": 0, "predictions": {"zz": "lost"}}))),
        ),
        bad(
            "a prediction `\"maybe\"`",
            file(with("lesson", json!({"id": "state", "step": 0, "predictions": {"a": "maybe"}}))),
        ),
        bad("`\"lang\": \"fr\"`", file(with("lang", json!("fr")))),
        bad("an unknown field `\"colour\"`", file(with("colour", json!("red")))),
        bad("a file over 4 MiB", file("x".repeat(MAX_SAVED_BYTES + 1))),
        bad("JSON nested 10,000 deep", file(format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000)))),
        bad("`\"seed\": 1e400`", file(with("seed", json!(0)).replace("\"seed\":0", "\"seed\":1e400"))),
        // ---- links (↗ Share link, opened) ----
        bad("`#`", Via::Open(Link, "#".into())),
        bad("`#view=1`", Via::Open(Link, "#view=1".into())),
        bad("`#run=***`", Via::Open(Link, "#run=***".into())),
        bad("`#run=a` (cut short)", Via::Open(Link, "#run=a".into())),
        bad(
            "`#run=` and bytes that are not UTF-8",
            Via::Open(Link, format!("#run={}", to_base64url(&[0xff, 0xfe, 0x00]))),
        ),
        bad("a link over 4 MiB", Via::Open(Link, format!("#run={}", "A".repeat(MAX_SAVED_BYTES * 2)))),
        bad("a link to `{\"barrierscope\": 7}`", Via::Open(Link, link("{\"barrierscope\": 7}"))),
        bad("a link whose run restores a running job", Via::Open(Link, link(&with("actions", json!("R"))))),
        // ---- the browser's storage (the run kept across a reload) ----
        bad("a stored run cut off half way", Via::Open(Storage, good().to_string()[..60].to_string())),
        bad("a stored `null`", Via::Open(Storage, "null".into())),
        bad("a stored run from format version 0", Via::Open(Storage, with("barrierscope", json!(0)))),
        // ---- Settings fields ----
        bad("Seed: `abc`", Via::Setting(Strategy::Aligned, F::Seed, Some("abc"))),
        bad("Records per partition: `2.5`", Via::Setting(Strategy::Aligned, F::Records, Some("2.5"))),
        bad("Checkpoint interval: `1e`", Via::Setting(Strategy::Aligned, F::CheckpointInterval, Some("1e"))),
        bad("Alignment timeout: `NaN`", Via::Setting(Strategy::Aligned, F::AlignmentTimeout, Some("NaN"))),
        bad("Channel capacity: `-`", Via::Setting(Strategy::Aligned, F::ChannelCapacity, Some("-"))),
        bad(
            "Tolerable failed checkpoints: unreadable",
            Via::Setting(Strategy::Aligned, F::TolerableFailedCheckpoints, None),
        ),
        bad("Message timeout (Storm): `1,0`", Via::Setting(Strategy::StormAcker, F::MessageTimeout, Some("1,0"))),
        // ---- buttons and keys at the wrong moment ----
        bad("⟳ Restore (R) while the job runs", Via::Do(Strategy::Aligned, "", Command::Act(Action::Restore))),
        bad(
            "a lane (Enter) with nothing on it",
            Via::Do(Strategy::Aligned, "", Command::Act(Action::Deliver { channel: ChannelId(1) })),
        ),
        bad(
            "Read ▸ while the job is down",
            Via::Do(Strategy::Aligned, "X", Command::Act(Action::Read { task: TaskId(0) })),
        ),
        bad(
            "✉ Notify (N) with none on its way",
            Via::Do(Strategy::Aligned, "", Command::Act(Action::Notify { task: TaskId(2) })),
        ),
        bad(
            "◷ Save in a task under aligned barriers",
            Via::Do(Strategy::Aligned, "", Command::Act(Action::Timer { task: TaskId(1) })),
        ),
        bad("⚑ Checkpoint (C) under per-task timers", Via::Do(Strategy::Timers, "", Command::Act(Action::Checkpoint))),
        bad(
            "✖ Crash in a task that is down",
            Via::Do(Strategy::Aligned, "X", Command::Act(Action::CrashTask { task: TaskId(1) })),
        ),
        bad(
            "Storm: a message to the acker with none waiting",
            Via::Do(
                Strategy::StormAcker,
                "",
                Command::Act(barrierscope::engine::mechanisms::storm::steps::to_acker(TaskId(2))),
            ),
        ),
        bad("◀ Back (←) at the first step", Via::Do(Strategy::Aligned, "seek0", Command::Back)),
        bad("↩ Undo (Ctrl+Z) with no fork", Via::Do(Strategy::Aligned, "", Command::Undo)),
        bad("↪ Redo (Ctrl+Y) with nothing undone", Via::Do(Strategy::Aligned, "", Command::Redo)),
        bad("Reveal ▶ with no record marked", Via::Do(Strategy::Timers, "lesson-predict", Command::LessonNext)),
        // ---- scenario files (the headless runner) ----
        bad("`{ nope`", Via::Scenario("{ nope".into())),
        bad("`\"version\": 9`", line_scenario(|v| v["version"] = json!(9))),
        bad("an operator of kind `join`", line_scenario(|v| v["job"]["operators"][1]["kind"] = json!("join"))),
        bad("two operators named `Source`", line_scenario(|v| v["job"]["operators"][1]["name"] = json!("Source"))),
        bad("an edge from `Nowhere`", line_scenario(|v| v["job"]["edges"][0]["from"] = json!("Nowhere"))),
        bad("a self-loop", line_scenario(|v| v["job"]["edges"][0]["to"] = json!("Source"))),
        bad("parallelism 0", line_scenario(|v| v["job"]["operators"][1]["parallelism"] = json!(0))),
        bad("a source with no input log", line_scenario(|v| v["input"] = json!({}))),
        bad("two records labelled `a`", line_scenario(|v| v["input"]["Source"] = json!(["a:x", "a:y"]))),
        bad("an action `{\"fly\": \"Source\"}`", line_scenario(|v| v["actions"] = json!([{"fly": "Source"}]))),
        bad("an action that is not enabled", line_scenario(|v| v["actions"] = json!(["restore"]))),
        bad(
            "`\"strategy\": \"sometimes\"`",
            scenario(json!({"version": 1, "job": "line", "settings": {"strategy": "sometimes"}})),
        ),
        // ---- comparisons (`barrierscope compare`) ----
        bad("`{ nope`", Via::Compare(vec![("three-ways.json", "{ nope".into())])),
        bad("`\"version\": 2`", comparison(|v| v["version"] = json!(2))),
        bad("an unknown field `\"crashes\"`", comparison(|v| v["crashes"] = json!(2))),
        bad("no `\"restore\"`", comparison(|v| drop(v.as_object_mut().unwrap().remove("restore")))),
        bad(
            "four configurations",
            comparison(|v| {
                let c = v["configurations"][0].clone();
                v["configurations"].as_array_mut().unwrap().push(c);
            }),
        ),
        bad("`\"configurations\": []`", comparison(|v| v["configurations"] = json!([]))),
        bad("a place `\"everywhere\"`", comparison(|v| v["crash"]["place"] = json!("everywhere"))),
        bad("the worker running `Reduce`", comparison(|v| v["crash"]["place"] = json!({"worker-running": "Reduce"}))),
        bad("the restore at the crash's tick", comparison(|v| v["restore"]["at"] = json!(46))),
        bad("Storm on a socket", comparison(|v| v["configurations"][1]["settings"]["source"] = json!("socket"))),
        bad(
            "scenario files of two jobs",
            columns(|v| {
                v["job"] = json!("two-inputs");
                v.as_object_mut().unwrap().remove("input");
            }),
        ),
        bad("scenario files of two inputs", columns(|v| v["input"]["Source"][2] = json!("c:x@21"))),
        bad("scenario files of two seeds", columns(|v| v["seed"] = json!(8))),
        bad("scenario files crashing at two ticks", columns(|v| v["actions"][0]["auto"] = json!(45))),
        bad("a script that reads", columns(|v| v["actions"][0] = json!({"read": "Source"}))),
        bad("a script without a crash", columns(|v| v["actions"] = json!([{"auto": 46}, "run-to-end"]))),
        // ---- scenario files given to the schedule explorer ----
        bad("`\"explore\": {\"crashes\": 9}`", explore(json!({"crashes": 9}), json!({}))),
        bad("`\"explore\": {\"snapshots\": -1}`", explore(json!({"snapshots": -1}), json!({}))),
        bad("`\"explore\": {\"faults\": 2}`", explore(json!({"faults": 2}), json!({}))),
        bad(
            "`\"explore\": {\"snapshots\": 1}` under strategy none",
            explore(json!({"snapshots": 1}), json!({"strategy": "none"})),
        ),
        bad("strategy `storm-acker`", explore(json!({}), json!({"strategy": "storm-acker"}))),
        bad("strategy `spark-streaming`", explore(json!({}), json!({"strategy": "spark-streaming"}))),
        bad("a socket source", explore(json!({}), json!({"source": "socket"}))),
        bad("`\"checkpoint-interval\": 3`", explore(json!({}), json!({"checkpoint-interval": 3}))),
        bad(
            "a timer on the clock",
            explore(json!({}), json!({"strategy": "timers", "timers": {"Map": {"phase": 2, "period": 5}}})),
        ),
        bad("a script", Via::Explore(json!({"version": 1, "job": "line", "actions": ["checkpoint"]}).to_string())),
        // ---- lesson files (↑ Import) and #lesson= links ----
        bad("`\"barrierscope-lesson\": 2`", file(lesson(|v| v["barrierscope-lesson"] = json!(2)))),
        bad("a step with a field `\"sya\"`", file(lesson(|v| v["steps"][1]["sya"] = json!("hello")))),
        bad("`\"job\": \"triangle\"`", file(lesson(|v| v["job"] = json!("triangle")))),
        bad("`\"steps\": []`", file(lesson(|v| v["steps"] = json!([])))),
        bad("a play line `fly Source`", file(lesson(|v| v["steps"][1]["play"] = json!(["fly Source"])))),
        bad("a step whose `\"say\"` is a number", file(lesson(|v| v["steps"][0]["say"] = json!(5)))),
        bad("no `\"id\"`", file(lesson(|v| drop(v.as_object_mut().unwrap().remove("id"))))),
        bad("a step that says `\"\"`", file(lesson(|v| v["steps"][0]["say"] = json!({"en": "", "zh": ""})))),
        bad("`#lesson=no-such-lesson`", Via::Open(Link, "#lesson=no-such-lesson".into())),
        bad(
            "`#lesson=` and a lesson file of format 2",
            Via::Open(Link, format!("#lesson={}", to_base64url(lesson(|v| v["barrierscope-lesson"] = json!(2)).as_bytes()))),
        ),
        bad(
            "`#lesson=` and a lesson file with strategy `sometimes`",
            Via::Open(
                Link,
                format!("#lesson={}", to_base64url(lesson(|v| v["settings"]["strategy"] = json!("sometimes")).as_bytes())),
            ),
        ),
        // ---- a saved run with a restore into a changed program ----
        bad("a restore from savepoint 99, which the run never took", file(restored(|r| r["from"] = json!(99)))),
        bad("a restore whose run before has an action `zz`", file(restored(|r| r["before"] = json!("r0 zz")))),
        bad(
            "a restore into a program without its source",
            file(restored(|r| {
                r["program"]["operators"].as_array_mut().unwrap().remove(0);
                r["program"]["edges"].as_array_mut().unwrap().remove(0);
            })),
        ),
        bad(
            "nine restores chained",
            file(restored(|r| {
                for _ in 0..8 {
                    let prior = r.clone();
                    r["prior"] = prior;
                }
            })),
        ),
        // ---- batch scenarios (the Batch room: ↑ Import, and #room=batch&run= links) ----
        bad("`{ nope`", Via::Batch(File, "{ nope".into())),
        bad("`\"barrierscope-batch\": 2`", Via::Batch(File, batch(|v| v["barrierscope-batch"] = json!(2)))),
        bad("`\"actions\": \"s s zz\"`", Via::Batch(File, batch(|v| v["actions"] = json!("s s zz")))),
        bad("`\"at\": 999` (past the last step)", Via::Batch(File, batch(|v| v["at"] = json!(999)))),
        bad("`\"splits\": 0`", Via::Batch(File, batch(|v| v["job"]["splits"] = json!(0)))),
        bad("an unknown field `\"colour\"`", Via::Batch(File, batch(|v| v["colour"] = json!("red")))),
        bad("`#room=batch&run=***`", Via::Batch(Link, "#room=batch&run=***".into())),
        bad(
            "a `#room=batch` link to `{\"barrierscope-batch\": 7}`",
            Via::Batch(Link, format!("#{}", to_link_fragment("{\"barrierscope-batch\": 7}"))),
        ),
        // ---- saved comparisons (#room=compare&run= links) ----
        bad("`#room=compare&run=***`", Via::CompareLink("#room=compare&run=***".into())),
        bad("a `#room=compare` link to a run of the main screen", compare_link(&good().to_string())),
        bad("a `#room=compare` link to `\"barrierscope-compare\": 9`", {
            let mut v = serde_json::to_value(SavedComparison::new(saved_comparison::three_ways(), 0, None)).unwrap();
            v["barrierscope-compare"] = json!(9);
            compare_link(&v.to_string())
        }),
        // ---- the quiz's set link (#room=quiz&set=) ----
        bad("`#room=quiz&set=abc`", Via::QuizLink("#room=quiz&set=abc".into())),
        bad("`#room=quiz&set=1000000000`", Via::QuizLink("#room=quiz&set=1000000000".into())),
        bad("`#room=quiz&set=`", Via::QuizLink("#room=quiz&set=".into())),
        // ---- scenario files with a restore into a changed program (the headless runner) ----
        bad("a restore that removes `Source`", restore_scenario(json!({"edits": ["remove Source"]}))),
        bad("a restore from savepoint 99", restore_scenario(json!({"from": 99}))),
        bad("a restore with the edit `fly`", restore_scenario(json!({"edits": ["fly"]}))),
        bad("a restore with parallelism 99", restore_scenario(json!({"edits": ["Count=99"]}))),
        bad(
            "a restore in a run that took no savepoint",
            Via::Scenario(
                json!({"version": 1, "job": "keyed-count", "settings": {"strategy": "aligned"}, "actions": ["run-to-end"], "restore": {}})
                    .to_string(),
            ),
        ),
        // ---- backpressure's settings (issue 53) ----
        bad("`\"record-cost\": {\"Sink\": 3}` on a job without a Sink", line_scenario(|v| v["settings"]["record-cost"] = json!({"Sink": 3}))),
        bad("`\"record-cost\": {\"Count\": 99}`", line_scenario(|v| v["settings"]["record-cost"] = json!({"Count": 99}))),
        bad(
            "`\"channel-capacities\": {\"Map->Count\": 2}` on a job without that channel",
            line_scenario(|v| v["settings"]["channel-capacities"] = json!({"Map->Count": 2})),
        ),
        bad("`\"channel-capacities\": {\"Source->Count\": 0}`", line_scenario(|v| v["settings"]["channel-capacities"] = json!({"Source->Count": 0}))),
    ]
}

/// What the user sees, and whether the run was kept: (English, Chinese, run kept or None when
/// there is no run).
fn apply(via: &Via) -> (String, String, Option<bool>) {
    match via {
        Via::Scenario(text) => {
            let e = Scenario::from_json(text).and_then(|s| s.play_restore().map(|_| ())).expect_err("refused");
            (format!("error: {e}"), String::new(), None)
        }
        Via::Compare(files) => {
            // As the runner reads them: one comparison file (or one file that is no JSON), or
            // scenario files.
            let e = match &files[..] {
                [(_, text)] if is_comparison(text) || serde_json::from_str::<Value>(text).is_err() => {
                    ComparisonFile::from_json(text).and_then(|f| Lockstep::new(&f).map(|_| ())).expect_err("refused")
                }
                _ => {
                    let scenarios: Vec<(String, Scenario)> =
                        files.iter().map(|(n, t)| (n.to_string(), Scenario::from_json(t).unwrap())).collect();
                    ComparisonFile::from_scenarios(&scenarios)
                        .and_then(|f| Lockstep::new(&f).map(|_| ()))
                        .expect_err("refused")
                }
            };
            (format!("error: {e}"), String::new(), None)
        }
        Via::Explore(text) => {
            let e = Scenario::from_json(text)
                .and_then(|s| Explorer::for_scenario(&s, Completion::Canonical).map(|_| ()))
                .expect_err("refused");
            (format!("error: {e}"), String::new(), None)
        }
        Via::Open(origin, text) => {
            let mut s = running(Strategy::Timers);
            let before = s.save(Lang::En);
            let text = match origin {
                Origin::Link => from_fragment(text),
                _ => Ok(text.clone()),
            };
            assert!(open_run(&mut s, *origin, text).is_none(), "opened");
            let n = s.notice.clone().expect("a notice");
            (n.message(Lang::En), n.message(Lang::Zh), Some(s.save(Lang::En) == before))
        }
        Via::Batch(origin, text) => {
            let before = BatchSession::with_job(barrierscope::classroom::batch_room::DEFAULT_JOB);
            let s = match origin {
                Origin::Link => BatchSession::initial(Some(from_link_fragment(text).expect("a batch link")), None),
                _ => {
                    let mut s = before.clone();
                    s.handle(BatchCommand::Open(*origin, Ok(text.clone())));
                    s
                }
            };
            let n = s.notice.clone().expect("a notice");
            let kept = s.file(Lang::En).to_text() == before.file(Lang::En).to_text();
            (n.message(Lang::En, false).0, n.message(Lang::Zh, false).0, Some(kept))
        }
        Via::CompareLink(text) => {
            let link = saved_comparison::from_fragment(text).expect("a comparison link");
            let s = CompareSession::initial(Some(link), None, Lang::En);
            let n = s.notice.clone().expect("a notice");
            let kept = s.saved() == CompareSession::initial(None, None, Lang::En).saved();
            (n.message(Lang::En).1, n.message(Lang::Zh).1, Some(kept))
        }
        Via::QuizLink(text) => {
            let rest = text.strip_prefix("#room=quiz&").expect("a quiz link");
            let e = set_in_link(rest).expect("a set").expect_err("refused");
            (e.message(Lang::En), e.message(Lang::Zh), None)
        }
        Via::Setting(strategy, field, typed) => {
            let mut s = running(*strategy);
            let before = s.save(Lang::En);
            s.handle(Command::EditSetting(*field, typed.map(str::to_string)));
            let n = s.notice.clone().expect("a notice");
            (n.message(Lang::En), n.message(Lang::Zh), Some(s.save(Lang::En) == before))
        }
        Via::Do(strategy, first, cmd) => {
            let mut s = running(*strategy);
            if *first == "lesson-predict" {
                s.handle(Command::StartLesson(1));
                while barrierscope::classroom::builtins()[1].steps[s.lesson.as_ref().unwrap().step].predict.is_none() {
                    s.handle(Command::LessonNext);
                }
            } else if *first == "seek0" {
                s.handle(Command::Seek(0));
            } else {
                for code in first.split_whitespace() {
                    s.handle(Command::Act(Action::from_code(code).unwrap()));
                }
            }
            s.notice = None;
            let before = s.save(Lang::En);
            s.handle(cmd.clone());
            let n = s.notice.clone().expect("a notice");
            (n.message(Lang::En), n.message(Lang::Zh), Some(s.save(Lang::En) == before))
        }
    }
}

fn table(rows: &[(String, String, String)]) -> String {
    let mut t = String::from("| # | where | input | what the user sees |\n|---|---|---|---|\n");
    for (i, (place, input, message)) in rows.iter().enumerate() {
        let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
        t += &format!("| {} | {} | {} | {} |\n", i + 1, place, cell(input), cell(message));
    }
    t
}

#[test]
fn every_bad_input_says_what_is_wrong_and_keeps_the_run() {
    let cat = catalogue();
    assert!(cat.len() >= 120, "{} entries", cat.len());
    let mut rows = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for b in &cat {
        let (en, zh, kept) = apply(&b.via);
        let place = match &b.via {
            Via::Open(Origin::File, t) if is_lesson_file(t) => "lesson file",
            Via::Open(Origin::File, _) => "file",
            Via::Open(Origin::Link, t) if t.starts_with("#lesson=") => "lesson link",
            Via::Open(Origin::Link, _) => "link",
            Via::Open(_, _) => "stored run",
            Via::Setting(..) => "Settings",
            Via::Do(..) => "button or key",
            Via::Scenario(_) => "scenario file",
            Via::Compare(_) => "comparison",
            Via::Explore(_) => "scenario file (explore)",
            Via::Batch(Origin::Link, _) => "batch link",
            Via::Batch(..) => "batch file",
            Via::CompareLink(_) => "comparison link",
            Via::QuizLink(_) => "quiz link",
        };
        // What the page shows is worded in both languages; the runner speaks English.
        let on_the_page = !matches!(b.via, Via::Scenario(_) | Via::Compare(_) | Via::Explore(_));
        assert!(!en.is_empty(), "{}: no message", b.shown);
        if let Some(kept) = kept {
            assert!(kept, "{}: the run changed", b.shown);
        }
        if on_the_page {
            assert!(!zh.is_empty() && zh != en, "{}: no Chinese message ({zh:?})", b.shown);
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{}: the Chinese message has no Chinese: {zh:?}",
                b.shown
            );
        }
        assert!(seen.insert((place, b.shown)), "{} is in the catalogue twice", b.shown);
        rows.push((place.to_string(), b.shown.to_string(), en));
    }
    let generated = table(&rows);
    let readme_path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/bad-inputs.md");
    let readme = std::fs::read_to_string(readme_path).unwrap();
    let (start, end) = ("<!-- bad-inputs:start -->\n", "<!-- bad-inputs:end -->");
    let a = readme.find(start).expect("the book has the bad-inputs table") + start.len();
    let z = readme[a..].find(end).expect("the table ends") + a;
    if std::env::var("BLESS").is_ok() {
        std::fs::write(readme_path, format!("{}{}{}", &readme[..a], generated, &readme[z..])).unwrap();
    } else {
        assert_eq!(&readme[a..z], generated, "the book's table differs from the catalogue: BLESS=1 rewrites it");
    }
}
