//! The strategies' catalogue: every snapshot strategy a run can use (Flink's barrier variants,
//! per-task timers, none, Storm's acker, Spark Streaming), its scenario-file id, which settings it
//! takes, and its name in words in English and Chinese.

use serde::{Deserialize, Serialize};

use super::options::SinkMode;
use crate::engine::lang::Lang;

/// Each strategy's name, in English and in Chinese: the one place it is written. A literal, so
/// that a longer entry (a menu's "Aligned barriers (exactly once)") is built from it with
/// `concat!` and stays a `&'static str`; [`Strategy::name`] reads it at run time.
#[rustfmt::skip]
macro_rules! strategy_name {
    (None, En) => { "No snapshots" };
    (None, Zh) => { "不做快照" };
    (Timers, En) => { "Per-task timers" };
    (Timers, Zh) => { "各任务定时快照" };
    (Aligned, En) => { "Aligned barriers" };
    (Aligned, Zh) => { "对齐屏障" };
    (AtLeastOnce, En) => { "Barriers without alignment" };
    (AtLeastOnce, Zh) => { "屏障不对齐" };
    (Unaligned, En) => { "Unaligned checkpoints" };
    (Unaligned, Zh) => { "非对齐检查点" };
    (StopTheWorld, En) => { "Stop the world" };
    (StopTheWorld, Zh) => { "全局暂停快照" };
    (StormAcker, En) => { "Storm" };
    (StormAcker, Zh) => { "Storm" };
    (SparkStreaming, En) => { "Spark Streaming" };
    (SparkStreaming, Zh) => { "Spark Streaming" };
}
pub(crate) use strategy_name;

/// A setting that applies under some strategies only ([`Strategy::settings`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `checkpoint-interval`: the coordinator triggers checkpoints every so many steps; Spark
    /// Streaming checkpoints its state every so many batches.
    CheckpointInterval,
    /// `alignment-timeout`: only aligned checkpoints align.
    AlignmentTimeout,
    /// The acker's settings: `message-timeout`, `ackers`, unanchored edges.
    AckerSettings,
    /// The failover strategy. Storm runs every task in one worker, which restarts whole; Spark
    /// Streaming's driver reruns batches, not regions.
    FailoverStrategy,
    /// [`HighAvailability`](super::HighAvailability) and
    /// [`CheckpointRetention`](super::CheckpointRetention): only the JobManager's
    /// CheckpointCoordinator keeps completed checkpoints that a standby or a resubmission could
    /// restore (per-task timers save on their own; Storm's Nimbus holds no job state).
    HighAvailability,
    /// A source may be a socket. Storm's spout replays a failed tuple by reading its offset
    /// again, which a socket cannot do (a reliable spout on a socket would have to buffer every
    /// tuple until acked; not modelled).
    Socket,
    /// `batch-interval` and `write-ahead-log`.
    MicroBatches,
    /// The [`RestartPolicy`](super::RestartPolicy): only when nothing is saved.
    RestartPolicy,
}

/// The snapshot strategy of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Nothing is saved. On restore tasks start empty; sources follow [`RestartPolicy`](super::RestartPolicy).
    None,
    /// Each task saves its own state when its own timer fires, with no coordination.
    Timers,
    /// Checkpoint barriers with alignment: exactly-once (Flink's default).
    #[default]
    Aligned,
    /// Checkpoint barriers without alignment (Flink's CheckpointBarrierTracker): at-least-once.
    AtLeastOnce,
    /// Unaligned checkpoints: the first barrier overtakes, in-flight records are stored.
    Unaligned,
    /// Pause the sources, drain every channel, snapshot all, resume.
    StopTheWorld,
    /// Storm's XOR acker: every tuple acknowledged, failed trees replayed; no state saved.
    StormAcker,
    /// Spark Streaming: receivers store blocks (and a write-ahead log), the driver cuts
    /// micro-batches, state is rebuilt from lineage and checkpoints.
    SparkStreaming,
}

