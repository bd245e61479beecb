//! Restoring into a changed program (issue 12 / 28): operator ids after `StreamGraphHasherV2`,
//! key groups after `KeyGroupRangeAssignment`, and the restore's mapping, refusals and
//! redistribution after `Checkpoints.loadAndValidateCheckpoint` and `StateAssignmentOperation`.
//!
//! The models:
//! - `tests/fixtures/changed_program/reference.txt`, printed by `ReferenceValues.java` beside it:
//!   Java's `String.hashCode`, Flink's `MathUtils.murmurHash` and `computeDefaultMaxParallelism`
//!   written out in Java, and the hasher's traversal run over Guava's own `Hashing.murmur3_128(0)`;
//! - brute force for key-group ranges;
//! - the new program's failure-free run (the ledger), and each key's count in it.
#![cfg(not(target_arch = "wasm32"))]

use barrierscope::engine::core::dataflow::job_graph::{EdgeSpec, JobSpec, OperatorSpec, Partitioning};
use barrierscope::engine::core::dataflow::key_groups::*;
use barrierscope::engine::program::operator_id::operator_ids;
use barrierscope::engine::program::rescale::{Refusal, StateFate};
use barrierscope::engine::runs::scenario::JobRef;
use barrierscope::engine::*;

const REFERENCE: &str = include_str!("fixtures/changed_program/reference.txt");

fn spec_of(desc: &str) -> JobSpec {
    let (ops, edges) = desc.split_once(';').unwrap();
    let operators = ops
        .split(',')
        .map(|o| {
            let f: Vec<&str> = o.split('/').collect();
            let kind = if edges.split(',').any(|e| e.split('/').next().unwrap().ends_with(&format!(">{}", f[0]))) {
                OperatorKind::Map
            } else {
                OperatorKind::Source
            };
            OperatorSpec {
                name: f[0].into(),
                kind,
                parallelism: f[1].parse().unwrap(),
                uid: (f[2] != "-").then(|| f[2].to_string()),
                max_parallelism: None,
            }
        })
        .collect();
    let edges = edges
        .split(',')
        .filter(|e| !e.is_empty())
        .map(|e| {
            let (ends, p) = e.split_once('/').unwrap();
            let (from, to) = ends.split_once('>').unwrap();
            let partitioning = match p {
                "forward" => Partitioning::Forward,
                "hash" => Partitioning::Hash,
                "rebalance" => Partitioning::Rebalance,
                "key-groups" => Partitioning::Hash,
                _ => panic!("{p}"),
            };
            EdgeSpec { from: from.into(), to: to.into(), partitioning }
        })
        .collect();
    JobSpec { operators, edges }
}

#[test]
fn hashes_and_key_groups_match_the_java_formulas() {
    let (mut keys, mut murmurs, mut defaults, mut graphs) = (0, 0, 0, 0);
    for line in REFERENCE.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        match f[0] {
            "key" => {
                let k = f[1];
                let n = |i: usize| f[i].parse::<i64>().unwrap();
                assert_eq!(java_string_hash(k) as i64, n(2), "{k}");
                assert_eq!(murmur_hash(java_string_hash(k)) as i64, n(3), "{k}");
                assert_eq!(assign_to_key_group(k, 128) as i64, n(4), "{k}");
                assert_eq!(assign_to_key_group(k, 16) as i64, n(5), "{k}");
                assert_eq!(assign_to_key_group(k, 7) as i64, n(6), "{k}");
                keys += 1;
            }
            "murmur" => {
                assert_eq!(murmur_hash(f[1].parse().unwrap()), f[2].parse::<i32>().unwrap(), "{line}");
                murmurs += 1;
            }
            "default" => {
                assert_eq!(default_max_parallelism(f[1].parse().unwrap()), f[2].parse::<u16>().unwrap(), "{line}");
                defaults += 1;
            }
            "graph" => {
                let ids: Vec<String> = operator_ids(&spec_of(f[1])).iter().map(|h| h.hex()).collect();
                assert_eq!(ids.join(","), f[2], "{}", f[1]);
                graphs += 1;
            }
            _ => panic!("{line}"),
        }
    }
    assert_eq!((keys, murmurs, defaults, graphs), (14, 8, 10, 15));
}

