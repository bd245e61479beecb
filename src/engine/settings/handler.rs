//! What a barrier handler of the lab is: four choices (on the first barrier, records after a
//! barrier, on the last barrier, in-flight records), the three of Flink's handlers among them,
//! which combinations make sense, their words, the guarantee each keeps, and the table of the 24
//! combinations a run holds its handler as ([`HandlerLab`]). Data only: what runs a handler is in
//! `mod.rs`.

use serde::{Deserialize, Serialize};

use crate::engine::core::lang::Lang;

/// The delivery guarantee a candidate keeps on every schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Guarantee {
    ExactlyOnce,
    AtLeastOnce,
    AtMostOnce,
    NoneOfThese,
}

impl Guarantee {
    pub fn id(self) -> &'static str {
        match self {
            Guarantee::ExactlyOnce => "exactly once",
            Guarantee::AtLeastOnce => "at least once",
            Guarantee::AtMostOnce => "at most once",
            Guarantee::NoneOfThese => "none of these",
        }
    }
}

/// On the first barrier of a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnFirstBarrier {
    SnapshotNow,
    Wait,
}

/// Records arriving on an input after its barrier, until the last barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AfterBarrier {
    Block,
    Process,
    Drop,
}

/// On the last barrier of a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnLastBarrier {
    Snapshot,
    ForwardOnly,
}

/// A composed barrier handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Handler {
    pub first: OnFirstBarrier,
    pub after: AfterBarrier,
    pub last: OnLastBarrier,
    /// The snapshot stores in-flight records (needs a snapshot at the first barrier).
    pub in_flight: bool,
}

impl Handler {
    /// Flink's aligned checkpoints.
    pub const ALIGNED: Handler = Handler {
        first: OnFirstBarrier::Wait,
        after: AfterBarrier::Block,
        last: OnLastBarrier::Snapshot,
        in_flight: false,
    };
    /// Flink's barrier tracker (at-least-once).
    pub const TRACKER: Handler = Handler {
        first: OnFirstBarrier::Wait,
        after: AfterBarrier::Process,
        last: OnLastBarrier::Snapshot,
        in_flight: false,
    };
    /// Flink's unaligned checkpoints.
    pub const UNALIGNED: Handler = Handler {
        first: OnFirstBarrier::SnapshotNow,
        after: AfterBarrier::Process,
        last: OnLastBarrier::ForwardOnly,
        in_flight: true,
    };

    /// Every handler that makes sense: forward only and in-flight records need a snapshot at the
    /// first barrier.
    pub fn all() -> Vec<Handler> {
        (0..HANDLERS.len()).map(|i| HANDLERS[i].handler).filter(|h| h.check().is_ok()).collect()
    }

    /// Why this combination makes no sense, if it does not.
    pub fn check(&self) -> Result<(), &'static str> {
        match (self.first, self.last, self.in_flight) {
            (OnFirstBarrier::Wait, OnLastBarrier::ForwardOnly, _) => {
                Err("forward only on the last barrier needs a snapshot taken at the first: the task would save nothing")
            }
            (OnFirstBarrier::Wait, _, true) => Err(
                "in-flight records are those that arrive between a snapshot taken at the first barrier and the last barrier; waiting, there are none",
            ),
            _ => Ok(()),
        }
    }

    const fn index(&self) -> usize {
        let first = match self.first {
            OnFirstBarrier::SnapshotNow => 0,
            OnFirstBarrier::Wait => 1,
        };
        let after = match self.after {
            AfterBarrier::Block => 0,
            AfterBarrier::Process => 1,
            AfterBarrier::Drop => 2,
        };
        let last = match self.last {
            OnLastBarrier::Snapshot => 0,
            OnLastBarrier::ForwardOnly => 1,
        };
        ((first * 3 + after) * 2 + last) * 2 + self.in_flight as usize
    }

    const fn from_index(i: usize) -> Handler {
        Handler {
            first: if i / 12 == 0 { OnFirstBarrier::SnapshotNow } else { OnFirstBarrier::Wait },
            after: match (i / 4) % 3 {
                0 => AfterBarrier::Block,
                1 => AfterBarrier::Process,
                _ => AfterBarrier::Drop,
            },
            last: if (i / 2) % 2 == 0 { OnLastBarrier::Snapshot } else { OnLastBarrier::ForwardOnly },
            in_flight: i % 2 == 1,
        }
    }

    /// The guarantee the explorer classifies this handler as
    /// ([`crate::engine::explorer::lab::classify`] on its three probe jobs), kept as a table so
    /// that the main screen names it without running the explorer; `tests/explorer.rs` checks
    /// every entry against the classifier.
    pub fn classified(&self) -> Guarantee {
        use AfterBarrier::*;
        use OnFirstBarrier::*;
        use OnLastBarrier::*;
        match (self.first, self.after, self.last, self.in_flight) {
            (SnapshotNow, Block | Process, ForwardOnly, true) => Guarantee::ExactlyOnce,
            (SnapshotNow, Process, Snapshot, _) => Guarantee::NoneOfThese,
            (SnapshotNow, _, _, _) => Guarantee::AtMostOnce,
            (Wait, Block, _, _) => Guarantee::ExactlyOnce,
            (Wait, Process, _, _) => Guarantee::AtLeastOnce,
            (Wait, Drop, _, _) => Guarantee::AtMostOnce,
        }
    }

    /// The four choices in words: "wait; block and buffer; snapshot; no in-flight records".
    pub fn words(&self, lang: Lang) -> String {
        let first = match self.first {
            OnFirstBarrier::SnapshotNow => lang.t("snapshot at the first barrier", "第一个屏障时快照"),
            OnFirstBarrier::Wait => lang.t("wait at the first barrier", "第一个屏障时等待"),
        };
        let after = match self.after {
            AfterBarrier::Block => {
                lang.t("block and buffer what comes after a barrier", "阻塞并缓存屏障之后到达的记录")
            }
            AfterBarrier::Process => lang.t("process what comes after a barrier", "处理屏障之后到达的记录"),
            AfterBarrier::Drop => lang.t("drop what comes after a barrier", "丢弃屏障之后到达的记录"),
        };
        let last = match self.last {
            OnLastBarrier::Snapshot => lang.t("snapshot at the last", "最后一个屏障时快照"),
            OnLastBarrier::ForwardOnly => lang.t("only forward at the last", "最后一个屏障时只转发"),
        };
        let in_flight = if self.in_flight {
            lang.t("in-flight records stored", "保存在途记录")
        } else {
            lang.t("no in-flight records", "不保存在途记录")
        };
        match lang {
            Lang::En => format!("{first}; {after}; {last}; {in_flight}"),
            Lang::Zh => format!("{first}；{after}；{last}；{in_flight}"),
        }
    }
}

impl Handler {
    /// This handler's entry of the table, which `mod.rs` runs as a mechanism.
    pub(crate) fn mechanism(&self) -> &'static HandlerLab {
        &HANDLERS[self.index()]
    }
}

/// A composed barrier handler as the run holds it: one entry of a fixed table, so that a run holds
/// it as it holds a built-in mechanism (`mod.rs` runs it as a `Mechanism`).
#[derive(Clone, Copy, Debug)]
pub struct HandlerLab {
    pub handler: Handler,
}

const fn table() -> [HandlerLab; 24] {
    let mut t = [HandlerLab { handler: Handler::ALIGNED }; 24];
    let mut i = 0;
    while i < 24 {
        t[i] = HandlerLab { handler: Handler::from_index(i) };
        i += 1;
    }
    t
}

static HANDLERS: [HandlerLab; 24] = table();
