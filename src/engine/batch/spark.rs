//! Spark: a job on an RDD chain, run stage by stage, whose recovery recomputes lost partitions from
//! their lineage. Follows Spark's `DAGScheduler`, `MapOutputTracker` and `BlockManager`:
//!
//! - **Stages.** The job's result stage needs the shuffle outputs of its parent shuffle-map stage;
//!   `submitStage` runs a parent first when its outputs are missing, and then only its missing
//!   partitions (`findMissingPartitions`), never the whole stage again.
//! - **Tasks** compute their stage's chain for one partition, as a pipeline: from the nearest
//!   partition they can read (an input split, a shuffle fetch, a `persist`ed block in an
//!   executor's memory, a `checkpoint`ed one in reliable storage) down to the stage's last RDD. A
//!   task reading a shuffle fetches its bucket of every map output.
//! - **Shuffle outputs** are files on the executor that wrote them, registered with the
//!   `MapOutputTracker` (no external shuffle service here).
//! - **Losing an executor** (`handleExecutorLost`) kills its running task, drops its cached blocks
//!   (MEMORY_ONLY lives in the executor's heap) and unregisters its shuffle outputs
//!   (`removeOutputsOnExecutor`); a fresh executor takes its place. Checkpoints and the job's
//!   written output are in reliable storage and survive.
//! - **FetchFailed.** A task of the running stage that finds a map output missing fails with
//!   `FetchFailed`; the DAGScheduler marks the stage failed, resubmits the parent stage's missing
//!   partitions and then the failed stage. Losing P10 therefore recomputes P00 and P01 only if
//!   their shuffle outputs are gone, which is when their executor died.
//!
//! - **`checkpoint()`** only marks an RDD. `SparkContext.runJob` calls `rdd.doCheckpoint()` after
//!   the action's job has returned; it walks up from the action's RDD to the nearest marked RDD
//!   (`checkpointAllMarkedAncestors` is false by default, so marked ancestors of it are left
//!   alone), and `ReliableRDDCheckpointData` writes it to reliable storage in a *second job*
//!   (`ReliableCheckpointRDD.writeRDDToCheckpointDirectory`), which computes it again unless it is
//!   persisted. Only then (`markCheckpointed`) is the lineage cut. During the first action no
//!   checkpoint file exists, so a loss there recomputes as if there were no checkpoint; the files
//!   serve a later action (`actions`: 2), whose job reuses the registered shuffle outputs and, if
//!   one is lost, reads the checkpointed partition instead of climbing to the input.
//!
//! - **`spark.task.maxFailures`** (4): `TaskSetManager.handleFailedTask` counts the failures of
//!   each task of a stage attempt, and aborts the task set, failing the job, when one task has
//!   failed 4 times. A `FetchFailed` does not count (`countTowardsTaskFailures` is false): the
//!   stage is resubmitted instead. The job's output is then never committed.
//!
//! Simplifications: one task runs at a time, on executor `partition mod executors` (or where its
//! persisted block is); a step computes one partition, and a task's last step writes its output;
//! only a task failure (`F`) counts toward `spark.task.maxFailures`, not the loss of its executor
//! (Spark counts it only when the exit was caused by the application); stage retries are not
//! limited (`spark.stage.maxConsecutiveAttempts`).

use serde::{Deserialize, Serialize};

use super::action::{BatchAction, Refusal};
use super::cost::Cost;
use super::data::{buckets, chunks, drop_short, lines, sum_by_key, words, Rec};
use super::lineage::{Keep, Lineage, Op, RddSpec};
use crate::engine::core::sorted_vec::SortedMap;

/// A word-count Spark job on a chain of RDDs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SparkSpec {
    /// The input text, one line per entry, cut into the first RDD's partitions.
    pub input: Vec<String>,
    /// Executors (each with its memory and its shuffle files).
    pub executors: u8,
    /// The RDD chain, the input first.
    pub rdds: Vec<RddSpec>,
    /// How many actions (`saveAsTextFile`) the program calls on the last RDD, one after the
    /// other: 1 (the default) or 2. Each is a job of its own; a `checkpoint()` is written by a job
    /// between the first action and the second.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub actions: u8,
}

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

