//! The batch ledger: every output record exactly once. The model is the failure-free run of the
//! same job: each of its output records (a word and its count) must be in the written output once,
//! with the same count, whatever failed on the way. A batch job can promise this simply because it
//! can run again: its input is still in reliable storage, and a task's output counts only when the
//! task finishes (a committed file, a registered shuffle output, a written result partition).

use serde::Serialize;

use super::data::Rec;

/// One output record's fate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BatchVerdict {
    /// Written once, with the failure-free count.
    ExactlyOnce,
    /// Not written yet; the job is still running.
    Pending,
    /// Not written, and the job is done.
    Lost,
    /// Written more than once.
    Duplicated,
    /// Written once, with another count.
    Wrong,
}

impl BatchVerdict {
    pub fn id(self) -> &'static str {
        match self {
            BatchVerdict::ExactlyOnce => "exactly-once",
            BatchVerdict::Pending => "pending",
            BatchVerdict::Lost => "lost",
            BatchVerdict::Duplicated => "duplicated",
            BatchVerdict::Wrong => "wrong",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchRow {
    pub key: String,
    pub expected: u64,
    /// The counts written for this key, one per time it was written.
    pub written: Vec<u64>,
    pub verdict: BatchVerdict,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchLedger {
    pub rows: Vec<BatchRow>,
    /// Written records the failure-free run does not have.
    pub extra: Vec<Rec>,
    pub done: bool,
}

impl BatchLedger {
    /// Judges `written` against `expected` (the failure-free output).
    pub fn new(expected: &[Rec], written: &[Rec], done: bool) -> BatchLedger {
        let rows = expected
            .iter()
            .map(|e| {
                let written: Vec<u64> = written.iter().filter(|w| w.key == e.key).map(|w| w.n).collect();
                let verdict = match written.as_slice() {
                    [] if done => BatchVerdict::Lost,
                    [] => BatchVerdict::Pending,
                    [n] if *n == e.n => BatchVerdict::ExactlyOnce,
                    [_] => BatchVerdict::Wrong,
                    _ => BatchVerdict::Duplicated,
                };
                BatchRow { key: e.key.clone(), expected: e.n, written, verdict }
            })
            .collect();
        let extra = written.iter().filter(|w| !expected.iter().any(|e| e.key == w.key)).cloned().collect();
        BatchLedger { rows, extra, done }
    }

    /// Whether the job is done with every record exactly once and nothing else written.
    pub fn exactly_once(&self) -> bool {
        self.done && self.extra.is_empty() && self.rows.iter().all(|r| r.verdict == BatchVerdict::ExactlyOnce)
    }

    pub fn count(&self, v: BatchVerdict) -> usize {
        self.rows.iter().filter(|r| r.verdict == v).count()
    }
}
