//! `quiz`: the answer key of one of the quiz room's sets. A set is a number: the same number
//! draws the same questions, in the page (`#room=quiz&set=35`) and here, so a teacher who shares
//! a set can read its key beforehand: each question, its options with the right ones marked
//! `[x]`, and why.

use barrierscope::classroom::quiz::{history::parse_set, QuizSet};
use barrierscope::engine::Lang;

use crate::words::lang_parser;

/// Print the answer key of a quiz set
///
/// The answer key of the quiz room's set SET (the page's #room=quiz&set=SET): each question, its
/// options with the right ones marked [x], and the explanation.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// The set's number, 0 to 999999999
    #[arg(value_name = "SET", value_parser = set_number)]
    set: u64,
    /// The language of the questions
    #[arg(long, value_name = "LANG", default_value = "en", value_parser = lang_parser())]
    lang: Lang,
}

const EXAMPLES: &str = "Examples:
  barrierscope quiz 35
  barrierscope quiz 35 --lang zh";

fn set_number(s: &str) -> Result<u64, String> {
    parse_set(s).map_err(|e| e.message(Lang::En))
}

/// The set's answer key, as the quiz room draws it.
pub fn run(args: Args) -> Result<String, String> {
    let Args { set, lang } = args;
    let quiz = QuizSet::new(set);
    let mut out = String::new();
    for (i, q) in quiz.questions.iter().enumerate() {
        out += &format!("{}. [{}] {}\n", i + 1, q.kind.id(), q.prompt.get(lang));
        for c in &q.choices {
            out += &format!("   [{}] {}\n", if c.right { 'x' } else { ' ' }, c.words.get(lang));
        }
        out += &format!("   {}\n", q.explanation.get(lang));
    }
    Ok(out)
}
