//! Question type 6: "Will this savepoint restore into this changed program?", with uids, an
//! inserted or removed operator, rescaling and max parallelism. The restore into a changed
//! program (`engine::rescale`, after Flink's `Checkpoints.loadAndValidateCheckpoint` and
//! `StateAssignmentOperation`) grades: it maps each saved operator's state by operator id
//! (`engine::operator_id`, after `StreamGraphHasherV2`), never by name.
//!
//! The PRNG picks the job (the line without uids, the line with them, the keyed count routed by
//! key group), the schedule before `flink stop` takes the savepoint, one change to the program,
//! and whether `--allowNonRestoredState` is given. The options are the restore and Flink's two
//! refusals a program change can meet here; exactly one is right. A change the simulator itself
//! refuses (its own limits, not Flink's) is rejected.

use crate::classroom::RunConfig;
use crate::engine::core::dataflow::job_graph::{EdgeSpec, JobSpec, OperatorSpec, Partitioning};
use crate::engine::core::rng::Rng;
use crate::engine::program::operator_id::operator_ids;
use crate::engine::program::rescale::{Refusal, StateFate};
use crate::engine::{Action, Lang, OperatorKind, Settings, Strategy};

use super::question::{pick, random_steps, schedule_lines, Choice, Kind, Question, Words};

pub const JOBS: [&str; 3] = ["line", "line-uids", "keyed-count"];

/// What the restore does: the options, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Restores,
    NotAvailable,
    MaxParallelismMismatch,
}

pub const OUTCOMES: [Outcome; 3] = [Outcome::Restores, Outcome::NotAvailable, Outcome::MaxParallelismMismatch];

/// One change to the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A Filter inserted before Count, with this uid or none.
    InsertFilter(Option<String>),
    /// Map removed: Source feeds Count.
    RemoveMap,
    /// Count's uid set to this (or changed to it).
    Uid(String),
    /// Count's parallelism.
    Rescale(u16),
    /// Count's max parallelism set.
    MaxParallelism(u16),
}

impl Change {
    fn words(&self, l: Lang) -> String {
        match (self, l) {
            (Change::InsertFilter(Some(u)), Lang::En) => format!("a Filter (uid {u}) is inserted before Count"),
            (Change::InsertFilter(Some(u)), Lang::Zh) => format!("在 Count 之前插入一个 Filter（uid {u}）"),
            (Change::InsertFilter(None), Lang::En) => "a Filter without a uid is inserted before Count".into(),
            (Change::InsertFilter(None), Lang::Zh) => "在 Count 之前插入一个没有 uid 的 Filter".into(),
            (Change::RemoveMap, Lang::En) => "Map is removed: Source feeds Count directly".into(),
            (Change::RemoveMap, Lang::Zh) => "删除 Map：Source 直接连到 Count".into(),
            (Change::Uid(u), Lang::En) => format!("Count's uid is set to {u}"),
            (Change::Uid(u), Lang::Zh) => format!("把 Count 的 uid 设为 {u}"),
            (Change::Rescale(p), Lang::En) => format!("Count's parallelism becomes {p}"),
            (Change::Rescale(p), Lang::Zh) => format!("Count 的并行度改为 {p}"),
            (Change::MaxParallelism(m), Lang::En) => format!("Count's max parallelism is set to {m}"),
            (Change::MaxParallelism(m), Lang::Zh) => format!("把 Count 的最大并行度设为 {m}"),
        }
    }

