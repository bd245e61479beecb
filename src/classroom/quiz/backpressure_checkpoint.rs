//! Question type 7: "Will the checkpoint complete under backpressure?", drawn from lesson 16 (issue
//! 53). A slow task behind bounded channels holds the job back; checkpoint 1 is triggered after a
//! number of Play's steps, and the question asks which settings let it complete within its
//! checkpoint timeout: aligned barriers as set, unaligned checkpoints (FLIP-76), aligned with
//! buffer debloating (FLIP-183), aligned with channels of another capacity, and barriers without
//! alignment (at-least-once). Each option is graded by running the engine: the same job, input
//! and scheduler seed with that one setting changed, Play's scheduler for the same steps, the
//! trigger, and Play on until the CheckpointCoordinator completes checkpoint 1 or expires it
//! (`checkpoint-timeout`); its row in the checkpoint statistics (`stats.history`) is the verdict.
//!
//! What decides it, in the engine's terms: an aligned barrier (and a tracked one, without
//! alignment) waits in the queue like any record, so its start delay at the slow task grows with
//! the records queued before it, each taking the task's `record-cost`; a larger capacity lets more
//! of them queue. An unaligned barrier overtakes the queue and the records it overtook are
//! persisted as channel state. Debloated buffers hold only what the slow task takes in the target
//! time, so fewer records wait in front of the barrier and nothing is persisted.
//!
//! The PRNG picks the job (the line, the line with a sink, two inputs, the diamond), the slow task
//! and its cost, the capacity, the input's length, the scheduler's seed, the steps before the
//! trigger, the timeout, the debloat target and the other capacity. An instance is rejected when
//! some option's checkpoint neither completes nor expires, when nothing is queued at the trigger,
//! when the unaligned checkpoint expires, or (in `set`) when every option is right or none is. An
//! unaligned barrier waits for no queue, only for the record in hand and for Play to draw its
//! delivery (each step is one action of the whole job, drawn uniformly among those enabled): one
//! that expires was outdrawn by the scheduler for most of its timeout, which is not what the
//! question asks about. "Open on the canvas" replays the run as
//! set, to the step that ends checkpoint 1; the Checkpoints tab draws its bar and the timeout line.

use crate::classroom::RunConfig;
use crate::engine::core::rng::Rng;
use crate::engine::{
    Action, ChannelId, CheckpointRecord, CheckpointStatus, Event, Item, Lang, Settings, Sim, Strategy, TaskId,
};

use super::question::{act, pick, Choice, Kind, Question, Words};

/// The jobs, each with the tasks that may be the slow one (no source: a slow source only reads
/// slowly, and nothing queues).
pub const JOBS: [(&str, &[&str]); 4] = [
    ("line", &["Map", "Count"]),
    ("line-sink", &["Map", "Count", "Sink"]),
    ("two-inputs", &["Count"]),
    ("diamond", &["B", "D"]),
];

/// Consecutive expiries the job tolerates (lesson 16's): an expiry does not fail the job over, so
/// the run on the canvas ends with the job still running.
pub const TOLERABLE: u32 = 3;

/// One option: the settings as drawn, or one of them changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remedy {
    /// Aligned barriers, as set.
    AsSet,
    /// Unaligned checkpoints (strategy `unaligned`).
    Unaligned,
    /// Aligned, with `buffer-debloat-target` this many steps.
    Debloated { target: u32 },
    /// Aligned, with `channel-capacity` this many items.
    Capacity { items: u32 },
    /// Barriers without alignment (strategy `at-least-once`).
    AtLeastOnce,
}

/// What the PRNG drew for one question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    pub job: &'static str,
    /// The slow task's name and the steps one record keeps it busy.
    pub slow: &'static str,
    pub cost: u32,
    /// Items a channel holds, as set.
    pub capacity: u32,
    /// Records per source partition.
    pub records: u32,
    /// Play's scheduler's seed.
    pub scheduler: u64,
    /// Play's steps before checkpoint 1 is triggered.
    pub trigger: usize,
    /// `checkpoint-timeout` in steps.
    pub timeout: u64,
    /// The options, "as set" first.
    pub options: Vec<Remedy>,
}

