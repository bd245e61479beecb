//! The side-by-side room's comparison as the learner builds it, and as a link, a file or the
//! browser's storage keeps it.
//!
//! The room builds an [`engine::comparison`](crate::engine::comparison) file from a few choices:
//! one of two jobs, one input (records and their spacing), one to three runs from seven
//! [`PRESETS`], and where and when the crash strikes. A [`SavedComparison`] is that file with the
//! room's clock (the tick the learner stands at), the language and the lesson's place; it is the
//! text behind the room's link (`#room=compare&run=` and its JSON in base64url, as a saved run's
//! link carries its JSON), its file and its storage entry. Opening text
//! ([`SavedComparison::open`]) takes a saved comparison, a comparison file (`scenarios/compare/`)
//! or one scenario file, and a bad one names its problem ([`CompareError`]) in both languages.
//!
//! Nothing on the main screen reaches this module: it loads with the room.

use serde::{Deserialize, Serialize};

pub use super::compare_lesson::SavedCompareLesson;
use super::saved_run::{from_base64url, to_base64url};
use crate::engine::comparison::{
    ComparisonError, ComparisonFile, Configuration, CrashPlace, CrashPlan, Lockstep, RestorePlan,
};
use crate::engine::core::dataflow::job_graph::{InputSpec, LogEntry, SourceInput};
use crate::engine::core::lang::say;
use crate::engine::runs::scenario::JobRef;
use crate::engine::{auto_label, builtin, Lang, Scenario, Settings};

/// The saved-comparison format version this build writes and reads.
pub const COMPARE_VERSION: u32 = 1;
/// At most this many bytes of text (a link, a file, a stored entry).
pub const MAX_COMPARE_BYTES: usize = 1 << 20;
/// The room's clock stops here: a comparison that never settles is not played further.
pub const MAX_ROOM_TICKS: u64 = 20_000;
/// The jobs a learner picks from in the room.
pub const JOBS: [&str; 2] = ["line-sink", "keyed-shuffle"];
/// Records per source partition the room offers.
pub const RECORD_COUNTS: [usize; 4] = [4, 6, 10, 20];
/// Ticks between two arrivals the room offers.
pub const SPACINGS: [u64; 4] = [2, 5, 10, 20];

/// A configuration the learner can choose for a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub id: &'static str,
    /// The column's title in the file, and on the page in English.
    pub name: &'static str,
    pub zh: &'static str,
    /// The settings, as a scenario file spells them.
    pub settings: &'static str,
}

/// The seven presets: the three ways of the article first, then a variant of each that shows
/// what one setting buys.
pub const PRESETS: [Preset; 7] = [
    Preset {
        id: "flink-2pc",
        name: "Flink (barriers)",
        zh: "Flink（屏障）",
        settings: r#"{"strategy": "aligned", "checkpoint-interval": 20, "sink": "two-phase-commit"}"#,
    },
    Preset {
        id: "storm-acks",
        name: "Storm (acks)",
        zh: "Storm（逐条确认）",
        settings: r#"{"strategy": "storm-acker", "sink": "append"}"#,
    },
    Preset {
        id: "spark-wal",
        name: "Spark Streaming (WAL)",
        zh: "Spark Streaming（预写日志）",
        settings: r#"{"strategy": "spark-streaming", "batch-interval": 20, "write-ahead-log": true, "sink": "transactional"}"#,
    },
    Preset {
        id: "flink-append",
        name: "Flink, append sink",
        zh: "Flink，追加输出",
        settings: r#"{"strategy": "aligned", "checkpoint-interval": 20, "sink": "append"}"#,
    },
    Preset {
        id: "flink-unaligned",
        name: "Flink, unaligned",
        zh: "Flink，非对齐检查点",
        settings: r#"{"strategy": "unaligned", "checkpoint-interval": 20, "sink": "two-phase-commit"}"#,
    },
    Preset {
        id: "storm-no-acks",
        name: "Storm, acking off",
        zh: "Storm，关闭确认",
        settings: r#"{"strategy": "storm-acker", "ackers": 0, "sink": "append"}"#,
    },
    Preset {
        id: "spark-no-wal",
        name: "Spark Streaming, no WAL",
        zh: "Spark Streaming，无预写日志",
        settings: r#"{"strategy": "spark-streaming", "batch-interval": 20, "write-ahead-log": false, "sink": "transactional"}"#,
    },
];