impl SparkSpec {
    pub fn check(&self) -> Result<Lineage, String> {
        if !(1..=4).contains(&self.executors) {
            return Err("\"executors\" must be 1 to 4".into());
        }
        if !(1..=2).contains(&self.actions) {
            return Err("\"actions\" must be 1 or 2".into());
        }
        if self.input.is_empty() || self.input.len() > 64 {
            return Err("\"input\" must have 1 to 64 lines".into());
        }
        Lineage::new(self.rdds.clone())
    }
}

/// Where a task starts computing its chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Source {
    /// From the input split in reliable storage.
    Input,
    /// From its bucket of every map output of the parent stage.
    Shuffle,
    /// From a persisted block in this executor's memory.
    Memory(u8),
    /// From a checkpointed partition in reliable storage.
    Checkpoint,
}

/// `spark.task.maxFailures`, Spark's default: the failures of one task that abort its stage.
pub const MAX_TASK_FAILURES: u32 = 4;

/// A registered shuffle output: the executor holding it, and one bucket per reduce partition.
type MapOutput = (u8, Vec<Vec<Rec>>);

/// The running task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SparkTask {
    pub stage: usize,
    pub part: u8,
    pub exec: u8,
    pub attempt: u32,
    /// The first RDD it computes or reads, and how it gets it.
    pub from: usize,
    pub source: Source,
    /// The next RDD it processes.
    pub next: usize,
    #[serde(skip)]
    data: Vec<Rec>,
}

/// What happened in one action, for the narration. Partitions are (RDD, index).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SparkEvent {
    /// The DAGScheduler submitted a stage again, for its missing partitions only.
    Resubmitted { stage: usize, parts: Vec<u8> },
    /// A task attempt started on an executor, to compute its stage's chain from `from`.
    Started { stage: usize, part: u8, exec: u8, attempt: u32, from: usize, source: Source },
    /// A partition was computed (`again`: it had been computed before); from the input, its
    /// parent, or `fetched` map outputs.
    Computed { rdd: usize, part: u8, exec: u8, records: usize, again: bool, fetched: Option<u8> },
    /// A persisted partition was read from an executor's memory instead of being computed.
    ReadMemory { rdd: usize, part: u8, exec: u8 },
    /// A checkpointed partition was read from reliable storage instead of being computed.
    ReadCheckpoint { rdd: usize, part: u8 },
    /// `persist()`: the partition stays in the executor's memory.
    Persisted { rdd: usize, part: u8, exec: u8 },
    /// The checkpoint job's task wrote the partition to reliable storage.
    Checkpointed { rdd: usize, part: u8 },
    /// Action `action` (from 0) returned, its output written; more follows.
    ActionDone { action: u8 },
    /// `doCheckpoint()` after the first action: a job of its own computes RDD `rdd` again (unless
    /// persisted) and writes every partition to reliable storage.
    CheckpointJob { rdd: usize },
    /// Every partition of RDD `rdd` is written: `markCheckpointed` cuts the lineage there.
    LineageCut { rdd: usize },
    /// Action `action` (from 0) submits its job.
    ActionStarted { action: u8 },
    /// A shuffle-map task wrote its output on its executor and registered it.
    ShuffleWritten { stage: usize, part: u8, exec: u8 },
    /// A result task wrote its partition of the job's output to reliable storage.
    ResultWritten { part: u8, records: usize },
    /// The task found these map outputs of the parent stage missing.
    FetchFailed { stage: usize, part: u8, missing: Vec<u8> },
    /// The running task failed; its executor lives on, with its memory.
    TaskFailed { stage: usize, part: u8, exec: u8 },
    /// An executor was lost with what it held; a fresh one replaced it.
    ExecutorLost { exec: u8, killed: Option<(usize, u8)>, memory: Vec<(usize, u8)>, shuffle: Vec<(usize, u8)> },
    /// Every output partition is written: the job is done.
    JobDone,
    /// The task failed `spark.task.maxFailures` times: its stage is aborted and the job fails,
    /// its output never committed.
    JobAborted { stage: usize, part: u8, failures: u32 },
}

