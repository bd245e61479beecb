//! Storm's events: what the acker, the spouts and the bolts report at each step (`__ack_init`,
//! `__ack_ack`, the acker's XOR, a tree completed or timed out, the spout's commit), and Nimbus and
//! the supervisors failing and coming back; and where its restart came from. The run's
//! [`Event`](crate::engine::core::action::Event) carries them as `Event::Mechanism` (the
//! catalogue's `MechanismEvent::Storm`); their narration is `wording.rs`'s.

use serde::{Deserialize, Serialize};

use crate::engine::core::ids::{RecordId, TaskId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum StormEvent {
    /// A spout emitted `record` as a new tuple tree `root` and sent `__ack_init`.
    AckInitSent { task: TaskId, record: RecordId, root: u64 },
    /// A bolt acked its input tuple of tree `root`, after emitting `anchored` children
    /// anchored to it and `unanchored` without an anchor.
    AckSent { task: TaskId, record: RecordId, root: u64, anchored: u16, unanchored: u16 },
    /// The acker XORed a message from `from` into tree `root`; its value is now `val`.
    AckerUpdated { from: TaskId, record: RecordId, root: u64, val: u64 },
    /// Tree `root` reached 0: every tuple of it was acked; the acker tells the spout.
    TreeCompleted { spout: TaskId, record: RecordId, root: u64 },
    /// The spout got the ack for `record`, forgot it, and has committed up to `committed`.
    SpoutAcked { task: TaskId, record: RecordId, offset: u32, committed: u32 },
    /// An ack for a tree the spout had already failed (timed out): ignored.
    StaleAckIgnored { task: TaskId, record: RecordId },
    /// The tuple was not fully acked within the message timeout: it failed, and the spout
    /// will emit the offset again.
    TupleTimedOut { task: TaskId, record: RecordId, offset: u32 },
    /// The acker's pending map rotated an unfinished tree out, silently.
    AckerForgot { root: u64, record: Option<RecordId> },
    /// Nimbus died. The workers keep processing; submissions and reassignment wait.
    NimbusDown,
    /// Nimbus is back.
    NimbusRestarted,
    /// While Nimbus is down, the supervisor restarts the dead worker on its own.
    SupervisorRestarted,
}

/// Where Storm's restart came from, as `RestoreFrom::Mechanism` carries it: every bolt starts
/// empty (Storm saves no state) and each spout resumes at the offset it committed to its log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "from")]
pub enum StormRestore {
    /// Operators empty, each source from the offset it committed to its log.
    Committed,
}
