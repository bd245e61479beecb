//! What a screen reader hears of the run: one sentence per step, a summary after Play instead of
//! every step it played, and the verdict whenever it changes ("3 lost: a, b, c. 5 exactly once."),
//! in the page's language. The page puts the sentence in its one live region
//! (`app/announcer.rs`); the words are here, tested natively.

use crate::engine::core::ledger::{Ledger, Tally, Verdict};
use crate::engine::Lang;

/// How many labels a verdict names before it says how many more there are.
const NAMED: usize = 10;

/// The verdict in one or two sentences: the lost and duplicated records by name, the others
/// counted. With an external system, what a reader sees of the output follows the state.
pub fn verdict_sentence(ledger: &Ledger, l: Lang) -> String {
    let state = tally_sentence(&ledger.state, |v| ledger.state_labels(v), l);
    match &ledger.external {
        Some(out) => {
            let output = tally_sentence(out, |v| ledger.external_labels(v), l);
            match l {
                Lang::Zh => format!("状态：{state} 输出：{output}"),
                Lang::En => format!("State: {state} Output: {output}"),
            }
        }
        None => state,
    }
}

fn tally_sentence<'a>(t: &Tally, labels: impl Fn(Verdict) -> Vec<&'a str>, l: Lang) -> String {
    let zh = l == Lang::Zh;
    let named = |v: Verdict, n: u32, en: &str, cn: &str| -> Option<String> {
        (n > 0).then(|| {
            let all = labels(v);
            let shown = all.iter().take(NAMED).copied().collect::<Vec<_>>();
            let more = all.len().saturating_sub(NAMED);
            match (zh, more) {
                (true, 0) => format!("{n} 条{cn}：{}。", shown.join("、")),
                (true, m) => format!("{n} 条{cn}：{}，另有 {m} 条。", shown.join("、")),
                (false, 0) => format!("{n} {en}: {}.", shown.join(", ")),
                (false, m) => format!("{n} {en}: {}, and {m} more.", shown.join(", ")),
            }
        })
    };
    let counted = |n: u32, en: &str, cn: &str| -> Option<String> {
        (n > 0).then(|| if zh { format!("{n} 条{cn}。") } else { format!("{n} {en}.") })
    };
    let parts: Vec<String> = [
        named(Verdict::Lost, t.lost, "lost", "丢失"),
        named(Verdict::Duplicated, t.duplicated, "duplicated", "重复"),
        counted(t.exactly_once, "exactly once", "精确一次"),
        counted(t.pending, "on the way", "处理中"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        return l.t("No records.", "没有记录。").to_string();
    }
    parts.join(if zh { "" } else { " " })
}

/// What Play says when it stops: how far it went, then where it stands.
pub fn played_sentence(from: usize, to: usize, len: usize, l: Lang) -> String {
    match l {
        Lang::Zh => format!("播放了第 {} 到第 {to} 步，共 {len} 步。", from + 1),
        Lang::En => format!("Played steps {} to {to} of {len}.", from + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::{Command, RunConfig, Session};
    use crate::engine::Action;

    /// The one-minute lesson: a, b, c read, all timers, crash, restore, to the end. Model: the
    /// ledger itself (a, b and c lost, the other five exactly once).
    #[test]
    fn the_one_minute_lesson_is_said_as_the_ledger_counts_it() {
        let mut s = Session::new(RunConfig::default()).unwrap();
        let source = s.sim().graph.tasks.iter().position(|t| t.name == "Source").unwrap();
        for _ in 0..3 {
            assert!(s.handle(Command::Act(Action::Read { task: crate::engine::TaskId(source as u16) })));
        }
        for a in [Action::AllTimers, Action::Crash, Action::Restore] {
            assert!(s.handle(Command::Act(a)));
        }
        assert!(s.handle(Command::ToEnd));
        let ledger = s.sim().ledger();
        assert_eq!(ledger.state_labels(Verdict::Lost), ["a", "b", "c"]);
        assert_eq!(verdict_sentence(&ledger, Lang::En), "3 lost: a, b, c. 5 exactly once.");
        assert_eq!(verdict_sentence(&ledger, Lang::Zh), "3 条丢失：a、b、c。5 条精确一次。");
    }

    #[test]
    fn a_long_list_is_cut_after_ten_names() {
        let labels: Vec<String> = (0..13).map(|i| format!("r{i}")).collect();
        let t = Tally { exactly_once: 0, lost: 13, duplicated: 0, pending: 2 };
        let said = tally_sentence(&t, |_| labels.iter().map(String::as_str).collect(), Lang::En);
        assert_eq!(said, "13 lost: r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, and 3 more. 2 on the way.");
    }

    #[test]
    fn play_says_how_far_it_went() {
        assert_eq!(played_sentence(3, 21, 21, Lang::En), "Played steps 4 to 21 of 21.");
        assert_eq!(played_sentence(3, 21, 21, Lang::Zh), "播放了第 4 到第 21 步，共 21 步。");
    }
}
