//! The prose of an explanation: each account told in one sentence in English and Chinese, the
//! decisive steps named, Chinese spacing tidied.

use super::{Account, Save, Story};

use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::ids::{ChannelId, RecordId, TaskId};
use crate::engine::core::lang::{say, Lang};
use crate::engine::explorer::outcome::{BadOutcome, Judged};

impl Story {
    /// The explanation in `lang`: one sentence per account.
    pub fn text(&self, g: &JobGraph, lang: Lang) -> String {
        let crash = self.crash.map_or(String::new(), |s| s.to_string());
        let restore = self.restore.map_or(String::new(), |s| s.to_string());
        let mut out = Vec::new();
        for a in &self.accounts {
            out.push(account_text(a, g, self.bad, &crash, &restore, lang));
        }
        match lang {
            Lang::En => out.join(" "),
            Lang::Zh => tidy_zh(&out.concat()),
        }
    }
}

/// Chinese puts no space beside its own punctuation, and one between a Latin name and a Chinese
/// word: the sentences are assembled with spaces around names, tidied here.
fn tidy_zh(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let punct = |c: char| "，。；：（）、".contains(c);
        if c == ' ' && (out.ends_with(' ') || out.chars().last().is_some_and(punct) || out.is_empty()) {
            continue;
        }
        if punct(c) && out.ends_with(' ') {
            out.pop();
        }
        out.push(c);
    }
    out.trim_end().to_string()
}

/// "a", "a and b", "a, b and c"; "a"、"a 和 b"、"a、b 和 c".
fn list(items: &[String], lang: Lang) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => match lang {
            Lang::En => format!("{} and {last}", init.join(", ")),
            Lang::Zh => format!("{} 和 {last}", init.join("、")),
        },
    }
}

/// "step 3", "steps 1, 2 and 3"; "第 3 步", "第 1、2、3 步". None if no step is known.
fn steps(v: &[Option<u32>], lang: Lang) -> Option<String> {
    let known: Vec<String> = v.iter().flatten().map(|s| s.to_string()).collect();
    match (known.len(), lang) {
        (0, _) => None,
        (1, Lang::En) => Some(format!("step {}", known[0])),
        (_, Lang::En) => Some(format!("steps {}", list(&known, Lang::En))),
        (_, Lang::Zh) => Some(format!("第 {} 步", known.join("、"))),
    }
}