/// The built-in jobs' ids are the ones the Java traversal printed for the same shapes.
#[test]
fn builtin_jobs_have_the_reference_ids() {
    let id = |job: &str| operator_ids(&builtin(job).unwrap().spec).iter().map(|h| h.hex()).collect::<Vec<_>>();
    assert_eq!(
        id("line"),
        ["cbc357ccb763df2852fee8c4fc7d55f2", "570f707193e0fe32f4d86d067aba243b", "b728d985904d42b0fdd945a9e3253fca"]
    );
    assert_eq!(
        id("line-uids"),
        ["e5a72f353fc1e6bbf3bd96a41384998c", "23ab3a59b17e9c45f95cff4c728611fc", "b71731f1c0df9c3076c4a455334d0ad6"]
    );
    assert_eq!(id("keyed-count"), ["e5a72f353fc1e6bbf3bd96a41384998c", "b71731f1c0df9c3076c4a455334d0ad6"]);
}

/// Brute force: the owner of every key group, found by scanning the ranges, is the formula's, and
/// the ranges are as even as can be.
#[test]
fn key_group_ranges_by_brute_force() {
    for max in 1..=300u16 {
        for p in 1..=max.min(12) {
            let ranges: Vec<KeyGroupRange> = (0..p).map(|i| key_group_range(max, p, i)).collect();
            for kg in 0..max {
                let owners: Vec<u16> = (0..p).filter(|i| ranges[*i as usize].contains(kg)).collect();
                assert_eq!(owners, [operator_index_for_key_group(max, p, kg)], "max {max} p {p} kg {kg}");
            }
            let (lo, hi) =
                (ranges.iter().map(|r| r.len()).min().unwrap(), ranges.iter().map(|r| r.len()).max().unwrap());
            assert!(hi - lo <= 1 && lo == max / p, "max {max} p {p}");
        }
    }
}

fn sim(job: &str, s: Settings, seed: u64) -> Sim {
    Scenario::builtin(job, s, seed).sim().unwrap()
}

fn lines(sim: &mut Sim, lines: &[&str]) {
    for l in lines {
        let parsed = barrierscope::classroom::parse_line(l).unwrap();
        sim.play_line(&parsed, 100_000, OnRefusal::Stop, &mut |_, _| {}).unwrap_or_else(|e| panic!("{l}: {e:?}"));
    }
}

/// Runs `auto` steps, stops with a savepoint and waits for the job to finish; returns its id.
fn stop_with_savepoint(sim: &mut Sim, auto: u64) -> CheckpointId {
    lines(sim, &[&format!("auto {auto}")]);
    let events = sim.step(Action::StopWithSavepoint).unwrap();
    // (Stop-the-world takes the whole savepoint, and finishes the job, within the step.)
    let id = sim
        .stopping()
        .or_else(|| sim.stopped().and(sim.savepoints().last().map(|s| s.checkpoint.id)))
        .unwrap_or_else(|| panic!("the savepoint is triggered: {events:?}"));
    for _ in 0..10_000 {
        if sim.stopped().is_some() {
            return id;
        }
        sim.step(Action::Auto).unwrap();
    }
    panic!("never stopped");
}

fn with_filter(spec: &JobSpec, uid: Option<&str>) -> JobSpec {
    let mut s = spec.clone();
    s.operators.insert(
        2,
        OperatorSpec {
            name: "Filter".into(),
            kind: OperatorKind::Filter { keep_keys: vec!["x".into(), "y".into()] },
            parallelism: 1,
            uid: uid.map(Into::into),
            max_parallelism: None,
        },
    );
    s.edges = vec![
        EdgeSpec { from: "Source".into(), to: "Map".into(), partitioning: Partitioning::Forward },
        EdgeSpec { from: "Map".into(), to: "Filter".into(), partitioning: Partitioning::Forward },
        EdgeSpec { from: "Filter".into(), to: "Count".into(), partitioning: Partitioning::Forward },
    ];
    s
}

fn state_verdicts(sim: &Sim) -> (Vec<String>, Vec<String>) {
    let l = sim.ledger();
    let of = |v| l.state_labels(v).into_iter().map(String::from).collect();
    (of(Verdict::ExactlyOnce), of(Verdict::Lost))
}

