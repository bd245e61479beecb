//! A catalogue row: everything the rest of the program asks of a mechanism, in one record that the
//! mechanism's own file or folder writes. Its id in a scenario file and its words in both
//! languages, the settings it takes, whether the CheckpointCoordinator runs it and whether it
//! sends barriers, which sinks it can drive, what it can do (export to PyFlink or PySpark, the
//! schedule explorer, a drawn cut), and the marks it draws. [`super::catalogue`] lists the rows
//! (and, apart from them, what only the side-by-side comparison asks: see there);
//! everything that lists strategies reads it, and no other code names a mechanism to find out
//! what it can do.

use super::marks::Mark;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::lang::Lang;
use crate::engine::core::seam::Mechanism;
use crate::engine::settings::strategy::Setting;
use crate::engine::settings::Settings;

/// A phrase in English and in Chinese.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    pub en: &'static str,
    pub zh: &'static str,
}

impl Words {
    pub const fn new(en: &'static str, zh: &'static str) -> Words {
        Words { en, zh }
    }
    /// The phrase in `lang`.
    pub fn get(&self, lang: Lang) -> &'static str {
        lang.t(self.en, self.zh)
    }
}

/// What a mechanism without the coordinator's checkpoints keeps, in words.
pub struct Keeps {
    /// What it saves ("nothing is saved").
    pub saved: Words,
    /// What a restore starts from ("every task starts empty"), said after "restore:".
    pub restore: Words,
}

/// One mechanism's row of the catalogue.
pub struct Row {
    /// Its id in a scenario file, a link and the command line (`"aligned"`): the strategy's
    /// serde name, which a test keeps equal.
    pub id: &'static str,
    /// The mechanism that runs a job under it.
    pub mechanism: &'static dyn Mechanism,
    /// Its name, as a title, a quiz's option or a comparison's column says it ("Aligned barriers").
    pub name: Words,
    /// Its entry in the strategy menu: the name with its guarantee or its system's way.
    pub menu: Words,
    /// Its name inside a sentence, in lower case in English ("aligned barriers").
    pub in_sentence: Words,
    /// Where no coordinator's checkpoints are to show: what it keeps and what a restore starts
    /// from, as the JobManager's box and the Storage panel say it. None for the coordinator's
    /// strategies, whose checkpoints say it, and for Spark Streaming, whose drawing does.
    pub keeps: Option<Keeps>,
    /// The settings that apply under it: a setting not listed is refused in a scenario file and
    /// greyed out in the settings form.
    pub settings: &'static [Setting],
    /// Whether the JobManager's CheckpointCoordinator runs it (checkpoint ids, acknowledgements,
    /// savepoints, a two-phase-commit sink's commits).
    pub coordinator: bool,
    /// Whether it sends checkpoint barriers down the channels.
    pub barriers: bool,
    /// Whether a transactional sink (a batch's output committed once per batch) can write under it.
    pub transactional_sink: bool,
    /// Whether a restore puts tasks back to snapshots it took, so that a drawn cut can stand in
    /// for them, and the space-time room can set it beside another.
    pub restores_snapshots: bool,
    /// Whether a run under it exports to a PyFlink job; if not, why not.
    pub pyflink: Result<(), Words>,
    /// Whether a run under it exports to a PySpark job.
    pub pyspark: bool,
    /// Whether the schedule explorer can explore it; if not, why not.
    pub explore: Result<(), &'static str>,
    /// Whether it is a teaching toy that no real system runs as such (said in its menu entry).
    pub toy: bool,
    /// The marks the canvas can draw under `settings`, in the legend's order.
    pub marks: fn(&Settings) -> &'static [Mark],
    /// The system whose mechanism it is, as a comparison's column is titled: `"Flink"` for
    /// Flink's and for the toys that run on Flink's cluster, else the system's name (`"Storm"`).
    pub system: &'static str,
    /// The words its own steps (`core::step`) are written in, in a script and a scenario file:
    /// Storm's `q` is `ack` (`{"ack": "Map"}`). A step without a word is written with its letter
    /// (`{"step": ["q", "Map"]}`).
    pub script_words: &'static [(char, &'static str)],
    /// The rules of the settings it owns, checked under every strategy before a run starts (a
    /// setting of its own set under another strategy is refused by it): [`no_rules`] for a
    /// mechanism without settings of its own.
    pub check_settings: fn(&Settings, &JobGraph) -> Result<(), String>,
}

/// The rules of a mechanism without settings of its own: none.
pub fn no_rules(_: &Settings, _: &JobGraph) -> Result<(), String> {
    Ok(())
}
