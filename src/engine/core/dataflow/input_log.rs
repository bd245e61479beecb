//! The input logs: what each source reads, a replayable log by offset per partition, as a
//! scenario file writes it (`"a:x"`, `"a:x=5"`, `"a:x@3"`, or an object per entry), before
//! [`crate::engine::core::dataflow::job_graph::JobGraph::build`] checks it and numbers its records.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One entry of a source's input log: `"a:x"` (label a, key x, value 1), `"a:x=5"`, or an object;
/// `"a:x@3"` (or `"at": 3`) gives the tick it arrives on a socket source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LogEntry {
    Short(String),
    Full {
        label: String,
        key: String,
        #[serde(default = "one_i64")]
        value: i64,
        #[serde(default)]
        at: Option<u64>,
    },
}

fn one_i64() -> i64 {
    1
}

impl LogEntry {
    pub fn parse(&self) -> Result<(String, String, i64, Option<u64>), String> {
        match self {
            LogEntry::Full { label, key, value, at } => Ok((label.clone(), key.clone(), *value, *at)),
            LogEntry::Short(s) => {
                let (s, at) = match s.split_once('@') {
                    Some((e, t)) => (
                        e,
                        Some(
                            t.trim()
                                .parse::<u64>()
                                .map_err(|_| format!("log entry {s:?}: arrival tick {t:?} is not a whole number"))?,
                        ),
                    ),
                    None => (s.as_str(), None),
                };
                let (label, rest) = s
                    .split_once(':')
                    .ok_or_else(|| format!("log entry {s:?} is not \"label:key\" or \"label:key=value\""))?;
                let (key, value) = match rest.split_once('=') {
                    Some((k, v)) => (
                        k,
                        v.trim()
                            .parse::<i64>()
                            .map_err(|_| format!("log entry {s:?}: value {v:?} is not an integer"))?,
                    ),
                    None => (rest, 1),
                };
                Ok((label.trim().to_string(), key.trim().to_string(), value, at))
            }
        }
    }
}

/// The input logs: per source operator, either one list (parallelism 1) or one list per partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SourceInput {
    Partitions(Vec<Vec<LogEntry>>),
    Single(Vec<LogEntry>),
}

impl SourceInput {
    /// A source's logs as a scenario file writes them: one log for a source of parallelism 1,
    /// one per partition otherwise.
    pub fn for_parallelism(parallelism: u16, parts: Vec<Vec<LogEntry>>) -> SourceInput {
        if parallelism == 1 {
            SourceInput::Single(parts.into_iter().next().unwrap_or_default())
        } else {
            SourceInput::Partitions(parts)
        }
    }
}

pub type InputSpec = BTreeMap<String, SourceInput>;