/// Inserting an operator without uids shifts the generated ids downstream of it: Count's state
/// has nowhere to go and the restore is refused with Flink's message. Source and Map keep their
/// ids (nothing before them changed, and Map's chained out-edge still hashes the same int).
#[test]
fn generated_ids_shift_and_the_restore_is_refused() {
    let mut old = sim("line", Settings::new(Strategy::Aligned), 1);
    let sp = stop_with_savepoint(&mut old, 12);
    let new_spec = with_filter(&old.graph.spec, None);
    let err = old.restore_into(sp, &new_spec, false).unwrap_err();
    let count_id = operator_ids(&old.graph.spec)[2];
    assert!(
        matches!(&err, Refusal::NotAvailable { id, operator, .. } if *id == count_id && operator == "Count"),
        "{err:?}"
    );
    assert_eq!(
        err.message(),
        format!(
            "Failed to rollback to checkpoint/savepoint file:/savepoints/savepoint-{}. Cannot map checkpoint/savepoint state for operator {} to the new program, because the operator is not available in the new program. If you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI.",
            sp.0,
            count_id.hex()
        )
    );
    let new_ids = operator_ids(&new_spec);
    assert_eq!(new_ids[..2], operator_ids(&old.graph.spec)[..2]);
}

/// `--allowNonRestoredState` drops exactly the unmatched state: Count starts empty, so the records
/// it had counted are lost; Source keeps its offset, so nothing is read again; every later record
/// is counted once.
#[test]
fn allow_non_restored_state_drops_exactly_the_unmatched_state() {
    for auto in [0u64, 5, 12, 30] {
        let mut old = sim("line", Settings::new(Strategy::Aligned), 3);
        let sp = stop_with_savepoint(&mut old, auto);
        let saved = old.savepoints().last().unwrap().checkpoint.clone();
        let offset = saved.snapshots.iter().find_map(|s| match s.state {
            OpState::Source { next_offset } => Some(next_offset),
            _ => None,
        });
        let counted: Vec<String> = saved
            .snapshots
            .iter()
            .flat_map(|s| match &s.state {
                OpState::Keyed { entries } => entries.values().flat_map(|e| e.contributors.clone()).collect(),
                _ => vec![],
            })
            .map(|r| old.graph.label(r).to_string())
            .collect();
        let (mut new, plan, _) = old.restore_into(sp, &with_filter(&old.graph.spec, None), true).unwrap();
        let fates: Vec<(&str, StateFate)> = plan.rows.iter().map(|r| (r.operator.as_str(), r.fate)).collect();
        // A keyed operator has state even before its first key (issue 49: it registers its state
        // when it opens), so Count's is dropped, never skipped as empty.
        let count_fate = StateFate::Dropped;
        assert_eq!(fates, [("Source", StateFate::Kept), ("Map", StateFate::Kept), ("Count", count_fate)]);
        let src = new.graph.task_by_name("Source").unwrap();
        assert_eq!(Some(new.source_offset(src)), offset, "auto {auto}: the source keeps its offset");
        assert_eq!(new.restore_point().len(), new.graph.tasks.len(), "one snapshot per task");
        assert!(new.latest_cut().is_some_and(|c| c.consistent()));
        lines(&mut new, &["end"]);
        let (once, lost) = state_verdicts(&new);
        if !counted.is_empty() {
            let l = new.ledger();
            let incomplete = l.complete_labels(Completeness::Incomplete);
            assert!(
                counted.iter().all(|c| incomplete.contains(&c.as_str())),
                "auto {auto}: the dropped records are incomplete at Count"
            );
        }
        let mut lost_sorted = lost.clone();
        lost_sorted.sort();
        let mut counted_sorted = counted.clone();
        counted_sorted.sort();
        assert_eq!(lost_sorted, counted_sorted, "auto {auto}: lost are exactly those the dropped state held");
        assert_eq!(once.len() + lost.len(), 8);
    }
}

