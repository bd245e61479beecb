//! The guided lessons, in English and Simplified Chinese. They retell the two articles in
//! `shared/seeds` with the vocabulary of `shared/reference/checkpointing-mechanisms.md`; the
//! tests below play each one through and check what its reveals claim.

use super::catalogue::CATALOGUE;
use super::lessons::{Judge, Lesson, OnDiagram, RestoreInto, Shows, Step, Text};
use crate::engine::{CheckpointRetention, HighAvailability, Settings, SinkMode, Strategy};

const fn t(en: &'static str, zh: &'static str) -> Text {
    Text { en, zh }
}

const fn step(play: &'static [&'static str], say: Text) -> Step {
    Step { play, say, predict: None, reveal: None, restart: None, job: None, shows: &[], diagram: OnDiagram::No }
}

const fn predict(play: &'static [&'static str], say: Text, judge: Judge, reveal: Text) -> Step {
    Step { play, say, predict: Some(judge), reveal: Some(reveal), restart: None, job: None, shows: &[], diagram: OnDiagram::No }
}

/// A step that first starts a fresh run of the lesson's job with other settings.
const fn restart(settings: fn() -> Settings, play: &'static [&'static str], say: Text) -> Step {
    Step { play, say, predict: None, reveal: None, restart: Some(settings), job: None, shows: &[], diagram: OnDiagram::No }
}

