//! The dataflow's narration: a source reads (or a socket loses what no one read), a task processes
//! a record, a sink writes it (appending, upserting, or in a two-phase-commit transaction that is
//! pre-committed, committed or aborted), and time passes.

use crate::engine::core::action::Event;
use crate::engine::core::dataflow::job_graph::{JobGraph, OperatorKind};
use crate::engine::core::ids::{RecordId, TaskId};
use crate::engine::core::lang::{say, Lang};

pub(super) fn narrate(e: &Event, g: &JobGraph, lang: Lang) -> Option<String> {
    let t = |id: TaskId| g.task(id).name.as_str();
    let r = |id: RecordId| g.label(id);
    Some(match *e {
        Event::Read { task, record, offset, replayed } => {
            let (task, rec, key) = (t(task), r(record), g.key_name(g.record(record).key));
            let replay = if replayed {
                lang.t(" — a replay: it had read this record before", "——这是重放：之前读过这条记录")
            } else {
                ""
            };
            say!(
                lang,
                "{task} read {rec} (key {key}) at offset {offset} and sent it on{replay}.",
                "{task} 在偏移量 {offset} 处读取了 {rec}（键 {key}）并发送出去{replay}。"
            )
        }
        Event::SourceExhausted { task } => say!(lang, "{} has read its whole log.", "{} 已读完整个日志。", t(task)),
        Event::Processed { task, record, value, emitted, filtered, .. } => match (value, filtered) {
            (_, true) => say!(
                lang,
                "{} dropped {} (its key is filtered out).",
                "{} 丢弃了 {}（它的键被过滤掉）。",
                t(task),
                r(record)
            ),
            (Some(v), _) => {
                let op = if g.task(task).kind == OperatorKind::Count {
                    lang.t("count", "计数")
                } else {
                    lang.t("sum", "求和")
                };
                let key = g.key_name(g.record(record).key);
                say!(
                    lang,
                    "{} counted {}: {op}({key}) is now {v}.",
                    "{} 计入了 {}：{op}({key}) 现在是 {v}。",
                    t(task),
                    r(record)
                )
            }
            (None, _) if g.task(task).kind == OperatorKind::Sink => {
                say!(lang, "{} received {}.", "{} 收到了 {}。", t(task), r(record))
            }
            (None, _) if emitted == 1 => {
                say!(lang, "{} processed {} and passed it on.", "{} 处理了 {} 并向下游转发。", t(task), r(record))
            }
            (None, _) => say!(
                lang,
                "{} processed {} and passed it on to {emitted} channels.",
                "{} 处理了 {} 并转发到 {emitted} 个下游通道。",
                t(task),
                r(record)
            ),
        },
        Event::SinkWrite { task, record, txn, overwrote } => match txn {
            Some(x) => say!(
                lang,
                "{} wrote {} into open transaction T{} (invisible to readers until commit).",
                "{} 把 {} 写入打开的事务 T{}（提交前读者看不到）。",
                t(task),
                r(record),
                x.0
            ),
            None if overwrote => say!(
                lang,
                "{} upserted {}: the row already existed and was overwritten, not doubled.",
                "{} 幂等写入 {}：该行已存在，被覆盖而不是重复。",
                t(task),
                r(record)
            ),
            None => say!(
                lang,
                "{} wrote {} to the external system; readers see it now.",
                "{} 把 {} 写入外部系统，读者现在就能看到。",
                t(task),
                r(record)
            ),
        },
        Event::TxnPreCommitted { task, txn, checkpoint } => {
            let (task, txn, cp) = (t(task), txn.0, checkpoint.0);
            say!(
                lang,
                "{task} pre-committed transaction T{txn} for checkpoint {cp}; it commits when the notification that the checkpoint completed arrives.",
                "{task} 为检查点 {cp} 预提交了事务 T{txn}；收到检查点已完成的通知时它才提交。"
            )
        }
        Event::TxnCommitted { task, txn, rows } => say!(
            lang,
            "{} committed transaction T{}: {rows} row(s) become visible to readers.",
            "{} 提交了事务 T{}：{rows} 行对读者可见。",
            t(task),
            txn.0
        ),
        Event::TxnAborted { task, txn, rows } => say!(
            lang,
            "{} aborted transaction T{}: its {rows} row(s) are never seen.",
            "{} 中止了事务 T{}：它的 {rows} 行永远不会被看到。",
            t(task),
            txn.0
        ),
        Event::Waited => lang.t("Time passed.", "时间过去了一步。").into(),
        Event::SocketLost { task, from, to } => {
            let gone: Vec<&str> = g.task(task).log[from as usize..to as usize].iter().map(|x| r(*x)).collect();
            say!(
                lang,
                "{} reads a socket, which cannot go back: {} (from offset {from}) are gone for good; it goes on with what arrives next, at offset {to}.",
                "{} 读的是 socket，无法回退：{}（从偏移量 {from} 起）永远丢失了；它从接下来到达的数据继续，偏移量 {to}。",
                t(task),
                gone.join(" ")
            )
        }
        _ => return None,
    })
}