/// A Spark job as it runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spark {
    pub spec: SparkSpec,
    pub lineage: Lineage,
    /// Each executor's incarnation: 0, then 1 after its first loss, …
    pub executors: Vec<u32>,
    /// Persisted blocks: partition → the executor whose memory holds it.
    #[serde(skip)]
    memory: SortedMap<(usize, u8), (u8, Vec<Rec>)>,
    /// Checkpointed partitions in reliable storage.
    #[serde(skip)]
    checkpoints: SortedMap<(usize, u8), Vec<Rec>>,
    /// Per shuffle-map stage, per map partition: the executor holding its output, and the buckets.
    #[serde(skip)]
    shuffles: Vec<Vec<Option<MapOutput>>>,
    /// The job's output in reliable storage, per partition of the last RDD.
    pub output: Vec<Option<Vec<Rec>>>,
    /// How many times each partition was computed.
    pub computed: SortedMap<(usize, u8), u32>,
    /// Attempts per task (stage, partition) in the running job.
    pub attempts: SortedMap<(usize, u8), u32>,
    /// How many times each partition was computed in the running job.
    #[serde(skip)]
    in_job: SortedMap<(usize, u8), u32>,
    /// Computations of a partition beyond the first in the same job: what failures cost. (A
    /// later job computes a partition again without any failure: the checkpoint job, a second
    /// action's result stage.)
    pub extra: SortedMap<(usize, u8), u32>,
    /// Failures per task (stage, partition) of the running stage attempt, toward
    /// `spark.task.maxFailures`.
    pub failures: SortedMap<(usize, u8), u32>,
    pub running: Option<SparkTask>,
    /// The stage whose tasks are being run, until it has none missing or one fails to fetch.
    active: Option<usize>,
    /// The job running now: an action's, or the checkpoint job after the first action.
    pub job: SparkJob,
    /// The RDD whose checkpoint is complete (`markCheckpointed`): its lineage is cut.
    pub cut: Option<usize>,
    /// The output of each action that returned, before the one running now.
    pub earlier: Vec<Vec<Rec>>,
    pub cost: Cost,
}

/// Which job runs: Spark runs one job per action, and `doCheckpoint` one more after the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SparkJob {
    /// Action `n` (from 0) on the last RDD.
    Action(u8),
    /// `ReliableRDDCheckpointData`'s job, writing this RDD's partitions.
    Checkpoint(usize),
    /// Every job has returned.
    Done,
    /// A task failed `spark.task.maxFailures` times: the job failed.
    Aborted,
}

impl Spark {
    pub fn new(spec: SparkSpec) -> Result<Spark, String> {
        let lineage = spec.check()?;
        let stages = lineage.stages.len();
        let shuffles = lineage.stages[..stages - 1].iter().map(|s| vec![None; s.partitions as usize]).collect();
        Ok(Spark {
            executors: vec![0; spec.executors as usize],
            memory: SortedMap::new(),
            checkpoints: SortedMap::new(),
            shuffles,
            output: vec![None; lineage.stages[stages - 1].partitions as usize],
            computed: SortedMap::new(),
            attempts: SortedMap::new(),
            in_job: SortedMap::new(),
            extra: SortedMap::new(),
            failures: SortedMap::new(),
            running: None,
            active: None,
            job: SparkJob::Action(0),
            cut: None,
            earlier: Vec::new(),
            cost: Cost::default(),
            lineage,
            spec,
        })
    }

    pub fn done(&self) -> bool {
        matches!(self.job, SparkJob::Done | SparkJob::Aborted)
    }

    /// The RDD `doCheckpoint` writes after the first action: walking up from the last RDD, the
    /// first one marked with `checkpoint()`.
    pub fn to_checkpoint(&self) -> Option<usize> {
        self.lineage.rdds.iter().rposition(|r| r.keep == Keep::Checkpoint)
    }

    /// The running job's last RDD: the action's (the last of the chain) or the checkpointed one.
    fn job_rdd(&self) -> usize {
        match self.job {
            SparkJob::Checkpoint(r) => r,
            _ => self.lineage.rdds.len() - 1,
        }
    }

    /// The running job's final stage (its result stage).
    fn last_stage(&self) -> usize {
        self.lineage.stage_of(self.job_rdd())
    }

