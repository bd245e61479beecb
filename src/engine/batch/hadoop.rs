//! Hadoop MapReduce: a job of map tasks, then reduce tasks, whose recovery is to run a failed task
//! again. Follows Hadoop MapReduce (the MRAppMaster and its `JobImpl`/`TaskImpl` state machines):
//!
//! - **Input splits** live in HDFS and survive everything. Map task *i* reads split *i*.
//! - **Map outputs** are written to the mapper's *local disk*, partitioned by reduce (the
//!   `HashPartitioner`), not to HDFS. A finished map is as good as persisted, so a failed reduce
//!   re-runs no map.
//! - **The shuffle**: reduce *j* fetches partition *j* of every map output over the network.
//! - **Reduce output** is committed to HDFS (`FileOutputCommitter`: the attempt's files are
//!   renamed into place when the task commits, so a failed attempt leaves nothing behind).
//! - **A failed task** (its JVM dies, its node lives) runs again as a new attempt.
//! - **A lost node** takes its local disk with it: its finished map outputs are gone, so those
//!   maps run again, as `JobImpl.actOnUnusableNode` kills the succeeded map attempts of an
//!   unusable node while not all reducers are complete (`MapTaskRescheduledTransition` makes each
//!   such map run again). Finished reduces are not re-run: their output is in HDFS. The job
//!   commits only when every task has succeeded (`checkReadyForCommit`), so maps rescheduled while
//!   the last reduce ran must run again before the job is done, though no reduce reads them.
//!
//! Simplifications: one task runs at a time (a step starts a task or finishes it); a task is
//! placed on node `i mod nodes`, or the next live one; a lost node never returns; attempts are not
//! limited (Hadoop fails the job after `mapreduce.map.maxattempts`, 4 by default).

use serde::{Deserialize, Serialize};

use super::action::{BatchAction, Refusal};
use super::cost::Cost;
use super::data::{buckets, chunks, lines, sum_by_key, words, Rec};

/// A word-count MapReduce job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HadoopSpec {
    /// The input text, one line per entry.
    pub input: Vec<String>,
    /// Input splits, one map task each.
    pub splits: u8,
    /// Reduce tasks.
    pub reduces: u8,
    /// Worker nodes (NodeManagers), each with its local disk.
    pub nodes: u8,
}

/// A task of the job: map *i* or reduce *j*.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum TaskName {
    Map(u8),
    Reduce(u8),
}

impl TaskName {
    pub fn label(self) -> String {
        match self {
            TaskName::Map(i) => format!("M{i}"),
            TaskName::Reduce(j) => format!("R{j}"),
        }
    }
}

/// Where a task stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TaskState {
    /// Waiting to run (never run, or to run again).
    Pending,
    /// A map that has read its split and run the map function, its output still in memory; a
    /// reduce that has fetched its partition of every map output.
    Running { node: u8 },
    /// Done: a map's output is on `node`'s local disk; a reduce's output is in HDFS.
    Done { node: u8 },
}

/// What happened in one action, for the narration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum HadoopEvent {
    /// Task attempt started on a node: a map read its split and mapped it; a reduce fetched its
    /// partition from every map output (`fetched` map outputs, `records` records).
    Started { task: TaskName, node: u8, attempt: u32, records: usize },
    /// A map wrote its output, partitioned by reduce, to its node's local disk.
    MapWritten { map: u8, node: u8, records: usize },
    /// A reduce summed its records and committed its output file to HDFS.
    ReduceCommitted { reduce: u8, node: u8, records: usize },
    /// The running task attempt failed; its node lives on.
    TaskFailed { task: TaskName, node: u8 },
    /// A node was lost, with the task running on it (if any) and its local disk.
    NodeLost { node: u8, killed: Option<TaskName>, lost_outputs: Vec<u8>, rerun: bool },
    /// Every task succeeded and every reduce committed: the job commits and is done.
    JobDone,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Task {
    pub name: TaskName,
    pub state: TaskState,
    pub attempts: u32,
    /// What the running attempt holds (a map's buckets, a reduce's fetched records).
    #[serde(skip)]
    held: Vec<Vec<Rec>>,
}