/// A step that first starts a fresh run of another job, with these settings.
const fn restart_job(job: &'static str, settings: fn() -> Settings, play: &'static [&'static str], say: Text) -> Step {
    Step { play, say, predict: None, reveal: None, restart: Some(settings), job: Some(job), shows: &[], diagram: OnDiagram::No }
}

fn timers() -> Settings {
    Settings::new(Strategy::Timers)
}

fn aligned() -> Settings {
    Settings::new(Strategy::Aligned)
}

/// Aligned, with channels that hold at most two items: backpressure.
fn aligned_bounded() -> Settings {
    let mut s = Settings::new(Strategy::Aligned);
    s.channel_capacity = Some(2);
    s
}

fn at_least_once() -> Settings {
    Settings::new(Strategy::AtLeastOnce)
}

fn unaligned() -> Settings {
    Settings::new(Strategy::Unaligned)
}

fn stop_the_world() -> Settings {
    Settings::new(Strategy::StopTheWorld)
}

fn append_sink() -> Settings {
    Settings::new(Strategy::Aligned).with_sink(SinkMode::Append)
}

/// Storm's acker on line-sink with a short message timeout (8 steps), so a slow tree times out.
fn storm_short_timeout() -> Settings {
    let mut s = Settings::new(Strategy::StormAcker).with_sink(SinkMode::Append);
    s.message_timeout = 8;
    s
}

/// Storm's acker with an append sink (lesson 12: Nimbus).
fn storm_append() -> Settings {
    Settings::new(Strategy::StormAcker).with_sink(SinkMode::Append)
}

/// Aligned checkpoints, an append sink and a JobManager without HA, with `retention`.
fn no_ha(retention: CheckpointRetention) -> Settings {
    let mut s = Settings::new(Strategy::Aligned).with_sink(SinkMode::Append);
    s.high_availability = HighAvailability::None;
    s.externalized_checkpoint_retention = retention;
    s
}

fn no_ha_retained() -> Settings {
    no_ha(CheckpointRetention::RetainOnCancellation)
}

fn no_ha_not_retained() -> Settings {
    no_ha(CheckpointRetention::NoExternalizedCheckpoints)
}

/// Aligned checkpoints, an append sink and a standby JobManager.
fn standby() -> Settings {
    Settings::new(Strategy::Aligned).with_sink(SinkMode::Append)
}

fn upsert_sink() -> Settings {
    Settings::new(Strategy::Aligned).with_sink(SinkMode::Upsert)
}

fn two_phase_commit_sink() -> Settings {
    Settings::new(Strategy::Aligned).with_sink(SinkMode::TwoPhaseCommit)
}

/// Spark Streaming on a socket (lesson 13): no write-ahead log, the log, the log and a
/// transactional output.
fn spark_socket(wal: bool, sink: SinkMode) -> Settings {
    let mut s = Settings::new(Strategy::SparkStreaming).with_sink(sink);
    s.source = crate::engine::SourceKind::Socket;
    s.write_ahead_log = wal;
    s
}

fn spark_no_log() -> Settings {
    spark_socket(false, SinkMode::Append)
}

fn spark_log() -> Settings {
    spark_socket(true, SinkMode::Append)
}

fn spark_log_transactional() -> Settings {
    spark_socket(true, SinkMode::Transactional)
}

// LESSONS-BEGIN
/// The lessons, once they are there. Natively and in tests they always are. In the split page
/// they are in the lessons' part (`app/room_loader.rs`), which registers them when it loads: the
/// first screen never fetches their words.
pub fn loaded() -> Option<&'static [Lesson]> {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return REGISTERED.with(|r| r.get());
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    Some(LESSONS)
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
thread_local! {
    static REGISTERED: std::cell::Cell<Option<&'static [Lesson]>> = const { std::cell::Cell::new(None) };
}

/// Makes the lessons available: called by the lessons' part when it loads.
pub fn register() {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    REGISTERED.with(|r| r.set(Some(LESSONS)));
}

pub static LESSONS: &[Lesson] = &[
    Lesson {
        id: CATALOGUE[0].id,
        title: CATALOGUE[0].title,
        job: "line",
        settings: timers,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "Three tasks in a row: Source reads a log by offset, Map passes records on, Count counts per key. Everything a task holds in memory at a moment is its state.",
                "一行三个任务：Source 按偏移量读取日志，Map 转发记录，Count 按键计数。任务在某一时刻内存中的一切，就是它的状态。")),
            step(&["read Source"], t(
                "Source read a and sent it into the network. Its state is just a number: the next offset to read, now 1.",
                "Source 读取了 a 并把它发进网络。它的状态只是一个数：下一个要读的偏移量，现在是 1。")),
            step(&["deliver Source->Map", "deliver Map->Count"], t(
                "a reached Count: count(x) = 1, and Count remembers that a contributed. Map holds no state at all.",
                "a 到达了 Count：计数(x) = 1，Count 记得是 a 贡献的。Map 完全没有状态。")),
            step(&["read Source x2", "deliver Source->Map x2", "deliver Map->Count x2"], t(
                "After b and c: count(x) = 3 from {a, b, c}, and Source's offset is 3. To survive a crash, these values must be saved — and restored together.",
                "b 和 c 之后：计数(x) = 3，来自 {a, b, c}；Source 的偏移量是 3。要在崩溃后幸存，这些值必须被保存，并且一起恢复。")),
        ],
    },
    Lesson {
        id: CATALOGUE[1].id,
        title: CATALOGUE[1].title,
        job: "line",
        settings: timers,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "The same three tasks, but now each saves its own state with a timer thread, as a single-machine program would. Nobody coordinates the saves: this is the first idea the article tries for a distributed job.",
                "还是这三个任务，但现在每个任务都像单机程序那样，用一个定时线程保存自己的状态。这些保存之间没有任何协调：这正是文章为分布式作业设想的第一个方案。")),
            step(&["read Source x3"], t(
                "Source read a, b and c and sent them into the network: they sit in channel Source->Map and have not reached Map yet. Source's offset is now 3.",
                "Source 读取了 a、b、c 并把它们发进网络：它们还在通道 Source->Map 里，尚未到达 Map。Source 的偏移量现在是 3。")),
            step(&["timers"], t(
                "Every task's timer fires at the same moment (perfectly synchronized clocks). Source saves offset 3; Map and Count save their state from before a, b, c, which have not reached them.",
                "所有任务的定时器在同一时刻触发（假设时钟完美同步）。Source 保存了偏移量 3；Map 和 Count 保存的是 a、b、c 到达之前的状态，因为这三条数据还没到它们那里。")),
            step(&[], t(
                "Look at the cut these saves make: a, b and c were sent before Source saved, but will be received after Map saved. They are in transit, and no save holds them.",
                "看看这些保存构成的切面：a、b、c 在 Source 保存之前就已发出，却要在 Map 保存之后才会被接收。它们正在途中，没有任何一份保存记录了它们。"))
            .diagram(OnDiagram::Show)
            .shows(&[Shows::CutBroken { orphans: 0, in_transit: 3 }]),
            predict(&["crash", "restore", "end"], t(
                "Now the whole cluster crashes, and every task restores its own latest save. Mark every record: exactly once, lost or duplicated.",
                "现在整个集群宕机，每个任务都从自己最近一次保存恢复。请为每一条记录标出：精确一次、丢失或重复。"),
                Judge::State, t(
                "Lost: a, b and c. Source restores offset 3 and continues after c, while Map and Count restore a state that never saw them, and the copies in the network vanished in the crash. count(x) ends at 2 instead of 5.",
                "丢失的是 a、b、c。Source 恢复到偏移量 3，从 c 之后继续读取；而 Map 和 Count 恢复的状态从未见过它们，网络中的那几条也随崩溃消失了。最终 计数(x) 是 2，而不是 5。")),
        ],
    },
    Lesson {
        id: CATALOGUE[2].id,
        title: CATALOGUE[2].title,
        job: "line",
        settings: timers,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "Real clocks are never perfectly in sync, so the timers fire at different moments. This time Source saves first, and Map and Count save later.",
                "真实的时钟不可能完全同步，定时器会在不同时刻触发。这一次 Source 先保存，Map 和 Count 后保存。")),
            step(&["timer Source"], t(
                "Source's timer fires before it has read anything: it saves offset 0.",
                "Source 的定时器在它读取任何数据之前就触发了：它保存的偏移量是 0。")),
            step(&["read Source x3", "deliver Source->Map x3"], t(
                "Source reads a, b and c, and Map passes them on: they now wait in channel Map->Count.",
                "Source 读取了 a、b、c，Map 把它们转发出去：它们现在在通道 Map->Count 中等待。")),
            step(&["deliver Map->Count x3"], t(
                "Count counts a, b and c: count(x) = 3.",
                "Count 计入了 a、b、c：计数(x) = 3。")),
            step(&["timer Map", "timer Count"], t(
                "Now Map's and Count's timers fire, and Count saves count(x) = 3 from {a, b, c}. The cut shows a, b and c as orphans: their receipt is saved, their sending is not.",
                "现在 Map 和 Count 的定时器触发，Count 保存了来自 {a, b, c} 的 计数(x) = 3。切面显示 a、b、c 是孤儿数据：它们的接收被保存了，它们的发送却没有。"))
            .diagram(OnDiagram::Show)
            .shows(&[Shows::CutBroken { orphans: 3, in_transit: 0 }]),
            predict(&["crash", "restore", "end"], t(
                "The cluster crashes and each task restores its own save. Which records will be lost or duplicated? Mark every record: exactly once, lost or duplicated.",
                "集群宕机，每个任务都从自己的保存恢复。哪些记录会丢失或重复？请为每一条记录标出：精确一次、丢失或重复。"),
                Judge::State, t(
                "Duplicated: a, b and c. Source restores offset 0 and reads them again, and Count, whose saved state already holds them, counts them a second time: count(x) ends at 8 instead of 5.",
                "重复的是 a、b、c。Source 恢复到偏移量 0，重新读取它们；而 Count 保存的状态里已经有它们，于是又计了一次：最终 计数(x) 是 8，而不是 5。")),
        ],
    },
    Lesson {
        id: CATALOGUE[3].id,
        title: CATALOGUE[3].title,
        job: "line",
        settings: aligned,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "No timers now. The CheckpointCoordinator on the JobManager triggers a checkpoint at the source, and a checkpoint barrier, a special marker, flows downstream with the records. Each task saves its state when the barrier passes it.",
                "这次不用定时器。JobManager 上的检查点协调器（CheckpointCoordinator）在数据源触发检查点，检查点屏障（一种特殊的标记）随数据一起流向下游。每个任务在屏障经过时保存自己的状态。")),
            step(&["read Source x3"], t(
                "The same start as before: Source reads a, b and c, and they wait in channel Source->Map.",
                "开头和之前一样：Source 读取了 a、b、c，它们在通道 Source->Map 中等待。")),
            step(&["checkpoint"], t(
                "The coordinator triggers checkpoint 1, now pending. Source saves offset 3, sends barrier 1 behind c, and acknowledges: 1 of 3 tasks.",
                "协调器触发了检查点 1，它现在处于进行中。Source 保存偏移量 3，把屏障 1 跟在 c 后面发出，并向协调器确认：3 个任务中的第 1 个。")).shows(&[Shows::Pending(1)]),
            step(&["deliver Source->Map x4"], t(
                "Map processes a, b and c, then meets barrier 1: it saves its state, forwards the barrier and acknowledges (2/3). Channels are first in, first out, so a barrier never passes a record.",
                "Map 处理了 a、b、c，然后遇到屏障 1：它保存状态、转发屏障并确认（2/3）。通道是先进先出的，屏障永远不会越过数据。")).shows(&[Shows::Pending(1)]),
            step(&["deliver Map->Count x4"], t(
                "Count counts a, b and c, then barrier 1 arrives: it saves count(x) = 3 and acknowledges (3/3). Every task has acknowledged, so checkpoint 1 is completed: a consistent cut, where a, b, c are both before Source's saved offset and in Count's saved state.",
                "Count 计入了 a、b、c，然后屏障 1 到达：它保存 计数(x) = 3 并确认（3/3）。所有任务都已确认，检查点 1 完成：这是一个一致的切面：a、b、c 既在 Source 保存的偏移量之前，也在 Count 保存的状态里。"))
            .shows(&[Shows::Completed(1), Shows::NonePending, Shows::CutConsistent])
            .diagram(OnDiagram::Show),
            step(&["read Source", "deliver Source->Map"], t(
                "The job goes on after checkpoint 1: Source reads d and Map passes it on.",
                "检查点 1 之后作业继续运行：Source 读取了 d，Map 把它转发出去。")),
            predict(&["crash", "restore", "end"], t(
                "The cluster crashes now, with d in the network, and the job restores from checkpoint 1. Mark every record: exactly once, lost or duplicated.",
                "此时 d 还在网络中，集群宕机了，作业从检查点 1 恢复。请为每一条记录标出：精确一次、丢失或重复。"),
                Judge::State, t(
                "Nothing is lost or duplicated: exactly once. Source resumes at offset 3 and reads d again, and Count restarts from count(x) = 3 from {a, b, c}. Because the barrier followed a, b, c through every task, all the snapshots agree on where they are.",
                "没有数据丢失或重复：精确一次。Source 从偏移量 3 继续并重新读取 d，Count 从来自 {a, b, c} 的 计数(x) = 3 重新开始。因为屏障跟在 a、b、c 后面流经了每个任务，所有快照对它们的位置看法一致。")),
        ],
    },
    Lesson {
        id: CATALOGUE[4].id,
        title: CATALOGUE[4].title,
        job: "two-inputs",
        settings: aligned,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "Two sources, Left and Right, feed one Count. Barrier 1 reaches Count twice, once on each input: at which one should Count save its state?",
                "两个数据源 Left 和 Right 都发往同一个 Count。屏障 1 会从每个输入各到达 Count 一次：Count 应该在哪一个到达时保存状态？")),
            step(&["read Left", "read Right", "checkpoint", "read Left"], t(
                "Left sent a and Right sent f; then checkpoint 1 was triggered, and both sources saved their offsets and sent barrier 1. Left then read b, which sits behind the barrier in Left->Count.",
                "Left 发出了 a，Right 发出了 f；随后检查点 1 被触发，两个数据源都保存了偏移量并发出屏障 1。之后 Left 又读取了 b，它在 Left->Count 中排在屏障后面。")).shows(&[Shows::Pending(1), Shows::NothingBlocked]),
            step(&["deliver Left->Count x2"], t(
                "Count counts a, then gets barrier 1 from Left first. It blocks Left->Count: b, behind the barrier, stays buffered, because it belongs after the checkpoint.",
                "Count 计入了 a，然后首先从 Left 收到屏障 1。它阻塞了 Left->Count：屏障后面的 b 被缓存起来，因为它属于检查点之后。")).shows(&[Shows::Blocked("Left->Count"), Shows::Pending(1)]),
            step(&["deliver Right->Count x2"], t(
                "Right's input keeps flowing: Count counts f, then barrier 1 arrives from Right, the last one it waited for. Count is aligned: it saves its state, unblocks Left->Count and acknowledges, and checkpoint 1 is completed.",
                "Right 这一路照常处理：Count 计入了 f，然后屏障 1 从 Right 到达，这是它等待的最后一个。Count 完成了对齐：它保存状态、解除 Left->Count 的阻塞并确认，检查点 1 完成。")).shows(&[Shows::NothingBlocked, Shows::Completed(1)]),
            step(&["deliver Left->Count"], t(
                "Only now is b counted, after the snapshot. Count's snapshot holds exactly a and f, matching both sources' offsets; its alignment took 2 steps.",
                "直到现在 b 才被计入，已在快照之后。Count 的快照恰好包含 a 和 f，与两个数据源的偏移量一致；它的对齐用了 2 步。")),
            restart(aligned_bounded, &[
                "read Left", "read Right", "read Right", "checkpoint", "deliver Left->Count", "deliver Left->Count",
                "read Left", "read Left",
            ], t(
                "A fresh run where each channel holds at most 2 items. Right's channel is already full (f, g) when checkpoint 1 starts, so its barrier waits behind them. Count has blocked Left->Count after barrier 1, and b and c pile up there until it is full and Left must stop reading: backpressure.",
                "重新开始一次运行，这次每个通道最多容纳 2 个元素。检查点 1 开始时 Right 的通道已满（f、g），它的屏障只能排在它们后面。Count 在收到屏障 1 后阻塞了 Left->Count，b 和 c 堆积在那里，直到通道满了，Left 只好停止读取：这就是反压。"))
            .shows(&[Shows::Blocked("Left->Count"), Shows::Pending(1), Shows::Backpressured("Left")]),
            step(&["deliver Right->Count x3"], t(
                "Count counts f and g, then barrier 1 arrives from Right at last: Count saves its state, unblocks Left->Count and acknowledges, and checkpoint 1 is completed. This time Count aligned for 5 steps, and Left stays stopped until Count takes b and c.",
                "Count 计入 f 和 g，屏障 1 终于从 Right 到达：Count 保存状态、解除 Left->Count 的阻塞并确认，检查点 1 完成。这一次 Count 对齐用了 5 步；在 Count 取走 b 和 c 之前，Left 仍然无法读取。"))
            .shows(&[Shows::NothingBlocked, Shows::Completed(1), Shows::Backpressured("Left")]),
            predict(&["crash", "restore", "end"], t(
                "The cluster crashes with b and c still waiting in Left->Count, and the job restores from checkpoint 1. Mark every record: exactly once, lost or duplicated.",
                "b 和 c 还在 Left->Count 中等待时集群宕机了，作业从检查点 1 恢复。请为每一条记录标出：精确一次、丢失或重复。"),
                Judge::State, t(
                "Exactly once. The buffered b and c vanish in the crash, but they were never in Count's snapshot, and Left's saved offset is 1, so it reads them again. Alignment costs waiting time, not correctness.",
                "精确一次。被缓存的 b 和 c 在崩溃中消失了，但它们从未进入 Count 的快照，而 Left 保存的偏移量是 1，所以会重新读取它们。对齐付出的是等待时间，而不是正确性。")),
        ],
    },
    Lesson {
        id: CATALOGUE[5].id,
        title: CATALOGUE[5].title,
        job: "two-inputs",
        settings: at_least_once,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "The same job and the same moves, but Count no longer aligns. Like Flink's at-least-once mode (its barrier tracker), it only counts barriers and never blocks an input.",
                "同样的作业、同样的操作，但 Count 不再对齐。就像 Flink 的至少一次模式（CheckpointBarrierTracker）那样，它只清点屏障，从不阻塞任何输入。")).shows(&[Shows::NothingBlocked]),
            step(&["read Left", "read Right", "checkpoint", "read Left"], t(
                "As before: Left sent a, barrier 1 and b; Right sent f and barrier 1. Both sources saved their offsets for checkpoint 1: Left's is 1, before b.",
                "和之前一样：Left 发出了 a、屏障 1 和 b；Right 发出了 f 和屏障 1。两个数据源都为检查点 1 保存了偏移量：Left 的是 1，在 b 之前。")).shows(&[Shows::Pending(1)]),
            step(&["deliver Left->Count x3"], t(
                "Count counts a, notes barrier 1 from Left, and keeps going: b, which belongs after the checkpoint, is counted at once.",
                "Count 计入了 a，记下来自 Left 的屏障 1，然后继续处理：本属于检查点之后的 b 被立即计入。")).shows(&[Shows::NothingBlocked, Shows::Pending(1)]),
            step(&["deliver Right->Count x2"], t(
                "Count counts f, then barrier 1 from Right completes the count: Count saves its state and checkpoint 1 is completed. That snapshot already holds b, yet Left's saved offset is before b: the cut shows b as an orphan.",
                "Count 计入了 f，然后来自 Right 的屏障 1 凑齐了数目：Count 保存状态，检查点 1 完成。这个快照里已经有 b，可 Left 保存的偏移量却在 b 之前：切面显示 b 是孤儿数据。")).shows(&[Shows::Completed(1)]),
            predict(&["crash", "restore", "end"], t(
                "The cluster crashes and the job restores from checkpoint 1. Mark every record: exactly once, lost or duplicated.",
                "集群宕机，作业从检查点 1 恢复。请为每一条记录标出：精确一次、丢失或重复。"),
                Judge::State, t(
                "b is duplicated: Left reads it again from offset 1, and Count counts it on top of a snapshot that already holds it. No blocking means lower latency but duplicates on tasks with several inputs; with one input per task, as in a chain of maps, this mode is effectively exactly once.",
                "b 被重复计算：Left 从偏移量 1 重新读取它，Count 在已经包含 b 的快照之上又计了一次。不阻塞换来更低的延迟，代价是多输入的任务会出现重复；如果每个任务只有一个输入（比如一串 map 算子），这种模式实际上就是精确一次。")),
        ],
    },
    Lesson {
        id: CATALOGUE[6].id,
        title: CATALOGUE[6].title,
        job: "two-inputs",
        settings: unaligned,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "Alignment waits, and under backpressure a barrier can wait a long time behind full buffers. Unaligned checkpoints let the barrier overtake the records instead, and store the overtaken records in the checkpoint.",
                "对齐需要等待，而在反压下，屏障可能要在满满的缓冲区后面等很久。非对齐检查点则让屏障越过这些数据，并把被越过的数据存进检查点。")),
            step(&["read Left x2", "read Right x2"], t(
                "Left sent a and b, Right sent f and g: four records queue in front of Count.",
                "Left 发出了 a 和 b，Right 发出了 f 和 g：四条数据在 Count 前面排队。")),
            step(&["checkpoint"], t(
                "The coordinator triggers checkpoint 1. Each source saves its offset and puts barrier 1 at the head of its output channel, overtaking its two queued records, which it stores as in-flight data: 4 records in all.",
                "协调器触发了检查点 1。每个数据源保存偏移量，并把屏障 1 放到输出通道的最前面，越过了排队的两条数据，把它们作为在途数据保存：一共 4 条。")).shows(&[Shows::Pending(1)]),
            step(&["deliver Left->Count"], t(
                "Barrier 1 reaches Count on Left->Count at once. On this first barrier Count saves its state right away, with nothing counted yet, and blocks no input.",
                "屏障 1 立刻经 Left->Count 到达 Count。收到这第一个屏障时，Count 马上保存状态（此时还什么都没计入），不阻塞任何输入。")).shows(&[Shows::NothingBlocked, Shows::Pending(1)]),
            step(&["deliver Right->Count"], t(
                "Barrier 1 from Right arrives next; Count acknowledges, and checkpoint 1 is completed after only 2 steps, before a, b, f, g were even processed.",
                "接着来自 Right 的屏障 1 也到达了；Count 确认，检查点 1 仅用 2 步就完成了，此时 a、b、f、g 甚至还没有被处理。")).shows(&[Shows::Completed(1)]),
            step(&["deliver Left->Count", "read Left", "deliver Left->Count"], t(
                "The job goes on: Count counts a and b, and Left reads c. These counts are not in checkpoint 1's state, but a and b are in it as in-flight data.",
                "作业继续：Count 计入了 a 和 b，Left 读取了 c。这些计数不在检查点 1 的状态里，但 a 和 b 作为在途数据保存在检查点中。")),
            predict(&["crash", "restore", "end"], t(
                "The cluster crashes and the job restores from checkpoint 1. Mark every record: exactly once, lost or duplicated.",
                "集群宕机，作业从检查点 1 恢复。请为每一条记录标出：精确一次、丢失或重复。"),
                Judge::State, t(
                "Exactly once. On restore the stored in-flight a, b, f, g go back on their channels and are delivered before any new data, onto an empty count, and the sources resume after them (Left reads c again). With an alignment timeout, an aligned checkpoint still waiting for barriers when the timeout passes (counted from the checkpoint's trigger) turns unaligned in just this way.",
                "精确一次。恢复时，保存的在途数据 a、b、f、g 被放回各自的通道，先于任何新数据投递，计入空的计数；数据源则从它们之后继续读取（Left 重新读取 c）。如果设置了对齐超时（aligned-checkpoint-timeout，从检查点触发时算起），超时后仍在等待屏障的对齐检查点也会这样转为非对齐。")),
        ],
    },
    Lesson {
        id: CATALOGUE[7].id,
        title: CATALOGUE[7].title,
        job: "line",
        settings: stop_the_world,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "The article's simplest idea: pause all input, let every task process what it has received, save every task's state, then resume. Hadoop and Spark follow it for batches: a failed Hadoop task is re-run on the persisted outputs of the tasks before it, and Spark recomputes a lost partition from its RDD lineage.",
                "文章里最朴素的想法：暂停所有数据的接收，让每个任务处理完已经接收的数据，持久化所有任务的状态，然后恢复接收。Hadoop 和 Spark 的批处理正是这一思想：Hadoop 的任务失败了就利用前面任务已持久化的输出重跑，Spark 则按 RDD 的血统关系（lineage）重新计算丢失的分区。")),
            step(&["read Source x2"], t(
                "Source reads a and b; they are on their way to Count.",
                "Source 读取了 a 和 b，它们正在流向 Count。")),
            step(&["checkpoint"], t(
                "The coordinator triggers stop-the-world checkpoint 1: the sources pause and read nothing until every channel is empty. There is no barrier at all.",
                "协调器触发了全局暂停检查点 1：数据源暂停，在每个通道排空之前不再读取任何数据。这里根本没有屏障。")).shows(&[Shows::Pending(1)]),
            step(&["auto 4"], t(
                "The channels drain: Map passes a and b on and Count counts them. With nothing in flight, every task saves its state and acknowledges, checkpoint 1 completes, and the sources resume after a stall of 4 steps.",
                "通道逐渐排空：Map 转发了 a 和 b，Count 计入了它们。网络中不再有在途数据，每个任务保存状态并确认，检查点 1 完成，数据源在停顿 4 步之后恢复读取。")).shows(&[Shows::Completed(1), Shows::NonePending]),
            step(&[], t(
                "Spark Streaming takes the same road for streams: it cuts the stream into micro-batches and recovers batch by batch, with a write-ahead log of received data for at-least-once input. The price is latency: results come no faster than one batch, just as nothing moved here while the job drained.",
                "Spark Streaming 在流上走的也是这条路：它把数据流切成微批（micro batch），以批次为单位容错，并用预写日志保存接收到的数据，保障至少一次的接收。代价是时效性：结果至少要等一个批次，就像这里作业排空时一切都停了下来。")),
            predict(&["crash", "restore", "end"], t(
                "The cluster crashes now and the job restores from checkpoint 1. Mark every record: exactly once, lost or duplicated.",
                "集群现在宕机，作业从检查点 1 恢复。请为每一条记录标出：精确一次、丢失或重复。"),
                Judge::State, t(
                "Exactly once: with every channel empty, the snapshots form a consistent cut, so Source resumes at offset 2 and Count at count(x) = 2. Correct, but the whole job stalls for each checkpoint, and longer the more data is in flight; Flink's barriers get the same consistency without stopping.",
                "精确一次：每个通道都为空，快照自然构成一致的切面，于是 Source 从偏移量 2 继续，Count 从 计数(x) = 2 继续。结果正确，但每做一次检查点整个作业都要停顿，在途数据越多停得越久；Flink 的屏障不必停下作业就能得到同样的一致性。")),
        ],
    },
    Lesson {
        id: CATALOGUE[8].id,
        title: CATALOGUE[8].title,
        job: "line-sink",
        settings: append_sink,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "A Sink now writes every counted record to an external system: a table outside the job that readers query and that a crash does not erase. Exactly-once state is not enough; end to end, what counts is what a reader sees.",
                "现在有一个 Sink 把每条计入的数据写入外部系统：一张在作业之外、供读者查询、宕机也抹不掉的表。状态精确一次还不够；端到端真正要紧的，是读者看到了什么。")),
            restart(append_sink, SINK_BEFORE_CHECKPOINT, t(
                "First a plain sink that appends. Checkpoint 1 travels behind a, b, c through all four tasks and completes; the Sink has appended a, b and c, and readers see them at once.",
                "先用普通的追加写入 Sink。检查点 1 跟在 a、b、c 后面流经全部四个任务并完成；Sink 已经追加写入了 a、b、c，读者立即就能看到。")).shows(&[Shows::Completed(1)]),
            step(SINK_AFTER_CHECKPOINT, t(
                "After the checkpoint, d and e go all the way through: Count counts them and the Sink appends them to the table.",
                "检查点之后，d 和 e 一路走到底：Count 计入了它们，Sink 把它们追加到表里。")),
            predict(&["crash", "restore", "end"], t(
                "The cluster crashes and the job restores from checkpoint 1. Judge by what a reader of the table sees: mark every record exactly once, missing (lost) or twice (duplicated).",
                "集群宕机，作业从检查点 1 恢复。这次以表的读者看到的为准：请为每一条记录标出精确一次、缺失（丢失）或出现两次（重复）。"),
                Judge::Output, t(
                "d and e appear twice in the output. The state is exactly once (Count restores count(x) = 3 and counts d and e once), but Source reads them again from offset 3 and the Sink appends them again: what is written to the table cannot be taken back.",
                "d 和 e 在输出中出现了两次。状态是精确一次的（Count 恢复到 计数(x) = 3，d 和 e 只计入一次），但 Source 从偏移量 3 重新读取它们，Sink 又追加了一遍：已经写进表里的数据收不回来。")),
            restart(upsert_sink, SINK_STORY, t(
                "The same run with an idempotent sink: it upserts each row by its key, the record. Up to the crash nothing looks different: a to e are written and visible at once.",
                "同样的运行，换成幂等写入的 Sink：它按键（即数据本身）写入或覆盖（upsert）每一行。直到宕机之前看起来毫无区别：a 到 e 都已写入，立即可见。")),
            predict(&["crash", "restore", "end"], t(
                "Crash and restore again. What will readers see this time? Mark every record by the output: exactly once, missing or doubled.",
                "再次宕机并恢复。这次读者会看到什么？请按输出为每一条记录标出：精确一次、缺失或重复。"),
                Judge::Output, t(
                "Exactly once in the output: the replayed d and e overwrite their own rows instead of adding new ones, so the table converges. Idempotent writes make replay harmless: writing the same row twice is the same as writing it once.",
                "输出是精确一次：重放的 d 和 e 覆盖了各自原有的行，而不是再添新行，表最终收敛到正确结果。幂等写入让重放变得无害：同一行写两次和写一次一样。")),
            restart(two_phase_commit_sink, SINK_STORY, t(
                "The same run with a two-phase-commit sink. a, b, c went into a transaction, T0, that the Sink pre-committed when barrier 1 reached it. Checkpoint 1 has completed, but the Sink commits only when the JobManager's notification that it completed arrives, and that notification is still on its way: readers see nothing yet. d and e sit in a new open transaction, T1, invisible too.",
                "同样的运行，换成两阶段提交的 Sink。a、b、c 写入事务 T0，屏障 1 到达 Sink 时它被预提交。检查点 1 已经完成，但 Sink 要等 JobManager 发来“检查点已完成”的通知才提交，而这个通知还在路上：读者现在什么也看不到。d 和 e 在一个新的、尚未提交的事务 T1 里，同样看不到。")).shows(&[Shows::Completed(1)]),
            predict(&["crash", "restore", "end"], t(
                "Crash and restore once more, before the notification arrives. Mark every record by what a reader will find: exactly once, missing or doubled.",
                "在通知送达之前，最后一次宕机并恢复。请按读者所见为每一条记录标出：精确一次、缺失或重复。"),
                Judge::Output, t(
                "Exactly once end to end. The crash drops the notification, but checkpoint 1 holds T0 as pre-committed, so on restore the Sink commits it (recoverAndCommit): a, b, c become visible. T1, holding d and e, is aborted, so no reader ever saw them; they are replayed into a new transaction that commits when the notification of the final checkpoint arrives. The price: output becomes visible only after a checkpoint completes.",
                "端到端精确一次。宕机让通知丢失了，但检查点 1 里记着已预提交的 T0，所以恢复时 Sink 把它提交（recoverAndCommit）：a、b、c 变得可见。装着 d 和 e 的 T1 被中止，没有读者见过它们；它们被重放进一个新事务，在最后一个检查点的完成通知送达时提交。代价是：输出要等检查点完成之后才可见。")),
        ],
    },
    Lesson {
        id: CATALOGUE[9].id,
        title: CATALOGUE[9].title,
        job: "line",
        settings: aligned,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "So far the workers failed. The JobManager is the master: its CheckpointCoordinator keeps pending checkpoints in memory, while each completed checkpoint is written to durable storage.",
                "到目前为止出故障的都是工作节点。JobManager 是主节点（Master）：它的检查点协调器在内存中跟踪进行中的检查点，而每个已完成的检查点都写入持久化存储。")),
            step(&["read Source", "checkpoint"], t(
                "Source reads a, then checkpoint 1 is triggered and barrier 1 follows a. Source has saved offset 1 and acknowledged (1/3).",
                "Source 读取了 a，随后检查点 1 被触发，屏障 1 跟在 a 后面。Source 保存了偏移量 1 并确认（1/3）。")).shows(&[Shows::Pending(1)]),
            step(&["deliver Source->Map x2", "deliver Map->Count x2"], t(
                "a and barrier 1 pass Map and Count; both acknowledge, and checkpoint 1 is completed with count(x) = 1. It is now in durable storage.",
                "a 和屏障 1 经过 Map 和 Count；两者都确认，检查点 1 完成，计数(x) = 1。它现在保存在持久化存储中。")).shows(&[Shows::Completed(1)]),
            step(&["read Source", "checkpoint"], t(
                "Source reads b, and checkpoint 2 is triggered: Source saves offset 2 and acknowledges, but Map and Count have not seen barrier 2 yet. Checkpoint 2 is pending (1/3).",
                "Source 读取了 b，检查点 2 被触发：Source 保存偏移量 2 并确认，但 Map 和 Count 还没见到屏障 2。检查点 2 处于进行中（1/3）。")).shows(&[Shows::Pending(2), Shows::Completed(1)]),
            step(&["crash-jm"], t(
                "The JobManager fails. Pending checkpoint 2 is lost with it, and the job's tasks stop, dropping b from the network; completed checkpoint 1 is safe in storage. With high availability, a standby JobManager wins the leader election and takes over.",
                "JobManager 发生故障。进行中的检查点 2 随之丢失，作业的任务也停了下来，网络中的 b 消失了；已完成的检查点 1 安然保存在存储中。在高可用（HA）模式下，一个 Standby JobManager 通过选举成为新的 Leader 并接管作业。")).shows(&[Shows::Down, Shows::MasterDown, Shows::Failed(2), Shows::NonePending, Shows::Completed(1)]),
            step(&[], t(
                "Compare Storm: its master, Nimbus, is stateless and can simply be restarted while the workers run on. Storm keeps no state snapshots; it tracks every record with ACKs and replays any record the bolts did not fully acknowledge: at-least-once.",
                "对比 Storm：它的主节点 Nimbus 是无状态的，直接重启即可，工作节点照常运行。Storm 不做状态快照，而是用 ACK 跟踪每一条数据，凡是没有被所有 Bolt 完整确认的数据都会重发：至少一次。")),
            predict(&["restore", "end"], t(
                "The new JobManager now restores the job and runs it to the end. Mark every record: exactly once, lost or duplicated.",
                "新的 JobManager 现在恢复作业并运行到结束。请为每一条记录标出：精确一次、丢失或重复。"),
                Judge::State, t(
                "Exactly once. The job restores from completed checkpoint 1: Source resumes at offset 1 and reads b again onto count(x) = 1. The next checkpoint gets id 3, not 2: checkpoint ids keep rising across a JobManager failover.",
                "精确一次。作业从已完成的检查点 1 恢复：Source 从偏移量 1 继续，重新读取 b，计入 计数(x) = 1 之上。下一个检查点的编号是 3 而不是 2：检查点编号在 JobManager 故障切换之后仍然递增。")),
        ],
    },
    Lesson {
        id: CATALOGUE[10].id,
        title: CATALOGUE[10].title,
        job: "line-sink",
        settings: storm_short_timeout,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "Storm saves no state at all. Instead it follows every record: the spout gives each record a random 64-bit root id, and every tuple of the record's tree gets a random edge id. A task called the acker keeps, per root, the XOR of the ids it is told about. The message timeout here is 8 steps.",
                "Storm 根本不保存状态。它跟踪每一条数据：spout 给每条数据一个随机的 64 位根 id，这条数据的元组树里每个元组再有一个随机的边 id。一个叫 acker 的任务按根保存它收到的所有 id 的异或值。这里的消息超时是 8 步。")),
            step(&["read Source", "ack Source"], t(
                "Source reads a and sends it to Map with a new edge id. Its init message reaches the acker: a's tree now has one open edge, and its value, shown in hex under the job, is that edge's id.",
                "Source 读取 a，带着一个新的边 id 发给 Map。它的 init 消息到达 acker：a 的树现在有一条未确认的边，树的值（在作业下方以十六进制显示）就是这条边的 id。")).shows(&[Shows::TreesInAcker(1)]),
            step(&["deliver Source->Map", "ack Map", "deliver Map->Count", "ack Count", "deliver Count->Sink", "ack Sink"], t(
                "Each task sends its output anchored to its input, with a fresh edge id, then acks the input: the ack XORs the input's id out and the child's id in. Sink writes a and acks with no child. Every edge id has now gone in and out once, so the value reaches 0: a's tree is done, and the acker's answer waits for Source.",
                "每个任务把输出锚定到输入上发出，带一个新的边 id，然后确认（ack）输入：ack 把输入的 id 异或出去，把子元组的 id 异或进来。Sink 写出 a，确认时没有子元组。每个边 id 都进出过一次，值归零：a 的树处理完毕，acker 的答复等着送往 Source。")).shows(&[Shows::TreesInAcker(0)]),
            step(&["answer Source"], t(
                "Source gets the answer, forgets a and commits offset 1 to the log: after a restart it would resume there.",
                "Source 收到答复，不再保留 a，并把偏移量 1 提交到日志：重启后它会从那里继续。")).shows(&[Shows::Committed("Source", 1)]),
            step(&["read Source", "deliver Source->Map", "deliver Map->Count", "deliver Count->Sink", "ack Source", "ack Map", "ack Count"], t(
                "Source reads b; it goes all the way and Sink writes it. The acker takes b's init and the acks of Map and Count; Sink's ack for b waits in its row.",
                "Source 读取 b；它一路走到底，Sink 写出了它。acker 收到 b 的 init 以及 Map 和 Count 的确认；Sink 对 b 的确认还在它那一行里等待。")).shows(&[Shows::TreesInAcker(1)]),
            step(&["read Source", "deliver Source->Map", "deliver Map->Count", "deliver Count->Sink", "ack Source", "ack Map", "ack Count"], t(
                "c goes the same way: Sink writes c after b. Sink's acks for b and c wait in its row.",
                "c 也一样：Sink 在 b 之后写出 c。Sink 对 b 和 c 的确认在它那一行里等待。")).shows(&[Shows::TreesInAcker(2)]),
            step(&["ack Sink x2", "answer Source x2"], t(
                "Sink's ack for b brings b's tree to 0, but in that same step b's message timeout runs out at the spout: Source has already given b up when the acker's answer reaches it, and ignores it. c's answer comes in time. Nothing crashed: the acks were only slow. Source still commits only up to offset 1: b, at offset 1, is not acked.",
                "Sink 对 b 的确认让 b 的树归零，但就在同一步，b 的消息超时在 spout 那里到期：acker 的答复到达时，Source 已经放弃了 b，于是忽略了它。c 的答复及时到达。什么都没有崩溃，只是确认慢了。Source 仍只提交到偏移量 1：偏移量 1 上的 b 还没有被确认。")).shows(&[Shows::ToReplay("b"), Shows::Committed("Source", 1), Shows::TreesInAcker(0)]),
            predict(STORM_ONE_BY_ONE, t(
                "Source now emits b again, then d to h, one record at a time, with no crash. Mark every record by what a reader of the sink's table sees: exactly once, missing or twice.",
                "Source 现在重新发出 b，然后逐条发出 d 到 h，没有任何崩溃。请按 Sink 所写的表中读者看到的，为每一条记录标出：精确一次、缺失或出现两次。"),
                Judge::Output, t(
                "b appears twice: Sink wrote it before its tree timed out, and the replay writes it again. And the table reads a, b, c, b: the replayed b comes after c. The article says per-record acks keep the order; Storm does not: a failed tuple is emitted again whenever it fails, behind newer ones. Storm's acker gives at least once, neither exactly once nor in order (Trident adds exactly once on top).",
                "b 出现了两次：它的树超时之前 Sink 已经写出了它，重放又写了一遍。而且表里的顺序是 a、b、c、b：重放的 b 排在 c 后面。文章说逐条确认能保证顺序，Storm 并不能：失败的元组在失败时重发，排在更新的元组后面。Storm 的 acker 只保证至少一次，既不是精确一次，也不保序（Trident 在其上提供精确一次）。")),
        ],
    },
    Lesson {
        id: CATALOGUE[11].id,
        title: CATALOGUE[11].title,
        job: "line-sink",
        settings: storm_append,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "Every cluster has a master beside its workers: Storm's Nimbus, Flink's JobManager. What the master's failure costs depends on what it holds. Three masters in turn: Nimbus, a JobManager without high availability, and a JobManager with a standby.",
                "每个集群除了工作节点还有一个主节点：Storm 的 Nimbus，Flink 的 JobManager。主节点故障的代价取决于它掌握着什么。下面依次看三种主节点：Nimbus、没有高可用的 JobManager、有备用节点的 JobManager。")),
            step(&["read Source", "crash-jm", "read Source", "deliver Source->Map x2", "deliver Map->Count x2", "deliver Count->Sink x2"], t(
                "Storm: Source reads a, then Nimbus dies. The workers do not notice: Source reads b, and Sink writes a and b. Nimbus only assigns work to workers; while it is down, no topology can be submitted and a dead worker would not be reassigned, but nothing stops.",
                "Storm：Source 读取 a，然后 Nimbus 挂了。worker 毫无察觉：Source 读取 b，Sink 写出 a 和 b。Nimbus 只负责给 worker 分配工作；它停着的时候不能提交新的拓扑，死掉的 worker 也不会被重新分配，但什么都没有停下来。"))
                .shows(&[Shows::Running, Shows::MasterDown]),
            restart(no_ha_retained, MASTER_STORY, t(
                "Flink, without high availability (Flink's default), checkpoints retained on cancellation. Checkpoint 1 completed with a and b; Sink then wrote c; checkpoint 2 is pending. Then the JobManager fails, and with no standby the job fails with it: only this JobManager's memory knew the completed checkpoints. Checkpoint 1 was externalized, so its files stay.",
                "Flink，没有高可用（Flink 的默认设置），检查点在取消时保留。检查点 1 已完成，包含 a 和 b；之后 Sink 写出了 c；检查点 2 还在进行中。这时 JobManager 故障，没有备用节点，作业随之失败：只有这个 JobManager 的内存知道哪些检查点已完成。检查点 1 是外部化保留的，它的文件还在。"))
                .shows(&[Shows::Down, Shows::MasterDown, Shows::Completed(1), Shows::Failed(2), Shows::InStorage(Some(1))]),
            predict(&["restore", "restore", "end"], t(
                "Someone starts a new JobManager (restore), submits the job again from checkpoint 1 (restore), and it runs to the end. Mark every record by what a reader of the sink's table sees: exactly once, missing or twice.",
                "有人启动一个新的 JobManager（恢复），再从检查点 1 重新提交作业（恢复），然后运行到结束。请按 Sink 所写的表中读者看到的，为每一条记录标出：精确一次、缺失或出现两次。"),
                Judge::Output, t(
                "c appears twice: it was written after checkpoint 1, and the resubmitted job reads it again from offset 2. Coming back took two steps, a new JobManager and then the resubmission. The resubmitted job is a new job: it restores checkpoint 1 and, as Flink's restoreSavepoint does, sets its checkpoint id counter to 1 + 1, so its first checkpoint is 2 again, another checkpoint 2 than the failed job's.",
                "c 出现了两次：它是在检查点 1 之后写出的，重新提交的作业从偏移量 2 再读了一遍。恢复用了两步：先启动新的 JobManager，再重新提交。重新提交的作业是一个新作业：它从检查点 1 恢复，并像 Flink 的 restoreSavepoint 那样把检查点编号计数器设为 1 + 1，所以它的第一个检查点又是 2，和失败作业的那个检查点 2 不是同一个。"))
                .shows(&[Shows::Running, Shows::Completed(2), Shows::InStorage(Some(2))]),
            restart(no_ha_not_retained, MASTER_STORY, t(
                "The same run without externalized checkpoints, Flink's default retention. When the job fails with its JobManager, its checkpoints go with it: no checkpoint is left in storage for a resubmission.",
                "同样的运行，但检查点不外部化（Flink 默认的保留策略）。作业随 JobManager 失败时，它的检查点也随之而去：存储里没有留下任何可供重新提交使用的检查点。"))
                .shows(&[Shows::Down, Shows::MasterDown, Shows::InStorage(None)]),
            predict(&["restore", "restore", "end"], t(
                "A new JobManager starts and the job is submitted again, from nothing this time, and runs to the end. Mark every record by what a reader of the sink's table sees.",
                "新的 JobManager 启动，作业重新提交，这次是从零开始，然后运行到结束。请按 Sink 所写的表中读者看到的，为每一条记录标出。"),
                Judge::Output, t(
                "a, b and c appear twice: the new job starts from nothing, Source at offset 0 and every count at zero, and writes everything again. Its checkpoint ids start again at 1. The counts end right, rebuilt from the whole log, but the output was written twice and the whole log was read again.",
                "a、b、c 都出现了两次：新作业从零开始，Source 从偏移量 0 读起，所有计数从零开始，把所有数据又写了一遍。它的检查点编号重新从 1 开始。计数最终是对的（从整个日志重建），但输出写了两遍，整个日志也重读了一遍。"))
                .shows(&[Shows::Running, Shows::Completed(1), Shows::InStorage(Some(1))]),
            restart(standby, MASTER_STORY, t(
                "The same run with high availability: JobManager A leads and B stands by. A fails: the job's tasks are canceled, but the HA store (ZooKeeper or a Kubernetes ConfigMap) still holds the job graph, the pointer to completed checkpoint 1 and the checkpoint id counter. The leadership is free, and B is waiting for the election.",
                "同样的运行，这次有高可用：JobManager A 是 Leader，B 在备用。A 故障：作业的任务被取消，但 HA 存储（ZooKeeper 或 Kubernetes ConfigMap）里仍有作业图、指向已完成检查点 1 的指针和检查点编号计数器。领导权空了出来，B 在等待选举。"))
                .shows(&[Shows::Down, Shows::MasterDown, Shows::Completed(1), Shows::InStorage(Some(1))]),
            predict(&["restore", "end"], t(
                "Restore: B wins the election and takes over; the job runs to the end. Mark every record by what a reader of the sink's table sees.",
                "恢复：B 赢得选举并接管；作业运行到结束。请按 Sink 所写的表中读者看到的，为每一条记录标出。"),
                Judge::Output, t(
                "As after the resubmission, c appears twice: B recovered the job graph and the pointer to checkpoint 1 from the HA store and restarted the tasks from it. But it took one step, not two, and nobody had to resubmit anything. It is the same job, and the counter was in the HA store: the next checkpoint is 3, ids keep rising. B leads now, and A comes back as its standby.",
                "和重新提交之后一样，c 出现了两次：B 从 HA 存储恢复了作业图和指向检查点 1 的指针，并让任务从它重启。但这只用了一步而不是两步，也没有人需要重新提交。这仍是同一个作业，计数器也在 HA 存储里：下一个检查点是 3，编号继续递增。现在 B 是 Leader，A 重启后作为它的备用。"))
                .shows(&[Shows::Running, Shows::Leader("B"), Shows::Completed(3)]),
        ],
    },
    // Lesson 13 (issue 10): Spark Streaming's micro-batches and write-ahead log.
    Lesson {
        id: CATALOGUE[12].id,
        title: CATALOGUE[12].title,
        job: "line-sink",
        settings: spark_no_log,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "Flink saves only operator state and counts on its source to replay what came after a checkpoint. A socket cannot replay: what was in flight at a crash is gone. Spark Streaming takes another way. A receiver stores what arrives as blocks, the driver cuts the stream into micro-batches, and each batch is a small job over the DAG. With its write-ahead log, every block is also written to reliable storage before the receiver goes on: what reached the log survives a driver crash, even from a socket that cannot replay. The same input three times, from a socket.",
                "Flink 只保存算子状态，依靠数据源重放检查点之后的数据。socket 不能重放：崩溃时在途的数据就没了。Spark Streaming 走另一条路：接收器把到达的数据存成块，驱动器把流切成微批，每个批次是在 DAG 上运行的一个小作业。开启预写日志后，接收器先把每个块写到可靠存储上再继续：写进日志的数据能扛过驱动器崩溃，即使来自不能重放的 socket。下面同样的输入来自一个 socket，跑三遍。")),
            step(&["wait x4"], t(
                "a to h arrive on the socket one per step, whether or not anyone listens. The receiver listens: it stores each record as a block in executor 0's memory with a replica on executor 1 (a socket cannot be acknowledged, nor asked again). At step 4 the driver cut the blocks received so far into batch 1, a to e, wrote a metadata checkpoint, and started batch 1's job: a to e are on their way to Map. No channel is blocked: Spark has no barriers.",
                "a 到 h 每步一条到达 socket，不管有没有人在听。接收器在听：它把每条记录存成一个块，放在执行器 0 的内存里，并复制到执行器 1（socket 既不能确认，也不能重发）。第 4 步时，驱动器把到目前为止收到的块切成批次 1（a 到 e），写下元数据检查点，并启动批次 1 的作业：a 到 e 正在流向 Map。没有通道被阻塞：Spark 没有屏障。"))
                .shows(&[Shows::Running, Shows::NothingBlocked]),
            step(SPARK_REST, t(
                "Batch 1 runs through Map and Count, and Sink appends a to e to the table; batch 1 is complete, and batch 2 (f, g, h) starts. One step later the driver crashes, and every executor dies with it, before its checkpoint writer recorded that batch 1 was complete. The write-ahead log is off.",
                "批次 1 流过 Map 和 Count，Sink 把 a 到 e 追加到表中；批次 1 完成，批次 2（f、g、h）开始。下一步驱动器崩溃，所有执行器随之退出，这时它的检查点写入线程还没记下批次 1 已完成。预写日志是关闭的。"))
                .shows(&[Shows::Down, Shows::BatchDone(1)]),
            predict(&["restore", "end"], t(
                "Restore: the driver restarts from its metadata checkpoint and runs again, output and all, every batch from the checkpoint's batch time on and every batch it had not recorded as complete; the socket goes on with what arrives next. Mark every record by what a reader of the sink's table sees: exactly once, missing or twice.",
                "恢复：驱动器从元数据检查点重启，连同输出重新运行从检查点的批次时间起的每个批次，以及所有它没有记录为已完成的批次；socket 从接下来到达的数据继续。请按 Sink 所写的表中读者看到的，为每一条记录标出：精确一次、缺失或出现两次。"),
                Judge::Output, t(
                "a to e appear once, f, g and h are missing. Batch 1 and batch 2 run again, but their blocks were only in the executors' memory, which died with the driver, and the socket cannot send them again: batch 1 re-runs empty (its first run had written a to e), and f, g, h are lost for good, though the receiver had stored them. Spark's guide says it plainly: without the write-ahead log, a driver failure loses data that was received but not processed.",
                "a 到 e 各出现一次，f、g、h 缺失了。批次 1 和批次 2 重新运行，但它们的块只在执行器内存里，随驱动器一起没了，socket 也不能重发：批次 1 空跑了一遍（它第一次运行时已经写出了 a 到 e），f、g、h 则永远丢失了，尽管接收器曾经存下过它们。Spark 的文档说得很直白：没有预写日志，驱动器故障会丢失已接收但未处理的数据。")),
            restart(spark_log, SPARK_STORY, t(
                "The same socket and the same steps, with the write-ahead log on: the receiver writes every block to a log on reliable storage before it goes on (and keeps no replica in memory: the log is the second copy). Batch 1 is complete, batch 2 has started, and the driver crashes at the same moment.",
                "同样的 socket、同样的步骤，这次开启预写日志：接收器先把每个块写入可靠存储上的日志，再继续（内存里不再存副本：日志就是第二份）。批次 1 已完成，批次 2 已开始，驱动器在同一时刻崩溃。"))
                .shows(&[Shows::Down, Shows::BatchDone(1), Shows::NothingBlocked]),
            predict(&["restore", "end"], t(
                "Restore and run to the end. Mark every record by what a reader of the sink's table sees.",
                "恢复并运行到结束。请按 Sink 所写的表中读者看到的，为每一条记录标出。"),
                Judge::Output, t(
                "Nothing is lost: the restart reads batch 1's and batch 2's blocks back from the log. But a to e appear twice: batch 1 had written them, its completion was not yet in the metadata checkpoint, so the restart runs it again, output and all: at least once. A caveat: this receiver logs each record at once. Spark's socket receiver first gathers records for 200 ms into a block, and a crash loses that buffer, log or not. Only a reliable receiver, which acks its source after the log write, loses nothing.",
                "什么都没丢：重启后从日志中读回批次 1 和批次 2 的块。但 a 到 e 出现了两次：批次 1 已经写出了它们，而它的完成还没写进元数据检查点，所以重启时连同输出一起又跑了一遍：至少一次。注意：这里的接收器每条记录都立刻写日志。Spark 的 socket 接收器会先把 200 毫秒内的记录攒成一个块，崩溃时这个缓冲区里的数据不管有没有日志都会丢。只有在写完日志后才向数据源确认的可靠接收器才不丢数据。")),
            restart(spark_log_transactional, SPARK_STORY, t(
                "Once more with the log and a transactional output: Sink's rows of a batch commit in one transaction keyed by (batch time, partition), and a key that has committed is never committed again. Batch 1 committed as (batch time 4, Sink); the driver crashes at the same moment.",
                "再来一次，开启日志并使用事务输出：一个批次里 Sink 的行在一个事务中提交，以（批次时间，分区）为键，已提交过的键不会再提交。批次 1 以（批次时间 4，Sink）提交；驱动器在同一时刻崩溃。"))
                .shows(&[Shows::Down, Shows::BatchDone(1)]),
            predict(&["restore", "end"], t(
                "Restore and run to the end. Mark every record by what a reader of the sink's table sees.",
                "恢复并运行到结束。请按 Sink 所写的表中读者看到的，为每一条记录标出。"),
                Judge::Output, t(
                "Every record exactly once: the re-run of batch 1 found (batch time 4, Sink) committed and skipped its rows, and batch 2 committed once. Now the price. Every record waited for its batch: a arrived at step 0, and a reader first saw it when batch 1 committed, 19 steps later (the band under the job shows the latency). And the log holds a copy of all the data. Flink keeps no copy of the stream and makes a record visible as soon as it is written, but it needs a source that can replay.",
                "每条记录都是精确一次：批次 1 重跑时发现（批次时间 4，Sink）已经提交，就跳过了它的行；批次 2 只提交了一次。再看代价：每条记录都要等它的批次。a 在第 0 步到达，读者直到批次 1 提交时才第一次看到它，晚了 19 步（作业下方的区域显示延迟）。而且日志里存着全部数据的一份副本。Flink 不保存流的副本，记录一写出就可见，但它需要一个能重放的数据源。")),
        ],
    },
    Lesson {
        id: CATALOGUE[13].id,
        title: CATALOGUE[13].title,
        job: "line",
        settings: timers,
        seed: 1,
        restore_into: None,
        steps: &[
            step(&[], t(
                "A space-time diagram draws a run as Chandy and Lamport did: one line per task, time running left to right, one arrow per record from its send to its receipt. A cut picks one moment on each task's line. It is consistent when no arrow crosses it from the future into the past: no record received before the cut but sent after it. In this lesson you draw cuts yourself.",
                "时空图像 Chandy 和 Lamport 那样画出一次运行：每个任务一条线，时间从左到右，每条记录一个箭头，从发送指向接收。切面在每条任务线上各取一个时刻。如果没有箭头从未来穿过切面回到过去，也就是没有记录在切面之前被接收、却在切面之后才发送，这个切面就是一致的。这一课由你自己来画切面。")),
            step(&["read Source x5", "deliver Source->Map x3", "deliver Map->Count x3"], t(
                "Source read a to e (steps 1 to 5), Map passed a, b and c on (steps 6 to 8), and Count counted them (steps 9 to 11); d and e are still in Source->Map, drawn dotted. No task has saved anything yet, so no cut is drawn for you. Open the diagram and find each arrow.",
                "Source 读取了 a 到 e（第 1 到 5 步），Map 转发了 a、b、c（第 6 到 8 步），Count 计入了它们（第 9 到 11 步）；d 和 e 还在 Source->Map 中，画成点线。还没有任务保存过任何东西，所以图上没有现成的切面。打开时空图，找到每一个箭头。"))
            .diagram(OnDiagram::Show),
            step(&[], t(
                "Your turn. In the diagram, set one point on each task line: click it, or Tab to a line, move with ← and →, and press Enter. Before the check, predict whether your cut is consistent. Draw cuts until one is; try a slanted one too, with Source early and Count late.",
                "轮到你了。在时空图的每条任务线上设一个点：点击它，或者按 Tab 到一条线，用 ← 和 → 移动，按 Enter 确定。检查之前，先预测你的切面是否一致。一直画，直到画出一个一致的切面；也试试斜的：Source 靠前，Count 靠后。"))
            .diagram(OnDiagram::Draw),
            step(&[], t(
                "A consistent cut has no ⊕ orphan. Arrows ✗ in transit may cross it: Chandy and Lamport save them as the channels' state. The diagram restored a copy of the run from your cut and ran it to its end: every record that crosses no line of it ends exactly once, and each one in transit is lost, because a restore from drawn task states keeps no channel state. Flink's aligned barriers (lesson 4) draw a consistent cut for you whose channels are empty; unaligned checkpoints (lesson 7) save what is in transit.",
                "一致的切面没有 ⊕ 孤儿消息。✗ 在途的箭头可以穿过它：Chandy 和 Lamport 把它们保存为通道的状态。时空图从你的切面恢复了运行的一个副本并运行到结束：没有穿过切面的记录都是精确一次，而每条在途记录都丢失了，因为从画出的任务状态恢复不保存任何通道状态。Flink 的对齐屏障（第 4 课）替你画出一个通道为空的一致切面；非对齐检查点（第 7 课）则把在途的数据存下来。")),
        ],
    },
    Lesson {
        id: CATALOGUE[14].id,
        title: CATALOGUE[14].title,
        job: "line",
        settings: aligned,
        seed: 1,
        restore_into: Some(RestoreInto::restore),
        steps: &[
            step(&[], t(
                "A checkpoint belongs to the job: Flink takes it by itself and keeps only the newest few. A savepoint is taken when the user asks, and belongs to the user: it outlives the job, and `flink run -s` submits a program from it. That program may differ from the one that took it: each operator's state is stored under its operator id, and any program with operators of those ids can read it.",
                "检查点属于作业：Flink 自己做，只保留最新的几个。保存点在用户要求时才做，属于用户：作业没了它还在，`flink run -s` 可以从它提交程序。这个程序可以和做保存点的程序不同：每个算子的状态都按算子 id 存放，只要新程序里有这些 id 的算子，就能读取它们。")),
            step(CHANGE_STORY, t(
                "Checkpoint 1 completed behind a and b. Then the user took savepoint 2 after c, and after d stopped the job with savepoint 3: a last savepoint, after which the job finished. Count holds a to d; e to h were never read. Now the program changes: a Filter goes in between Map and Count, and no operator has a uid, so each id is generated from the operator's place in the graph. Will savepoint 3 restore into the new program? Decide, then press Next.",
                "检查点 1 跟在 a 和 b 后面完成了。随后用户在 c 之后做了保存点 2，又在 d 之后带保存点 3 停止了作业：做完最后这个保存点，作业就结束了。Count 里有 a 到 d；e 到 h 从未被读取。现在程序改了：在 Map 和 Count 之间插入一个 Filter，而且没有算子设置 uid，所以每个 id 都由算子在图中的位置生成。保存点 3 能恢复到新程序里吗？先想好，再按下一步。"))
            .shows(&[Shows::Completed(1), Shows::Completed(2), Shows::Completed(3), Shows::Savepoints(&[2, 3]), Shows::Stopped]),
            step(&[], t(
                "No. The Filter took Count's place in the traversal, so Count's generated id changed and its state has no operator to go to. Flink refuses the restore: \"Failed to rollback to checkpoint/savepoint file:/savepoints/savepoint-3. Cannot map checkpoint/savepoint state for operator b728d985904d42b0fdd945a9e3253fca to the new program, because the operator is not available in the new program. If you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI.\" Source and Map keep their ids: nothing before them changed. ⚙ Program & savepoints shows the mapping table.",
                "不能。Filter 占了 Count 在遍历中的位置，Count 自动生成的 id 就变了，它的状态没有算子可去。Flink 拒绝恢复：\"Failed to rollback to checkpoint/savepoint file:/savepoints/savepoint-3. Cannot map checkpoint/savepoint state for operator b728d985904d42b0fdd945a9e3253fca to the new program, because the operator is not available in the new program. If you want to allow to skip this, you can set the --allowNonRestoredState option on the CLI.\"（Flink 的原话：无法把算子 b728… 的状态映射到新程序。）Source 和 Map 的 id 没变：它们前面什么都没改。⚙ 程序与保存点 里有映射表。"))
            .shows(&[Shows::Stopped, Shows::RestoreRefused("restore-into 3 insert-filter", "not-available")]),
            predict(&["restore-into 3 insert-filter --allowNonRestoredState", "end"], t(
                "So the new program is submitted from savepoint 3 again, with --allowNonRestoredState: state that maps to no operator is skipped. Mark every record: exactly once, lost or duplicated.",
                "于是从保存点 3 再次提交新程序，这次带上 --allowNonRestoredState：映射不到算子的状态就跳过。请为每一条记录标出：精确一次、丢失或重复。"),
                Judge::State, t(
                "Lost: a, b, c and d. The option dropped Count's state without a word, so the new Count starts from nothing. Source's generated id did not change, so it kept offset 4 and went on with e: e to h are counted once and nothing is read again. The option is meant for state you choose to drop, such as a removed operator's; here it hid a mistake.",
                "丢失的是 a、b、c、d。这个选项悄无声息地丢掉了 Count 的状态，新的 Count 从零开始。Source 自动生成的 id 没变，所以它保留了偏移量 4，从 e 继续：e 到 h 各计一次，没有数据被重读。这个选项本是为你有意丢弃的状态准备的（比如删掉的算子的状态）；在这里它掩盖了一个错误。")),
            restart_job("line-uids", aligned, CHANGE_STORY, t(
                "The same program with a uid on every operator: source, map, count. With a uid, an operator's id is a hash of the uid (murmur3), not of its place, so inserting an operator changes no other id. The same run again: checkpoint 1, savepoint 2 and the stop with savepoint 3, with a to d counted.",
                "同样的程序，这次每个算子都设了 uid：source、map、count。有了 uid，算子的 id 就是 uid 的哈希（murmur3），与它的位置无关，所以插入一个算子不会改变别的 id。再做一遍同样的运行：检查点 1、保存点 2，以及带保存点 3 的停止，a 到 d 都已计入。"))
            .shows(&[Shows::Completed(3), Shows::Savepoints(&[2, 3]), Shows::Stopped]),
            predict(&["restore-into 3 insert-filter", "end"], t(
                "The same Filter goes in between Map and Count, itself without a uid, and the program is submitted from savepoint 3, without the option. Mark every record.",
                "同样在 Map 和 Count 之间插入 Filter（它自己没有 uid），从保存点 3 提交程序，不带那个选项。请为每一条记录标出结果。"),
                Judge::State, t(
                "Exactly once, every record. Count's uid gives it the same id in the new program, so its state (a to d) maps to it, and Source's offset 4 to Source. The Filter has no saved state, so its generated id needs nothing. Hence Flink's advice: set a uid on every stateful operator before the first savepoint.",
                "每条记录都是精确一次。Count 的 uid 让它在新程序里 id 不变，它的状态（a 到 d）映射到它身上，Source 的偏移量 4 也回到 Source。Filter 没有保存的状态，它自动生成的 id 不需要对上任何东西。所以 Flink 建议：在第一个保存点之前，给每个有状态的算子设好 uid。")),
            restart_job("keyed-count", aligned, KEYED_STORY, t(
                "A keyed job: Source, keyBy, then Count with two subtasks. Max parallelism (128 by default here) fixes the number of key groups; each key hashes to one, and each subtask owns a contiguous range: Count[0] 0–63, Count[1] 64–127. Source read a to d, and the user stopped the job with savepoint 1.",
                "一个按键分区的作业：Source，keyBy，然后是两个子任务的 Count。最大并行度（这里默认 128）决定了键组的个数；每个键哈希到一个键组，每个子任务拥有一段连续的键组：Count[0] 是 0–63，Count[1] 是 64–127。Source 读取了 a 到 d，用户带保存点 1 停止了作业。"))
            .shows(&[Shows::KeyGroups("Count", &[(0, 63), (64, 127)]), Shows::Savepoints(&[1]), Shows::Stopped]),
            predict(&["restore-into 1 Count=3", "end"], t(
                "The program is submitted from savepoint 1 with Count's parallelism raised from 2 to 3; max parallelism stays 128. Mark every record.",
                "从保存点 1 提交程序，Count 的并行度从 2 提高到 3；最大并行度仍是 128。请为每一条记录标出结果。"),
                Judge::State, t(
                "Exactly once. A restore moves whole key groups, never single keys: Count[0] now owns 0–42, Count[1] 43–85 and Count[2] 86–127. x (key group 55) moved from Count[0] to Count[1] and y (106) from Count[1] to Count[2]; z (65) and u (40) stayed. Each key's count went with its key group. A new max parallelism would be refused: it would send every key to another key group.",
                "精确一次。恢复时整组整组地移动键组，而不是一个个键：现在 Count[0] 拥有 0–42，Count[1] 拥有 43–85，Count[2] 拥有 86–127。x（键组 55）从 Count[0] 移到了 Count[1]，y（106）从 Count[1] 移到了 Count[2]；z（65）和 u（40）没动。每个键的计数都跟着它的键组走。改变最大并行度会被拒绝：那会把每个键都分到别的键组。"))
            .shows(&[Shows::KeyGroups("Count", &[(0, 42), (43, 85), (86, 127)])]),
        ],
    },
];

