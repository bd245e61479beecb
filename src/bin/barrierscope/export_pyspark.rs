//! `export-pyspark`: the same job on a real Apache Spark. A Spark Streaming scenario or a Spark
//! batch file becomes one PySpark program that runs the job in Spark's local mode, kills and
//! restarts the driver where the simulator's script crashes it, and prints the verdicts in the
//! runner's JSON shape. Its `PLAN` is what it read off the simulator's run.

use barrierscope::engine::batch::{wording, BatchFile, BATCH_LESSON};
use barrierscope::engine::{export_pyspark, export_pyspark_batch, Lang, Scenario};

use crate::words::{read, to_file_or_stdout};

/// Write a Spark Streaming scenario or a Spark batch file as a PySpark job
///
/// Writes a Spark Streaming scenario (strategy spark-streaming, a socket source) or a Spark
/// batch file ("barrierscope-batch": 1, engine spark) as one PySpark program, to OUT.py or,
/// without -o, to standard output. Run it with PySpark's interpreter:
/// .venv-spark/bin/python job.py --work DIR --result result.json
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// The Spark Streaming scenario or Spark batch file
    #[arg(value_name = "FILE.json", value_hint = clap::ValueHint::FilePath)]
    path: String,
    /// Write the program to this file instead of standard output
    #[arg(short, long, value_name = "OUT.py", value_hint = clap::ValueHint::FilePath)]
    output: Option<String>,
}

const EXAMPLES: &str = "Examples:
  barrierscope export-pyspark scenarios/groundtruth-spark/s3-append-rerun-after-completed-batch.json
  barrierscope export-pyspark scenarios/groundtruth-spark/b1-task-fails-once.json -o job.py";

/// A Spark Streaming scenario or a Spark batch file as one runnable PySpark program.
pub fn run(args: Args) -> Result<String, String> {
    let Args { path, output } = args;
    let text = read(&path)?;
    let is_batch =
        serde_json::from_str::<serde_json::Value>(&text).ok().is_some_and(|v| v.get("barrierscope-batch").is_some());
    let python = if is_batch {
        let opened = BatchFile::open(&text, BATCH_LESSON.len())
            .map_err(|e| format!("{path}: {}", wording::load_error(Lang::En, &e)))?;
        let name = opened.file.name.clone().unwrap_or_default();
        export_pyspark_batch(&opened.run, &name).map_err(|e| format!("{path}: {e}"))?
    } else {
        let scenario = Scenario::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
        export_pyspark(&scenario).map_err(|e| format!("{path}: {e}"))?
    };
    to_file_or_stdout(python, output)
}
