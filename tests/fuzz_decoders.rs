//! Fuzzed decoders, ten of them: the scenario parser, the share-link decoder, the stored-run loader,
//! the comparison parser (`barrierscope compare`, up to the start of its runs), the lesson file,
//! the `#lesson=` link, the batch scenario, the quiz's set link, the `#room=` links (batch, compare
//! and quiz), the program edits of the Program & savepoints room (with the restore from the
//! savepoint into the edited program) and the scenario format with a `"restore"` into a changed
//! program (played to the end). They are driven with generated inputs of five kinds: random bytes,
//! mutations of the valid files in the repository, deep nesting, huge numbers, and a wrong type in
//! a field. Each decoder must answer every input with a value or an error: no panic, and no input
//! that takes longer than 100 ms.
//!
//! The machines have only the stable toolchain, so this is a seeded mutation fuzzer (no
//! cargo-fuzz). `cargo test` runs a short pass (`FUZZ_INPUTS`, default 3,000 per decoder);
//! `bash scripts/fuzz.sh` runs the long one, 250,000 inputs per decoder, in release mode, and
//! prints each decoder's count, its slowest input and that input's time.
#![cfg(not(target_arch = "wasm32"))]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use barrierscope::classroom::quiz::history::set_in_link;
use barrierscope::classroom::saved_comparison::{self, SavedComparison};
use barrierscope::classroom::*;
use barrierscope::engine::batch::format::{from_link_fragment, to_link_fragment};
use barrierscope::engine::batch::{BatchFile, BATCH_LESSON};
use barrierscope::engine::comparison::{ComparisonFile, Lockstep};
use barrierscope::engine::program::scenario_restore::ScenarioRestore;
use barrierscope::engine::{Action, Lang, Scenario, Sim, TaskId};
use serde_json::Value;

/// An input slower than this is a hang. The figure is for an optimized build (the long run); an
/// unoptimized one on a shared CI machine is tens of times slower, so the short pass in `cargo
/// test` flags only what is far slower than any real decoding: 2 s.
const HANG: Duration = if cfg!(debug_assertions) { Duration::from_secs(2) } else { Duration::from_millis(100) };

