//! `export-pyflink`: the same job on a real Apache Flink. A scenario becomes one PyFlink program
//! that builds the job, injects the failure where the script crashes it, and prints the verdicts
//! in the runner's JSON shape, so the simulator's claims can be checked against Flink itself (the
//! ground truth, `scripts/groundtruth.sh`).

use barrierscope::engine::{export_pyflink, Scenario};

use crate::words::{read, to_file_or_stdout};

/// Write a scenario as a PyFlink job
///
/// Writes the scenario as one PyFlink program, the same job on a real Apache Flink, to OUT.py
/// or, without -o, to standard output. Run it with PyFlink's interpreter:
/// .venv-flink/bin/python job.py --result result.json
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// The scenario file
    #[arg(value_name = "SCENARIO.json", value_hint = clap::ValueHint::FilePath)]
    path: String,
    /// Write the program to this file instead of standard output
    #[arg(short, long, value_name = "OUT.py", value_hint = clap::ValueHint::FilePath)]
    output: Option<String>,
}

const EXAMPLES: &str = "Examples:
  barrierscope export-pyflink scenarios/groundtruth/1-aligned-append-after-checkpoint.json -o job.py";

pub fn run(args: Args) -> Result<String, String> {
    let Args { path, output } = args;
    let text = read(&path)?;
    let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    let python = export_pyflink(&scenario).map_err(|e| format!("{path}: {e}"))?;
    to_file_or_stdout(python, output)
}