/// A MapReduce job as it runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hadoop {
    pub spec: HadoopSpec,
    pub maps: Vec<Task>,
    pub reduces: Vec<Task>,
    /// Whether each node is up.
    pub nodes: Vec<bool>,
    /// Map outputs on local disks: per map, the node and the buckets (one per reduce).
    #[serde(skip)]
    disks: Vec<Option<(u8, Vec<Vec<Rec>>)>>,
    /// The committed output files in HDFS, per reduce (`part-r-0000j`).
    pub output: Vec<Option<Vec<Rec>>>,
    pub cost: Cost,
}

impl HadoopSpec {
    /// Whether the job's shape is one this simulator runs (1 to 8 of each, some input).
    pub fn check(&self) -> Result<(), String> {
        for (what, n) in [("splits", self.splits), ("reduces", self.reduces), ("nodes", self.nodes)] {
            if !(1..=8).contains(&n) {
                return Err(format!("\"{what}\" must be 1 to 8"));
            }
        }
        if self.input.is_empty() || self.input.len() > 64 {
            return Err("\"input\" must have 1 to 64 lines".into());
        }
        Ok(())
    }

    /// The lines of each split.
    pub fn split_lines(&self) -> Vec<Vec<String>> {
        chunks(&self.input, self.splits as usize)
    }
}

impl Hadoop {
    pub fn new(spec: HadoopSpec) -> Hadoop {
        let task = |name| Task { name, state: TaskState::Pending, attempts: 0, held: Vec::new() };
        Hadoop {
            maps: (0..spec.splits).map(|i| task(TaskName::Map(i))).collect(),
            reduces: (0..spec.reduces).map(|j| task(TaskName::Reduce(j))).collect(),
            nodes: vec![true; spec.nodes as usize],
            disks: vec![None; spec.splits as usize],
            output: vec![None; spec.reduces as usize],
            cost: Cost::default(),
            spec,
        }
    }

    /// Every task has succeeded: `JobImpl.checkReadyForCommit` commits the job only then, so a
    /// map rescheduled after a node loss must run again even when every reduce has committed.
    pub fn done(&self) -> bool {
        self.reduces_done() && self.maps.iter().all(|t| matches!(t.state, TaskState::Done { .. }))
    }

    /// `JobImpl.allReducersComplete`.
    fn reduces_done(&self) -> bool {
        self.reduces.iter().all(|t| matches!(t.state, TaskState::Done { .. }))
    }

    /// The running task, if any.
    pub fn running(&self) -> Option<(TaskName, u8)> {
        self.maps.iter().chain(&self.reduces).find_map(|t| match t.state {
            TaskState::Running { node } => Some((t.name, node)),
            _ => None,
        })
    }

    pub fn task(&self, name: TaskName) -> &Task {
        match name {
            TaskName::Map(i) => &self.maps[i as usize],
            TaskName::Reduce(j) => &self.reduces[j as usize],
        }
    }

    fn task_mut(&mut self, name: TaskName) -> &mut Task {
        match name {
            TaskName::Map(i) => &mut self.maps[i as usize],
            TaskName::Reduce(j) => &mut self.reduces[j as usize],
        }
    }

    /// Which maps' outputs sit on a node's local disk.
    pub fn disk(&self, node: u8) -> Vec<u8> {
        (0..self.spec.splits).filter(|&i| matches!(self.disks[i as usize], Some((n, _)) if n == node)).collect()
    }

    /// The node a task runs on: `index mod nodes`, or the next live node.
    fn place(&self, index: u8) -> u8 {
        let n = self.nodes.len();
        (0..n).map(|k| ((index as usize + k) % n) as u8).find(|&k| self.nodes[k as usize]).unwrap_or(0)
    }

    pub fn apply(&mut self, action: BatchAction, out: &mut Vec<HadoopEvent>) -> Result<(), Refusal> {
        match action {
            BatchAction::Step => self.step(out),
            BatchAction::FailTask => {
                let (name, node) = self.running().ok_or(Refusal::NoRunningTask)?;
                let t = self.task_mut(name);
                t.state = TaskState::Pending;
                t.held.clear();
                out.push(HadoopEvent::TaskFailed { task: name, node });
                Ok(())
            }
            BatchAction::Crash(node) => self.lose_node(node, out),
        }
    }