    /// The changed program.
    pub fn apply(&self, spec: &JobSpec) -> JobSpec {
        let mut s = spec.clone();
        let count = s.operators.iter().position(|o| o.name == "Count").expect("every job here has a Count");
        match self {
            Change::InsertFilter(uid) => {
                s.operators.insert(
                    count,
                    OperatorSpec {
                        name: "Filter".into(),
                        kind: OperatorKind::Filter { keep_keys: vec!["x".into(), "y".into()] },
                        parallelism: 1,
                        uid: uid.clone(),
                        max_parallelism: None,
                    },
                );
                let into: Vec<EdgeSpec> = s.edges.iter().filter(|e| e.to == "Count").cloned().collect();
                s.edges.retain(|e| e.to != "Count");
                for e in &into {
                    s.edges.push(EdgeSpec {
                        from: e.from.clone(),
                        to: "Filter".into(),
                        partitioning: Partitioning::Forward,
                    });
                }
                let partitioning = into.first().map_or(Partitioning::Forward, |e| e.partitioning);
                s.edges.push(EdgeSpec { from: "Filter".into(), to: "Count".into(), partitioning });
            }
            Change::RemoveMap => {
                s.operators.retain(|o| o.name != "Map");
                s.edges.retain(|e| e.from != "Map");
                for e in &mut s.edges {
                    if e.to == "Map" {
                        e.to = "Count".into();
                    }
                }
            }
            Change::Uid(u) => s.operators[count].uid = Some(u.clone()),
            Change::Rescale(p) => s.operators[count].parallelism = *p,
            Change::MaxParallelism(m) => s.operators[count].max_parallelism = Some(*m),
        }
        s
    }
}

/// The uids a change may give Count.
const UIDS: [&str; 3] = ["count", "count-v2", "counter"];

/// The changes that fit `job`.
fn changes(job: &str, rng: &mut Rng) -> Change {
    let uid = |rng: &mut Rng| pick(rng, &UIDS).to_string();
    let filter = |rng: &mut Rng| {
        if rng.below(2) == 0 {
            Change::InsertFilter(None)
        } else {
            Change::InsertFilter(Some("filter".into()))
        }
    };
    match (job, rng.below(3)) {
        ("keyed-count", 0) => Change::Rescale(pick(rng, &[1, 3, 4])),
        ("keyed-count", 1) => Change::MaxParallelism(pick(rng, &[64, 128, 256])),
        ("keyed-count", _) => Change::Uid(uid(rng)),
        ("line-uids", 2) => Change::MaxParallelism(pick(rng, &[64, 128])),
        (_, 0) => filter(rng),
        (_, 1) => Change::RemoveMap,
        (_, _) => Change::Uid(uid(rng)),
    }
}

/// One line per operator: name, uid, parallelism.
fn program_words(s: &JobSpec, l: Lang) -> String {
    let ops: Vec<String> = s
        .operators
        .iter()
        .map(|o| {
            let uid = o.uid.as_deref().map_or_else(|| l.t("no uid", "无 uid").to_string(), |u| format!("uid {u}"));
            let max = o.max_parallelism.map(|m| match l {
                Lang::En => format!(", max parallelism {m}"),
                Lang::Zh => format!("，最大并行度 {m}"),
            });
            match l {
                Lang::En => format!("{} ({uid}, parallelism {}{})", o.name, o.parallelism, max.unwrap_or_default()),
                Lang::Zh => format!("{}（{uid}，并行度 {}{}）", o.name, o.parallelism, max.unwrap_or_default()),
            }
        })
        .collect();
    ops.join(" → ")
}

/// What the PRNG drew for a question: the run up to the finished stop with savepoint, the
/// savepoint, the change and the flag.
pub struct Drawn {
    pub run: RunConfig,
    pub actions: Vec<Action>,
    pub sim: crate::engine::Sim,
    pub savepoint: crate::engine::CheckpointId,
    pub change: Change,
    pub allow: bool,
}

