//! Property tests of the quizzes (issue 35): over 1,000 seeds per question type, every question
//! that is generated has exactly the answer the engine computes when the question's run is
//! replayed independently of the generator (the ledger of a replay through a `Timeline`; a brute
//! force over the space-time diagram's arrows for cuts; a model of Flink's HA services for the
//! restored checkpoint), is not trivial (some option right, some wrong), grades its own answer
//! right and any other answer wrong, and is the same when generated again. Rejected seeds are
//! few, so a set of ten always fills.
#![cfg(not(target_arch = "wasm32"))]

use barrierscope::classroom::quiz::{self, Kind, Question, QuizSet, SET_SIZE};
use barrierscope::engine::space_time::{diagram, Carries};
use barrierscope::engine::{Action, CheckpointRetention, HighAvailability, Sim, Timeline, Verdict};

const SEEDS: u64 = 1000;

/// The question's run, replayed from its configuration and actions.
fn replay(q: &Question) -> Timeline {
    let start = q.run.scenario().sim().expect("the question's configuration runs");
    Timeline::from_actions(start, &q.actions)
        .unwrap_or_else(|(i, e)| panic!("seed {}: action {i} refused: {e}", q.seed))
}

/// The labels of the ticked options.
fn right_labels(q: &Question) -> Vec<String> {
    q.answer().into_iter().map(|i| q.choices[i].words.en.clone()).collect()
}

/// Every common property; returns how many seeds were rejected.
fn each(kind: Kind, check: impl Fn(&Question)) -> u64 {
    let mut rejected = 0;
    for seed in 0..SEEDS {
        let Some(q) = quiz::generate(kind, seed) else {
            rejected += 1;
            continue;
        };
        assert_eq!(q.kind, kind);
        assert!(q.non_trivial(), "seed {seed}: trivial: {:?}", q.choices);
        let answer = q.answer();
        assert!(q.grade(&answer).right, "seed {seed}");
        // Any one option flipped is graded wrong.
        for i in 0..q.choices.len() {
            let mut other: Vec<usize> = answer.iter().copied().filter(|&j| j != i).collect();
            if !answer.contains(&i) {
                other.push(i);
            }
            let g = q.grade(&other);
            assert!(!g.right, "seed {seed}: flipping option {i} still right");
            assert_eq!(g.missed.len() + g.wrong.len(), 1, "seed {seed}");
        }
        assert!(!q.explanation.en.is_empty() && !q.explanation.zh.is_empty(), "seed {seed}");
        assert_eq!(quiz::generate(kind, seed).as_ref(), Some(&q), "seed {seed}: not deterministic");
        check(&q);
    }
    assert!(rejected * 2 < SEEDS, "{kind:?}: {rejected} of {SEEDS} seeds rejected");
    rejected
}

#[test]
fn lost_or_duplicated_is_what_the_ledger_of_a_replay_says() {
    let rejected = each(Kind::LostOrDuplicated, |q| {
        let tl = replay(q);
        let ledger = tl.current().ledger();
        let of = |v: Verdict| -> Vec<String> { ledger.state_labels(v).into_iter().map(String::from).collect() };
        let asked = if q.prompt.en.contains("lost?") { Verdict::Lost } else { Verdict::Duplicated };
        assert_eq!(right_labels(q), of(asked), "seed {}", q.seed);
        assert_eq!(of(Verdict::Pending), Vec::<String>::new(), "seed {}: the run reached its end", q.seed);
        let labels: Vec<&str> = ledger.rows.iter().map(|r| r.label.as_str()).collect();
        let options: Vec<&str> = q.choices.iter().map(|c| c.words.en.as_str()).collect();
        assert_eq!(options, labels, "seed {}: one option per record", q.seed);
        assert!(q.actions.contains(&Action::Crash) && q.actions.contains(&Action::Restore));
    });
    eprintln!("lost-or-duplicated: {rejected} of {SEEDS} seeds rejected");
}

