//! `completions`: the shell completion script, written by clap_complete from the same definition
//! of the command line that parses it, so a new subcommand or option completes as soon as it
//! exists. It completes the subcommands, their options, the values `--lang` and `example` take,
//! and file names where a file is wanted.

use clap::CommandFactory;
use clap_complete::Shell;

/// Print a shell completion script
///
/// Prints the completion script for SHELL on standard output. Load it in the running shell, or
/// save it where your shell looks for completions.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_help = EXAMPLES)]
pub struct Args {
    /// The shell to complete in
    #[arg(value_name = "SHELL")]
    shell: Shell,
}

const EXAMPLES: &str = "Examples:
  source <(barrierscope completions bash)
  barrierscope completions zsh > ~/.zfunc/_barrierscope
  barrierscope completions fish > ~/.config/fish/completions/barrierscope.fish";

pub fn run(args: Args) -> Result<String, String> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut crate::Cli::command(), "barrierscope", &mut script);
    String::from_utf8(script).map_err(|e| format!("the completion script is not UTF-8: {e}"))
}