    fn step(&mut self, out: &mut Vec<HadoopEvent>) -> Result<(), Refusal> {
        if let Some((name, node)) = self.running() {
            let held = std::mem::take(&mut self.task_mut(name).held);
            self.task_mut(name).state = TaskState::Done { node };
            match name {
                TaskName::Map(i) => {
                    let records = held.iter().map(Vec::len).sum();
                    self.disks[i as usize] = Some((node, held));
                    out.push(HadoopEvent::MapWritten { map: i, node, records });
                    if self.done() {
                        out.push(HadoopEvent::JobDone);
                    }
                }
                TaskName::Reduce(j) => {
                    let result = sum_by_key(held.into_iter().flatten());
                    out.push(HadoopEvent::ReduceCommitted { reduce: j, node, records: result.len() });
                    self.output[j as usize] = Some(result);
                    if self.done() {
                        out.push(HadoopEvent::JobDone);
                    }
                }
            }
            return Ok(());
        }
        if self.done() {
            return Err(Refusal::Done);
        }
        // Maps first (a map to run again comes before any reduce); then the reduces, which need
        // every map output.
        let name = match self.maps.iter().find(|t| t.state == TaskState::Pending) {
            Some(t) => t.name,
            None => self.reduces.iter().find(|t| t.state == TaskState::Pending).expect("a reduce to run").name,
        };
        let index = match name {
            TaskName::Map(i) | TaskName::Reduce(i) => i,
        };
        let node = self.place(index);
        let reruns = self.task(name).attempts > 0;
        let (held, records) = match name {
            TaskName::Map(i) => {
                let input = lines(&self.spec.split_lines()[i as usize]);
                let records = input.len();
                (buckets(&words(&input), self.spec.reduces as usize), records)
            }
            TaskName::Reduce(j) => {
                let fetched: Vec<Vec<Rec>> = self
                    .disks
                    .iter()
                    .map(|d| {
                        d.as_ref().expect("every map output is there before a reduce starts").1[j as usize].clone()
                    })
                    .collect();
                let records = fetched.iter().map(Vec::len).sum();
                (fetched, records)
            }
        };
        self.cost.task_runs += 1;
        match name {
            TaskName::Map(_) => self.cost.map_runs += 1,
            TaskName::Reduce(_) => self.cost.reduce_runs += 1,
        }
        if reruns {
            self.cost.task_reruns += 1;
            self.cost.records_recomputed += records as u32;
        }
        let t = self.task_mut(name);
        t.attempts += 1;
        t.state = TaskState::Running { node };
        t.held = held;
        let attempt = t.attempts;
        out.push(HadoopEvent::Started { task: name, node, attempt, records });
        Ok(())
    }

    fn lose_node(&mut self, node: u8, out: &mut Vec<HadoopEvent>) -> Result<(), Refusal> {
        match self.nodes.get(node as usize) {
            None => return Err(Refusal::NoSuchMachine(node)),
            Some(false) => return Err(Refusal::AlreadyDown(node)),
            Some(true) if self.nodes.iter().filter(|&&up| up).count() == 1 => return Err(Refusal::LastNode),
            Some(true) => {}
        }
        self.nodes[node as usize] = false;
        let killed = self.running().filter(|&(_, n)| n == node).map(|(name, _)| name);
        if let Some(name) = killed {
            let t = self.task_mut(name);
            t.state = TaskState::Pending;
            t.held.clear();
        }
        let lost_outputs = self.disk(node);
        for &i in &lost_outputs {
            self.disks[i as usize] = None;
        }
        // JobImpl.actOnUnusableNode re-runs the succeeded maps of an unusable node while not all
        // reducers are complete (the last one may be running: it has fetched, and still the maps
        // run again before the job commits); once every reduce has committed, nothing does.
        let rerun = !lost_outputs.is_empty() && !self.reduces_done();
        for &i in &lost_outputs {
            if rerun {
                self.maps[i as usize].state = TaskState::Pending;
            }
        }
        // A finished reduce's output is in HDFS: a lost node takes none of it.
        out.push(HadoopEvent::NodeLost { node, killed, lost_outputs, rerun });
        Ok(())
    }

    /// The committed output: every reduce's file, in reduce order.
    pub fn written(&self) -> Vec<Rec> {
        self.output.iter().flatten().flatten().cloned().collect()
    }
}