/// The PRNG's draws for `seed`, in order.
pub fn draw(seed: u64) -> Drawn {
    let mut rng = Rng::new(seed);
    let (job, slow_tasks) = pick(&mut rng, &JOBS);
    let slow = pick(&mut rng, slow_tasks);
    let cost = 2 + rng.below(3) as u32;
    let capacity = 2 + rng.below(3) as u32;
    let records = 10 + rng.below(11) as u32;
    let scheduler = 1 + rng.below(999);
    let trigger = 10 + rng.below(11) as usize;
    let timeout = 6 + rng.below(15);
    let target = 1 + rng.below(3 * cost as u64) as u32;
    // Another capacity: 1 up to twice the one set, not the one set.
    let mut items = 1 + rng.below(2 * capacity as u64 - 1) as u32;
    if items >= capacity {
        items += 1;
    }
    let mut others =
        vec![Remedy::Unaligned, Remedy::Debloated { target }, Remedy::Capacity { items }, Remedy::AtLeastOnce];
    for i in (1..others.len()).rev() {
        others.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut options = vec![Remedy::AsSet];
    options.extend(others);
    Drawn { job, slow, cost, capacity, records, scheduler, trigger, timeout, options }
}

impl Drawn {
    /// The run an option stands for: the settings as drawn with the option's one change.
    pub fn run(&self, remedy: Remedy) -> RunConfig {
        let mut s = Settings::new(Strategy::Aligned);
        s.record_cost.insert(self.slow.into(), self.cost);
        s.channel_capacity = Some(self.capacity);
        s.checkpoint_timeout = self.timeout;
        s.tolerable_failed_checkpoints = TOLERABLE;
        match remedy {
            Remedy::AsSet => {}
            Remedy::Unaligned => s.strategy = Strategy::Unaligned,
            Remedy::Debloated { target } => s.buffer_debloat_target = Some(target),
            Remedy::Capacity { items } => s.channel_capacity = Some(items),
            Remedy::AtLeastOnce => s.strategy = Strategy::AtLeastOnce,
        }
        RunConfig { job: self.job.into(), settings: s, seed: self.scheduler, records: Some(self.records) }
    }
}

/// The option's words.
pub fn remedy_words(r: Remedy, capacity: u32, l: Lang) -> String {
    let aligned = Strategy::Aligned.name(l);
    match (r, l) {
        (Remedy::AsSet, Lang::En) => format!("{aligned}, as set (channels of {capacity} items)"),
        (Remedy::AsSet, Lang::Zh) => format!("{aligned}，按原设置（通道容纳 {capacity} 项）"),
        (Remedy::Unaligned, Lang::En) => {
            format!("{} (FLIP-76), channels of {capacity} items", Strategy::Unaligned.name(l))
        }
        (Remedy::Unaligned, Lang::Zh) => format!("{}（FLIP-76），通道容纳 {capacity} 项", Strategy::Unaligned.name(l)),
        (Remedy::Debloated { target }, Lang::En) => {
            format!("{aligned} with buffer debloating (FLIP-183), target {target} steps")
        }
        (Remedy::Debloated { target }, Lang::Zh) => format!("{aligned}加缓冲区消胀（FLIP-183），目标 {target} 步"),
        (Remedy::Capacity { items }, Lang::En) => format!("{aligned} with channels of {items} items"),
        (Remedy::Capacity { items }, Lang::Zh) => format!("{aligned}，通道改为容纳 {items} 项"),
        (Remedy::AtLeastOnce, Lang::En) => format!("{} (at-least-once)", Strategy::AtLeastOnce.name(l)),
        (Remedy::AtLeastOnce, Lang::Zh) => format!("{}（至少一次）", Strategy::AtLeastOnce.name(l)),
    }
}

/// One option's run, to the step that ended checkpoint 1.
#[derive(Clone, Debug)]
pub struct Played {
    pub config: RunConfig,
    pub actions: Vec<Action>,
    /// Checkpoint 1's row in the statistics.
    pub checkpoint: CheckpointRecord,
    /// Records on the channels at the trigger.
    pub queued: usize,
    /// The slow task's input buffers at the trigger (the most among its inputs).
    pub buffers: u32,
    /// The longest start delay among the slow task's subtasks (None: its barrier never came).
    pub slow_start: Option<u64>,
    /// The run at the trigger, for the question's setup.
    pub at_trigger: Sim,
}

impl Played {
    pub fn completed(&self) -> bool {
        self.checkpoint.status == CheckpointStatus::Completed
    }
}

/// One step of Play's scheduler, recorded as the concrete step it draws (what `Action::Auto`
/// does, with the step kept for the replay); false when nothing is enabled.
fn play_step(sim: &mut Sim, actions: &mut Vec<Action>, events: &mut Vec<Event>) -> bool {
    let mut enabled = Vec::new();
    sim.enabled_steps(&mut enabled);
    if enabled.is_empty() {
        return false;
    }
    let a = sim.draw_step(&enabled);
    events.clear();
    sim.apply(a, events).expect("an enabled step");
    actions.push(a);
    true
}

/// Runs one option: `trigger` steps of Play, checkpoint 1, Play until it completes or expires.
/// None when the run cannot start, the trigger is refused, or the checkpoint is still pending
/// after its timeout.
pub fn play(d: &Drawn, remedy: Remedy) -> Option<Played> {
    let config = d.run(remedy);
    let mut sim = config.scenario().sim().ok()?;
    let (mut actions, mut events) = (Vec::new(), Vec::new());
    for _ in 0..d.trigger {
        if !play_step(&mut sim, &mut actions, &mut events) {
            return None;
        }
    }
    let slow: Vec<TaskId> =
        (0..sim.graph.tasks.len()).map(|i| TaskId(i as u16)).filter(|&t| sim.graph.task(t).name == d.slow).collect();
    let queued = (0..sim.graph.channels.len())
        .map(|c| sim.queue(ChannelId(c as u16)).iter().filter(|i| matches!(i, Item::Record { .. })).count())
        .sum();
    let buffers = slow
        .iter()
        .flat_map(|&t| sim.graph.task(t).inputs.clone())
        .filter_map(|c| sim.channel_buffers(c))
        .max()
        .unwrap_or(d.capacity);
    let at_trigger = sim.clone();
    if !act(&mut sim, Action::Checkpoint, &mut actions, &mut events) {
        return None;
    }
    // The expiry comes at the end of the step `timeout` steps after the trigger, at the latest.
    for _ in 0..d.timeout + 2 {
        if sim.stats.history.first().is_none_or(|r| r.status != CheckpointStatus::InProgress) {
            break;
        }
        if !play_step(&mut sim, &mut actions, &mut events) {
            break;
        }
    }
    let checkpoint = sim.stats.history.first()?.clone();
    if checkpoint.status == CheckpointStatus::InProgress {
        return None;
    }
    let slow_start = slow.iter().filter_map(|t| checkpoint.subtasks.get(t.index()).and_then(|s| s.start_delay)).max();
    Some(Played { config, actions, checkpoint, queued, buffers, slow_start, at_trigger })
}

pub fn generate(seed: u64) -> Option<Question> {
    let d = draw(seed);
    let played: Vec<(Remedy, Played)> =
        d.options.iter().map(|&r| play(&d, r).map(|p| (r, p))).collect::<Option<Vec<_>>>()?;
    let base = &played[0].1;
    if base.queued == 0 || played.iter().any(|(r, p)| *r == Remedy::Unaligned && !p.completed()) {
        return None;
    }
    let choices: Vec<Choice> = played
        .iter()
        .map(|(r, p)| Choice { words: Words::of(|l| remedy_words(*r, d.capacity, l)), right: p.completed() })
        .collect();
    let explanation = Words::of(|l| explain(&d, &played, l));
    let setup = setup(&d, &base.at_trigger);
    let prompt = Words::new(
        format!(
            "Checkpoint 1 is triggered after {} steps of Play. Which of these settings let it complete within its timeout of {} steps? Tick every one.",
            d.trigger, d.timeout
        ),
        format!("Play 走了 {} 步之后触发检查点 1。在下面哪些设置下，它能在 {} 步的超时之内完成？勾选所有的。", d.trigger, d.timeout),
    );
    Some(Question {
        kind: Kind::BackpressureCheckpoint,
        seed,
        prompt,
        setup,
        choices,
        several: true,
        explanation,
        cuts: vec![],
        run: base.config.clone(),
        actions: base.actions.clone(),
        restore: None,
    })
}

/// The job and its settings, Play's steps and the trigger, and the run as set at the trigger.
fn setup(d: &Drawn, at: &Sim) -> Vec<Words> {
    let g = &at.graph;
    let channels: Vec<&str> = g.channels.iter().map(|c| c.name.as_str()).collect();
    let (job, slow, cost, records) = (d.job, d.slow, d.cost, d.records);
    let job_line = Words::new(
        format!(
            "Job {job} ({}). {slow} is slow: each record keeps it busy for {cost} steps (record-cost); every other task takes 1. Each source partition has {records} records.",
            channels.join(", ")
        ),
        format!(
            "作业 {job}（{}）。{slow} 很慢：每条记录要占用它 {cost} 步（record-cost）；其他任务每条 1 步。每个源分区有 {records} 条记录。",
            channels.join("、")
        ),
    );
    let (capacity, timeout) = (d.capacity, d.timeout);
    let settings_line = Words::new(
        format!(
            "Channels hold at most {capacity} items (channel-capacity). A checkpoint still pending {timeout} steps after its trigger expires (checkpoint-timeout); tolerable-failed-checkpoints {TOLERABLE} keeps the job running."
        ),
        format!(
            "每个通道最多容纳 {capacity} 项（channel-capacity）。检查点若在触发后 {timeout} 步内还没完成就会过期（checkpoint-timeout）；tolerable-failed-checkpoints {TOLERABLE} 让作业继续运行。"
        ),
    );
    let (trigger, scheduler) = (d.trigger, d.scheduler);
    let play_line = Words::new(
        format!(
            "Play's scheduler (seed {scheduler}) takes {trigger} steps, checkpoint 1 is triggered, and Play goes on until it completes or expires. Each option is the same run with one setting changed."
        ),
        format!(
            "Play 的调度器（种子 {scheduler}）走 {trigger} 步，然后触发检查点 1，Play 继续运行，直到它完成或过期。每个选项都是同一次运行，只改了一项设置。"
        ),
    );
    let trigger_line = Words::of(|l| {
        let queues: Vec<String> = (0..g.channels.len())
            .map(|c| {
                let n = at.queue(ChannelId(c as u16)).len();
                match l {
                    Lang::En => format!("{} holds {n}", g.channels[c].name),
                    Lang::Zh => format!("{} 有 {n} 项", g.channels[c].name),
                }
            })
            .collect();
        let tasks: Vec<String> = (0..g.tasks.len())
            .filter_map(|t| {
                let c = at.task_class(TaskId(t as u16))?;
                Some(format!("{} {}", g.tasks[t].name, c.mark(l)))
            })
            .collect();
        match l {
            Lang::En => format!("At the trigger, as set: {}; {}.", queues.join(", "), tasks.join(", ")),
            Lang::Zh => format!("触发时（按原设置）：{}；{}。", queues.join("，"), tasks.join("，")),
        }
    });
    vec![job_line, settings_line, play_line, trigger_line]
}

/// Each option's run in figures, then why, in the engine's terms.
fn explain(d: &Drawn, played: &[(Remedy, Played)], l: Lang) -> String {
    let slow = d.slow;
    let mut lines: Vec<String> = played
        .iter()
        .map(|(r, p)| {
            let name = remedy_words(*r, d.capacity, l);
            let c = &p.checkpoint;
            let took = c.duration(c.trigger_tick);
            let (queued, buffers, persisted) = (p.queued, p.buffers, c.in_flight);
            let outcome = match (p.completed(), l) {
                (true, Lang::En) => format!("completed in {took} steps"),
                (true, Lang::Zh) => format!("{took} 步完成"),
                (false, Lang::En) => format!("expired, {took} steps after its trigger"),
                (false, Lang::Zh) => format!("在触发后第 {took} 步过期"),
            };
            let barrier = match (p.slow_start, l) {
                (Some(s), Lang::En) => format!("its barrier reached {slow} {s} steps after the trigger"),
                (Some(s), Lang::Zh) => format!("屏障在触发后 {s} 步到达 {slow}"),
                (None, Lang::En) => format!("its barrier never reached {slow}"),
                (None, Lang::Zh) => format!("屏障始终没有到达 {slow}"),
            };
            match l {
                Lang::En => format!(
                    "{name}: {outcome}. At the trigger {queued} {} queued on the channels and {slow}'s input held at most {buffers}; {barrier}; {persisted} in-flight {} persisted.",
                    if queued == 1 { "record was" } else { "records were" },
                    if persisted == 1 { "record" } else { "records" }
                ),
                Lang::Zh => format!(
                    "{name}：{outcome}。触发时各通道上排着 {queued} 条记录，{slow} 的输入最多容纳 {buffers} 项；{barrier}；持久化了 {persisted} 条在途记录。"
                ),
            }
        })
        .collect();
    let cost = d.cost;
    lines.push(match l {
        Lang::En => format!(
            "Why: an aligned barrier, and a tracked one without alignment, waits in the queue like any record, and {slow} takes {cost} steps a record, so its start delay grows with the records queued before it (more with larger channels). An unaligned barrier overtakes the queue and the records it overtook are persisted as channel state. Debloated buffers hold only what {slow} takes in the target time, so fewer records wait before the barrier and nothing is persisted."
        ),
        Lang::Zh => format!(
            "原因：对齐屏障（以及不对齐时被跟踪的屏障）像普通记录一样在队列中排队，而 {slow} 每条记录要 {cost} 步，所以它的启动延迟随排在前面的记录数增长（通道越大越长）。非对齐屏障越过队列，被越过的记录作为通道状态持久化。消胀后的缓冲只容纳 {slow} 在目标时间内能处理的数据，所以排在屏障前的记录更少，也不持久化任何记录。"
        ),
    });
    lines.join(" ")
}
