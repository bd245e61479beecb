//! Buffer debloating, after Flink's FLIP-183 and its `BufferDebloater`: a task's input buffers
//! hold what the task can take in a target time (`taskmanager.network.memory.buffer-debloat.target`,
//! 1 s by default), no more. Bounded channels keep a slow task's input full, and under aligned
//! checkpoints a barrier waits behind all of it; buffers sized to the throughput keep that wait
//! near the target, while the task stays as busy as before. The buffers are set from the measured
//! throughput, which is the task's real speed only while it is busy: an idle task's buffers
//! shrink, and grow back as its throughput does.
//!
//! Here, after each step, a task's input channels get `throughput × target` items, at least one
//! and at most the channel capacity (the flow's ceiling): the throughput is the records it took in
//! the last `task_time::WINDOW` steps, per step. Flink measures bytes and sets the size of each
//! buffer, over an exponential average of its samples, every
//! `taskmanager.network.memory.buffer-debloat.period` (200 ms); it ignores a change of less than
//! `threshold-percentages` (25 %) unless the new size is the least or the most, as this does. The simulator counts records as buffers and
//! starts when the window is full.

use crate::engine::core::dataflow::flow::UNBOUNDED;
use crate::engine::core::dataflow::task_time::WINDOW;
use crate::engine::core::ids::{ChannelId, TaskId};
use crate::engine::core::sim::Sim;

/// A change smaller than this share of the buffers is ignored (Flink's
/// `buffer-debloat.threshold-percentages`, 25).
const THRESHOLD_PERCENT: u32 = 25;

/// The buffers for a task that took `taken` records in `seen` steps, to hold `target` steps of
/// its work, between 1 and `ceiling`; `old` stays unless the change is at least the threshold, or
/// reaches 1 or `ceiling`.
pub fn debloated(taken: u32, seen: u32, target: u32, ceiling: u32, old: u32) -> u32 {
    if seen == 0 {
        return old;
    }
    let want = (taken as u64 * target as u64).div_ceil(seen as u64).clamp(1, ceiling as u64) as u32;
    // Flink announces the smallest and the largest size even when the change is under the
    // threshold (`BufferDebloater.skipUpdate`).
    if want.abs_diff(old) * 100 >= old * THRESHOLD_PERCENT || (want != old && (want == 1 || want == ceiling)) {
        want
    } else {
        old
    }
}

impl Sim {
    /// The items channel `c` holds at most now (None: unbounded).
    pub fn channel_buffers(&self, c: ChannelId) -> Option<u32> {
        if !self.flow.bounded {
            return None;
        }
        let to = self.graph.channel(c).to;
        let cap = self.flow.caps[c.index()];
        match self.flow.debloat_target {
            // Debloated buffers start at the ceiling and never exceed it (`debloated`); a channel
            // with a capacity of its own holds no more than that.
            Some(_) => Some(self.live.tasks[to.index()].time.buffers.min(cap)),
            None => (cap != UNBOUNDED).then_some(cap),
        }
    }

    /// Each running task's buffers set to its throughput times `target`, once its window is full.
    pub(crate) fn debloat(&mut self, target: u32) {
        for i in 0..self.live.tasks.len() {
            if !self.task_up(TaskId(i as u16)) {
                continue;
            }
            let shares = self.live.tasks[i].time.shares();
            if shares.seen() < WINDOW as u32 {
                continue;
            }
            let time = &mut self.live.tasks[i].time;
            time.buffers = debloated(shares.taken, shares.seen(), target, self.flow.ceiling, time.buffers);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_hold_the_target_time_of_work() {
        // A task that takes a record every 4 steps, with a target of 10 steps: 3 buffers (2.5 up).
        assert_eq!(debloated(10, 40, 10, 100, 100), 3);
        // Never below one, never above the ceiling.
        assert_eq!(debloated(0, 10, 10, 100, 100), 1);
        assert_eq!(debloated(10, 10, 1000, 8, 1), 8);
        // A change under 25 % is ignored; one of 25 % is made; so is one to the least or the most.
        assert_eq!(debloated(9, 10, 10, 100, 10), 10);
        assert_eq!(debloated(15, 10, 10, 100, 12), 15);
        assert_eq!(debloated(1, 10, 10, 100, 2), 1);
        assert_eq!(debloated(20, 10, 10, 11, 10), 11);
        // Nothing seen yet: as it was.
        assert_eq!(debloated(0, 0, 10, 100, 7), 7);
    }
}
