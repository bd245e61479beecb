//! Batch recovery (issues 11 and 27): Hadoop re-runs the failed task, Spark recomputes from
//! lineage. The scenario files of `scenarios/batch/` tell the stories; two 1,000-case properties
//! check that every output record is written exactly once after any crash schedule, against the
//! failure-free run as the model; files, links and stored text round-trip, and bad text is refused
//! with its reason.
#![cfg(not(target_arch = "wasm32"))]

use barrierscope::engine::batch::data::{drop_short, lines, sum_by_key, words};
use barrierscope::engine::batch::format::{from_link_fragment, to_link_fragment};
use barrierscope::engine::batch::hadoop::HadoopSpec;
use barrierscope::engine::batch::spark::SparkSpec;
use barrierscope::engine::batch::*;
use barrierscope::engine::Lang;
use proptest::prelude::*;

mod cli;
use cli::runner;

fn open(file: &str) -> BatchRun {
    let text = std::fs::read_to_string(format!("{}/scenarios/batch/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    BatchFile::open(&text, BATCH_LESSON.len()).unwrap_or_else(|e| panic!("{file}: {e:?}")).run
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn spark(run: &BatchRun) -> &barrierscope::engine::batch::spark::Spark {
    match run.sim() {
        BatchSim::Spark(s) => s,
        _ => panic!("a Spark job"),
    }
}

fn hadoop(run: &BatchRun) -> &barrierscope::engine::batch::hadoop::Hadoop {
    match run.sim() {
        BatchSim::Hadoop(h) => h,
        _ => panic!("a Hadoop job"),
    }
}

#[test]
fn a_reduce_failure_re_runs_no_map() {
    let run = open("hadoop-reduce-fails.json");
    let h = hadoop(&run);
    assert!(h.maps.iter().all(|m| m.attempts == 1), "no map ran again");
    assert_eq!(h.reduces[0].attempts, 2);
    assert_eq!(h.reduces[1].attempts, 1);
    assert_eq!(run.sim().cost().task_runs, run.baseline.task_runs + 1);
    assert!(run.ledger().exactly_once());
}

#[test]
fn a_lost_node_re_runs_its_finished_maps() {
    let run = open("hadoop-node-lost.json");
    let h = hadoop(&run);
    // Node 1 held M1's output; R0 had committed to HDFS before the loss.
    assert_eq!(h.maps.iter().map(|m| m.attempts).collect::<Vec<_>>(), [1, 2, 1]);
    assert_eq!(h.reduces[0].attempts, 1, "a committed reduce does not run again");
    assert!(!h.nodes[1]);
    assert!(h.disk(1).is_empty());
    assert_eq!(run.sim().reran(), ["M1"]);
    assert!(run.ledger().exactly_once());
}

#[test]
fn a_lost_node_after_every_reduce_re_runs_nothing() {
    let mut run = BatchRun::new(batch_job("hadoop-wordcount").unwrap()).unwrap();
    run.run_to_end();
    run.act(BatchAction::Crash(1)).unwrap();
    assert!(run.sim().reran().is_empty());
    assert_eq!(run.act(BatchAction::Step), Err(Refusal::Done));
    assert!(run.ledger().exactly_once());
}

#[test]
fn a_lost_p10_recomputes_p00_and_p01_and_only_what_they_need() {
    // One executor: it held both shuffle outputs, so losing it climbs to P00 and P01.
    let run = open("spark-p10-lost-one-executor.json");
    assert_eq!(sorted(run.sim().reran()), ["L0", "L1", "P00", "P01", "P10", "W0", "W1"]);
    let s = spark(&run);
    let g = &s.lineage;
    assert_eq!(s.computed.get(&g.find("P11").unwrap()), Some(&1), "P11 had not been computed: computed once");
    for name in ["L0", "L1", "W0", "W1", "P00", "P01", "P10"] {
        assert_eq!(s.computed.get(&g.find(name).unwrap()), Some(&2), "{name} computed twice, no more");
    }
    assert_eq!(s.cost.fetch_failures, 1);
    assert!(run.ledger().exactly_once());
}

#[test]
fn spark_recomputes_only_the_lost_shuffle_outputs() {
    // Two executors: P01's output lives on executor 1, so only P00's side is recomputed.
    let run = open("spark-p10-lost.json");
    assert_eq!(sorted(run.sim().reran()), ["L0", "P00", "P10", "W0"]);
    assert_eq!(run.sim().cost().partitions_recomputed, 4);
    assert!(run.ledger().exactly_once());
}

#[test]
fn persist_stops_the_climb() {
    let run = open("spark-persist-stops-climb.json");
    let s = spark(&run);
    assert!(run.sim().reran().is_empty(), "W1 read from memory: nothing computed twice");
    assert_eq!(s.cost.cache_reads, 1);
    // The same failure without persist climbs to L1.
    let plain = BatchRun::with_actions(
        batch_job("spark-figure").unwrap(),
        &"s s s s s s f".split(' ').map(|c| BatchAction::from_code(c).unwrap()).collect::<Vec<_>>(),
    )
    .map(|mut r| {
        r.run_to_end();
        r
    })
    .unwrap();
    assert_eq!(sorted(plain.sim().reran()), ["L1", "W1"]);
    assert!(run.ledger().exactly_once() && plain.ledger().exactly_once());
}

#[test]
fn persist_dies_with_its_executor_checkpoint_survives() {
    let persisted = open("spark-persist-dies.json");
    assert_eq!(sorted(persisted.sim().reran()), ["L0", "P00", "P10", "W0"], "persist() died with executor 0");
    assert_eq!(persisted.sim().cost().cache_reads, 0);
    let checkpointed = open("spark-checkpoint-survives.json");
    assert_eq!(checkpointed.sim().reran(), ["P10"]);
    assert_eq!(checkpointed.sim().cost().checkpoint_reads, 1);
    assert!(persisted.ledger().exactly_once() && checkpointed.ledger().exactly_once());
}

fn script(codes: &str) -> Vec<BatchAction> {
    codes.split_whitespace().map(|c| BatchAction::from_code(c).unwrap()).collect()
}

fn checkpointed_figure(actions: u8) -> BatchSpec {
    let mut spec = batch_job("spark-figure").unwrap().with_keep(2, Keep::Checkpoint);
    if let BatchSpec::Spark(s) = &mut spec {
        s.actions = actions;
    }
    spec
}

/// Issue 49, item 1. Follows Spark's `SparkContext.runJob` (it calls `rdd.doCheckpoint()` after
/// `dagScheduler.runJob` returns), `RDD.doCheckpoint` and `ReliableRDDCheckpointData`
/// (`ReliableCheckpointRDD.writeRDDToCheckpointDirectory` runs a job of its own, which computes
/// the RDD again unless it is persisted; `markCheckpointed` then cuts the lineage). The old
/// simulator wrote P00 as soon as it was computed, so losing executor 0 while P10 ran in the
/// very action that marked P0 recomputed P10 alone.
#[test]
fn checkpoint_is_written_by_a_second_job_after_the_action() {
    // Failure-free: nothing is in reliable storage while the action runs.
    let mut run = BatchRun::new(checkpointed_figure(1)).unwrap();
    for _ in 0..12 {
        run.act(BatchAction::Step).unwrap();
        let s = spark(&run);
        assert!(!s.checkpointed(2, 0) && !s.checkpointed(2, 1), "no checkpoint file during the action");
    }
    let s = spark(&run);
    assert_eq!(s.job, spark::SparkJob::Checkpoint(2), "doCheckpoint() runs after the action's job returned");
    assert!(run.log.last().unwrap().contains(&BatchEvent::Spark(spark::SparkEvent::CheckpointJob { rdd: 2 })));
    run.run_to_end();
    let s = spark(&run);
    assert!(s.checkpointed(2, 0) && s.checkpointed(2, 1) && s.cut == Some(2));
    let g = &s.lineage;
    for name in ["L0", "W0", "P00", "L1", "W1", "P01"] {
        assert_eq!(s.computed.get(&g.find(name).unwrap()), Some(&2), "{name}: the checkpoint job computes it again");
    }
    assert!(run.sim().reran().is_empty(), "a failure-free run recomputes nothing within a job");
    assert_eq!(run.baseline.task_runs, 6, "four tasks of the action, two of the checkpoint job");

    // Executor 0 lost while P10 runs in the first action: recomputed as without a checkpoint.
    let first = open("spark-checkpoint-first-action.json");
    let plain = open("spark-p10-lost.json");
    assert_eq!(sorted(first.sim().reran()), ["L0", "P00", "P10", "W0"]);
    assert_eq!(first.sim().reran(), plain.sim().reran(), "the first action climbs as if P0 had no checkpoint");
    assert_eq!(first.sim().cost().checkpoint_reads, 0);
    assert!(first.ledger().exactly_once());

    // In the second action the checkpoint is there: P00 is read from it, only P10 is recomputed.
    let second = open("spark-checkpoint-survives.json");
    assert_eq!(second.sim().reran(), ["P10"]);
    assert_eq!(second.sim().cost().checkpoint_reads, 1);
    assert!(second.ledger().exactly_once());
    // Its job reuses the first action's shuffle outputs: failure-free, stage 0 runs once in all.
    let free = BatchRun::new(checkpointed_figure(2)).unwrap();
    assert_eq!(
        (free.baseline.map_runs, free.baseline.task_runs),
        (2, 8),
        "2 maps, 2 results, 2 checkpoint tasks, 2 results"
    );
}

/// Issue 49, item 1: `doCheckpoint` stops at the nearest marked RDD from the action's RDD
/// (`checkpointAllMarkedAncestors` is false by default), so a marked ancestor is never written.
#[test]
fn only_the_nearest_marked_rdd_is_checkpointed() {
    let spec = checkpointed_figure(2).with_keep(1, Keep::Checkpoint);
    let mut run = BatchRun::new(spec).unwrap();
    run.run_to_end();
    let s = spark(&run);
    assert!(s.checkpointed(2, 0) && !s.checkpointed(1, 0));
    assert_eq!(s.to_checkpoint(), Some(2));
}

/// Issue 49, item 2. Follows Hadoop's `JobImpl.actOnUnusableNode` (while not all reducers are
/// complete it kills the succeeded map attempts of the lost node), `MapTaskRescheduledTransition`
/// (those maps run again) and `checkReadyForCommit` (the job commits only when every task has
/// succeeded). The old simulator marked M0 to run again, then ended the job when R1 committed.
#[test]
fn a_node_lost_while_the_last_reduce_runs_re_runs_its_maps_before_the_job_commits() {
    // Maps (6 steps), R0 (2), R1 starts on node 1; node 0, which holds M0's output, is lost.
    let mut run =
        BatchRun::with_actions(batch_job("hadoop-wordcount").unwrap(), &script("s s s s s s s s s c0")).unwrap();
    let h = hadoop(&run);
    assert!(matches!(h.reduces[1].state, hadoop::TaskState::Running { node: 1 }));
    run.act(BatchAction::Step).unwrap();
    assert!(!run.sim().done(), "R1 committed, but M0 must succeed again before the job commits");
    run.run_to_end();
    let h = hadoop(&run);
    assert_eq!(h.maps.iter().map(|m| m.attempts).collect::<Vec<_>>(), [2, 1, 1]);
    assert_eq!(h.reduces.iter().map(|r| r.attempts).collect::<Vec<_>>(), [1, 1]);
    assert_eq!(run.sim().reran(), ["M0"]);
    assert_eq!(run.sim().cost().task_runs, run.baseline.task_runs + 1);
    assert!(run.ledger().exactly_once());
    assert!(run.log.last().unwrap().contains(&BatchEvent::Hadoop(hadoop::HadoopEvent::JobDone)));
}

/// Issue 49, item 9. Follows Spark's `TaskSetManager.handleFailedTask`: each failure of a task
/// that counts (`countTowardsTaskFailures`) adds to its count in the stage attempt's task set, and
/// at `spark.task.maxFailures` (4) the task set is aborted and the job fails; a `FetchFailed` does
/// not count, and a resubmitted stage is a new task set whose counts start at 0. The old
/// simulator ran attempts without limit.
#[test]
fn a_task_that_fails_four_times_aborts_the_job() {
    // P00's task fails on its first attempt, three times more, and the job is aborted.
    let mut run = BatchRun::with_actions(batch_job("spark-figure").unwrap(), &script("s f s f s f")).unwrap();
    assert!(!run.sim().done(), "three failures: the task runs again");
    run.act(BatchAction::Step).unwrap();
    run.act(BatchAction::FailTask).unwrap();
    assert!(run.sim().done());
    assert!(run.log.last().unwrap().contains(&BatchEvent::Spark(spark::SparkEvent::JobAborted {
        stage: 0,
        part: 0,
        failures: 4
    })));
    assert_eq!(run.act(BatchAction::Step), Err(Refusal::Aborted));
    assert!(wording::refusal(Lang::Zh, Refusal::Aborted, false).contains("spark.task.maxFailures"));
    let ledger = run.ledger();
    assert!(ledger.rows.iter().all(|r| r.verdict == BatchVerdict::Lost), "the failed job committed nothing");
    let said: Vec<String> = run.log.last().unwrap().iter().map(|e| wording::narrate(Lang::Zh, run.sim(), e)).collect();
    assert!(said.iter().any(|s| s.contains("spark.task.maxFailures")), "{said:?}");

    // Three failures of P10's task, then executor 0 is lost: FetchFailed (which does not count)
    // resubmits stage 0, and stage 1's new attempt counts from 0, so three more failures pass.
    let fails = "s f s f s f";
    let codes = format!("s s s s s s s s {fails} c0 s s s s s {fails}");
    let mut run = BatchRun::with_actions(batch_job("spark-figure").unwrap(), &script(&codes)).unwrap();
    assert!(!run.sim().done());
    run.run_to_end();
    assert!(run.ledger().exactly_once());
    assert_eq!(spark(&run).cost.fetch_failures, 1);
}

#[test]
fn the_runner_checks_every_batch_scenario() {
    let dir = format!("{}/scenarios/batch", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let (code, out, err) = runner(&["batch", path.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{}: {err}", path.display());
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["exactly_once"], true, "{}", path.display());
        n += 1;
    }
    assert_eq!(n, 9);
    let (code, out, _) = runner(&["batch", &format!("{dir}/spark-p10-lost.json"), "--events", "--lang", "zh"]);
    assert_eq!(code, 0);
    assert!(out.contains("FetchFailed") && out.contains("重新计算 P00"), "{out}");
}

#[test]
fn the_runner_refuses_a_broken_expectation_and_bad_files() {
    let dir = std::env::temp_dir().join(format!("bs-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text =
        std::fs::read_to_string(format!("{}/scenarios/batch/spark-p10-lost.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let wrong = dir.join("wrong.json");
    std::fs::write(&wrong, text.replace("\"W0\"", "\"W1\"")).unwrap();
    let (code, _, err) = runner(&["batch", wrong.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("expected to run again"), "{err}");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, text.replace("\"s s s s s s s s s c0\"", "\"s c7\"")).unwrap();
    let (code, _, err) = runner(&["batch", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("Action 2 (c7) was refused"), "{err}");
}

#[test]
fn files_links_and_storage_round_trip() {
    let mut run = BatchRun::new(batch_job("spark-figure").unwrap().with_keep(1, Keep::Persist)).unwrap();
    for a in "s s s s s s s s s c0 s s".split(' ') {
        run.act(BatchAction::from_code(a).unwrap()).unwrap();
    }
    run.seek(10);
    let lesson = Some(format::BatchLessonAt { step: 7, revealed: false, prediction: vec!["P10".into()] });
    let text = BatchFile::of(&run, Lang::Zh, lesson.clone()).to_text();
    let back = BatchFile::open(&text, BATCH_LESSON.len()).unwrap();
    assert_eq!(back.run, run);
    assert_eq!(back.lang, Lang::Zh);
    assert_eq!(back.lesson, lesson);
    let fragment = to_link_fragment(&text);
    assert!(fragment.starts_with("room=batch&run="));
    assert!(fragment.bytes().all(|b| b.is_ascii_alphanumeric() || b"=&-_".contains(&b)), "url-safe");
    assert_eq!(from_link_fragment(&format!("#{fragment}")).unwrap().unwrap(), text);
    assert_eq!(from_link_fragment("room=batch&run=%%%"), Some(Err(BatchLoadError::Encoding)));
    assert_eq!(from_link_fragment("run=abc"), None, "not the batch room's link");
}

#[test]
fn bad_text_is_refused_with_its_reason() {
    let ok = BatchFile::of(&BatchRun::new(batch_job("hadoop-wordcount").unwrap()).unwrap(), Lang::En, None).to_text();
    let cases: Vec<(String, &str)> = vec![
        ("not json".into(), "This is not a batch run"),
        ("{}".into(), "version field is missing"),
        (ok.replace("\"barrierscope-batch\":1", "\"barrierscope-batch\":9"), "version 9"),
        (ok.replace("\"actions\":\"\"", "\"actions\": \"s zz\""), "Action 2 (\"zz\") is not an action"),
        (ok.replace("\"actions\":\"\"", "\"actions\": \"f\""), "No task is running"),
        (ok.replace("\"actions\":\"\"", "\"actions\": \"s\", \"at\": 5"), "playhead 5"),
        (ok.replace("\"nodes\":3", "\"nodes\":0"), "\"nodes\" must be 1 to 8"),
        (ok.replace("\"splits\":3", "\"splits\":3,\"extra\":1"), "unknown field"),
        (ok.replace("\"lang\":\"en\"", "\"lang\":\"en\",\"lesson\":{\"step\":99}"), "no step 100"),
    ];
    for (text, want) in cases {
        let e = BatchFile::open(&text, BATCH_LESSON.len()).expect_err(want);
        let said = wording::load_error(Lang::En, &e);
        assert!(said.contains(want), "{said:?} should say {want:?}");
        assert!(!wording::load_error(Lang::Zh, &e).is_empty());
    }
}

#[test]
fn the_lesson_walks_and_its_prediction_has_one_answer() {
    for (i, step) in BATCH_LESSON.iter().enumerate() {
        let run = step.run();
        assert!(run.ledger().rows.iter().all(|r| r.verdict != BatchVerdict::Lost), "step {}", i + 1);
        if step.to_end {
            assert!(run.ledger().exactly_once(), "step {} ends exactly once", i + 1);
        }
    }
    let predict: Vec<&BatchStep> = BATCH_LESSON.iter().filter(|s| s.predict).collect();
    assert_eq!(predict.len(), 1);
    assert_eq!(predict[0].answer(), ["L0", "P00", "P10", "W0"]);
    // Issue 49: the checkpoint step tells the story with two actions. In the first, the loss
    // climbs as without a checkpoint; in the second, P00 comes from the checkpoint.
    let first = BATCH_LESSON.iter().find(|s| s.title.0 == "checkpoint() writes after the action").unwrap();
    assert_eq!(sorted(first.run().sim().reran()), ["L0", "P00", "P10", "W0"]);
    let second = BATCH_LESSON.iter().find(|s| s.title.0 == "A second action reads the checkpoint").unwrap();
    assert_eq!(second.run().sim().reran(), ["P10"]);
    assert_eq!(second.run().sim().cost().checkpoint_reads, 1);
    // The last step links to streaming.
    assert!(BATCH_LESSON.last().unwrap().say.0.contains("micro-batch"));
}

// ---- properties ----

#[derive(Clone, Debug)]
enum Move {
    Step,
    Fail,
    Crash(u8),
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec(
        prop_oneof![6 => Just(Move::Step), 1 => Just(Move::Fail), 1 => (0u8..4).prop_map(Move::Crash)],
        0..80,
    )
}

fn text() -> impl Strategy<Value = Vec<String>> {
    let word = prop::sample::select(vec!["a", "to", "the", "fox", "dog", "over", "lazy", "Fox,", "jumps"]);
    prop::collection::vec(prop::collection::vec(word, 0..6).prop_map(|w| w.join(" ")), 1..8)
}

/// Plays the moves (refused ones change nothing), then steps to the end; the output is every
/// record of the failure-free run exactly once.
fn exactly_once_after(spec: BatchSpec, moves: &[Move], model: Vec<Rec>) -> Result<(), TestCaseError> {
    let mut run = BatchRun::new(spec).unwrap();
    let mut expected = run.expected().to_vec();
    expected.sort();
    prop_assert_eq!(expected, model.clone(), "the failure-free run computes the word count");
    for m in moves {
        let a = match m {
            Move::Step => BatchAction::Step,
            Move::Fail => {
                // A fourth failure of one Spark task aborts the job (spark.task.maxFailures, its
                // own test below): the schedules here stop short of it.
                if let BatchSim::Spark(s) = run.sim() {
                    if let Some(t) = &s.running {
                        if s.failures.get(&(t.stage, t.part)).copied().unwrap_or(0) + 1 >= spark::MAX_TASK_FAILURES {
                            continue;
                        }
                    }
                }
                BatchAction::FailTask
            }
            Move::Crash(n) => BatchAction::Crash(*n),
        };
        let _ = run.act(a);
    }
    let mut steps = 0;
    while !run.sim().done() {
        prop_assert!(run.act(BatchAction::Step).is_ok(), "a step is refused before the job is done");
        steps += 1;
        prop_assert!(steps < 1_000, "the job ends");
    }
    let ledger = run.ledger();
    prop_assert!(ledger.exactly_once(), "{:?}", ledger);
    let mut written = run.sim().written();
    written.sort();
    prop_assert_eq!(written, model);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, ..ProptestConfig::default() })]

    #[test]
    fn hadoop_writes_every_record_exactly_once_after_any_crash_schedule(
        input in text(), splits in 1u8..5, reduces in 1u8..4, nodes in 1u8..4, moves in moves(),
    ) {
        let model = sum_by_key(words(&lines(&input)));
        exactly_once_after(BatchSpec::Hadoop(HadoopSpec { input, splits, reduces, nodes }), &moves, model)?;
    }

    #[test]
    fn spark_writes_every_record_exactly_once_after_any_crash_schedule(
        input in text(), parts in 1u8..4, reduce_parts in 1u8..4, executors in 1u8..4,
        keeps in prop::collection::vec(0usize..3, 4), actions in 1u8..3, moves in moves(),
    ) {
        let mut job = jobs::figure(executors);
        job.input = input.clone();
        job.rdds[0].partitions = Some(parts);
        job.rdds[3].partitions = Some(reduce_parts);
        for (r, k) in job.rdds.iter_mut().zip(keeps) {
            r.keep = [Keep::None, Keep::Persist, Keep::Checkpoint][k];
        }
        let model = sum_by_key(drop_short(&words(&lines(&input))));
        exactly_once_after(BatchSpec::Spark(SparkSpec { actions, ..job }), &moves, model)?;
    }
}