#[test]
fn consistent_cuts_are_those_no_record_arrow_crosses_backwards() {
    let rejected = each(Kind::ConsistentCut, |q| {
        let tl = replay(q);
        let d = diagram(&tl);
        assert_eq!(q.cuts.len(), q.choices.len());
        for (cut, choice) in q.cuts.iter().zip(&q.choices) {
            // Brute force over the arrows: an orphan is a record received at or before its
            // receiver's point yet sent after its sender's.
            let orphan = d.messages.iter().any(|m| {
                matches!(m.carries, Carries::Record { .. })
                    && m.sent_at > cut[m.from.index()]
                    && m.received_at.is_some_and(|r| r <= cut[m.to.index()])
            });
            assert_eq!(choice.right, !orphan, "seed {}: cut {cut:?}", q.seed);
        }
        let mut distinct = q.cuts.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), q.cuts.len(), "seed {}: the same cut twice", q.seed);
    });
    eprintln!("consistent-cut: {rejected} of {SEEDS} seeds rejected");
}

#[test]
fn the_restore_after_a_jobmanager_failure_uses_what_flinks_ha_services_keep() {
    let rejected = each(Kind::WhichCheckpoint, |q| {
        // The model: replay to the JobManager's crash; the latest completed checkpoint then is
        // restored with a standby (the HA store keeps its pointer), and without HA only if the
        // retention externalized it; else nothing.
        let crash = q.actions.iter().position(|a| *a == Action::CrashJobManager).expect("the JobManager crashes");
        let mut sim: Sim = q.run.scenario().sim().unwrap();
        for a in &q.actions[..crash] {
            sim.step(*a).unwrap();
        }
        let latest = sim.storage().completed.last().map(|c| c.id.0);
        let s = &q.run.settings;
        let kept = match s.high_availability {
            HighAvailability::Standby => true,
            HighAvailability::None => {
                s.externalized_checkpoint_retention != CheckpointRetention::NoExternalizedCheckpoints
            }
        };
        let expected = match latest.filter(|_| kept) {
            Some(id) => format!("Checkpoint {id}"),
            None => {
                "None: a plain resubmission (without -s) starts every task empty, the sources from offset 0".to_string()
            }
        };
        assert_eq!(right_labels(q), vec![expected], "seed {}", q.seed);
        // The options are every checkpoint triggered, then none.
        let ids: Vec<String> = sim.stats.history.iter().map(|r| format!("Checkpoint {}", r.id.0)).collect();
        let options: Vec<String> = q.choices.iter().map(|c| c.words.en.clone()).collect();
        assert_eq!(options[..options.len() - 1], ids[..], "seed {}", q.seed);
    });
    eprintln!("which-checkpoint: {rejected} of {SEEDS} seeds rejected");
}

#[test]
fn the_append_sink_count_is_the_external_rows_of_an_independent_replay_of_each_system() {
    use barrierscope::classroom::quiz::append_sink::comparison;
    use barrierscope::engine::comparison::Lockstep;
    use barrierscope::engine::core::rng::Rng;
    let rejected = each(Kind::AppendSink, |q| {
        // The asked system's run, replayed step by step on a fresh Sim of its own.
        let tl = replay(q);
        let label = q.prompt.en.trim_end_matches('?').rsplit(' ').next().unwrap().to_string();
        let shown = tl.current().ledger().row(&label).expect("the record is in the ledger").external;
        let right = q.answer();
        assert_eq!(right.len(), 1);
        let n: u32 = q.choices[right[0]].words.en.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(n, shown, "seed {}: {label}", q.seed);
        // The options count up from 0, one each, to at least 3.
        for (i, c) in q.choices.iter().enumerate() {
            assert!(c.words.en.starts_with(&format!("{i} time")), "seed {}: {:?}", q.seed, c.words.en);
        }
        assert!(q.choices.len() >= 4);
        // Not trivial: some system does not show it exactly once (each run replayed alone).
        let file = comparison(&mut Rng::new(q.seed));
        let lock = Lockstep::run(&file).unwrap();
        let counts: Vec<u32> = lock
            .lanes
            .iter()
            .zip(&file.configurations)
            .map(|(lane, c)| {
                let mut config = q.run.clone();
                config.settings = c.settings.clone();
                let acts: Vec<Action> = lane.log.iter().map(|st| st.action).collect();
                let tl = Timeline::from_actions(config.scenario().sim().unwrap(), &acts).unwrap();
                tl.current().ledger().row(&label).unwrap().external
            })
            .collect();
        assert!(counts.iter().any(|&c| c != 1), "seed {}: {label} once everywhere: {counts:?}", q.seed);
        assert!(counts.contains(&shown), "seed {}", q.seed);
    });
    eprintln!("append-sink: {rejected} of {SEEDS} seeds rejected");
}

