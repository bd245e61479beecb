//! The broker's transaction coordinator, after Kafka's `TransactionCoordinator` and
//! `TransactionStateManager` (KIP-98): per `transactional.id`, the producer id, the epoch and the
//! transaction in progress.
//! - `initTransactions` (`InitProducerId`): a new id gets a producer id and epoch 0; a known one
//!   has its epoch raised, and its transaction in progress, if any, is aborted: the old producer
//!   (a zombie, or a crashed task's lingering transaction) is fenced.
//! - a write (`AddPartitionsToTxn`, then `Produce`) from a producer whose epoch is not the id's
//!   current one is refused with `ProducerFencedException`; the first write of a producer begins
//!   its transaction, and the transaction's clock starts.
//! - `EndTxn` commits or aborts. A fenced producer's commit fails (`ProducerFencedException`); a
//!   commit with nothing in progress fails as well (`InvalidTxnStateException`).
//! - the timeout: a transaction in progress longer than the producer's `transaction.timeout.ms`
//!   is aborted by the coordinator itself (`abortTimedOutTransactions`), which raises the epoch
//!   so that its producer is fenced.
//!
//! The clock is the broker's, in milliseconds. The coordinator scans for timed-out transactions
//! whenever the broker is asked something or time passes (Kafka scans every
//! `transaction.abort.timed.out.transaction.cleanup.interval.ms`, 10 s by default).

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::kafka::producer::{Producer, TransactionalId};
use crate::engine::core::ids::TxnId;

/// What the coordinator keeps of one transactional id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxnMetadata {
    pub id: TransactionalId,
    pub producer_id: u32,
    pub epoch: u16,
    /// The transaction in progress and the broker time it began, if one is.
    pub ongoing: Option<(TxnId, u64)>,
}

/// Why the broker refused a write or a commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Refusal {
    /// The producer's epoch is older than the id's: another `initTransactions`, or the
    /// coordinator's own abort of a timed-out transaction, fenced it.
    ProducerFenced,
    /// No transaction of that producer is in progress to commit.
    InvalidTxnState,
}

/// The coordinator: every transactional id it has seen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionCoordinator {
    pub ids: Vec<TxnMetadata>,
}

impl TransactionCoordinator {
    pub fn get(&self, id: TransactionalId) -> Option<&TxnMetadata> {
        self.ids.iter().find(|m| m.id == id)
    }
    fn get_mut(&mut self, id: TransactionalId) -> Option<&mut TxnMetadata> {
        self.ids.iter_mut().find(|m| m.id == id)
    }

    /// `initTransactions`: the producer for `id` with its new epoch (0 for an id never used), and
    /// the transaction in progress that this aborted, if any.
    pub fn init_transactions(&mut self, id: TransactionalId) -> (Producer, Option<TxnId>) {
        let next_pid = self.ids.len() as u32;
        match self.get_mut(id) {
            Some(m) => {
                m.epoch += 1;
                let aborted = m.ongoing.take().map(|(t, _)| t);
                (Producer { id, producer_id: m.producer_id, epoch: m.epoch }, aborted)
            }
            None => {
                self.ids.push(TxnMetadata { id, producer_id: next_pid, epoch: 0, ongoing: None });
                (Producer { id, producer_id: next_pid, epoch: 0 }, None)
            }
        }
    }

    /// Is `p` the current producer of its id?
    pub fn check(&self, p: Producer) -> Result<&TxnMetadata, Refusal> {
        match self.get(p.id) {
            Some(m) if m.producer_id == p.producer_id && m.epoch == p.epoch => Ok(m),
            _ => Err(Refusal::ProducerFenced),
        }
    }

    /// A write of `p`: its transaction in progress, or `txn` begun now at `now_ms`.
    pub fn write(&mut self, p: Producer, txn: TxnId, now_ms: u64) -> Result<TxnId, Refusal> {
        self.check(p)?;
        let m = self.get_mut(p.id).expect("checked");
        Ok(m.ongoing.get_or_insert((txn, now_ms)).0)
    }

    /// `EndTxn` from `p` (after `resumeTransaction` on recovery: the committable's producer id
    /// and epoch): the transaction that ends.
    pub fn end_txn(&mut self, p: Producer) -> Result<TxnId, Refusal> {
        self.check(p)?;
        let m = self.get_mut(p.id).expect("checked");
        m.ongoing.take().map(|(t, _)| t).ok_or(Refusal::InvalidTxnState)
    }

    /// `abortTimedOutTransactions`: every transaction in progress for longer than `timeout_ms`
    /// at `now_ms` is aborted and its id's epoch raised; each with the producer that ends it
    /// (the new epoch) and the broker time its timeout fell due.
    pub fn abort_timed_out(&mut self, now_ms: u64, timeout_ms: u64) -> Vec<(TxnId, Producer, u64)> {
        let mut aborted = vec![];
        for m in &mut self.ids {
            if let Some((txn, since)) = m.ongoing {
                if now_ms.saturating_sub(since) > timeout_ms {
                    m.ongoing = None;
                    m.epoch += 1;
                    aborted.push((
                        txn,
                        Producer { id: m.id, producer_id: m.producer_id, epoch: m.epoch },
                        since + timeout_ms,
                    ));
                }
            }
        }
        aborted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::ids::TaskId;

    const ID: TransactionalId = TransactionalId { task: TaskId(2), checkpoint: 1 };

    #[test]
    fn init_transactions_raises_the_epoch_and_fences_the_old_producer() {
        let mut c = TransactionCoordinator::default();
        let (old, none) = c.init_transactions(ID);
        assert_eq!((old.epoch, none), (0, None));
        assert_eq!(c.write(old, TxnId(0), 10), Ok(TxnId(0)));
        let (new, aborted) = c.init_transactions(ID);
        assert_eq!((new.epoch, aborted), (1, Some(TxnId(0))));
        assert_eq!(c.write(old, TxnId(1), 11), Err(Refusal::ProducerFenced));
        assert_eq!(c.end_txn(old), Err(Refusal::ProducerFenced));
        assert_eq!(c.end_txn(new), Err(Refusal::InvalidTxnState));
    }

    #[test]
    fn a_transaction_past_its_timeout_is_aborted_and_its_producer_fenced() {
        let mut c = TransactionCoordinator::default();
        let (p, _) = c.init_transactions(ID);
        c.write(p, TxnId(0), 1000).unwrap();
        assert!(c.abort_timed_out(61_000, 60_000).is_empty(), "exactly the timeout is not past it");
        let gone = c.abort_timed_out(61_001, 60_000);
        assert_eq!(gone.len(), 1);
        assert_eq!((gone[0].0, gone[0].1.epoch, gone[0].2), (TxnId(0), 1, 61_000));
        assert_eq!(c.end_txn(p), Err(Refusal::ProducerFenced));
    }
}
