//! Engine benchmarks (criterion): record deliveries per second through `line` with aligned
//! checkpoints every 100 records and through `keyed-shuffle`, the cost of returning to an
//! earlier step of a 100,000-step run (time travel), and the time to explore every schedule of
//! the a, b, c `line` job (and of one record more) under one round of snapshots and one crash.
//! Run: `cargo bench --bench engine`.

use std::hint::black_box;

use barrierscope::engine::core::dataflow::job_graph::SourceInput;
use barrierscope::engine::runs::workload::{drive_auto, line_start, log, shuffle_start};
use barrierscope::engine::*;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

/// `line`, one record at a time through both channels, a checkpoint every 100 records.
/// Returns the number of record deliveries.
fn drive_line(sim: &mut Sim, out: &mut Vec<Event>) -> u64 {
    runs::workload::drive_line(sim, usize::MAX, out)
}

fn deliveries(c: &mut Criterion) {
    const N: usize = 20_000;
    let mut g = c.benchmark_group("deliveries");
    let line = line_start(N);
    let mut probe = line.clone();
    let per_run = drive_line(&mut probe, &mut Vec::new());
    assert_eq!(probe.stats.counts().completed, (N / 100) as u32);
    g.throughput(Throughput::Elements(per_run));
    g.bench_function("line, aligned checkpoint every 100 records", |b| {
        b.iter_batched(
            || line.clone(),
            |mut sim| black_box(drive_line(&mut sim, &mut Vec::with_capacity(64))),
            BatchSize::LargeInput,
        )
    });
    let shuffle = shuffle_start(N);
    let mut probe = shuffle.clone();
    let per_run = drive_auto(&mut probe, &mut Vec::new());
    g.throughput(Throughput::Elements(per_run));
    g.bench_function("keyed-shuffle, seeded scheduler", |b| {
        b.iter_batched(
            || shuffle.clone(),
            |mut sim| black_box(drive_auto(&mut sim, &mut Vec::with_capacity(64))),
            BatchSize::LargeInput,
        )
    });
    // The same workload the browser benchmark runs in wasm (e2e/bench.mjs).
    let start = runs::workload::start(5000);
    let steps = runs::workload::run(&mut start.clone());
    g.throughput(Throughput::Elements(steps));
    g.bench_function("engine steps, keyed-shuffle workload", |b| {
        b.iter_batched(|| start.clone(), |mut sim| black_box(runs::workload::run(&mut sim)), BatchSize::LargeInput)
    });
    g.finish();
}

fn time_travel(c: &mut Criterion) {
    // A 100,000-step run of keyed-shuffle with a checkpoint every 100 steps.
    let mut sc = Scenario::builtin("keyed-shuffle", Settings::new(Strategy::Aligned), 3);
    sc.settings.checkpoint_interval = Some(100);
    sc.input =
        Some([("Source".to_string(), SourceInput::Partitions(vec![log(30_000, 0), log(30_000, 30_000)]))].into());
    let mut tl = Timeline::new(sc.sim().unwrap());
    while tl.len() < 100_000 {
        if tl.apply(Action::Auto).is_err() {
            // Everything is through: crash and restore to keep the run going.
            tl.apply(Action::Crash).unwrap();
            tl.apply(Action::Restore).unwrap();
        }
    }
    let n = tl.len();
    println!("time travel: a {n}-step run holds {} keyframes", tl.keyframes());
    let mut g = c.benchmark_group("time travel");
    // The worst case: the step just before the next keyframe.
    let worst = (n / 2 / tl.keyframe_every()) * tl.keyframe_every() + tl.keyframe_every() - 1;
    for (name, step) in
        [("seek to step 0", 0), ("seek to the middle, worst case", worst), ("seek to the last step", n - 1)]
    {
        g.bench_function(name, |b| b.iter(|| black_box(tl.seek(step)).len()));
    }
    g.finish();
}

fn explore(c: &mut Criterion) {
    use explorer::Completion::{Canonical, Every};
    let mut g = c.benchmark_group("explore line");
    g.sample_size(10);
    for (strategy, records, completion) in [
        (Strategy::Timers, 3, Canonical),
        (Strategy::Timers, 4, Canonical),
        (Strategy::Timers, 3, Every),
        (Strategy::Timers, 4, Every),
        (Strategy::Aligned, 3, Canonical),
        (Strategy::Aligned, 4, Canonical),
        (Strategy::Aligned, 3, Every),
        (Strategy::Aligned, 4, Every),
    ] {
        let r = runs::workload::explore_line(strategy, records, completion);
        let name = format!("{}, {records} records, {completion:?} completion", strategy.id());
        println!("explore {name}: {} states, {} schedules", r.states, r.schedules);
        g.bench_function(&name, |b| {
            b.iter(|| black_box(runs::workload::explore_line(strategy, records, completion)).states)
        });
    }
    g.finish();
}

criterion_group!(benches, deliveries, time_travel, explore);
criterion_main!(benches);
