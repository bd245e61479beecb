//! Backpressure against theory: slow tasks, bounded channels, buffer debloating and what they do
//! to checkpoints (issue 53). Each test drives a run step by step where the theory gives the exact
//! figure: a barrier waits behind the records queued before it, each taking its task's
//! `record-cost`; unaligned checkpoints persist exactly the records their barrier overtook;
//! debloated buffers hold the target's worth of the task's throughput. The properties over random
//! speeds, bounds and debloat targets (1,000 cases) are in `properties.rs` with every other
//! guarantee, and here: no channel ever holds more records than its capacity.
#![cfg(not(target_arch = "wasm32"))]

mod cases;
use barrierscope::classroom::RunConfig;
use barrierscope::engine::{Action, ActionError, ChannelId, Item, Scenario, Settings, Sim, Strategy, TaskClass};
use cases::config;
use proptest::prelude::*;

fn sim(job: &str, settings: Settings, records: Option<u32>) -> Sim {
    RunConfig { job: job.into(), settings, seed: 3, records }.scenario().sim().unwrap()
}

fn ch(sim: &Sim, name: &str) -> ChannelId {
    sim.graph.channel_by_name(name).unwrap()
}

fn task(sim: &Sim, name: &str) -> barrierscope::engine::TaskId {
    sim.graph.task_by_name(name).unwrap()
}

fn records_on(sim: &Sim, c: ChannelId) -> usize {
    sim.queue(c).iter().filter(|i| matches!(i, Item::Record { .. })).count()
}

/// Delivers the head of `c` as soon as its consumer is free, waiting while it is busy, until the
/// channel is empty; returns the steps taken.
fn drain(sim: &mut Sim, c: ChannelId) -> u64 {
    let start = sim.tick;
    while !sim.queue(c).is_empty() {
        match sim.check(Action::Deliver { channel: c }) {
            Ok(()) => sim.step(Action::Deliver { channel: c }).map(drop).unwrap(),
            Err(ActionError::Busy { .. }) => sim.step(Action::Wait).map(drop).unwrap(),
            Err(e) => panic!("{e:?}"),
        }
    }
    sim.tick - start
}

/// Line, Count slow: `queued` records wait in Map->Count when the barrier joins them. Under
/// aligned checkpoints the barrier reaches Count once Count has taken each of them, `cost` steps
/// apiece: the start delay grows with the queue.
fn start_delay_behind(strategy: Strategy, queued: usize, cost: u32) -> (u64, u32) {
    let mut s = Settings::new(strategy);
    if cost > 1 {
        s.record_cost.insert("Count".into(), cost);
    }
    let mut sim = sim("line", s, None);
    let (src, source_map, map_count) = (task(&sim, "Source"), ch(&sim, "Source->Map"), ch(&sim, "Map->Count"));
    for _ in 0..queued {
        sim.step(Action::Read { task: src }).unwrap();
        sim.step(Action::Deliver { channel: source_map }).unwrap();
    }
    assert_eq!(records_on(&sim, map_count), queued);
    sim.step(Action::Checkpoint).unwrap();
    // Map takes the barrier and forwards it behind the queue (or, unaligned, ahead of it).
    sim.step(Action::Deliver { channel: source_map }).unwrap();
    drain(&mut sim, map_count);
    let cp = &sim.stats.history[0];
    assert_eq!(cp.status, barrierscope::engine::CheckpointStatus::Completed);
    (cp.subtasks[task(&sim, "Count").index()].start_delay.unwrap(), cp.in_flight)
}

#[test]
fn an_aligned_barrier_waits_for_the_queue_before_it() {
    for cost in [1, 2, 5] {
        for queued in [0, 1, 3, 6] {
            let (delay, persisted) = start_delay_behind(Strategy::Aligned, queued, cost);
            // The trigger, Map's step, then `queued` records of `cost` steps each (the last one's
            // steps end as the barrier is taken).
            assert_eq!(delay, 2 + queued as u64 * cost as u64, "queued {queued}, cost {cost}");
            assert_eq!(persisted, 0);
        }
    }
}

#[test]
fn an_unaligned_barrier_overtakes_the_queue_and_persists_it() {
    for cost in [1, 3] {
        for queued in [0, 2, 5] {
            let (delay, persisted) = start_delay_behind(Strategy::Unaligned, queued, cost);
            assert_eq!(delay, 2, "the barrier is at the head: queued {queued}, cost {cost}");
            assert_eq!(persisted as usize, queued, "exactly the records it overtook");
        }
    }
}

