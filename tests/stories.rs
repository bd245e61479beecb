//! Scenario tests retelling the articles in `shared/seeds`: per-task timers lose or duplicate
//! a, b, c; barriers make restore exactly once; alignment, unaligned checkpoints and sinks.
#![cfg(not(target_arch = "wasm32"))]

use barrierscope::engine::*;

/// A script line in the words lessons use: "read Source", "deliver Map->Count", "timers", "end", ...
fn line(s: &str) -> ScriptAction {
    barrierscope::classroom::parse_line(s).unwrap()
}

fn play(job: &str, settings: Settings, script: &[&str]) -> runs::scenario::Played {
    let mut sc = Scenario::builtin(job, settings, 1);
    sc.actions = script.iter().map(|s| line(s)).collect();
    sc.play().unwrap_or_else(|e| panic!("{e}"))
}

const THREE_READS: [&str; 3] = ["read Source", "read Source", "read Source"];

#[test]
fn timers_together_after_the_source_sent_abc_lose_abc() {
    let mut script = THREE_READS.to_vec();
    script.extend(["timers", "crash", "restore", "end"]);
    let run = play("line", Settings::new(Strategy::Timers), &script);
    let l = run.sim.ledger();
    assert_eq!(l.state_labels(Verdict::Lost), vec!["a", "b", "c"]);
    assert_eq!(l.state_labels(Verdict::ExactlyOnce), vec!["d", "e", "f", "g", "h"]);
    // Before the crash, the cut of the saves shows a, b, c in transit: sent, never received.
    let mut sc = Scenario::builtin("line", Settings::new(Strategy::Timers), 1);
    sc.actions = ["read Source", "read Source", "read Source", "timers"].iter().map(|s| line(s)).collect();
    let before = sc.play().unwrap().sim;
    let cut = before.latest_cut().unwrap();
    let labels: Vec<&str> = cut.in_transit().iter().map(|r| before.record_label(*r)).collect();
    assert_eq!(labels, vec!["a", "b", "c"]);
    assert!(cut.orphans().is_empty());
}

#[test]
fn timers_the_other_way_round_duplicate_abc() {
    let script = [
        "timer Source",
        "read Source",
        "read Source",
        "read Source",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Map->Count",
        "deliver Map->Count",
        "timer Map",
        "timer Count",
        "crash",
        "restore",
        "end",
    ];
    let run = play("line", Settings::new(Strategy::Timers), &script);
    let l = run.sim.ledger();
    assert_eq!(l.state_labels(Verdict::Duplicated), vec!["a", "b", "c"]);
    assert_eq!(l.row("a").unwrap().state, 2);
    assert_eq!(l.state_labels(Verdict::ExactlyOnce), vec!["d", "e", "f", "g", "h"]);
}

#[test]
fn orphans_are_flagged_when_the_receiver_saved_after_the_sender() {
    let script = [
        "timer Source",
        "read Source",
        "read Source",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Map->Count",
        "timer Map",
        "timer Count",
    ];
    let run = play("line", Settings::new(Strategy::Timers), &script);
    let cut = run.sim.latest_cut().unwrap();
    let orphans: Vec<&str> = cut.orphans().iter().map(|r| run.sim.record_label(*r)).collect();
    assert_eq!(orphans, vec!["a", "b"]);
    assert!(!cut.consistent());
}

#[test]
fn the_same_story_with_aligned_barriers_is_exactly_once() {
    // The barrier follows a, b, c; the checkpoint completes only once every task has seen them.
    let script = [
        "read Source",
        "read Source",
        "read Source",
        "checkpoint",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Map->Count",
        "deliver Map->Count",
        "deliver Map->Count",
        "read Source",
        "deliver Source->Map",
        "crash",
        "restore",
        "end",
    ];
    let run = play("line", Settings::new(Strategy::Aligned), &script);
    assert_eq!(run.sim.stats.counts().completed, 2, "checkpoint 1 and the final one");
    let cp = &run.sim.stats.history[0];
    assert_eq!(cp.status, CheckpointStatus::Completed);
    assert_eq!((cp.acked, cp.total), (3, 3));
    let l = run.sim.ledger();
    assert_eq!(l.state.exactly_once, 8, "{:?}", l.rows);
    // And the crash before the checkpoint completes: nothing to restore from, so all restart.
    let mut script = THREE_READS.to_vec();
    script.extend(["checkpoint", "crash", "restore", "end"]);
    let run = play("line", Settings::new(Strategy::Aligned), &script);
    assert_eq!(run.sim.stats.history[0].status, CheckpointStatus::Failed(AbortReason::TaskFailure));
    assert_eq!(run.sim.ledger().state.exactly_once, 8);
}