    /// The last RDD a task of stage `s` computes in the running job.
    fn stage_end(&self, s: usize) -> usize {
        if s == self.last_stage() {
            self.job_rdd()
        } else {
            self.lineage.stages[s].last
        }
    }

    /// The partitions of stage `s` with no output (shuffle output, written result, or written
    /// checkpoint file in the checkpoint job).
    pub fn missing(&self, s: usize) -> Vec<u8> {
        let have: Vec<bool> = match self.job {
            SparkJob::Checkpoint(r) if s == self.last_stage() => {
                (0..self.lineage.partitions[r]).map(|p| self.checkpoints.contains_key(&(r, p))).collect()
            }
            SparkJob::Done | SparkJob::Aborted => return Vec::new(),
            _ if s == self.last_stage() => self.output.iter().map(Option::is_some).collect(),
            _ => self.shuffles[s].iter().map(Option::is_some).collect(),
        };
        (0..have.len() as u8).filter(|&p| !have[p as usize]).collect()
    }

    /// Where a task of stage `s` for partition `p` would start: climbing the stage's chain from its
    /// last RDD up to the nearest checkpointed (once the checkpoint is complete) or persisted
    /// partition, or to the stage's start.
    pub fn plan(&self, s: usize, p: u8) -> (usize, Source) {
        let st = self.lineage.stages[s];
        for r in (st.first..=self.stage_end(s)).rev() {
            if self.cut == Some(r) && self.checkpoints.contains_key(&(r, p)) {
                return (r, Source::Checkpoint);
            }
            if let Some((e, _)) = self.memory.get(&(r, p)) {
                return (r, Source::Memory(*e));
            }
        }
        (st.first, if st.first == 0 { Source::Input } else { Source::Shuffle })
    }

