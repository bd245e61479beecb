//! The headless runner: the simulator without the browser, one subcommand per question a teacher
//! or a test asks of it. `run` plays a scenario and prints the verdict, the ledger, the
//! checkpoint statistics and the cut of the end state; `cut`, `compare`, `explore` and `lab`
//! draw a cut, put configurations side by side, try every schedule, classify barrier handlers;
//! `batch` plays Hadoop and Spark batch jobs; the others export, quiz, check lessons and list
//! what is built in. Each subcommand is one module below, opening with what it teaches.
//!
//! This file is the dispatcher: the command line is clap's (parsed from the modules' `Args`),
//! each subcommand returns its text or an error, printed here as `error: …` with exit code 2, the
//! code clap gives a usage error.
//!
//! The runner is native: clap is not in the wasm32 build, where the runner is an empty program
//! (`cargo test --target wasm32-unknown-unknown` builds every binary for the browser tests).

#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;

#[cfg(not(target_arch = "wasm32"))]
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[cfg(not(target_arch = "wasm32"))]
mod batch;
#[cfg(not(target_arch = "wasm32"))]
mod compare;
#[cfg(not(target_arch = "wasm32"))]
mod completions;
#[cfg(not(target_arch = "wasm32"))]
mod cut;
#[cfg(not(target_arch = "wasm32"))]
mod example;
#[cfg(not(target_arch = "wasm32"))]
mod explore;
#[cfg(not(target_arch = "wasm32"))]
mod export_pyflink;
#[cfg(not(target_arch = "wasm32"))]
mod export_pyspark;
#[cfg(not(target_arch = "wasm32"))]
mod jobs;
#[cfg(not(target_arch = "wasm32"))]
mod lab;
#[cfg(not(target_arch = "wasm32"))]
mod lesson;
#[cfg(not(target_arch = "wasm32"))]
mod quiz;
#[cfg(not(target_arch = "wasm32"))]
mod run;
#[cfg(not(target_arch = "wasm32"))]
mod words;

#[cfg(not(target_arch = "wasm32"))]
/// Barrierscope's headless runner: crash a dataflow job, restore it, judge every record
///
/// Barrierscope simulates a dataflow job (sources reading a replayable log, stateful operators
/// and sinks, FIFO channels, a JobManager with a checkpoint coordinator), crashes it, restores it
/// and judges every record. This runner plays scenario files and prints what the page shows.
/// The book's chapter "The headless runner" (docs/src/runner.md) explains every report.
#[derive(Parser)]
#[command(
    name = "barrierscope",
    version,
    verbatim_doc_comment,
    arg_required_else_help = true,
    after_help = EXAMPLES,
    after_long_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[cfg(not(target_arch = "wasm32"))]
const EXAMPLES: &str = "Examples:
  barrierscope run scenarios/abc-timers-lost.json
  barrierscope cut scenarios/abc-timers-duplicated.json --at 2,9,9
  barrierscope help cut";

#[cfg(not(target_arch = "wasm32"))]
#[derive(Subcommand)]
enum Command {
    Run(run::Args),
    Cut(cut::Args),
    Compare(compare::Args),
    Explore(explore::Args),
    Lab(lab::Args),
    Batch(batch::Args),
    ExportPyflink(export_pyflink::Args),
    Quiz(quiz::Args),
    ExportPyspark(export_pyspark::Args),
    Lesson(lesson::Args),
    Jobs(jobs::Args),
    Example(example::Args),
    Completions(completions::Args),
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    // A usage error is clap's: it prints the error, the usage and a hint, and exits with 2.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let done = match cli.command {
        Command::Run(a) => run::run(a),
        Command::Cut(a) => cut::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Explore(a) => explore::run(a),
        Command::Lab(a) => lab::run(a),
        Command::Batch(a) => batch::run(a),
        Command::ExportPyflink(a) => export_pyflink::run(a),
        Command::Quiz(a) => quiz::run(a),
        Command::ExportPyspark(a) => export_pyspark::run(a),
        Command::Lesson(a) => lesson::run(a, matches.subcommand_matches("lesson")),
        Command::Jobs(a) => jobs::run(a),
        Command::Example(a) => example::run(a),
        Command::Completions(a) => completions::run(a),
    };
    match done {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