impl Strategy {
    pub const ALL: [Strategy; 8] = [
        Strategy::None,
        Strategy::Timers,
        Strategy::Aligned,
        Strategy::AtLeastOnce,
        Strategy::Unaligned,
        Strategy::StopTheWorld,
        Strategy::StormAcker,
        Strategy::SparkStreaming,
    ];
    /// Strategies run by the CheckpointCoordinator (checkpoint ids, acknowledgements).
    pub fn uses_coordinator(self) -> bool {
        matches!(self, Strategy::Aligned | Strategy::AtLeastOnce | Strategy::Unaligned | Strategy::StopTheWorld)
    }
    pub fn uses_barriers(self) -> bool {
        matches!(self, Strategy::Aligned | Strategy::AtLeastOnce | Strategy::Unaligned)
    }
    /// Whether a sink may write in `sink` mode under this strategy: a two-phase-commit sink commits
    /// when a checkpoint completes, so it needs a coordinator.
    pub fn allows_sink(self, sink: SinkMode) -> bool {
        match sink {
            SinkMode::TwoPhaseCommit => self.uses_coordinator(),
            SinkMode::Transactional => self == Strategy::SparkStreaming,
            _ => true,
        }
    }
    /// The settings that apply under this strategy: its row of the catalogue, read by
    /// [`Strategy::takes`]. A setting not in the row is refused in a scenario file (validation)
    /// and greyed out in the settings form.
    pub fn settings(self) -> &'static [Setting] {
        use Setting::*;
        match self {
            Strategy::None => &[FailoverStrategy, Socket, RestartPolicy],
            Strategy::Timers => &[FailoverStrategy, Socket],
            Strategy::Aligned => &[CheckpointInterval, AlignmentTimeout, FailoverStrategy, HighAvailability, Socket],
            Strategy::AtLeastOnce | Strategy::Unaligned | Strategy::StopTheWorld => {
                &[CheckpointInterval, FailoverStrategy, HighAvailability, Socket]
            }
            Strategy::StormAcker => &[AckerSettings],
            Strategy::SparkStreaming => &[CheckpointInterval, Socket, MicroBatches],
        }
    }
    /// Whether `setting` applies under this strategy.
    pub fn takes(self, setting: Setting) -> bool {
        self.settings().contains(&setting)
    }
    pub fn id(self) -> &'static str {
        match self {
            Strategy::None => "none",
            Strategy::Timers => "timers",
            Strategy::Aligned => "aligned",
            Strategy::AtLeastOnce => "at-least-once",
            Strategy::Unaligned => "unaligned",
            Strategy::StopTheWorld => "stop-the-world",
            Strategy::StormAcker => "storm-acker",
            Strategy::SparkStreaming => "spark-streaming",
        }
    }
    pub fn from_id(s: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|x| x.id() == s)
    }
    /// The strategy's name ("Aligned barriers"), as a quiz's option or a comparison's column
    /// shows it: [`strategy_name!`]'s.
    pub fn name(self, lang: Lang) -> &'static str {
        macro_rules! name {
            ($s:ident) => {
                lang.t(strategy_name!($s, En), strategy_name!($s, Zh))
            };
        }
        match self {
            Strategy::None => name!(None),
            Strategy::Timers => name!(Timers),
            Strategy::Aligned => name!(Aligned),
            Strategy::AtLeastOnce => name!(AtLeastOnce),
            Strategy::Unaligned => name!(Unaligned),
            Strategy::StopTheWorld => name!(StopTheWorld),
            Strategy::StormAcker => name!(StormAcker),
            Strategy::SparkStreaming => name!(SparkStreaming),
        }
    }
}

/// A strategy named in words, not by its scenario-file id ("per-task timers", not "timers").
/// Inside a sentence, in lower case; in Chinese the name itself.
pub(crate) fn strategy_words(id: &str, lang: Lang) -> &'static str {
    match id {
        "none" => lang.t("no snapshots", strategy_name!(None, Zh)),
        "timers" => lang.t("per-task timers", strategy_name!(Timers, Zh)),
        "aligned" => lang.t("aligned barriers", strategy_name!(Aligned, Zh)),
        "at-least-once" => lang.t("barriers without alignment", strategy_name!(AtLeastOnce, Zh)),
        "unaligned" => lang.t("unaligned checkpoints", strategy_name!(Unaligned, Zh)),
        "stop-the-world" => lang.t("stop-the-world snapshots", strategy_name!(StopTheWorld, Zh)),
        "storm-acker" => lang.t("Storm's acker", "Storm 的 acker"),
        "spark-streaming" => lang.t("Spark Streaming", strategy_name!(SparkStreaming, Zh)),
        _ => lang.t("this strategy", "此策略"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_strategy_has_its_own_words_in_a_sentence() {
        for s in Strategy::ALL {
            for lang in [Lang::En, Lang::Zh] {
                let w = strategy_words(s.id(), lang);
                assert_ne!(w, strategy_words("no-such-strategy", lang), "{s:?} in {lang:?} says \"this strategy\"");
            }
        }
    }
}
