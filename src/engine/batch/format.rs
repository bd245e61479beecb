//! The batch file format: one JSON text for a scenario file, an exported run, the browser's stored
//! run and a share link. It holds the job, the actions (codes separated by spaces), the playhead,
//! the language, the lesson position and, in a scenario, what the run is expected to show. Reading
//! checks everything and names the first problem ([`BatchLoadError`]). A link carries the JSON as
//! base64url: `#room=batch&run=…`.

use serde::{Deserialize, Serialize};

use super::action::{BatchAction, Refusal};
use super::run::{BatchRun, BatchSpec, MAX_BATCH_ACTIONS};
use crate::engine::Lang;

/// The format version this build writes and reads.
pub const BATCH_VERSION: u32 = 1;
/// At most this many bytes of text.
pub const MAX_BATCH_BYTES: usize = 256 << 10;

/// Where the learner stands in the batch lesson.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchLessonAt {
    pub step: usize,
    #[serde(default)]
    pub revealed: bool,
    /// The partitions (or tasks) the learner predicted, by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prediction: Vec<String>,
}

/// What a scenario's run must show (checked by `barrierscope batch`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchExpect {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exactly_once: Option<bool>,
    /// Hadoop: the tasks that ran more than once; Spark: the partitions computed more than once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reran: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_runs: Option<u32>,
}

/// A batch run as text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchFile {
    #[serde(rename = "barrierscope-batch")]
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub job: BatchSpec,
    /// Action codes separated by spaces: `s` step, `f` fail the running task, `c0` crash node or
    /// executor 0.
    #[serde(default)]
    pub actions: String,
    /// The playhead; the end when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<usize>,
    /// Step on to the end of the job after the actions (a scenario's shorthand).
    #[serde(default, skip_serializing_if = "is_false")]
    pub run_to_end: bool,
    #[serde(default)]
    pub lang: Lang,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<BatchLessonAt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<BatchExpect>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Why a batch text could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchLoadError {
    TooLarge(usize),
    /// A link whose text is not base64url of UTF-8.
    Encoding,
    Json(String),
    Version(u64),
    Job(String),
    TooManyActions(usize),
    UnknownAction {
        index: usize,
        code: String,
    },
    Refused {
        index: usize,
        code: String,
        why: Refusal,
    },
    Playhead {
        at: usize,
        len: usize,
    },
    Lesson(String),
}

/// An opened batch text: the run at its playhead, its language and lesson position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opened {
    pub run: BatchRun,
    pub lang: Lang,
    pub lesson: Option<BatchLessonAt>,
    pub file: BatchFile,
}

impl BatchFile {
    /// The file of a run.
    pub fn of(run: &BatchRun, lang: Lang, lesson: Option<BatchLessonAt>) -> BatchFile {
        BatchFile {
            version: BATCH_VERSION,
            name: None,
            job: run.spec.clone(),
            actions: BatchAction::codes(&run.actions),
            at: (run.at != run.len()).then_some(run.at),
            run_to_end: false,
            lang,
            lesson,
            expect: None,
        }
    }

    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a batch file serializes")
    }

    /// Reads and checks batch text, and replays it.
    pub fn open(text: &str, lessons: usize) -> Result<Opened, BatchLoadError> {
        if text.len() > MAX_BATCH_BYTES {
            return Err(BatchLoadError::TooLarge(text.len()));
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| BatchLoadError::Json(e.to_string()))?;
        match value.get("barrierscope-batch").map(|v| v.as_u64()) {
            None => return Err(BatchLoadError::Json("the \"barrierscope-batch\" version field is missing".into())),
            Some(None) => return Err(BatchLoadError::Json("\"barrierscope-batch\" must be a whole number".into())),
            Some(Some(v)) if v != BATCH_VERSION as u64 => return Err(BatchLoadError::Version(v)),
            _ => {}
        }
        let file: BatchFile = serde_json::from_value(value).map_err(|e| BatchLoadError::Json(e.to_string()))?;
        let mut run = BatchRun::new(file.job.clone()).map_err(BatchLoadError::Job)?;
        let codes: Vec<&str> = file.actions.split_whitespace().collect();
        if codes.len() > MAX_BATCH_ACTIONS {
            return Err(BatchLoadError::TooManyActions(codes.len()));
        }
        for (index, code) in codes.iter().enumerate() {
            let short = || code.chars().take(20).collect::<String>();
            let a =
                BatchAction::from_code(code).ok_or_else(|| BatchLoadError::UnknownAction { index, code: short() })?;
            run.act(a).map_err(|why| BatchLoadError::Refused { index, code: short(), why })?;
        }
        if file.run_to_end {
            run.run_to_end();
        }
        if let Some(at) = file.at {
            if at > run.len() {
                return Err(BatchLoadError::Playhead { at, len: run.len() });
            }
            run.seek(at);
        }
        if let Some(l) = &file.lesson {
            if l.step >= lessons {
                return Err(BatchLoadError::Lesson(format!("the batch lesson has no step {}", l.step as u128 + 1)));
            }
        }
        Ok(Opened { run, lang: file.lang, lesson: file.lesson.clone(), file })
    }
}

/// The text behind `#room=batch&run=…`.
pub fn to_link_fragment(text: &str) -> String {
    format!("room=batch&run={}", crate::engine::runs::base64url::to_base64url(text.as_bytes()))
}

/// The batch text in a link's fragment (without `#`), if it has one: `room=batch&run=…`.
pub fn from_link_fragment(fragment: &str) -> Option<Result<String, BatchLoadError>> {
    let mut room = false;
    let mut run = None;
    for part in fragment.trim_start_matches('#').split('&') {
        match part.split_once('=') {
            Some(("room", "batch")) => room = true,
            Some(("run", v)) => run = Some(v),
            _ => {}
        }
    }
    let run = run.filter(|_| room)?;
    Some(
        crate::engine::runs::base64url::from_base64url(run)
            .and_then(|b| String::from_utf8(b).ok())
            .ok_or(BatchLoadError::Encoding),
    )
}
