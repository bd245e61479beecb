//! The failure-free run: the model every verdict is judged against. The same job and input, no
//! snapshots, no crashes, every record drained through in a fixed order. Per source record it
//! says how often the record is reflected in operator state and in the sinks' external output
//! when nothing goes wrong, and how often it takes effect at each task input; the ledger calls a
//! record lost, duplicated or incomplete by comparison with it.

use std::rc::Rc;

use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::history::PlaceCounts;
use crate::engine::core::sim::Expected;
use crate::engine::core::sim::Sim;
use crate::engine::settings::{Settings, SinkMode, Strategy};

impl Sim {
    /// Runs `graph` failure-free. Its sink writes as the run's does, except that two-phase
    /// commit counts every write as committed (as the final checkpoint at the end of input would
    /// make it).
    pub(crate) fn failure_free(graph: &Rc<JobGraph>, sink: SinkMode) -> Expected {
        let placeholder = Rc::new(Expected { state: vec![], external: vec![], places: PlaceCounts::default() });
        let sink = if sink == SinkMode::Upsert { SinkMode::Upsert } else { SinkMode::Append };
        let settings = Settings::new(Strategy::None).with_sink(sink);
        let mut sim = Sim::with_expected(graph.clone(), settings, 0, placeholder);
        let mut out = Vec::new();
        let mut steps = Vec::new();
        loop {
            out.clear();
            // The first enabled delivery, else the first enabled read.
            sim.enabled_steps(&mut steps);
            match steps.first() {
                Some(&a) => sim.apply(a, &mut out).expect("enabled"),
                None => break,
            }
        }
        Expected {
            state: sim.state_counts(),
            external: sim.external_counts(),
            places: PlaceCounts::of(&sim.effects, graph),
        }
    }
}
