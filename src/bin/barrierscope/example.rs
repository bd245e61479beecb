//! `example`: a scenario file to start from. Every setting is spelled out, on a built-in job,
//! with the script that tells the whole story in six words: read and deliver, checkpoint, go on,
//! crash, restore, run to the end. Change one setting and `run` it again to see what it decides.

use barrierscope::engine::{Scenario, ScriptAction, Settings, Strategy, BUILTIN_NAMES};

use crate::words::Offered;

/// Print an example scenario for a built-in job
///
/// Prints a scenario file for the built-in job JOB (see `jobs`), with every setting spelled out
/// and the script auto 6, checkpoint, auto 6, crash, restore, run to end.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// The built-in job
    #[arg(value_name = "JOB", value_parser = Offered(|| BUILTIN_NAMES.to_vec()))]
    job: String,
}

const EXAMPLES: &str = "Examples:
  barrierscope example line > my-scenario.json
  barrierscope run my-scenario.json";

pub fn run(args: Args) -> Result<String, String> {
    let name = args.job;
    let mut sc = Scenario::builtin(&name, Settings::new(Strategy::Aligned), 7);
    sc.graph().map_err(|e| e.to_string())?;
    sc.name = format!("{name}: a checkpoint, a crash, a restore");
    sc.actions = vec![
        ScriptAction::Auto(6),
        ScriptAction::Checkpoint,
        ScriptAction::Auto(6),
        ScriptAction::Crash,
        ScriptAction::Restore,
        ScriptAction::RunToEnd,
    ];
    Ok(sc.to_json() + "\n")
}
