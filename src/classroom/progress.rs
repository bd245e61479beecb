//! Where a learner stands in a lesson ([`Progress`]: the step, whether a prediction is revealed,
//! the marks made), and the run that stands there ([`actions_for`]).

use std::collections::BTreeMap;

use super::curriculum;
use super::lessons::{play_lines, Lesson, OnDiagram, RestoreInto, Step};
use super::program_change::ProgramChange;
use super::run_config::RunConfig;
use crate::engine::core::ledger::Verdict;
use crate::engine::{Action, Sim};

/// Where a learner stands in a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub lesson: usize,
    pub step: usize,
    /// On a predict step: has the learner revealed?
    pub revealed: bool,
    /// The learner's marks by record label. A record starts unmarked (no entry): the reveal
    /// waits until every record is marked, and an unmarked record never scores.
    pub predictions: BTreeMap<String, Verdict>,
    /// On a checkpoint's prediction: the learner's guess, completes (true) or fails (false).
    pub checkpoint_guess: Option<bool>,
    /// On a step where the learner draws cuts (`OnDiagram::Draw`): each cut checked so far, with
    /// the prediction made before the check. Not saved in links or files.
    pub cuts: Vec<CutAttempt>,
}

/// One cut the learner drew and checked on a drawing step: its point on each task line, what the
/// learner predicted before the check, and what the check found (`engine::drawn_cut::classify`,
/// run by the space-time room, which holds that code).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CutAttempt {
    pub points: Vec<u64>,
    /// The prediction: consistent?
    pub predicted_consistent: bool,
    /// The check: consistent?
    pub consistent: bool,
    /// How many arrows cross it (orphans and in transit).
    pub crossing: usize,
}

impl CutAttempt {
    /// Was the prediction right?
    pub fn right(&self) -> bool {
        self.predicted_consistent == self.consistent
    }
}

impl Progress {
    pub fn new(lesson: usize) -> Progress {
        Progress {
            lesson,
            step: 0,
            revealed: false,
            predictions: BTreeMap::new(),
            checkpoint_guess: None,
            cuts: Vec::new(),
        }
    }
    /// On a drawing step: has the learner checked a consistent cut yet? (Any other step: true.)
    pub fn cut_found(&self) -> bool {
        self.current().diagram != OnDiagram::Draw || self.cuts.iter().any(|c| c.consistent)
    }
    /// On a drawing step: the predictions that were right, of the cuts checked.
    pub fn cut_score(&self) -> (usize, usize) {
        (self.cuts.iter().filter(|c| c.right()).count(), self.cuts.len())
    }
    pub fn lesson(&self) -> &'static Lesson {
        // A lesson is open only once the lessons are there (see `curriculum::loaded`).
        &curriculum::loaded().expect("the lessons are loaded before one opens")[self.lesson]
    }
    pub fn current(&self) -> &'static Step {
        &self.lesson().steps[self.step]
    }
    /// Is the current step a prediction the learner has not revealed yet?
    pub fn awaiting_reveal(&self) -> bool {
        self.current().predict.is_some() && !self.revealed
    }
    /// How many of these records the learner has not marked yet.
    pub fn unmarked<'a>(&self, labels: impl IntoIterator<Item = &'a str>) -> usize {
        labels.into_iter().filter(|l| !self.predictions.contains_key(*l)).count()
    }
}

/// The mark a click on a prediction chip gives: unmarked, then exactly once, lost, duplicated, and
/// round again to exactly once.
pub fn next_guess(current: Option<Verdict>) -> Verdict {
    match current {
        Some(Verdict::ExactlyOnce) => Verdict::Lost,
        Some(Verdict::Lost) => Verdict::Duplicated,
        _ => Verdict::ExactlyOnce,
    }
}

/// The run at `progress`: its configuration, the job it starts from (a fresh run, or after a
/// `restore-into` line the job restored into the changed program), the lesson's actions since,
/// and that restore (the session keeps it, so a link or a file replays the run).
pub struct LessonRun {
    pub config: RunConfig,
    pub start: Sim,
    pub actions: Vec<Action>,
    pub change: Option<ProgramChange>,
}

