//! Checking a lesson before it is shared (`barrierscope lesson check FILE`, issue 36), as the
//! built-in lessons are checked: every step is played as a learner would reach it, each claim of
//! what the canvas shows (`"shows"`) is checked against the run's state, and each prediction's
//! expected answer (`"expect"`) against the engine's ledger once revealed. What a reveal's words
//! say is the author's; the expected answer is what the check can hold them to.

use std::collections::BTreeMap;

use super::curriculum;
use super::lessons::{checkpoint_outcome, score, Judge};
use super::progress::{run_for, Progress};
use crate::engine::core::ledger::Verdict;
use crate::engine::Sim;

/// What the check found at one step (counted from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub step: usize,
    /// A problem makes the check fail; a remark does not.
    pub problem: bool,
    pub what: String,
}

/// The run at step `step` of lesson `lesson`, played, with a prediction revealed or not.
pub(crate) fn played(lesson: usize, step: usize, revealed: bool) -> Result<Sim, String> {
    let mut p = Progress::new(lesson);
    p.step = step;
    p.revealed = revealed;
    let run = run_for(&p)?;
    let mut sim = run.start;
    for a in run.actions {
        sim.apply(a, &mut Vec::new()).map_err(|e| format!("{a:?}: {e}"))?;
    }
    Ok(sim)
}

/// Checks lesson `lesson` (its place in [`curriculum::loaded`]): what it finds, in step order.
pub fn check(lesson: usize) -> Vec<Finding> {
    let Some(l) = curriculum::loaded().and_then(|all| all.get(lesson)) else {
        return vec![Finding { step: 0, problem: true, what: format!("no lesson {lesson}") }];
    };
    let mut found = Vec::new();
    for (k, step) in l.steps.iter().enumerate() {
        let mut say = |problem: bool, what: String| found.push(Finding { step: k + 1, problem, what });
        if step.predict.is_some() {
            if let Err(e) = played(lesson, k, false) {
                say(true, format!("does not play up to its prediction: {e}"));
                continue;
            }
        }
        let sim = match played(lesson, k, true) {
            Ok(sim) => sim,
            Err(e) => {
                say(true, format!("does not play: {e}"));
                continue;
            }
        };
        for claim in step.shows {
            if let Err(e) = claim.check(&sim) {
                say(true, format!("the canvas does not show it: {e}"));
            }
        }
        let Some(judge) = step.predict else { continue };
        if let Judge::Checkpoint(id) = judge {
            let outcome = checkpoint_outcome(&sim, id);
            match (outcome, step.expect.and_then(|e| e.completes)) {
                (None, _) => say(true, format!("predicts whether checkpoint {id} completes, but after the reveal it has neither completed nor failed")),
                (Some(_), None) => say(
                    false,
                    "the prediction gives no expected answer (\"expect\": {\"completes\": …}): nothing holds its reveal to the engine".into(),
                ),
                (Some(was), Some(want)) if was != want => say(
                    true,
                    format!("the engine's answer differs from \"expect\": checkpoint {id} {}; the file expects it {}",
                        if was { "completes" } else { "fails" }, if want { "completes" } else { "fails" }),
                ),
                _ => {}
            }
            continue;
        }
        // Each judged record and its outcome, as the lesson bar scores a guess.
        let (rows, _) = score(&sim, judge, &BTreeMap::new());
        if rows.is_empty() {
            say(true, "predicts the output a reader sees, but this job writes none (it has no sink)".into());
            continue;
        }
        let Some(expect) = step.expect else {
            say(
                false,
                "the prediction gives no expected answer (\"expect\"): nothing holds its reveal to the engine".into(),
            );
            continue;
        };
        let labels: Vec<&str> = sim.graph.records.iter().map(|r| r.label.as_str()).collect();
        for l in expect.lost.iter().chain(&expect.duplicated) {
            if !labels.contains(&l.as_str()) {
                say(true, format!("\"expect\" names record {l:?}, which this job does not have"));
            }
        }
        let of = |v: Verdict| rows.iter().filter(|(_, _, x)| *x == v).map(|(l, _, _)| l.clone()).collect::<Vec<_>>();
        let sorted = |v: &[String]| {
            let mut v = v.to_vec();
            crate::engine::core::stable_sort::sort_stable_by(&mut v, |a, b| a.cmp(b));
            v
        };
        let (lost, twice) = (sorted(&of(Verdict::Lost)), sorted(&of(Verdict::Duplicated)));
        if lost != sorted(&expect.lost) || twice != sorted(&expect.duplicated) {
            say(
                true,
                format!(
                    "the engine's answer differs from \"expect\": lost {lost:?}, duplicated {twice:?}; the file expects lost {:?}, duplicated {:?}",
                    expect.lost, expect.duplicated
                ),
            );
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in lesson passes, with no remark: each prediction gives its answer.
    #[test]
    fn the_built_in_lessons_pass() {
        for (i, l) in curriculum::builtins().iter().enumerate() {
            assert_eq!(check(i), [], "{}", l.id);
            assert!(l.steps.iter().all(|s| s.predict.is_none() || s.expect.is_some()), "{}", l.id);
        }
    }

    /// A wrong expected answer, a claim that does not hold and a line that is refused are found.
    #[test]
    fn what_is_wrong_is_found() {
        let file = include_str!("../../tests/fixtures/lessons/hand-written.json");
        let i = curriculum::open_file(file).unwrap();
        assert_eq!(check(i), [], "the hand-written lesson passes");
        let wrong = file.replace("\"duplicated\": [\"c\"]", "\"duplicated\": []");
        assert_ne!(wrong, file);
        let i = curriculum::open_file(&wrong).unwrap();
        let f = check(i);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].problem && f[0].what.starts_with("the engine's answer differs"), "{f:?}");
        let claim = file.replace("{\"pending\": 1}", "{\"pending\": 2}");
        assert_ne!(claim, file);
        let f = check(curriculum::open_file(&claim).unwrap());
        assert!(f.len() == 1 && f[0].what.starts_with("the canvas does not show it: Pending(2)"), "{f:?}");
        let refused = file.replace("\"restore\", \"end\"", "\"end\", \"restore\"");
        assert_ne!(refused, file);
        let f = check(curriculum::open_file(&refused).unwrap());
        assert!(f.iter().any(|x| x.problem && x.what.contains("does not play")), "{f:?}");
    }
}
