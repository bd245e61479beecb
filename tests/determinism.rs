//! Determinism: the same scenario twice gives the same event fingerprint, and the fingerprints of
//! the scenario files match `fixtures/fingerprints.json`, which the browser test checks too
//! (equal natively and in wasm). `BLESS=1 cargo test --test determinism` rewrites the fixture after
//! an intended change to the simulation.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use barrierscope::engine::*;

fn fingerprints() -> BTreeMap<String, String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let mut names: Vec<_> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
        .into_iter()
        .filter(|n| n.ends_with(".json"))
        .map(|n| {
            let sc = Scenario::from_json(&std::fs::read_to_string(format!("{dir}/{n}")).unwrap()).unwrap();
            let a = sc.play().unwrap();
            let b = sc.play().unwrap();
            let (fa, fb) = (fingerprint(a.events.iter().flatten()), fingerprint(b.events.iter().flatten()));
            assert_eq!(fa, fb, "{n} played twice differs");
            (n, format!("{fa:016x}"))
        })
        .collect()
}

#[test]
fn same_scenario_same_fingerprint_and_fixture_is_current() {
    let now = fingerprints();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fingerprints.json");
    if std::env::var("BLESS").is_ok() {
        std::fs::write(path, serde_json::to_string_pretty(&now).unwrap() + "\n").unwrap();
    }
    let fixture: BTreeMap<String, String> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(now, fixture, "the simulation changed; if intended, rerun with BLESS=1");
}

#[test]
fn seeds_matter_and_auto_steps_replay() {
    let run = |seed| {
        let mut sc = Scenario::builtin("keyed-shuffle", Settings::new(Strategy::Unaligned), seed);
        sc.actions = vec![ScriptAction::Auto(30), ScriptAction::Checkpoint, ScriptAction::Auto(30)];
        let p = sc.play().unwrap();
        (fingerprint(p.events.iter().flatten()), p)
    };
    let (a, pa) = run(1);
    let (b, _) = run(2);
    assert_ne!(a, b, "different seeds draw different schedules");
    // The recorded actions replay to the same state through a timeline.
    let start = Scenario::builtin("keyed-shuffle", Settings::new(Strategy::Unaligned), 1).sim().unwrap();
    let tl2 = Timeline::from_actions(start, &pa.actions).unwrap();
    assert_eq!(tl2.current().tick, pa.sim.tick);
    assert_eq!(tl2.current().ledger(), pa.sim.ledger());
}

#[test]
fn timeline_seek_and_fork() {
    let start = Scenario::builtin("two-inputs", Settings::new(Strategy::Aligned), 5).sim().unwrap();
    let mut tl = Timeline::new(start);
    // What each step looked like, as the checks below compare it. Not whole copies of the run:
    // a copy holds the run's logs, which grow with it, so 20,000 of them would take gigabytes.
    let seen = |s: &barrierscope::engine::Sim| (s.tick, s.ledger(), s.channels().to_vec());
    let mut states = vec![seen(tl.current())];
    for i in 0..20_000 {
        if i % 50 == 10 {
            tl.apply(Action::Checkpoint).unwrap();
        } else if tl.apply(Action::Auto).is_err() {
            // Everything is through: crash and restore to keep the run going.
            tl.apply(Action::Crash).unwrap();
            states.push(seen(tl.current()));
            tl.apply(Action::Restore).unwrap();
        }
        states.push(seen(tl.current()));
    }
    let n = tl.len();
    assert!(tl.keyframes() <= runs::timeline::MAX_KEYFRAMES, "keyframes thin out");
    for step in [0, 1, 7, 255, 256, 257, 1000, n / 2, n - 1, n] {
        if step > n {
            continue;
        }
        tl.seek(step);
        assert_eq!(seen(tl.current()), states[step], "step {step}");
    }
    // Acting at an earlier step forks: the later history is dropped.
    tl.seek(3);
    tl.apply(Action::Crash).unwrap();
    assert_eq!(tl.len(), 4);
    assert_eq!(tl.position(), 4);
    let ev = tl.events_between(3, 4);
    assert!(matches!(ev[0].1[0], Event::Crashed { .. }));
}
