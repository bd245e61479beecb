//! The Kafka sink on the run, after flink-connector-kafka's `KafkaWriter` and
//! `ExactlyOnceKafkaWriter`, `KafkaCommitter` and `TransactionAbortStrategyImpl.PROBING`:
//! - a write goes through the subtask's producer: under exactly-once into the transaction of
//!   `prefix-subtask-N` (N: the checkpoint after the last one it snapshotted); under at-least-once
//!   as a plain record, visible at once;
//! - at the barrier of checkpoint N the writer pre-commits (`prepareCommit`: the committable is the
//!   transactional id, producer id and epoch) and calls `initTransactions` for `prefix-subtask-N+1`;
//! - the committer commits when the notification arrives, and on recovery
//!   (`resumeTransaction` + `commitTransaction`); a refusal (the broker already aborted it, by its
//!   timeout or a fence) drops the committable: the rows are lost;
//! - a restarted writer aborts lingering transactions by probing: `initTransactions` on
//!   `prefix-subtask-(restored+1)`, `+2`, ... until an id the broker never saw, which fences every
//!   zombie and aborts every transaction left open; then it starts on `prefix-subtask-(restored+1)`.
//!
//! Every entry from the run is `#[cold]` and out of line: a run without a Kafka sink keeps its hot
//! path (a delivery, a step's end) as it was.

use crate::engine::core::action::{CrashScope, Event};
use crate::engine::core::dataflow::external_system::{Txn, TxnStatus};
use crate::engine::core::dataflow::kafka::broker::{Ending, KafkaBroker, KafkaTxn, Zombie};
use crate::engine::core::dataflow::kafka::events::KafkaEvent;
use crate::engine::core::dataflow::kafka::faults::KafkaFault;
use crate::engine::core::dataflow::kafka::producer::{Producer, TransactionalId};
use crate::engine::core::dataflow::kafka::topic_log::Entry;
use crate::engine::core::dataflow::record::{Item, Record};
use crate::engine::core::dataflow::row::Row;
use crate::engine::core::dataflow::state::OpState;
use crate::engine::core::ids::{CheckpointId, TaskId, TxnId};
use crate::engine::core::sim::Sim;
use crate::engine::settings::kafka::DeliveryGuarantee;

impl Sim {
    /// The broker, made when first asked for.
    fn broker(&mut self) -> &mut KafkaBroker {
        self.durable.external.kafka.get_or_insert_with(Box::default)
    }

    /// The broker's clock now.
    pub fn broker_now(&self) -> u64 {
        let step_ms = self.settings.kafka().step_ms;
        self.durable.external.kafka.as_ref().map_or(self.tick.saturating_mul(step_ms), |b| b.now_ms(self.tick, step_ms))
    }

    fn exactly_once(&self) -> bool {
        self.settings.kafka().delivery_guarantee == DeliveryGuarantee::ExactlyOnce
    }

    /// The end of every step (`sink: kafka`): the coordinator's scan for timed-out transactions
    /// (Kafka scans every `transaction.abort.timed.out.transaction.cleanup.interval.ms`; here,
    /// every step), a running writer whose producer the broker fenced fails (the send callback's
    /// `ProducerFencedException`, rethrown by `KafkaWriter`), and the readers poll.
    #[cold]
    #[inline(never)]
    pub(crate) fn kafka_step_end(&mut self, out: &mut Vec<Event>) {
        self.kafka_scan(out);
        if self.live.down.is_none() && self.exactly_once() {
            let fenced = (0..self.live.kafka_writers.len()).map(|t| TaskId(t as u16)).find(|&t| {
                let writer = self.live.kafka_writers[t.index()];
                self.task_up(t) && writer.is_some_and(|p| self.broker().coordinator.check(p).is_err())
            });
            if let Some(t) = fenced {
                self.crash(CrashScope::Task(t), out);
            }
        }
        let tick = self.tick;
        self.broker().poll(tick);
    }