/// The run at `progress`: its configuration and the lesson's actions since the last restart or
/// restore into a changed program (a predict step's own actions only once revealed).
pub fn run_for(progress: &Progress) -> Result<LessonRun, String> {
    let lesson = progress.lesson();
    let config = lesson.config_at(progress.step);
    let fresh = |c: &RunConfig| c.scenario().sim().map_err(|e| format!("lesson {}: {e}", lesson.id));
    let mut start = fresh(&lesson.config())?;
    let mut sim = start.clone();
    let mut actions = Vec::new();
    let mut change: Option<ProgramChange> = None;
    for (i, step) in lesson.steps.iter().enumerate().take(progress.step + 1) {
        let at = |e: String| format!("lesson {} step {}: {e}", lesson.id, i + 1);
        if step.restart.is_some() {
            start = fresh(&lesson.config_at(i))?;
            sim = start.clone();
            actions.clear();
            change = None;
        }
        if i == progress.step && step.predict.is_some() && !progress.revealed {
            break;
        }
        for line in step.play {
            let Some(restore) = RestoreInto::parse(line) else {
                actions.extend(play_lines(&mut sim, &[line]).map_err(at)?);
                continue;
            };
            let restore = restore.map_err(at)?;
            let restorer =
                lesson.restore_into.ok_or_else(|| at(format!("{line:?}: this lesson restores into no program")))?;
            let (next, restored) = restorer(&restore, &sim, change.take(), &actions, &lesson.config_at(i))
                .map_err(|e| at(format!("{line:?}: {e}")))?;
            start = restored;
            sim = start.clone();
            actions.clear();
            change = Some(next);
        }
    }
    Ok(LessonRun { config, start, actions, change })
}

/// What plays a lesson to where the learner stands: [`run_for`].
pub type RunFor = fn(&Progress) -> Result<LessonRun, String>;

thread_local! {
    /// [`run_for`], once the lessons' part has brought it ([`register_run_for`]).
    static RUN_FOR: std::cell::Cell<Option<RunFor>> = const { std::cell::Cell::new(None) };
}

/// Keeps the [`run_for`] that the lessons' part handed back (`app/lessons_part.rs`) for
/// [`lesson_run`]: in the split page the lessons' script lines are read and played by code that
/// comes with that part, so the first screen does not carry it.
pub fn register_run_for(run: RunFor) {
    RUN_FOR.with(|r| r.set(Some(run)));
}

/// [`run_for`] for the session: a lesson opens only once the lessons' part is there, and the
/// page has registered its runner by then. Natively and in tests there is no split: it is
/// [`run_for`].
pub fn lesson_run(progress: &Progress) -> Result<LessonRun, String> {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    return match RUN_FOR.with(std::cell::Cell::get) {
        Some(run) => run(progress),
        None => Err("the lessons' part has not loaded".to_string()),
    };
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    run_for(progress)
}

/// [`run_for`] without the restore: the configuration, the start and the actions.
pub fn actions_for(progress: &Progress) -> Result<(RunConfig, Sim, Vec<Action>), String> {
    run_for(progress).map(|r| (r.config, r.start, r.actions))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chip_cycles_from_unmarked() {
        assert_eq!(next_guess(None), Verdict::ExactlyOnce);
        assert_eq!(next_guess(Some(Verdict::ExactlyOnce)), Verdict::Lost);
        assert_eq!(next_guess(Some(Verdict::Lost)), Verdict::Duplicated);
        assert_eq!(next_guess(Some(Verdict::Duplicated)), Verdict::ExactlyOnce);
        let mut p = Progress::new(1);
        assert_eq!(p.unmarked(["a", "b", "c"]), 3, "records start unmarked");
        p.predictions.insert("b".into(), Verdict::ExactlyOnce);
        assert_eq!(p.unmarked(["a", "b", "c"]), 2);
    }
}