/// With uids everywhere, the same insertion maps every state and every record is counted once.
#[test]
fn with_uids_the_state_maps() {
    for auto in [0u64, 7, 14] {
        let mut old = sim("line-uids", Settings::new(Strategy::Aligned), 2);
        let sp = stop_with_savepoint(&mut old, auto);
        for filter_uid in [Some("filter"), None] {
            let (mut new, plan, _) = old.restore_into(sp, &with_filter(&old.graph.spec, filter_uid), false).unwrap();
            assert!(plan.rows.iter().all(|r| r.fate == StateFate::Kept), "{:?}", plan.rows);
            lines(&mut new, &["end"]);
            let l = new.ledger();
            assert_eq!((l.state.exactly_once, l.state.lost, l.state.duplicated, l.state.pending), (8, 0, 0, 0));
        }
    }
}

fn keyed_count_at(spec: &JobSpec, p: u16) -> JobSpec {
    let mut s = spec.clone();
    s.operators.iter_mut().find(|o| o.name == "Count").unwrap().parallelism = p;
    s
}

/// Per key: (subtask holding it, its count), over the Count subtasks of `sim`.
fn key_places(sim: &Sim) -> Vec<(String, u16, usize)> {
    let mut v = Vec::new();
    for (t, info) in sim.graph.tasks.iter().enumerate() {
        if let OpState::Keyed { entries } = &sim.tasks()[t].state {
            for (k, e) in entries.iter() {
                v.push((sim.graph.key_name(*k).to_string(), info.subtask, e.contributors.len()));
            }
        }
    }
    v.sort();
    v
}

/// Rescaling Count 2 -> 3 and 3 -> 2 moves whole key groups and keeps every key's count: right
/// after the restore each key sits in the subtask owning its key group, with the count it had.
#[test]
fn rescaling_keeps_every_keys_count() {
    for (from, to) in [(2u16, 3u16), (3, 2), (2, 1), (1, 4)] {
        let base = builtin("keyed-count").unwrap();
        let scenario = Scenario {
            job: JobRef::Custom(keyed_count_at(&base.spec, from)),
            input: Some(base.input.clone()),
            ..Scenario::builtin("keyed-count", Settings::new(Strategy::Aligned), 5)
        };
        let mut old = scenario.sim().unwrap();
        let sp = stop_with_savepoint(&mut old, 9);
        let before: Vec<(String, usize)> = key_places(&old).into_iter().map(|(k, _, n)| (k, n)).collect();
        let (mut new, plan, _) = old.restore_into(sp, &keyed_count_at(&old.graph.spec, to), false).unwrap();
        assert_eq!(plan.rows[1].new_parallelism, Some(to));
        let after = key_places(&new);
        assert_eq!(after.iter().map(|(k, _, n)| (k.clone(), *n)).collect::<Vec<_>>(), before, "{from}->{to}");
        for (k, sub, _) in &after {
            assert_eq!(*sub, subtask_for_key(k, 128, to), "{from}->{to}: key {k}");
        }
        lines(&mut new, &["end"]);
        let l = new.ledger();
        assert_eq!((l.state.exactly_once, l.state.lost, l.state.duplicated), (8, 0, 0), "{from}->{to}");
        assert!(l.complete_and_in_order(), "{from}->{to}: the history that counts starts from the restored state");
    }
    // The lesson's picture: x is in key group 55, owned by subtask 0 of 2 and subtask 1 of 3.
    assert_eq!(assign_to_key_group("x", 128), 55);
    assert_eq!((subtask_for_key("x", 128, 2), subtask_for_key("x", 128, 3)), (0, 1));
}

