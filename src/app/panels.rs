//! The panels beside and under the canvas: the verdict (per-record ledger), the narration, the
//! Flink-style Checkpoints tab, checkpoint storage and the external system as a reader sees it.
//! Each is a component that gets the part of the run it shows, so a step that leaves that part as
//! it was does not draw the panel again.
//!
//! A file each: the verdict (`panels/verdict.rs`), the narration (`narration.rs`), the
//! Checkpoints tab (`checkpoints.rs`), checkpoint storage (`storage.rs`) and the external system
//! (`external.rs`); in the Checkpoints tab, the chart of its checkpoints (`checkpoint_chart.rs`)
//! and each task's busy, backpressured and idle time (`task_time_table.rs`).

mod checkpoint_chart;
mod checkpoints;
mod external;
mod narration;
mod storage;
mod task_time_table;
mod verdict;

pub use checkpoints::{CheckpointsPanel, CheckpointsProps, CheckpointsView};
pub use external::external_panel;
pub use narration::{NarrationPanel, NarrationStepProps, RunProps};
pub use storage::{StoragePanel, StorageProps};
pub use verdict::{LedgerRowProps, VerdictPanel, VerdictProps};
