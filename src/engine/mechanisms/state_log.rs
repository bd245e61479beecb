//! A toy mechanism, labelled as one: per-record state logging at each task, after Kafka Streams'
//! changelog topics (every update of a state store is also written to a changelog topic, and a
//! restarted task restores its store by reading its changelog back; `ProcessorStateManager`,
//! `StoreChangelogReader`), but without Kafka Streams' transactions, which commit a task's
//! output, its changelog writes and its input offsets together. Each task, after every record it
//! processes, writes its state to a log of its own; each source, after every read, writes its
//! offset. A restart puts every task back to its latest entry, with no coordination between tasks.
//!
//! Theory's prediction, which the tests check: nothing is ever duplicated (a task's state and its
//! log entry change in the same step); a record that is on a channel at the crash is lost, since
//! its sender's log has already moved past it and its receiver's has not reached it; with nothing
//! in flight at the crash, every record ends exactly once. Kafka Streams' exactly-once mode closes
//! that gap with transactions, which this toy leaves out (the book's simplifications say so).
//!
//! The whole mechanism is this file and its catalogue row: its durable state sits in the run's
//! durable slot ([`crate::engine::core::own_state`]), and no line of the engine's core names it.
//!
//! ```
//! use barrierscope::engine::{Action, Scenario, Settings, Strategy};
//!
//! // Read the first record at the source and carry it one hop; crash with it on the channel.
//! let mut sim = Scenario::builtin("line", Settings::new(Strategy::StateLog), 1).sim().unwrap();
//! sim.step(Action::Read { task: barrierscope::engine::TaskId(0) }).unwrap();
//! sim.step(Action::Crash).unwrap();
//! sim.step(Action::Restore).unwrap();
//! while sim.has_work() {
//!     sim.step(Action::Auto).unwrap();
//! }
//! // The source's log had moved past the record; the map's had not reached it: lost, once.
//! let l = sim.ledger();
//! assert_eq!((l.state.lost, l.state.duplicated), (1, 0));
//! ```

use super::marks::Mark;
use super::row::{Keeps, Row, Words};
use crate::engine::core::action::{Event, RestoreFrom};
use crate::engine::core::dataflow::record::Record;
use crate::engine::core::hooks::Hooks;
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::seam::{InFlight, Mechanism, OwnSources};
use crate::engine::core::sim::Sim;
use crate::engine::core::snapshot::TaskSnapshot;
use crate::engine::settings::Settings;

/// Per task, its latest logged state (the changelog's last entry).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changelog(pub Vec<Option<TaskSnapshot>>);

/// The per-record state log (strategy `state-log`).
pub struct StateLog;

impl StateLog {
    fn log(&self, sim: &mut Sim, t: TaskId, out: &mut Vec<Event>) {
        let entry = sim.take_snapshot(t, None, out);
        let tasks = sim.graph.tasks.len();
        let log = sim.mechanism_durable_mut().get_mut::<Changelog>().expect("started");
        log.0.resize(tasks, None);
        log.0[t.index()] = Some(entry);
    }
}

impl Mechanism for StateLog {
    fn start(&self, sim: &mut Sim) {
        sim.mechanism_durable_mut().put(Changelog::default());
    }
    fn hooks(&self, _settings: &Settings) -> Hooks {
        Hooks { follows_records: true, ..Hooks::default() } // to hear of every processed record
    }
    fn restore(&self, sim: &mut Sim) -> (RestoreFrom, InFlight) {
        let log = sim.mechanism_durable().get::<Changelog>().cloned().unwrap_or_default();
        for entry in log.0.iter().flatten() {
            sim.restore_task(entry);
        }
        (RestoreFrom::OwnSaves, vec![])
    }
    fn own_sources(&self) -> Option<&dyn OwnSources> {
        Some(self)
    }
}

impl OwnSources for StateLog {
    fn on_read(&self, sim: &mut Sim, t: TaskId, offset: u32, rec: Record, out: &mut Vec<Event>) {
        sim.read_and_emit(t, offset, rec, out);
        self.log(sim, t, out);
    }
    fn after_record(
        &self,
        sim: &mut Sim,
        t: TaskId,
        _c: ChannelId,
        _seq: u64,
        _r: RecordId,
        _children: &[(ChannelId, u64)],
        out: &mut Vec<Event>,
    ) {
        self.log(sim, t, out);
    }
}

/// The catalogue's row of strategy `state-log`: a toy, said so in its menu entry.
pub static ROW: Row = Row {
    id: "state-log",
    mechanism: &StateLog,
    name: Words::new("State log (a toy)", "状态日志（玩具）"),
    // Short: the menu is as wide as its longest entry. Its title says the rest.
    menu: Words::new("State log (a toy)", "状态日志（玩具）"),
    in_sentence: Words::new("the per-record state log", "逐条状态日志"),
    keeps: Some(Keeps {
        saved: Words::new("each task logs its state after every record", "每个任务在每条记录后记下自己的状态"),
        restore: Words::new("each task from its latest log entry", "每个任务从自己最新的日志条目恢复"),
    }),
    settings: &[],
    coordinator: false,
    barriers: false,
    transactional_sink: false,
    restores_snapshots: false,
    pyflink: Err(Words::new("Flink has no such mode", "Flink 没有这种模式")),
    pyspark: false,
    explore: Err("is a toy the explorer's state key does not know"),
    toy: true,
    marks: |_| &[Mark::NextRecord],
    system: "Flink",
    script_words: &[],
    check_settings: super::row::no_rules,
};
