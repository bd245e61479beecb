//! A lesson as a file: the JSON format of `lessons/*.json` (the built-in lessons) and of the
//! lessons a teacher writes, opens with ↑ Import or a `#lesson=` link, and checks with
//! `barrierscope lesson check` (issue 36). The format is in the book ("Writing a lesson").
//!
//! ```json
//! { "barrierscope-lesson": 1, "id": "my-lesson", "title": {"en": "…", "zh": "…"},
//!   "job": "line", "settings": {"strategy": "aligned"}, "seed": 1,
//!   "steps": [ {"say": "…"},
//!              {"play": ["read Source x3", "checkpoint"], "say": {"en": "…"}, "shows": [{"pending": 1}]},
//!              {"play": ["crash", "restore", "end"], "say": "…", "predict": "state",
//!               "expect": {"lost": [], "duplicated": ["c"]}, "reveal": "…"} ] }
//! ```
//!
//! Reading a file checks every field by name, so a broken file's message names the step and the
//! field ([`LessonError`]); a file that reads is a [`Lesson`] like the built-in ones (its texts
//! live as long as the page: a lesson is opened a few times, not thousands).

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::lessons::{parse_line, Expect, Judge, Lesson, OnDiagram, RestoreInto, Shows, Step, Text};
use super::run_config::RunConfig;
use crate::engine::{Lang, Settings};

/// The lesson-file format version this build reads (the `"barrierscope-lesson"` field).
pub const LESSON_FORMAT: u64 = 1;
/// At most this many bytes in a lesson file.
pub const MAX_LESSON_BYTES: usize = 1 << 20;
/// At most this many steps in a lesson.
pub const MAX_STEPS: usize = 60;

const LESSON_FIELDS: &[&str] = &["barrierscope-lesson", "id", "title", "job", "settings", "seed", "note", "steps"];
const STEP_FIELDS: &[&str] =
    &["play", "say", "predict", "expect", "reveal", "restart", "job", "shows", "diagram", "note"];

/// What is wrong with a lesson file: where (the step, counted from 1, and the field) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    pub step: Option<usize>,
    /// The field, as the file spells it ("" for the file as a whole).
    pub field: String,
    pub en: String,
    pub zh: String,
}

impl LessonError {
    fn at(step: Option<usize>, field: &str, en: impl Into<String>, zh: impl Into<String>) -> LessonError {
        LessonError { step, field: field.into(), en: en.into(), zh: zh.into() }
    }
    /// The same problem in both languages (a parser's words, which are English).
    fn same(step: Option<usize>, field: &str, problem: String) -> LessonError {
        LessonError::at(step, field, problem.clone(), problem)
    }
    /// Where and what, in `lang`: `step 3, "say": …`.
    pub fn message(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let problem = if zh { &self.zh } else { &self.en };
        match (self.step, self.field.is_empty(), zh) {
            (Some(s), false, false) => format!("step {s}, \"{}\": {problem}", self.field),
            (Some(s), false, true) => format!("第 {s} 步，\"{}\"：{problem}", self.field),
            (Some(s), true, false) => format!("step {s}: {problem}"),
            (Some(s), true, true) => format!("第 {s} 步：{problem}"),
            (None, false, false) => format!("\"{}\": {problem}", self.field),
            (None, false, true) => format!("\"{}\"：{problem}", self.field),
            (None, true, _) => problem.clone(),
        }
    }
}

/// Whether `text` looks like a lesson file (rather than a saved run): it names the format.
pub fn is_lesson_file(text: &str) -> bool {
    text.len() <= MAX_LESSON_BYTES && text.contains("\"barrierscope-lesson\"")
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn leak_slice<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

/// A field's value as `T`, if the field is there.
fn field<T: DeserializeOwned>(
    o: &Map<String, Value>,
    name: &str,
    step: Option<usize>,
) -> Result<Option<T>, LessonError> {
    match o.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            serde_json::from_value(v.clone()).map(Some).map_err(|e| LessonError::same(step, name, e.to_string()))
        }
    }
}

