//! The lesson catalogue: each lesson's id and title, which the lesson menu lists from the first
//! screen. The lessons themselves (their steps and words, `curriculum.rs`) are in a part of the
//! page that loads when a lesson opens; each takes its id and title from here.

use super::lessons::Text;

/// A lesson as the menu lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: &'static str,
    pub title: Text,
}

const fn entry(id: &'static str, en: &'static str, zh: &'static str) -> Entry {
    Entry { id, title: Text { en, zh } }
}

/// The lessons in their order; `curriculum::LESSONS` has one lesson for each, at the same place.
pub const CATALOGUE: &[Entry] = &[
    entry("state", "1. What state is", "1. 什么是状态"),
    entry("timers-lose", "2. Per-task timers lose a, b, c", "2. 各自定时保存：a、b、c 丢失了"),
    entry("timers-duplicate", "3. The other way round: a, b, c counted twice", "3. 顺序反过来：a、b、c 被计算两次"),
    entry("barrier", "4. The checkpoint barrier", "4. 检查点屏障"),
    entry("alignment", "5. Two inputs: barrier alignment", "5. 两个输入：屏障对齐"),
    entry("at-least-once", "6. Barriers without alignment: at-least-once", "6. 不对齐的屏障：至少一次"),
    entry("unaligned", "7. Unaligned checkpoints", "7. 非对齐检查点"),
    entry("stop-the-world", "8. Stop the world", "8. 全局暂停"),
    entry("sinks", "9. End to end: sinks", "9. 端到端：Sink"),
    entry("jobmanager", "10. The JobManager fails", "10. JobManager 故障"),
    entry("storm-acks", "11. Storm acks every record", "11. Storm 逐条确认"),
    entry("master", "12. The master fails", "12. 主节点故障"),
    entry("micro-batches", "13. Micro-batches and the write-ahead log", "13. 微批与预写日志"),
    entry("draw-a-cut", "14. Draw a consistent cut", "14. 画一个一致的切面"),
    entry("changed-program", "15. The program that restores may differ", "15. 恢复的程序可以不同"),
];
