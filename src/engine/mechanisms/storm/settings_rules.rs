//! The rules of Storm's own settings ([`StormSettings`]): how a person's edit changes them, and
//! which a run refuses before it starts. Each is refused under another strategy, and a socket is
//! refused under this one: a spout replays a failed tuple by reading its offset again, which a
//! socket cannot do.

use super::settings::{StormEdit, StormSettings};
use crate::engine::core::dataflow::job_graph::{JobGraph, OperatorKind};
use crate::engine::settings::{Setting, Settings, SourceKind, MAX_STEPS_SETTING};

impl StormSettings {
    /// Makes one edit; `graph` names the edges of [`StormEdit::Anchoring`] (without it, that edit
    /// changes nothing).
    pub fn edit(&mut self, edit: StormEdit, graph: Option<&JobGraph>) {
        match edit {
            StormEdit::MessageTimeout(n) => self.message_timeout = n.clamp(1, MAX_STEPS_SETTING),
            StormEdit::Ackers(n) => self.ackers = n.min(1),
            StormEdit::Anchoring { edge, anchored } => {
                if let Some(e) = graph.and_then(|g| g.spec.edges.get(edge as usize)) {
                    let name = e.name();
                    self.unanchored.retain(|n| *n != name);
                    if !anchored {
                        self.unanchored.push(name);
                        crate::engine::core::stable_sort::sort_stable_by(&mut self.unanchored, |a, b| a.cmp(b));
                    }
                }
            }
        }
    }
}

/// Why Storm refuses these settings, or Ok.
pub fn check(s: &Settings, graph: &JobGraph) -> Result<(), String> {
    let storm = &s.mechanism.storm;
    if s.source == SourceKind::Socket && !s.strategy.takes(Setting::Socket) {
        return Err("source socket: Storm's spout replays a failed tuple by reading its offset again, which a socket cannot do; use a replayable-log source".into());
    }
    if storm.message_timeout == 0 || storm.message_timeout > MAX_STEPS_SETTING {
        return Err(format!("message-timeout must be 1 to {MAX_STEPS_SETTING} steps"));
    }
    if storm.ackers > 1 {
        return Err("ackers must be 0 (tracking off) or 1: the simulator runs one acker".into());
    }
    if !s.strategy.takes(Setting::AckerSettings) && *storm != StormSettings::default() {
        return Err(format!(
            "message-timeout, ackers and unanchored belong to the storm-acker strategy, not {:?}",
            s.strategy.id()
        ));
    }
    for name in &storm.unanchored {
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
