//! The catalogue: which mechanism each strategy is, as one row per mechanism ([`Row`]), written in
//! the mechanism's own file or folder. This file is the one place that maps a strategy to its row;
//! everything else asks the row: its id and words, the settings it takes, whether the coordinator
//! runs it, what it can do, the marks it draws.
//!
//! | strategy | row | follows |
//! |---|---|---|
//! | `none` | [`no_snapshots::ROW`] | a restart policy only |
//! | `timers` | [`timers::ROW`] | each task saving on its own clock |
//! | `aligned` | [`aligned::ROW`] | Flink's `SingleCheckpointBarrierHandler`, aligned |
//! | `at-least-once` | [`tracker::ROW`] | Flink's `CheckpointBarrierTracker` |
//! | `unaligned` | [`unaligned::ROW`] | the same handler, unaligned (FLIP-76) |
//! | `stop-the-world` | [`stop_the_world::ROW`] | pausing the sources and draining |
//! | `storm-acker` | [`storm::ROW`] | Storm's XOR acker: every tuple acknowledged, no state saved |
//! | `spark-streaming` | [`spark::ROW`] | Spark Streaming: receivers, blocks, a write-ahead log, micro-batches |
//! | `structured-streaming` | [`structured::ROW`] | Spark's Structured Streaming: the offset log, the commit log, state stores by batch |
//! | `state-log` | [`state_log::ROW`] | a toy: Kafka Streams' changelogs, per record, without transactions |
//!
//! Offering a mechanism takes its folder, a variant of [`Strategy`] and its line here; the page,
//! the command line and the scenario files then offer it (a test, `a_new_mechanism_is_one_row`,
//! holds the toy to that).
//!
//! What only the side-by-side comparison asks of a mechanism is mapped here too, apart from the
//! rows ([`Strategy::upkeep`], [`Strategy::crash_words`]): the first screen reads the rows, and a
//! function a row names would ship with the first screen, where a match that only the comparison
//! calls ships with the comparison's room. A mechanism that runs on Flink's cluster and keeps no
//! books of its own needs no line there.

pub mod carried;
pub mod costs;
pub mod endless;

use self::carried::{MechanismEdit, MechanismEvent, MechanismRefusal, MechanismRestore, MechanismSettings};
use super::row::Row;
use super::upkeep::Upkeep;
use super::{aligned, no_snapshots, spark, state_log, stop_the_world, storm, structured, timers, tracker, unaligned};
use crate::engine::core::action::{Action, Event, RestoreFrom};
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::error::ActionError;
use crate::engine::core::lang::Lang;
use crate::engine::settings::options::SinkMode;
use crate::engine::settings::strategy::{Setting, Strategy};
use crate::engine::settings::Edit;