/// Lesson 15, the line's run (without uids, then with them): checkpoint 1 behind a and b,
/// savepoint 2 after c, and after d the stop with savepoint 3; e to h unread.
const CHANGE_STORY: &[&str] = &[
    "read Source x2",
    "checkpoint",
    "deliver Source->Map x3",
    "deliver Map->Count x3",
    "read Source",
    "savepoint",
    "deliver Source->Map x2",
    "deliver Map->Count x2",
    "read Source",
    "stop-with-savepoint",
    "deliver Source->Map x2",
    "deliver Map->Count x2",
];

/// Lesson 15, the keyed job: a to d read (a:x and d:u to Count[0], b:y and c:z to Count[1]), then
/// the stop with savepoint 1.
const KEYED_STORY: &[&str] =
    &["read Source x4", "stop-with-savepoint", "deliver Source->Count[0] x3", "deliver Source->Count[1] x3"];

/// Lesson 12, each Flink run: checkpoint 1 completes with a and b (written), c is written after
/// it, checkpoint 2 is pending, and the JobManager fails.
const MASTER_STORY: &[&str] = &[
    "read Source x2",
    "checkpoint",
    "deliver Source->Map x3",
    "deliver Map->Count x3",
    "deliver Count->Sink x3",
    "read Source",
    "deliver Source->Map",
    "deliver Map->Count",
    "deliver Count->Sink",
    "checkpoint",
    "crash-jm",
];

