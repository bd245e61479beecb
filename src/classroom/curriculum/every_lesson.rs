//! What every built-in lesson keeps to: both languages, the agreed shape (four to eight steps, a
//! first step that plays nothing, a prediction at the end of its segment), a play through to the
//! end, and words about the run backed by claims the engine checks.

use super::play::{index, play_all, play_to};
use crate::classroom::curriculum::builtins;
use crate::classroom::lessons::parse_line;
use crate::classroom::lessons::Shows;

#[test]
fn every_lesson_plays_through_and_has_both_languages() {
    assert!(!builtins().is_empty());
    for (i, lesson) in builtins().iter().enumerate() {
        for s in lesson.steps {
            assert!(!s.say.en.is_empty() && !s.say.zh.is_empty(), "{}", lesson.id);
            assert_eq!(s.predict.is_some(), s.reveal.is_some(), "{}", lesson.id);
        }
        play_all(i);
    }
}

/// Words that state something about the run as the canvas shows it (any of these), what they
/// speak of, and which claims back them.
type Spoken = (&'static [&'static str], &'static str, fn(&Shows) -> bool);
const SPOKEN: &[Spoken] = &[
    (&["block"], "blocked channels", |c| matches!(c, Shows::Blocked(_) | Shows::NothingBlocked)),
    (&["complete"], "a completed checkpoint or batch", |c| matches!(c, Shows::Completed(_) | Shows::BatchDone(_))),
    (&["pending", "trigger"], "a checkpoint in progress", |c| {
        matches!(c, Shows::Pending(_) | Shows::NonePending | Shows::Completed(_))
    }),
    (&["backpressure"], "backpressure", |c| matches!(c, Shows::Backpressured(_))),
    (&["fails", "crashes"], "the job down", |c| matches!(c, Shows::Down)),
    (&["nimbus dies", "jobmanager fails", "a fails"], "the master down", |c| matches!(c, Shows::MasterDown)),
    (&["do not notice", "nothing stops"], "a job still running", |c| matches!(c, Shows::Running)),
    (&["leads", "election"], "the leader", |c| matches!(c, Shows::Leader(_) | Shows::MasterDown)),
    (&["its files stay", "go with it", "left in storage"], "what storage holds", |c| matches!(c, Shows::InStorage(_))),
];

#[test]
fn every_step_shows_what_its_words_say() {
    let mut claims = 0;
    for (i, lesson) in builtins().iter().enumerate() {
        for (k, step) in lesson.steps.iter().enumerate() {
            let at = format!("{} step {}", lesson.id, k + 1);
            let sim = play_to(i, k);
            for claim in step.shows {
                claim.check(&sim).unwrap_or_else(|e| panic!("{at}: {e}"));
                claims += 1;
            }
            // A step that plays nothing introduces ideas; a prediction's words are checked
            // against the ledger by the tests below.
            if step.play.is_empty() || step.predict.is_some() {
                continue;
            }
            let words = step.say.en.to_lowercase();
            for (keys, what, backs) in SPOKEN {
                if keys.iter().any(|key| words.contains(key)) {
                    assert!(step.shows.iter().any(backs), "{at} speaks of {what} but claims none: {words}");
                }
            }
        }
    }
    assert!(claims >= 30, "{claims} claims");
}

#[test]
fn a_claim_that_does_not_hold_is_caught() {
    let i = index("alignment");
    let sim = play_to(i, 2);
    assert!(Shows::Blocked("Left->Count".into()).check(&sim).is_ok());
    assert!(Shows::NothingBlocked.check(&sim).is_err());
    assert!(Shows::Completed(1).check(&sim).is_err());
    assert!(Shows::Backpressured("Left".into()).check(&sim).is_err());
    assert!(Shows::Down.check(&sim).is_err());
}

#[test]
fn lessons_have_the_agreed_shape() {
    let mut ids = std::collections::BTreeSet::new();
    for (i, lesson) in builtins().iter().enumerate() {
        assert!(ids.insert(lesson.id), "duplicate id {}", lesson.id);
        let n = format!("{}. ", i + 1);
        assert!(lesson.title.en.starts_with(&n) && lesson.title.zh.starts_with(&n), "{}", lesson.id);
        assert!((4..=8).contains(&lesson.steps.len()), "{}: {} steps", lesson.id, lesson.steps.len());
        let first = &lesson.steps[0];
        assert!(first.play.is_empty() && first.restart.is_none() && first.predict.is_none(), "{}", lesson.id);
        for (k, s) in lesson.steps.iter().enumerate() {
            for line in s.play {
                match crate::classroom::lessons::RestoreInto::parse(line) {
                    Some(r) => drop(r.unwrap_or_else(|e| panic!("{}: {e}", lesson.id))),
                    None => drop(parse_line(line).unwrap_or_else(|e| panic!("{}: {e}", lesson.id))),
                }
            }
            for text in [s.say, s.reveal.unwrap_or(s.say)] {
                assert!(!text.en.trim().is_empty() && !text.zh.trim().is_empty(), "{} step {}", lesson.id, k + 1);
            }
            if s.predict.is_some() {
                assert!(!s.play.is_empty(), "{} step {}: a prediction holds back the crash", lesson.id, k + 1);
                // Every segment ends with its prediction.
                let next = lesson.steps.get(k + 1);
                assert!(next.is_none_or(|n| n.restart.is_some()), "{} step {}", lesson.id, k + 1);
            }
        }
        let predictions = lesson.steps.iter().filter(|s| s.predict.is_some()).count();
        let expected = match lesson.id {
            "state" | "draw-a-cut" => 0,
            "sinks" | "master" | "micro-batches" | "changed-program" | "backpressure" => 3,
            _ => 1,
        };
        assert_eq!(predictions, expected, "{}", lesson.id);
        if expected > 0 {
            assert!(lesson.steps.last().unwrap().predict.is_some(), "{}", lesson.id);
        }
    }
    assert_eq!(builtins().len(), 16);
}
