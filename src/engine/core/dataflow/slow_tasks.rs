//! Slow tasks. A real task spends time on each record, and a task slower than the ones feeding it
//! is where backpressure starts: its input channels fill, the task before it cannot send, and in
//! the end the source stops reading. Here a task takes one step a record unless the setting
//! `record-cost` names it: a task whose cost is `c` and which takes a record (a source: reads one)
//! at step `t` is busy until step `t + c`, and its mailbox takes nothing meanwhile, a barrier
//! included. So does Flink's: the mailbox thread finishes the record in hand before it looks at
//! the next item, and an unaligned barrier overtakes the records queued in the buffers, never the
//! one being processed (FLIP-76). The scheduler draws among what is enabled, so the other tasks go
//! on meanwhile; when nothing else can, time passes (`Action::Wait`).
//!
//! A run that names a slow task, bounds its channels or debloats their buffers watches its flow
//! (`flow::Flow`): after each step each task's time is classed busy, backpressured or idle
//! (`back_pressure_monitor`), and the buffers are debloated (`buffer_debloat`). A run that does none of these
//! pays nothing for it on its hot path.
//!
//! A story, run as a test: a Count that takes 3 steps a record behind a channel of 2 buffers
//! holds the source back; it is never handed a record while it is busy, and its channel never
//! holds more than its buffers.
//!
//! ```
//! use barrierscope::engine::{Action, ActionError, Scenario, Settings, Strategy};
//!
//! let mut settings = Settings::new(Strategy::Aligned);
//! settings.channel_capacity = Some(2);
//! settings.record_cost.insert("Count".into(), 3);
//! let mut sim = Scenario::builtin("line", settings, 5).sim().unwrap();
//! let count = sim.graph.task_by_name("Count").unwrap();
//! let mut refused_busy = 0;
//! while sim.has_work() {
//!     for c in 0..sim.graph.channels.len() {
//!         let channel = barrierscope::engine::ChannelId(c as u16);
//!         if let Err(ActionError::Busy { .. }) = sim.check(Action::Deliver { channel }) {
//!             refused_busy += 1;
//!         }
//!         assert!(sim.queue(channel).len() <= 2);
//!     }
//!     sim.step(Action::Auto).unwrap();
//! }
//! assert!(refused_busy > 0, "Count was busy at times");
//! assert_eq!(sim.record_cost(count), 3);
//! assert_eq!(sim.ledger().state.lost, 0);
//! ```

use crate::engine::core::error::ActionError;
use crate::engine::core::ids::TaskId;
use crate::engine::core::sim::Sim;

impl Sim {
    /// Does the run watch its flow (slow tasks, bounded or debloated channels)? The canvas then
    /// marks each task busy, backpressured or idle.
    pub fn watches_flow(&self) -> bool {
        self.flow.watched
    }

    /// The steps one record keeps task `t` busy.
    pub fn record_cost(&self, t: TaskId) -> u32 {
        self.flow.costs.get(t.index()).copied().unwrap_or(1)
    }

    /// The step until which task `t` is busy with the record in hand, if it is now.
    pub fn busy_until(&self, t: TaskId) -> Option<u64> {
        let until = self.live.tasks[t.index()].busy_until;
        (self.flow.slow && self.tick < until).then_some(until)
    }

    /// Task `t` may take its next item (it is not busy with a record).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn free(&self, t: TaskId) -> bool {
        !self.flow.slow || self.tick >= self.live.tasks[t.index()].busy_until
    }

    /// [`Sim::free`], with the reason when it is not.
    pub(crate) fn need_free(&self, t: TaskId) -> Result<(), ActionError> {
        match self.busy_until(t) {
            None => Ok(()),
            Some(until) => {
                Err(ActionError::Busy { task: self.graph.task(t).name.clone(), until, cost: self.record_cost(t) })
            }
        }
    }

    /// Task `t` takes a record (a source: reads one) at this step: it is busy for its cost.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn took(&mut self, t: TaskId) {
        if self.flow.watched {
            let cost = self.record_cost(t) as u64;
            self.live.tasks[t.index()].busy_until = self.tick + cost;
        }
    }

    /// Is some task busy now (the scheduler then lets time pass when nothing else can)?
    pub(crate) fn some_task_busy(&self) -> bool {
        self.flow.slow && (0..self.live.tasks.len()).any(|t| self.busy_until(TaskId(t as u16)).is_some())
    }
}
