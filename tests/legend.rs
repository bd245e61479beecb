//! Issue 26: the legend shows only the marks the current strategy draws. Model: brute force. Many
//! random runs of every strategy on every built-in job, with crashes, restores, checkpoints and
//! timers anywhere, record which marks the canvas's data holds after each step; the legend
//! lists exactly those (each listed mark seen in some run, no mark seen that it leaves out).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use barrierscope::classroom::{marks, Mark};
use barrierscope::engine::*;

/// The marks the canvas would draw for `sim` now, read off the data it draws from.
fn drawn(sim: &Sim, seen: &mut BTreeSet<Mark>) {
    if sim.restore_point().iter().any(|s| s.is_some()) {
        seen.insert(Mark::Save);
        seen.insert(Mark::Cut);
    }
    for c in sim.channels() {
        for it in &c.queue {
            match it {
                Item::Record { rec, .. } => {
                    if c.blocked {
                        seen.insert(Mark::Buffered);
                    }
                    if rec.replayed {
                        seen.insert(Mark::Replayed);
                    }
                }
                Item::Barrier(b) => {
                    seen.insert(if b.unaligned { Mark::UnalignedBarrier } else { Mark::Barrier });
                }
                Item::Cancel(_) => {
                    seen.insert(Mark::CancelMarker);
                }
            }
        }
    }
    if sim.graph.sources().any(|s| (sim.source_offset(s) as usize) < sim.graph.task(s).log.len()) {
        seen.insert(Mark::NextRecord);
    }
    if let Some(st) = sim.storm() {
        if !st.acker.is_empty() {
            seen.insert(Mark::TupleTree);
        }
        if st.messages_to_acker() > 0 || st.to_spout.iter().any(|q| !q.is_empty()) {
            seen.insert(Mark::AckMessage);
        }
    }
    if let Some(sp) = sim.spark() {
        if sp.blocks.iter().any(|b| b.readable()) {
            seen.insert(Mark::Block);
        }
        if !sp.jobs.is_empty() {
            seen.insert(Mark::Batch);
        }
    }
}

#[test]
fn the_legend_lists_exactly_the_marks_a_strategy_draws() {
    let strategies = [
        Strategy::None,
        Strategy::Timers,
        Strategy::Aligned,
        Strategy::AtLeastOnce,
        Strategy::Unaligned,
        Strategy::StopTheWorld,
        Strategy::StormAcker,
        Strategy::SparkStreaming,
    ];
    let mut variants: Vec<Settings> = strategies.iter().map(|s| Settings::new(*s)).collect();
    let mut timeout = Settings::new(Strategy::Aligned);
    timeout.alignment_timeout = Some(2);
    variants.push(timeout);
    let mut no_ackers = Settings::new(Strategy::StormAcker);
    no_ackers.mechanism.storm.ackers = 0;
    variants.push(no_ackers);
    for settings in variants {
        let mut seen = BTreeSet::new();
        for job in BUILTIN_NAMES {
            for seed in 0..40u64 {
                let mut s = settings.clone();
                s.checkpoint_timeout = [2, 3, 6][seed as usize % 3];
                if s.strategy.uses_coordinator() {
                    s.tolerable_failed_checkpoints = 100; // an expiry aborts, and does not fail the job over
                }
                let mut sim = Scenario::builtin(job, s.for_job(job == "line-sink" || job == "keyed-shuffle"), seed)
                    .sim()
                    .unwrap();
                let mut out = Vec::new();
                let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                for _ in 0..120 {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let a = match rng % 23 {
                        0 => Action::Crash,
                        1 => Action::Restore,
                        2..=4 => Action::Checkpoint,
                        5 => Action::AllTimers,
                        6 => Action::CrashTask { task: TaskId((rng >> 8) as u16 % sim.graph.tasks.len() as u16) },
                        7 => Action::Wait,
                        _ => Action::Auto,
                    };
                    out.clear();
                    let _ = sim.apply(a, &mut out);
                    drawn(&sim, &mut seen);
                }
            }
        }
        let listed: BTreeSet<Mark> = marks(&settings).into_iter().collect();
        assert_eq!(
            listed, seen,
            "{:?} (alignment timeout {:?}, ackers {})",
            settings.strategy, settings.alignment_timeout, settings.mechanism.storm.ackers
        );
    }
}
