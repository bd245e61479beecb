//! A script line as a scenario file writes it: a bare word for an action without an argument
//! (`"checkpoint"`), else one word and its argument (`{"deliver": "Source->Map"}`,
//! `{"auto": 5}`). A mechanism's own step is written in the word its catalogue row gives it
//! (Storm's `{"ack": "Map"}`, `{"answer": "Source"}`), or, without one, as its letter and task
//! (`{"step": ["q", "Map"]}`): the script knows no mechanism's words, the catalogue does
//! (`Strategy::step_word`, `Strategy::step_named`).
//!
//! Written by hand rather than derived, for that one lookup; a word the script does not know is
//! refused as serde refuses an unknown variant ("unknown variant `dance`, expected one of …").

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::script::ScriptAction;
use crate::engine::settings::strategy::Strategy;

/// The words of the actions without an argument, and what each is.
const BARE: [(&str, ScriptAction); 10] = [
    ("checkpoint", ScriptAction::Checkpoint),
    ("all-timers", ScriptAction::AllTimers),
    ("crash", ScriptAction::Crash),
    ("crash-job-manager", ScriptAction::CrashJobManager),
    ("restore", ScriptAction::Restore),
    ("wait", ScriptAction::Wait),
    ("run-to-end", ScriptAction::RunToEnd),
    ("savepoint", ScriptAction::Savepoint),
    ("stop-with-savepoint", ScriptAction::StopWithSavepoint),
    ("cancel", ScriptAction::Cancel),
];

/// The words of the actions with an argument.
const WITH_ARGUMENT: [&str; 11] = [
    "deliver",
    "read",
    "timer",
    "crash-task",
    "notify",
    "step",
    "auto",
    "resume",
    "cut-off",
    "zombie-write",
    "pass-time",
];

impl Serialize for ScriptAction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Some((word, _)) = BARE.iter().find(|(_, a)| a == self) {
            return s.serialize_str(word);
        }
        let mut m = s.serialize_map(Some(1))?;
        match self {
            ScriptAction::Deliver(n) => m.serialize_entry("deliver", n)?,
            ScriptAction::Read(n) => m.serialize_entry("read", n)?,
            ScriptAction::Timer(n) => m.serialize_entry("timer", n)?,
            ScriptAction::CrashTask(n) => m.serialize_entry("crash-task", n)?,
            ScriptAction::Notify(n) => m.serialize_entry("notify", n)?,
            ScriptAction::Step(kind, n) => match Strategy::step_word(*kind) {
                Some(word) => m.serialize_entry(word, n)?,
                None => m.serialize_entry("step", &(kind, n))?,
            },
            ScriptAction::Auto(k) => m.serialize_entry("auto", k)?,
            ScriptAction::Resume(id) => m.serialize_entry("resume", id)?,
            ScriptAction::CutOff(n) => m.serialize_entry("cut-off", n)?,
            ScriptAction::ZombieWrite(n) => m.serialize_entry("zombie-write", n)?,
            ScriptAction::PassTime(ms) => m.serialize_entry("pass-time", ms)?,
            bare => unreachable!("{bare:?} is written as a bare word"),
        }
        m.end()
    }
}

/// Why a word is not a script word, as serde says it of an unknown variant: every word, in the
/// book's order, the mechanisms' own steps before `step`.
fn unknown<E: de::Error>(word: &str) -> E {
    let before = ["deliver", "read", "checkpoint", "timer", "all-timers", "crash", "crash-task"];
    let after = ["crash-job-manager", "restore", "notify"];
    let last = [
        "step",
        "wait",
        "auto",
        "run-to-end",
        "savepoint",
        "stop-with-savepoint",
        "cancel",
        "resume",
        "cut-off",
        "zombie-write",
        "pass-time",
    ];
    let own = Strategy::step_words().map(|(_, w)| w);
    let words: Vec<&str> = before.into_iter().chain(after).chain(own).chain(last).collect();
    E::custom(format_args!("unknown variant `{word}`, expected one of `{}`", words.join("`, `")))
}

struct Line;

