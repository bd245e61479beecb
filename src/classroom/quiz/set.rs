//! A set of ten questions from one seed, and its score. The set's seed goes in the link
//! (`#room=quiz&set=N`), so a teacher can give a whole class the same quiz: the seed draws, by the
//! engine's PRNG, one seed per question; the types take turns so that every type is asked. A
//! question seed that gives a trivial instance is passed over for the next one.

use crate::engine::core::rng::Rng;

use super::question::{Kind, Question};

/// Questions in a set.
pub const SET_SIZE: usize = 10;

/// Seeds tried for one question before the type is skipped (the property test shows none ever is).
pub const TRIES: usize = 64;

/// One question of `kind` from `seed`: None if that instance is rejected as trivial.
pub fn generate(kind: Kind, seed: u64) -> Option<Question> {
    let q = match kind {
        Kind::LostOrDuplicated => super::lost_or_duplicated::generate(seed),
        Kind::ConsistentCut => super::consistent_cut::generate(seed),
        Kind::WhichCheckpoint => super::which_checkpoint::generate(seed),
        Kind::AppendSink => super::append_sink::generate(seed),
        Kind::SavepointRestore => super::savepoint_restore::generate(seed),
        Kind::ExactlyOnceStrategy => super::exactly_once_strategy::generate(seed),
        Kind::BackpressureCheckpoint => super::backpressure_checkpoint::generate(seed),
    }?;
    q.non_trivial().then_some(q)
}

#[derive(Clone, Debug, PartialEq)]
pub struct QuizSet {
    pub seed: u64,
    pub questions: Vec<Question>,
}

impl QuizSet {
    /// The set of `seed`: [`SET_SIZE`] questions, the types in turn.
    pub fn new(seed: u64) -> QuizSet {
        let mut rng = Rng::new(seed);
        let mut questions = Vec::with_capacity(SET_SIZE);
        for i in 0..SET_SIZE {
            let kind = Kind::ALL[i % Kind::ALL.len()];
            if let Some(q) = (0..TRIES).find_map(|_| generate(kind, rng.next_u64())) {
                questions.push(q);
            }
        }
        QuizSet { seed, questions }
    }

    /// How many answers were right, of those given (`None`: not answered yet).
    pub fn score(answers: &[Option<bool>]) -> (usize, usize) {
        let given = answers.iter().flatten().count();
        (answers.iter().filter(|a| **a == Some(true)).count(), given)
    }
}