    /// The coordinator's scan for timed-out transactions.
    fn kafka_scan(&mut self, out: &mut Vec<Event>) {
        let now = self.broker_now();
        let timeout_ms = self.settings.kafka().transaction_timeout_ms;
        for (txn, producer, at_ms) in self.broker().coordinator.abort_timed_out(now, timeout_ms) {
            let broker = self.broker();
            broker.txns[txn.index()].ended = Some((Ending::TimedOut, at_ms));
            broker.log.append(at_ms, Entry::Marker { producer, txn, commit: false });
            let x = self.durable.external.txn_mut(txn);
            x.status = TxnStatus::Aborted;
            let (task, rows) = (x.sink, x.rows.len() as u32);
            let checkpoint = producer.id.checkpoint as u32;
            out.push(Event::Kafka(KafkaEvent::TransactionTimedOut { task, txn, checkpoint, rows, at_ms }));
        }
    }

    /// `initTransactions` for `id`; a transaction it aborts is ended as a fence's.
    fn init_producer(&mut self, id: TransactionalId, probing: bool, out: &mut Vec<Event>) -> Producer {
        let now = self.broker_now();
        let (producer, aborted) = self.broker().coordinator.init_transactions(id);
        let (task, checkpoint, producer_id, epoch) =
            (id.task, id.checkpoint as u32, producer.producer_id, producer.epoch);
        out.push(Event::Kafka(KafkaEvent::ProducerInitialized {
            task,
            checkpoint,
            producer_id,
            epoch,
            aborted,
            probing,
        }));
        if let Some(txn) = aborted {
            self.end_on_broker(txn, producer, false, Ending::AbortedByInit, now);
            let x = self.durable.external.txn_mut(txn);
            x.status = TxnStatus::Aborted;
            out.push(Event::TxnAborted { task: x.sink, txn, rows: x.rows.len() as u32 });
        }
        producer
    }

    fn end_on_broker(&mut self, txn: TxnId, producer: Producer, commit: bool, how: Ending, now: u64) {
        let broker = self.broker();
        broker.txns[txn.index()].ended = Some((how, now));
        broker.log.append(now, Entry::Marker { producer, txn, commit });
    }

    /// The writer's producer of sink task `t`, initialized for the checkpoint after its last.
    fn writer(&mut self, t: TaskId, out: &mut Vec<Event>) -> Producer {
        if let Some(p) = self.live.kafka_writers.get(t.index()).copied().flatten() {
            return p;
        }
        let checkpoint = self.live.tasks[t.index()].last_checkpoint.map_or(0, |c| c.0) + 1;
        let p = self.init_producer(TransactionalId { task: t, checkpoint }, false, out);
        self.set_writer(t, Some(p));
        p
    }

    fn set_writer(&mut self, t: TaskId, p: Option<Producer>) {
        let n = self.graph.tasks.len();
        let writers = &mut self.live.kafka_writers;
        writers.resize(n, None);
        writers[t.index()] = p;
    }

    /// Appends a record to the log (and, without a transaction, to what readers see at once).
    fn append_record(&mut self, row: Row, producer: Option<Producer>, txn: Option<TxnId>) {
        if txn.is_none() {
            self.durable.external.appended.push(row);
        }
        let now = self.broker_now();
        self.broker().log.append(now, Entry::Record { row, producer, txn });
    }

    /// The job starts: under exactly-once each sink subtask's writer initializes its first
    /// transactional id, `prefix-subtask-1` (`ExactlyOnceKafkaWriter` starts on the checkpoint
    /// after the last, none).
    #[cold]
    #[inline(never)]
    pub(crate) fn kafka_start(&mut self) {
        if !self.exactly_once() {
            return;
        }
        let mut ignored = vec![];
        let sinks: Vec<TaskId> = (0..self.graph.tasks.len())
            .map(|t| TaskId(t as u16))
            .filter(|t| matches!(self.live.tasks[t.index()].state, OpState::Sink { .. }))
            .collect();
        for t in sinks {
            self.writer(t, &mut ignored);
        }
    }