/// The Storm lesson's end: b's replay and d to h, one record at a time through every task, each
/// tree acked within the 8-step timeout. (Left to the scheduler, trees interleave, take longer
/// than that, time out and are replayed again and again: a timeout that short livelocks, which is
/// Storm's behaviour too.)
const STORM_ONE_BY_ONE: &[&str] = &[
    "read Source",
    "ack Source",
    "deliver Source->Map",
    "ack Map",
    "deliver Map->Count",
    "ack Count",
    "deliver Count->Sink",
    "ack Sink",
    "answer Source",
    "read Source",
    "ack Source",
    "deliver Source->Map",
    "ack Map",
    "deliver Map->Count",
    "ack Count",
    "deliver Count->Sink",
    "ack Sink",
    "answer Source",
    "read Source",
    "ack Source",
    "deliver Source->Map",
    "ack Map",
    "deliver Map->Count",
    "ack Count",
    "deliver Count->Sink",
    "ack Sink",
    "answer Source",
    "read Source",
    "ack Source",
    "deliver Source->Map",
    "ack Map",
    "deliver Map->Count",
    "ack Count",
    "deliver Count->Sink",
    "ack Sink",
    "answer Source",
    "read Source",
    "ack Source",
    "deliver Source->Map",
    "ack Map",
    "deliver Map->Count",
    "ack Count",
    "deliver Count->Sink",
    "ack Sink",
    "answer Source",
    "read Source",
    "ack Source",
    "deliver Source->Map",
    "ack Map",
    "deliver Map->Count",
    "ack Count",
    "deliver Count->Sink",
    "ack Sink",
    "answer Source",
    "end",
];

