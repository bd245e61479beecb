//! Engine benchmarks that count instructions (iai-callgrind, under valgrind's callgrind), so that
//! a figure means the same on any machine of this kind whatever its load: deliveries through
//! `line` and `keyed-shuffle`, the engine-steps workload, a restore, a seek in time and an
//! explorer run. Each setup (building the run) is not counted; only the benchmark function is.
//!
//! Run: `cargo bench --bench instructions` (needs valgrind and `iai-callgrind-runner` 0.16.1,
//! which `scripts/setup.sh` installs). The per-delivery figure is the difference of two run
//! lengths: `(instructions at 4,000 records − instructions at 2,000) / 4,000`, since `line`
//! makes two deliveries (`Processed` events, the map's and the sink's) per record, so that
//! what does not grow with the run (the first allocations) cancels out. See the book's
//! Benchmarks chapter.

use std::hint::black_box;

use barrierscope::engine::runs::workload::{self, drive_auto, drive_line, line_start, shuffle_start};
use barrierscope::engine::*;
use iai_callgrind::{library_benchmark, library_benchmark_group, main};

/// `line` with 20,000 records in its log, of which the benchmark drives the first `records`.
fn line_for(records: usize) -> (Sim, usize) {
    (line_start(20_000), records)
}

// Deliveries through `line`, aligned checkpoints, one every 100 records; 2 deliveries a record.
#[library_benchmark]
#[benches::line(args = [2_000, 4_000], setup = line_for)]
fn deliveries_line((mut sim, records): (Sim, usize)) -> u64 {
    let delivered = drive_line(&mut sim, records, &mut Vec::with_capacity(64));
    // Freeing the run is not a delivery's work.
    std::mem::forget(sim);
    black_box(delivered)
}

// Deliveries through `keyed-shuffle` (`records` in all, half per partition), the seeded
// scheduler until everything is through; 2 deliveries a record.
#[library_benchmark]
#[benches::keyed_shuffle(args = [2_000, 4_000], setup = shuffle_start)]
fn deliveries_keyed_shuffle(mut sim: Sim) -> u64 {
    let delivered = drive_auto(&mut sim, &mut Vec::with_capacity(64));
    std::mem::forget(sim);
    black_box(delivered)
}

// The engine-steps workload (`runs::workload`: keyed-shuffle, `per_partition` records in each of
// two partitions, an aligned checkpoint every 100 steps), as the browser benchmark runs it in
// wasm; the steps are 3 a record (a read, two deliveries) and 6 barrier deliveries a checkpoint.
#[library_benchmark]
#[benches::workload(args = [1_000, 2_000], setup = workload::start)]
fn engine_steps(mut sim: Sim) -> u64 {
    let steps = workload::run(&mut sim);
    std::mem::forget(sim);
    black_box(steps)
}

/// The engine-steps workload with 1,000 records per partition, 1,500 steps in (several completed
/// checkpoints), then a crash of the job.
fn crashed() -> Sim {
    let mut sim = workload::start(1_000);
    let mut out = Vec::new();
    for _ in 0..1_500 {
        sim.apply(Action::Auto, &mut out).expect("the run is not over");
    }
    sim.apply(Action::Crash, &mut out).expect("the job can crash");
    sim
}

// One restore from the latest completed checkpoint.
#[library_benchmark]
#[bench::after_1500_steps(setup = crashed)]
fn restore(mut sim: Sim) -> usize {
    let mut out = Vec::with_capacity(64);
    sim.apply(Action::Restore, &mut out).expect("there is a checkpoint to restore");
    std::mem::forget(sim);
    black_box(out.len())
}

/// A 20,000-step run of `keyed-shuffle` (a checkpoint every 100 steps; crashed and restored when
/// everything is through) in a timeline, and the step to seek to: the worst case in the middle,
/// the step just before a keyframe.
fn timeline() -> (Timeline, usize) {
    let mut sc = Scenario::builtin("keyed-shuffle", Settings::new(Strategy::Aligned), 3);
    sc.settings.checkpoint_interval = Some(100);
    sc.input = Some(
        [(
            "Source".to_string(),
            core::dataflow::job_graph::SourceInput::Partitions(vec![
                workload::log(6_000, 0),
                workload::log(6_000, 6_000),
            ]),
        )]
        .into(),
    );
    let mut tl = Timeline::new(sc.sim().expect("keyed-shuffle is valid"));
    while tl.len() < 20_000 {
        if tl.apply(Action::Auto).is_err() {
            tl.apply(Action::Crash).expect("the job can crash");
            tl.apply(Action::Restore).expect("and restore");
        }
    }
    let every = tl.keyframe_every();
    let worst = (tl.len() / 2 / every) * every + every - 1;
    (tl, worst)
}

// A seek in time: from the last step to the worst case in the middle of a 20,000-step run.
#[library_benchmark]
#[bench::worst_case(setup = timeline)]
fn seek((mut tl, step): (Timeline, usize)) -> usize {
    let n = tl.seek(step).len();
    std::mem::forget(tl);
    black_box(n)
}

// Every schedule of `line` with 3 and 4 records under per-task timers, one round of snapshots,
// one crash anywhere, then the restore and the rest (`workload::explore_line`, as the criterion
// benchmark and the browser's explorer benchmark run it).
#[library_benchmark]
#[benches::line_timers(args = [3, 4])]
fn explore(records: usize) -> usize {
    black_box(workload::explore_line(Strategy::Timers, records, explorer::Completion::Canonical).states)
}

library_benchmark_group!(
    name = engine;
    benchmarks = deliveries_line, deliveries_keyed_shuffle, engine_steps, restore, seek, explore
);

main!(library_benchmark_groups = engine);