/// The draws of `seed`, before the restore is tried (None: the job did not stop).
pub fn draw(seed: u64) -> Option<Drawn> {
    let mut rng = Rng::new(seed);
    let job = pick(&mut rng, &JOBS);
    let run = RunConfig {
        job: job.into(),
        settings: Settings::new(Strategy::Aligned),
        seed: 1 + rng.below(999),
        records: None,
    };
    let mut sim = run.scenario().sim().ok()?;
    let (mut actions, mut events) = (Vec::new(), Vec::new());
    let n = 3 + rng.below(10) as usize;
    random_steps(&mut sim, &mut rng, n, &mut actions, &mut events);
    sim.apply(Action::StopWithSavepoint, &mut events).ok()?;
    actions.push(Action::StopWithSavepoint);
    let savepoint = sim.stopping().or_else(|| sim.savepoints().last().map(|s| s.checkpoint.id))?;
    let mut left = 500;
    while sim.stopped().is_none() && left > 0 {
        random_steps(&mut sim, &mut rng, 1, &mut actions, &mut events);
        left -= 1;
    }
    sim.stopped()?;
    let mut change = changes(job, &mut rng);
    // A uid "changed" to the one Count already has is no change: take the next one (the draws
    // stay the same, so every other question is as it was).
    if let Change::Uid(u) = &change {
        let count = sim.graph.spec.operators.iter().find(|o| o.name == "Count").expect("every job here has a Count");
        if count.uid.as_deref() == Some(u.as_str()) {
            let i = UIDS.iter().position(|x| x == u).expect("drawn from UIDS");
            change = Change::Uid(UIDS[(i + 1) % UIDS.len()].to_string());
        }
    }
    let allow = rng.below(4) == 0;
    Some(Drawn { run, actions, sim, savepoint, change, allow })
}

