//! Back pressure monitoring, as Flink's task metrics do it (`busyTimeMsPerSecond`,
//! `backPressuredTimeMsPerSecond`, `idleTimeMsPerSecond`; the web UI's back pressure tab reads
//! them since Flink 1.13, where it had sampled stack traces before): after each step of a run that
//! watches its flow, each task's time is classed busy, backpressured or idle and noted in its
//! window (`task_time`), then the buffers are debloated (`buffer_debloat`).

use crate::engine::core::dataflow::job_graph::OperatorKind;
use crate::engine::core::dataflow::task_time::{TaskClass, TimeShares};
use crate::engine::core::ids::TaskId;
use crate::engine::core::sim::Sim;

impl Sim {
    /// What task `t` is doing now (None while it is down).
    pub fn task_class(&self, t: TaskId) -> Option<TaskClass> {
        if !self.task_up(t) || self.live.down.is_some() {
            return None;
        }
        if self.busy_until(t).is_some() {
            return Some(TaskClass::Busy);
        }
        let task = self.graph.task(t);
        let waiting = if task.kind == OperatorKind::Source {
            self.next_in_log(t).is_some() && self.live.stopping.is_none()
        } else {
            task.inputs.iter().any(|c| {
                let ch = &self.live.channels[c.index()];
                !ch.queue.is_empty() && !ch.blocked
            })
        };
        Some(match (waiting, self.has_room(t)) {
            (false, _) => TaskClass::Idle,
            (true, false) => TaskClass::Backpressured,
            (true, true) => TaskClass::Busy,
        })
    }

    /// Task `t`'s last [`WINDOW`](crate::engine::core::dataflow::task_time::WINDOW) steps.
    pub fn time_shares(&self, t: TaskId) -> TimeShares {
        self.live.tasks[t.index()].time.shares()
    }

    /// The end of a watched step: each task's class noted, then the buffers debloated.
    pub(crate) fn watch_flow(&mut self) {
        for i in 0..self.live.tasks.len() {
            let t = TaskId(i as u16);
            let class = self.task_class(t);
            let took = self.live.tasks[i].busy_until == self.tick + self.record_cost(t) as u64;
            let tick = self.tick;
            self.live.tasks[i].time.note(tick, class, took && class.is_some());
        }
        if let Some(target) = self.flow.debloat_target {
            self.debloat(target);
        }
    }
}