    /// Where persisted partitions are: partition → executor.
    pub fn in_memory(&self) -> impl Iterator<Item = ((usize, u8), u8)> + '_ {
        self.memory.iter().map(|(k, (e, _))| (*k, *e))
    }

    pub fn checkpointed(&self, rdd: usize, part: u8) -> bool {
        self.checkpoints.contains_key(&(rdd, part))
    }

    /// The executor holding map output `part` of stage `s`, if it is there.
    pub fn shuffle_output(&self, s: usize, part: u8) -> Option<u8> {
        self.shuffles.get(s).and_then(|v| v[part as usize].as_ref()).map(|(e, _)| *e)
    }

    /// The partitions computed more than once in one job (a failure-free job computes each
    /// partition it needs once).
    pub fn recomputed(&self) -> Vec<(usize, u8)> {
        self.extra.iter().map(|(&k, _)| k).collect()
    }

    pub fn apply(&mut self, action: BatchAction, out: &mut Vec<SparkEvent>) -> Result<(), Refusal> {
        match action {
            BatchAction::Step => {
                if self.running.is_none() {
                    self.start(out)?;
                }
                self.advance(out);
                Ok(())
            }
            BatchAction::FailTask => {
                let t = self.running.take().ok_or(Refusal::NoRunningTask)?;
                out.push(SparkEvent::TaskFailed { stage: t.stage, part: t.part, exec: t.exec });
                let n = self.failures.get_or_insert_with((t.stage, t.part), || 0);
                *n += 1;
                if *n >= MAX_TASK_FAILURES {
                    let failures = *n;
                    self.switch(SparkJob::Aborted);
                    out.push(SparkEvent::JobAborted { stage: t.stage, part: t.part, failures });
                }
                Ok(())
            }
            BatchAction::Crash(e) => self.lose_executor(e, out),
        }
    }

    /// Picks the next task as the DAGScheduler would, and starts it.
    fn start(&mut self, out: &mut Vec<SparkEvent>) -> Result<(), Refusal> {
        if self.job == SparkJob::Aborted {
            return Err(Refusal::Aborted);
        }
        if self.done() {
            return Err(Refusal::Done);
        }
        let stage = match self.active.filter(|&s| !self.missing(s).is_empty()) {
            Some(s) => s,
            None => {
                // submitStage: from the result stage, go to a parent while some missing partition
                // reads its shuffle and the parent has missing outputs.
                let mut s = self.last_stage();
                while s > 0
                    && self.missing(s).iter().any(|&p| self.plan(s, p).1 == Source::Shuffle)
                    && !self.missing(s - 1).is_empty()
                {
                    s -= 1;
                }
                let parts = self.missing(s);
                if parts.iter().any(|&p| self.attempts.contains_key(&(s, p))) {
                    out.push(SparkEvent::Resubmitted { stage: s, parts });
                }
                // A new stage attempt is a new TaskSetManager: its failure counts start at 0.
                let old: Vec<(usize, u8)> = self.failures.iter().map(|(k, _)| *k).filter(|k| k.0 == s).collect();
                for k in &old {
                    self.failures.remove(k);
                }
                self.active = Some(s);
                s
            }
        };
        let part = self.missing(stage)[0];
        let (from, source) = self.plan(stage, part);
        let exec = match source {
            Source::Memory(e) => e,
            _ => part % self.spec.executors,
        };
        let attempt = {
            let a = self.attempts.get_or_insert_with((stage, part), || 0);
            *a += 1;
            *a
        };
        self.cost.task_runs += 1;
        if attempt > 1 {
            self.cost.task_reruns += 1;
        }
        if stage == self.last_stage() {
            self.cost.reduce_runs += 1;
        } else {
            self.cost.map_runs += 1;
        }
        out.push(SparkEvent::Started { stage, part, exec, attempt, from, source });
        self.running = Some(SparkTask { stage, part, exec, attempt, from, source, next: from, data: Vec::new() });
        Ok(())
    }

    /// Carries the running task one partition further.
    fn advance(&mut self, out: &mut Vec<SparkEvent>) {
        let mut t = self.running.take().expect("a running task");
        let (rdd, part, exec) = (t.next, t.part, t.exec);
        if rdd > self.stage_end(t.stage) {
            return self.finish(t, out);
        }
        let mut fetched = None;
        if rdd == t.from && t.source != Source::Shuffle && t.source != Source::Input {
            if t.source == Source::Checkpoint {
                t.data = self.checkpoints.get(&(rdd, part)).expect("the plan read a checkpoint").clone();
                self.cost.checkpoint_reads += 1;
                out.push(SparkEvent::ReadCheckpoint { rdd, part });
            } else {
                t.data = self.memory.get(&(rdd, part)).expect("the plan read memory").1.clone();
                self.cost.cache_reads += 1;
                out.push(SparkEvent::ReadMemory { rdd, part, exec });
            }
        } else {
            t.data = match self.lineage.rdds[rdd].op {
                Op::Input => {
                    let splits = chunks(&self.spec.input, self.lineage.partitions[0] as usize);
                    lines(&splits[part as usize])
                }
                Op::Words => words(&t.data),
                Op::DropShort => drop_short(&t.data),
                Op::CountByKey => {
                    let parent = t.stage - 1;
                    let missing: Vec<u8> = self.missing(parent);
                    if !missing.is_empty() {
                        self.cost.fetch_failures += 1;
                        self.active = None;
                        out.push(SparkEvent::FetchFailed { stage: t.stage, part, missing });
                        return;
                    }
                    let maps = &self.shuffles[parent];
                    fetched = Some(maps.len() as u8);
                    sum_by_key(maps.iter().flat_map(|m| m.as_ref().expect("present").1[part as usize].clone()))
                }
            };
            let n = self.computed.get_or_insert_with((rdd, part), || 0);
            *n += 1;
            let again = *n > 1;
            let k = self.in_job.get_or_insert_with((rdd, part), || 0);
            *k += 1;
            if *k > 1 {
                *self.extra.get_or_insert_with((rdd, part), || 0) += 1;
            }
            self.cost.partitions_computed += 1;
            if again {
                self.cost.partitions_recomputed += 1;
                self.cost.records_recomputed += t.data.len() as u32;
            }
            out.push(SparkEvent::Computed { rdd, part, exec, records: t.data.len(), again, fetched });
            match self.lineage.rdds[rdd].keep {
                Keep::Persist if !self.memory.contains_key(&(rdd, part)) => {
                    self.memory.insert((rdd, part), (exec, t.data.clone()));
                    out.push(SparkEvent::Persisted { rdd, part, exec });
                }
                // checkpoint() writes nothing here: the checkpoint job writes after the action.
                _ => {}
            }
        }
        t.next += 1;
        self.running = Some(t);
    }

    /// The task's last step: it writes its shuffle output on its executor, or its result partition
    /// to the job's output.
    fn finish(&mut self, t: SparkTask, out: &mut Vec<SparkEvent>) {
        let stage = self.lineage.stages[t.stage];
        let (part, exec) = (t.part, t.exec);
        if let (SparkJob::Checkpoint(r), true) = (self.job, t.stage == self.last_stage()) {
            out.push(SparkEvent::Checkpointed { rdd: r, part });
            self.checkpoints.insert((r, part), t.data);
            if self.missing(t.stage).is_empty() {
                self.cut = Some(r);
                out.push(SparkEvent::LineageCut { rdd: r });
                self.next_job(1, out);
            }
        } else if let (SparkJob::Action(a), true) = (self.job, t.stage == self.last_stage()) {
            out.push(SparkEvent::ResultWritten { part, records: t.data.len() });
            self.output[part as usize] = Some(t.data);
            if self.missing(t.stage).is_empty() {
                if a == 0 && self.cut.is_none() {
                    if let Some(r) = self.to_checkpoint() {
                        out.push(SparkEvent::ActionDone { action: a });
                        self.switch(SparkJob::Checkpoint(r));
                        out.push(SparkEvent::CheckpointJob { rdd: r });
                        return;
                    }
                }
                self.next_job(a + 1, out);
            }
        } else {
            let parts = self.lineage.partitions[stage.last + 1] as usize;
            self.shuffles[t.stage][part as usize] = Some((exec, buckets(&t.data, parts)));
            out.push(SparkEvent::ShuffleWritten { stage: t.stage, part, exec });
        }
    }

    /// Starts the job of action `a`, or ends the run if the program calls no more actions.
    fn next_job(&mut self, a: u8, out: &mut Vec<SparkEvent>) {
        if a >= self.spec.actions {
            self.switch(SparkJob::Done);
            out.push(SparkEvent::JobDone);
            return;
        }
        if let SparkJob::Action(prev) = self.job {
            out.push(SparkEvent::ActionDone { action: prev });
        }
        self.earlier.push(self.written());
        for o in &mut self.output {
            *o = None;
        }
        self.switch(SparkJob::Action(a));
        out.push(SparkEvent::ActionStarted { action: a });
    }

    /// A new job: new stages (a stage whose shuffle outputs are registered is skipped), so task
    /// attempts count from one again.
    fn switch(&mut self, job: SparkJob) {
        self.job = job;
        self.active = None;
        self.attempts = SortedMap::new();
        self.in_job = SortedMap::new();
        self.failures = SortedMap::new();
    }

    fn lose_executor(&mut self, e: u8, out: &mut Vec<SparkEvent>) -> Result<(), Refusal> {
        if e as usize >= self.executors.len() {
            return Err(Refusal::NoSuchMachine(e));
        }
        self.executors[e as usize] += 1;
        let killed = match &self.running {
            Some(t) if t.exec == e => Some((t.stage, t.part)),
            _ => None,
        };
        if killed.is_some() {
            self.running = None;
        }
        let memory: Vec<(usize, u8)> = self.memory.iter().filter(|(_, (x, _))| *x == e).map(|(k, _)| *k).collect();
        for k in &memory {
            self.memory.remove(k);
        }
        let mut shuffle = Vec::new();
        for (s, maps) in self.shuffles.iter_mut().enumerate() {
            for (p, m) in maps.iter_mut().enumerate() {
                if matches!(m, Some((x, _)) if *x == e) {
                    *m = None;
                    shuffle.push((s, p as u8));
                }
            }
        }
        out.push(SparkEvent::ExecutorLost { exec: e, killed, memory, shuffle });
        Ok(())
    }

    /// The job's written output, in partition order.
    pub fn written(&self) -> Vec<Rec> {
        if self.job == SparkJob::Aborted {
            // The failed job's output was never committed (commitJob did not run).
            return Vec::new();
        }
        self.output.iter().flatten().flatten().cloned().collect()
    }
}