impl Strategy {
    /// The strategy's row of the catalogue.
    pub fn row(self) -> &'static Row {
        match self {
            Strategy::None => &no_snapshots::ROW,
            Strategy::Timers => &timers::ROW,
            Strategy::Aligned => &aligned::ROW,
            Strategy::AtLeastOnce => &tracker::ROW,
            Strategy::Unaligned => &unaligned::ROW,
            Strategy::StopTheWorld => &stop_the_world::ROW,
            Strategy::StormAcker => &storm::ROW,
            Strategy::SparkStreaming => &spark::ROW,
            Strategy::StructuredStreaming => &structured::ROW,
            Strategy::StateLog => &state_log::ROW,
        }
    }
    /// For a mechanism that keeps books of its own (Storm's acker, Spark's driver): what they cost
    /// step by step and whether they are settled, as the side-by-side comparison meters them. None
    /// for the coordinator's mechanisms, whose costs the core's events tell.
    pub fn upkeep(self) -> Option<&'static Upkeep> {
        match self {
            Strategy::StormAcker => Some(&storm::upkeep::UPKEEP),
            Strategy::SparkStreaming => Some(&spark::upkeep::UPKEEP),
            Strategy::StructuredStreaming => Some(&structured::upkeep::UPKEEP),
            _ => None,
        }
    }
    /// What a crash action (`crash`, `crash-job-manager`, `crash-task`) takes down under it, in the
    /// comparison's words, where that differs from Flink's JobManager and TaskManagers (Storm's one
    /// worker, Spark's driver and executors); None where Flink's words hold.
    pub fn crash_words(self, crash: &Action, graph: &JobGraph, lang: Lang) -> Option<String> {
        match self {
            Strategy::StormAcker => storm::wording::crash_words(crash, graph, lang),
            Strategy::SparkStreaming => spark::wording::crash_words(crash, graph, lang),
            Strategy::StructuredStreaming => structured::wording::crash_words(crash, graph, lang),
            _ => None,
        }
    }
    /// Its id in a scenario file (`"aligned"`).
    pub fn id(self) -> &'static str {
        self.row().id
    }
    /// The strategy with id `s`.
    pub fn from_id(s: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|x| x.id() == s)
    }
    /// The strategy's name ("Aligned barriers"), as a quiz's option or a comparison's column
    /// shows it.
    pub fn name(self, lang: Lang) -> &'static str {
        self.row().name.get(lang)
    }
    /// The strategy named inside a sentence ("aligned barriers"; in Chinese the name itself).
    pub fn in_sentence(self, lang: Lang) -> &'static str {
        self.row().in_sentence.get(lang)
    }
    /// Strategies run by the CheckpointCoordinator (checkpoint ids, acknowledgements).
    pub fn uses_coordinator(self) -> bool {
        self.row().coordinator
    }
    /// Strategies that send checkpoint barriers down the channels.
    pub fn uses_barriers(self) -> bool {
        self.row().barriers
    }
    /// Whether a sink may write in `sink` mode under this strategy: a two-phase-commit sink commits
    /// when a checkpoint completes, so it needs a coordinator; a transactional sink commits a
    /// batch's output, so it needs batches.
    pub fn allows_sink(self, sink: SinkMode) -> bool {
        match sink {
            SinkMode::TwoPhaseCommit | SinkMode::Kafka => self.uses_coordinator(),
            SinkMode::Transactional => self.row().transactional_sink,
            _ => true,
        }
    }
    /// The settings that apply under this strategy: a setting not listed is refused in a scenario
    /// file (validation) and greyed out in the settings form.
    pub fn settings(self) -> &'static [Setting] {
        self.row().settings
    }
    /// Whether `setting` applies under this strategy.
    pub fn takes(self, setting: Setting) -> bool {
        self.settings().contains(&setting)
    }
    /// Every mechanism's own steps that have a word in a script: (letter, word), Storm's
    /// `('q', "ack")` among them.
    pub fn step_words() -> impl Iterator<Item = (char, &'static str)> {
        Strategy::ALL.into_iter().flat_map(|s| s.row().script_words.iter().copied())
    }
    /// The word a script writes the step with letter `kind` in (Storm's `q`: `ack`), if its
    /// mechanism gives it one.
    pub fn step_word(kind: char) -> Option<&'static str> {
        Strategy::step_words().find(|&(k, _)| k == kind).map(|(_, w)| w)
    }
    /// The letter of the step a script writes as `word` (`ack`: Storm's `q`), if a mechanism has
    /// a step of that name.
    pub fn step_named(word: &str) -> Option<char> {
        Strategy::step_words().find(|&(_, w)| w == word).map(|(k, _)| k)
    }
    /// The ids of the strategies whose row answers `can`, as a list in words ("none, timers or
    /// aligned").
    pub fn ids_where(can: impl Fn(&Row) -> bool) -> String {
        let ids: Vec<&str> = Strategy::ALL.into_iter().map(Strategy::row).filter(|r| can(r)).map(|r| r.id).collect();
        match ids.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

impl MechanismEvent {
    /// The event told in its mechanism's words.
    pub fn narrate(&self, graph: &JobGraph, lang: Lang) -> String {
        match self {
            MechanismEvent::Storm(e) => storm::wording::narrate(e, graph, lang),
            MechanismEvent::Spark(e) => spark::wording::narrate(e, graph, lang),
            MechanismEvent::Structured(e) => structured::wording::narrate(e, graph, lang),
        }
    }
}

impl MechanismRestore {
    /// The restart told in its mechanism's words.
    pub fn words(&self, lang: Lang) -> String {
        match *self {
            MechanismRestore::Storm(storm::events::StormRestore::Committed) => storm::wording::storm_restart(lang),
            MechanismRestore::Spark(spark::events::SparkRestore::MetadataCheckpoint {
                state,
                recompute,
                rerun,
                again,
                since,
            }) => spark::wording::spark_restart(state, recompute, rerun, again, since, lang),
            MechanismRestore::Structured(structured::events::StructuredRestore::CheckpointLocation {
                batch,
                rerun,
                version,
            }) => structured::wording::structured_restart(batch, rerun, version, lang),
        }
    }
}

/// A mechanism's own settings are edited by the mechanism that owns them.
impl MechanismSettings {
    /// Makes one edit; `graph` names the edges an edit may name (Storm's anchoring).
    pub fn edit(&mut self, edit: MechanismEdit, graph: Option<&JobGraph>) {
        match edit {
            MechanismEdit::Storm(e) => self.storm.edit(e, graph),
            MechanismEdit::Spark(e) => self.spark.edit(e),
            MechanismEdit::Structured(e) => self.structured.edit(e),
        }
    }
}

/// A mechanism's own value, made into the core's: its folder writes `Event::from(StormEvent::..)`.
macro_rules! carried {
    ($($own:ty => $core:ident :: $variant:ident ($sum:ident :: $which:ident)),* $(,)?) => {$(
        impl From<$own> for $core {
            fn from(own: $own) -> $core {
                $core::$variant($sum::$which(own))
            }
        }
    )*};
}

carried! {
    storm::events::StormEvent => Event::Mechanism(MechanismEvent::Storm),
    spark::events::SparkStreamingEvent => Event::Mechanism(MechanismEvent::Spark),
    structured::events::StructuredEvent => Event::Mechanism(MechanismEvent::Structured),
    storm::refusals::StormRefusal => ActionError::Mechanism(MechanismRefusal::Storm),
    spark::refusals::SparkRefusal => ActionError::Mechanism(MechanismRefusal::Spark),
    structured::refusals::StructuredRefusal => ActionError::Mechanism(MechanismRefusal::Structured),
    storm::events::StormRestore => RestoreFrom::Mechanism(MechanismRestore::Storm),
    spark::events::SparkRestore => RestoreFrom::Mechanism(MechanismRestore::Spark),
    structured::events::StructuredRestore => RestoreFrom::Mechanism(MechanismRestore::Structured),
    storm::settings::StormEdit => Edit::Mechanism(MechanismEdit::Storm),
    spark::settings::SparkEdit => Edit::Mechanism(MechanismEdit::Spark),
    structured::settings::StructuredEdit => Edit::Mechanism(MechanismEdit::Structured),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_named_by_its_strategy_id() {
        for s in Strategy::ALL {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.row().id), "{s:?}");
            assert_eq!(Strategy::from_id(s.id()), Some(s));
        }
    }

    #[test]
    fn every_strategy_has_its_own_words() {
        for lang in [Lang::En, Lang::Zh] {
            for (i, a) in Strategy::ALL.into_iter().enumerate() {
                for b in &Strategy::ALL[i + 1..] {
                    assert_ne!(a.name(lang), b.name(lang), "{a:?} and {b:?} in {lang:?}");
                    assert_ne!(a.row().menu.get(lang), b.row().menu.get(lang), "{a:?} and {b:?} in {lang:?}");
                    assert_ne!(a.in_sentence(lang), b.in_sentence(lang), "{a:?} and {b:?} in {lang:?}");
                }
            }
        }
    }

    #[test]
    fn a_strategy_the_explorer_refuses_says_which_it_takes() {
        assert_eq!(
            Strategy::ids_where(|r| r.explore.is_ok()),
            "none, timers, aligned, at-least-once, unaligned or stop-the-world"
        );
    }
}
