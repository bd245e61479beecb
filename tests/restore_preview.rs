//! What the canvas shows on a stopped source's log, "reads next after a restore": the engine's
//! query `Sim::offsets_after_restore`, checked against the restore itself. On random runs of every
//! built-in strategy on `line`, `two-inputs` and `keyed-shuffle`, with crashes among the steps: wherever the query
//! answers for a source, restoring the run puts that source at exactly that offset; it answers for
//! every stopped source and only for them, and only while a restore is allowed.
#![cfg(not(target_arch = "wasm32"))]

use barrierscope::engine::Strategy;
use barrierscope::engine::*;
use proptest::prelude::*;

fn sim(job: &str, strategy: Strategy, seed: u64) -> Sim {
    let settings = Settings { strategy, ..Settings::default() };
    let graph = Scenario::builtin(job, settings.clone(), seed).graph().unwrap();
    Sim::new(graph, settings, seed).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    #[test]
    fn the_preview_is_where_the_restore_puts_each_source(
        job in prop::sample::select(vec!["line", "two-inputs", "keyed-shuffle"]),
        strategy in prop::sample::select(Strategy::ALL.to_vec()),
        seed in 0u64..4,
        picks in prop::collection::vec(any::<u16>(), 1..60),
    ) {
        let mut sim = sim(job, strategy, seed);
        let mut enabled = vec![];
        for p in picks {
            let preview = sim.offsets_after_restore();
            let restorable = sim.check(Action::Restore).is_ok();
            for (i, task) in sim.graph.tasks.iter().enumerate() {
                let stopped = task.kind == OperatorKind::Source && sim.tasks()[i].status != TaskStatus::Running;
                prop_assert_eq!(preview[i].is_some(), stopped && restorable, "task {} at step {}", task.name, sim.tick);
            }
            if preview.iter().any(Option::is_some) {
                let mut restored = sim.clone();
                restored.step(Action::Restore).unwrap();
                for (i, p) in preview.iter().enumerate() {
                    if let Some(offset) = p {
                        prop_assert_eq!(restored.source_offset(TaskId(i as u16)), *offset);
                    }
                }
            }
            // The next step: a crash now and then, else one of the steps the scheduler may take.
            enabled.clear();
            sim.enabled_steps(&mut enabled);
            let crash = [Action::Crash, Action::Restore];
            enabled.extend(crash.into_iter().filter(|a| sim.check(*a).is_ok()));
            if enabled.is_empty() {
                break;
            }
            let a = enabled[p as usize % enabled.len()];
            sim.step(a).unwrap();
        }
    }
}

#[test]
fn a_running_job_previews_nothing_and_a_crashed_one_rewinds_to_its_checkpoint() {
    let mut s = sim("line", Strategy::Aligned, 1);
    let source = s.graph.task_by_name("Source").unwrap();
    s.step(Action::Read { task: source }).unwrap();
    // The barrier of checkpoint 1 goes out after the first record: the checkpoint holds offset 1.
    s.step(Action::Checkpoint).unwrap();
    for _ in 0..500 {
        if s.stats.counts().completed == 1 {
            break;
        }
        s.step(Action::Auto).unwrap();
    }
    assert_eq!(s.stats.counts().completed, 1, "checkpoint 1 completes");
    assert!(s.source_offset(source) > 1, "the source has read on since");
    assert!(s.offsets_after_restore().iter().all(Option::is_none), "nothing is stopped");
    s.step(Action::Crash).unwrap();
    let preview = s.offsets_after_restore();
    assert_eq!(preview[source.index()], Some(1), "{preview:?}");
    assert!(preview.iter().enumerate().all(|(i, p)| i == source.index() || p.is_none()), "only a source: {preview:?}");
}
