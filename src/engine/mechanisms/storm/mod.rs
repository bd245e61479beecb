//! Apache Storm's way of surviving failure: acknowledge every tuple, save no state. Storm cuts
//! the stream per record. A spout keeps each record it emitted until the acker says the record's
//! whole tuple tree was processed; a tree that fails or times out is read again from the log.
//!
//! - [`acker`]: the mechanism (`storm-acker`), Storm's XOR acker and the spout's replays;
//! - [`tuple_tree`]: the data it keeps (the acker's and the spouts' pending maps, the messages);
//! - [`endless_replay`]: a run whose trees time out without end, and how it is said;
//! - [`rotating_map`]: Storm's `RotatingMap`, how a pending tuple times out;
//! - [`steps`]: its own steps, the messages to and from the acker;
//! - [`events`]: its events (`StormEvent`), as the run's log carries them;
//! - [`settings`]: the rules of its own settings;
//! - [`refusals`]: the actions it refuses, and why (`StormRefusal`);
//! - `wording`: its narration, in English and Chinese.
//!
//! A story, run as a test: Storm saves no state, so a crash of the worker loses what its bolts had
//! counted; the spouts read again only what they had not committed, into bolts that start empty,
//! so over 40 seeded schedules some runs lose state and none counts a record twice.
//!
//! ```
//! use barrierscope::engine::{Action, Scenario, Settings, Strategy};
//!
//! // Under `strategy`: a checkpoint asked for at step 2 (where there are checkpoints), 14 steps
//! // of the seeded scheduler, a crash of the whole job, a restore, then the run to its end.
//! // What each record's effect on the state ended as: (lost, duplicated).
//! let crash = |strategy, job, seed| {
//!     let mut sim = Scenario::builtin(job, Settings::new(strategy), seed).sim().unwrap();
//!     for i in 0..14 {
//!         if i == 2 && sim.check(Action::Checkpoint).is_ok() {
//!             sim.step(Action::Checkpoint).unwrap();
//!         }
//!         if sim.has_work() {
//!             sim.step(Action::Auto).unwrap();
//!         }
//!     }
//!     sim.step(Action::Crash).unwrap();
//!     sim.step(Action::Restore).unwrap();
//!     while sim.has_work() {
//!         sim.step(Action::Auto).unwrap();
//!     }
//!     let l = sim.ledger().state;
//!     (l.lost, l.duplicated)
//! };
//! let runs: Vec<_> = (0..40).map(|seed| crash(Strategy::StormAcker, "line", seed)).collect();
//! assert!(runs.iter().any(|&(lost, _)| lost > 0));
//! assert!(runs.iter().all(|&(_, duplicated)| duplicated == 0));
//! ```

pub mod acker;
pub mod endless_replay;
pub mod events;
pub mod refusals;
pub mod rotating_map;
pub mod settings;
pub mod settings_rules;
pub mod steps;
pub mod tuple_tree;
pub mod upkeep;
pub(crate) mod wording;

use crate::engine::mechanisms::marks::Mark;
use crate::engine::mechanisms::row::{Keeps, Row, Words};
use crate::engine::settings::strategy::{strategy_name, Setting};

/// The catalogue's row of strategy `storm-acker`. With no ackers nothing is tracked, and only the
/// sources' next reads are drawn.
pub static ROW: Row = Row {
    id: "storm-acker",
    mechanism: &acker::XorAcker,
    name: Words::new(strategy_name!(StormAcker, En), strategy_name!(StormAcker, Zh)),
    menu: Words::new(
        concat!(strategy_name!(StormAcker, En), ": ack every tuple (at least once)"),
        concat!(strategy_name!(StormAcker, Zh), "：逐条确认（至少一次）"),
    ),
    in_sentence: Words::new("Storm's acker", "Storm 的 acker"),
    keeps: Some(Keeps {
        saved: Words::new("no state is saved", "不保存状态"),
        restore: Words::new("bolts start empty, spouts replay", "bolt 从空开始，spout 重放"),
    }),
    settings: &[Setting::AckerSettings],
    coordinator: false,
    barriers: false,
    transactional_sink: false,
    restores_snapshots: false,
    pyflink: Err(Words::new("Storm's acker is not Flink", "Storm 的 acker 不是 Flink")),
    pyspark: false,
    explore: Err("draws random tuple ids and times tuples out on the clock"),
    toy: false,
    marks: |settings| match settings.mechanism.storm.ackers {
        0 => &[Mark::NextRecord],
        _ => &[Mark::TupleTree, Mark::AckMessage, Mark::Replayed, Mark::NextRecord],
    },
    system: strategy_name!(StormAcker, En),
    script_words: &[(steps::TO_ACKER, "ack"), (steps::FROM_ACKER, "answer")],
    check_settings: settings_rules::check,
};