/// A max parallelism set to another value is refused with Flink's message; left unset, the new
/// program takes the saved one. A saved max parallelism below the new parallelism is refused.
#[test]
fn a_changed_max_parallelism_is_refused() {
    let base = builtin("keyed-count").unwrap();
    let with_max = |p: u16, max: Option<u16>| {
        let mut s = keyed_count_at(&base.spec, p);
        s.operators[1].max_parallelism = max;
        s
    };
    let old_with = |max: Option<u16>| {
        let scenario = Scenario {
            job: JobRef::Custom(with_max(2, max)),
            input: Some(base.input.clone()),
            ..Scenario::builtin("keyed-count", Settings::new(Strategy::Aligned), 8)
        };
        let mut old = scenario.sim().unwrap();
        let sp = stop_with_savepoint(&mut old, 10);
        (old, sp)
    };
    let (old, sp) = old_with(None);
    let err = old.restore_into(sp, &with_max(2, Some(64)), false).unwrap_err();
    let id = operator_ids(&old.graph.spec)[1];
    assert_eq!(
        err,
        Refusal::MaxParallelismMismatch {
            pointer: format!("file:/savepoints/savepoint-{}", sp.0),
            id,
            saved: 128,
            new: 64
        }
    );
    assert!(err
        .message()
        .contains("Max parallelism mismatch between checkpoint/savepoint state and new program. Cannot map operator"));
    assert!(old.restore_into(sp, &with_max(3, Some(128)), false).is_ok());

    let (old, sp) = old_with(Some(16));
    let (new, plan, _) = old.restore_into(sp, &with_max(3, None), false).unwrap();
    assert_eq!(plan.graph.max_parallelism[1], 16, "unset, it takes the saved max parallelism");
    assert_eq!(new.graph.max_parallelism[1], 16);
    for (k, sub, _) in key_places(&new) {
        assert_eq!(sub, subtask_for_key(&k, 16, 3));
    }

    let (old, sp) = old_with(Some(2));
    let err = old.restore_into(sp, &with_max(3, None), false).unwrap_err();
    assert_eq!(err.id(), "max-parallelism-too-low");
    assert!(err
        .message()
        .contains("The maximum parallelism (2) of the restored state is lower than the configured parallelism (3)"));
}

/// keyed-shuffle's hash edges route as Flink's `KeyGroupStreamPartitioner`: after the
/// failure-free run, each key's count is in the subtask owning its key group (128 key groups,
/// two subtasks: x is in key group 55, so Count[0]; y in 106 and z in 65, so Count[1]), with
/// every record of that key. Under the older `key % n` z was in Count[0].
#[test]
fn keyed_shuffle_routes_by_key_group() {
    let mut s = sim("keyed-shuffle", Settings::new(Strategy::Aligned), 3);
    lines(&mut s, &["end"]);
    assert_eq!(
        [("x", 55), ("y", 106), ("z", 65)].map(|(k, _)| (k, assign_to_key_group(k, 128))),
        [("x", 55), ("y", 106), ("z", 65)]
    );
    let places = key_places(&s);
    let want: Vec<(String, u16, usize)> =
        [("x", 0, 4), ("y", 1, 4), ("z", 1, 4)].iter().map(|(k, sub, n)| (k.to_string(), *sub, *n)).collect();
    assert_eq!(places, want);
    for (k, sub, _) in &places {
        assert_eq!(*sub, subtask_for_key(k, 128, 2), "{k}");
    }
}

/// Source offsets (operator state) go back to the same subtasks; a changed source parallelism is
/// the simulator's refusal; a keyed operator rescales behind a hash edge, and is refused behind a
/// rebalance edge.
#[test]
fn source_offsets_and_the_simulators_limits() {
    let mut old = sim("keyed-shuffle", Settings::new(Strategy::Aligned).with_sink(SinkMode::Append), 4);
    let sp = stop_with_savepoint(&mut old, 15);
    let offsets = |s: &Sim| s.graph.sources().map(|t| s.source_offset(t)).collect::<Vec<_>>();
    let (mut new, plan, _) = old.restore_into(sp, &old.graph.spec.clone(), false).unwrap();
    assert_eq!(offsets(&new), offsets(&old));
    assert!(plan.rows.iter().all(|r| r.fate == StateFate::Kept || !r.has_state));
    lines(&mut new, &["end"]);
    assert_eq!(new.ledger().state.lost + new.ledger().state.duplicated, 0);

    // keyed-shuffle's hash edges route by key group, so its Count rescales: 2 -> 3 keeps every
    // key's count, and every record is counted once.
    let mut spec = old.graph.spec.clone();
    spec.operators[1].parallelism = 3;
    let (mut rescaled, _, _) = old.restore_into(sp, &spec, false).unwrap();
    lines(&mut rescaled, &["end"]);
    assert_eq!(rescaled.ledger().state.lost + rescaled.ledger().state.duplicated, 0);
    // A Count whose input is not keyed (rebalance) can't rescale: Flink keeps keyed state only
    // behind keyBy.
    spec.edges[0].partitioning = Partitioning::Rebalance;
    let err = old.restore_into(sp, &spec, false).unwrap_err();
    assert_eq!(err.id(), "not-key-group-routed");
    assert!(err.message().contains("Keyed state can only be used on a 'keyed stream'"), "{}", err.message());
    let mut spec = old.graph.spec.clone();
    spec.operators[0].parallelism = 1;
    assert_eq!(old.restore_into(sp, &spec, false).unwrap_err().id(), "source-rescaled");
}