    /// The sink's write under `sink: kafka`.
    #[cold]
    #[inline(never)]
    pub(crate) fn kafka_write(&mut self, t: TaskId, row: Row, out: &mut Vec<Event>) {
        if !self.exactly_once() {
            self.append_record(row, None, None);
            out.push(Event::SinkWrite { task: t, record: row.record, txn: None, overwrote: false });
            return;
        }
        let producer = self.writer(t, out);
        match self.producer_write(t, producer, row, false) {
            Some(txn) => {
                let OpState::Sink { open, .. } = &mut self.live.tasks[t.index()].state else { unreachable!() };
                *open = Some(txn);
                out.push(Event::SinkWrite { task: t, record: row.record, txn: Some(txn), overwrote: false });
            }
            // Fenced: the record is not written, and the end of the step fails the task
            // (`kafka_step_end`).
            None => out.push(Event::Kafka(KafkaEvent::WriteFenced { task: t, record: row.record, zombie: false })),
        }
    }

    /// A transactional write of `producer`: the transaction it went into, or None if fenced.
    fn producer_write(&mut self, t: TaskId, producer: Producer, row: Row, zombie: bool) -> Option<TxnId> {
        let now = self.broker_now();
        let next = TxnId(self.durable.external.txns.len() as u32);
        let txn = self.broker().coordinator.write(producer, next, now).ok()?;
        if txn == next {
            self.durable.external.txns.push(Txn { id: txn, sink: t, rows: vec![], status: TxnStatus::Open });
            let info =
                KafkaTxn { producer, began_ms: now, ended: None, pre_committed: None, commit_failed: None, zombie };
            self.broker().txns.push(info);
        }
        if zombie {
            self.broker().txns[txn.index()].zombie = true;
        }
        self.durable.external.txn_mut(txn).rows.push(row);
        self.append_record(row, Some(producer), Some(txn));
        Some(txn)
    }

    /// `prepareCommit` and `snapshotState` at checkpoint `id`: the open transaction (already
    /// marked pre-committed by the two-phase-commit sink) becomes a committable, and the writer
    /// initializes the producer of the next checkpoint's transactional id.
    #[cold]
    #[inline(never)]
    pub(crate) fn kafka_pre_commit(&mut self, t: TaskId, id: CheckpointId, txn: Option<TxnId>, out: &mut Vec<Event>) {
        if !self.exactly_once() {
            return;
        }
        if let Some(txn) = txn {
            self.broker().txns[txn.index()].pre_committed = Some(id);
        }
        let p = self.init_producer(TransactionalId { task: t, checkpoint: id.0 + 1 }, false, out);
        self.set_writer(t, Some(p));
    }

    /// The `KafkaCommitter`'s commit of `txn`, with the committable's producer id and epoch:
    /// true if the broker committed it.
    #[cold]
    #[inline(never)]
    pub(crate) fn kafka_commit(&mut self, t: TaskId, txn: TxnId, out: &mut Vec<Event>) -> bool {
        let now = self.broker_now();
        let producer = self.broker().txns[txn.index()].producer;
        match self.broker().coordinator.end_txn(producer) {
            Ok(ended) => {
                debug_assert_eq!(ended, txn);
                self.end_on_broker(txn, producer, true, Ending::Committed, now);
                true
            }
            Err(refusal) => {
                self.broker().txns[txn.index()].commit_failed = Some(refusal);
                let x = self.durable.external.txn_mut(txn);
                x.status = TxnStatus::Aborted;
                let (rows, checkpoint) = (x.rows.len() as u32, producer.id.checkpoint as u32);
                out.push(Event::Kafka(KafkaEvent::CommitFailed { task: t, txn, checkpoint, rows, refusal }));
                false
            }
        }
    }

