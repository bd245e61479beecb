//! Where the learner stands in a quiz set: its seed, the questions answered so far and whether
//! each was right, the options ticked on the current one, its grade once submitted, and whether
//! the score is showing. The room draws it; `store.rs` keeps it in the link and the browser.

use crate::classroom::quiz::history::Progress;
use crate::classroom::quiz::{Grade, SET_SIZE};

/// Where the learner stands in the set.
#[derive(Clone, PartialEq)]
pub(super) struct At {
    pub set: u64,
    /// Whether each question answered so far was right.
    pub answers: Vec<bool>,
    pub ticked: Vec<usize>,
    /// The current question's grade, once submitted.
    pub graded: Option<Grade>,
    /// The score is showing.
    pub done: bool,
}

impl At {
    pub fn start(set: u64) -> At {
        At { set, answers: vec![], ticked: vec![], graded: None, done: false }
    }
    pub fn resume(p: Progress) -> At {
        let done = p.answers.len() >= SET_SIZE;
        At { set: p.set, answers: p.answers, ticked: vec![], graded: None, done }
    }
    pub fn index(&self) -> usize {
        self.answers.len() - usize::from(self.graded.is_some())
    }
}

/// How many of these answers were right.
pub(super) fn right_count(a: &[bool]) -> usize {
    a.iter().filter(|&&r| r).count()
}
