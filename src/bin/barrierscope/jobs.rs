//! `jobs`: the built-in jobs, each with its tasks and channels. A job is a graph of tasks joined
//! by FIFO channels; its tasks' order here is the order `cut --at` takes its points in.

use barrierscope::engine::{builtin, JobGraph, BUILTIN_NAMES};

/// List the built-in jobs with their tasks and channels
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  barrierscope jobs")]
pub struct Args {}

pub fn run(_: Args) -> Result<String, String> {
    let mut s = String::new();
    for name in BUILTIN_NAMES {
        let b = builtin(name).expect("built-in");
        let g = JobGraph::build(&b.spec, &b.input).expect("built-ins are valid");
        s += &format!("{name:<14} {} ({} tasks, {} channels)\n", b.description, g.tasks.len(), g.channels.len());
    }
    Ok(s)
}
