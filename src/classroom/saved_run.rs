//! The saved-run format: a whole run as text (its configuration, actions, playhead, lesson
//! position and language), the text behind share links, exported files and the browser's
//! storage. Reading one checks everything (size, version, job, settings, every action replayed,
//! the lesson position) so a bad link, file or stored entry names its problem ([`LoadError`]).
//! A link carries the JSON as base64url in its fragment (`#run=...`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::curriculum;
use super::progress::Progress;
use super::run_config::{RunConfig, MAX_GENERATED};
use crate::engine::core::ledger::Verdict;
use crate::engine::{describe, Action, ActionError, JobGraph, Lang, ScenarioError, Settings, Sim, Timeline};

/// At most this many actions in a saved run.
pub const MAX_SAVED_ACTIONS: usize = 200_000;
/// At most this many bytes of saved-run text (a link, a file, a stored entry).
pub const MAX_SAVED_BYTES: usize = 4 << 20;
/// The saved-run format version this build writes and reads.
pub const SAVED_VERSION: u32 = 1;

/// Where a saved run came from (also a room's opened text: the Batch room's, Side by side's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    Link,
    File,
    Storage,
}

/// Why a saved run could not be opened (worded in `wording.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    TooLarge(usize),
    Encoding,
    Json(String),
    Version(u64),
    Config(ScenarioError),
    TooManyActions(usize),
    UnknownAction {
        index: usize,
        code: String,
    },
    Action {
        index: usize,
        action: String,
        error: ActionError,
    },
    Playhead {
        at: usize,
        len: usize,
    },
    Lesson(String),
    /// The lesson file (opened, or kept in the saved run) is broken.
    LessonFile(super::LessonError),
}

/// A lesson position as saved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedLesson {
    pub id: String,
    pub step: usize,
    #[serde(default)]
    pub revealed: bool,
    #[serde(default)]
    pub predictions: BTreeMap<String, Verdict>,
    /// On a checkpoint's prediction: completes (true) or fails (false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint_guess: Option<bool>,
    #[serde(default)]
    pub took_over: bool,
}

/// A whole run as text: configuration, actions, playhead, lesson position and language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedRun {
    pub barrierscope: u32,
    pub job: String,
    pub settings: Settings,
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<u32>,
    /// Action codes separated by spaces (see [`Action::code`]).
    pub actions: String,
    pub at: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<SavedLesson>,
    #[serde(default)]
    pub lang: Lang,
    /// The run was restored into a changed program: `actions` are the restored job's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore: Option<super::program_change::ProgramChange>,
    /// The run stands in a lesson opened from a file: the file, so the link opens it too.
    #[serde(default, rename = "lesson-file", skip_serializing_if = "Option::is_none")]
    pub lesson_file: Option<String>,
}

impl SavedRun {
    /// Reads saved-run text: its size, JSON shape, format version and record count.
    pub fn parse(text: &str) -> Result<SavedRun, LoadError> {
        if text.len() > MAX_SAVED_BYTES {
            return Err(LoadError::TooLarge(text.len()));
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| LoadError::Json(e.to_string()))?;
        match value.get("barrierscope").map(|v| v.as_u64()) {
            None => return Err(LoadError::Json("the \"barrierscope\" version field is missing".into())),
            Some(None) => return Err(LoadError::Json("\"barrierscope\" must be a whole number".into())),
            Some(Some(v)) if v != SAVED_VERSION as u64 => return Err(LoadError::Version(v)),
            _ => {}
        }
        let saved: SavedRun = serde_json::from_value(value).map_err(|e| LoadError::Json(e.to_string()))?;
        if saved.records.is_some_and(|n| n == 0 || n > MAX_GENERATED) {
            return Err(LoadError::Config(ScenarioError::Input(format!(
                "records per partition must be 1 to {MAX_GENERATED}"
            ))));
        }
        Ok(saved)
    }

    pub fn config(&self) -> RunConfig {
        RunConfig { job: self.job.clone(), settings: self.settings.clone(), seed: self.seed, records: self.records }
    }

    /// Decodes the actions and replays them from `start`, the run's first state; checks the
    /// playhead against them.
    pub fn timeline(&self, start: Sim) -> Result<Timeline, LoadError> {
        let codes: Vec<&str> = self.actions.split_whitespace().collect();
        if codes.len() > MAX_SAVED_ACTIONS {
            return Err(LoadError::TooManyActions(codes.len()));
        }
        let mut actions = Vec::with_capacity(codes.len());
        for (index, code) in codes.iter().enumerate() {
            let a = Action::from_code(code)
                .ok_or_else(|| LoadError::UnknownAction { index, code: code.chars().take(20).collect() })?;
            actions.push(a);
        }
        let timeline = Timeline::from_actions(start.clone(), &actions).map_err(|(index, error)| {
            // Name the action against the state it was refused in.
            let mut sim = start;
            for a in &actions[..index] {
                let _ = sim.apply(*a, &mut Vec::new());
            }
            LoadError::Action { index, action: describe(&sim.graph, &actions[index], Lang::En), error }
        })?;
        if self.at > timeline.len() {
            return Err(LoadError::Playhead { at: self.at, len: timeline.len() });
        }
        Ok(timeline)
    }
}