/// Lesson 9 up to checkpoint 1: a, b, c and barrier 1 through every task to the sink.
const SINK_BEFORE_CHECKPOINT: &[&str] =
    &["read Source x3", "checkpoint", "deliver Source->Map x4", "deliver Map->Count x4", "deliver Count->Sink x4"];

/// Lesson 9 after checkpoint 1: d and e written by the sink.
const SINK_AFTER_CHECKPOINT: &[&str] =
    &["read Source x2", "deliver Source->Map x2", "deliver Map->Count x2", "deliver Count->Sink x2"];

/// Both, in one step (the `sink_story` script of tests/stories.rs up to the crash).
const SINK_STORY: &[&str] = &[
    "read Source x3",
    "checkpoint",
    "deliver Source->Map x4",
    "deliver Map->Count x4",
    "deliver Count->Sink x4",
    "read Source x2",
    "deliver Source->Map x2",
    "deliver Map->Count x2",
    "deliver Count->Sink x2",
];
/// Lesson 13, each run: a to e arrive and form batch 1, which runs to its end (Sink writes a to
/// e) while f, g, h arrive and form batch 2, which starts; then the driver crashes, a step before
/// its checkpoint writer would have recorded that batch 1 completed.
const SPARK_STORY: &[&str] = &["wait x4", "deliver Source->Map x5", "deliver Map->Count x5", "deliver Count->Sink x5", "crash-jm"];
const SPARK_REST: &[&str] = &["deliver Source->Map x5", "deliver Map->Count x5", "deliver Count->Sink x5", "crash-jm"];

