//! Question type 1: "Here is a schedule. After this crash and restore, which records are lost
//! (or: which are duplicated)?" The learner ticks records; the engine's ledger
//! (`engine::ledger`, the run against its failure-free reference run) grades.
//!
//! The PRNG picks the job, the strategy (per-task timers, whose saves need not form a consistent
//! cut, or barriers without alignment, which replay records already counted), the schedule of
//! reads and deliveries, when each save is taken and when the cluster crashes. After the restore
//! the job runs to its end, so no record is still on its way and each is lost, duplicated or
//! exactly once. The question asks for whichever of lost and duplicated the run has (both: the
//! PRNG picks); a run with neither, or where every record is the one asked for, is rejected.

use crate::classroom::RunConfig;
use crate::engine::core::rng::Rng;
use crate::engine::{narrate, Action, Event, Settings, Strategy, TaskId, Verdict};

use super::question::{act, pick, random_steps, schedule_lines, Choice, Kind, Question, Words};

/// The jobs it draws from.
pub const JOBS: [&str; 4] = ["line", "line-sink", "two-inputs", "diamond"];

/// How many steps the run may take after the restore, to its end.
const LIMIT: usize = 4000;

pub fn generate(seed: u64) -> Option<Question> {
    let mut rng = Rng::new(seed);
    let job = pick(&mut rng, &JOBS);
    let strategy = pick(&mut rng, &[Strategy::Timers, Strategy::Timers, Strategy::AtLeastOnce]);
    let run = RunConfig { job: job.into(), settings: Settings::new(strategy), seed: 1 + rng.below(999), records: None };
    let mut sim = run.scenario().sim().ok()?;
    let (mut actions, mut events) = (Vec::new(), Vec::new());
    let n = 2 + rng.below(6) as usize;
    random_steps(&mut sim, &mut rng, n, &mut actions, &mut events);
    if strategy == Strategy::Timers {
        // Every task's timer fires once, in an order and at moments the PRNG draws.
        let mut order: Vec<u16> = (0..sim.graph.tasks.len() as u16).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for t in order {
            act(&mut sim, Action::Timer { task: TaskId(t) }, &mut actions, &mut events);
            let n = rng.below(4) as usize;
            random_steps(&mut sim, &mut rng, n, &mut actions, &mut events);
        }
    } else {
        act(&mut sim, Action::Checkpoint, &mut actions, &mut events);
        let n = 3 + rng.below(10) as usize;
        random_steps(&mut sim, &mut rng, n, &mut actions, &mut events);
    }
    let n = rng.below(4) as usize;
    random_steps(&mut sim, &mut rng, n, &mut actions, &mut events);
    events.clear();
    if !act(&mut sim, Action::Crash, &mut actions, &mut events)
        || !act(&mut sim, Action::Restore, &mut actions, &mut events)
    {
        return None;
    }
    let recovery: Vec<Event> = std::mem::take(&mut events);
    let shown = actions.len();
    actions.extend(sim.run_to_end(LIMIT, &mut events));
    let ledger = sim.ledger();
    if ledger.rows.iter().any(|r| r.state_verdict == Verdict::Pending) {
        return None;
    }
    let lost = ledger.state_labels(Verdict::Lost);
    let duplicated = ledger.state_labels(Verdict::Duplicated);
    let target = match (lost.is_empty(), duplicated.is_empty()) {
        (true, true) => return None,
        (false, true) => Verdict::Lost,
        (true, false) => Verdict::Duplicated,
        (false, false) => pick(&mut rng, &[Verdict::Lost, Verdict::Duplicated]),
    };
    let choices: Vec<Choice> = ledger
        .rows
        .iter()
        .map(|r| Choice { words: Words::new(r.label.clone(), r.label.clone()), right: r.state_verdict == target })
        .collect();
    let g = &sim.graph;
    let mut setup = schedule_lines(g, &actions[..shown]);
    let after = actions.len() - shown;
    setup.push(Words::new(
        format!("Then the job runs to its end ({after} steps of the scheduler)."),
        format!("然后作业一直运行到结束（调度器再走 {after} 步）。"),
    ));
    let prompt = match target {
        Verdict::Lost => Words::new(
            "After this crash and restore, the job runs to its end. Which records does the job's state count fewer times than the failure-free run: which are lost? Tick every one.",
            "这次崩溃和恢复之后，作业一直运行到结束。哪些记录在作业状态中被计入的次数少于无故障运行，也就是丢失了？勾选所有的。",
        ),
        _ => Words::new(
            "After this crash and restore, the job runs to its end. Which records does the job's state count more times than the failure-free run: which are duplicated? Tick every one.",
            "这次崩溃和恢复之后，作业一直运行到结束。哪些记录在作业状态中被计入的次数多于无故障运行，也就是重复了？勾选所有的。",
        ),
    };
    let none =
        |v: &[&str], l: crate::engine::Lang| if v.is_empty() { l.t("none", "无").to_string() } else { v.join(", ") };
    let explanation = Words::of(|l| {
        let told: Vec<String> = recovery.iter().map(|e| narrate(e, g, l)).filter(|s| !s.is_empty()).collect();
        let why = match strategy {
            Strategy::Timers => l.t(
                "Each task came back from its own latest timer save, and those saves were taken at different moments, so they need not form a consistent cut: a record already in the receiver's save that its sender's older save has not yet sent is sent again (duplicated); one the sender had sent before its save but the receiver's save does not hold is lost.",
                "每个任务都从自己最近一次定时保存恢复，而这些保存发生在不同时刻，所以它们不一定构成一致切面：接收方的保存里已经有、而发送方更早的保存里还没发出的记录会被再发一次（重复）；发送方在保存前已发出、接收方的保存里却没有的记录就丢失了。",
            ),
            _ => l.t(
                "Barriers without alignment: a task snapshots when it has counted every barrier, and a snapshot may already hold records sent after the barrier on a faster input; the sources rewind to the checkpoint's offsets and send those records again (duplicated), and nothing is lost.",
                "屏障不对齐：任务数齐所有屏障就做快照，快照里可能已经有较快输入上屏障之后发来的记录；数据源回退到检查点的偏移量，把这些记录再发一次（重复），不会丢失。",
            ),
        };
        let verdict = match l {
            crate::engine::Lang::En => format!(
                "The ledger, against the failure-free run: lost {}; duplicated {}; every other record exactly once.",
                none(&lost, l),
                none(&duplicated, l)
            ),
            crate::engine::Lang::Zh => {
                format!(
                    "账本与无故障运行对照：丢失 {}；重复 {}；其余记录都恰好一次。",
                    none(&lost, l),
                    none(&duplicated, l)
                )
            }
        };
        format!("{} {why} {verdict}", told.join(" "))
    });
    Some(Question {
        kind: Kind::LostOrDuplicated,
        seed,
        prompt,
        setup,
        choices,
        several: true,
        explanation,
        cuts: vec![],
        run,
        actions,
        restore: None,
    })
}