/// The property (1,000 cases): any savepoint of keyed-count at any parallelism, restored at any
/// parallelism up to the max parallelism (and the simulator's limit of 8), ends exactly once
/// against the new program's failure-free run, and every key's state lands in the subtask owning
/// its key group.
#[test]
fn any_rescale_ends_exactly_once_with_keys_at_their_key_groups_owner() {
    let base = builtin("keyed-count").unwrap();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut moved = 0;
    for case in 0..1_000u64 {
        let max = [None, Some(4u16), Some(8), Some(16), Some(5)][next(5) as usize];
        let limit = max.unwrap_or(128).min(8);
        let (p_old, p_new) = (1 + next(limit as u64) as u16, 1 + next(limit as u64) as u16);
        let per_partition = 1 + next(14) as usize;
        let mut spec = keyed_count_at(&base.spec, p_old);
        spec.operators[1].max_parallelism = max;
        let input = generated_input(&spec, per_partition);
        let strategy = [Strategy::Aligned, Strategy::AtLeastOnce, Strategy::StopTheWorld][next(3) as usize];
        let mut settings = Settings::new(strategy);
        if next(2) == 0 {
            settings.checkpoint_interval = Some(3 + next(5));
        }
        let scenario = Scenario {
            job: JobRef::Custom(spec.clone()),
            input: Some(input),
            ..Scenario::builtin("keyed-count", settings, case)
        };
        let mut old = scenario.sim().unwrap();
        let sp = stop_with_savepoint(&mut old, next(40));
        let mut new_spec = keyed_count_at(&spec, p_new);
        if next(2) == 0 {
            new_spec.operators[1].max_parallelism = None;
        }
        let (mut new, _, _) = match old.restore_into(sp, &new_spec, false) {
            Ok(x) => x,
            Err(e) => panic!("case {case}: {e}"),
        };
        let effective = max.unwrap_or(128);
        for (k, sub, _) in key_places(&new) {
            assert_eq!(sub, subtask_for_key(&k, effective, p_new), "case {case}: key {k} after the restore");
            moved += (sub != subtask_for_key(&k, effective, p_old)) as u32;
        }
        lines(&mut new, &["end"]);
        let l = new.ledger();
        assert_eq!(
            (l.state.lost, l.state.duplicated, l.state.pending),
            (0, 0, 0),
            "case {case}: {p_old}->{p_new}, max {max:?}, {strategy:?}"
        );
        for (k, sub, _) in key_places(&new) {
            assert_eq!(sub, subtask_for_key(&k, effective, p_new), "case {case}: key {k} at the end");
        }
    }
    assert!(moved > 100, "rescales that move keys happen ({moved})");
}

/// A session restored into a changed program saves and opens again exactly: the saved run keeps
/// the run before, the savepoint and the new program, and replays them.
#[test]
fn a_restored_session_saves_and_replays() {
    use barrierscope::classroom::run_config::RunConfig;
    use barrierscope::classroom::session::{Command, Session};
    use barrierscope::engine::core::lang::Lang;
    let config =
        RunConfig { job: "keyed-count".into(), settings: Settings::new(Strategy::Aligned), seed: 3, records: None };
    let mut s = Session::new(config).unwrap();
    for _ in 0..7 {
        s.handle(Command::Tick);
    }
    s.handle(Command::Act(Action::StopWithSavepoint));
    while s.sim().stopped().is_none() {
        assert!(s.handle(Command::Tick));
    }
    let from = s.sim().savepoints().last().unwrap().checkpoint.id;
    let (mut r, plan) = s.restore_into(from, &keyed_count_at(&s.sim().graph.spec, 3), false).unwrap();
    assert_eq!(plan.rows.len(), 2);
    for _ in 0..5 {
        r.handle(Command::Tick);
    }
    let text = serde_json::to_string(&r.save(Lang::En)).unwrap();
    assert!(text.contains("\"restore\""), "{text}");
    let (back, _) = Session::load(&text).unwrap();
    assert_eq!(back.sim().tasks(), r.sim().tasks());
    assert_eq!(back.sim().ledger(), r.sim().ledger());
    assert_eq!(back.sim().graph.spec.operators[1].parallelism, 3);
    r.handle(Command::ToEnd);
    assert_eq!(r.sim().ledger().state.exactly_once, 8);
    // Reset goes back to the job itself, unchanged.
    r.handle(Command::Reset);
    assert!(r.change.is_none());
    assert_eq!(r.sim().graph.spec.operators[1].parallelism, 2);
}

