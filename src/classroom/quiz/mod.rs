//! Quizzes drawn from the engine: random, auto-graded questions in both languages. After
//! VisuAlgo's random quiz generator (each question a fresh instance, graded at once) and the
//! "responding" level of Naps et al., *Exploring the Role of Visualization and Engagement in
//! Computer Science Education* (ITiCSE 2003). No fixed bank: each question is generated from a
//! seed by the engine's own PRNG ([`crate::engine::core::rng::Rng`]), which picks the job, the input,
//! the schedule and the crash; the engine runs it and its verdict is the answer; a question where
//! every option is right, or none is, is rejected and the next seed is drawn.
//!
//! One file per question type, each with `generate(seed) -> Option<Question>` (None: rejected):
//! - `lost_or_duplicated`: after this crash and restore, which records are lost (or duplicated)?
//!   The ledger (`engine::ledger`) grades.
//! - `consistent_cut`: which of these cuts of the space-time diagram is consistent? The drawn-cut
//!   engine (`engine::drawn_cut`) grades.
//! - `exactly_once_strategy`: which strategies give exactly once here, in every schedule? The
//!   schedule explorer (`engine::explorer`) grades.
//! - `which_checkpoint`: which checkpoint does the restore use after the JobManager fails, with
//!   and without high availability? The coordinator and the HA services
//!   (`engine::master_failover`) grade.
//! - `append_sink`: how many times does the append sink show b, under Flink, Storm or Spark
//!   Streaming on the same input and crash? The side-by-side engine (`engine::comparison`) runs
//!   all three, and its ledgers grade.
//! - `savepoint_restore`: will this savepoint restore into this changed program (uids, an
//!   operator inserted or removed, rescaling, max parallelism)? The restore into a changed program
//!   (`engine::rescale`) grades.
//! - `backpressure_checkpoint`: under backpressure, which settings let checkpoint 1 complete within
//!   its timeout (aligned as set, unaligned, debloated buffers, another channel capacity, without
//!   alignment)? Each option's own run and the checkpoint statistics (`engine::jobmanager::stats`)
//!   grade.
//!
//! `question` holds what every type shares (the question, its options, the grading, the
//! replay on the canvas); `set` draws a set of ten from one seed and scores it; `history` reads and
//! writes what the browser keeps of them, and the set's seed in a link.

pub mod append_sink;
pub mod backpressure_checkpoint;
pub mod consistent_cut;
pub mod exactly_once_strategy;
pub mod history;
pub mod lost_or_duplicated;
pub mod question;
pub mod savepoint_restore;
pub mod set;
pub mod which_checkpoint;

pub use question::{Choice, Grade, Kind, Question, Words};
pub use set::{generate, QuizSet, SetDraw, SET_SIZE};
