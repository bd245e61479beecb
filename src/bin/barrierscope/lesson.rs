//! `lesson`: a teacher's own lessons, checked before they are shared. A lesson file is a title and
//! steps: words, the script lines each step plays, what the canvas then shows, and
//! predict-then-reveal questions with the answer the engine must give. `check` plays every step
//! and holds each claim against the run, so a lesson cannot teach what the simulator does not do;
//! `list` and `print` give the built-in lessons as starting points, `link` the address that opens
//! a file in the page.

use barrierscope::classroom::{curriculum, lesson_check, lesson_file, to_base64url};
use barrierscope::engine::Lang;
use clap::{ArgGroup, ArgMatches, Subcommand};

use crate::words::{read, Offered};

/// Check, list, print and link lesson files
///
/// Lesson files are read when the page is built (lessons/*.json), or opened in the page with
/// ↑ Import or a link. See the book's "Writing a lesson".
#[derive(clap::Args)]
#[command(verbatim_doc_comment, subcommand_required = true, arg_required_else_help = true, after_help = EXAMPLES)]
pub struct Args {
    #[command(subcommand)]
    command: LessonCommand,
}

const EXAMPLES: &str = "Examples:
  barrierscope lesson print barrier > my-lesson.json
  barrierscope lesson check my-lesson.json
  barrierscope lesson link my-lesson.json --base https://example.org/barrierscope/";

#[derive(Subcommand)]
enum LessonCommand {
    Check(Check),
    List(List),
    Print(Print),
    Link(Link),
}

/// Play every step of each lesson file; check its claims and expected answers
///
/// Plays every step of each lesson file (or of the built-in lessons), checks each "shows" claim
/// against the run and each prediction's "expect" against the engine's ledger, prints one line
/// per lesson and then what is wrong, step by step; exits with 2 when something is.
#[derive(clap::Args)]
#[command(
    verbatim_doc_comment,
    group(ArgGroup::new("lessons").required(true).multiple(true).args(["files", "built_in"])),
    after_help = "Examples:\n  barrierscope lesson check my-lesson.json\n  barrierscope lesson check --built-in"
)]
struct Check {
    /// The lesson files
    #[arg(value_name = "FILE.json", value_hint = clap::ValueHint::FilePath)]
    files: Vec<String>,
    /// Check the built-in lessons too (where it stands among the files)
    #[arg(long)]
    built_in: bool,
}

/// List the built-in lessons: id and title
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  barrierscope lesson list")]
struct List {}

/// Print a built-in lesson's file, a starting point for your own
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  barrierscope lesson print barrier > my-lesson.json")]
struct Print {
    /// The lesson's id (see `lesson list`)
    #[arg(value_name = "ID", hide_possible_values = true, value_parser = Offered(|| curriculum::builtins().iter().map(|l| l.id).collect()))]
    id: String,
}

/// Print the link that opens a lesson file in the page: URL#lesson=...
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  barrierscope lesson link my-lesson.json --base https://example.org/barrierscope/")]
struct Link {
    /// The lesson file
    #[arg(value_name = "FILE.json", value_hint = clap::ValueHint::FilePath)]
    path: String,
    /// The page's address
    #[arg(long, value_name = "URL", default_value = "https://barrierscope.example/", value_hint = clap::ValueHint::Url)]
    base: String,
}

/// `matches` are the `lesson` subcommand's, for where `--built-in` stands among the files.
pub fn run(args: Args, matches: Option<&ArgMatches>) -> Result<String, String> {
    match args.command {
        LessonCommand::Check(c) => check(c, matches.and_then(|m| m.subcommand_matches("check"))),
        LessonCommand::List(_) => {
            Ok(curriculum::builtins().iter().map(|l| format!("{:<18} {}\n", l.id, l.title.en)).collect())
        }
        LessonCommand::Print(Print { id }) => {
            let i = curriculum::builtins()
                .iter()
                .position(|l| l.id == id)
                .ok_or_else(|| format!("no built-in lesson is called {id:?}; see `barrierscope lesson list`"))?;
            Ok(curriculum::FILES[i].1.to_string())
        }
        LessonCommand::Link(Link { path, base }) => {
            let text = read(&path)?;
            lesson_file::parse(&text).map_err(|e| format!("{path}: {}", e.message(Lang::En)))?;
            Ok(format!("{base}#lesson={}\n", to_base64url(text.as_bytes())))
        }
    }
}

/// Each lesson to check, in the order given: its name, and its place among the lessons or the
/// text of its file.
type ToCheck = Vec<(String, Result<usize, String>)>;

fn lessons_to_check(c: &Check, matches: Option<&ArgMatches>) -> Result<ToCheck, String> {
    // Where --built-in stands: before how many of the files.
    let built_in_before = match (c.built_in, matches.and_then(|m| m.index_of("built_in"))) {
        (false, _) => None,
        (true, None) => Some(0),
        (true, Some(at)) => {
            let files = matches.and_then(|m| m.indices_of("files")).into_iter().flatten();
            Some(files.filter(|i| *i < at).count())
        }
    };
    let mut lessons = Vec::new();
    for k in 0..=c.files.len() {
        if built_in_before == Some(k) {
            for (i, (name, _)) in curriculum::FILES.iter().enumerate() {
                lessons.push((format!("lessons/{name}"), Ok(i)));
            }
        }
        if let Some(f) = c.files.get(k) {
            lessons.push((f.clone(), Err(read(f)?)));
        }
    }
    Ok(lessons)
}

/// Plays every step of each lesson; one line per lesson, then what is wrong.
fn check(c: Check, matches: Option<&ArgMatches>) -> Result<String, String> {
    let lessons = lessons_to_check(&c, matches)?;
    let (mut out, mut failed) = (String::new(), 0);
    for (name, lesson) in lessons {
        let i = match lesson {
            Ok(i) => i,
            Err(text) => match curriculum::open_file(&text) {
                Ok(i) => i,
                Err(e) => {
                    failed += 1;
                    out += &format!("{name}: not a valid lesson file: {}\n", e.message(Lang::En));
                    continue;
                }
            },
        };
        let l = &curriculum::loaded().expect("natively the lessons are there")[i];
        let found = lesson_check::check(i);
        let problems = found.iter().filter(|f| f.problem).count();
        let claims: usize = l.steps.iter().map(|s| s.shows.len()).sum();
        let expects = l.steps.iter().filter(|s| s.expect.is_some()).count();
        out += &format!(
            "{name}: {} \"{}\": {} steps, {claims} claims, {expects} expected answers: {}\n",
            l.id,
            l.title.en,
            l.steps.len(),
            if problems == 0 { "ok".to_string() } else { format!("{problems} wrong") }
        );
        for f in &found {
            out += &format!("  step {}: {}{}\n", f.step, if f.problem { "" } else { "note: " }, f.what);
        }
        failed += usize::from(problems > 0);
    }
    if failed > 0 {
        Err(format!("{failed} of the lessons failed the check\n{out}"))
    } else {
        Ok(out)
    }
}