#[test]
fn alignment_is_the_time_to_drain_the_slower_input() {
    // Two inputs into a slow Count: Left's barrier arrives at once, Right's behind `queued`
    // records; Count aligns for as long as it takes to take them.
    for queued in [1, 2, 4] {
        let cost = 3;
        let mut s = Settings::new(Strategy::Aligned);
        s.record_cost.insert("Count".into(), cost);
        let mut sim = sim("two-inputs", s, None);
        let right = task(&sim, "Right");
        let (lc, rc) = (ch(&sim, "Left->Count"), ch(&sim, "Right->Count"));
        for _ in 0..queued {
            sim.step(Action::Read { task: right }).unwrap();
        }
        sim.step(Action::Checkpoint).unwrap();
        sim.step(Action::Deliver { channel: lc }).unwrap();
        drain(&mut sim, rc);
        let count = task(&sim, "Count");
        let cp = &sim.stats.history[0];
        // From Left's barrier: one step to take the first record, then `cost` steps for each.
        assert_eq!(cp.subtasks[count.index()].alignment, Some(1 + queued as u64 * cost as u64), "queued {queued}");
    }
}

#[test]
fn a_slow_task_backpressures_the_source_and_is_classed_busy() {
    let mut s = Settings::new(Strategy::Aligned);
    s.channel_capacity = Some(2);
    s.record_cost.insert("Count".into(), 4);
    let mut sim = sim("line", s, Some(30));
    let (src, count) = (task(&sim, "Source"), task(&sim, "Count"));
    let (mut backpressured, mut high) = (0, false);
    for _ in 0..60 {
        sim.step(Action::Auto).unwrap();
        high |= sim.time_shares(src).level() != barrierscope::engine::PressureLevel::Ok;
        if sim.task_class(src) == Some(TaskClass::Backpressured) {
            backpressured += 1;
            assert!(matches!(sim.check(Action::Read { task: src }), Err(ActionError::Backpressured { .. })));
        }
    }
    assert!(backpressured > 20, "the source is held back most of the time: {backpressured}");
    let count_time = sim.time_shares(count);
    assert_eq!(count_time.seen(), 10);
    assert!(count_time.busy >= 9, "Count is busy: {count_time:?}");
    assert!(high, "the source's back pressure left OK (over a tenth of a window)");
}

/// A capacity of one channel's own (`channel-capacities`) bounds that channel alone: Map->Count
/// fills to its 2 items behind a slow Count and Map is backpressured, while Source->Map, unbounded,
/// takes every record Map cannot pass on, and the source never stops reading.
#[test]
fn a_channel_bounded_alone_backpressures_its_sender_only() {
    let mut s = Settings::new(Strategy::Aligned);
    s.channel_capacities.insert("Map->Count".into(), 2);
    s.record_cost.insert("Count".into(), 4);
    let mut sim = sim("line", s, Some(20));
    let (source_map, map_count) = (ch(&sim, "Source->Map"), ch(&sim, "Map->Count"));
    assert_eq!((sim.channel_buffers(source_map), sim.channel_buffers(map_count)), (None, Some(2)));
    let (map, src) = (task(&sim, "Map"), task(&sim, "Source"));
    let (mut map_held, mut longest) = (0, 0);
    for _ in 0..40 {
        sim.step(Action::Auto).unwrap();
        assert!(records_on(&sim, map_count) <= 2);
        longest = longest.max(records_on(&sim, source_map));
        map_held += usize::from(sim.task_class(map) == Some(TaskClass::Backpressured));
        assert_ne!(sim.task_class(src), Some(TaskClass::Backpressured), "the source's channel is unbounded");
    }
    assert!(map_held > 5 && longest > 2, "Map held back {map_held} steps; Source->Map reached {longest}");
}

#[test]
fn debloated_buffers_hold_the_target_worth_of_throughput() {
    for (cost, target) in [(2u32, 6u32), (4, 8), (3, 3), (5, 20)] {
        let mut s = Settings::new(Strategy::Aligned);
        s.channel_capacity = Some(50);
        s.record_cost.insert("Count".into(), cost);
        s.buffer_debloat_target = Some(target);
        let mut sim = sim("line", s, Some(200));
        for _ in 0..120 {
            sim.step(Action::Auto).unwrap();
        }
        let buffers = sim.channel_buffers(ch(&sim, "Map->Count")).unwrap();
        let want = target.div_ceil(cost);
        assert!(buffers.abs_diff(want) <= 1, "cost {cost}, target {target}: {buffers} buffers, want about {want}");
        // The queue follows the buffers down.
        assert!(records_on(&sim, ch(&sim, "Map->Count")) as u32 <= buffers + 1);
    }
}

