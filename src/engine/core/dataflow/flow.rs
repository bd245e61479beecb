//! What a run watches of its flow, fixed from its settings when it starts: whether some task is
//! slow (`slow_tasks`), whether channels are bounded (a capacity for every channel or for some,
//! or debloated buffers: `buffer_debloat`), and so whether each step ends with the tasks' time classed
//! (`back_pressure_monitor`). A run that watches none of it pays nothing for it on its hot path.

use std::rc::Rc;

use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::settings::{Settings, MAX_CHANNEL_CAPACITY};

/// What a run watches of its flow, fixed when it starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flow {
    /// Some task is slow, a channel bounded or a buffer debloated: each step ends with the tasks'
    /// time classed (and the buffers debloated).
    pub watched: bool,
    /// Some task takes more than one step a record.
    pub slow: bool,
    /// Channels hold a bounded number of items (a capacity, or debloated buffers).
    pub bounded: bool,
    /// The most items a channel holds (the job's capacity; debloated buffers start here).
    pub ceiling: u32,
    /// Each channel's own capacity, by channel index: `channel-capacities` where it names the
    /// channel, else `channel-capacity`, else [`UNBOUNDED`]. Empty when no channel is bounded.
    pub caps: Rc<Vec<u32>>,
    /// Buffer debloating's target in steps.
    pub debloat_target: Option<u32>,
    /// Each task's steps a record, by task index.
    pub costs: Rc<Vec<u32>>,
}

/// A channel's capacity when nothing bounds it.
pub const UNBOUNDED: u32 = u32::MAX;

impl Flow {
    pub fn of(settings: &Settings, graph: &JobGraph) -> Flow {
        let costs: Vec<u32> =
            graph.tasks.iter().map(|t| settings.record_cost.get(&t.name).copied().unwrap_or(1).max(1)).collect();
        let slow = costs.iter().any(|c| *c > 1);
        let bounded = settings.channel_capacity.is_some()
            || !settings.channel_capacities.is_empty()
            || settings.buffer_debloat_target.is_some();
        let caps = if bounded {
            let every = settings.channel_capacity.unwrap_or(UNBOUNDED);
            graph.channels.iter().map(|c| settings.channel_capacities.get(&c.name).copied().unwrap_or(every)).collect()
        } else {
            Vec::new()
        };
        Flow {
            watched: slow || bounded,
            slow,
            bounded,
            ceiling: settings.channel_capacity.unwrap_or(MAX_CHANNEL_CAPACITY),
            debloat_target: settings.buffer_debloat_target,
            caps: Rc::new(caps),
            costs: Rc::new(costs),
        }
    }
}
