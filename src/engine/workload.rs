//! A fixed workload for measuring engine speed the same way natively (criterion) and in wasm (the
//! browser benchmark): `keyed-shuffle` with generated input, an aligned checkpoint every 100
//! steps, driven by the seeded scheduler until every record is through.

use super::dataflow::builtin_jobs::{builtin, generated_input};
use super::scenario::Scenario;
use super::script::{OnRefusal, ScriptAction};
use super::settings::{Settings, Strategy};
use super::sim::Sim;

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
}