/// Issue 49, item 3. Follows Flink's `HeapKeyedStateBackend` / `HeapSnapshotStrategy` (a keyed
/// operator registers its state when it opens, and a snapshot writes a registered state's meta
/// information even with no key in it, so `OperatorSubtaskState.hasState()` is true) and
/// `Checkpoints.loadAndValidateCheckpoint` (state with no operator to go to is refused without
/// `--allowNonRestoredState`). The old simulator counted a Count without keys as stateless and
/// restored in silence.
#[test]
fn a_keyed_operator_without_keys_still_has_state() {
    let mut old = sim("line-sink", Settings::new(Strategy::Aligned), 1);
    let sp = stop_with_savepoint(&mut old, 0);
    let saved = old.savepoints().last().unwrap().checkpoint.clone();
    assert!(
        saved.snapshots.iter().all(|s| !matches!(&s.state, OpState::Keyed { entries } if !entries.is_empty())),
        "Count holds no key yet"
    );
    let count = old.graph.spec.operators.iter().position(|o| o.name == "Count").unwrap();
    let keys = old.graph.keys.clone();
    let without = barrierscope::classroom::program_edit::apply(
        &old.graph.spec,
        &barrierscope::classroom::program_edit::Edit::Remove(count),
        &keys,
    );
    let err = old.restore_into(sp, &without, false).unwrap_err();
    assert!(matches!(&err, Refusal::NotAvailable { operator, .. } if operator == "Count"), "{err:?}");
    let (_, plan, _) = old.restore_into(sp, &without, true).unwrap();
    let row = plan.rows.iter().find(|r| r.operator == "Count").unwrap();
    assert!(row.has_state);
    assert_eq!(row.fate, StateFate::Dropped);
}

/// Issue 49, item 4. Follows Flink's `StreamGraphHasherV2` (a node without a uid hashes its
/// place in the breadth-first traversal, once more per chainable out-edge, then mixes in its
/// inputs' hashes), `Checkpoints.loadAndValidateCheckpoint` (state goes by id alone) and
/// `StreamTaskStateInitializerImpl` (a Filter builds no keyed state backend, so keyed state
/// handed to it is never read). On `line-sink` a Filter inserted before Count takes Count's
/// place and chains to its successor as Count chained to Sink: it gets Count's old id. Flink
/// restores without `--allowNonRestoredState` and without a word, and Count starts empty. The
/// old simulator refused with a message of its own, even with the option.
#[test]
fn a_filter_that_takes_counts_id_loses_counts_state_in_silence() {
    use barrierscope::classroom::program_edit::{apply, Edit};
    let mut old = sim("line-sink", Settings::new(Strategy::Aligned), 1);
    let sp = stop_with_savepoint(&mut old, 12);
    let saved = old.savepoints().last().unwrap().checkpoint.clone();
    let counted: Vec<String> = saved
        .snapshots
        .iter()
        .flat_map(|s| match &s.state {
            OpState::Keyed { entries } => entries.values().flat_map(|e| e.contributors.clone()).collect(),
            _ => vec![],
        })
        .map(|r| old.graph.label(r).to_string())
        .collect();
    assert!(!counted.is_empty(), "Count had counted records when the savepoint was taken");
    let new_spec = apply(&old.graph.spec, &Edit::InsertFilter, &old.graph.keys);
    let old_ids = operator_ids(&old.graph.spec);
    let new_ids = operator_ids(&new_spec);
    let pos = |s: &JobSpec, n: &str| s.operators.iter().position(|o| o.name == n).unwrap();
    assert_eq!(
        new_ids[pos(&new_spec, "Filter")],
        old_ids[pos(&old.graph.spec, "Count")],
        "the Filter takes Count's id"
    );
    assert_ne!(new_ids[pos(&new_spec, "Count")], old_ids[pos(&old.graph.spec, "Count")]);
    for allow in [false, true] {
        let (mut new, plan, _) = old.restore_into(sp, &new_spec, allow).unwrap();
        let row = plan.rows.iter().find(|r| r.operator == "Count").unwrap();
        assert_eq!((row.target.as_deref(), row.fate), (Some("Filter"), StateFate::Unread));
        assert!(plan.rows.iter().all(|r| r.fate != StateFate::Refused && r.fate != StateFate::Dropped));
        lines(&mut new, &["end"]);
        let (_, mut lost) = state_verdicts(&new);
        lost.sort();
        let mut want = counted.clone();
        want.sort();
        assert_eq!(lost, want, "the records Count had counted are lost, with no refusal");
    }
}