impl Preset {
    pub fn by_id(id: &str) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.id == id)
    }

    /// Read as every settings file is read, through a `serde_json::Value`: the page then carries
    /// one reader of the settings, not a second one for text (issue 52).
    pub fn settings(&self) -> Settings {
        serde_json::from_str::<serde_json::Value>(self.settings)
            .and_then(serde_json::from_value)
            .expect("a preset's settings parse")
    }

    pub fn configuration(&self) -> Configuration {
        Configuration { name: self.name.into(), settings: self.settings() }
    }

    /// The preset a configuration is, if it is one (its name and settings).
    pub fn of(c: &Configuration) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.name == c.name && p.settings() == c.settings)
    }

    pub fn title(&self, l: Lang) -> &'static str {
        l.t(self.name, self.zh)
    }
}

/// A run's column title in the learner's language: a preset's own, else the file's.
pub fn run_title(c: &Configuration, l: Lang) -> String {
    Preset::of(c).map_or_else(|| c.label(), |p| p.title(l).to_string())
}

/// The room's input: `per_partition` records per source partition of `job`, one every `every`
/// ticks (partitions interleaved), labels a, b, c, … and keys cycling x, y (line-sink) or x, y, z.
pub fn input_for(job: &str, per_partition: usize, every: u64) -> Option<InputSpec> {
    let b = builtin(job)?;
    let mut input = InputSpec::new();
    let sources: Vec<_> = b.spec.operators.iter().filter(|o| o.kind == crate::engine::OperatorKind::Source).collect();
    let keys: &[&str] = if job == "line-sink" { &["x", "y"] } else { &["x", "y", "z"] };
    let partitions: usize = sources.iter().map(|o| o.parallelism as usize).sum();
    let mut p = 0;
    for op in sources {
        let parts: Vec<Vec<LogEntry>> = (0..op.parallelism as usize)
            .map(|_| {
                let this = p;
                p += 1;
                (0..per_partition)
                    .map(|i| {
                        let n = i * partitions + this;
                        LogEntry::Short(format!("{}:{}@{}", auto_label(n), keys[n % keys.len()], n as u64 * every))
                    })
                    .collect()
            })
            .collect();
        input.insert(op.name.clone(), SourceInput::for_parallelism(op.parallelism, parts));
    }
    Some(input)
}

/// The room's choice of records and spacing that gives this file's input, if one does.
pub fn input_choice(file: &ComparisonFile) -> Option<(usize, u64)> {
    let JobRef::Builtin(job) = &file.job else { return None };
    let input = file.input.as_ref()?;
    RECORD_COUNTS
        .iter()
        .flat_map(|n| SPACINGS.iter().map(move |e| (*n, *e)))
        .find(|(n, e)| input_for(job, *n, *e).as_ref() == Some(input))
}

/// The built-in job a file runs, if it runs one the room offers.
pub fn job_choice(file: &ComparisonFile) -> Option<&'static str> {
    match &file.job {
        JobRef::Builtin(j) => JOBS.iter().copied().find(|x| x == j),
        JobRef::Custom(_) => None,
    }
}

