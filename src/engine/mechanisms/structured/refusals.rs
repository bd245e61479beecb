//! Why Structured Streaming refuses an action: a source reads only the offsets the driver wrote in
//! the offset log for the running micro-batch, so it cannot read before the driver has planned a
//! batch, nor past its batch's range. Carried by `ActionError::Mechanism` (the catalogue's
//! `MechanismRefusal::Structured`), and worded here in English and Chinese, beside the check in
//! [`super::micro_batch_execution`] that makes it.

use crate::engine::core::lang::{say, Lang};

/// One of Structured Streaming's refusals. Names are resolved when it is made, as in every
/// `ActionError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StructuredRefusal {
    /// No batch runs: the driver writes the next batch's offsets first.
    NoBatchPlanned { task: String, batch: u32 },
    /// The source has read its whole range of the running batch.
    RangeRead { task: String, batch: u32, end: u32 },
}

impl StructuredRefusal {
    /// Why the action was refused, in one clause.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            StructuredRefusal::NoBatchPlanned { task, batch } => say!(
                lang,
                "{task} reads only what a micro-batch's offset log entry names, and the driver has not written offsets/{batch} yet (wait)",
                "{task} 只读取微批在偏移日志中写明的数据，而驱动器还没有写下 offsets/{batch}（等待）"
            ),
            StructuredRefusal::RangeRead { task, batch, end } => say!(
                lang,
                "{task} has read batch {batch}'s range, which offsets/{batch} ends at offset {end}; the next offsets belong to the next batch (wait)",
                "{task} 已读完批次 {batch} 的范围（offsets/{batch} 写明到偏移 {end} 为止）；之后的偏移属于下一个批次（等待）"
            ),
        }
    }
}
