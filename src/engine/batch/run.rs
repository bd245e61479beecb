//! A batch run: the job (Hadoop or Spark), the actions taken on it and the playhead. Back and
//! forward replay the actions from the job's first state (a batch job is small and deterministic,
//! so a replay is the history); acting before the end forks, dropping the later actions.

use serde::{Deserialize, Serialize};

use super::action::{BatchAction, Refusal};
use super::cost::Cost;
use super::data::Rec;
use super::hadoop::{Hadoop, HadoopEvent, HadoopSpec};
use super::ledger::BatchLedger;
use super::lineage::Keep;
use super::spark::{Spark, SparkEvent, SparkSpec};

/// A batch job: which system and its shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "engine", rename_all = "kebab-case")]
pub enum BatchSpec {
    Hadoop(HadoopSpec),
    Spark(SparkSpec),
}

impl BatchSpec {
    /// The same job with RDD `rdd` kept as `keep` (Spark only).
    pub fn with_keep(&self, rdd: usize, keep: Keep) -> BatchSpec {
        let mut s = self.clone();
        if let BatchSpec::Spark(sp) = &mut s {
            if let Some(r) = sp.rdds.get_mut(rdd) {
                r.keep = keep;
            }
        }
        s
    }
}

/// A job as it runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[allow(clippy::large_enum_variant)] // one per run, never in bulk
pub enum BatchSim {
    Hadoop(Hadoop),
    Spark(Spark),
}

/// What one action did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum BatchEvent {
    Hadoop(HadoopEvent),
    Spark(SparkEvent),
}

impl BatchSim {
    pub fn new(spec: &BatchSpec) -> Result<BatchSim, String> {
        Ok(match spec {
            BatchSpec::Hadoop(h) => {
                h.check()?;
                BatchSim::Hadoop(Hadoop::new(h.clone()))
            }
            BatchSpec::Spark(s) => BatchSim::Spark(Spark::new(s.clone())?),
        })
    }

    pub fn apply(&mut self, a: BatchAction) -> Result<Vec<BatchEvent>, Refusal> {
        match self {
            BatchSim::Hadoop(h) => {
                let mut out = Vec::new();
                h.apply(a, &mut out)?;
                Ok(out.into_iter().map(BatchEvent::Hadoop).collect())
            }
            BatchSim::Spark(s) => {
                let mut out = Vec::new();
                s.apply(a, &mut out)?;
                Ok(out.into_iter().map(BatchEvent::Spark).collect())
            }
        }
    }

    pub fn done(&self) -> bool {
        match self {
            BatchSim::Hadoop(h) => h.done(),
            BatchSim::Spark(s) => s.done(),
        }
    }

    pub fn cost(&self) -> Cost {
        match self {
            BatchSim::Hadoop(h) => h.cost,
            BatchSim::Spark(s) => s.cost,
        }
    }

    pub fn written(&self) -> Vec<Rec> {
        match self {
            BatchSim::Hadoop(h) => h.written(),
            BatchSim::Spark(s) => s.written(),
        }
    }

    pub fn running(&self) -> bool {
        match self {
            BatchSim::Hadoop(h) => h.running().is_some(),
            BatchSim::Spark(s) => s.running.is_some(),
        }
    }

    /// How many machines can be crashed (nodes or executors).
    pub fn machines(&self) -> u8 {
        match self {
            BatchSim::Hadoop(h) => h.nodes.len() as u8,
            BatchSim::Spark(s) => s.executors.len() as u8,
        }
    }

    /// What ran again: Hadoop's re-run task names ("M1", "R0"), Spark's recomputed partitions
    /// ("P10"), in order.
    pub fn reran(&self) -> Vec<String> {
        match self {
            BatchSim::Hadoop(h) => {
                h.maps.iter().chain(&h.reduces).filter(|t| t.attempts > 1).map(|t| t.name.label()).collect()
            }
            BatchSim::Spark(s) => s.recomputed().into_iter().map(|(r, p)| s.lineage.name(r, p)).collect(),
        }
    }

    /// Steps to the end of the job (at most `limit` steps).
    pub fn run_to_end(&mut self, limit: usize) -> Vec<Vec<BatchEvent>> {
        let mut log = Vec::new();
        for _ in 0..limit {
            match self.apply(BatchAction::Step) {
                Ok(ev) => log.push(ev),
                Err(_) => break,
            }
        }
        log
    }
}

/// At most this many actions in a run.
pub const MAX_BATCH_ACTIONS: usize = 2_000;

/// A run: the job, the actions, the playhead, the state there and the failure-free output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchRun {
    pub spec: BatchSpec,
    start: BatchSim,
    pub actions: Vec<BatchAction>,
    pub at: usize,
    sim: BatchSim,
    /// The events of each action up to the playhead.
    pub log: Vec<Vec<BatchEvent>>,
    expected: Vec<Rec>,
    /// The failure-free run's cost.
    pub baseline: Cost,
}

impl BatchRun {
    pub fn new(spec: BatchSpec) -> Result<BatchRun, String> {
        let start = BatchSim::new(&spec)?;
        let mut free = start.clone();
        free.run_to_end(10_000);
        Ok(BatchRun {
            spec,
            sim: start.clone(),
            start,
            actions: Vec::new(),
            at: 0,
            log: Vec::new(),
            expected: free.written(),
            baseline: free.cost(),
        })
    }

    /// The run with `actions` replayed; the index and refusal of the first refused one.
    pub fn with_actions(spec: BatchSpec, actions: &[BatchAction]) -> Result<BatchRun, (usize, Refusal)> {
        let mut run = BatchRun::new(spec).map_err(|_| (0, Refusal::Done))?;
        for (i, a) in actions.iter().enumerate() {
            run.act(*a).map_err(|e| (i, e))?;
        }
        Ok(run)
    }

    pub fn sim(&self) -> &BatchSim {
        &self.sim
    }

    pub fn expected(&self) -> &[Rec] {
        &self.expected
    }

    pub fn ledger(&self) -> BatchLedger {
        BatchLedger::new(&self.expected, &self.sim.written(), self.sim.done())
    }

    /// Takes an action at the playhead (forking: later actions are dropped).
    pub fn act(&mut self, a: BatchAction) -> Result<(), Refusal> {
        if self.at >= MAX_BATCH_ACTIONS {
            return Err(Refusal::Done);
        }
        let ev = self.sim.apply(a)?;
        self.actions.truncate(self.at);
        self.log.truncate(self.at);
        self.actions.push(a);
        self.log.push(ev);
        self.at += 1;
        Ok(())
    }

    /// Moves the playhead to `at` (clamped), replaying.
    pub fn seek(&mut self, at: usize) {
        let at = at.min(self.actions.len());
        if at < self.at {
            self.sim = self.start.clone();
            self.log.clear();
            self.at = 0;
        }
        while self.at < at {
            let ev = self.sim.apply(self.actions[self.at]).expect("a recorded action replays");
            self.log.push(ev);
            self.at += 1;
        }
    }

    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// Steps to the end of the job from the playhead.
    pub fn run_to_end(&mut self) {
        while !self.sim.done() && self.act(BatchAction::Step).is_ok() {}
    }
}