#[test]
fn a_set_is_ten_questions_every_type_in_turn_and_the_same_for_its_seed() {
    for seed in 0..20 {
        let set = QuizSet::new(seed);
        assert_eq!(set.questions.len(), SET_SIZE, "set {seed}");
        for (i, q) in set.questions.iter().enumerate() {
            assert_eq!(q.kind, Kind::ALL[i % Kind::ALL.len()], "set {seed}, question {i}");
        }
        assert_eq!(QuizSet::new(seed), set, "set {seed}");
    }
    assert_ne!(QuizSet::new(1).questions[0], QuizSet::new(2).questions[0]);
    assert_eq!(QuizSet::score(&[Some(true), Some(false), None, Some(true)]), (2, 3));
}

/// The room draws a set a slice at a time (`SetDraw`, at most a few hundred of the explorer's
/// states a slice); the set is the one `QuizSet::new` draws at once, question for question. Each
/// side runs on a thread of its own, so that neither finds the other's explorations cached.
#[test]
fn a_set_drawn_in_slices_is_the_set_drawn_at_once() {
    let sets: Vec<u64> = (0..12).collect();
    let at_once = std::thread::spawn({
        let sets = sets.clone();
        move || sets.iter().map(|&s| QuizSet::new(s)).collect::<Vec<_>>()
    });
    let (mut slices, mut longest) = (0usize, 0usize);
    let sliced: Vec<QuizSet> = sets
        .iter()
        .map(|&s| {
            let mut draw = quiz::SetDraw::new(s);
            let mut n = 0;
            while draw.step(200) {
                n += 1;
            }
            slices += n;
            longest = longest.max(n);
            assert!(draw.done());
            draw.set
        })
        .collect();
    assert_eq!(sliced, at_once.join().unwrap());
    // Some set waited on its explorations over many slices (the diamond's, under per-task timers,
    // is about 8,000 states).
    assert!(longest > 20, "{slices} slices in all; the most for one set {longest}");
}

#[test]
fn stored_history_and_progress_read_back_and_bad_data_is_dropped_not_an_error() {
    use barrierscope::classroom::quiz::history::*;
    let p = Progress { set: 42, answers: vec![true, false, true] };
    assert_eq!(Progress::parse(&p.to_text()), Some(p));
    for bad in ["", "42", "x:rr", "42:rx", "42:rrrrrrrrrrr", "-1:r", "9999999999:r", "{\"set\":1}"] {
        assert_eq!(Progress::parse(bad), None, "{bad:?}");
    }
    let past: Vec<Past> = (0..25).map(|i| Past { set: i, right: (i % 11) as usize, of: 10 }).collect();
    let text = history_text(&past);
    assert_eq!(parse_history(&text), past[25 - HISTORY_KEPT..].to_vec());
    // Bad entries are dropped one by one; the good ones stay.
    let mixed = "7:3/10 junk 8:11/10 9:2/3 :1/2 10:a/10 11:10/10";
    assert_eq!(
        parse_history(mixed),
        vec![Past { set: 7, right: 3, of: 10 }, Past { set: 9, right: 2, of: 3 }, Past { set: 11, right: 10, of: 10 }]
    );
    assert_eq!(parse_history("\u{0}\u{ffff}"), vec![]);
    assert_eq!(parse_set("0042"), Ok(42));
    assert_eq!(parse_set(" 7 "), Ok(7));
    assert_eq!(parse_set(""), Err(SetError::Empty));
    assert!(matches!(parse_set("12a"), Err(SetError::NotANumber(_))));
    assert!(matches!(parse_set("-3"), Err(SetError::NotANumber(_))));
    assert!(matches!(parse_set("1000000000"), Err(SetError::TooLarge(_))));
    assert!(matches!(parse_set("99999999999999999999999"), Err(SetError::TooLarge(_))));
    assert_eq!(set_in_link("set=5"), Some(Ok(5)));
    assert_eq!(set_in_link("x=1&set=6"), Some(Ok(6)));
    assert_eq!(set_in_link("other=1"), None);
    assert!(matches!(set_in_link("set=abc"), Some(Err(_))));
    for e in [SetError::Empty, SetError::NotANumber("x".into()), SetError::TooLarge("1".into())] {
        assert_ne!(e.message(barrierscope::engine::Lang::En), e.message(barrierscope::engine::Lang::Zh));
    }
}