#[test]
fn completed_checkpoints_form_a_consistent_cut() {
    let script = ["read Source", "read Source", "checkpoint", "read Source", "auto 30"];
    let run = play("line", Settings::new(Strategy::Aligned), &script);
    let cut = run.sim.latest_cut().unwrap();
    assert!(cut.consistent(), "{cut:?}");
}

/// Left sends a, the barrier, then b; Right sends f and its barrier. Count sees Left's barrier
/// first, then b, then Right's barrier.
const TWO_INPUTS: [&str; 8] = [
    "read Left",
    "read Right",
    "checkpoint",
    "read Left",
    "deliver Left->Count",
    "deliver Left->Count",
    "deliver Left->Count",
    "deliver Right->Count",
];

#[test]
fn two_inputs_with_barriers_but_no_alignment_duplicate() {
    let mut script = TWO_INPUTS.to_vec();
    script.extend(["deliver Right->Count", "crash", "restore", "end"]);
    let run = play("two-inputs", Settings::new(Strategy::AtLeastOnce), &script);
    let l = run.sim.ledger();
    // b arrived after Left's barrier, was counted in the snapshot and is replayed: twice.
    assert_eq!(l.state_labels(Verdict::Duplicated), vec!["b"]);
    assert_eq!(l.state.lost, 0);
}

#[test]
fn aligned_two_inputs_block_the_early_channel() {
    let mut sc = Scenario::builtin("two-inputs", Settings::new(Strategy::Aligned), 1);
    sc.actions = TWO_INPUTS.iter().map(|s| line(s)).collect();
    let e = sc.play().err().expect("b is behind the barrier on a blocked channel").to_string();
    assert!(e.contains("action #7") && e.contains("blocked"), "{e}");
    // Aligned, the same run delivers b only after the alignment: exactly once.
    let script = [
        "read Left",
        "read Right",
        "checkpoint",
        "read Left",
        "deliver Left->Count",
        "deliver Left->Count",
        "deliver Right->Count",
        "deliver Right->Count",
        "deliver Left->Count",
        "crash",
        "restore",
        "end",
    ];
    let run = play("two-inputs", Settings::new(Strategy::Aligned), &script);
    let sub = &run.sim.stats.history[0].subtasks[2];
    assert_eq!(sub.alignment, Some(2), "Count aligned from step 5 to step 7");
    assert_eq!(run.sim.ledger().state.exactly_once, 10);
}

#[test]
fn unaligned_checkpoints_store_in_flight_records_and_are_exactly_once() {
    let script = [
        "read Left",
        "read Left",
        "read Right",
        "read Right",
        "checkpoint",
        "deliver Left->Count",
        "deliver Right->Count",
        "deliver Left->Count",
        "read Left",
        "deliver Left->Count",
        "crash",
        "restore",
        "end",
    ];
    let run = play("two-inputs", Settings::new(Strategy::Unaligned), &script);
    let cp = &run.sim.stats.history[0];
    assert_eq!(cp.status, CheckpointStatus::Completed);
    assert_eq!(cp.in_flight, 4, "a, b, f, g were overtaken by the barriers");
    assert_eq!(cp.duration(run.sim.tick), 2);
    assert_eq!(run.sim.ledger().state.exactly_once, 10);
    assert_eq!(run.sim.stats.latest_restored, Some(CheckpointId(1)));
}

#[test]
fn alignment_timeout_turns_the_checkpoint_unaligned() {
    let mut s = Settings::new(Strategy::Aligned);
    s.alignment_timeout = Some(1);
    let script = [
        "read Left",
        "read Right",
        "read Right",
        "checkpoint",
        "read Left",
        "deliver Left->Count",
        "deliver Left->Count",
        "deliver Right->Count",
        "auto 20",
        "crash",
        "restore",
        "end",
    ];
    let run = play("two-inputs", s, &script);
    let cp = &run.sim.stats.history[0];
    assert_eq!(cp.status, CheckpointStatus::Completed);
    assert!(cp.subtasks[2].unaligned);
    assert!(cp.in_flight >= 1);
    assert_eq!(run.sim.ledger().state.exactly_once, 10);
}