    /// A restarted Kafka sink `t` restored to `restored`, after its committables were committed:
    /// it aborts lingering transactions by probing and starts on the restored checkpoint's next id.
    #[cold]
    #[inline(never)]
    pub(crate) fn kafka_recover(&mut self, t: TaskId, restored: Option<CheckpointId>, out: &mut Vec<Event>) {
        self.set_writer(t, None);
        if !self.exactly_once() {
            return;
        }
        let start = restored.map_or(0, |c| c.0) + 1;
        let mut checkpoint = start;
        loop {
            let id = TransactionalId { task: t, checkpoint };
            if self.broker().coordinator.get(id).is_none() {
                break; // an id never used: none after it was either
            }
            self.init_producer(id, true, out);
            checkpoint += 1;
        }
        let p = self.init_producer(TransactionalId { task: t, checkpoint: start }, false, out);
        self.set_writer(t, Some(p));
    }

    /// A fault of the Kafka sink's (checked by `Sim::check`).
    #[cold]
    #[inline(never)]
    pub(crate) fn kafka_fault(&mut self, f: KafkaFault, out: &mut Vec<Event>) {
        match f {
            KafkaFault::CutOff { task } => self.cut_off(task, out),
            KafkaFault::ZombieWrite { task } => self.zombie_write(task, out),
            KafkaFault::PassTime { ms } => {
                self.broker().passed_ms += ms;
                let now_ms = self.broker_now();
                out.push(Event::Kafka(KafkaEvent::TimePassed { ms, now_ms }));
            }
        }
    }

    fn cut_off(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let producer = self.live.kafka_writers.get(t.index()).copied().flatten();
        let txn = match &self.live.tasks[t.index()].state {
            OpState::Sink { open, .. } => *open,
            _ => None,
        };
        let mut holds = vec![];
        for c in &self.graph.task(t).inputs {
            for it in &self.live.channels[c.index()].queue {
                if let Item::Record { rec, .. } = it {
                    holds.push(*rec);
                }
            }
        }
        out.push(Event::Kafka(KafkaEvent::CutOff { task: t, holds: holds.len() as u32 }));
        self.broker().zombies.push(Zombie { task: t, producer, txn, holds, fenced: false });
        self.crash(CrashScope::Task(t), out);
    }

    fn zombie_write(&mut self, t: TaskId, out: &mut Vec<Event>) {
        let exactly_once = self.exactly_once();
        let tick = self.tick;
        let broker = self.broker();
        let can_write =
            |z: &Zombie| z.task == t && !z.fenced && !z.holds.is_empty() && (z.producer.is_some() || !exactly_once);
        let i = broker.zombies.iter().rposition(can_write).expect("checked: a zombie that can write");
        let z = &mut broker.zombies[i];
        let rec: Record = z.holds.remove(0);
        let producer = z.producer;
        let row = Row { record: rec.id, value: rec.value, sink: t, tick };
        if !exactly_once {
            self.append_record(row, None, None);
            out.push(Event::Kafka(KafkaEvent::ZombieWrote { task: t, record: rec.id, txn: None }));
        } else if let Some(txn) = producer.and_then(|p| self.producer_write(t, p, row, true)) {
            self.broker().zombies[i].txn = Some(txn);
            out.push(Event::Kafka(KafkaEvent::ZombieWrote { task: t, record: rec.id, txn: Some(txn) }));
        } else {
            let z = &mut self.broker().zombies[i];
            z.fenced = true;
            z.holds.clear();
            out.push(Event::Kafka(KafkaEvent::WriteFenced { task: t, record: rec.id, zombie: true }));
        }
    }

    /// The zombie of `t` that may still write, if any.
    pub fn zombie(&self, t: TaskId) -> Option<&Zombie> {
        let broker = self.durable.external.kafka.as_ref()?;
        let can_write = |z: &Zombie| z.producer.is_some() || !self.exactly_once();
        broker.zombies.iter().rev().find(|z| z.task == t && !z.fenced && !z.holds.is_empty() && can_write(z))
    }
}
