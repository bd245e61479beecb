//! Question type 2: "Which of these cuts is consistent?" A cut is one point per task line of the
//! run's space-time diagram; after Chandy and Lamport, it is consistent when no record crosses it
//! from the future into the past (sent after its sender's point, received before its receiver's:
//! an orphan). The drawn-cut engine (`engine::drawn_cut::classify`, the same channel check the
//! engine applies to a checkpoint's snapshots) grades.
//!
//! The PRNG picks the job and a schedule of reads and deliveries (no crash, so every task line
//! runs the whole run), then draws cuts until four distinct ones include at least one consistent
//! and one inconsistent cut; a run where no such four turn up is rejected.

use crate::classroom::RunConfig;
use crate::engine::core::rng::Rng;
use crate::engine::verdict::drawn_cut::{classify, Crossing, DrawnCut};
use crate::engine::{Lang, Settings, Strategy, Timeline};

use super::question::{pick, random_steps, schedule_lines, Choice, Kind, Question, Words};

pub const JOBS: [&str; 3] = ["line", "two-inputs", "diamond"];

/// How many cuts a question offers.
pub const CUTS: usize = 4;

/// Draws of a cut before the run is rejected.
const DRAWS: usize = 40;

const LETTERS: [&str; CUTS] = ["A", "B", "C", "D"];

pub fn generate(seed: u64) -> Option<Question> {
    let mut rng = Rng::new(seed);
    let job = pick(&mut rng, &JOBS);
    let run = RunConfig {
        job: job.into(),
        settings: Settings::new(Strategy::Timers),
        seed: 1 + rng.below(999),
        records: None,
    };
    let start = run.scenario().sim().ok()?;
    let mut sim = start.clone();
    let (mut actions, mut events) = (Vec::new(), Vec::new());
    let n = 8 + rng.below(9) as usize;
    random_steps(&mut sim, &mut rng, n, &mut actions, &mut events);
    let steps = actions.len() as u64;
    if steps < 4 {
        return None;
    }
    let tl = Timeline::from_actions(start, &actions).ok()?;
    let tasks = sim.graph.tasks.len();
    let mut cuts: Vec<DrawnCut> = Vec::new();
    for _ in 0..DRAWS {
        if cuts.len() == CUTS {
            break;
        }
        let points: Vec<u64> = (0..tasks).map(|_| 1 + rng.below(steps)).collect();
        if cuts.iter().any(|c| c.points == points) {
            continue;
        }
        let cut = classify(&tl, &points).ok()?;
        let consistent = cuts.iter().filter(|c| c.consistent()).count();
        // The last place goes to the kind still missing, if one is.
        let last = cuts.len() == CUTS - 1;
        if last && consistent == CUTS - 1 && cut.consistent() || last && consistent == 0 && !cut.consistent() {
            continue;
        }
        cuts.push(cut);
    }
    if cuts.len() < CUTS {
        return None;
    }
    let g = &sim.graph;
    let name = |t: usize| g.tasks[t].name.as_str();
    let words = |c: &DrawnCut, l: Lang| -> String {
        let parts: Vec<String> = c
            .points
            .iter()
            .enumerate()
            .map(|(t, p)| match l {
                Lang::En => format!("{} after step {p}", name(t)),
                Lang::Zh => format!("{} 在第 {p} 步之后", name(t)),
            })
            .collect();
        parts.join(l.t(", ", "，"))
    };
    let choices = cuts
        .iter()
        .zip(LETTERS)
        .map(|(c, letter)| Choice { words: Words::of(|l| format!("{letter}: {}", words(c, l))), right: c.consistent() })
        .collect();
    let explanation = Words::of(|l| {
        let lines: Vec<String> = cuts.iter().zip(LETTERS).map(|(c, letter)| why(c, letter, g, l)).collect();
        lines.join(" ")
    });
    Some(Question {
        kind: Kind::ConsistentCut,
        seed,
        prompt: Words::new(
            "Each cut puts one point on every task's line of the space-time diagram of this run (a task's line is cut after that step). Which cuts are consistent? Tick every one.",
            "每个切面在这次运行的时空图中每个任务的线上各放一个点（任务的线在那一步之后被切开）。哪些切面是一致的？勾选所有的。",
        ),
        setup: schedule_lines(g, &actions),
        choices,
        several: true,
        explanation,
        cuts: cuts.iter().map(|c| c.points.clone()).collect(),
        run,
        actions,
        restore: None,
    })
}

/// Why one cut is or is not consistent, from its crossing arrows.
fn why(c: &DrawnCut, letter: &str, g: &crate::engine::JobGraph, l: Lang) -> String {
    let name = |t: crate::engine::TaskId| g.task(t).name.as_str();
    let orphan = c.arrows.iter().find(|a| a.crossing == Crossing::Orphan);
    let in_transit: Vec<&str> =
        c.arrows.iter().filter(|a| a.crossing == Crossing::InTransit).map(|a| a.label.as_str()).collect();
    match orphan {
        Some(a) => {
            let ch = &g.channels[a.channel.index()];
            let (from, to) = (name(ch.from), name(ch.to));
            let (sent, got) = (a.sent_at.unwrap_or(0), a.received_at.unwrap_or(0));
            let (pf, pt) = (c.points[ch.from.index()], c.points[ch.to.index()]);
            match l {
                Lang::En => format!(
                    "{letter} is inconsistent: {} is sent by {from} at step {sent}, after {from}'s point ({pf}), yet received by {to} at step {got}, at or before {to}'s point ({pt}): an orphan, counted by {to}'s state but not yet sent in {from}'s, so a restore from it counts {} twice.",
                    a.label, a.label
                ),
                Lang::Zh => format!(
                    "{letter} 不一致：{} 由 {from} 在第 {sent} 步发出，晚于 {from} 的点（{pf}），却在第 {got} 步被 {to} 收到，不晚于 {to} 的点（{pt}）：这是孤儿消息，{to} 的状态已计入它，{from} 的状态却还没发出它，从这个切面恢复会把 {} 计两次。",
                    a.label, a.label
                ),
            }
        }
        None if in_transit.is_empty() => match l {
            Lang::En => format!("{letter} is consistent: no record crosses it."),
            Lang::Zh => format!("{letter} 是一致的：没有记录穿过它。"),
        },
        None => match l {
            Lang::En => format!(
                "{letter} is consistent: no record crosses from after a sender's point to before its receiver's. In transit across it, which Chandy and Lamport record as channel state: {}.",
                in_transit.join(", ")
            ),
            Lang::Zh => format!(
                "{letter} 是一致的：没有记录从发送方的点之后穿到接收方的点之前。在途穿过它的记录（Chandy 和 Lamport 把它们记为通道状态）：{}。",
                in_transit.join("、")
            ),
        },
    }
}