fn sink_story(mode: SinkMode) -> core::ledger::Ledger {
    let script = [
        "read Source",
        "read Source",
        "read Source",
        "checkpoint",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Map->Count",
        "deliver Map->Count",
        "deliver Map->Count",
        "deliver Count->Sink",
        "deliver Count->Sink",
        "deliver Count->Sink",
        "deliver Count->Sink",
        "read Source",
        "read Source",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Map->Count",
        "deliver Count->Sink",
        "deliver Count->Sink",
        "crash",
        "restore",
        "end",
    ];
    let run = play("line-sink", Settings::new(Strategy::Aligned).with_sink(mode), &script);
    assert_eq!(run.sim.stats.history[0].status, CheckpointStatus::Completed);
    run.sim.ledger()
}

#[test]
fn plain_sink_with_aligned_barriers_duplicates_the_external_output() {
    let l = sink_story(SinkMode::Append);
    assert_eq!(l.state.exactly_once, 8, "state is exactly once");
    let dup = l.external_labels(Verdict::Duplicated);
    assert!(dup.contains(&"d") && dup.contains(&"e"), "{dup:?}");
}

#[test]
fn idempotent_sink_converges() {
    let l = sink_story(SinkMode::Upsert);
    assert_eq!(l.external.unwrap().exactly_once, 8);
}

#[test]
fn two_phase_commit_sink_is_exactly_once_end_to_end() {
    let l = sink_story(SinkMode::TwoPhaseCommit);
    assert_eq!(l.state.exactly_once, 8);
    assert_eq!(l.external.unwrap().exactly_once, 8);
}

#[test]
fn two_phase_commit_output_is_invisible_until_the_checkpoint_completes() {
    let run = play(
        "line-sink",
        Settings::new(Strategy::Aligned).with_sink(SinkMode::TwoPhaseCommit),
        &["read Source", "auto 3"],
    );
    assert!(run.sim.external().visible().is_empty());
    assert_eq!(run.sim.ledger().external_labels(Verdict::Pending)[0], "a");
}

#[test]
fn stop_the_world_drains_then_snapshots_and_measures_the_stall() {
    let script = ["read Source", "read Source", "checkpoint", "auto 4", "crash", "restore", "end"];
    let run = play("line", Settings::new(Strategy::StopTheWorld), &script);
    let cp = &run.sim.stats.history[0];
    assert_eq!(cp.status, CheckpointStatus::Completed);
    assert_eq!(cp.stall, Some(4), "two records through two channels");
    assert_eq!(run.sim.ledger().state.exactly_once, 8);
    let mut sc = Scenario::builtin("line", Settings::new(Strategy::StopTheWorld), 1);
    sc.actions = ["read Source", "checkpoint", "read Source"].iter().map(|s| line(s)).collect();
    assert!(sc.play().err().unwrap().to_string().contains("paused"));
}

#[test]
fn no_snapshots_give_at_least_once_or_at_most_once() {
    let script = [
        "read Source",
        "read Source",
        "read Source",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Map->Count",
        "deliver Count->Sink",
        "crash",
        "restore",
        "end",
    ];
    // From the beginning: state is recomputed from scratch (exactly once, like a batch re-run),
    // but the external output got a again: at-least-once end to end.
    let run = play("line-sink", Settings::new(Strategy::None), &script);
    let l = run.sim.ledger();
    assert_eq!(l.state.exactly_once, 8);
    assert_eq!(l.external_labels(Verdict::Duplicated), vec!["a"]);
    // From the newest read position: a, b, c were read, so whatever was in flight is skipped.
    let mut s = Settings::new(Strategy::None);
    s.restart = RestartPolicy::FromLatest;
    let run = play("line-sink", s, &script);
    let l = run.sim.ledger();
    assert_eq!(l.state_labels(Verdict::Lost), vec!["a", "b", "c"]);
    assert_eq!(l.external_labels(Verdict::Lost), vec!["b", "c"]);
    assert_eq!(l.state.duplicated + l.external.unwrap().duplicated, 0);
}

#[test]
fn jobmanager_failure_loses_pending_checkpoints_not_completed_ones() {
    let script = [
        "read Source",
        "checkpoint",
        "deliver Source->Map",
        "deliver Source->Map",
        "deliver Map->Count",
        "deliver Map->Count",
        "read Source",
        "checkpoint",
        "crash-jm",
    ];
    let run = play("line", Settings::new(Strategy::Aligned), &script);
    let h = &run.sim.stats.history;
    assert_eq!(h[0].status, CheckpointStatus::Completed);
    assert_eq!(h[1].status, CheckpointStatus::Failed(AbortReason::JobManagerFailure));
    assert_eq!(run.sim.storage().completed.len(), 1);
    let mut sim = run.sim;
    let ev = sim.step(Action::Restore).unwrap();
    assert!(ev.contains(&Event::Restored { from: RestoreFrom::Checkpoint { checkpoint: CheckpointId(1) } }));
    // Ids keep rising across JobManager failover.
    let ev = sim.step(Action::Checkpoint).unwrap();
    assert!(ev.contains(&Event::CheckpointTriggered { checkpoint: CheckpointId(3) }));
}