/// The comparison the room opens with: the article's three ways on line-sink, ten records one
/// every ten ticks, the worker running Count crashing at tick 46 and the restore at 48 (as
/// `scenarios/compare/three-ways.json`).
pub fn three_ways() -> ComparisonFile {
    ComparisonFile {
        version: 1,
        name: "Three ways to survive a crash".into(),
        description: String::new(),
        job: JobRef::Builtin("line-sink".into()),
        input: input_for("line-sink", 10, 10),
        seed: 7,
        configurations: PRESETS[..3].iter().map(|p| p.configuration()).collect(),
        crash: CrashPlan { at: 46, place: CrashPlace::WorkerRunning("Count".into()) },
        restore: RestorePlan { at: 48 },
    }
}

/// A comparison with the room's clock, language and lesson place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedComparison {
    #[serde(rename = "barrierscope-compare")]
    pub version: u32,
    pub comparison: ComparisonFile,
    /// The tick the room's clock stands at.
    #[serde(default)]
    pub at: u64,
    /// The language it was saved in (None for a comparison or scenario file, which has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<Lang>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<SavedCompareLesson>,
}

/// Why text could not be opened as a comparison (worded by [`CompareError::message`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompareError {
    TooLarge(usize),
    /// A link whose text is not base64url of UTF-8.
    Encoding,
    Json(String),
    Version(u64),
    /// A saved run of the main page, not a comparison.
    MainRun,
    /// The comparison (or the scenario files standing for one) can't be read or run.
    Comparison(ComparisonError),
    /// A file that is none of the three kinds: it names the file and the scenario reader's reason.
    Scenario {
        file: String,
        message: String,
    },
    /// More files than runs.
    TooManyFiles(usize),
    /// The saved clock is past the runs' end.
    Clock {
        at: u64,
        end: u64,
    },
    /// A lesson place that does not exist.
    Lesson(String),
}

impl CompareError {
    pub fn message(&self, l: Lang) -> String {
        match self {
            CompareError::TooLarge(n) => say!(
                l,
                "it is {} bytes; a comparison is at most {} bytes",
                "它有 {} 字节；一个比较最多 {} 字节",
                n,
                MAX_COMPARE_BYTES
            ),
            CompareError::Encoding => l
                .t(
                    "the link's text is damaged (not base64url of UTF-8 text)",
                    "链接中的文本已损坏（不是 UTF-8 文本的 base64url 编码）",
                )
                .into(),
            CompareError::Json(m) => say!(l, "it is not valid JSON: {}", "它不是有效的 JSON：{}", m),
            CompareError::Version(v) => say!(
                l,
                "it has saved-comparison version {}; this build reads version {}",
                "它的比较保存格式版本为 {}；本版本只读取版本 {}",
                v,
                COMPARE_VERSION
            ),
            CompareError::MainRun => l
                .t(
                    "it is a saved run of the main screen, not a comparison: open it there with Import",
                    "这是主界面保存的运行，而不是比较：请在主界面用“导入”打开",
                )
                .into(),
            CompareError::Comparison(e) => say!(l, "{}", "比较无法运行：{}", e),
            CompareError::Scenario { file, message } => say!(
                l,
                "{} is neither a comparison nor a scenario file: {}",
                "{} 既不是比较文件也不是场景文件：{}",
                file,
                message
            ),
            CompareError::TooManyFiles(n) => say!(
                l,
                "{} files were chosen; a comparison runs 1 to 3 scenario files side by side",
                "选择了 {} 个文件；一个比较并排运行 1 到 3 个场景文件",
                n
            ),
            CompareError::Clock { at, end } => say!(
                l,
                "its clock stands at tick {}, but the runs finish at tick {}",
                "它的时钟位于第 {} 拍，但各运行在第 {} 拍就已结束",
                at,
                end
            ),
            CompareError::Lesson(m) => say!(l, "its lesson place is wrong: {}", "它的课程位置有误：{}", m),
        }
    }
}

impl SavedComparison {
    pub fn new(comparison: ComparisonFile, at: u64, lang: Option<Lang>) -> SavedComparison {
        SavedComparison { version: COMPARE_VERSION, comparison, at, lang, lesson: None }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a saved comparison serializes")
    }

