//! The lockstep: every configuration of a comparison runs on its own [`Sim`] of the same job and
//! input, and all advance on one logical clock.
//!
//! At tick n, every run that has not finished takes exactly one step, the n-th of its log:
//! 1. at the crash tick, its crash action (the same action in every run:
//!    the comparison file's `CrashPlace::action`);
//! 2. from the restore tick on, `restore` while the job (or a failed region, or Storm's Nimbus)
//!    is down;
//! 3. from the restore tick on, once every record is through (nothing in a channel, nothing to
//!    read now or later, nothing pending at Storm's acker or spouts or at Spark's driver): a run
//!    whose output is committed has finished and takes no more steps (a periodic checkpoint may
//!    still be in flight); one whose two-phase-commit sink still holds rows in an open
//!    transaction takes one final checkpoint, as Flink does when bounded input ends;
//! 4. otherwise one scheduler step, drawn as [`Action::Auto`] draws it
//!    ([`Sim::enabled_steps`], then [`Sim::draw_step`]), from the steps enabled now less two
//!    kinds: a read of a record that has not arrived yet (its tick is later than n), and a
//!    restore (restores come from the plan, never from the scheduler);
//! 5. with nothing to draw, `wait` while anything is still to come (the crash, the restore, a
//!    record's arrival, a spout's message timeout);
//! 6. a checkpoint still pending with nothing left to deliver: `checkpoint`, which lets time pass
//!    until it completes or expires, as [`Sim::run_to_end`] does;
//! 7. otherwise the run has finished.
//!
//! The end is judged on the records, not on [`Sim::has_work`]: with a periodic checkpoint
//! interval as short as a checkpoint's round trip, a new checkpoint is always in flight and there
//! is always a barrier to deliver.
//!
//! Every run's scheduler is seeded with the comparison's seed, and the runs are stepped in the
//! order of the configurations, so a comparison is deterministic: the same file gives the same
//! logs natively and in wasm.

use serde::{Deserialize, Serialize};

use crate::engine::core::action::{Action, Event};
use crate::engine::core::dataflow::external_system::TxnStatus;
use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::dataflow::record::Item;
use crate::engine::core::lang::Lang;
use crate::engine::core::sim::Sim;
use crate::engine::wording::describe;

use super::costs::{CostMeter, Costs};
use super::format::{ComparisonError, ComparisonFile, CrashPlan, RestorePlan, MAX_TICKS};

/// One step of one run: its tick, its action and what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub tick: u64,
    pub action: Action,
    pub events: Vec<Event>,
}

/// One run of the comparison.
#[derive(Clone, Debug)]
pub struct Lane {
    /// The column's title.
    pub label: String,
    pub sim: Sim,
    /// The run's event log: one step per tick until it finished.
    pub log: Vec<Step>,
    /// The crash action this run takes at the crash tick.
    pub crash_action: Action,
    final_checkpoint: bool,
    finished: bool,
    meter: CostMeter,
}

impl Lane {
    /// Has the run finished (nothing left to do after the restore)?
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The cost table's column for this run, as it stands.
    pub fn costs(&self) -> Costs {
        self.meter.costs(&self.sim)
    }

    /// The events of the crash step.
    pub fn crash_events(&self, crash_tick: u64) -> &[Event] {
        self.log.get(crash_tick as usize).map_or(&[], |s| s.events.as_slice())
    }
}

/// The runs of a comparison, on one clock.
#[derive(Clone, Debug)]
pub struct Lockstep {
    pub lanes: Vec<Lane>,
    /// The next tick: every lane that has not finished has taken this many steps.
    pub tick: u64,
    pub crash: CrashPlan,
    pub restore: RestorePlan,
}

impl Lockstep {
    /// The runs of `file`, before any step.
    pub fn new(file: &ComparisonFile) -> Result<Lockstep, ComparisonError> {
        let graph = file.check()?;
        let crash_action = file.crash.place.action(&graph).map_err(ComparisonError::Invalid)?;
        let mut lanes = Vec::new();
        for (index, c) in file.configurations.iter().enumerate() {
            let sim = Sim::new(graph.clone(), c.settings.clone(), file.seed)
                .map_err(|error| ComparisonError::Configuration { index, label: c.label(), error })?;
            let meter = CostMeter::new(&sim, file.crash.at);
            lanes.push(Lane {
                label: c.label(),
                sim,
                log: Vec::new(),
                crash_action,
                final_checkpoint: false,
                finished: false,
                meter,
            });
        }
        Ok(Lockstep { lanes, tick: 0, crash: file.crash.clone(), restore: file.restore })
    }

    /// Reads and runs a comparison to its end.
    pub fn run(file: &ComparisonFile) -> Result<Lockstep, ComparisonError> {
        let mut l = Lockstep::new(file)?;
        l.run_to_end()?;
        Ok(l)
    }