impl<'de> Visitor<'de> for Line {
    type Value = ScriptAction;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a script line: a word such as \"checkpoint\", or one word and its argument such as {\"deliver\": \"Source->Map\"}")
    }

    fn visit_str<E: de::Error>(self, word: &str) -> Result<ScriptAction, E> {
        match BARE.iter().find(|(w, _)| *w == word) {
            Some((_, a)) => Ok(a.clone()),
            None if WITH_ARGUMENT.contains(&word) || Strategy::step_named(word).is_some() => {
                Err(E::custom(format_args!("script word `{word}` needs an argument: {{\"{word}\": …}}")))
            }
            None => Err(unknown(word)),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<ScriptAction, A::Error> {
        let Some(word) = m.next_key::<String>()? else {
            return Err(de::Error::invalid_length(0, &self));
        };
        let line = match word.as_str() {
            "deliver" => ScriptAction::Deliver(m.next_value()?),
            "read" => ScriptAction::Read(m.next_value()?),
            "timer" => ScriptAction::Timer(m.next_value()?),
            "crash-task" => ScriptAction::CrashTask(m.next_value()?),
            "notify" => ScriptAction::Notify(m.next_value()?),
            "step" => {
                let (kind, task): (char, String) = m.next_value()?;
                ScriptAction::Step(kind, task)
            }
            "auto" => ScriptAction::Auto(m.next_value()?),
            "resume" => ScriptAction::Resume(m.next_value()?),
            "cut-off" => ScriptAction::CutOff(m.next_value()?),
            "zombie-write" => ScriptAction::ZombieWrite(m.next_value()?),
            "pass-time" => ScriptAction::PassTime(m.next_value()?),
            w => match (BARE.iter().find(|(b, _)| *b == w), Strategy::step_named(w)) {
                (Some((_, a)), _) => {
                    m.next_value::<()>()?;
                    a.clone()
                }
                (None, Some(kind)) => ScriptAction::Step(kind, m.next_value()?),
                (None, None) => return Err(unknown(w)),
            },
        };
        match m.next_key::<String>()? {
            None => Ok(line),
            Some(more) => Err(de::Error::custom(format_args!(
                "a script line is one word and its argument; `{word}` comes with `{more}`"
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for ScriptAction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ScriptAction, D::Error> {
        d.deserialize_any(Line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line reads back as it was written. Model: the spellings of the book's Actions table
    /// (`docs/src/engine/actions.md`), each written and read.
    #[test]
    fn every_script_line_reads_back_as_written() {
        let lines = [
            (ScriptAction::Deliver("Source->Map".into()), r#"{"deliver":"Source->Map"}"#),
            (ScriptAction::Read("Source".into()), r#"{"read":"Source"}"#),
            (ScriptAction::Checkpoint, r#""checkpoint""#),
            (ScriptAction::Timer("Count".into()), r#"{"timer":"Count"}"#),
            (ScriptAction::AllTimers, r#""all-timers""#),
            (ScriptAction::Crash, r#""crash""#),
            (ScriptAction::CrashTask("Count".into()), r#"{"crash-task":"Count"}"#),
            (ScriptAction::CrashJobManager, r#""crash-job-manager""#),
            (ScriptAction::Restore, r#""restore""#),
            (ScriptAction::Notify("Sink".into()), r#"{"notify":"Sink"}"#),
            (ScriptAction::Step('q', "Map".into()), r#"{"ack":"Map"}"#),
            (ScriptAction::Step('p', "Source".into()), r#"{"answer":"Source"}"#),
            (ScriptAction::Step('x', "Map".into()), r#"{"step":["x","Map"]}"#),
            (ScriptAction::Wait, r#""wait""#),
            (ScriptAction::Auto(5), r#"{"auto":5}"#),
            (ScriptAction::RunToEnd, r#""run-to-end""#),
            (ScriptAction::Savepoint, r#""savepoint""#),
            (ScriptAction::StopWithSavepoint, r#""stop-with-savepoint""#),
            (ScriptAction::Cancel, r#""cancel""#),
            (ScriptAction::Resume(3), r#"{"resume":3}"#),
        ];
        for (line, json) in lines {
            assert_eq!(serde_json::to_string(&line).unwrap(), json);
            assert_eq!(serde_json::from_str::<ScriptAction>(json).unwrap(), line, "{json}");
        }
        // A bare word may also come as a word without an argument, as serde writes a unit.
        assert_eq!(serde_json::from_str::<ScriptAction>(r#"{"crash":null}"#).unwrap(), ScriptAction::Crash);
    }

    #[test]
    fn a_line_the_script_does_not_know_says_what_it_knows() {
        let e = serde_json::from_str::<ScriptAction>(r#"{"dance": "Map"}"#).unwrap_err().to_string();
        assert!(e.contains("unknown variant `dance`") && e.contains("`deliver`") && e.contains("`ack`"), "{e}");
        let e = serde_json::from_str::<ScriptAction>(r#""dance""#).unwrap_err().to_string();
        assert!(e.contains("unknown variant `dance`"), "{e}");
        let e = serde_json::from_str::<ScriptAction>(r#""deliver""#).unwrap_err().to_string();
        assert!(e.contains("needs an argument"), "{e}");
        let e = serde_json::from_str::<ScriptAction>(r#"{"read": "Source", "crash": null}"#).unwrap_err().to_string();
        assert!(e.contains("one word and its argument"), "{e}");
        let e = serde_json::from_str::<ScriptAction>(r#"{"auto": "five"}"#).unwrap_err().to_string();
        assert!(e.contains("invalid type"), "{e}");
    }
}