    /// Opens text from a file, a link or storage: a saved comparison, a comparison file, or one
    /// scenario file (`name` says which file, for messages). Everything is checked, the clock
    /// replayed, before anything on screen changes.
    pub fn open(name: &str, text: &str) -> Result<(SavedComparison, Lockstep), CompareError> {
        if text.len() > MAX_COMPARE_BYTES {
            return Err(CompareError::TooLarge(text.len()));
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| CompareError::Json(e.to_string()))?;
        let saved = if let Some(v) = value.get("barrierscope-compare") {
            match v.as_u64() {
                Some(v) if v == u64::from(COMPARE_VERSION) => {}
                Some(v) => return Err(CompareError::Version(v)),
                None => return Err(CompareError::Json("\"barrierscope-compare\" must be a whole number".into())),
            }
            let saved: SavedComparison =
                serde_json::from_value(value).map_err(|e| CompareError::Json(e.to_string()))?;
            saved.comparison.check().map_err(CompareError::Comparison)?;
            saved
        } else if value.get("configurations").is_some() {
            let file = ComparisonFile::from_json(text).map_err(CompareError::Comparison)?;
            SavedComparison::new(file, 0, None)
        } else if value.get("barrierscope").is_some() {
            return Err(CompareError::MainRun);
        } else {
            return open_scenarios(&[(name.to_string(), text.to_string())]);
        };
        let lockstep = saved.lockstep()?;
        if let Some(lesson) = &saved.lesson {
            super::compare_lesson::check(lesson, saved.comparison.configurations.len())
                .map_err(CompareError::Lesson)?;
        }
        Ok((saved, lockstep))
    }

    /// The runs stepped to the saved clock.
    pub fn lockstep(&self) -> Result<Lockstep, CompareError> {
        let mut l = Lockstep::new(&self.comparison).map_err(CompareError::Comparison)?;
        while l.tick < self.at {
            if !l.step().map_err(CompareError::Comparison)? {
                return Err(CompareError::Clock { at: self.at, end: l.tick });
            }
        }
        Ok(l)
    }

    /// The link's fragment, without `#`: `room=compare&run=` and the JSON in base64url.
    pub fn to_fragment(&self) -> String {
        let json = serde_json::to_string(self).expect("a saved comparison serializes");
        format!("room=compare&run={}", to_base64url(json.as_bytes()))
    }
}

/// Opens one to three chosen files: one is opened as [`SavedComparison::open`] does; two or
/// three must be scenario files, one run each, sharing job, input and seed.
pub fn open_files(files: &[(String, String)]) -> Result<(SavedComparison, Lockstep), CompareError> {
    match files {
        [] => Err(CompareError::TooManyFiles(0)),
        [(name, text)] => SavedComparison::open(name, text),
        _ => open_scenarios(files),
    }
}

fn open_scenarios(files: &[(String, String)]) -> Result<(SavedComparison, Lockstep), CompareError> {
    if files.len() > crate::engine::comparison::MAX_CONFIGURATIONS {
        return Err(CompareError::TooManyFiles(files.len()));
    }
    let mut scenarios = Vec::new();
    for (name, text) in files {
        if text.len() > MAX_COMPARE_BYTES {
            return Err(CompareError::TooLarge(text.len()));
        }
        let sc = Scenario::from_json(text)
            .map_err(|e| CompareError::Scenario { file: name.clone(), message: e.to_string() })?;
        scenarios.push((name.clone(), sc));
    }
    let file = ComparisonFile::from_scenarios(&scenarios).map_err(CompareError::Comparison)?;
    let saved = SavedComparison::new(file, 0, None);
    let lockstep = saved.lockstep()?;
    Ok((saved, lockstep))
}