    pub fn graph(&self) -> &JobGraph {
        &self.lanes[0].sim.graph
    }

    /// Has every run finished?
    pub fn finished(&self) -> bool {
        self.lanes.iter().all(|l| l.finished)
    }

    /// Ticks until every run has finished.
    pub fn run_to_end(&mut self) -> Result<(), ComparisonError> {
        while self.step()? {
            if self.tick >= MAX_TICKS {
                return Err(ComparisonError::Invalid(format!("the runs did not finish within {MAX_TICKS} ticks")));
            }
        }
        Ok(())
    }

    /// One tick: every run that has not finished takes one step. Returns false when every run
    /// had finished already.
    pub fn step(&mut self) -> Result<bool, ComparisonError> {
        let tick = self.tick;
        let mut any = false;
        for lane in &mut self.lanes {
            if lane.finished {
                continue;
            }
            debug_assert_eq!(lane.sim.tick, tick, "every run is at the lockstep's tick");
            let Some(action) = next_action(lane, tick, &self.crash, self.restore) else {
                lane.finished = true;
                continue;
            };
            let mut events = Vec::new();
            if let Err(e) = lane.sim.apply(action, &mut events) {
                let g = &lane.sim.graph;
                return Err(ComparisonError::Lockstep {
                    run: lane.label.clone(),
                    tick,
                    message: format!("{}: {e}", describe(g, &action, Lang::En)),
                });
            }
            lane.meter.observe(&lane.sim, tick, &events);
            lane.log.push(Step { tick, action, events });
            any = true;
        }
        if any {
            self.tick += 1;
        }
        Ok(any)
    }
}

/// The step `lane` takes at `tick`, or None: it has finished.
fn next_action(lane: &mut Lane, tick: u64, crash: &CrashPlan, restore: RestorePlan) -> Option<Action> {
    let sim = &mut lane.sim;
    if tick == crash.at {
        return Some(lane.crash_action);
    }
    if tick >= restore.at && sim.check(Action::Restore).is_ok() {
        return Some(Action::Restore);
    }
    let coordinated = sim.strategy().uses_coordinator() && sim.running();
    if tick >= restore.at && through(sim, tick) {
        let txns = &sim.external().txns;
        let open = txns.iter().any(|x| x.status == TxnStatus::Open && !x.rows.is_empty());
        let waiting = txns.iter().any(|x| matches!(x.status, TxnStatus::PreCommitted(_)));
        if !open && !waiting {
            return None;
        }
        if open && !waiting && coordinated && sim.pending().is_empty() && !lane.final_checkpoint {
            lane.final_checkpoint = true;
            return Some(Action::Checkpoint);
        }
    }
    let mut choices = Vec::new();
    sim.enabled_steps(&mut choices);
    choices.retain(|a| match *a {
        Action::Restore => false,
        Action::Read { task } => sim.next_read(task).is_some_and(|off| {
            let r = sim.graph.task(task).log[off as usize];
            sim.graph.record(r).at <= tick
        }),
        _ => true,
    });
    if !choices.is_empty() {
        return Some(sim.draw_step(&choices));
    }
    let timeout_due = sim.strategy().upkeep().is_some_and(|u| (u.awaits_timeout)(sim));
    if tick < restore.at || input_to_come(sim, tick) || timeout_due {
        // Time brings what is still to come: the crash or the restore, a record's arrival, a
        // timeout of the mechanism's own (a Storm spout's message timeout).
        return Some(Action::Wait);
    }
    if coordinated && !sim.pending().is_empty() {
        // A checkpoint is still pending with nothing left to deliver: let time pass until it
        // completes or expires, as `run_to_end` does.
        return Some(Action::Wait);
    }
    None
}

/// Is every record through the job: nothing in a channel, nothing to read now or later, and the
/// mechanism's own books settled (nothing pending at Storm's acker or spouts, no Spark block or
/// batch waiting)? (Checkpoints may still be
/// in flight, and a sink's transactions open: the caller looks at those.)
fn through(sim: &Sim, tick: u64) -> bool {
    sim.running()
        && !sim.region_down()
        && sim.channels().iter().all(|c| c.queue.iter().all(|it| !matches!(it, Item::Record { .. })))
        && sim.graph.sources().all(|s| sim.next_read(s).is_none())
        && !input_to_come(sim, tick)
        && sim.strategy().upkeep().is_none_or(|u| (u.settled)(sim))
}

/// Is a record still to arrive at some source: its next offset's tick is later than `tick`?
fn input_to_come(sim: &Sim, tick: u64) -> bool {
    sim.graph.sources().any(|s| {
        let log = &sim.graph.task(s).log;
        log.get(sim.source_offset(s) as usize).is_some_and(|r| sim.graph.record(*r).at > tick)
    })
}
