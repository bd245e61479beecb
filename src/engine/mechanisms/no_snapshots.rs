//! No snapshots at all (strategy `none`): nothing is saved, and a restart follows a restart
//! policy alone. Every task starts empty; the sources start again from the beginning of their
//! logs (every record is processed again: duplicates downstream of anything already written) or
//! from the newest offset they had read, as a consumer that commits offsets as it reads (whatever
//! was in flight is skipped: lost). This is the at-most-once and at-least-once baseline the
//! mechanisms are measured against.
//!
//! A story, run as a test: the source reads a, b and c onto its channel, and the job crashes before
//! Map takes any. Restarting from the newest read position skips all three (at most once);
//! restarting from the beginning reads them again (here, into empty state: each once).
//!
//! ```
//! use barrierscope::engine::{Action, RestartPolicy, Scenario, Settings, Strategy, TaskId};
//!
//! let run = |restart| {
//!     let mut settings = Settings::new(Strategy::None);
//!     settings.restart = restart;
//!     let mut sim = Scenario::builtin("line", settings, 1).sim().unwrap();
//!     for _ in 0..3 {
//!         sim.step(Action::Read { task: TaskId(0) }).unwrap();
//!     }
//!     sim.step(Action::Crash).unwrap();
//!     sim.step(Action::Restore).unwrap();
//!     while sim.has_work() {
//!         sim.step(Action::Auto).unwrap();
//!     }
//!     let l = sim.ledger().state;
//!     (l.lost, l.duplicated)
//! };
//! assert_eq!(run(RestartPolicy::FromLatest), (3, 0));
//! assert_eq!(run(RestartPolicy::FromBeginning), (0, 0));
//! ```

use super::marks::Mark;
use super::row::{Keeps, Row, Words};
use crate::engine::core::action::RestoreFrom;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::seam::{InFlight, Mechanism};
use crate::engine::core::sim::Sim;
use crate::engine::settings::strategy::{strategy_name, Setting};
use crate::engine::settings::RestartPolicy;

/// No snapshots (strategy `none`).
pub struct NoSnapshots;

impl Mechanism for NoSnapshots {
    fn restore(&self, sim: &mut Sim) -> (RestoreFrom, InFlight) {
        if sim.settings.restart == RestartPolicy::FromLatest {
            for s in sim.graph.sources().collect::<Vec<_>>() {
                sim.live.tasks[s.index()].state = OpState::Source { next_offset: sim.read_high_water[s.index()] };
            }
        }
        (RestoreFrom::Policy, vec![])
    }
}

/// The catalogue's row of strategy `none`.
pub static ROW: Row = Row {
    id: "none",
    mechanism: &NoSnapshots,
    name: Words::new(strategy_name!(None, En), strategy_name!(None, Zh)),
    menu: Words::new(strategy_name!(None, En), strategy_name!(None, Zh)),
    in_sentence: Words::new("no snapshots", strategy_name!(None, Zh)),
    keeps: Some(Keeps {
        saved: Words::new("nothing is saved", "不保存任何状态"),
        restore: Words::new("every task starts empty", "每个任务从空开始"),
    }),
    settings: &[Setting::FailoverStrategy, Setting::Socket, Setting::RestartPolicy],
    coordinator: false,
    barriers: false,
    transactional_sink: false,
    restores_snapshots: false,
    pyflink: Ok(()),
    pyspark: false,
    explore: Ok(()),
    toy: false,
    marks: |_| &[Mark::Replayed, Mark::NextRecord],
    system: "Flink",
    script_words: &[],
    check_settings: super::row::no_rules,
};