#[test]
fn a_checkpoint_times_out_aligned_and_completes_unaligned_or_debloated() {
    // Lesson 16's runs: the same slow job, three ways.
    let run = |strategy: Strategy, debloat: Option<u32>| {
        let mut s = Settings::new(strategy);
        s.channel_capacity = Some(3);
        s.record_cost.insert("Count".into(), 3);
        s.checkpoint_timeout = 15;
        s.tolerable_failed_checkpoints = 3;
        s.buffer_debloat_target = debloat;
        let mut sim = Scenario::builtin("line", s, 1).sim().unwrap();
        for _ in 0..16 {
            sim.step(Action::Auto).unwrap();
        }
        sim.step(Action::Checkpoint).unwrap();
        for _ in 0..16 {
            sim.step(Action::Auto).unwrap();
        }
        sim.stats.history[0].clone()
    };
    let aligned = run(Strategy::Aligned, None);
    let unaligned = run(Strategy::Unaligned, None);
    let debloated = run(Strategy::Aligned, Some(3));
    assert!(matches!(aligned.status, barrierscope::engine::CheckpointStatus::Failed(_)), "{aligned:?}");
    assert_eq!(unaligned.status, barrierscope::engine::CheckpointStatus::Completed);
    assert!(unaligned.in_flight > 0 && unaligned.duration(0) < 8, "{unaligned:?}");
    assert_eq!(debloated.status, barrierscope::engine::CheckpointStatus::Completed);
    assert_eq!(debloated.in_flight, 0);
}