fn account_text(a: &Account, g: &JobGraph, bad: BadOutcome, crash: &str, restore: &str, lang: Lang) -> String {
    let name = |t: &TaskId| g.task(*t).name.clone();
    let labels = |rs: &[RecordId]| rs.iter().map(|r| g.label(*r).to_string()).collect::<Vec<_>>();
    let cp = |save: &Save| match save {
        Save::At { checkpoint: Some(c), .. } => say!(lang, " (checkpoint {})", "（检查点 {}）", c.0),
        _ => String::new(),
    };
    let at = |save: &Save| match save {
        Save::At { step: Some(s), .. } => say!(lang, " at step {s}", "在第 {s} 步"),
        Save::At { step: None, .. } => lang.t(" before the schedule began", "在调度开始之前").into(),
        _ => String::new(),
    };
    // In transit and orphans are stories of state (true) or of the output (false).
    let state = bad.judged == Judged::State;
    match a {
        Account::Incomplete { records, channel, task, task_save, took } => {
            let recs = list(&labels(records), lang);
            let many = records.len() > 1;
            let (t, ch) = (name(task), g.channel(*channel).name.clone());
            let verb = if many { lang.t("are incomplete", "不完整") } else { lang.t("is incomplete", "不完整") };
            let they = if many { lang.t("they take", "它们") } else { lang.t("it takes", "它") };
            let took_at = match steps(took, lang) {
                Some(st) => say!(lang, ", and did at {st} before the crash", "，崩溃前也已在{st}生效"),
                None => String::new(),
            };
            let first = say!(
                lang,
                "{recs} {verb}: in the failure-free run {they} effect at {t} from {ch}, a path of the job{took_at}",
                "{recs} {verb}：无故障运行中{they}会经 {ch} 在 {t} 生效（作业的一条路径）{took_at}"
            );
            match task_save {
                None => say!(
                    lang,
                    "{first}; in this schedule that effect never happens.",
                    "{first}；在这个调度中这一效果从未发生。"
                ),
                Some(save) => {
                    let saved = match save {
                        Save::At { .. } => say!(lang, "{t} saved{}{}", "{t} {}保存了状态{}", at(save), cp(save)),
                        Save::NotYet => say!(lang, "{t} had not saved", "{t} 还没有保存过"),
                        Save::NoCheckpoint => say!(lang, "no checkpoint had completed", "还没有检查点完成"),
                        Save::NoSnapshots => say!(lang, "{t} keeps no snapshot", "{t} 不保存快照"),
                    };
                    let back = match save {
                        Save::At { .. } => say!(lang, "gives {t} that save", "把 {t} 恢复到那份保存"),
                        _ => say!(lang, "starts {t} from nothing", "让 {t} 从空状态重新开始"),
                    };
                    say!(
                        lang,
                        "{first}; {saved}; the cluster crashed at step {crash}; the restore at step {restore} {back}, and nothing brings {} along {ch} again: that path lost {}.",
                        "{first}；{saved}；集群在第 {crash} 步崩溃；第 {restore} 步的恢复{back}，之后再也没有谁经 {ch} 把{}送来：这条路径丢失了{}。",
                        if many { lang.t("them", "它们") } else { recs.as_str() },
                        if many { lang.t("them", "它们") } else { recs.as_str() }
                    )
                }
            }
        }
        Account::OutOfOrder { records, channel, external, task, at: at_steps, after, task_save } => {
            let (t, ch) = (name(task), g.channel(*channel).name.clone());
            let where_ = if *external {
                say!(lang, "in what a reader sees of {t}'s rows from {ch}", "在读者看到的 {t} 经 {ch} 写出的行中")
            } else {
                say!(lang, "at {t} on {ch}", "在 {t}（经 {ch}）")
            };
            let parts: Vec<String> = records
                .iter()
                .zip(at_steps.iter().zip(after))
                .map(|(r, (s, newer))| {
                    let rl = g.label(*r);
                    let when = s.map_or(String::new(), |s| say!(lang, " at step {s}", "在第 {s} 步"));
                    match newer {
                        Some((n, ns)) if n == r => {
                            let first = ns.map_or(String::new(), |s| say!(lang, " at step {s}", "在第 {s} 步"));
                            say!(
                                lang,
                                "{rl} took effect{when} after it had already taken effect{first}",
                                "{rl} {when}生效，而它此前已{first}生效过一次"
                            )
                        }
                        Some((n, ns)) => {
                            let first = ns.map_or(String::new(), |s| say!(lang, " at step {s}", "在第 {s} 步"));
                            say!(
                                lang,
                                "{rl} took effect{when} after {}, a later record of the same source, had{first}",
                                "{rl} {when}生效，而同一来源中更晚的 {} 已{first}生效",
                                g.label(*n)
                            )
                        }
                        None => {
                            say!(lang, "{rl} took effect{when} after a newer record", "{rl} {when}在更新的记录之后生效")
                        }
                    }
                })
                .collect();
            let saved = match task_save {
                Some(save @ Save::At { .. }) if !*external => {
                    say!(
                        lang,
                        "; {t} saved{}{}, after the earlier effect",
                        "；{t} {}保存了状态{}，在较早的效果之后",
                        at(save),
                        cp(save)
                    )
                }
                _ => String::new(),
            };
            let restore_clause = match (crash.is_empty(), lang) {
                (true, _) => String::new(),
                (false, Lang::En) => format!(
                    "{saved}; the cluster crashed at step {crash}, and the restore at step {restore} kept that earlier effect at {t} while the record came along {ch} again"
                ),
                (false, Lang::Zh) => {
                    format!("{saved}；集群在第 {crash} 步崩溃，第 {restore} 步的恢复保留了 {t} 上那个较早的效果，而这条记录又经 {ch} 来了一次")
                }
            };
            say!(
                lang,
                "Out of order {where_}: {}{restore_clause}.",
                "{where_}乱序：{}{restore_clause}。",
                parts.join(lang.t("; ", "；"))
            )
        }
        Account::Dropped { records, task, dropped, behind_barrier } => {
            let recs = list(&labels(records), lang);
            let many = records.len() > 1;
            let spaced = format!(" {recs} ");
            let them = match (many, lang) {
                (true, _) => lang.t("them", "它们"),
                (false, Lang::En) => recs.as_str(),
                (false, Lang::Zh) => spaced.as_str(),
            };
            let t = name(task);
            let at_steps = steps(dropped, lang).map_or(String::new(), |st| say!(lang, " at {st}", "在{st}"));
            let mut barriers: Vec<(u32, ChannelId)> = behind_barrier.iter().flatten().copied().collect();
            barriers.dedup();
            let each: Vec<String> = barriers
                .iter()
                .map(|(s, c)| say!(lang, "on {} at step {s}", "第 {s} 步经 {} 到达", g.channel(*c).name))
                .collect();
            let verb = if many { lang.t("are lost", "丢失了") } else { lang.t("is lost", "丢失了") };
            say!(
                lang,
                "{recs} {verb}: {t} dropped {them}{at_steps}, behind the checkpoint's barrier, which had come {}: this handler drops what comes on an input after its barrier until the last barrier, and nothing sends {them} again.",
                "{recs} {verb}：{t} {at_steps}丢弃了{them}，它们排在检查点屏障之后（屏障{}）：这个处理器会丢弃输入上屏障之后到达的记录，直到最后一个屏障到达，之后再也没有谁重新发送{them}。",
                each.join(lang.t(" and ", "、"))
            )
        }
        Account::Unexplained { records, reflected, expected } => {
            let parts: Vec<String> = records
                .iter()
                .zip(reflected.iter().zip(expected))
                .map(|(r, (n, m))| {
                    say!(
                        lang,
                        "{} is reflected {n} time(s), {m} in the failure-free run",
                        "{} 被反映了 {n} 次，无故障运行中为 {m} 次",
                        g.label(*r)
                    )
                })
                .collect();
            say!(lang, "{}.", "{}。", parts.join(lang.t("; ", "；")))
        }
        Account::InTransit { records, source, source_save, resume, sent, task, task_save, reached } => {
            let recs = list(&labels(records), lang);
            let many = records.len() > 1;
            let spaced = format!(" {recs} ");
            let them = match (many, lang) {
                (true, _) => lang.t("them", "它们"),
                (false, Lang::En) => recs.as_str(),
                (false, Lang::Zh) => spaced.as_str(),
            };
            let verb = match (state, many, lang) {
                (true, false, Lang::En) => "is lost".to_string(),
                (true, true, Lang::En) => "are lost".to_string(),
                (false, false, Lang::En) => "is missing from the output".to_string(),
                (false, true, Lang::En) => "are missing from the output".to_string(),
                (true, _, Lang::Zh) => "丢失了".to_string(),
                (false, _, Lang::Zh) => "没有出现在输出中".to_string(),
            };
            let (s, t) = (name(source), name(task));
            let sent_at = steps(sent, lang).map_or(String::new(), |st| say!(lang, " at {st}", "在{st}"));
            let source_clause = match source_save {
                Save::NoSnapshots => say!(
                    lang,
                    "{s} keeps no snapshot; it had sent {them}{sent_at}",
                    "{s} 不保存快照；它已{sent_at}发送了{them}"
                ),
                _ => say!(
                    lang,
                    "{s} saved offset {resume}{}{}, after sending {them}{sent_at}",
                    "{s} {}保存了偏移量 {resume}{}，此前已{sent_at}发送了{them}",
                    at(source_save),
                    cp(source_save)
                ),
            };
            let arrived = match steps(reached, lang) {
                None => String::new(),
                Some(st) if !many => say!(lang, " at {st}", "（{st}才到达）"),
                Some(_) => {
                    let pairs: Vec<String> = records
                        .iter()
                        .zip(reached)
                        .filter_map(|(r, s)| s.map(|s| say!(lang, "{} at step {s}", "{} 在第 {s} 步", g.label(*r))))
                        .collect();
                    say!(lang, " ({})", "（{}）", pairs.join(lang.t(", ", "，")))
                }
            };
            let (took, without) = (lang.t("reached it", "到达它"), lang.t("a state without", "一个不含"));
            let they = if many { lang.t("they", "它们") } else { them };
            let written = steps(reached, lang);
            let task_clause = match (state, task_save) {
                (false, _) => match (written, lang) {
                    (None, Lang::En) => format!("{t} had not written {them}"),
                    (None, Lang::Zh) => format!("{t} 还没有写出{them}"),
                    (Some(st), Lang::En) => format!("{t} wrote {them} at {st} into a transaction that never committed"),
                    (Some(st), Lang::Zh) => format!("{t} 在{st}把{them}写入了一个从未提交的事务"),
                },
                (_, Save::At { .. }) => match lang {
                    Lang::En => format!("{t} saved{}{}, before {they} {took}{arrived}", at(task_save), cp(task_save)),
                    Lang::Zh => {
                        format!("{t} {}保存了状态{}，那时{them}还没有{took}{arrived}", at(task_save), cp(task_save))
                    }
                },
                (_, Save::NotYet) => say!(lang, "{t} had not saved", "{t} 还没有保存过"),
                (_, Save::NoCheckpoint) => say!(lang, "no checkpoint had completed", "还没有检查点完成"),
                (_, Save::NoSnapshots) => say!(lang, "{t} keeps no snapshot", "{t} 不保存快照"),
            };
            let restored_task = match (state, lang) {
                (true, Lang::En) => format!("gives {t} {without} {them}"),
                (true, Lang::Zh) => format!("并给了 {t} {without}{them}的状态"),
                (false, Lang::En) => format!("{t} never writes {them}"),
                (false, Lang::Zh) => format!("{t} 再也不会写出{them}"),
            };
            let closing = match (source_save, many, lang) {
                (Save::NoSnapshots, _, Lang::En) => format!("no snapshot holds {them}"),
                (Save::NoSnapshots, _, Lang::Zh) => format!("没有任何快照保存{them}"),
                (_, true, Lang::En) => "they were in transit across the cut".into(),
                (_, false, Lang::En) => "it was in transit across the cut".into(),
                (_, _, Lang::Zh) => format!("{them}在切面上处于在途状态"),
            };
            match lang {
                Lang::En => format!(
                    "{recs} {verb}: {source_clause}; {task_clause}; the cluster crashed at step {crash}; the restore at step {restore} resumes {s} after {them} and {restored_task}: {closing}."
                ),
                Lang::Zh => format!(
                    "{recs} {verb}：{source_clause}；{task_clause}；集群在第 {crash} 步崩溃；第 {restore} 步的恢复让 {s} 从{them}之后继续读取，{restored_task}：{closing}。"
                ),
            }
        }
        Account::Orphans {
            records,
            source,
            source_save,
            resume,
            sent,
            task,
            task_save,
            reached,
            behind_barrier,
            replayed,
            sent_again,
            reached_again,
        } => {
            let recs = list(&labels(records), lang);
            let many = records.len() > 1;
            let spaced = format!(" {recs} ");
            let them = match (many, lang) {
                (true, _) => lang.t("them", "它们"),
                (false, Lang::En) => recs.as_str(),
                (false, Lang::Zh) => spaced.as_str(),
            };
            let (s, t) = (name(source), name(task));
            let verb = match (state, many, lang) {
                (true, false, Lang::En) => "is counted twice",
                (true, true, Lang::En) => "are counted twice",
                (false, false, Lang::En) => "is written twice",
                (false, true, Lang::En) => "are written twice",
                (true, _, Lang::Zh) => "被重复计入",
                (false, _, Lang::Zh) => "被重复写出",
            };
            let at_steps =
                |v: &[Option<u32>]| steps(v, lang).map_or(String::new(), |st| say!(lang, " at {st}", "在{st}"));
            // Behind which barriers the records came: "behind the barrier that came on
            // Right->Count at step 8".
            let mut barriers: Vec<(u32, ChannelId)> = behind_barrier.iter().flatten().copied().collect();
            barriers.dedup();
            let behind = match barriers.as_slice() {
                [] => String::new(),
                bs => {
                    let each: Vec<String> = bs
                        .iter()
                        .map(|(s, c)| say!(lang, "on {} at step {s}", "第 {s} 步经 {} 到达", g.channel(*c).name))
                        .collect();
                    say!(
                        lang,
                        ", behind the checkpoint's barrier, which had come {}: the snapshot counts a record that came after its barrier",
                        "，排在检查点屏障之后（屏障{}）：快照计入了在屏障之后到达的记录",
                        each.join(lang.t(" and ", "、"))
                    )
                }
            };
            let task_clause = match (state, lang) {
                (true, Lang::En) => {
                    let they = if many { "they" } else { them };
                    format!(
                        "{t} saved{}{}, after {they} reached it{}{behind}",
                        at(task_save),
                        cp(task_save),
                        at_steps(reached)
                    )
                }
                (true, Lang::Zh) => {
                    format!(
                        "{t} {}保存了状态{}，此前{them}已{}到达它{behind}",
                        at(task_save),
                        cp(task_save),
                        at_steps(reached)
                    )
                }
                (false, Lang::En) => format!("{t} wrote {them}{}", at_steps(reached)),
                (false, Lang::Zh) => format!("{t} 已{}写出{them}", at_steps(reached)),
            };
            let source_clause = match source_save {
                Save::At { .. } => say!(
                    lang,
                    "{s} saved offset {resume}{}{}, before sending {them}{}",
                    "{s} {}保存了偏移量 {resume}{}，那时还没有发送{them}（{}才发送）",
                    at(source_save),
                    cp(source_save),
                    at_steps(sent)
                ),
                Save::NotYet => say!(lang, "{s} had not saved", "{s} 还没有保存过"),
                Save::NoCheckpoint => say!(lang, "no checkpoint had completed", "还没有检查点完成"),
                Save::NoSnapshots => say!(lang, "{s} keeps no snapshot", "{s} 不保存快照"),
            };
            let again = match (state, lang) {
                (true, Lang::En) => format!("{t} counts {them} again{}", at_steps(reached_again)),
                (true, Lang::Zh) => format!("{t} {}再次计入{them}", at_steps(reached_again)),
                (false, Lang::En) => format!("{t} writes {them} again{}", at_steps(reached_again)),
                (false, Lang::Zh) => format!("{t} {}再次写出{them}", at_steps(reached_again)),
            };
            let how = match (replayed, bad.judged, lang) {
                (true, _, Lang::En) => {
                    format!("replays {them} from the in-flight data stored with the checkpoint: {again}")
                }
                (true, _, Lang::Zh) => format!("从检查点保存的在途数据中重放{them}：{again}"),
                (false, _, Lang::En) => {
                    format!(
                        "resumes {s} at offset {resume}: {s} sends {them} again{} and {again}",
                        at_steps(sent_again)
                    )
                }
                (false, _, Lang::Zh) => {
                    format!("让 {s} 从偏移量 {resume} 继续读取：{s} {}再次发送{them}，{again}", at_steps(sent_again))
                }
            };
            let keeps = match (state, lang) {
                (true, Lang::En) => format!("gives {t} a state that counts {them} and "),
                (true, Lang::Zh) => format!("给了 {t} 一个已经计入{them}的状态，并"),
                (false, Lang::En) => String::new(),
                (false, Lang::Zh) => String::new(),
            };
            let orphan = match (state, many, lang) {
                (true, false, Lang::En) => "it was an orphan of the cut".to_string(),
                (true, true, Lang::En) => "they were orphans of the cut".to_string(),
                (true, _, Lang::Zh) => format!("{them}是切面上的孤儿消息"),
                (false, _, Lang::En) => format!("the external system keeps what {t} wrote before the crash"),
                (false, _, Lang::Zh) => format!("外部系统保留了 {t} 在崩溃前写出的内容"),
            };
            match lang {
                Lang::En => format!(
                    "{recs} {verb}: {task_clause}; {source_clause}; the cluster crashed at step {crash}; the restore at step {restore} {keeps}{how}: {orphan}."
                ),
                Lang::Zh => format!(
                    "{recs} {verb}：{task_clause}；{source_clause}；集群在第 {crash} 步崩溃；第 {restore} 步的恢复{keeps}{how}：{orphan}。"
                ),
            }
        }
    }
}
