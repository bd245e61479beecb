//! The schedule explorer, checked against models: what theory says of each strategy, an
//! independent brute-force enumeration of every schedule of tiny jobs (a plain depth-first search
//! without merging, counting leaves and distinct states), the canonical completion against every
//! completion, and every counterexample replayed through the scenario loader and the runner.
#![cfg(not(target_arch = "wasm32"))]

mod cases;
mod cli;
use cli::runner;

use std::collections::{BTreeMap, BTreeSet};

use barrierscope::engine::explorer::state_key::key_bytes;
use barrierscope::engine::explorer::{
    BadOutcome, Completion, Decisive, Explorer, Faults, FaultsSpent, Independence, Judged, KeyScope, Outcome, Report,
};
use barrierscope::engine::{Action, FaultBudget, Lang, Scenario, SinkMode, Strategy, TaskId, Verdict};

fn scenario_file(name: &str) -> Scenario {
    let path = format!("{}/scenarios/explore/{name}", env!("CARGO_MANIFEST_DIR"));
    Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn explore(sc: &Scenario, completion: Completion) -> (Explorer, Report) {
    let mut ex = Explorer::for_scenario(sc, completion).unwrap();
    let p = ex.run(usize::MAX);
    assert!(p.done && p.failed.is_none(), "{p:?}");
    let report = ex.report().unwrap().clone();
    (ex, report)
}

fn labels(sc: &Scenario, records: &[barrierscope::engine::RecordId]) -> Vec<String> {
    let g = sc.graph().unwrap();
    records.iter().map(|r| g.label(*r).to_string()).collect()
}

/// A tiny job written out: JSON for the scenario loader.
fn tiny(job: &str, input: &str, settings: &str) -> Scenario {
    let job = match job {
        "source-count" => r#"{"operators": [{"name": "Source", "kind": "source"}, {"name": "Count", "kind": "count"}],
                              "edges": [{"from": "Source", "to": "Count"}]}"#
            .to_string(),
        builtin => format!("{builtin:?}"),
    };
    Scenario::from_json(&format!(r#"{{"job": {job}, "input": {input}, "settings": {settings}}}"#)).unwrap()
}

// ---- (a) per-task timers on the line: the a, b, c loss ----------------------------------------

#[test]
fn the_shortest_loss_under_per_task_timers_is_the_abc_story() {
    let sc = scenario_file("line-timers.json");
    let (ex, report) = explore(&sc, Completion::Canonical);
    let g = &ex.initial().graph;
    let lost = &report.counterexamples[0];
    assert_eq!(lost.bad, BadOutcome { judged: Judged::State, verdict: Verdict::Lost });
    assert_eq!(labels(&sc, &lost.records), ["a", "b", "c"]);
    let source = g.task_by_name("Source").unwrap();
    // Read a, b, c; the source saves offset 3; the cluster crashes; the restore.
    assert_eq!(
        lost.schedule,
        [
            Action::Read { task: source },
            Action::Read { task: source },
            Action::Read { task: source },
            Action::Timer { task: source },
            Action::Crash,
            Action::Restore,
        ]
    );
    let en = lost.story.text(g, Lang::En);
    assert_eq!(
        en,
        "a, b and c are lost: Source saved offset 3 at step 4, after sending them at steps 1, 2 and 3; \
         Count had not saved; the cluster crashed at step 5; the restore at step 6 resumes Source after them \
         and gives Count a state without them: they were in transit across the cut."
    );
    let zh = lost.story.text(g, Lang::Zh);
    assert!(zh.contains("第 4 步保存了偏移量 3") && zh.contains("在途"), "{zh}");
    // The decisive steps: the sends, the save, the crash, the restore.
    let marks: Vec<(u32, Decisive)> = lost.story.decisive.iter().map(|d| (d.step, d.what)).collect();
    assert_eq!(
        marks,
        [
            (1, Decisive::Sent),
            (2, Decisive::Sent),
            (3, Decisive::Sent),
            (4, Decisive::Saved),
            (5, Decisive::Crashed),
            (6, Decisive::Restored)
        ]
    );
    // The shortest duplicate: Count saves after counting a, the source has no save yet.
    let dup = &report.counterexamples[1];
    assert_eq!(dup.bad, BadOutcome { judged: Judged::State, verdict: Verdict::Duplicated });
    assert_eq!(labels(&sc, &dup.records), ["a"]);
    let en = dup.story.text(g, Lang::En);
    assert!(
        en.starts_with(
            "a is counted twice: Count saved at step 4, after a reached it at step 3; Source had not saved;"
        ),
        "{en}"
    );
    assert!(en.contains("orphan"), "{en}");
    assert_eq!(report.state.lost + report.state.duplicated + report.state.exactly_once, report.schedules);
}

/// With Count's save among them, the explanation names both saves and the record in transit, as
/// the issue's example does: "Count saved at step 5, before c reached it at step 7".
#[test]
fn a_loss_with_both_saves_names_both_and_the_receipt_after_the_save() {
    let sc = scenario_file("line-timers.json");
    let (ex, _) = explore(&sc, Completion::Canonical);
    let g = &ex.initial().graph;
    let (source, count) = (g.task_by_name("Source").unwrap(), g.task_by_name("Count").unwrap());
    let (sm, mc) = (g.channel_by_name("Source->Map").unwrap(), g.channel_by_name("Map->Count").unwrap());
    let schedule = [
        Action::Read { task: source },
        Action::Read { task: source },
        Action::Read { task: source },
        Action::Timer { task: source },
        Action::Timer { task: count },
        Action::Deliver { channel: sm },
        Action::Deliver { channel: mc },
        Action::Crash,
        Action::Restore,
    ];
    let bad = BadOutcome { judged: Judged::State, verdict: Verdict::Lost };
    let story = barrierscope::engine::explorer::Story::of(ex.initial(), &schedule, bad);
    assert_eq!(
        story.text(g, Lang::En),
        "a, b and c are lost: Source saved offset 3 at step 4, after sending them at steps 1, 2 and 3; \
         Count saved at step 5, before they reached it (a at step 7); the cluster crashed at step 8; \
         the restore at step 9 resumes Source after them and gives Count a state without them: they were in transit across the cut."
    );
    let saved: Vec<(u32, Option<TaskId>)> =
        story.decisive.iter().filter(|d| d.what == Decisive::Saved).map(|d| (d.step, d.task)).collect();
    assert_eq!(saved, [(4, Some(source)), (5, Some(count))]);
}

/// Output stories: a sink that had not written records the restore skips, and one that writes a
/// record again after the source rewinds before it.
#[test]
fn output_counterexamples_tell_what_the_sink_wrote() {
    let sc = tiny("line-sink", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "timers"}"#);
    let (ex, r) = explore(&sc, Completion::Canonical);
    let g = &ex.initial().graph;
    let text = |judged: Judged, verdict: Verdict| {
        let c = r.counterexamples.iter().find(|c| c.bad == BadOutcome { judged, verdict }).expect("found");
        (c.story.text(g, Lang::En), c.story.text(g, Lang::Zh))
    };
    let (en, zh) = text(Judged::Output, Verdict::Lost);
    assert!(
        en.starts_with("a and b are missing from the output: Source saved offset 2 at step 3")
            && en.contains("Sink had not written them"),
        "{en}"
    );
    assert!(zh.contains("Sink 还没有写出它们"), "{zh}");
    let (en, _) = text(Judged::Output, Verdict::Duplicated);
    assert!(
        en.starts_with("a is written twice: Sink wrote a at step 4; Source had not saved;")
            && en.contains("Sink writes a again at step 10"),
        "{en}"
    );
}

// ---- (b) what theory says of the barrier strategies -----------------------------------------

#[test]
fn aligned_barriers_never_lose_or_duplicate_state() {
    for file in
        ["line-aligned.json", "two-inputs-aligned.json", "two-inputs-unaligned.json", "two-inputs-stop-the-world.json"]
    {
        let sc = scenario_file(file);
        let (_, r) = explore(&sc, Completion::Canonical);
        assert!(r.schedules > 1000, "{file}: {} schedules", r.schedules);
        assert_eq!(r.state.exactly_once, r.schedules, "{file}: {r:?}");
        assert!(r.counterexamples.is_empty(), "{file}");
    }
}

#[test]
fn the_barrier_tracker_duplicates_on_two_inputs_and_never_loses() {
    let sc = scenario_file("two-inputs-at-least-once.json");
    let (ex, r) = explore(&sc, Completion::Canonical);
    assert!(r.state.duplicated > 0 && r.state.lost == 0, "{r:?}");
    // The duplicate, and the same replay judged as order: g takes effect at Count a second time.
    let kinds: Vec<String> = r.counterexamples.iter().map(|c| c.bad.id()).collect();
    assert_eq!(kinds, ["state-duplicated", "out-of-order"]);
    assert_eq!(r.history.incomplete, 0, "the tracker loses no path");
    assert_eq!(r.history.out_of_order, r.state.duplicated, "every duplicate here is a replay after newer records");
    let dup = &r.counterexamples[0];
    assert_eq!(dup.bad.verdict, Verdict::Duplicated);
    let text = dup.story.text(&ex.initial().graph, Lang::En);
    assert!(text.contains("behind the checkpoint's barrier"), "{text}");
    assert!(dup.story.decisive.iter().any(|d| d.what == Decisive::BarrierAhead));
}

#[test]
fn a_two_phase_commit_sink_is_exactly_once_end_to_end_and_an_append_sink_duplicates() {
    let (_, r) = explore(&scenario_file("line-sink-aligned-two-phase-commit.json"), Completion::Canonical);
    let out = r.output.unwrap();
    assert_eq!((r.state.exactly_once, out.exactly_once), (r.schedules, r.schedules), "{r:?}");
    let (_, r) = explore(&scenario_file("line-sink-aligned-append.json"), Completion::Canonical);
    let out = r.output.unwrap();
    assert_eq!(r.state.exactly_once, r.schedules);
    assert!(out.duplicated > 0 && out.lost == 0, "{r:?}");
}

// ---- (c) against an independent brute-force enumeration -------------------------------------

/// The moves at a state, by the definition of a schedule: the engine's enabled steps and the
/// faults left; after the last crash (canonical) the first enabled step only; the final
/// checkpoint of a two-phase-commit sink when nothing else is left.
struct Rules {
    faults: Faults,
    canonical: bool,
    final_checkpoint: bool,
}

impl Rules {
    fn moves(&self, sim: &barrierscope::engine::Sim, spent: &FaultsSpent) -> Vec<(Action, FaultsSpent)> {
        let mut steps = Vec::new();
        sim.enabled_steps(&mut steps);
        let mut out = Vec::new();
        let after_last_crash = spent.crashes == self.faults.crashes && sim.running();
        if self.canonical && after_last_crash {
            out.extend(steps.first().map(|a| (*a, spent.clone())));
        } else {
            out.extend(steps.iter().map(|a| (*a, spent.clone())));
            if sim.running() {
                if sim.strategy().uses_coordinator() && spent.checkpoints < self.faults.snapshots {
                    out.push((Action::Checkpoint, FaultsSpent { checkpoints: spent.checkpoints + 1, ..spent.clone() }));
                }
                if sim.strategy() == Strategy::Timers {
                    for t in 0..spent.timers.len() {
                        if spent.timers[t] < self.faults.snapshots && sim.task_up(TaskId(t as u16)) {
                            let mut s = spent.clone();
                            s.timers[t] += 1;
                            out.push((Action::Timer { task: TaskId(t as u16) }, s));
                        }
                    }
                }
                if spent.crashes < self.faults.crashes {
                    out.push((Action::Crash, FaultsSpent { crashes: spent.crashes + 1, ..spent.clone() }));
                }
            }
        }
        if out.is_empty() && self.final_checkpoint && !spent.final_checkpoint && sim.running() {
            out.push((Action::Checkpoint, FaultsSpent { final_checkpoint: true, ..spent.clone() }));
        }
        out
    }
}

/// Per record, how often it is reflected in state and in the output, and its completeness and
/// order verdicts with the places: the finest verdict.
type Reflected = (Vec<u32>, Vec<u32>, Vec<String>);
fn reflected(sim: &barrierscope::engine::Sim) -> Reflected {
    let history = sim
        .ledger()
        .rows
        .iter()
        .map(|r| {
            format!("{:?} {:?} {:?} {:?}", r.complete_verdict, r.incomplete_at, r.order_verdict, r.out_of_order_at)
        })
        .collect();
    (sim.state_counts(), sim.external_counts(), history)
}

#[derive(Default)]
struct Brute {
    leaves: u128,
    states: BTreeSet<Vec<u8>>,
    ends: BTreeSet<Vec<u8>>,
    /// Leaves by (state exactly once, lost, duplicated), and the same for the output.
    state: BTreeMap<(bool, bool, bool), u128>,
    output: BTreeMap<(bool, bool, bool), u128>,
    /// Leaves by (incomplete, out of order).
    history: BTreeMap<(bool, bool), u128>,
    /// Every-order runs: the states after the last restore, and the completions checked there.
    completions_checked: u64,
}

fn judged(j: barrierscope::engine::explorer::Judgement) -> (bool, bool, bool) {
    (j.exactly_once(), j.lost, j.duplicated)
}

impl Brute {
    /// Every schedule from `sim`, without merging. In every-order runs, `canonical` is what the
    /// canonical completion gives from the state after the last restore on this path: each leaf
    /// below it must end the same.
    fn dfs(
        &mut self,
        rules: &Rules,
        scope: KeyScope,
        sim: &barrierscope::engine::Sim,
        spent: &FaultsSpent,
        canonical: Option<&Reflected>,
    ) {
        let mut key = Vec::new();
        key_bytes(sim, spent, scope, &mut key);
        self.states.insert(key.clone());
        let owned;
        let mut canonical = canonical;
        if !rules.canonical && canonical.is_none() && spent.crashes == rules.faults.crashes && sim.running() {
            owned = canonical_completion(rules, sim, spent);
            canonical = Some(&owned);
        }
        let moves = rules.moves(sim, spent);
        if moves.is_empty() {
            self.leaves += 1;
            self.ends.insert(key);
            let o = Outcome::of(sim);
            *self.state.entry(judged(o.state)).or_default() += 1;
            if let Some(j) = o.output {
                *self.output.entry(judged(j)).or_default() += 1;
            }
            *self.history.entry((o.incomplete, o.out_of_order)).or_default() += 1;
            if let Some(c) = canonical {
                assert_eq!(&reflected(sim), c, "a completion ends otherwise than the canonical one");
                self.completions_checked += 1;
            }
            return;
        }
        for (a, s) in moves {
            let mut next = sim.clone();
            next.step(a).unwrap();
            self.dfs(rules, scope, &next, &s, canonical);
        }
    }
}

/// The first enabled step each time, then the final checkpoint: the canonical completion.
fn canonical_completion(rules: &Rules, sim: &barrierscope::engine::Sim, spent: &FaultsSpent) -> Reflected {
    let canonical = Rules { faults: rules.faults, canonical: true, final_checkpoint: rules.final_checkpoint };
    let (mut sim, mut spent) = (sim.clone(), spent.clone());
    while let Some((a, s)) = canonical.moves(&sim, &spent).into_iter().next() {
        sim.step(a).unwrap();
        spent = s;
    }
    reflected(&sim)
}

fn check_against_brute_force(sc: &Scenario, completion: Completion) {
    let (_, report) = explore(sc, completion);
    let sim = sc.sim().unwrap();
    let rules = Rules {
        faults: Faults::resolve(&sim, sc.explore.unwrap_or_default()).unwrap(),
        canonical: completion == Completion::Canonical,
        final_checkpoint: sim.strategy().uses_coordinator() && sim.settings.sink == SinkMode::TwoPhaseCommit,
    };
    let spent = FaultsSpent { timers: vec![0; sim.graph.tasks.len()], ..FaultsSpent::default() };
    let mut brute = Brute::default();
    brute.dfs(&rules, KeyScope::for_sim(&sim), &sim, &spent, None);
    let what = format!("{:?} {:?}", sc.settings.strategy, completion);
    assert_eq!(report.schedules, brute.leaves, "{what}: schedules");
    assert_eq!(report.states, brute.states.len(), "{what}: distinct states");
    assert_eq!(report.end_states, brute.ends.len(), "{what}: distinct end states");
    let sum = |m: &BTreeMap<(bool, bool, bool), u128>, f: fn(&(bool, bool, bool)) -> bool| -> u128 {
        m.iter().filter(|(k, _)| f(k)).map(|(_, n)| n).sum()
    };
    assert_eq!(report.state.exactly_once, sum(&brute.state, |k| k.0), "{what}");
    assert_eq!(report.state.lost, sum(&brute.state, |k| k.1), "{what}");
    assert_eq!(report.state.duplicated, sum(&brute.state, |k| k.2), "{what}");
    if let Some(o) = report.output {
        assert_eq!(
            (o.exactly_once, o.lost, o.duplicated),
            (sum(&brute.output, |k| k.0), sum(&brute.output, |k| k.1), sum(&brute.output, |k| k.2)),
            "{what}"
        );
    }
    let h = |f: fn(&(bool, bool)) -> bool| -> u128 { brute.history.iter().filter(|(k, _)| f(k)).map(|(_, n)| n).sum() };
    assert_eq!(
        (report.history.complete, report.history.incomplete, report.history.in_order, report.history.out_of_order),
        (h(|k| !k.0), h(|k| k.0), h(|k| !k.1), h(|k| k.1)),
        "{what}: completeness and order"
    );
    if completion == Completion::Every {
        assert_eq!(brute.completions_checked as u128, brute.leaves, "{what}: every leaf follows a crash");
    }
}

#[test]
fn counts_equal_a_brute_force_enumeration_of_tiny_jobs() {
    let cases = [
        tiny("source-count", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "timers"}"#),
        tiny("line", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "aligned"}"#),
        tiny("two-inputs", r#"{"Left": ["a:x"], "Right": ["f:x"]}"#, r#"{"strategy": "at-least-once"}"#),
        tiny("two-inputs", r#"{"Left": ["a:x"], "Right": ["f:x"]}"#, r#"{"strategy": "unaligned"}"#),
        tiny("two-inputs", r#"{"Left": ["a:x"], "Right": ["f:x"]}"#, r#"{"strategy": "stop-the-world"}"#),
        tiny("line-sink", r#"{"Source": ["a:x"]}"#, r#"{"strategy": "aligned", "sink": "two-phase-commit"}"#),
        tiny("line-sink", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "none", "restart": "from-latest"}"#),
    ];
    for sc in &cases {
        check_against_brute_force(sc, Completion::Canonical);
        check_against_brute_force(sc, Completion::Every);
    }
    // Completeness and order: per-task timers lose a path of the diamond and reorder a record
    // on it; the barrier tracker's replays reorder; an upsert sink's rows, as a reader sees them.
    // The shares must equal those of the search that merges nothing.
    check_against_brute_force(
        &tiny("diamond", r#"{"A": ["a:x"]}"#, r#"{"strategy": "timers"}"#),
        Completion::Canonical,
    );
    check_against_brute_force(
        &tiny("diamond", r#"{"A": ["a:x"]}"#, r#"{"strategy": "at-least-once"}"#),
        Completion::Canonical,
    );
    check_against_brute_force(
        &tiny("line-sink", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "timers", "sink": "upsert"}"#),
        Completion::Canonical,
    );
    // The line with per-task timers: only canonically (every order is 172,000 schedules).
    check_against_brute_force(
        &tiny("line", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "timers"}"#),
        Completion::Canonical,
    );
    // Time in the key: an alignment timeout turns a checkpoint unaligned on the clock.
    check_against_brute_force(
        &tiny(
            "two-inputs",
            r#"{"Left": ["a:x"], "Right": ["f:x"]}"#,
            r#"{"strategy": "aligned", "alignment-timeout": 2}"#,
        ),
        Completion::Canonical,
    );
    // Two crashes and two checkpoints, one pending while the next is triggered.
    let mut sc = tiny("source-count", r#"{"Source": ["a:x"]}"#, r#"{"strategy": "unaligned"}"#);
    sc.explore = Some(FaultBudget { snapshots: Some(2), crashes: 2 });
    check_against_brute_force(&sc, Completion::Canonical);
    let mut sc =
        tiny("source-count", r#"{"Source": ["a:x"]}"#, r#"{"strategy": "aligned", "max-concurrent-checkpoints": 2}"#);
    sc.explore = Some(FaultBudget { snapshots: Some(2), crashes: 2 });
    check_against_brute_force(&sc, Completion::Every);
}

/// The reduction: from every state after the last restore, every completion ends as the
/// canonical one does (checked leaf by leaf in `Brute::dfs`), so both find the same bad outcomes.
#[test]
fn the_canonical_completion_finds_what_every_completion_finds() {
    for file in ["line-timers.json", "two-inputs-at-least-once.json", "line-sink-aligned-append.json"] {
        let sc = scenario_file(file);
        let (_, canonical) = explore(&sc, Completion::Canonical);
        let (_, every) = explore(&sc, Completion::Every);
        let kinds = |r: &Report| r.counterexamples.iter().map(|c| c.bad).collect::<Vec<_>>();
        assert_eq!(kinds(&canonical), kinds(&every), "{file}");
        assert!(every.schedules > canonical.schedules, "{file}");
    }
}

/// The key is closed under every move: wherever the search merges two different runs under one
/// key, their moves are the same and lead to the same keys again. (Checked one step deep at every
/// merge of every explorer scenario; by induction, merged runs have the same futures.)
#[test]
fn merged_states_have_the_same_moves_and_successors() {
    let dir = format!("{}/scenarios/explore", env!("CARGO_MANIFEST_DIR"));
    let mut merges = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let sc = Scenario::from_json(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        for completion in [Completion::Canonical, Completion::Every] {
            let sim = sc.sim().unwrap();
            let rules = Rules {
                faults: Faults::resolve(&sim, sc.explore.unwrap_or_default()).unwrap(),
                canonical: completion == Completion::Canonical,
                final_checkpoint: sim.strategy().uses_coordinator() && sim.settings.sink == SinkMode::TwoPhaseCommit,
            };
            let scope = KeyScope::for_sim(&sim);
            let key = |sim: &barrierscope::engine::Sim, spent: &FaultsSpent| {
                let mut k = Vec::new();
                key_bytes(sim, spent, scope, &mut k);
                k
            };
            let successors = |sim: &barrierscope::engine::Sim, spent: &FaultsSpent| -> Vec<(Action, Vec<u8>)> {
                rules
                    .moves(sim, spent)
                    .into_iter()
                    .map(|(a, s)| {
                        let mut next = sim.clone();
                        next.step(a).unwrap();
                        (a, key(&next, &s))
                    })
                    .collect()
            };
            let spent = FaultsSpent { timers: vec![0; sim.graph.tasks.len()], ..FaultsSpent::default() };
            let mut seen: BTreeMap<Vec<u8>, (barrierscope::engine::Sim, FaultsSpent)> = BTreeMap::new();
            seen.insert(key(&sim, &spent), (sim.clone(), spent.clone()));
            let mut queue = std::collections::VecDeque::from([(sim, spent)]);
            while let Some((sim, spent)) = queue.pop_front() {
                for (a, s) in rules.moves(&sim, &spent) {
                    let mut next = sim.clone();
                    next.step(a).unwrap();
                    let k = key(&next, &s);
                    match seen.get(&k) {
                        None => {
                            seen.insert(k, (next.clone(), s.clone()));
                            queue.push_back((next, s));
                        }
                        Some((rep, rep_spent)) => {
                            merges += 1;
                            assert_eq!(
                                successors(rep, rep_spent),
                                successors(&next, &s),
                                "{}: merged runs part",
                                sc.name
                            );
                            // Per record in state and output. Completeness and order as the
                            // outcome reads them (some record incomplete, some out of order: the
                            // key keeps that, not which record), and only while the job runs:
                            // while it is down, what counts now is taken back at the restore
                            // whatever it is, and the key leaves it out.
                            let (a, b) = (reflected(rep), reflected(&next));
                            assert_eq!((a.0, a.1), (b.0, b.1));
                            if next.running() {
                                let (x, y) = (Outcome::of(rep), Outcome::of(&next));
                                assert_eq!(
                                    (x.incomplete, x.out_of_order),
                                    (y.incomplete, y.out_of_order),
                                    "{}",
                                    sc.name
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(merges > 10_000, "{merges} merges checked");
}

// ---- (c2) partial-order reduction: independent moves, against the engine ------------------

/// The explorer scenarios and small jobs under the strategies whose moves can commute
/// ([`Independence`]), with sinks of every kind, two inputs and a diamond.
fn commuting_cases() -> Vec<Scenario> {
    let mut cases: Vec<Scenario> = ["line-timers.json"].iter().map(|f| scenario_file(f)).collect();
    cases.extend([
        tiny("source-count", r#"{"Source": ["a:x", "b:y"]}"#, r#"{"strategy": "timers"}"#),
        tiny("line-sink", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "timers"}"#),
        tiny("line-sink", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "timers", "sink": "upsert"}"#),
        tiny("line-sink", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "none", "restart": "from-latest"}"#),
        tiny("line-sink", r#"{"Source": ["a:x", "b:y"]}"#, r#"{"strategy": "none"}"#),
        tiny("two-inputs", r#"{"Left": ["a:x"], "Right": ["f:x"]}"#, r#"{"strategy": "timers"}"#),
        tiny("two-inputs", r#"{"Left": ["a:x", "b:y"], "Right": ["f:x"]}"#, r#"{"strategy": "none"}"#),
        tiny("diamond", r#"{"A": ["a:x"]}"#, r#"{"strategy": "timers"}"#),
        tiny("diamond", r#"{"A": ["a:x", "b:y"]}"#, r#"{"strategy": "none"}"#),
    ]);
    let mut two = tiny("line", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "timers"}"#);
    two.explore = Some(FaultBudget { snapshots: Some(2), crashes: 2 });
    cases.push(two);
    cases
}

/// The independence relation, against the engine: at every state of every commuting case
/// (every completion, so every state any search can reach), two moves it calls independent are
/// each enabled after the other, and the two orders reach the same key; a crash after a move it
/// absorbs reaches the key of the crash alone. That is the premise of looking an edge up instead
/// of computing it (Godefroid's sleep sets rest on the same one).
#[test]
fn independent_moves_commute_at_every_state() {
    let (mut pairs, mut absorbed) = (0u64, 0u64);
    for sc in commuting_cases() {
        let sim = sc.sim().unwrap();
        let ind = Independence::for_sim(&sim).expect("these strategies commute");
        let rules = Rules {
            faults: Faults::resolve(&sim, sc.explore.unwrap_or_default()).unwrap(),
            canonical: false,
            final_checkpoint: false,
        };
        let scope = KeyScope::for_sim(&sim);
        let key = |sim: &barrierscope::engine::Sim, spent: &FaultsSpent| {
            let mut k = Vec::new();
            key_bytes(sim, spent, scope, &mut k);
            k
        };
        // `first` then `second` from (sim, spent): the key reached, if `second` is a move then.
        let both = |sim: &barrierscope::engine::Sim, first: &(Action, FaultsSpent), second: Action| {
            let mut next = sim.clone();
            next.step(first.0).unwrap();
            let (a, s) = rules.moves(&next, &first.1).into_iter().find(|(a, _)| *a == second)?;
            next.step(a).unwrap();
            Some(key(&next, &s))
        };
        let spent = FaultsSpent { timers: vec![0; sim.graph.tasks.len()], ..FaultsSpent::default() };
        let mut seen = BTreeSet::from([key(&sim, &spent)]);
        let mut queue = std::collections::VecDeque::from([(sim, spent)]);
        while let Some((sim, spent)) = queue.pop_front() {
            let moves = rules.moves(&sim, &spent);
            let crash = moves.iter().find(|(a, _)| *a == Action::Crash);
            for (i, a) in moves.iter().enumerate() {
                if let Some(crash) = crash.filter(|_| ind.crash_absorbs(a.0)) {
                    let mut alone = sim.clone();
                    alone.step(Action::Crash).unwrap();
                    let after = both(&sim, a, Action::Crash);
                    assert_eq!(after, Some(key(&alone, &crash.1)), "{}: a crash does not absorb {:?}", sc.name, a.0);
                    absorbed += 1;
                }
                for b in &moves[i + 1..] {
                    if !ind.independent(a.0, b.0) {
                        continue;
                    }
                    assert!(ind.independent(b.0, a.0), "{}: the relation is symmetric", sc.name);
                    let ab = both(&sim, a, b.0);
                    let ba = both(&sim, b, a.0);
                    assert!(ab.is_some() && ba.is_some(), "{}: {:?} and {:?} disable each other", sc.name, a.0, b.0);
                    assert_eq!(ab, ba, "{}: {:?} and {:?} do not commute", sc.name, a.0, b.0);
                    pairs += 1;
                }
                let mut next = sim.clone();
                next.step(a.0).unwrap();
                if seen.insert(key(&next, &a.1)) {
                    queue.push_back((next, a.1.clone()));
                }
            }
        }
    }
    assert!(pairs > 10_000, "{pairs} independent pairs checked");
    assert!(absorbed > 1_000, "{absorbed} crashes after an absorbed move checked");
}

/// Explores `sc` with and without looking edges up by commutation: the reports, the graph's
/// size and every counterexample, the same; the edges looked up.
fn with_and_without_commutation(sc: &Scenario, completion: Completion) -> usize {
    let mut with = Explorer::for_scenario(sc, completion).unwrap();
    let mut without = Explorer::for_scenario(sc, completion).unwrap().without_commutation();
    assert!(with.run(usize::MAX).done && without.run(usize::MAX).done);
    assert_eq!(with.report(), without.report(), "{} {completion:?}", sc.name);
    assert!(with.report().is_some() && without.inferred_edges() == 0);
    with.inferred_edges()
}

/// The reduction changes the work, not the result: on every explorer scenario and every
/// commuting case, with each completion, the report (states, edges, schedules, shares, the
/// shortest counterexamples) is the one the search that computes every edge gives.
#[test]
fn looking_edges_up_by_commutation_changes_no_report() {
    let dir = format!("{}/scenarios/explore", env!("CARGO_MANIFEST_DIR"));
    let mut cases: Vec<Scenario> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| Scenario::from_json(&std::fs::read_to_string(e.unwrap().path()).unwrap()).unwrap())
        .collect();
    cases.extend(commuting_cases());
    let mut inferred = 0;
    for sc in &cases {
        for completion in [Completion::Canonical, Completion::Every] {
            inferred += with_and_without_commutation(sc, completion);
        }
    }
    assert!(inferred > 10_000, "{inferred} edges looked up");
    // Where moves do not commute, nothing is looked up.
    let aligned = scenario_file("line-aligned.json");
    assert_eq!(with_and_without_commutation(&aligned, Completion::Every), 0);
}

proptest::proptest! {
    #![proptest_config(cases::config())]

    /// Random small jobs, inputs, sinks and budgets under the commuting strategies: the
    /// exploration that looks edges up reports exactly what the one that computes them reports.
    #[test]
    fn commutation_agrees_with_computing_every_edge(
        job in 0usize..5,
        keys in proptest::collection::vec(0usize..3, 1..=3),
        timers in proptest::bool::ANY,
        sink in 0usize..3,
        crashes in 0u8..=1,
        snapshots in 0u8..=1,
        every in proptest::bool::ANY,
    ) {
        let log = |from: usize, n: usize| -> String {
            let v: Vec<String> = keys.iter().take(n).enumerate()
                .map(|(i, k)| format!("\"{}:{}\"", (b'a' + (from + i) as u8) as char, ["x", "y", "z"][*k]))
                .collect();
            format!("[{}]", v.join(", "))
        };
        let (name, input) = match job {
            0 => ("line", format!(r#"{{"Source": {}}}"#, log(0, 3))),
            1 => ("line-sink", format!(r#"{{"Source": {}}}"#, log(0, 3))),
            2 => ("two-inputs", format!(r#"{{"Left": {}, "Right": {}}}"#, log(0, 1), log(5, 1))),
            3 => ("diamond", format!(r#"{{"A": {}}}"#, log(0, 2))),
            _ => ("source-count", format!(r#"{{"Source": {}}}"#, log(0, 3))),
        };
        let strategy = if timers { "timers" } else { "none" };
        // A sink's mode where the job has a sink; strategy none restarting from the latest read
        // now and then.
        let sink = if name == "line-sink" { [r#", "sink": "append""#, r#", "sink": "upsert""#, ""][sink] } else { "" };
        let restart = if !timers && keys.len() == 2 { r#", "restart": "from-latest""# } else { "" };
        let mut sc = tiny(name, &input, &format!(r#"{{"strategy": "{strategy}"{sink}{restart}}}"#));
        sc.explore = Some(FaultBudget { snapshots: Some(if timers { snapshots } else { 0 }), crashes });
        let completion = if every && keys.len() < 3 { Completion::Every } else { Completion::Canonical };
        with_and_without_commutation(&sc, completion);
    }
}

// ---- (d) counterexamples replay ------------------------------------------------------------

/// Every counterexample of every explorer scenario, written out as a scenario file, plays
/// through the loader to the same verdict on the same records.
#[test]
fn every_counterexample_replays_through_the_scenario_loader() {
    let dir = format!("{}/scenarios/explore", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let sc = Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let (ex, report) = explore(&sc, Completion::Canonical);
        for c in &report.counterexamples {
            let file = c.scenario(&sc, ex.initial(), c.story.text(&ex.initial().graph, Lang::En)).to_json();
            let played = Scenario::from_json(&file).unwrap().play().unwrap();
            assert_eq!(played.actions, c.schedule, "{}", path.display());
            let ledger = played.sim.ledger();
            let records: Vec<_> = ledger
                .rows
                .iter()
                .filter(|r| match c.bad.judged {
                    Judged::State => r.state_verdict == c.bad.verdict,
                    Judged::Output => r.external_verdict == Some(c.bad.verdict),
                    Judged::Complete => {
                        r.complete_verdict == barrierscope::engine::core::ledger::Completeness::Incomplete
                    }
                    Judged::Order => r.order_verdict == barrierscope::engine::core::ledger::Order::OutOfOrder,
                })
                .map(|r| r.record)
                .collect();
            assert_eq!(records, c.records, "{}", path.display());
            assert!(Outcome::of(&played.sim).has(c.bad));
            seen += 1;
        }
    }
    assert!(seen >= 4, "{seen} counterexamples");
}

/// The runner end to end: `explore --out-dir` writes each counterexample, and `run` plays each
/// file to the verdict the explorer reported.
#[test]
fn explore_writes_counterexamples_that_run_replays() {
    let out = format!("{}/ex-explorer-test-{}", std::env::temp_dir().display(), std::process::id());
    let file = format!("{}/scenarios/explore/line-timers.json", env!("CARGO_MANIFEST_DIR"));
    let (code, stdout, stderr) = runner(&["explore", &file, "--json", "--out-dir", &out]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["strategy"], "timers");
    assert!(v["states"].as_u64().unwrap() > 100);
    let cs = v["counterexamples"].as_array().unwrap();
    let outcomes: Vec<&str> = cs.iter().map(|c| c["outcome"].as_str().unwrap()).collect();
    assert_eq!(outcomes, ["state-lost", "state-duplicated", "incomplete", "out-of-order"]);
    let (_, lib) = explore(&scenario_file("line-timers.json"), Completion::Canonical);
    assert_eq!(v["history"]["incomplete"].as_u64().map(u128::from), Some(lib.history.incomplete));
    assert_eq!(v["history"]["out_of_order"].as_u64().map(u128::from), Some(lib.history.out_of_order));
    // Completeness and order: the written files play to that verdict.
    for (c, key, word) in [(&cs[2], "complete", "incomplete"), (&cs[3], "order", "out-of-order")] {
        let (code, stdout, stderr) = runner(&["run", c["file"].as_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{stderr}");
        let run: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(run["verdict"][key], word);
        assert!(c["explanation"]["en"].as_str().unwrap().contains(if key == "complete" {
            "incomplete"
        } else {
            "Out of order"
        }));
    }
    for c in cs.iter().take(2) {
        let written = c["file"].as_str().unwrap();
        let (code, stdout, stderr) = runner(&["run", written, "--json"]);
        assert_eq!(code, 0, "{stderr}");
        let run: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let (judged, verdict) = c["outcome"].as_str().unwrap().split_once('-').unwrap();
        assert_eq!(judged, "state");
        assert_eq!(run["verdict"]["state"], verdict, "{written}");
        let records: Vec<&str> = run["ledger"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["state_verdict"] == verdict)
            .map(|r| r["label"].as_str().unwrap())
            .collect();
        let expected: Vec<&str> = c["records"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        assert_eq!(records, expected);
        assert!(!c["explanation"]["zh"].as_str().unwrap().is_empty());
    }
    let (code, table, _) = runner(&["explore", &file]);
    assert_eq!(code, 0);
    assert!(table.contains("Counterexample 1: state lost (a, b, c)"), "{table}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_runner_stops_a_search_past_max_states_and_refuses_bad_options() {
    let file = format!("{}/scenarios/explore/line-timers.json", env!("CARGO_MANIFEST_DIR"));
    let (code, _, stderr) = runner(&["explore", &file, "--max-states", "100"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: ") && stderr.contains("stopped after") && stderr.contains("--max-states 100"),
        "{stderr}"
    );
    for bad in [
        vec!["explore"],
        vec!["explore", &file, "--lang", "fr"],
        vec!["explore", &file, "--max-states", "0"],
        vec!["explore", &file, "--fast"],
    ] {
        // Usage errors, in clap's form: the error, then where to read more.
        let (code, _, stderr) = runner(&bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(
            stderr.starts_with("error: ") && stderr.ends_with("For more information, try '--help'.\n"),
            "{bad:?}: {stderr}"
        );
    }
    let script = format!("{}/scenarios/abc-timers-lost.json", env!("CARGO_MANIFEST_DIR"));
    let (code, _, stderr) = runner(&["explore", &script]);
    assert_eq!(code, 2);
    assert!(stderr.contains("script"), "{stderr}");
    let (code, stdout, _) = runner(&["explore", &file, "--lang", "zh"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("a、b 和 c 丢失了"), "{stdout}");
}

// ---- slices, budgets, refusals --------------------------------------------------------------

/// Run in slices of one state, the explorer finds what it finds in one go.
#[test]
fn slices_find_what_one_run_finds() {
    let sc = scenario_file("two-inputs-at-least-once.json");
    let (_, whole) = explore(&sc, Completion::Canonical);
    let mut ex = Explorer::for_scenario(&sc, Completion::Canonical).unwrap();
    let mut slices = 0;
    let mut last = 0;
    loop {
        let p = ex.run(1);
        slices += 1;
        assert!(p.expanded >= last);
        last = p.expanded;
        if p.done {
            break;
        }
    }
    assert_eq!(ex.report().unwrap(), &whole);
    // One state a slice; then the counting, 64 states counted a slice (ordered, then tallied),
    // and a slice per counterexample built.
    let counting = (whole.states.div_ceil(64) + whole.states.div_ceil(64)) as i64;
    let extra = slices as i64 - whole.states as i64;
    let cx = whole.counterexamples.len() as i64;
    assert!(
        extra >= cx && extra <= counting + cx + 1,
        "{slices} slices for {} states and {cx} counterexamples",
        whole.states
    );
}

#[test]
fn more_crashes_and_snapshots_explore_more() {
    let mut sc = tiny("source-count", r#"{"Source": ["a:x", "b:x"]}"#, r#"{"strategy": "aligned"}"#);
    let (_, one) = explore(&sc, Completion::Canonical);
    sc.explore = Some(FaultBudget { snapshots: Some(2), crashes: 2 });
    let (_, two) = explore(&sc, Completion::Canonical);
    assert!(two.states > one.states && two.schedules > one.schedules);
    assert_eq!(two.state.exactly_once, two.schedules, "aligned barriers stay exactly once across two crashes");
    sc.explore = Some(FaultBudget { snapshots: Some(0), crashes: 0 });
    let (_, none) = explore(&sc, Completion::Canonical);
    assert_eq!(none.schedules, 1, "no fault: one canonical schedule");
}

#[test]
fn what_the_explorer_refuses_says_why() {
    let refused = |settings: &str, explore: &str, actions: &str| {
        let sc = Scenario::from_json(&format!(
            r#"{{"job": "line", "input": {{"Source": ["a:x"]}}, "settings": {settings}, "explore": {explore}, "actions": {actions}}}"#
        ))
        .unwrap();
        Explorer::for_scenario(&sc, Completion::Canonical).err().expect("refused").to_string()
    };
    assert!(refused(r#"{"strategy": "storm-acker"}"#, "{}", "[]").contains("storm-acker"));
    assert!(refused(r#"{"checkpoint-interval": 3}"#, "{}", "[]").contains("checkpoint-interval"));
    assert!(refused(r#"{"strategy": "none"}"#, r#"{"snapshots": 1}"#, "[]").contains("takes no snapshots"));
    assert!(refused("{}", r#"{"crashes": 4}"#, "[]").contains("0 to 3"));
    assert!(refused("{}", "{}", r#"["crash"]"#).contains("script"));
}

// ---- the barrier-handler lab ----------------------------------------------------------------

mod lab {
    use barrierscope::engine::explorer::lab::{classify, Candidate, Guarantee};
    use barrierscope::engine::explorer::{Completion, Explorer};
    use barrierscope::engine::mechanisms::handler_lab::{AfterBarrier, Handler, OnFirstBarrier, OnLastBarrier};
    use barrierscope::engine::{FaultBudget, Lang, Scenario, Settings, Strategy, Verdict};

    /// The built-in strategies, as presets of the lab, classify as theory says.
    #[test]
    fn the_presets_classify_as_theory_says() {
        let expected = [
            ("aligned", Guarantee::ExactlyOnce),
            ("at-least-once", Guarantee::AtLeastOnce),
            ("unaligned", Guarantee::ExactlyOnce),
            ("timers", Guarantee::NoneOfThese),
        ];
        for ((name, candidate), (n, g)) in Candidate::PRESETS.iter().zip(expected) {
            assert_eq!(*name, n);
            let c = classify(*candidate).unwrap();
            assert_eq!(c.guarantee, g, "{name}");
        }
        // The counterexample that rules out exactly once for the tracker: a duplicate on two inputs,
        // explained with the barrier the record came behind.
        let c = classify(Candidate::Handler(Handler::TRACKER)).unwrap();
        let (probe, dup) = c.duplicate.as_ref().unwrap();
        assert!(c.loss.is_none());
        let p = &c.probes[*probe];
        assert_eq!(p.name, "two-inputs: a, b | f, g");
        let text = dup.story.text(&p.initial.as_ref().unwrap().graph, Lang::En);
        assert!(text.contains("behind the checkpoint's barrier"), "{text}");
    }

    /// A preset runs as the built-in mechanism does: the same schedules, ending the same ways.
    #[test]
    fn the_presets_reproduce_the_built_in_mechanisms() {
        for (handler, strategy) in [
            (Handler::ALIGNED, Strategy::Aligned),
            (Handler::TRACKER, Strategy::AtLeastOnce),
            (Handler::UNALIGNED, Strategy::Unaligned),
        ] {
            for (job, input) in [
                ("line", r#"{"Source": ["a:x", "b:x", "c:x"]}"#),
                ("two-inputs", r#"{"Left": ["a:x", "b:y"], "Right": ["f:y", "g:x"]}"#),
            ] {
                let run = |strategy: Strategy, handler: Option<Handler>| {
                    let mut sc = Scenario::builtin(job, Settings::new(strategy), 1);
                    sc.input = Some(serde_json::from_str(input).unwrap());
                    let mut sim = sc.sim().unwrap();
                    if let Some(h) = handler {
                        sim = sim.with_handler(h).unwrap();
                    }
                    let mut ex = Explorer::with_completion(sim, FaultBudget::default(), Completion::Canonical).unwrap();
                    assert!(ex.run(usize::MAX).done);
                    ex.report().unwrap().clone()
                };
                let (lab, built_in) = (run(Strategy::Aligned, Some(handler)), run(strategy, None));
                assert_eq!(
                    (lab.schedules, lab.state, lab.end_states),
                    (built_in.schedules, built_in.state, built_in.end_states),
                    "{strategy:?} on {job}"
                );
            }
        }
    }

    /// Issue 26: a task with two inputs that feeds another (the probe merge-then-count). A handler
    /// that snapshots at the first barrier, forwards it, blocks, and snapshots again at the last
    /// barrier lets the slower input's records reach Count behind Count's barrier while Merge's
    /// final snapshot counts them as sent: a restore loses them. On line and two-inputs (no task
    /// with two inputs feeds another) every schedule of it holds, which is why they alone
    /// classified it exactly once. Model: each counterexample, replayed on its probe's run and
    /// completed as the explorer completes it (the first enabled step, to the end), ends with a
    /// record in that verdict; a probe without one has "every schedule holds".
    #[test]
    fn a_probe_with_a_two_input_task_feeding_another_catches_the_early_forwarded_barrier() {
        let h = Handler {
            first: OnFirstBarrier::SnapshotNow,
            after: AfterBarrier::Block,
            last: OnLastBarrier::Snapshot,
            in_flight: false,
        };
        let c = classify(Candidate::Handler(h)).unwrap();
        assert_eq!(
            c.guarantee,
            Guarantee::AtMostOnce,
            "{:?}",
            c.probes.iter().map(|p| (p.name, p.holds())).collect::<Vec<_>>()
        );
        let names: Vec<&str> = c.probes.iter().map(|p| p.name).collect();
        assert_eq!(names, ["line: a, b, c", "two-inputs: a, b | f, g", "merge-then-count: a | f, g"]);
        assert!(c.probes[0].holds() && c.probes[1].holds(), "the old probes cannot tell");
        let (probe, loss) = c.loss.as_ref().unwrap();
        assert_eq!(*probe, 2);
        let text = loss.story.text(&c.probes[2].initial.as_ref().unwrap().graph, Lang::En);
        assert!(text.contains("lost"), "{text}");

        let mut candidates: Vec<Candidate> = Handler::all().into_iter().map(Candidate::Handler).collect();
        candidates.push(Candidate::Timers);
        for cand in candidates {
            let k = classify(cand).unwrap();
            // The main screen names a handler's guarantee from a table: it is the classifier's.
            if let Candidate::Handler(h) = cand {
                assert_eq!(h.classified(), k.guarantee, "{h:?}: the table agrees with the classifier");
            }
            assert_eq!(k.probes.len(), 3, "{cand:?}: classified on every probe");
            for p in &k.probes {
                for (ce, v) in [(&p.loss, Verdict::Lost), (&p.duplicate, Verdict::Duplicated)] {
                    let Some(ce) = ce else { continue };
                    let mut sim = p.initial.clone().unwrap();
                    let mut out = Vec::new();
                    for a in &ce.schedule {
                        sim.apply(*a, &mut out).unwrap_or_else(|e| panic!("{cand:?} on {}: {e}", p.name));
                    }
                    let mut steps = Vec::new();
                    loop {
                        sim.enabled_steps(&mut steps);
                        let Some(&a) = steps.first() else { break };
                        sim.apply(a, &mut out).unwrap();
                    }
                    assert!(!sim.ledger().state_labels(v).is_empty(), "{cand:?} on {}: {v:?} replays", p.name);
                }
                assert_eq!(
                    p.holds(),
                    p.report.counterexamples.iter().all(|c| matches!(
                        c.bad.judged,
                        barrierscope::engine::explorer::Judged::Complete
                            | barrierscope::engine::explorer::Judged::Order
                    ))
                );
            }
        }
    }

    /// Composed handlers: what each choice costs.
    #[test]
    fn composed_handlers_classify_by_their_choices() {
        let h = |first, after, last, in_flight| Handler { first, after, last, in_flight };
        use AfterBarrier::*;
        use OnFirstBarrier::*;
        use OnLastBarrier::*;
        let cases = [
            // Snapshot at the first barrier without storing what is in flight: records still on
            // their way on the other input are lost, none counted twice.
            (h(SnapshotNow, Process, ForwardOnly, false), Guarantee::AtMostOnce),
            // Blocking as well changes nothing about that.
            (h(SnapshotNow, Block, ForwardOnly, false), Guarantee::AtMostOnce),
            // Storing them makes it exactly once, blocking or not.
            (h(SnapshotNow, Block, ForwardOnly, true), Guarantee::ExactlyOnce),
            // Dropping what comes after a barrier loses it, even without a crash.
            (h(Wait, Drop, Snapshot, false), Guarantee::AtMostOnce),
            // Snapshot on every barrier: the last snapshot counts what came after the first
            // barrier, as the tracker's does (a duplicate on two-inputs), and, where the task
            // feeds another, what it sent behind the barrier it forwarded early (a loss on
            // merge-then-count): none of these.
            (h(SnapshotNow, Process, Snapshot, false), Guarantee::NoneOfThese),
            // Blocking as well still loses on merge-then-count (issue 26).
            (h(SnapshotNow, Block, Snapshot, false), Guarantee::AtMostOnce),
        ];
        for (handler, g) in cases {
            assert_eq!(classify(Candidate::Handler(handler)).unwrap().guarantee, g, "{handler:?}");
        }
        assert_eq!(Handler::all().len(), 15);
        let refused = Scenario::builtin("line", Settings::new(Strategy::Aligned), 1)
            .sim()
            .unwrap()
            .with_handler(h(Wait, Block, ForwardOnly, false))
            .unwrap_err()
            .to_string();
        assert!(refused.contains("forward only"), "{refused}");
    }
}

// ---- completeness and order ------------------------------------------------------------------

/// Per-task timers on the diamond lose a path: the explorer finds the shortest schedule where a
/// record misses a path of the DAG it takes in the failure-free run, replays it to that verdict,
/// and tells it by the path, the save and the restore. Some schedules lose a path and not the
/// count: completeness finds what the state verdict cannot.
#[test]
fn a_lost_path_of_the_diamond_and_a_reordered_record_are_found() {
    let sc = tiny("diamond", r#"{"A": ["a:x", "b:y"]}"#, r#"{"strategy": "timers"}"#);
    let (ex, r) = explore(&sc, Completion::Canonical);
    assert!(r.history.incomplete > r.state.lost, "{:?} vs {:?}", r.history, r.state);
    assert_eq!(r.history.complete + r.history.incomplete, r.schedules);
    assert_eq!(r.history.in_order + r.history.out_of_order, r.schedules);
    let g = &ex.initial().graph;
    for bad in [BadOutcome::INCOMPLETE, BadOutcome::OUT_OF_ORDER] {
        let c = r.counterexamples.iter().find(|c| c.bad == bad).unwrap_or_else(|| panic!("{bad:?} found"));
        let mut sim = ex.initial().clone();
        for a in &c.schedule {
            sim.step(*a).unwrap();
        }
        let l = sim.ledger();
        assert!(Outcome::of(&sim).has(bad));
        let text = c.story.text(g, Lang::En);
        let zh = c.story.text(g, Lang::Zh);
        assert!(!zh.is_empty() && zh != text);
        if bad == BadOutcome::INCOMPLETE {
            let row = l.rows.iter().find(|row| !row.incomplete_at.is_empty()).unwrap();
            let path = &g.channel(row.incomplete_at[0].channel).name;
            assert!(text.contains("is incomplete") || text.contains("are incomplete"), "{text}");
            assert!(text.contains(path.as_str()), "{text} names {path}");
            assert!(c.story.decisive.iter().any(|d| d.what == Decisive::Restored));
        } else {
            let row = l.rows.iter().find(|row| !row.out_of_order_at.is_empty()).unwrap();
            let at = &g.channel(row.out_of_order_at[0].channel).name;
            assert!(text.starts_with("Out of order at"), "{text}");
            assert!(text.contains(at.as_str()), "{text} names {at}");
            assert!(c.story.decisive.iter().any(|d| d.what == Decisive::ReceivedAgain));
        }
    }
    // Aligned barriers on the diamond: every schedule complete and in order.
    let (_, r) =
        explore(&tiny("diamond", r#"{"A": ["a:x", "b:y"]}"#, r#"{"strategy": "aligned"}"#), Completion::Canonical);
    assert_eq!((r.history.complete, r.history.in_order), (r.schedules, r.schedules));
    assert!(r.counterexamples.is_empty());
}

/// A lab handler in place on the canvas: a saved run (and a link, which is the same text) names it
/// in its settings, plays with it exactly as a run given the handler by `Sim::with_handler`, and
/// the narration of a completed checkpoint names the handler and its guarantee as classified, not
/// strategy aligned's; a handler that makes no sense, or on another strategy, is refused with why.
#[test]
fn a_saved_run_puts_a_lab_handler_on_the_canvas_and_refuses_a_bad_one() {
    use barrierscope::classroom::SavedRun;
    use barrierscope::engine::mechanisms::handler_lab::Handler;
    use barrierscope::engine::wording::narrate;
    use barrierscope::engine::Event;
    let text = r#"{"barrierscope": SAVED, "job": "two-inputs", "seed": 1, "actions": "", "at": 0,
        "settings": {"strategy": "aligned", "handler": {"first": "wait", "after": "process", "last": "snapshot", "in-flight": false}}}"#
        .replace("SAVED", &barrierscope::classroom::SAVED_VERSION.to_string());
    let saved = SavedRun::parse(&text).unwrap();
    assert_eq!(saved.settings.handler, Some(Handler::TRACKER));
    let back = SavedRun::parse(&serde_json::to_string(&saved).unwrap()).unwrap();
    assert_eq!(back.settings.handler, Some(Handler::TRACKER), "it survives a save");
    let mut lab = saved.config().scenario().sim().unwrap();
    let mut plain = saved.config();
    plain.settings.handler = None;
    let mut model = plain.scenario().sim().unwrap().with_handler(Handler::TRACKER).unwrap();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut steps = Vec::new();
    let mut checkpointed = false;
    for i in 0..60 {
        lab.enabled_steps(&mut steps);
        let Some(&step) = steps.get(i % steps.len().max(1)) else { break };
        let act = if i == 3 && !checkpointed {
            checkpointed = true;
            Action::Checkpoint
        } else {
            step
        };
        lab.apply(act, &mut a).unwrap();
        model.apply(act, &mut b).unwrap();
    }
    assert_eq!(a, b, "the saved run plays as the handler does");
    let done = a.iter().find(|e| matches!(e, Event::CheckpointCompleted { .. })).expect("the checkpoint completed");
    let en = narrate(done, &lab.graph, Lang::En);
    assert!(
        en.contains("lab's barrier handler")
            && en.contains("process what comes after a barrier")
            && en.contains("at least once"),
        "{en}"
    );
    assert!(!en.contains("exactly once"), "not aligned's guarantee: {en}");
    assert!(narrate(done, &lab.graph, Lang::Zh).contains("至少一次"));
    // Refused, with why.
    for (settings, why) in [
        (
            r#"{"strategy": "timers", "handler": {"first": "wait", "after": "block", "last": "snapshot", "in-flight": false}}"#,
            "runs on strategy aligned's coordinator",
        ),
        (
            r#"{"strategy": "aligned", "handler": {"first": "wait", "after": "block", "last": "forward-only", "in-flight": false}}"#,
            "forward only on the last barrier needs a snapshot",
        ),
        (
            r#"{"strategy": "aligned", "max-concurrent-checkpoints": 2, "handler": {"first": "wait", "after": "block", "last": "snapshot", "in-flight": false}}"#,
            "one checkpoint at a time",
        ),
    ] {
        let t = text.replace(
            &text[text.find("\"settings\"").unwrap()..text.rfind('}').unwrap()],
            &format!("\"settings\": {settings}"),
        );
        let saved = SavedRun::parse(&t).unwrap();
        let err = saved.config().scenario().sim().unwrap_err();
        assert!(format!("{err:?}").contains(why), "{settings}: {err:?}");
    }
    let t = text.replace("\"after\": \"process\"", "\"after\": \"later\"");
    assert!(SavedRun::parse(&t).is_err(), "an unknown choice is refused");
}

/// Backpressure's bound in the explorer (issue 53; the room's preset `aligned-bound-one`): with
/// channels of one buffer, every state any schedule reaches has at most one record in each
/// channel, and a barrier never more than one record ahead of it: a record joins a channel only
/// when the one ahead has left. A barrier takes no credit (Flink sends an event when the channel
/// has none, `PipelinedSubpartition.getAvailabilityAndBacklog`), so it may join a full channel,
/// behind the record there. Every schedule is still exactly once, the counts agree with brute
/// force, and the bound only takes schedules away: fewer than with unbounded channels.
#[test]
fn a_bound_of_one_keeps_one_record_in_each_channel_and_only_removes_schedules() {
    let bounded = scenario_file("line-aligned-bound-one.json");
    assert_eq!(bounded.settings.channel_capacity, Some(1));
    let sim = bounded.sim().unwrap();
    let rules = Rules {
        faults: Faults::resolve(&sim, bounded.explore.unwrap_or_default()).unwrap(),
        canonical: false,
        final_checkpoint: false,
    };
    let spent = FaultsSpent { timers: vec![0; sim.graph.tasks.len()], ..FaultsSpent::default() };
    let (mut states, mut barrier_behind_record) = (0usize, 0usize);
    let mut stack = vec![(sim, spent)];
    while let Some((sim, spent)) = stack.pop() {
        states += 1;
        for c in 0..sim.graph.channels.len() {
            let q = sim.queue(barrierscope::engine::ChannelId(c as u16));
            let records = q.iter().filter(|i| matches!(i, barrierscope::engine::Item::Record { .. })).count();
            assert!(records <= 1, "a channel holds {records} records: {q:?}");
            if let Some(b) = q.iter().position(|i| matches!(i, barrierscope::engine::Item::Barrier(_))) {
                assert!(b <= 1, "a barrier behind {b} records: {q:?}");
                barrier_behind_record += b;
            }
        }
        for (a, s) in rules.moves(&sim, &spent) {
            let mut next = sim.clone();
            next.step(a).unwrap();
            stack.push((next, s));
        }
    }
    assert!(
        states > 1000 && barrier_behind_record > 0,
        "{states} states walked, {barrier_behind_record} with a barrier behind a record"
    );
    let (_, b) = explore(&bounded, Completion::Canonical);
    let (_, u) = explore(&scenario_file("line-aligned.json"), Completion::Canonical);
    assert_eq!(b.state.exactly_once, b.schedules, "{b:?}");
    assert!(
        b.schedules < u.schedules && b.states < u.states,
        "bounded {} / {}, unbounded {} / {}",
        b.schedules,
        b.states,
        u.schedules,
        u.states
    );
    check_against_brute_force(&bounded, Completion::Canonical);
}