// LESSONS-END

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::lessons::parse_line;
    use crate::classroom::progress::{actions_for, Progress};
    use crate::engine::ledger::Verdict;
    use crate::engine::{AbortReason, CheckpointId, CheckpointStatus, RestoreFrom};
    use crate::engine::{Action, Event, Sim, TxnId};

    /// Plays a whole lesson, revealing every prediction; returns the final simulation.
    fn play_all(i: usize) -> Sim {
        let lesson = &LESSONS[i];
        let mut p = Progress::new(i);
        p.step = lesson.steps.len() - 1;
        p.revealed = true;
        let (_, mut sim, actions) = actions_for(&p).unwrap_or_else(|e| panic!("{e}"));
        for a in actions {
            sim.apply(a, &mut Vec::new()).unwrap();
        }
        sim
    }

    #[test]
    fn every_lesson_plays_through_and_has_both_languages() {
        assert!(!LESSONS.is_empty());
        for (i, lesson) in LESSONS.iter().enumerate() {
            for s in lesson.steps {
                assert!(!s.say.en.is_empty() && !s.say.zh.is_empty(), "{}", lesson.id);
                assert_eq!(s.predict.is_some(), s.reveal.is_some(), "{}", lesson.id);
            }
            play_all(i);
        }
    }

    #[test]
    fn lesson_1_counts_abc() {
        let sim = play_all(0);
        let l = sim.ledger();
        assert_eq!(l.row("a").unwrap().state, 1);
        assert_eq!(sim.source_offset(crate::engine::TaskId(0)), 3);
    }

    /// Plays lesson `i` up to and including step `step`, with that step revealed; returns the
    /// simulation of the current segment (since the last restart).
    fn play_to(i: usize, step: usize) -> Sim {
        let mut p = Progress::new(i);
        p.step = step;
        p.revealed = true;
        let (_, mut sim, actions) = actions_for(&p).unwrap_or_else(|e| panic!("{e}"));
        for a in actions {
            sim.apply(a, &mut Vec::new()).unwrap();
        }
        sim
    }

    fn index(id: &str) -> usize {
        LESSONS.iter().position(|l| l.id == id).unwrap_or_else(|| panic!("no lesson {id}"))
    }

    fn labels(sim: &Sim, records: Vec<crate::engine::RecordId>) -> Vec<&str> {
        records.into_iter().map(|r| sim.record_label(r)).collect()
    }

    /// Words that state something about the run as the canvas shows it (any of these), what they
    /// speak of, and which claims back them.
    type Spoken = (&'static [&'static str], &'static str, fn(&Shows) -> bool);
    const SPOKEN: &[Spoken] = &[
        (&["block"], "blocked channels", |c| matches!(c, Shows::Blocked(_) | Shows::NothingBlocked)),
        (&["complete"], "a completed checkpoint or batch", |c| matches!(c, Shows::Completed(_) | Shows::BatchDone(_))),
        (&["pending", "trigger"], "a checkpoint in progress", |c| {
            matches!(c, Shows::Pending(_) | Shows::NonePending | Shows::Completed(_))
        }),
        (&["backpressure"], "backpressure", |c| matches!(c, Shows::Backpressured(_))),
        (&["fails", "crashes"], "the job down", |c| matches!(c, Shows::Down)),
        (&["nimbus dies", "jobmanager fails", "a fails"], "the master down", |c| matches!(c, Shows::MasterDown)),
        (&["do not notice", "nothing stops"], "a job still running", |c| matches!(c, Shows::Running)),
        (&["leads", "election"], "the leader", |c| matches!(c, Shows::Leader(_) | Shows::MasterDown)),
        (&["its files stay", "go with it", "left in storage"], "what storage holds", |c| matches!(c, Shows::InStorage(_))),
    ];

    #[test]
    fn every_step_shows_what_its_words_say() {
        let mut claims = 0;
        for (i, lesson) in LESSONS.iter().enumerate() {
            for (k, step) in lesson.steps.iter().enumerate() {
                let at = format!("{} step {}", lesson.id, k + 1);
                let sim = play_to(i, k);
                for claim in step.shows {
                    claim.check(&sim).unwrap_or_else(|e| panic!("{at}: {e}"));
                    claims += 1;
                }
                // A step that plays nothing introduces ideas; a prediction's words are checked
                // against the ledger by the tests below.
                if step.play.is_empty() || step.predict.is_some() {
                    continue;
                }
                let words = step.say.en.to_lowercase();
                for (keys, what, backs) in SPOKEN {
                    if keys.iter().any(|key| words.contains(key)) {
                        assert!(step.shows.iter().any(backs), "{at} speaks of {what} but claims none: {words}");
                    }
                }
            }
        }
        assert!(claims >= 30, "{claims} claims");
    }

    #[test]
    fn a_claim_that_does_not_hold_is_caught() {
        let i = index("alignment");
        let sim = play_to(i, 2);
        assert!(Shows::Blocked("Left->Count").check(&sim).is_ok());
        assert!(Shows::NothingBlocked.check(&sim).is_err());
        assert!(Shows::Completed(1).check(&sim).is_err());
        assert!(Shows::Backpressured("Left").check(&sim).is_err());
        assert!(Shows::Down.check(&sim).is_err());
    }

    #[test]
    fn lessons_have_the_agreed_shape() {
        let mut ids = std::collections::BTreeSet::new();
        for (i, lesson) in LESSONS.iter().enumerate() {
            assert!(ids.insert(lesson.id), "duplicate id {}", lesson.id);
            let n = format!("{}. ", i + 1);
            assert!(lesson.title.en.starts_with(&n) && lesson.title.zh.starts_with(&n), "{}", lesson.id);
            assert!((4..=8).contains(&lesson.steps.len()), "{}: {} steps", lesson.id, lesson.steps.len());
            let first = &lesson.steps[0];
            assert!(first.play.is_empty() && first.restart.is_none() && first.predict.is_none(), "{}", lesson.id);
            for (k, s) in lesson.steps.iter().enumerate() {
                for line in s.play {
                    match crate::classroom::lessons::RestoreInto::parse(line) {
                        Some(r) => drop(r.unwrap_or_else(|e| panic!("{}: {e}", lesson.id))),
                        None => drop(parse_line(line).unwrap_or_else(|e| panic!("{}: {e}", lesson.id))),
                    }
                }
                for text in [s.say, s.reveal.unwrap_or(s.say)] {
                    assert!(!text.en.trim().is_empty() && !text.zh.trim().is_empty(), "{} step {}", lesson.id, k + 1);
                }
                if s.predict.is_some() {
                    assert!(!s.play.is_empty(), "{} step {}: a prediction holds back the crash", lesson.id, k + 1);
                    // Every segment ends with its prediction.
                    let next = lesson.steps.get(k + 1);
                    assert!(next.is_none_or(|n| n.restart.is_some()), "{} step {}", lesson.id, k + 1);
                }
            }
            let predictions = lesson.steps.iter().filter(|s| s.predict.is_some()).count();
            let expected = match lesson.id {
                "state" | "draw-a-cut" => 0,
                "sinks" | "master" | "micro-batches" | "changed-program" => 3,
                _ => 1,
            };
            assert_eq!(predictions, expected, "{}", lesson.id);
            if expected > 0 {
                assert!(lesson.steps.last().unwrap().predict.is_some(), "{}", lesson.id);
            }
        }
        assert_eq!(LESSONS.len(), 15);
    }

    /// Lesson 13: from a socket, without the log f, g, h are lost; with it nothing is lost and
    /// batch 1's output is written twice (it completed, but the crash came before the metadata
    /// checkpoint said so); with a transactional output, exactly once. The latency its last
    /// reveal quotes is the band's.
    #[test]
    fn micro_batches_lesson_reveals_what_it_says() {
        let i = index("micro-batches");
        let lesson = &LESSONS[i];
        assert_eq!(SPARK_STORY[1..], *SPARK_REST);
        let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
        let outcomes = [
            (vec!["a", "b", "c", "d", "e"], vec!["f", "g", "h"], vec![]),
            (vec!["f", "g", "h"], vec![], vec!["a", "b", "c", "d", "e"]),
            (vec!["a", "b", "c", "d", "e", "f", "g", "h"], vec![], vec![]),
        ];
        for (k, (once, lost, twice)) in predicts.iter().zip(outcomes) {
            let mut p = Progress::new(i);
            p.step = *k;
            let (_, mut sim, actions) = actions_for(&p).unwrap();
            for a in actions {
                sim.step(a).unwrap();
            }
            for line in lesson.steps[*k].play {
                crate::classroom::play_lines(&mut sim, &[line]).unwrap();
            }
            let l = sim.ledger();
            assert_eq!(l.external_labels(Verdict::ExactlyOnce), once, "step {k}");
            assert_eq!(l.external_labels(Verdict::Lost), lost, "step {k}");
            assert_eq!(l.external_labels(Verdict::Duplicated), twice, "step {k}");
            if *k == predicts[2] {
                let a = sim.graph.records.iter().position(|r| r.label == "a").unwrap();
                let seen = sim.external().visible().iter().filter(|r| r.record.0 as usize == a).map(|r| r.tick + 1).min().unwrap();
                assert_eq!(seen - sim.durable_spark().received[a], 19, "a waited 19 steps");
            }
        }
    }

    /// Lesson 12: Nimbus stops nothing; without HA the job comes back in two steps, from the
    /// retained checkpoint (ids from its id + 1) or from nothing (ids from 1); with a standby in one
    /// step, from the HA store's checkpoint, ids rising. Each reveal's words against the run.
    #[test]
    fn lesson_12_the_master_fails() {
        let i = index("master");
        let lesson = &LESSONS[i];
        let nimbus = play_to(i, 1);
        assert!(nimbus.running() && !nimbus.jobmanager_up());
        assert_eq!(nimbus.stats.failovers[0].steps_down(), Some(0));
        let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
        let runs: Vec<Sim> = predicts.iter().map(|k| play_to(i, *k)).collect();
        // Before each crash the same run: checkpoint 1 completed, c written after it.
        let mut before = LESSONS[i].config_at(predicts[0] - 1).scenario().sim().unwrap();
        crate::classroom::play_lines(&mut before, &MASTER_STORY[..MASTER_STORY.len() - 2]).unwrap();
        let cp = before.storage().completed.last().unwrap().id;
        let written: Vec<&str> = before.external().visible().iter().map(|r| before.record_label(r.record)).collect();
        let after: Vec<&str> = written.iter().copied().filter(|l| before.ledger().row(l).unwrap().expected_external > 0).collect();
        let (retained, from_nothing, standby) = (&runs[0], &runs[1], &runs[2]);
        for (sim, ha) in [(retained, HighAvailability::None), (from_nothing, HighAvailability::None), (standby, HighAvailability::Standby)] {
            assert_eq!(sim.settings.high_availability, ha);
            assert_eq!(sim.ledger().state.exactly_once as usize, sim.ledger().rows.len(), "the counts end right");
        }
        // Retained: what was written after checkpoint 1 (c) twice; a new job counting from cp + 1.
        let f = retained.stats.failovers[0];
        assert_eq!((f.steps_down(), f.restored), (Some(2), Some(RestoreFrom::Checkpoint { checkpoint: cp })));
        assert_eq!(retained.stats.history[0].id, CheckpointId(cp.0 + 1));
        let saved_in_1: Vec<&str> = written.iter().copied().filter(|l| ["a", "b"].contains(l)).collect();
        let twice: Vec<&str> = after.iter().copied().filter(|l| !saved_in_1.contains(l)).collect();
        assert_eq!(twice, ["c"]);
        assert_eq!(retained.ledger().external_labels(Verdict::Duplicated), twice);
        // From nothing: everything written before the crash twice; ids from 1.
        assert_eq!(from_nothing.ledger().external_labels(Verdict::Duplicated), written);
        assert_eq!(from_nothing.stats.history[0].id, CheckpointId(1));
        assert_eq!(from_nothing.stats.failovers[0].restored, Some(RestoreFrom::Nothing));
        // Standby: as retained, in one step; the same job, ids rising; B leads.
        assert_eq!(standby.ledger().external_labels(Verdict::Duplicated), twice);
        let f = standby.stats.failovers[0];
        assert_eq!((f.steps_down(), f.restored), (Some(1), Some(RestoreFrom::Checkpoint { checkpoint: cp })));
        let ids: Vec<u64> = standby.stats.history.iter().map(|r| r.id.0).collect();
        assert_eq!(ids, [1, 2, 3], "the next checkpoint is 3");
        assert!(Shows::Leader("B").check(standby).is_ok());
        assert!(standby.stats.earlier_submissions.is_empty());
    }

    /// The Storm lesson: b times out though nothing crashed, and its replay lands after c.
    #[test]
    fn storm_lesson_replays_b_after_c() {
        let i = index("storm-acks");
        let sim = play_all(i);
        let l = sim.ledger();
        assert_eq!(l.state_labels(Verdict::Duplicated), vec!["b"], "{:?}", l.rows);
        assert_eq!(l.external_labels(Verdict::Duplicated), vec!["b"], "{:?}", l.rows);
        assert_eq!(l.state.lost + l.external.unwrap().lost, 0);
        let table: Vec<&str> = sim.external().visible().iter().map(|r| sim.record_label(r.record)).collect();
        assert_eq!(&table[..4], ["a", "b", "c", "b"], "a reader sees the replayed b after c");
        // Count's contributors to count(x), in the order it counted them.
        let crate::engine::OpState::Keyed { entries } = &sim.tasks()[2].state else { panic!("Count is keyed") };
        let x = entries.values().next().unwrap();
        let order: Vec<&str> = x.contributors.iter().map(|r| sim.record_label(*r)).collect();
        assert_eq!(&order[..4], ["a", "b", "c", "b"], "the replayed b comes after c");
        // The verdict says so: b took effect again after c at every task on its path, and a reader
        // of the sink sees it after c; nothing is missing.
        let b = l.row("b").unwrap();
        assert_eq!(l.order_labels(crate::engine::Order::OutOfOrder), ["b"]);
        let g = &sim.graph;
        let path: Vec<(crate::engine::ChannelId, bool)> = (0..g.channels.len())
            .map(|c| crate::engine::ChannelId(c as u16))
            .map(|c| (c, g.task(g.channel(c).to).kind == crate::engine::OperatorKind::Sink))
            .collect();
        assert_eq!(b.out_of_order_at.iter().map(|p| (p.channel, p.external)).collect::<Vec<_>>(), path);
        assert_eq!(l.complete.complete as usize, l.rows.len());
    }

    #[test]
    fn lesson_2_timers_lose_abc() {
        let i = index("timers-lose");
        // Before the crash the cut shows a, b, c in transit.
        let before = play_to(i, LESSONS[i].steps.len() - 2);
        let cut = before.latest_cut().unwrap();
        assert_eq!(labels(&before, cut.in_transit()), ["a", "b", "c"]);
        assert!(cut.orphans().is_empty());
        let sim = play_all(i);
        let l = sim.ledger();
        assert_eq!(l.state_labels(Verdict::Lost), ["a", "b", "c"]);
        assert_eq!(l.state_labels(Verdict::ExactlyOnce), ["d", "e", "f", "g", "h"]);
        assert_eq!(sim.source_offset(crate::engine::TaskId(0)), 8);
    }

    #[test]
    fn lesson_3_timers_duplicate_abc() {
        let i = index("timers-duplicate");
        let before = play_to(i, LESSONS[i].steps.len() - 2);
        let cut = before.latest_cut().unwrap();
        assert_eq!(labels(&before, cut.orphans()), ["a", "b", "c"]);
        let l = play_all(i).ledger();
        assert_eq!(l.state_labels(Verdict::Duplicated), ["a", "b", "c"]);
        assert_eq!(l.row("a").unwrap().state, 2);
        assert_eq!(l.state_labels(Verdict::ExactlyOnce), ["d", "e", "f", "g", "h"]);
    }

    /// Lessons 2, 3 and 4 each have a step that shows their cut on the space-time diagram: broken
    /// by the timers (a, b, c in transit; a, b, c orphans), consistent after the barrier. Only
    /// lesson 14 has the learner draw.
    #[test]
    fn the_timers_and_barrier_lessons_show_their_cut_on_the_diagram() {
        for (id, broken) in [("timers-lose", Some((0, 3))), ("timers-duplicate", Some((3, 0))), ("barrier", None)] {
            let i = index(id);
            let steps: Vec<usize> =
                (0..LESSONS[i].steps.len()).filter(|&k| LESSONS[i].steps[k].diagram == OnDiagram::Show).collect();
            assert_eq!(steps.len(), 1, "{id}: one step shows the diagram");
            let k = steps[0];
            let cut = play_to(i, k).latest_cut().unwrap_or_else(|| panic!("{id}: a cut at step {}", k + 1));
            let found = (cut.orphans().len(), cut.in_transit().len());
            match broken {
                Some(expected) => {
                    assert_eq!(found, expected, "{id}");
                    assert!(LESSONS[i].steps[k].shows.contains(&Shows::CutBroken { orphans: expected.0, in_transit: expected.1 }));
                }
                None => {
                    assert_eq!(found, (0, 0), "{id}");
                    assert!(LESSONS[i].steps[k].shows.contains(&Shows::CutConsistent));
                }
            }
            // The claim fails on the other verdict.
            let other = if broken.is_some() { Shows::CutConsistent } else { Shows::CutBroken { orphans: 0, in_transit: 0 } };
            assert!(other.check(&play_to(i, k)).is_err(), "{id}");
        }
        let drawing: Vec<&str> =
            LESSONS.iter().filter(|l| l.steps.iter().any(|s| s.diagram == OnDiagram::Draw)).map(|l| l.id).collect();
        assert_eq!(drawing, ["draw-a-cut"]);
    }

    /// Lesson 14: on its drawing step, every cut the learner can draw (every point on every line,
    /// brute force) is checked against what the lesson says: some are consistent and some are
    /// not (the slanted one it suggests, Source early and Count late, is not); a consistent cut has
    /// no orphan; and a restore from a consistent cut ends every record that crosses no line
    /// exactly once and loses each one in transit, as the last step says.
    #[test]
    fn lesson_14_draw_a_consistent_cut_says_what_a_restore_from_it_does() {
        use crate::engine::drawn_cut::{classify, restore_from};
        let i = index("draw-a-cut");
        let lesson = &LESSONS[i];
        let k = lesson.steps.iter().position(|s| s.diagram == OnDiagram::Draw).unwrap();
        assert!(lesson.steps[k + 1..].iter().all(|s| s.play.is_empty()), "nothing plays after the drawing");
        let mut p = Progress::new(i);
        p.step = k;
        let (_, start, actions) = actions_for(&p).unwrap();
        let tl = crate::engine::Timeline::from_actions(start, &actions).unwrap();
        let end = tl.len() as u64;
        assert_eq!(end, 11, "the steps the words count");
        let sim = tl.current();
        assert!(sim.latest_cut().is_none(), "no cut is drawn for the learner");
        let (mut consistent, mut inconsistent, mut with_transit) = (0, 0, 0);
        for s in 0..=end {
            for m in 0..=end {
                for c in 0..=end {
                    let points = [s, m, c];
                    let cut = classify(&tl, &points).unwrap();
                    if !cut.consistent() {
                        inconsistent += 1;
                        assert!(!cut.orphans().is_empty());
                        continue;
                    }
                    consistent += 1;
                    let (_, restore) = restore_from(&tl, &points, 20_000).unwrap();
                    let transit = cut.in_transit();
                    with_transit += usize::from(!transit.is_empty());
                    for row in &restore.ledger.rows {
                        let expected = if transit.contains(&row.record) { Verdict::Lost } else { Verdict::ExactlyOnce };
                        assert_eq!(row.state_verdict, expected, "cut {points:?}: {}", row.label);
                    }
                }
            }
        }
        assert!(consistent > 0 && inconsistent > 0 && with_transit > 0, "{consistent} {inconsistent} {with_transit}");
        // The slanted cut the step suggests: Source at its start, Count at the end.
        assert!(!classify(&tl, &[0, end, end]).unwrap().consistent());
        assert!(classify(&tl, &[end, end, end]).unwrap().consistent());
        let words = lesson.steps[k + 1].say.en;
        assert!(words.contains("exactly once") && words.contains("in transit is lost"), "{words}");
    }

    #[test]
    fn lesson_4_barrier_is_exactly_once() {
        let i = index("barrier");
        let sim = play_all(i);
        let cp = &sim.stats.history[0];
        assert_eq!(cp.status, CheckpointStatus::Completed);
        assert_eq!((cp.acked, cp.total), (3, 3));
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
        assert_eq!(sim.ledger().state.exactly_once, 8);
    }

    #[test]
    fn lesson_5_alignment_blocks_buffers_and_backpressures() {
        let i = index("alignment");
        let restart = LESSONS[i].steps.iter().position(|s| s.restart.is_some()).unwrap();
        // Unbounded: b waits behind the barrier on the blocked channel; alignment takes 2 steps.
        let first = play_to(i, restart - 1);
        assert_eq!(first.stats.history[0].subtasks[2].alignment, Some(2));
        // Bounded channels: Left is backpressured and alignment takes 5 steps.
        let bounded = play_to(i, restart + 1);
        assert_eq!(bounded.settings.channel_capacity, Some(2));
        assert_eq!(bounded.stats.history[0].status, CheckpointStatus::Completed);
        assert_eq!(bounded.stats.history[0].subtasks[2].alignment, Some(5));
        let left = bounded.graph.task_by_name("Left").unwrap();
        let e = bounded.check(Action::Read { task: left }).unwrap_err().to_string();
        assert!(e.contains("backpressured"), "{e}");
        let sim = play_all(i);
        assert_eq!(sim.ledger().state.exactly_once, 10);
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
    }

    #[test]
    fn lesson_6_no_alignment_duplicates_b() {
        let i = index("at-least-once");
        let before = play_to(i, LESSONS[i].steps.len() - 2);
        assert_eq!(labels(&before, before.latest_cut().unwrap().orphans()), ["b"]);
        let l = play_all(i).ledger();
        assert_eq!(l.state_labels(Verdict::Duplicated), ["b"]);
        assert_eq!(l.state.lost, 0);
    }

    #[test]
    fn lesson_7_unaligned_stores_in_flight_records_and_is_exactly_once() {
        let sim = play_all(index("unaligned"));
        let cp = &sim.stats.history[0];
        assert_eq!(cp.status, CheckpointStatus::Completed);
        assert_eq!(cp.in_flight, 4);
        assert_eq!(cp.duration(sim.tick), 2);
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
        assert_eq!(sim.ledger().state.exactly_once, 10);
    }

    #[test]
    fn lesson_8_stop_the_world_stalls_and_is_exactly_once() {
        let sim = play_all(index("stop-the-world"));
        let cp = &sim.stats.history[0];
        assert_eq!(cp.status, CheckpointStatus::Completed);
        assert_eq!(cp.stall, Some(4));
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
        assert_eq!(sim.ledger().state.exactly_once, 8);
    }

    #[test]
    fn lesson_9_sinks_as_an_outside_reader_sees_them() {
        let i = index("sinks");
        let lesson = &LESSONS[i];
        assert_eq!(SINK_STORY, [SINK_BEFORE_CHECKPOINT, SINK_AFTER_CHECKPOINT].concat());
        let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
        assert_eq!(predicts.len(), 3);
        for (k, mode) in predicts.iter().zip(SinkMode::ALL) {
            assert_eq!(lesson.steps[*k].predict, Some(Judge::Output));
            let sim = play_to(i, *k);
            assert_eq!(sim.settings.sink, mode);
            assert_eq!(sim.stats.history[0].status, CheckpointStatus::Completed);
            let l = sim.ledger();
            assert_eq!(l.state.exactly_once, 8, "{mode:?}: the state is exactly once");
            let ext = l.external.unwrap();
            match mode {
                SinkMode::Append => {
                    assert_eq!(l.external_labels(Verdict::Duplicated), ["d", "e"]);
                    assert_eq!(ext.lost, 0);
                }
                SinkMode::Upsert | SinkMode::TwoPhaseCommit | SinkMode::Transactional => assert_eq!(ext.exactly_once, 8, "{mode:?}"),
            }
        }
        // Before the reveal, checkpoint 1 has completed but its notification has not reached the
        // Sink: T0 (a, b, c) is pre-committed, T1 (d, e) open; a reader sees nothing yet.
        let mut p = Progress::new(i);
        p.step = predicts[2];
        let (_, mut sim, actions) = actions_for(&p).unwrap();
        for a in actions {
            sim.apply(a, &mut Vec::new()).unwrap();
        }
        assert_eq!(sim.stats.history[0].status, CheckpointStatus::Completed);
        assert_eq!(sim.notifications().len(), 1);
        assert_eq!(sim.ledger().external_labels(Verdict::Pending), ["a", "b", "c", "d", "e", "f", "g", "h"]);
        assert!(sim.external().visible().is_empty());
        // The crash drops the notification; the restore commits T0 (recoverAndCommit), aborts T1.
        sim.apply(Action::Crash, &mut Vec::new()).unwrap();
        let mut restore = Vec::new();
        sim.apply(Action::Restore, &mut restore).unwrap();
        assert!(restore.iter().any(|e| matches!(e, Event::TxnCommitted { txn: TxnId(0), rows: 3, .. })), "{restore:?}");
        assert!(restore.iter().any(|e| matches!(e, Event::TxnAborted { txn: TxnId(1), rows: 2, .. })), "{restore:?}");
        assert_eq!(sim.external().visible().len(), 3);
    }

    #[test]
    fn lesson_10_jobmanager_failure_loses_the_pending_checkpoint_only() {
        let sim = play_all(index("jobmanager"));
        let h = &sim.stats.history;
        assert_eq!(h[0].status, CheckpointStatus::Completed);
        assert_eq!(h[1].status, CheckpointStatus::Failed(AbortReason::JobManagerFailure));
        assert_eq!((h[2].id, h[2].status), (CheckpointId(3), CheckpointStatus::Completed));
        assert_eq!(sim.stats.latest_restored, Some(CheckpointId(1)));
        assert_eq!(sim.ledger().state.exactly_once, 8);
    }

    /// Lesson 15, against the engine: the restore into the Filter without uids is refused with
    /// Flink's message, word for word as step 3 quotes it, and Count is the operator it names;
    /// --allowNonRestoredState drops Count's state (the mapping table: Source and Map kept, Count
    /// dropped), so a to d are lost and e to h counted once, Source keeping offset 4; with uids every
    /// state maps and every record is counted once; Count rescaled from 2 to 3 keeps every key's
    /// count and moves the keys the reveal names, each to the owner of its key group.
    #[test]
    fn lesson_15_the_program_that_restores_may_differ() {
        use crate::classroom::lessons::RestoreInto;
        use crate::classroom::progress::run_for;
        use crate::engine::operator_id::operator_ids;
        use crate::engine::rescale::StateFate;
        let i = index("changed-program");
        let lesson = &LESSONS[i];
        let predicts: Vec<usize> = (0..lesson.steps.len()).filter(|&k| lesson.steps[k].predict.is_some()).collect();
        assert_eq!(predicts, [3, 5, 7]);
        // Step 3: the stopped job, savepoint 3 holding offset 4 and a to d in Count.
        let stopped = play_to(i, 1);
        let sp = stopped.savepoints().last().unwrap();
        assert!(sp.stop && sp.checkpoint.id == CheckpointId(3));
        let ledger = stopped.ledger();
        let count: Vec<&str> = ledger.rows.iter().filter(|r| r.state == 1).map(|r| r.label.as_str()).collect();
        assert_eq!(count, ["a", "b", "c", "d"]);
        let refused = RestoreInto::parse("restore-into 3 insert-filter").unwrap().unwrap().refusal(&stopped).unwrap().unwrap();
        let count_id = operator_ids(&stopped.graph.spec)[2];
        assert!(matches!(&refused, crate::engine::rescale::Refusal::NotAvailable { id, operator, .. } if *id == count_id && operator == "Count"));
        for words in [lesson.steps[2].say.en, lesson.steps[2].say.zh] {
            assert!(words.contains(&refused.message()), "step 3 quotes Flink's message: {words}");
        }
        // Step 4: --allowNonRestoredState.
        let run = |step: usize| {
            let mut p = Progress::new(i);
            p.step = step;
            p.revealed = true;
            run_for(&p).unwrap()
        };
        let dropped = run(3);
        let change = dropped.change.as_ref().expect("a restore into a changed program");
        assert!(change.allow_non_restored_state && change.from == 3);
        assert_eq!(change.program.operators.iter().map(|o| o.name.as_str()).collect::<Vec<_>>(), ["Source", "Map", "Filter", "Count"]);
        let (_, plan, _) = stopped.restore_into(CheckpointId(3), &change.program, true).unwrap();
        let fates: Vec<(&str, StateFate)> = plan.rows.iter().map(|r| (r.operator.as_str(), r.fate)).collect();
        assert_eq!(fates, [("Source", StateFate::Kept), ("Map", StateFate::Kept), ("Count", StateFate::Dropped)]);
        let src = dropped.start.graph.task_by_name("Source").unwrap();
        assert_eq!(dropped.start.source_offset(src), 4, "Source keeps its offset");
        let l = play_to(i, 3).ledger();
        assert_eq!(l.state_labels(Verdict::Lost), ["a", "b", "c", "d"]);
        assert_eq!(l.state_labels(Verdict::ExactlyOnce), ["e", "f", "g", "h"]);
        assert_eq!(l.state.duplicated, 0);
        // Step 6: with uids.
        let uids = play_to(i, 4);
        assert_eq!(uids.graph.spec.operators.iter().map(|o| o.uid.as_deref()).collect::<Vec<_>>(), [Some("source"), Some("map"), Some("count")]);
        let mapped = run(5);
        let (_, plan, _) = uids.restore_into(CheckpointId(3), &mapped.change.as_ref().unwrap().program, false).unwrap();
        assert!(plan.rows.iter().all(|r| r.fate == StateFate::Kept), "{:?}", plan.rows);
        let l = play_to(i, 5).ledger();
        assert_eq!((l.state.exactly_once, l.state.lost, l.state.duplicated), (8, 0, 0));
        // Step 8: Count 2 -> 3.
        let keyed = play_to(i, 6);
        let places = |sim: &Sim| -> Vec<(String, u16, usize)> {
            let mut v = Vec::new();
            for (t, info) in sim.graph.tasks.iter().enumerate() {
                if let crate::engine::OpState::Keyed { entries } = &sim.tasks()[t].state {
                    v.extend(entries.iter().map(|(k, e)| (sim.graph.key_name(*k).to_string(), info.subtask, e.contributors.len())));
                }
            }
            v.sort();
            v
        };
        let before = places(&keyed);
        let restored = run(7).start;
        assert_eq!(restored.graph.spec.operators[1].parallelism, 3);
        assert_eq!(restored.graph.max_parallelism[1], 128);
        let after = places(&restored);
        let moves: Vec<(&str, u16, u16)> =
            before.iter().zip(&after).map(|(b, a)| (b.0.as_str(), b.1, a.1)).collect();
        assert_eq!(moves, [("u", 0, 0), ("x", 0, 1), ("y", 1, 2), ("z", 1, 1)]);
        assert!(before.iter().zip(&after).all(|(b, a)| b.0 == a.0 && b.2 == a.2 && a.2 == 1), "every key keeps its count");
        for (key, kg) in [("x", 55), ("y", 106), ("z", 65), ("u", 40)] {
            assert_eq!(crate::engine::key_groups::assign_to_key_group(key, 128), kg);
            assert!(lesson.steps[7].reveal.unwrap().en.contains(&format!("{key} (key group {kg})")) || lesson.steps[7].reveal.unwrap().en.contains(&format!("{key} ({kg})")));
        }
        assert!(Shows::KeyGroups("Count", &[(0, 42), (43, 85), (86, 127)]).check(&restored).is_ok());
        assert!(Shows::KeyGroups("Count", &[(0, 63), (64, 127)]).check(&restored).is_err());
        let l = play_to(i, 7).ledger();
        assert_eq!((l.state.exactly_once, l.state.lost, l.state.duplicated), (8, 0, 0));
        // A changed max parallelism is refused, as the last reveal says.
        let r = RestoreInto { from: 1, edits: vec![], allow_non_restored_state: false };
        let mut spec = r.program(&keyed).unwrap();
        spec.operators[1].max_parallelism = Some(64);
        assert_eq!(keyed.restore_into(CheckpointId(1), &spec, false).unwrap_err().id(), "max-parallelism-mismatch");
    }

    /// A lesson's restore into a changed program is the session's: the session keeps it, so the
    /// run saved at the lesson's last step opens again as the same run, at the same step.
    #[test]
    fn a_lesson_run_restored_into_a_changed_program_saves_and_opens() {
        use crate::classroom::{Command, Session};
        let i = index("changed-program");
        let mut s = Session::new(LESSONS[i].config()).unwrap();
        assert!(s.handle(Command::StartLesson(i)));
        while s.lesson.as_ref().unwrap().step < 7 || s.lesson.as_ref().unwrap().awaiting_reveal() {
            let p = s.lesson.as_ref().unwrap();
            if p.awaiting_reveal() {
                for r in s.sim().graph.records.clone() {
                    s.handle(Command::Predict(r.label.clone(), Verdict::ExactlyOnce));
                }
            }
            assert!(s.handle(Command::LessonNext), "{:?}", s.notice);
        }
        assert!(s.change.is_some());
        assert_eq!(s.sim().graph.spec.operators[1].parallelism, 3);
        let saved = s.save(crate::engine::Lang::En);
        let text = crate::classroom::from_fragment(&crate::classroom::to_fragment(&saved)).unwrap();
        let (back, _) = Session::load(&text).unwrap();
        assert_eq!(back.sim().ledger(), s.sim().ledger());
        assert_eq!(back.sim().tasks(), s.sim().tasks());
        assert_eq!(back.save(crate::engine::Lang::En), saved);
        assert_eq!(back.lesson.as_ref().map(|p| (p.step, p.revealed)), Some((7, true)));
        // Back a step: a fresh run of keyed-count, with no restore kept.
        assert!(s.handle(Command::LessonPrev) && s.handle(Command::LessonPrev));
        assert!(s.change.is_none() && s.sim().graph.spec.operators[1].parallelism == 2);
    }
}
