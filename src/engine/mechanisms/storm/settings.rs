//! The rules of Storm's own settings, checked before a run starts: `message-timeout` (Storm's
//! `topology.message.timeout.secs`, in steps), `ackers` (`topology.acker.executors`: 0 turns
//! tracking off, 1 is the one acker here) and the unanchored edges (a bolt that emits without
//! anchoring). Each is refused under another strategy, and a socket is refused under this one:
//! a spout replays a failed tuple by reading its offset again, which a socket cannot do. The
//! settings themselves are fields of `Settings`, since the scenario format writes them flat.

use crate::engine::core::dataflow::job_graph::{JobGraph, OperatorKind};
use crate::engine::settings::{default_message_timeout, Setting, Settings, SourceKind, MAX_STEPS_SETTING};

/// Why Storm refuses these settings, or Ok.
pub fn check(s: &Settings, graph: &JobGraph) -> Result<(), String> {
    if s.source == SourceKind::Socket && !s.strategy.takes(Setting::Socket) {
        return Err("source socket: Storm's spout replays a failed tuple by reading its offset again, which a socket cannot do; use a replayable-log source".into());
    }
    if s.message_timeout == 0 || s.message_timeout > MAX_STEPS_SETTING {
        return Err(format!("message-timeout must be 1 to {MAX_STEPS_SETTING} steps"));
    }
    if s.ackers > 1 {
        return Err("ackers must be 0 (tracking off) or 1: the simulator runs one acker".into());
    }
    if !s.strategy.takes(Setting::AckerSettings)
        && (s.ackers != 1 || !s.unanchored.is_empty() || s.message_timeout != default_message_timeout())
    {
        return Err(format!(
            "message-timeout, ackers and unanchored belong to the storm-acker strategy, not {:?}",
            s.strategy.id()
        ));
    }
    for name in &s.unanchored {
        let Some(e) = graph.spec.edges.iter().find(|e| e.name() == *name) else {
            return Err(format!(
                "unanchored edge {name:?}: the job has no such edge; its edges are {}",
                graph.spec.edges.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ")
            ));
        };
        if graph.spec.operators.iter().any(|o| o.name == e.from && o.kind == OperatorKind::Source) {
            return Err(format!(
                "unanchored edge {name:?}: a spout's tuples are anchored by their message id; turn acking off (ackers 0) to emit untracked"
            ));
        }
    }
    Ok(())
}