#[test]
fn a_savepoint_restores_exactly_when_every_saved_state_finds_its_operator_id_and_max_parallelism() {
    use barrierscope::classroom::quiz::savepoint_restore::{draw, Outcome, OUTCOMES};
    use barrierscope::engine::program::operator_id::operator_ids;
    use barrierscope::engine::program::rescale::fresh_state;
    let rejected = each(Kind::SavepointRestore, |q| {
        let d = draw(q.seed).expect("drawn");
        // The replayed run stopped with the same savepoint.
        let tl = replay(q);
        assert!(tl.current().stopped().is_some(), "seed {}", q.seed);
        let old = &d.sim.graph;
        let new_spec = d.change.apply(&old.spec);
        let (old_ids, new_ids) = (operator_ids(&old.spec), operator_ids(&new_spec));
        let sp = d.sim.savepoints().iter().find(|s| s.checkpoint.id == d.savepoint).expect("the savepoint");
        // Issue 49, item 8: a uid change gives Count another uid than the one it has.
        if let barrierscope::classroom::quiz::savepoint_restore::Change::Uid(u) = &d.change {
            let count = old.spec.operators.iter().find(|o| o.name == "Count").unwrap();
            assert_ne!(count.uid.as_deref(), Some(u.as_str()), "seed {}: the uid changes", q.seed);
        }
        // The model, after Flink's Checkpoints.loadAndValidateCheckpoint: an operator holds state
        // when a snapshot of one of its tasks differs from a fresh task's, and a keyed operator
        // always (issue 49, item 3: it registers its state when it opens, and HeapSnapshotStrategy
        // writes it even with no key).
        let stateful = |oi: usize| {
            old.spec.operators[oi].kind.is_stateful()
                || sp.checkpoint.snapshots.iter().any(|s| {
                    old.task(s.task).operator.index() == oi && s.state != fresh_state(old, s.task, d.sim.settings.sink)
                })
        };
        let unmatched = (0..old.spec.operators.len()).any(|oi| !new_ids.contains(&old_ids[oi]) && stateful(oi));
        let mismatch = (0..old.spec.operators.len()).any(|oi| {
            new_ids
                .iter()
                .position(|h| *h == old_ids[oi])
                .is_some_and(|ni| new_spec.operators[ni].max_parallelism.is_some_and(|m| m != old.max_parallelism[oi]))
        });
        let expected = if unmatched && !d.allow {
            Outcome::NotAvailable
        } else if mismatch {
            Outcome::MaxParallelismMismatch
        } else {
            Outcome::Restores
        };
        let right = q.answer();
        assert_eq!(OUTCOMES[right[0]], expected, "seed {}: {:?} allow {}", q.seed, d.change, d.allow);
    });
    eprintln!("savepoint-restore: {rejected} of {SEEDS} seeds rejected");
    // "Open on the canvas": a restore that goes through opens the restored job, running the new
    // program from its first step; a refused one opens the run that took the savepoint.
    let mut opened = [0usize; 2];
    for seed in 0..200 {
        let Some(q) = quiz::generate(Kind::SavepointRestore, seed) else { continue };
        let d = draw(q.seed).expect("drawn");
        let text = serde_json::to_string(&q.saved_run(barrierscope::engine::Lang::En)).unwrap();
        let (session, _) =
            barrierscope::classroom::Session::load(&text).unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        let restores = OUTCOMES[q.answer()[0]] == Outcome::Restores;
        assert_eq!(q.restore.is_some(), restores, "seed {seed}");
        if restores {
            assert_eq!(
                session.sim().graph.spec,
                d.change.apply(&d.sim.graph.spec),
                "seed {seed}: the new program runs"
            );
            assert!(
                session.sim().running() && session.timeline.len() == 0,
                "seed {seed}: at the restored job's first step"
            );
        } else {
            assert!(session.sim().stopped().is_some() && session.timeline.len() == q.actions.len(), "seed {seed}");
        }
        opened[usize::from(restores)] += 1;
    }
    assert!(opened[0] > 0 && opened[1] > 0, "both kinds open: {opened:?}");
    let mut seen = [false; 3];
    for seed in 0..SEEDS {
        if let Some(q) = quiz::generate(Kind::SavepointRestore, seed) {
            seen[q.answer()[0]] = true;
        }
    }
    assert_eq!(seen, [true; 3], "every outcome is asked");
}