#[test]
fn a_busy_task_is_refused_with_its_step() {
    let mut s = Settings::new(Strategy::Aligned);
    s.record_cost.insert("Map".into(), 3);
    let mut sim = sim("line", s, None);
    let (src, source_map) = (task(&sim, "Source"), ch(&sim, "Source->Map"));
    sim.step(Action::Read { task: src }).unwrap();
    sim.step(Action::Read { task: src }).unwrap();
    sim.step(Action::Deliver { channel: source_map }).unwrap();
    let until = sim.tick + 2;
    match sim.check(Action::Deliver { channel: source_map }) {
        Err(e @ ActionError::Busy { .. }) => {
            assert_eq!(e, ActionError::Busy { task: "Map".into(), until, cost: 3 });
            assert!(e.to_string().contains("busy with a record until step"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // Time passes; then Map takes the next record.
    assert!(sim.enabled_fast(Action::Deliver { channel: source_map }) == false);
    sim.step(Action::Wait).unwrap();
    sim.step(Action::Wait).unwrap();
    sim.step(Action::Deliver { channel: source_map }).unwrap();
}

proptest! {
    #![proptest_config(config())]

    /// With a capacity and no crash, no channel ever holds more records than its capacity (its
    /// own where `channel-capacities` names it, else the job's, else none), under any speeds, any
    /// strategy with barriers, and any schedule.
    #[test]
    fn no_channel_holds_more_records_than_its_capacity(
        seed in any::<u64>(),
        capacity in prop::option::of(1u32..5),
        own in prop::collection::vec(prop::option::of(1u32..4), 2),
        cost in 1u32..5,
        slow in 0usize..3,
        strategy in prop::sample::select(vec![Strategy::Aligned, Strategy::Unaligned, Strategy::AtLeastOnce]),
        checkpoints in prop::collection::vec(0u64..60, 0..4),
    ) {
        let mut s = Settings::new(strategy);
        s.channel_capacity = capacity;
        for (name, items) in ["Source->Map", "Map->Count"].iter().zip(&own) {
            if let Some(n) = items {
                s.channel_capacities.insert(name.to_string(), *n);
            }
        }
        let caps: Vec<Option<u32>> = own.iter().map(|o| o.or(capacity)).collect();
        let names = ["Source", "Map", "Count"];
        if cost > 1 {
            s.record_cost.insert(names[slow].into(), cost);
        }
        let mut sim = RunConfig { job: "line".into(), settings: s, seed, records: Some(12) }.scenario().sim().unwrap();
        for step in 0..200u64 {
            if checkpoints.contains(&step) && sim.check(Action::Checkpoint).is_ok() {
                sim.step(Action::Checkpoint).unwrap();
            }
            if !sim.has_work() {
                break;
            }
            sim.step(Action::Auto).unwrap();
            for (name, cap) in ["Source->Map", "Map->Count"].iter().zip(&caps) {
                let c = ch(&sim, name);
                prop_assert_eq!(sim.channel_buffers(c), *cap);
                if let Some(cap) = cap {
                    prop_assert!(records_on(&sim, c) <= *cap as usize, "step {}: {:?}", step, sim.queue(c));
                }
            }
        }
    }
}

/// The side-by-side comparison takes backpressure's settings (issue 53, item 6;
/// `scenarios/compare/backpressure-remedies.json`): one slow Count, channels of 3, a checkpoint
/// timeout of 15 steps, a crash of the cluster at tick 46. Theory: every aligned checkpoint waits
/// behind the queue and expires, so the aligned run restarts from nothing; unaligned and debloated
/// checkpoints complete, so those runs restore from one; and the later the checkpoint restored, the
/// fewer records are read again. Every run keeps its state exactly once.
#[test]
fn side_by_side_the_remedies_restore_from_a_checkpoint_where_aligned_has_none() {
    use barrierscope::engine::comparison::{ComparisonFile, Lockstep};
    use barrierscope::engine::{RestoreFrom, Verdict};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/compare/backpressure-remedies.json");
    let file = ComparisonFile::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let l = Lockstep::run(&file).unwrap();
    let costs: Vec<_> = l.lanes.iter().map(|lane| lane.costs()).collect();
    let from: Vec<_> = costs.iter().map(|c| c.recovery.restored_from.clone()).collect();
    // Aligned: every checkpoint before the crash expired.
    assert_eq!(from[0], Some(RestoreFrom::Nothing), "{from:?}");
    let checkpoint = |f: &Option<RestoreFrom>| match f {
        Some(RestoreFrom::Checkpoint { checkpoint }) => checkpoint.0,
        other => panic!("restored from {other:?}"),
    };
    let (unaligned, debloated) = (checkpoint(&from[1]), checkpoint(&from[2]));
    assert!(unaligned >= debloated, "unaligned {unaligned}, debloated {debloated}");
    let again: Vec<u32> = costs.iter().map(|c| c.reprocessed.records).collect();
    assert!(again[0] > again[2] && again[2] >= again[1], "records read again: {again:?}");
    assert!(costs.iter().all(|c| c.verdicts.state == Verdict::ExactlyOnce));
}

/// The capacity moves between every channel and one (`Edit::BoundedChannel`), the capacity field
/// edits whichever is bounded, and a channel the job does not have is refused by name.
#[test]
fn a_capacity_moves_between_every_channel_and_one() {
    use barrierscope::engine::settings::{Edit, DEFAULT_CHANNEL_CAPACITY};
    let g = sim("line", Settings::default(), None).graph.clone();
    let graph = &g;
    let every = Settings::default().edited(Edit::ChannelCapacity(Some(3)));
    // One channel: the capacity moves to it, and the others are unbounded.
    let one = every.edited_for(Edit::BoundedChannel(Some(1)), graph);
    assert_eq!((one.channel_capacity, one.channel_capacities.get("Map->Count")), (None, Some(&3)));
    assert_eq!(one.validate(graph), Ok(()));
    // The capacity field then edits that channel's.
    assert_eq!(one.edited(Edit::ChannelCapacity(Some(5))).channel_capacities.get("Map->Count"), Some(&5));
    // Emptied, nothing is bounded; back to every channel, the capacity goes with it.
    assert_eq!(one.edited(Edit::ChannelCapacity(None)), Settings::default());
    assert_eq!(one.edited_for(Edit::BoundedChannel(None), graph), every);
    // From nothing bounded, one channel takes the default.
    let fresh = Settings::default().edited_for(Edit::BoundedChannel(Some(0)), graph);
    assert_eq!(fresh.channel_capacities.get("Source->Map"), Some(&DEFAULT_CHANNEL_CAPACITY));
    // A strategy edit keeps it.
    assert_eq!(one.edited(Edit::Strategy(Strategy::Unaligned)).channel_capacities, one.channel_capacities);
    // A name the job does not have, or a capacity out of range, is refused by name.
    let mut bad = Settings::default();
    bad.channel_capacities.insert("Map->Sink".into(), 2);
    let e = bad.validate(graph).unwrap_err().to_string();
    assert!(e.contains("\"Map->Sink\"") && e.contains("Source->Map, Map->Count"), "{e}");
    let mut zero = Settings::default();
    zero.channel_capacities.insert("Map->Count".into(), 0);
    assert!(zero.validate(graph).unwrap_err().to_string().contains("channel-capacities of Map->Count must be 1 to"));
}
