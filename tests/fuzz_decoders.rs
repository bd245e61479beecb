//! Fuzzed decoders: the scenario parser, the share-link decoder, the stored-run loader and the
//! comparison parser (`barrierscope compare`, up to the start of its runs), driven
//! with generated inputs of five kinds: random bytes, mutations of valid files, deep nesting, huge
//! numbers, and a wrong type in a field. Each decoder must answer every input with a value or an
//! error: no panic, and no input that takes longer than 100 ms.
//!
//! The machines have only the stable toolchain, so this is a seeded mutation fuzzer (no
//! cargo-fuzz). `cargo test` runs a short pass (`FUZZ_INPUTS`, default 3,000 per decoder);
//! `bash scripts/fuzz.sh` runs the long one, 1,000,000 inputs in all, in release mode.
#![cfg(not(target_arch = "wasm32"))]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use barrierscope::classroom::*;
use barrierscope::engine::comparison::{ComparisonFile, Lockstep};
use barrierscope::engine::{Action, Lang, Scenario, TaskId};
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
    settings.unanchored = vec!["Count->Sink".into()];
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
        self.slowest = self.slowest.max(took);
        match outcome {
            Ok(ok) => self.accepted += ok as u64,
            Err(_) => self.panics.push(text.chars().take(300).collect()),
        }
        if took > HANG {
            self.hangs.push((took, text.chars().take(300).collect()));
        }
    }
}

#[test]
fn decoders_never_panic_or_hang() {
    let per_decoder: u64 = std::env::var("FUZZ_INPUTS").ok().and_then(|n| n.parse().ok()).unwrap_or(3_000);
    let (runs, scenarios) = corpus();
    std::panic::set_hook(Box::new(|_| {}));
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let (mut scenario, mut link, mut stored) = (Tally::default(), Tally::default(), Tally::default());
    let mut comparison = Tally::default();
    let comparisons = vec![include_str!("../scenarios/compare/three-ways.json").to_string()];
    let started = Instant::now();
    for _ in 0..per_decoder {
        // The scenario parser, and the runner's start of a parsed scenario.
        let text = input(&mut g, &scenarios);
        scenario.run(&text, |t| Scenario::from_json(t).and_then(|s| s.sim().map(|_| ())).is_ok());
        // The share-link decoder: a fragment, then the run it holds.
        let text = match g.below(3) {
            0 => format!("#run={}", to_base64url(input(&mut g, &runs).as_bytes())),
            1 => {
                let link = format!("#run={}", to_base64url(g.pick(&runs).as_bytes()));
                mutate(&mut g, &link)
            }
            _ => input(&mut g, &runs),
        };
        link.run(&text, |t| from_fragment(t).and_then(|j| Session::load(&j)).is_ok());
        // The stored-run loader (files and the browser's storage read the same text).
        let text = input(&mut g, &runs);
        stored.run(&text, |t| Session::load(t).is_ok());
        // The comparison parser, and the start of its runs.
        let text = input(&mut g, &comparisons);
        comparison.run(&text, |t| ComparisonFile::from_json(t).and_then(|f| Lockstep::new(&f)).is_ok());
    }
    let _ = std::panic::take_hook();
    let mut failures = Vec::new();
    for (name, t) in [
        ("scenario parser", &scenario),
        ("share-link decoder", &link),
        ("stored-run loader", &stored),
        ("comparison parser", &comparison),
    ] {
        println!(
            "{name}: {} inputs, {} accepted, {} panics, {} over {HANG:?}, slowest {:.1} ms",
            t.inputs,
            t.accepted,
            t.panics.len(),
            t.hangs.len(),
            t.slowest.as_secs_f64() * 1e3
        );
        failures.extend(t.panics.iter().take(3).map(|p| format!("{name} panicked on {p:?}")));
        failures.extend(t.hangs.iter().take(3).map(|(d, p)| format!("{name} took {d:?} on {p:?}")));
    }
    println!(
        "fuzz: {} inputs in all in {:.1} s",
        scenario.inputs + link.inputs + stored.inputs + comparison.inputs,
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(stored.accepted + link.accepted > 0, "some mutations stay valid: the fuzzer reaches past the parser");
    assert!(comparison.accepted > 0, "some mutated comparisons stay valid");
}