#[test]
fn a_strategy_is_exactly_once_in_every_schedule_as_the_theory_says() {
    use barrierscope::engine::Strategy;
    let rejected = each(Kind::ExactlyOnceStrategy, |q| {
        // Theory: consistent cuts (aligned, unaligned with its in-flight records, stop the world)
        // are exactly once, and so is no snapshot at all with a restart from the beginning of the
        // log (every state starts empty and every record is read again); per-task timers are not,
        // under a crash; barriers without alignment are exactly once unless some task has two or
        // more inputs.
        let g = q.run.scenario().graph().unwrap();
        let merging = g.tasks.iter().any(|t| t.inputs.len() > 1);
        for c in &q.choices {
            let s = [
                Strategy::None,
                Strategy::Timers,
                Strategy::AtLeastOnce,
                Strategy::Aligned,
                Strategy::Unaligned,
                Strategy::StopTheWorld,
            ]
            .into_iter()
            .find(|&s| {
                barrierscope::classroom::quiz::exactly_once_strategy::strategy_words(s, barrierscope::engine::Lang::En)
                    == c.words.en
            })
            .expect("a strategy");
            let theory = match s {
                Strategy::Aligned | Strategy::Unaligned | Strategy::StopTheWorld | Strategy::None => true,
                Strategy::AtLeastOnce => !merging,
                _ => false,
            };
            assert_eq!(c.right, theory, "seed {}: {s:?} on {}", q.seed, q.run.job);
        }
        // What opens on the canvas is a schedule of a wrong option that ends not exactly once.
        let tl = replay(q);
        let l = tl.current().ledger();
        assert!(l.state.lost + l.state.duplicated > 0, "seed {}", q.seed);
    });
    eprintln!("exactly-once-strategy: {rejected} of {SEEDS} seeds rejected");
}

