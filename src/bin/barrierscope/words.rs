//! What the subcommands share: one word for each judgement the ledger makes (a record's state,
//! its completeness, its order), a tally in a line, a file read with an error that names it, and
//! the `--lang` option. A table in any subcommand says "LOST" or "exactly once" in the same words,
//! so a reader who learned them from `run` reads `cut`, `compare` and `explore` without a key.

use barrierscope::engine::{Completeness, Lang, Order, Tally, Verdict};
use clap::builder::{PossibleValue, PossibleValuesParser, StringValueParser, TypedValueParser};

pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::ExactlyOnce => "exactly once",
        Verdict::Lost => "LOST",
        Verdict::Duplicated => "DUPLICATED",
        Verdict::Pending => "pending",
    }
}

pub fn tally(t: &Tally) -> String {
    format!("{} exactly once, {} lost, {} duplicated, {} pending", t.exactly_once, t.lost, t.duplicated, t.pending)
}

pub fn complete_word(v: Completeness) -> &'static str {
    match v {
        Completeness::Complete => "complete",
        Completeness::Incomplete => "INCOMPLETE",
        Completeness::Pending => "pending",
    }
}

pub fn order_word(v: Order) -> &'static str {
    match v {
        Order::InOrder => "in order",
        Order::OutOfOrder => "OUT OF ORDER",
        Order::Pending => "pending",
    }
}

/// "1 record", "3 records".
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A file's text, or an error naming it.
pub fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("can't read {path}: {e}"))
}

/// Writes `text` to `out` and prints nothing, or returns it to be printed.
pub fn to_file_or_stdout(text: String, out: Option<String>) -> Result<String, String> {
    match out {
        Some(out) => {
            std::fs::write(&out, text).map_err(|e| format!("can't write {out}: {e}"))?;
            Ok(String::new())
        }
        None => Ok(text),
    }
}

/// `--lang en|zh`: the language of the explanations, checked by clap (and offered to the shell).
pub fn lang_parser() -> impl TypedValueParser<Value = Lang> {
    PossibleValuesParser::new(["en", "zh"]).map(|id| Lang::from_id(&id).expect("one of the possible values"))
}

/// A name the engine checks, its error naming the ones there are (a built-in job, a built-in
/// lesson): offered to `--help` and to the shell's completion, but not refused by clap.
#[derive(Clone)]
pub struct Offered(pub fn() -> Vec<&'static str>);

impl TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter().map(PossibleValue::new)))
    }
}
