//! Question type 4: "The JobManager fails. Which checkpoint does the restore use?", with and
//! without high availability. The CheckpointCoordinator and the HA services
//! (`engine::master_failover`, after Flink's HA documentation and
//! `DefaultCompletedCheckpointStore` / `StandaloneCompletedCheckpointStore`) grade: the restore's
//! own `Restored` event names the checkpoint.
//!
//! The PRNG picks the job, `high-availability` (standby or none) and the
//! `externalized-checkpoint-retention`, how many checkpoints complete, whether one more is still
//! pending when the JobManager fails, and the reads and deliveries between. The options are every
//! checkpoint triggered, and "none: a plain resubmission (without -s) starts every task empty, the
//! sources from offset 0" (after a real JobManager crash the last checkpoint's files stay on disk
//! and `flink run -s` could restore them; the option says what a resubmission without it does). Exactly
//! one is right; with at least two options no instance is trivial.

use crate::classroom::RunConfig;
use crate::engine::core::rng::Rng;
use crate::engine::{narrate, Action, CheckpointRetention, Event, HighAvailability, RestoreFrom, Settings, Strategy};

use super::question::{act, pick, random_steps, schedule_lines, Choice, Kind, Question, Words};

pub const JOBS: [&str; 4] = ["line", "line-sink", "two-inputs", "keyed-shuffle"];

/// Steps at most to let a checkpoint complete.
const SETTLE: usize = 200;

pub fn generate(seed: u64) -> Option<Question> {
    let mut rng = Rng::new(seed);
    let job = pick(&mut rng, &JOBS);
    let mut settings = Settings::new(Strategy::Aligned);
    settings.high_availability = pick(&mut rng, &[HighAvailability::Standby, HighAvailability::None]);
    settings.externalized_checkpoint_retention = pick(&mut rng, &CheckpointRetention::ALL);
    let run = RunConfig { job: job.into(), settings, seed: 1 + rng.below(999), records: None };
    let mut sim = run.scenario().sim().ok()?;
    let (mut actions, mut events) = (Vec::new(), Vec::new());
    let completed = 1 + rng.below(2);
    for _ in 0..completed {
        let n = 1 + rng.below(4) as usize;
        random_steps(&mut sim, &mut rng, n, &mut actions, &mut events);
        if !act(&mut sim, Action::Checkpoint, &mut actions, &mut events) {
            return None;
        }
        // The barriers travel until the checkpoint completes (and the notifications are out).
        let mut left = SETTLE;
        while !sim.pending().is_empty() && left > 0 {
            random_steps(&mut sim, &mut rng, 1, &mut actions, &mut events);
            left -= 1;
        }
        if !sim.pending().is_empty() {
            return None;
        }
    }
    let n = 1 + rng.below(3) as usize;
    random_steps(&mut sim, &mut rng, n, &mut actions, &mut events);
    if rng.below(2) == 0 {
        // One more checkpoint, still pending when the JobManager fails.
        act(&mut sim, Action::Checkpoint, &mut actions, &mut events);
        let n = rng.below(2) as usize;
        random_steps(&mut sim, &mut rng, n, &mut actions, &mut events);
    }
    let triggered: Vec<u64> = sim.stats.history.iter().map(|r| r.id.0).collect();
    events.clear();
    if !act(&mut sim, Action::CrashJobManager, &mut actions, &mut events) {
        return None;
    }
    // With a standby one restore; without HA one starts a new JobManager and one resubmits.
    let mut from = None;
    for _ in 0..2 {
        if from.is_some() || !act(&mut sim, Action::Restore, &mut actions, &mut events) {
            break;
        }
        from = events.iter().find_map(|e| match e {
            Event::Restored { from } => Some(*from),
            _ => None,
        });
    }
    let from = from?;
    let mut choices: Vec<Choice> = triggered
        .iter()
        .map(|&id| Choice {
            words: Words::new(format!("Checkpoint {id}"), format!("检查点 {id}")),
            right: from == RestoreFrom::Checkpoint { checkpoint: crate::engine::CheckpointId(id) },
        })
        .collect();
    choices.push(Choice {
        words: Words::new(
            "None: a plain resubmission (without -s) starts every task empty, the sources from offset 0",
            "都不用：不带 -s 直接重新提交，每个任务从空状态开始，数据源从偏移量 0 开始",
        ),
        right: from == RestoreFrom::Nothing,
    });
    let g = &sim.graph;
    let setup = schedule_lines(g, &actions);
    let ha = match run.settings.high_availability {
        HighAvailability::Standby => Words::new(
            "a standby JobManager (high-availability: standby)",
            "有备用 JobManager（high-availability: standby）",
        ),
        HighAvailability::None => {
            Words::new("no high availability (high-availability: none)", "没有高可用（high-availability: none）")
        }
    };
    let retention = run.settings.externalized_checkpoint_retention.id();
    let prompt = Words::new(
        format!(
            "With {} and externalized-checkpoint-retention: {retention}, the JobManager crashes where the schedule says. Which checkpoint does the restore use?",
            ha.en
        ),
        format!("在{}、externalized-checkpoint-retention: {retention} 下，JobManager 在调度所示的那一步崩溃。恢复用哪个检查点？", ha.zh),
    );
    let explanation = Words::of(|l| {
        let told: Vec<String> = events.iter().map(|e| narrate(e, g, l)).filter(|s| !s.is_empty()).collect();
        told.join(" ")
    });
    Some(Question {
        kind: Kind::WhichCheckpoint,
        seed,
        prompt,
        setup,
        choices,
        several: false,
        explanation,
        cuts: vec![],
        run,
        actions,
        restore: None,
    })
}