/// A text in one language for both (`"say": "…"`) or in each (`{"en": …, "zh": …}`; one missing
/// shows the other).
fn text_field(o: &Map<String, Value>, name: &str, step: Option<usize>) -> Result<Option<Text>, LessonError> {
    let bad = || {
        LessonError::at(
            step,
            name,
            "a text must be a string, or {\"en\": …, \"zh\": …} with at least one of the two",
            "文本必须是字符串，或 {\"en\": …, \"zh\": …}，两者至少有一个",
        )
    };
    let Some(v) = o.get(name) else { return Ok(None) };
    let (en, zh) = match v {
        Value::String(s) => (Some(s.clone()), None),
        Value::Object(m) => {
            if let Some(k) = m.keys().find(|k| *k != "en" && *k != "zh") {
                return Err(LessonError::at(
                    step,
                    name,
                    format!("no language {k:?}: the languages are \"en\" and \"zh\""),
                    format!("没有语言 {k:?}：语言只有 \"en\" 和 \"zh\""),
                ));
            }
            let get = |l: &str| m.get(l).map(|v| v.as_str().map(str::to_string).ok_or_else(bad)).transpose();
            (get("en")?, get("zh")?)
        }
        _ => return Err(bad()),
    };
    let (en, zh) = match (en, zh) {
        (Some(en), Some(zh)) => (en, zh),
        (Some(one), None) | (None, Some(one)) => (one.clone(), one),
        (None, None) => return Err(bad()),
    };
    if en.trim().is_empty() || zh.trim().is_empty() {
        return Err(LessonError::at(step, name, "the text is empty", "文本为空"));
    }
    Ok(Some(Text { en: leak(en), zh: leak(zh) }))
}

fn unknown_fields(o: &Map<String, Value>, known: &[&str], step: Option<usize>) -> Result<(), LessonError> {
    match o.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => Err(LessonError::at(
            step,
            k,
            format!("no such field; the fields are {}", known.join(", ")),
            format!("没有这个字段；字段有 {}", known.join("、")),
        )),
    }
}

/// Reads a lesson file: every field by name, every script line, and the job and settings of
/// every run it starts.
pub fn parse(text: &str) -> Result<Lesson, LessonError> {
    if text.len() > MAX_LESSON_BYTES {
        return Err(LessonError::at(
            None,
            "",
            format!("the file has {} bytes; a lesson file holds at most {MAX_LESSON_BYTES}", text.len()),
            format!("文件有 {} 字节；课程文件最多 {MAX_LESSON_BYTES} 字节", text.len()),
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        LessonError::at(None, "", format!("it is not valid JSON: {e}"), format!("它不是有效的 JSON：{e}"))
    })?;
    let Value::Object(o) = value else {
        return Err(LessonError::at(None, "", "a lesson file is a JSON object", "课程文件是一个 JSON 对象"));
    };
    match o.get("barrierscope-lesson").map(Value::as_u64) {
        Some(Some(LESSON_FORMAT)) => {}
        Some(Some(v)) => {
            return Err(LessonError::at(
                None,
                "barrierscope-lesson",
                format!("this page reads lesson format {LESSON_FORMAT}, not {v}"),
                format!("本页面读取第 {LESSON_FORMAT} 版课程格式，而不是第 {v} 版"),
            ))
        }
        _ => {
            return Err(LessonError::at(
                None,
                "barrierscope-lesson",
                format!("missing: a lesson file begins with \"barrierscope-lesson\": {LESSON_FORMAT}"),
                format!("缺失：课程文件以 \"barrierscope-lesson\": {LESSON_FORMAT} 开头"),
            ))
        }
    }
    unknown_fields(&o, LESSON_FIELDS, None)?;
    let id: String = field(&o, "id", None)?.ok_or_else(|| LessonError::at(None, "id", "missing", "缺失"))?;
    if id.is_empty() || id.len() > 40 || !id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(LessonError::at(
            None,
            "id",
            "an id is 1 to 40 letters a–z, digits and hyphens",
            "id 由 1 到 40 个小写字母 a–z、数字和连字符组成",
        ));
    }
    let title = text_field(&o, "title", None)?.ok_or_else(|| LessonError::at(None, "title", "missing", "缺失"))?;
    let job: String = field(&o, "job", None)?.ok_or_else(|| LessonError::at(None, "job", "missing", "缺失"))?;
    let settings: Settings = field(&o, "settings", None)?.unwrap_or_default();
    let seed: u64 = field(&o, "seed", None)?.unwrap_or(1);
    let _: Option<String> = field(&o, "note", None)?;
    runs(&job, &settings, seed, None)?;
    let Some(Value::Array(raw_steps)) = o.get("steps") else {
        return Err(LessonError::at(None, "steps", "missing: a list of steps", "缺失：步骤的列表"));
    };
    if raw_steps.is_empty() || raw_steps.len() > MAX_STEPS {
        return Err(LessonError::at(
            None,
            "steps",
            format!("a lesson has 1 to {MAX_STEPS} steps, not {}", raw_steps.len()),
            format!("课程有 1 到 {MAX_STEPS} 步，而不是 {} 步", raw_steps.len()),
        ));
    }
    let mut steps = Vec::with_capacity(raw_steps.len());
    let mut restores = false;
    for (k, raw) in raw_steps.iter().enumerate() {
        let (step, restore) = read_step(raw, k + 1, &job, seed)?;
        restores |= restore;
        steps.push(step);
    }
    Ok(Lesson {
        id: leak(id),
        title,
        job: leak(job),
        settings: Box::leak(Box::new(settings)),
        seed,
        steps: leak_slice(steps),
        restore_into: restores.then_some(RestoreInto::restore as super::lessons::Restorer),
    })
}