impl SavedLesson {
    /// Where the learner stood, checked against the lessons and the records of job `g`.
    pub fn progress(&self, g: &JobGraph) -> Result<Progress, LoadError> {
        // The page loads the lessons before it opens a run that stands in one.
        let lessons = curriculum::loaded().ok_or_else(|| LoadError::Lesson("the lessons are not loaded".into()))?;
        // A built-in lesson, or the one the run's lesson file opened (after them).
        let i = lessons.iter().rposition(|x| x.id == self.id).ok_or_else(|| {
            LoadError::Lesson(format!("no lesson is called {:?}", self.id.chars().take(40).collect::<String>()))
        })?;
        if self.step >= lessons[i].steps.len() {
            // Counted from 1 for people; wide enough that the largest number a file can hold still adds one.
            return Err(LoadError::Lesson(format!("lesson {:?} has no step {}", self.id, self.step as u128 + 1)));
        }
        let labels: Vec<&str> = g.records.iter().map(|r| r.label.as_str()).collect();
        if let Some(bad) = self.predictions.keys().find(|k| !labels.contains(&k.as_str())) {
            return Err(LoadError::Lesson(format!(
                "a prediction names record {:?}, which this job does not have",
                bad.chars().take(20).collect::<String>()
            )));
        }
        let mut p = Progress::new(i);
        p.step = self.step;
        p.revealed = self.revealed && lessons[i].steps[self.step].predict.is_some();
        p.predictions = self.predictions.clone();
        p.checkpoint_guess = self.checkpoint_guess;
        Ok(p)
    }
}

pub use crate::engine::runs::base64url::{from_base64url, to_base64url};

/// The link fragment for a saved run: `run=` and the base64url of its JSON.
pub fn to_fragment(saved: &SavedRun) -> String {
    format!("run={}", to_base64url(serde_json::to_string(saved).expect("serializes").as_bytes()))
}

/// Decodes a link fragment (with or without the leading `#`) into saved-run JSON text.
pub fn from_fragment(fragment: &str) -> Result<String, LoadError> {
    let f = fragment.strip_prefix('#').unwrap_or(fragment);
    // `#lesson=ID` opens a built-in lesson, `#lesson=…` a lesson file in base64url: the sharing
    // part tells which (`session::open_run`).
    let (lesson, body) = match f.strip_prefix("lesson=") {
        Some(body) => (true, body),
        None => (false, f.strip_prefix("run=").ok_or(LoadError::Encoding)?),
    };
    if body.len() > MAX_SAVED_BYTES * 4 / 3 + 4 {
        return Err(LoadError::TooLarge(body.len() * 3 / 4));
    }
    if lesson {
        return Ok(format!("lesson:{body}"));
    }
    let bytes = from_base64url(body).ok_or(LoadError::Encoding)?;
    String::from_utf8(bytes).map_err(|_| LoadError::Encoding)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{ChannelId, TaskId};

    #[test]
    fn base64url_round_trips() {
        for n in 0..40 {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(from_base64url(&to_base64url(&bytes)).unwrap(), bytes);
        }
        assert_eq!(to_base64url(b"Man"), "TWFu");
        assert!(from_base64url("a").is_none());
        assert!(from_base64url("ab+c").is_none());
    }

    #[test]
    fn action_codes_round_trip() {
        for a in [
            Action::Deliver { channel: ChannelId(12) },
            Action::Read { task: TaskId(0) },
            Action::Checkpoint,
            Action::Timer { task: TaskId(3) },
            Action::AllTimers,
            Action::Crash,
            Action::CrashTask { task: TaskId(1) },
            Action::CrashJobManager,
            Action::Restore,
            Action::Notify { task: TaskId(3) },
            Action::Auto,
            Action::Savepoint,
            Action::StopWithSavepoint,
            Action::Cancel,
            Action::Resume { from: crate::engine::CheckpointId(7) },
        ] {
            assert_eq!(Action::from_code(&a.code()), Some(a));
        }
        for bad in ["", "d", "dx", "d99999999", "Xx", "q", "c1", "r-1", "é", "n", "u", "ux", "v1", "u9999999999"] {
            assert_eq!(Action::from_code(bad), None, "{bad}");
        }
    }
}
