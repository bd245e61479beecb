//! The Kafka sink's narration, English and Chinese: producers and epochs, timeouts, failed
//! commits, fenced writes, zombies and the broker's clock.

use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::dataflow::kafka::events::KafkaEvent;
use crate::engine::core::dataflow::kafka::producer::TransactionalId;
use crate::engine::core::dataflow::kafka::transaction_coordinator::Refusal;
use crate::engine::core::lang::{say, Lang};

pub fn narrate(e: &KafkaEvent, g: &JobGraph, lang: Lang) -> String {
    let t = |id| g.task(id).name.as_str();
    let tid = |task, checkpoint: u32| TransactionalId { task, checkpoint: checkpoint as u64 }.name(g);
    match *e {
        KafkaEvent::ProducerInitialized { task, checkpoint, producer_id, epoch, aborted, probing } => {
            let id = tid(task, checkpoint);
            let fenced = match aborted {
                Some(x) => say!(
                    lang,
                    "; its transaction T{} in progress is aborted and the older producer fenced",
                    "；其进行中的事务 T{} 被中止，旧的生产者被隔离",
                    x.0
                ),
                None => String::new(),
            };
            let why = if probing {
                lang.t(" (aborting lingering transactions)", "（中止遗留的事务）")
            } else {
                ""
            };
            say!(
                lang,
                "{} called initTransactions for {id}{why}: producer id {producer_id}, epoch {epoch}{fenced}.",
                "{} 为 {id} 调用 initTransactions{why}：生产者 id {producer_id}，epoch {epoch}{fenced}。",
                t(task)
            )
        }
        KafkaEvent::TransactionTimedOut { task, txn, checkpoint, rows, at_ms } => {
            let id = tid(task, checkpoint);
            say!(
                lang,
                "The broker aborted transaction T{} ({id}) at {at_ms} ms: it had been open longer than transaction.timeout.ms. Its {rows} row(s) are gone, and its producer is fenced.",
                "broker 在 {at_ms} 毫秒时中止了事务 T{}（{id}）：它打开的时间超过了 transaction.timeout.ms。它的 {rows} 行没了，其生产者被隔离。",
                txn.0
            )
        }
        KafkaEvent::CommitFailed { task, txn, checkpoint, rows, refusal } => {
            let id = tid(task, checkpoint);
            let why = match refusal {
                Refusal::ProducerFenced => "ProducerFencedException",
                Refusal::InvalidTxnState => "InvalidTxnStateException",
            };
            say!(
                lang,
                "{}'s KafkaCommitter could not commit T{} ({id}): {why}. The transaction was already aborted; Flink drops the committable, and its {rows} row(s) are lost although their checkpoint completed.",
                "{} 的 KafkaCommitter 无法提交 T{}（{id}）：{why}。该事务已被中止；Flink 丢弃这个待提交项，它的 {rows} 行丢失了，尽管其检查点已完成。",
                t(task),
                txn.0
            )
        }
        KafkaEvent::WriteFenced { task, record, zombie } => {
            let who = if zombie { lang.t("The zombie of ", "僵尸 ") } else { "" };
            let then = if zombie {
                lang.t("it stops writing.", "它停止写入。")
            } else {
                lang.t("the task fails, and the job fails over.", "任务失败，作业故障转移。")
            };
            say!(
                lang,
                "{who}{}'s write of {} was refused with ProducerFencedException: {then}",
                "{who}{} 写入 {} 被拒绝（ProducerFencedException）：{then}",
                t(task),
                g.label(record)
            )
        }
        KafkaEvent::CutOff { task, holds } => say!(
            lang,
            "{} is cut off from the JobManager, which fails it over; its process goes on as a zombie, with {holds} record(s) still to write.",
            "{} 与 JobManager 断开，JobManager 对它做了故障转移；它的进程仍在运行，成为僵尸，还有 {holds} 条记录要写。",
            t(task)
        ),
        KafkaEvent::ZombieWrote { task, record, txn: Some(txn) } => say!(
            lang,
            "The zombie of {} wrote {} into its transaction T{}.",
            "{} 的僵尸把 {} 写进了它的事务 T{}。",
            t(task),
            g.label(record),
            txn.0
        ),
        KafkaEvent::ZombieWrote { task, record, txn: None } => say!(
            lang,
            "The zombie of {} wrote {} to the topic: a plain write, which no epoch fences.",
            "{} 的僵尸把 {} 写进了主题：普通写入，没有 epoch 能隔离它。",
            t(task),
            g.label(record)
        ),
        KafkaEvent::TimePassed { ms, now_ms } => say!(
            lang,
            "{ms} ms passed on the broker's clock; it reads {now_ms} ms.",
            "broker 的时钟过去了 {ms} 毫秒；现在是 {now_ms} 毫秒。"
        ),
    }
}