/// Whether `job` runs with `settings` (the message names `field` of `step`).
fn runs(job: &str, settings: &Settings, seed: u64, step: Option<usize>) -> Result<(), LessonError> {
    let config = RunConfig { job: job.into(), settings: settings.clone(), seed, records: None };
    config.scenario().sim().map(drop).map_err(|e| {
        let field = if step.is_some() { "restart" } else { "settings" };
        LessonError::at(step, field, format!("the run does not start: {e}"), format!("运行无法开始：{e}"))
    })
}

/// One step (counted from 1): the step, and whether it restores into a changed program.
fn read_step(raw: &Value, k: usize, lesson_job: &str, seed: u64) -> Result<(Step, bool), LessonError> {
    let at = Some(k);
    let Value::Object(o) = raw else {
        return Err(LessonError::at(at, "", "a step is a JSON object", "每一步是一个 JSON 对象"));
    };
    unknown_fields(o, STEP_FIELDS, at)?;
    let play: Vec<String> = field(o, "play", at)?.unwrap_or_default();
    let mut restores = false;
    for (n, line) in play.iter().enumerate() {
        let problem = match RestoreInto::parse(line) {
            Some(r) => {
                restores = true;
                r.err()
            }
            None => parse_line(line).err(),
        };
        if let Some(p) = problem {
            return Err(LessonError::same(at, "play", format!("line {}: {p}", n + 1)));
        }
    }
    let say = text_field(o, "say", at)?
        .ok_or_else(|| LessonError::at(at, "say", "missing: what the step says", "缺失：这一步要说的话"))?;
    let predict: Option<Judge> = field(o, "predict", at)?;
    let reveal = text_field(o, "reveal", at)?;
    let expect: Option<Expect> = field(o, "expect", at)?;
    match (predict.is_some(), reveal.is_some(), expect.is_some()) {
        (true, false, _) => {
            return Err(LessonError::at(
                at,
                "reveal",
                "missing: a prediction needs the words of its reveal",
                "缺失：预测需要揭晓时的文字",
            ))
        }
        (false, true, _) => {
            return Err(LessonError::at(
                at,
                "predict",
                "missing: a reveal belongs to a prediction (\"state\" or \"output\")",
                "缺失：揭晓属于一个预测（\"state\" 或 \"output\"）",
            ))
        }
        (false, _, true) => {
            return Err(LessonError::at(
                at,
                "expect",
                "only a prediction (\"predict\") has an expected answer",
                "只有预测（\"predict\"）才有预期答案",
            ))
        }
        _ => {}
    }
    if predict.is_some() && play.is_empty() {
        return Err(LessonError::at(
            at,
            "play",
            "a prediction holds back what it plays: give it the crash and what follows",
            "预测会先扣住它要播放的内容：请给出崩溃及其后的步骤",
        ));
    }
    let restart: Option<Settings> = field(o, "restart", at)?;
    let job: Option<String> = field(o, "job", at)?;
    match (&restart, &job) {
        (None, Some(_)) => {
            return Err(LessonError::at(
                at,
                "job",
                "a job is given with \"restart\", the settings of the fresh run",
                "作业要与 \"restart\"（新运行的设置）一起给出",
            ))
        }
        (Some(s), j) => runs(j.as_deref().unwrap_or(lesson_job), s, seed, at)?,
        _ => {}
    }
    let shows: Vec<Shows> = field(o, "shows", at)?.unwrap_or_default();
    let diagram: OnDiagram = field(o, "diagram", at)?.unwrap_or_default();
    let _: Option<String> = field(o, "note", at)?;
    let step = Step {
        play: leak_slice(play.into_iter().map(leak).collect()),
        say,
        predict,
        reveal,
        expect: expect.map(|e| &*Box::leak(Box::new(e))),
        restart: restart.map(|s| &*Box::leak(Box::new(s))),
        job: job.map(leak),
        shows: leak_slice(shows),
        diagram,
    };
    Ok((step, restores))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"{"barrierscope-lesson": 1, "id": "mine", "title": "Mine", "job": "line",
        "steps": [{"say": "Hello"}, {"play": ["read Source x2"], "say": {"en": "Read", "zh": "读"}}]}"#;

    fn error(text: &str) -> LessonError {
        parse(text).map(|l| l.id).unwrap_err()
    }

    #[test]
    fn a_small_file_reads() {
        let l = parse(SMALL).unwrap();
        assert_eq!((l.id, l.job, l.steps.len()), ("mine", "line", 2));
        assert_eq!(l.title, Text { en: "Mine", zh: "Mine" }, "one text shows in both languages");
        assert_eq!(l.steps[1].say, Text { en: "Read", zh: "读" });
        assert_eq!(l.steps[1].play, ["read Source x2"]);
        assert!(l.restore_into.is_none());
        assert!(is_lesson_file(SMALL));
        assert!(!is_lesson_file(r#"{"barrierscope": 1}"#));
    }

    #[test]
    fn a_broken_file_names_the_step_and_the_field() {
        let e = error(&SMALL.replace("\"say\": \"Hello\"", "\"sya\": \"Hello\""));
        assert_eq!((e.step, e.field.as_str()), (Some(1), "sya"));
        assert!(
            e.message(Lang::En).starts_with("step 1, \"sya\": no such field; the fields are play, say"),
            "{}",
            e.message(Lang::En)
        );
        assert!(e.message(Lang::Zh).starts_with("第 1 步，\"sya\"：没有这个字段"), "{}", e.message(Lang::Zh));
        let e = error(&SMALL.replace("read Source x2", "reed Source"));
        assert_eq!(e.message(Lang::En), "step 2, \"play\": line 1: \"reed Source\": unknown script word \"reed\"");
        let e = error(&SMALL.replace("\"job\": \"line\"", "\"job\": \"nope\""));
        assert_eq!((e.step, e.field.as_str()), (None, "settings"));
        assert!(e.en.contains("nope"), "{}", e.en);
        let e = error(
            &SMALL.replace("\"say\": {\"en\": \"Read\", \"zh\": \"读\"}", "\"say\": \"Read\", \"predict\": \"state\""),
        );
        assert_eq!((e.step, e.field.as_str()), (Some(2), "reveal"));
        let e = error(&SMALL.replace(
            "\"say\": \"Hello\"",
            "\"say\": \"Hello\", \"predict\": \"states\", \"reveal\": \"x\", \"play\": [\"crash\"]",
        ));
        assert_eq!((e.step, e.field.as_str()), (Some(1), "predict"));
        assert!(e.en.contains("unknown variant `states`"), "{}", e.en);
        let e = error(&SMALL.replace("\"say\": \"Hello\"", "\"say\": {\"fr\": \"Bonjour\"}"));
        assert_eq!(e.message(Lang::En), "step 1, \"say\": no language \"fr\": the languages are \"en\" and \"zh\"");
        let e = error(&SMALL.replace("\"barrierscope-lesson\": 1", "\"barrierscope-lesson\": 2"));
        assert_eq!(e.message(Lang::En), "\"barrierscope-lesson\": this page reads lesson format 1, not 2");
        let e = error("{\"barrierscope-lesson\": 1,");
        assert!(e.message(Lang::En).starts_with("it is not valid JSON: "), "{}", e.message(Lang::En));
        let e = error(&SMALL.replace("\"id\": \"mine\"", "\"id\": \"My lesson\""));
        assert_eq!(e.field, "id");
        let e = error(
            &SMALL.replace("{\"say\": \"Hello\"}", "{\"say\": \"Hello\", \"shows\": [{\"blokked\": \"Source->Map\"}]}"),
        );
        assert_eq!((e.step, e.field.as_str()), (Some(1), "shows"));
        assert!(e.en.contains("unknown variant `blokked`"), "{}", e.en);
    }
}
