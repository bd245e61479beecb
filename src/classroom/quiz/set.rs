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

/// A set drawn a piece at a time, as the quiz room draws it in spare moments: each
/// [`step`](SetDraw::step) tries one question seed, or first explores a slice of the schedules a
/// question of type 3 is graded on ([`super::exactly_once_strategy::prepare`]). Its questions are
/// [`QuizSet::new`]'s, in the same order: the same seeds are drawn one after another.
pub struct SetDraw {
    pub set: QuizSet,
    rng: Rng,
    /// The question being drawn (its place in the set), and the seeds tried for it so far.
    index: usize,
    tries: usize,
    /// The seed drawn for the next try, kept while its exploration goes on.
    seed: Option<u64>,
}

impl SetDraw {
    pub fn new(seed: u64) -> SetDraw {
        SetDraw {
            set: QuizSet { seed, questions: Vec::with_capacity(SET_SIZE) },
            rng: Rng::new(seed),
            index: 0,
            tries: 0,
            seed: None,
        }
    }

    /// Every question is drawn.
    pub fn done(&self) -> bool {
        self.index >= SET_SIZE
    }

    /// One piece of the drawing, exploring at most `budget` states: true while work is left.
    pub fn step(&mut self, budget: usize) -> bool {
        if self.done() {
            return false;
        }
        let kind = Kind::ALL[self.index % Kind::ALL.len()];
        let seed = *self.seed.get_or_insert_with(|| self.rng.next_u64());
        if kind == Kind::ExactlyOnceStrategy && !super::exactly_once_strategy::prepare(seed, budget) {
            return true;
        }
        self.seed = None;
        self.tries += 1;
        let question = generate(kind, seed);
        if question.is_some() || self.tries == TRIES {
            self.set.questions.extend(question);
            self.index += 1;
            self.tries = 0;
        }
        !self.done()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct QuizSet {
    pub seed: u64,
    pub questions: Vec<Question>,
}

impl QuizSet {
    /// The set of `seed`: [`SET_SIZE`] questions, the types in turn.
    pub fn new(seed: u64) -> QuizSet {
        let mut draw = SetDraw::new(seed);
        while draw.step(usize::MAX) {}
        draw.set
    }

    /// How many answers were right, of those given (`None`: not answered yet).
    pub fn score(answers: &[Option<bool>]) -> (usize, usize) {
        let given = answers.iter().flatten().count();
        (answers.iter().filter(|a| **a == Some(true)).count(), given)
    }
}