/// The saved comparison's text in a link's fragment (with or without `#`), if the fragment opens
/// the room with one: `room=compare&run=…`. None when it holds none.
pub fn from_fragment(fragment: &str) -> Option<Result<String, CompareError>> {
    let f = fragment.strip_prefix('#').unwrap_or(fragment);
    let mut parts = f.split('&');
    if parts.next() != Some("room=compare") {
        return None;
    }
    let body = parts.find_map(|p| p.strip_prefix("run="))?;
    if body.len() > MAX_COMPARE_BYTES * 4 / 3 + 4 {
        return Some(Err(CompareError::TooLarge(body.len() * 3 / 4)));
    }
    Some(
        from_base64url(body)
            .ok_or(CompareError::Encoding)
            .and_then(|b| String::from_utf8(b).map_err(|_| CompareError::Encoding)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_runs_on_every_job_and_place() {
        for job in JOBS {
            let graph = {
                let mut f = three_ways();
                f.job = JobRef::Builtin(job.into());
                f.input = input_for(job, 6, 5);
                f.graph().unwrap()
            };
            let count = graph.tasks.iter().find(|t| t.name.starts_with("Count")).unwrap().name.clone();
            for place in [CrashPlace::Cluster, CrashPlace::Master, CrashPlace::WorkerRunning(count)] {
                for chunk in PRESETS.chunks(3) {
                    let mut f = three_ways();
                    f.job = JobRef::Builtin(job.into());
                    f.input = input_for(job, 6, 5);
                    f.configurations = chunk.iter().map(|p| p.configuration()).collect();
                    f.crash = CrashPlan { at: 14, place: place.clone() };
                    f.restore = RestorePlan { at: 17 };
                    let l = Lockstep::run(&f).unwrap_or_else(|e| panic!("{job} {place:?}: {e}"));
                    assert!(l.tick < MAX_ROOM_TICKS, "{job} {place:?}: {} ticks", l.tick);
                }
            }
        }
    }

    #[test]
    fn the_default_is_three_ways_json() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/compare/three-ways.json")).unwrap();
        let file = ComparisonFile::from_json(&text).unwrap();
        let ours = three_ways();
        assert_eq!(ours.input, file.input);
        assert_eq!(ours.configurations, file.configurations);
        assert_eq!((ours.crash.clone(), ours.restore, ours.seed), (file.crash, file.restore, file.seed));
        assert_eq!(input_choice(&ours), Some((10, 10)));
        for p in &PRESETS {
            assert_eq!(Preset::of(&p.configuration()).unwrap().id, p.id);
        }
    }

    #[test]
    fn keyed_shuffle_input_interleaves_partitions() {
        let input = input_for("keyed-shuffle", 2, 5).unwrap();
        let json = serde_json::to_string(&input).unwrap();
        assert_eq!(json, r#"{"Source":[["a:x@0","c:z@10"],["b:y@5","d:x@15"]]}"#);
    }

    #[test]
    fn a_saved_comparison_round_trips_through_a_link() {
        let mut saved = SavedComparison::new(three_ways(), 50, Some(Lang::Zh));
        saved.lesson = Some(SavedCompareLesson { step: 2, predictions: [("most-rework".to_string(), 2)].into() });
        let fragment = saved.to_fragment();
        assert!(fragment.starts_with("room=compare&run="));
        assert!(fragment.bytes().all(|b| b.is_ascii_alphanumeric() || b"=&-_".contains(&b)), "url-safe");
        let text = from_fragment(&format!("#{fragment}")).unwrap().unwrap();
        let (back, lockstep) = SavedComparison::open("link", &text).unwrap();
        assert_eq!(back, saved);
        assert_eq!(lockstep.tick, 50);
        // The same through a file.
        let (back, _) = open_files(&[("a.json".into(), saved.to_json())]).unwrap();
        assert_eq!(back, saved);
        assert!(from_fragment("#run=abc").is_none());
        assert!(from_fragment("room=compare").is_none());
    }

    #[test]
    fn the_scenarios_compare_files_open() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/compare/");
        let read = |f: &str| (f.to_string(), std::fs::read_to_string(format!("{dir}{f}")).unwrap());
        for f in ["three-ways.json", "flink-sinks.json", "three-ways-faster.json", "storm-acks.json"] {
            let (saved, l) = open_files(&[read(f)]).unwrap_or_else(|e| panic!("{f}: {}", e.message(Lang::En)));
            assert_eq!(l.tick, 0);
            assert_eq!(saved.lang, None, "a comparison file keeps the page's language");
            assert!(!saved.comparison.configurations.is_empty());
        }
        let three = [read("flink-barriers.json"), read("storm-acks.json"), read("spark-wal.json")];
        let (saved, _) = open_files(&three).unwrap();
        let (whole, _) = open_files(&[read("three-ways.json")]).unwrap();
        assert_eq!(saved.comparison.crash, whole.comparison.crash);
        assert_eq!(saved.comparison.restore, whole.comparison.restore);
        assert_eq!(saved.comparison.input, whole.comparison.input);
    }

    #[test]
    fn bad_input_says_why() {
        let msg = |text: &str| match SavedComparison::open("x.json", text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e,
        };
        assert!(matches!(msg("{ nope"), CompareError::Json(_)));
        let mut saved = SavedComparison::new(three_ways(), 0, Some(Lang::En));
        let good = serde_json::to_value(&saved).unwrap();
        let mut v = good.clone();
        v["barrierscope-compare"] = 2.into();
        assert_eq!(msg(&v.to_string()), CompareError::Version(2));
        let mut v = good.clone();
        v["extra"] = 1.into();
        assert!(msg(&v.to_string()).message(Lang::En).contains("unknown field `extra`"));
        saved.at = 5_000;
        let e = msg(&serde_json::to_string(&saved).unwrap());
        assert!(matches!(e, CompareError::Clock { at: 5_000, .. }), "{e:?}");
        assert!(e.message(Lang::Zh).contains("第 5000 拍"));
        saved.at = 0;
        saved.comparison.restore.at = 10;
        let e = msg(&serde_json::to_string(&saved).unwrap());
        assert!(e.message(Lang::En).contains("the restore (tick 10) must come after the crash (tick 46)"), "{e:?}");
        saved.comparison.restore.at = 48;
        saved.comparison.configurations.clear();
        assert!(msg(&serde_json::to_string(&saved).unwrap()).message(Lang::En).contains("1 to 3 configurations"));
        assert_eq!(msg(r#"{"barrierscope": 1, "job": "line"}"#), CompareError::MainRun);
        assert!(matches!(msg(r#"{"job": 5}"#), CompareError::Scenario { .. }));
        assert!(msg(r#"{"job": "nope"}"#).message(Lang::En).contains("nope"));
        assert!(matches!(msg(&"x".repeat(MAX_COMPARE_BYTES + 1)), CompareError::TooLarge(_)));
        assert_eq!(from_fragment("room=compare&run=a"), Some(Err(CompareError::Encoding)));
        assert_eq!(from_fragment("room=compare&run=__8"), Some(Err(CompareError::Encoding)));
        let four: Vec<(String, String)> = (0..4).map(|i| (format!("{i}.json"), "{}".to_string())).collect();
        assert_eq!(open_files(&four).unwrap_err(), CompareError::TooManyFiles(4));
        let mut saved = SavedComparison::new(three_ways(), 0, Some(Lang::En));
        saved.lesson = Some(SavedCompareLesson { step: 99, predictions: Default::default() });
        assert!(matches!(msg(&saved.to_json()), CompareError::Lesson(_)));
        saved.lesson = Some(SavedCompareLesson { step: 1, predictions: [("most-rework".to_string(), 4)].into() });
        assert!(matches!(msg(&saved.to_json()), CompareError::Lesson(_)));
        for e in [CompareError::Encoding, CompareError::MainRun, CompareError::TooManyFiles(4)] {
            assert_ne!(e.message(Lang::En), e.message(Lang::Zh));
        }
    }
}