#[test]
fn a_checkpoint_under_backpressure_completes_exactly_in_the_options_whose_own_run_completes_it() {
    use barrierscope::classroom::quiz::backpressure_checkpoint::{draw, remedy_words, Remedy, TOLERABLE};
    use barrierscope::classroom::RunConfig;
    use barrierscope::engine::{AbortReason, CheckpointStatus, Lang, Settings, Strategy};
    // How often each kind of option is right, and wrong, over the seeds.
    let seen = std::cell::RefCell::new(std::collections::BTreeMap::<&str, [u32; 2]>::new());
    let rejected = each(Kind::BackpressureCheckpoint, |q| {
        let d = draw(q.seed);
        assert_eq!(q.choices.len(), d.options.len(), "seed {}", q.seed);
        assert_eq!(d.options[0], Remedy::AsSet, "seed {}: the settings as set come first", q.seed);
        let mut as_set = None;
        for (c, &r) in q.choices.iter().zip(&d.options) {
            assert_eq!(c.words.en, remedy_words(r, d.capacity, Lang::En), "seed {}", q.seed);
            // The model: the settings built here from what the option says, played by the
            // engine's own Auto step (the generator draws each step itself), then read from the
            // checkpoint statistics.
            let mut s = Settings::new(match r {
                Remedy::Unaligned => Strategy::Unaligned,
                Remedy::AtLeastOnce => Strategy::AtLeastOnce,
                _ => Strategy::Aligned,
            });
            s.record_cost.insert(d.slow.to_string(), d.cost);
            s.channel_capacity = Some(if let Remedy::Capacity { items } = r { items } else { d.capacity });
            s.buffer_debloat_target = if let Remedy::Debloated { target } = r { Some(target) } else { None };
            s.checkpoint_timeout = d.timeout;
            s.tolerable_failed_checkpoints = TOLERABLE;
            let run = RunConfig { job: d.job.into(), settings: s, seed: d.scheduler, records: Some(d.records) };
            if r == Remedy::AsSet {
                as_set = Some(run.clone());
            }
            let mut sim: Sim = run.scenario().sim().unwrap();
            for _ in 0..d.trigger {
                sim.step(Action::Auto).unwrap();
            }
            sim.step(Action::Checkpoint).unwrap();
            let mut left = d.timeout + 2;
            while sim.stats.history[0].status == CheckpointStatus::InProgress {
                assert!(left > 0, "seed {}: {r:?}: checkpoint 1 outlived its timeout", q.seed);
                sim.step(Action::Auto).unwrap();
                left -= 1;
            }
            let cp = &sim.stats.history[0];
            let took = cp.end_tick.unwrap() - cp.trigger_tick;
            match cp.status {
                CheckpointStatus::Completed => assert!(took <= d.timeout, "seed {}: {r:?} took {took}", q.seed),
                CheckpointStatus::Failed(why) => {
                    assert_eq!(why, AbortReason::Expired, "seed {}: {r:?}", q.seed);
                    assert!(took >= d.timeout, "seed {}: {r:?} expired after {took}", q.seed);
                }
                CheckpointStatus::InProgress => unreachable!(),
            }
            let completed = cp.status == CheckpointStatus::Completed;
            assert_eq!(c.right, completed, "seed {}: {r:?} on {} ({:?})", q.seed, d.job, cp);
            // Theory: only an unaligned barrier overtakes records, so only it persists any.
            if r != Remedy::Unaligned {
                assert_eq!(cp.in_flight, 0, "seed {}: {r:?}", q.seed);
            }
            let kind = match r {
                Remedy::AsSet => "as set",
                Remedy::Unaligned => "unaligned",
                Remedy::Debloated { .. } => "debloated",
                Remedy::Capacity { items } if items < d.capacity => "smaller channels",
                Remedy::Capacity { .. } => "larger channels",
                Remedy::AtLeastOnce => "at-least-once",
            };
            seen.borrow_mut().entry(kind).or_default()[usize::from(completed)] += 1;
        }
        // Open on the canvas: the run as set, replayed from the question's actions, ends checkpoint
        // 1 as the first option says, and loads as a saved run with every step.
        assert_eq!(Some(&q.run), as_set.as_ref(), "seed {}", q.seed);
        let tl = replay(q);
        let cp = &tl.current().stats.history[0];
        assert_ne!(cp.status, CheckpointStatus::InProgress, "seed {}", q.seed);
        assert_eq!(cp.status == CheckpointStatus::Completed, q.choices[0].right, "seed {}", q.seed);
        assert!(q.actions.contains(&Action::Checkpoint) && !q.actions.contains(&Action::Auto));
        let text = serde_json::to_string(&q.saved_run(Lang::En)).unwrap();
        let (session, _) = barrierscope::classroom::Session::load(&text).unwrap();
        assert_eq!(session.timeline.len(), q.actions.len(), "seed {}", q.seed);
        assert!(q.explanation.en.contains("start delay") && q.explanation.zh.contains("启动延迟"));
    });
    eprintln!(
        "backpressure-checkpoint: {rejected} of {SEEDS} seeds rejected; right/wrong by option: {:?}",
        seen.borrow()
    );
    // Every kind of option but unaligned checkpoints is right in some question and wrong in
    // another: none is the answer by its name alone. An unaligned checkpoint is always right: its
    // barrier waits for no queue, and an instance where Play's scheduler outdrew it until it
    // expired is rejected.
    for (kind, [wrong, right]) in seen.borrow().iter() {
        match *kind {
            "unaligned" => assert!(*wrong == 0 && *right > 0, "{kind}: right {right}, wrong {wrong}"),
            _ => assert!(*wrong > 0 && *right > 0, "{kind}: right {right}, wrong {wrong}"),
        }
    }
    assert_eq!(seen.borrow().len(), 6);
}
