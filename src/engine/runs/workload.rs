//! A fixed workload for measuring engine speed the same way natively (criterion) and in wasm (the
//! browser benchmark): `keyed-shuffle` with generated input, an aligned checkpoint every 100
//! steps, driven by the seeded scheduler until every record is through. And the explorer's
//! workload, searched the same way by `benches/engine.rs` and, in the browser,
//! `benches/explore_browser.rs`: every schedule of `line` with a few records.

use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::builtin_jobs::{auto_label, builtin, generated_input};
use crate::engine::core::dataflow::job_graph::{LogEntry, SourceInput};
use crate::engine::core::ids::{ChannelId, TaskId};
use crate::engine::core::sim::Sim;
use crate::engine::explorer::{Completion, Explorer, Report};
use crate::engine::runs::scenario::{FaultBudget, Scenario};
use crate::engine::runs::script::{OnRefusal, ScriptAction};
use crate::engine::settings::{Settings, Strategy};

/// The simulation the workload starts from: `per_partition` records in each of the two partitions.
pub fn start(per_partition: usize) -> Sim {
    let mut s = Settings::new(Strategy::Aligned);
    s.checkpoint_interval = Some(100);
    let mut sc = Scenario::builtin("keyed-shuffle", s, 42);
    sc.input = Some(generated_input(&builtin("keyed-shuffle").expect("built-in").spec, per_partition));
    sc.sim().expect("the workload is valid")
}

/// Runs the workload to the end through the script interpreter (`auto` until nothing is left);
/// returns the number of steps taken.
pub fn run(sim: &mut Sim) -> u64 {
    let until_done = ScriptAction::Auto(u32::MAX);
    sim.play_line(&until_done, usize::MAX, OnRefusal::Stop, &mut |_, _| {}).expect("auto is never refused") as u64
}

/// `n` records for a log, labelled from `offset` on (a, b, c, …) with keys x, y, z in turn.
pub fn log(n: usize, offset: usize) -> Vec<LogEntry> {
    (0..n).map(|i| LogEntry::Short(format!("{}:{}", auto_label(offset + i), ["x", "y", "z"][i % 3]))).collect()
}

/// `line` with aligned checkpoints (no interval) and `records` records in its source's log: the
/// deliveries benchmarks' start (`benches/engine.rs`, `benches/instructions.rs`).
pub fn line_start(records: usize) -> Sim {
    let mut sc = Scenario::builtin("line", Settings::new(Strategy::Aligned), 1);
    sc.input = Some([("Source".to_string(), SourceInput::Single(log(records, 0)))].into());
    sc.sim().expect("line is valid")
}

/// `keyed-shuffle` with aligned checkpoints (no interval) and `records` records, half in each
/// partition: the keyed-shuffle deliveries benchmark's start.
pub fn shuffle_start(records: usize) -> Sim {
    let mut sc = Scenario::builtin("keyed-shuffle", Settings::new(Strategy::Aligned), 1);
    sc.input = Some(
        [("Source".to_string(), SourceInput::Partitions(vec![log(records / 2, 0), log(records / 2, records / 2)]))]
            .into(),
    );
    sc.sim().expect("keyed-shuffle is valid")
}

/// Drives `line` (from [`line_start`]) one record at a time: at most `records` reads by the
/// source, each followed by the deliveries of everything in both channels (source to map, map to
/// sink), and a checkpoint before every 100th read. Returns the deliveries: the `Processed`
/// events, two per record (the map's and the sink's).
pub fn drive_line(sim: &mut Sim, records: usize, out: &mut Vec<Event>) -> u64 {
    let (s, sm, mc) = (TaskId(0), ChannelId(0), ChannelId(1));
    let n = sim.graph.task(s).log.len().min(records);
    let mut delivered = 0;
    for i in 0..n {
        out.clear();
        if i % 100 == 99 {
            sim.apply(Action::Checkpoint, out).expect("a checkpoint can start");
        }
        sim.apply(Action::Read { task: s }, out).expect("the source can read");
        for c in [sm, mc] {
            while !sim.queue(c).is_empty() {
                sim.apply(Action::Deliver { channel: c }, out).expect("a delivery");
            }
        }
        delivered += out.iter().filter(|e| matches!(e, Event::Processed { .. })).count() as u64;
    }
    delivered
}

/// Drives a run with the seeded scheduler (`Auto`) until nothing is left to do; returns the
/// deliveries (the `Processed` events).
pub fn drive_auto(sim: &mut Sim, out: &mut Vec<Event>) -> u64 {
    let mut delivered = 0;
    while sim.apply(Action::Auto, out).is_ok() {
        delivered += out.iter().filter(|e| matches!(e, Event::Processed { .. })).count() as u64;
        out.clear();
    }
    delivered
}

/// The schedule explorer on `line` with `records` records: one round of snapshots, one crash at
/// any moment, then the restore and the rest of the run.
pub fn explore_line(strategy: Strategy, records: usize, completion: Completion) -> Report {
    let mut sc = Scenario::builtin("line", Settings::new(strategy), 1);
    sc.input = Some([("Source".to_string(), SourceInput::Single(log(records, 0)))].into());
    let mut ex = Explorer::with_completion(sc.sim().expect("line is valid"), FaultBudget::default(), completion)
        .expect("line can be explored");
    while !ex.run(4096).done {}
    ex.report().expect("the search is done").clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_workload_ends_exactly_once() {
        let mut sim = super::start(200);
        let steps = super::run(&mut sim);
        // 400 reads, 400 deliveries to the counts, 400 to the sink, and 6 barrier deliveries per
        // checkpoint (4 source-to-count channels, 2 count-to-sink).
        let checkpoints = sim.stats.counts().triggered as u64;
        assert!(checkpoints >= 3 && sim.stats.counts().completed >= 3);
        assert_eq!(steps, 1200 + 6 * checkpoints);
        assert_eq!(sim.ledger().state.exactly_once, 400);
    }

    #[test]
    fn a_record_through_line_is_two_deliveries() {
        // The instruction benchmark's per-delivery figure divides by this (benches/instructions.rs).
        let mut sim = super::line_start(300);
        assert_eq!(super::drive_line(&mut sim, 200, &mut Vec::new()), 400);
        assert_eq!(sim.stats.counts().completed, 2);
        assert_eq!(super::drive_auto(&mut super::shuffle_start(200), &mut Vec::new()), 400);
    }
}
