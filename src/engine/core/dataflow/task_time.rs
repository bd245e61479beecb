//! How a task spends its time, as Flink's task metrics class it: `busyTimeMsPerSecond` (processing
//! records), `backPressuredTimeMsPerSecond` (waiting for an output buffer: a full channel
//! downstream) and `idleTimeMsPerSecond` (waiting for input). Their sum is a second; the web UI
//! colours each task by its busy share, and its back pressure tab says OK up to 10 %
//! backpressured, LOW up to 50 %, HIGH above.
//!
//! Here a task's time is classed after every step of a run that watches its flow
//! (`flow::Flow`, by `back_pressure_monitor`), and a window of the last [`WINDOW`] steps stands for Flink's second:
//! - **busy**: it is processing a record (for its `record-cost`), or has an item it can take now;
//! - **backpressured**: it has a record to take (a source: one to read) but an output channel is
//!   full;
//! - **idle**: nothing has reached it (or it waits, aligned, for its other inputs' barriers).
//!
//! The window also counts the records the task took, its throughput, which buffer debloating
//! reads. A crash loses the window with the task, as a restarted Flink task's metrics start anew.

use serde::{Deserialize, Serialize};

use crate::engine::core::lang::Lang;

/// The steps that stand for Flink's second.
pub const WINDOW: usize = 10;

/// What a task did in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TaskClass {
    Busy,
    Backpressured,
    Idle,
}

impl TaskClass {
    /// Its name in element classes and data attributes.
    pub fn id(self) -> &'static str {
        match self {
            TaskClass::Busy => "busy",
            TaskClass::Backpressured => "backpressured",
            TaskClass::Idle => "idle",
        }
    }

    /// Its mark, as the canvas draws it in a task's corner and the quiz tells it.
    pub fn mark(self, l: Lang) -> &'static str {
        match self {
            TaskClass::Busy => l.t("● busy", "● 繁忙"),
            TaskClass::Backpressured => l.t("▲ backpressured", "▲ 反压"),
            TaskClass::Idle => l.t("○ idle", "○ 空闲"),
        }
    }
}

/// Flink's back pressure level, from the backpressured share of the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PressureLevel {
    /// At most 10 % backpressured.
    Ok,
    /// Above 10 %, at most 50 %.
    Low,
    /// Above 50 %.
    High,
}

/// A task's last [`WINDOW`] steps, and its input buffers (which debloating sets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskTime {
    /// One slot per step, by step modulo [`WINDOW`]: 0 not yet (or down), 1 busy, 2
    /// backpressured, 3 idle; plus [`TOOK`] when it took a record that step.
    slots: [u8; WINDOW],
    /// The items each of its input channels holds at most (the flow's ceiling until debloated).
    pub buffers: u32,
}

const TOOK: u8 = 4;

/// Steps of the window in each class (their sum is the steps the window has seen, at most
/// [`WINDOW`]), and the records taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeShares {
    pub busy: u32,
    pub backpressured: u32,
    pub idle: u32,
    pub taken: u32,
}

impl TimeShares {
    /// The steps the window has seen.
    pub fn seen(&self) -> u32 {
        self.busy + self.backpressured + self.idle
    }
    /// A class's share as Flink's metric: milliseconds of each second.
    pub fn ms_per_second(&self, steps: u32) -> u32 {
        match self.seen() {
            0 => 0,
            seen => steps * 1000 / seen,
        }
    }
    pub fn level(&self) -> PressureLevel {
        match self.ms_per_second(self.backpressured) {
            0..=100 => PressureLevel::Ok,
            101..=500 => PressureLevel::Low,
            _ => PressureLevel::High,
        }
    }
}

impl TaskTime {
    pub fn new(buffers: u32) -> TaskTime {
        TaskTime { slots: [0; WINDOW], buffers }
    }

    pub(crate) fn note(&mut self, tick: u64, class: Option<TaskClass>, took: bool) {
        let c = match class {
            None => 0,
            Some(TaskClass::Busy) => 1,
            Some(TaskClass::Backpressured) => 2,
            Some(TaskClass::Idle) => 3,
        };
        self.slots[tick as usize % WINDOW] = c | if took { TOOK } else { 0 };
    }

    pub fn shares(&self) -> TimeShares {
        let mut s = TimeShares::default();
        for slot in self.slots {
            match slot & 3 {
                1 => s.busy += 1,
                2 => s.backpressured += 1,
                3 => s.idle += 1,
                _ => {}
            }
            s.taken += u32::from(slot & TOOK != 0);
        }
        s
    }

    /// The window's bytes, for the explorer's state key.
    pub fn slots(&self) -> &[u8; WINDOW] {
        &self.slots
    }
}