/// Issue 49, item 5: on `two-inputs` Count has two inputs, and one Filter before it would have to
/// merge them; the edit built `Filter -> Count` twice, an invalid job. It is refused, and names why.
#[test]
fn a_filter_is_not_inserted_before_a_keyed_operator_with_two_inputs() {
    use barrierscope::classroom::program_edit::{apply, insert_filter_refusal, Edit};
    let old = sim("two-inputs", Settings::new(Strategy::Aligned), 1);
    let spec = &old.graph.spec;
    let (en, zh) = insert_filter_refusal(spec).expect("refused");
    assert!(en.contains("two inputs") && zh.contains("两个输入"));
    assert_eq!(&apply(spec, &Edit::InsertFilter, &old.graph.keys), spec, "the refused edit changes nothing");
    assert!(Edit::parse(spec, "insert-filter").unwrap_err().contains("two inputs"));
    let line = sim("line-sink", Settings::new(Strategy::Aligned), 1);
    assert_eq!(insert_filter_refusal(&line.graph.spec), None);
}

/// Issue 49, item 7. Follows `StreamGraphHasherV2.generateDeterministicHash`: a node's generated
/// id hashes its place once more per chainable out-edge, so an insertion downstream can change an
/// upstream id. On `keyed-shuffle` Source reaches Count by a hash edge (not chainable); a Filter
/// chained after Source gives Source a chainable out-edge, and Source's id changes. Lesson 15
/// says so, and no longer says a new max parallelism sends every key elsewhere (only an
/// explicitly set, different one is refused, and it moves keys, not necessarily every key).
#[test]
fn an_insertion_can_change_an_upstream_id_and_lesson_15_says_so() {
    use barrierscope::classroom::program_edit::{apply, Edit};
    let old = sim("keyed-shuffle", Settings::new(Strategy::Aligned), 1);
    let new_spec = apply(&old.graph.spec, &Edit::InsertFilter, &old.graph.keys);
    let pos = |s: &JobSpec, n: &str| s.operators.iter().position(|o| o.name == n).unwrap();
    assert_ne!(
        operator_ids(&new_spec)[pos(&new_spec, "Source")],
        operator_ids(&old.graph.spec)[pos(&old.graph.spec, "Source")]
    );
    let lesson =
        std::fs::read_to_string(format!("{}/lessons/15-changed-program.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert!(lesson.contains("a Filter chained after keyed-shuffle's Source changes Source's id"));
    assert!(lesson.contains("keyed-shuffle 的 Source 之后链接一个 Filter，Source 的 id 就变了"));
    assert!(!lesson.contains("every key to another key group") && !lesson.contains("把每个键都分到别的键组"));
}

/// Issue 49, item 4: lesson 15 tells the silent loss (the room shows it on line-sink), in both
/// languages.
#[test]
fn lesson_15_tells_that_a_filter_can_take_counts_id() {
    let lesson =
        std::fs::read_to_string(format!("{}/lessons/15-changed-program.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert!(lesson.contains("the inserted Filter gets exactly Count's generated id"));
    assert!(lesson.contains("插入的 Filter 恰好得到 Count 原来自动生成的 id"));
}
