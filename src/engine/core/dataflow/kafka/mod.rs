//! The Kafka sink's external system: one topic partition on a broker that outlives every crash of
//! the job, after Flink's `KafkaSink` (flink-connector-kafka: `KafkaWriter` /
//! `ExactlyOnceKafkaWriter`, `KafkaCommitter`, `TransactionalIdFactory`,
//! `TransactionAbortStrategyImpl`) and Kafka's transactions (KIP-98). One concept a file:
//! - `broker.rs`: the broker itself, and what it keeps of each transaction and zombie;
//! - `producer.rs`: a transactional producer, its `transactional.id` and epoch;
//! - `topic_log.rs`: the partition log with its transaction markers and the last stable offset;
//! - `transaction_coordinator.rs`: `initTransactions`, fencing, `EndTxn`, the timeout;
//! - `readers.rs`: a `read_committed` and a `read_uncommitted` consumer;
//! - `faults.rs`: the faults of the learner's (a zombie, the broker's clock);
//! - `events.rs`, `wording.rs`: what happens, in both languages;
//! - `verdict.rs`: each record as each reader saw it, and why a record is lost;
//! - `writer.rs`: the sink's side, on the run (writes, pre-commit, commit, recovery).
//!
//! Under exactly-once the sink's transactions are the external system's two-phase-commit
//! transactions (`ExternalSystem::txns`, their rows and status), and this broker keeps what Kafka
//! adds to them: who wrote each (transactional id, producer id, epoch), the log, the coordinator,
//! the readers, the zombies and the broker's clock.

pub mod broker;
pub mod events;
pub mod faults;
pub mod producer;
pub mod readers;
pub mod topic_log;
pub mod transaction_coordinator;
pub mod verdict;
pub mod wording;
pub mod writer;

pub use broker::{Ending, KafkaBroker, KafkaTxn, Zombie};