#[test]
fn max_concurrent_checkpoints_refuses_and_timeout_expires() {
    let mut s = Settings::new(Strategy::Aligned);
    s.checkpoint_timeout = 3;
    let run = play("line", s, &["read Source", "checkpoint", "checkpoint", "read Source", "read Source"]);
    let h = &run.sim.stats.history;
    assert_eq!(h.len(), 1, "the second trigger was refused");
    assert_eq!(h[0].status, CheckpointStatus::Failed(AbortReason::Expired));
}

#[test]
fn keyed_shuffle_and_diamond_run_exactly_once_with_barriers() {
    for job in ["keyed-shuffle", "diamond"] {
        for strategy in [Strategy::Aligned, Strategy::Unaligned, Strategy::StopTheWorld] {
            let mut s = Settings::new(strategy);
            s.checkpoint_interval = Some(5);
            let run = play(job, s, &["auto 17", "crash", "restore", "end"]);
            let l = run.sim.ledger();
            assert_eq!(l.state.lost + l.state.duplicated + l.state.pending, 0, "{job} {strategy:?}: {:?}", l.rows);
            assert!(run.sim.stats.counts().completed >= 1);
        }
    }
}

#[test]
fn diamond_expects_x_records_twice() {
    let run = play("diamond", Settings::new(Strategy::Aligned), &["end"]);
    let l = run.sim.ledger();
    assert_eq!(l.row("a").unwrap().expected_state, 2, "a (key x) reaches D through B and through C");
    assert_eq!(l.row("b").unwrap().expected_state, 1);
    assert_eq!(l.state.exactly_once, 6);
}

#[test]
fn bounded_channels_backpressure() {
    let mut s = Settings::new(Strategy::Aligned);
    s.channel_capacity = Some(2);
    let mut sc = Scenario::builtin("line", s, 1);
    sc.actions = ["read Source", "read Source", "read Source"].iter().map(|s| line(s)).collect();
    let e = sc.play().err().unwrap().to_string();
    assert!(e.contains("backpressured"), "{e}");
}

#[test]
fn upsert_to_two_sink_subtasks_is_judged_against_upsert() {
    // A source broadcasting to a sink of parallelism 2: each record is written by both subtasks.
    let text = r#"{
        "job": {
            "operators": [
                { "name": "S", "kind": "source" },
                { "name": "K", "kind": "sink", "parallelism": 2 }
            ],
            "edges": [ { "from": "S", "to": "K", "partitioning": "broadcast" } ]
        },
        "input": { "S": ["a:x", "b:y"] },
        "settings": { "strategy": "aligned", "sink": "upsert" },
        "actions": [ "run-to-end" ]
    }"#;
    let run = Scenario::from_json(text).unwrap().play().unwrap();
    let l = run.sim.ledger();
    assert_eq!(l.external.unwrap().exactly_once, 2, "{:?}", l.rows);
    // And an empty log for a single source is just empty.
    let text = r#"{"job": {"operators": [{"name": "S", "kind": "source"}], "edges": []}, "input": {"S": []}}"#;
    assert!(Scenario::from_json(text).unwrap().sim().unwrap().graph.records.is_empty());
}

#[test]
fn while_the_job_is_down_the_restore_decides() {
    let mut script = THREE_READS.to_vec();
    script.extend(["timers", "crash"]);
    let run = play("line", Settings::new(Strategy::Timers), &script);
    assert_eq!(run.sim.ledger().state.pending, 8, "nothing is judged before the restore");
}

#[test]
fn every_builtin_job_is_expressible_as_a_custom_job_in_the_format() {
    for name in BUILTIN_NAMES {
        let b = builtin(name).unwrap();
        let text = serde_json::json!({
            "version": 1,
            "job": serde_json::to_value(&b.spec).unwrap(),
            "input": serde_json::to_value(&b.input).unwrap(),
            "settings": { "strategy": "aligned" },
            "actions": ["run-to-end"],
        })
        .to_string();
        let custom = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(custom.graph().unwrap(), JobGraph::build(&b.spec, &b.input).unwrap(), "{name}");
        assert_eq!(custom.play().unwrap().sim.ledger().state.lost, 0);
    }
}
