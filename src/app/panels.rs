//! The panels beside and under the canvas: the verdict (per-record ledger), the narration, the
//! Flink-style Checkpoints tab, checkpoint storage and the external system as a reader sees it.
//! Each is a component that gets the part of the run it shows, so a step that leaves that part as
//! it was does not draw the panel again.
//!
//! A file each: the verdict (`panels/verdict.rs`), the narration (`narration.rs`), the
//! Checkpoints tab (`checkpoints.rs`), checkpoint storage (`storage.rs`) and the external system
//! (`external.rs`).

mod checkpoints;
mod external;
mod narration;
mod storage;
mod verdict;

pub use checkpoints::{CheckpointsPanel, CheckpointsProps, CheckpointsView};
pub use external::external_panel;
pub use narration::{NarrationPanel, NarrationStepProps, RunProps};
pub use storage::{StoragePanel, StorageProps};
pub use verdict::{LedgerRowProps, VerdictPanel, VerdictProps};