pub fn generate(seed: u64) -> Option<Question> {
    let Drawn { run, actions, sim, savepoint, change, allow } = draw(seed)?;
    let new_spec = change.apply(&sim.graph.spec);
    let result = sim.restore_into(savepoint, &new_spec, allow);
    let outcome = match &result {
        Ok(_) => Outcome::Restores,
        Err(Refusal::NotAvailable { .. }) => Outcome::NotAvailable,
        Err(Refusal::MaxParallelismMismatch { .. }) => Outcome::MaxParallelismMismatch,
        Err(_) => return None,
    };
    let choices = OUTCOMES
        .iter()
        .map(|&o| Choice {
            words: match o {
                Outcome::Restores => Words::new("Yes: it restores", "会：它能恢复"),
                Outcome::NotAvailable => Words::new(
                    "No: some saved state has no operator with its id in the new program",
                    "不会：有保存的状态在新程序里找不到同一 id 的算子",
                ),
                Outcome::MaxParallelismMismatch => Words::new(
                    "No: an operator's max parallelism does not match the saved state's",
                    "不会：有算子的最大并行度与保存的状态不一致",
                ),
            },
            right: o == outcome,
        })
        .collect();
    let old_ids = operator_ids(&sim.graph.spec);
    let new_ids = operator_ids(&new_spec);
    let g = &sim.graph;
    let mut setup = vec![Words::of(|l| match l {
        Lang::En => format!("The program that took the savepoint: {}.", program_words(&g.spec, l)),
        Lang::Zh => format!("做保存点的程序：{}。", program_words(&g.spec, l)),
    })];
    setup.extend(schedule_lines(g, &actions));
    setup.push(Words::of(|l| match l {
        Lang::En => format!("The new program: {}: {}.", change.words(l), program_words(&new_spec, l)),
        Lang::Zh => format!("新程序：{}：{}。", change.words(l), program_words(&new_spec, l)),
    }));
    let flag = if allow { " --allowNonRestoredState" } else { "" };
    let pointer = crate::engine::program::rescale::pointer(savepoint, true);
    let prompt = Words::of(|l| {
        match l {
        Lang::En => format!("The job was stopped with savepoint {}. Will `flink run -s {pointer}{flag}` restore it into the new program?", savepoint.0),
        Lang::Zh => format!("作业停止时做了保存点 {}。`flink run -s {pointer}{flag}` 能把它恢复到新程序吗？", savepoint.0),
    }
    });
    let ids = |l: Lang| -> String {
        let line = |s: &JobSpec, ids: &[crate::engine::program::operator_id::OperatorHash]| -> String {
            s.operators
                .iter()
                .zip(ids)
                .map(|(o, h)| format!("{} {}", o.name, &h.hex()[..8]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match l {
            Lang::En => format!(
                "Operator ids (first 8 hex digits), old: {}; new: {}.",
                line(&g.spec, &old_ids),
                line(&new_spec, &new_ids)
            ),
            Lang::Zh => format!(
                "算子 id（前 8 位十六进制），旧：{}；新：{}。",
                line(&g.spec, &old_ids),
                line(&new_spec, &new_ids)
            ),
        }
    };
    let explanation = Words::of(|l| {
        let head = l.t(
            "Flink maps each saved operator's state to the new program's operator with the same operator id: the hash of its uid, or, without a uid, a hash of its place in the topology, which an inserted or removed operator upstream changes. Names do not count.",
            "Flink 按算子 id 把每个保存的算子状态交给新程序中 id 相同的算子：有 uid 时是 uid 的哈希，没有 uid 时是它在拓扑中位置的哈希，上游插入或删除算子都会改变它。名字不算数。",
        );
        let what = match &result {
            Ok((_, plan, _)) => {
                let rows: Vec<String> = plan
                    .rows
                    .iter()
                    .map(|r| {
                        let to = r.target.clone().unwrap_or_else(|| "—".into());
                        let fate = match (r.fate, l) {
                            (StateFate::Kept, Lang::En) if r.has_state => format!("{}'s state goes to {to}", r.operator),
                            (StateFate::Kept, Lang::Zh) if r.has_state => format!("{} 的状态交给 {to}", r.operator),
                            (StateFate::Kept | StateFate::SkippedEmpty, Lang::En) => format!("{} has no state", r.operator),
                            (StateFate::Kept | StateFate::SkippedEmpty, Lang::Zh) => format!("{} 没有状态", r.operator),
                            (StateFate::Dropped, Lang::En) => format!("{}'s state has no operator and is dropped (--allowNonRestoredState)", r.operator),
                            (StateFate::Dropped, Lang::Zh) => format!("{} 的状态没有对应算子，被丢弃（--allowNonRestoredState）", r.operator),
                            (StateFate::Refused, _) => r.operator.clone(),
                            (StateFate::Unread, Lang::En) => format!("{}'s state goes to {to}, which took its generated id and never reads it: the state is lost without a refusal", r.operator),
                            (StateFate::Unread, Lang::Zh) => format!("{} 的状态交给了 {to}：它占了原来自动生成的 id，却从不读取这份状态，于是状态丢失，Flink 也不拒绝", r.operator),
                        };
                        fate
                    })
                    .collect();
                match l {
                    Lang::En => format!("It restores: {}.", rows.join("; ")),
                    Lang::Zh => format!("能恢复：{}。", rows.join("；")),
                }
            }
            Err(e) => match l {
                Lang::En => format!("Flink refuses: “{}”", e.message()),
                Lang::Zh => format!("Flink 拒绝恢复（原文）：“{}”", e.message()),
            },
        };
        format!("{head} {} {what}", ids(l))
    });
    // A restore that goes through opens on the canvas as the restored job (a refused one: the
    // run that took the savepoint, whose restore the refusal is about).
    let restore = result.is_ok().then(|| crate::classroom::program_change::ProgramChange {
        prior: None,
        before: actions.iter().map(Action::code).collect::<Vec<_>>().join(" "),
        from: savepoint.0,
        program: new_spec.clone(),
        allow_non_restored_state: allow,
    });
    Some(Question {
        kind: Kind::SavepointRestore,
        seed,
        prompt,
        setup,
        choices,
        several: false,
        explanation,
        cuts: vec![],
        run,
        actions,
        restore,
    })
}