/// A seeded xorshift generator: the same inputs on every run.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// Valid saved runs (free play, a lesson, Storm, a failed JobManager) and every example scenario.
fn corpus() -> (Vec<String>, Vec<String>) {
    let mut runs = Vec::new();
    let mut s = Session::new(RunConfig::default()).unwrap();
    for a in ["r0", "r0", "d0", "T", "X", "R", "c"] {
        if let Some(a) = Action::from_code(a) {
            s.handle(Command::Act(a));
        }
    }
    runs.push(serde_json::to_string(&s.save(Lang::En)).unwrap());
    let mut l = Session::new(RunConfig::default()).unwrap();
    l.handle(Command::StartLesson(1));
    l.handle(Command::LessonNext);
    runs.push(serde_json::to_string_pretty(&l.save(Lang::Zh)).unwrap());
    let mut settings = barrierscope::engine::Settings::new(barrierscope::engine::Strategy::StormAcker);
    settings.mechanism.storm.unanchored = vec!["Count->Sink".into()];
    let mut st = Session::new(RunConfig { job: "line-sink".into(), settings, seed: 3, records: None }).unwrap();
    st.handle(Command::Act(Action::Read { task: TaskId(0) }));
    st.handle(Command::Act(barrierscope::engine::mechanisms::storm::steps::to_acker(TaskId(0))));
    runs.push(serde_json::to_string(&st.save(Lang::En)).unwrap());
    // The scenario files, and those in scenarios/explore/, compare/ and groundtruth/.
    let scenarios = ["/scenarios", "/scenarios/explore", "/scenarios/compare", "/scenarios/groundtruth"]
        .iter()
        .flat_map(|d| std::fs::read_dir(format!("{}{d}", env!("CARGO_MANIFEST_DIR"))).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    (runs, scenarios)
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "null",
    "true",
    "false",
    "0",
    "-1",
    "1e999",
    "-0",
    "1.5",
    "18446744073709551616",
    "\"r0\"",
    "\"X\"",
    "\"aligned\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "\u{1F600}",
    "\\",
];

const HUGE: &[&str] = &[
    "18446744073709551616",
    "-9223372036854775809",
    "1e309",
    "-1e309",
    "4294967296",
    "65536",
    "-1",
    "0.5",
    "123456789012345678901234567890",
    "1e-400",
    "5001",
    "99999999",
];

/// One mutation of `s`: a byte flipped, a range cut or doubled, a token put in.
fn mutate(g: &mut Gen, s: &str) -> String {
    let mut b = s.as_bytes().to_vec();
    for _ in 0..1 + g.below(6) {
        let at = g.below(b.len() + 1);
        match g.below(5) {
            0 if !b.is_empty() => {
                let i = at.min(b.len() - 1);
                b[i] ^= 1 << g.below(8);
            }
            1 => {
                let end = (at + 1 + g.below(40)).min(b.len());
                b.drain(at..end);
            }
            2 => {
                let end = (at + 1 + g.below(40)).min(b.len());
                let piece = b[at..end].to_vec();
                b.splice(at..at, piece);
            }
            _ => {
                let t = g.pick(TOKENS).as_bytes().to_vec();
                b.splice(at..at, t);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Every path to a value in `v`.
fn paths(v: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                here.push(Value::String(k.clone()));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Value::from(i));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at_path<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, p| match p {
        Value::String(k) => &mut v[k.as_str()],
        p => &mut v[p.as_u64().unwrap() as usize],
    })
}

fn nested(g: &mut Gen) -> String {
    let depth = 1 + g.below(20_000);
    let (open, close) = *g.pick(&[("[", "]"), ("{\"a\":", "}"), ("[{\"k\":[", "]}]")]);
    let mut s = open.repeat(depth);
    s.push('1');
    if g.below(2) == 0 {
        s.push_str(&close.repeat(depth));
    }
    s
}

/// The next input: one of the five kinds, from the valid texts `valid`.
fn input(g: &mut Gen, valid: &[String]) -> String {
    let base = g.pick(valid).clone();
    match g.below(5) {
        0 => (0..g.below(400)).map(|_| g.next() as u8 as char).collect(),
        1 => mutate(g, &base),
        2 => {
            let mut v: Value = serde_json::from_str(&base).unwrap();
            let mut all = Vec::new();
            paths(&v, &mut Vec::new(), &mut all);
            let p = g.pick(&all).clone();
            let n = nested(g);
            *at_path(&mut v, &p) = Value::Null;
            v.to_string().replacen("null", &n, 1)
        }
        3 => {
            let mut v: Value = serde_json::from_str(&base).unwrap();
            let mut all = Vec::new();
            paths(&v, &mut Vec::new(), &mut all);
            let numbers: Vec<Vec<Value>> = all.into_iter().filter(|p| at_path(&mut v, p).is_number()).collect();
            if numbers.is_empty() {
                return mutate(g, &base);
            }
            let p = g.pick(&numbers).clone();
            *at_path(&mut v, &p) = Value::String("\u{0}HUGE".into());
            let huge = *g.pick(HUGE);
            v.to_string().replacen("\"\\u0000HUGE\"", huge, 1)
        }
        _ => {
            let mut v: Value = serde_json::from_str(&base).unwrap();
            let mut all = Vec::new();
            paths(&v, &mut Vec::new(), &mut all);
            let p = g.pick(&all).clone();
            let wrong = [
                Value::Null,
                Value::Bool(true),
                Value::from(-1),
                Value::from(1.5),
                Value::from("x"),
                Value::Array(vec![]),
                Value::Object(Default::default()),
                Value::from(u64::MAX),
            ];
            *at_path(&mut v, &p) = g.pick(&wrong).clone();
            v.to_string()
        }
    }
}

#[derive(Default)]
struct Tally {
    inputs: u64,
    accepted: u64,
    panics: Vec<String>,
    hangs: Vec<(Duration, String)>,
    slowest: Duration,
    slowest_input: String,
}

impl Tally {
    /// Decodes `text`, timing it. An input slower than [`HANG`] is timed twice more and its
    /// fastest time kept: on a shared machine a single run can be descheduled for a while, and a
    /// real hang is slow every time.
    fn run(&mut self, text: &str, decode: impl Fn(&str) -> bool) {
        let once = || {
            let t = Instant::now();
            let outcome = catch_unwind(AssertUnwindSafe(|| decode(text)));
            (outcome, t.elapsed())
        };
        let (outcome, mut took) = once();
        if took > HANG {
            took = took.min(once().1).min(once().1);
        }
        self.inputs += 1;
        if took > self.slowest {
            self.slowest = took;
            self.slowest_input = text.chars().take(120).collect();
        }
        match outcome {
            Ok(ok) => self.accepted += ok as u64,
            Err(_) => self.panics.push(text.chars().take(300).collect()),
        }
        if took > HANG {
            self.hangs.push((took, text.chars().take(300).collect()));
        }
    }
}

/// The JSON files in `dir` (under the repository), as text.
fn files_in(dir: &str) -> Vec<String> {
    let mut paths: Vec<_> = std::fs::read_dir(format!("{}/{dir}", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths.into_iter().map(|p| std::fs::read_to_string(p).unwrap()).collect()
}

/// The program edits the room and a scenario's `"restore"` spell, on the built-in jobs' operators.
const EDITS: &[&str] = &[
    "insert-filter",
    "Count=3",
    "Count=1",
    "Map=2",
    "Sink=2",
    "Source=2",
    "Left=3",
    "Join=2",
    "uid Count=count",
    "uid Count=",
    "uid Map=m",
    "max Count=128",
    "max Count=",
    "max Count=32768",
    "remove Map",
    "remove Filter",
    "remove Count",
    "remove Source",
];

/// The jobs the Program room edits, and the other built-in jobs.
fn program_jobs() -> Vec<&'static str> {
    barrierscope::engine::PROGRAM_JOB_NAMES.iter().chain(barrierscope::engine::BUILTIN_NAMES.iter()).copied().collect()
}

/// Each of [`program_jobs`] stopped with a savepoint (what the Program room restores from).
fn stopped_jobs() -> Vec<Sim> {
    program_jobs()
        .iter()
        .map(|job| {
            let text = format!(
                r#"{{"version": 1, "job": "{job}", "settings": {{"strategy": "aligned"}}, "seed": 1, "actions": [{{"auto": 12}}, "stop-with-savepoint", "run-to-end"]}}"#
            );
            let sim = Scenario::from_json(&text).unwrap().play().unwrap().sim;
            assert!(!sim.savepoints().is_empty(), "{job} stopped with a savepoint");
            sim
        })
        .collect()
}

/// A `#room=` link: a valid one of each room that reads its own part (changed by `mutate`), one
/// around a damaged text, or one made up.
fn room_link(g: &mut Gen, batch: &[String], comparisons: &[String]) -> String {
    match g.below(6) {
        0 => format!("#{}", to_link_fragment(&input(g, batch))),
        1 => {
            let link = format!("#{}", to_link_fragment(g.pick(batch).as_str()));
            mutate(g, &link)
        }
        2 => format!("#room=compare&run={}", to_base64url(input(g, comparisons).as_bytes())),
        3 => {
            let link = format!("#room=compare&run={}", to_base64url(g.pick(comparisons).as_bytes()));
            mutate(g, &link)
        }
        4 => {
            let link = format!("#room=quiz&set={}", g.next() % 1_000_000_000);
            mutate(g, &link)
        }
        _ => {
            let room = *g.pick(&["batch", "compare", "quiz", "explorer", "spacetime", "program", "pyflink", ""]);
            let tail = *g.pick(&["", "&", "&run=", "&set=", "&run=***", "&set=12&set=x", "&run=e30"]);
            let link = format!("#room={room}{tail}");
            mutate(g, &link)
        }
    }
}

/// Decodes a `#room=` link as the rooms do: the batch room's run, the compare room's saved
/// comparison, the quiz's set; true when the room opens what the link holds.
fn open_room_link(link: &str) -> bool {
    let Some(rest) = link.strip_prefix("#room=") else { return false };
    let (room, own) = rest.split_once('&').unwrap_or((rest, ""));
    match room {
        "batch" => matches!(
            from_link_fragment(link).map(|t| t.and_then(|t| BatchFile::open(&t, BATCH_LESSON.len()))),
            Some(Ok(_))
        ),
        "compare" => matches!(
            saved_comparison::from_fragment(link).map(|t| t.and_then(|t| SavedComparison::open("link", &t))),
            Some(Ok(_))
        ),
        "quiz" => matches!(set_in_link(own), Some(Ok(_))),
        _ => false,
    }
}

/// A `#lesson=` link: a built-in lesson's id, a lesson file in base64url, or one of them damaged.
fn lesson_link(g: &mut Gen, lessons: &[String], ids: &[&str]) -> String {
    match g.below(4) {
        0 => {
            let link = format!("#lesson={}", g.pick(ids));
            mutate(g, &link)
        }
        1 => format!("#lesson={}", to_base64url(input(g, lessons).as_bytes())),
        2 => {
            let link = format!("#lesson={}", to_base64url(g.pick(lessons).as_bytes()));
            mutate(g, &link)
        }
        _ => format!("#lesson={}", g.pick(ids)),
    }
}

/// Opens a `#lesson=` link as the page does (`from_fragment`, then `open_run`), except that a
/// lesson file is read by `lesson_file::parse` rather than `curriculum::open_file`, which keeps
/// every lesson file it opens for the page's lifetime (one per page; a quarter of a million here).
fn open_lesson_link(link: &str, session: &Session) -> bool {
    match from_fragment(link) {
        Ok(text) => match text.strip_prefix("lesson:") {
            Some(body) => {
                let file = from_base64url(body).and_then(|b| String::from_utf8(b).ok());
                match file.filter(|t| is_lesson_file(t)) {
                    Some(file) => barrierscope::classroom::lesson_file::parse(&file).is_ok(),
                    None => {
                        let mut s = session.clone();
                        let _ = open_run(&mut s, Origin::Link, Ok(text));
                        s.lesson.is_some()
                    }
                }
            }
            None => false,
        },
        Err(_) => false,
    }
}

/// Up to four program edits, valid ones changed by `mutate` or put together at random.
fn edit_words(g: &mut Gen) -> Vec<String> {
    (0..1 + g.below(4))
        .map(|_| match g.below(3) {
            0 => g.pick(EDITS).to_string(),
            1 => {
                let word = *g.pick(EDITS);
                mutate(g, word)
            }
            _ => {
                let (a, b) = (g.pick(EDITS).to_string(), g.pick(EDITS).to_string());
                let cut = g.below(a.len().min(b.len()) + 1);
                format!("{}{}", &a[..cut.min(a.len())], &b[cut.min(b.len())..])
            }
        })
        .collect()
}

#[test]
fn decoders_never_panic_or_hang() {
    let per_decoder: u64 = std::env::var("FUZZ_INPUTS").ok().and_then(|n| n.parse().ok()).unwrap_or(3_000);
    let (runs, scenarios) = corpus();
    let comparisons = vec![include_str!("../scenarios/compare/three-ways.json").to_string()];
    let saved_comparisons = vec![serde_json::to_string(&SavedComparison::new(
        ComparisonFile::from_json(&comparisons[0]).unwrap(),
        0,
        Some(Lang::En),
    ))
    .unwrap()];
    let lessons = files_in("lessons");
    let lesson_ids: Vec<&str> = builtins().iter().map(|l| l.id).collect();
    let batch = files_in("scenarios/batch");
    let mut restores = files_in("scenarios/restore");
    restores.extend(scenarios.iter().filter(|t| Scenario::from_json(t).is_ok_and(|s| s.restore.is_some())).cloned());
    // The Program room's two jobs, rescaled and changed.
    for (job, restore) in [
        ("keyed-count", r#"{"edits": ["Count=3", "max Count=64"], "actions": ["run-to-end"]}"#),
        (
            "line-uids",
            r#"{"edits": ["insert-filter", "uid Count="], "allow-non-restored-state": true, "actions": ["run-to-end"]}"#,
        ),
    ] {
        restores.push(format!(
            r#"{{"version": 1, "job": "{job}", "settings": {{"strategy": "aligned"}}, "seed": 2, "actions": [{{"auto": 10}}, "stop-with-savepoint", "run-to-end"], "restore": {restore}}}"#
        ));
    }
    assert!(restores.iter().all(|t| Scenario::from_json(t).and_then(|s| s.play_restore()).is_ok()));
    let stopped = stopped_jobs();
    let session = Session::new(RunConfig::default()).unwrap();
    std::panic::set_hook(Box::new(|_| {}));
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let mut t: Vec<(&str, Tally)> = [
        "scenario parser",
        "share-link decoder",
        "stored-run loader",
        "comparison parser",
        "lesson file",
        "#lesson= link",
        "batch scenario",
        "quiz set link",
        "#room= link",
        "program edits and restore",
        "scenario with a restore",
    ]
    .into_iter()
    .map(|n| (n, Tally::default()))
    .collect();
    let started = Instant::now();
    for _ in 0..per_decoder {
        // The scenario parser, and the runner's start of a parsed scenario.
        let text = input(&mut g, &scenarios);
        t[0].1.run(&text, |t| Scenario::from_json(t).and_then(|s| s.sim().map(|_| ())).is_ok());
        // The share-link decoder: a fragment, then the run it holds.
        let text = match g.below(3) {
            0 => format!("#run={}", to_base64url(input(&mut g, &runs).as_bytes())),
            1 => {
                let link = format!("#run={}", to_base64url(g.pick(&runs).as_bytes()));
                mutate(&mut g, &link)
            }
            _ => input(&mut g, &runs),
        };
        t[1].1.run(&text, |t| from_fragment(t).and_then(|j| Session::load(&j)).is_ok());
        // The stored-run loader (files and the browser's storage read the same text).
        let text = input(&mut g, &runs);
        t[2].1.run(&text, |t| Session::load(t).is_ok());
        // The comparison parser, and the start of its runs.
        let text = input(&mut g, &comparisons);
        t[3].1.run(&text, |t| ComparisonFile::from_json(t).and_then(|f| Lockstep::new(&f)).is_ok());
        // A lesson file (↑ Import): every field, every script line, every run's job and settings.
        let text = input(&mut g, &lessons);
        t[4].1.run(&text, |t| barrierscope::classroom::lesson_file::parse(t).is_ok());
        // A #lesson= link: a built-in lesson by its id, or a lesson file in base64url.
        let text = lesson_link(&mut g, &lessons, &lesson_ids);
        t[5].1.run(&text, |t| open_lesson_link(t, &session));
        // A batch scenario file, replayed to its playhead (and to the end when it says so).
        let text = input(&mut g, &batch);
        t[6].1.run(&text, |t| BatchFile::open(t, BATCH_LESSON.len()).is_ok());
        // The quiz's set link: `#room=quiz&set=N`, as the quiz room reads its own part.
        let text = match g.below(3) {
            0 => format!("set={}", g.next() % 2_000_000_000),
            1 => {
                let link = format!("set={}&set={}", g.next() % 1_000_000_000, g.below(10));
                mutate(&mut g, &link)
            }
            _ => (0..g.below(40))
                .map(|_| *g.pick(&['s', 'e', 't', '=', '&', '0', '9', '-', ' ', '\u{0}', 'x']))
                .collect(),
        };
        t[7].1.run(&text, |t| matches!(set_in_link(t), Some(Ok(_))));
        // A #room= link, read by the room it names.
        let text = room_link(&mut g, &batch, &saved_comparisons);
        t[8].1.run(&text, open_room_link);
        // The Program room's edits of a job stopped with a savepoint, and the restore from it
        // into the edited program (`flink run -s`, with --allowNonRestoredState or not).
        let job = g.below(stopped.len());
        let restore = ScenarioRestore {
            from: if g.below(8) == 0 { Some(g.below(6) as u64) } else { None },
            edits: edit_words(&mut g),
            allow_non_restored_state: g.below(2) == 0,
            actions: vec![],
        };
        let text = format!("{} {:?}", program_jobs()[job], restore.edits);
        t[9].1.run(&text, |_| {
            restore.play(stopped[job].clone(), 0).map(|(_, report, _)| report.refused.is_none()).unwrap_or(false)
        });
        // A scenario with a restore into a changed program, played to the end on both sides.
        let text = input(&mut g, &restores);
        t[10].1.run(&text, |t| Scenario::from_json(t).and_then(|s| s.play_restore()).is_ok());
    }
    let _ = std::panic::take_hook();
    let mut failures = Vec::new();
    for (name, t) in &t {
        println!(
            "{name}: {} inputs, {} accepted, {} panics, {} over {HANG:?}, slowest {:.1} ms on {:?}",
            t.inputs,
            t.accepted,
            t.panics.len(),
            t.hangs.len(),
            t.slowest.as_secs_f64() * 1e3,
            t.slowest_input,
        );
        failures.extend(t.panics.iter().take(3).map(|p| format!("{name} panicked on {p:?}")));
        failures.extend(t.hangs.iter().take(3).map(|(d, p)| format!("{name} took {d:?} on {p:?}")));
    }
    println!(
        "fuzz: {} inputs in all, {per_decoder} per decoder, in {:.1} s",
        t.iter().map(|(_, t)| t.inputs).sum::<u64>(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Each decoder reaches past its parser: some of the changed inputs are still valid.
    for (name, t) in &t {
        assert!(t.accepted > 0, "{name}: no input was accepted; the fuzzer does not reach past the parser");
    }
}
