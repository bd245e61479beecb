//! A restore into a changed program, as a session keeps it and the saved-run format writes it
//! (`"restore"` in a saved run): the run before the restore (its own actions, and its own
//! restore if it had one), the savepoint or retained checkpoint it restores from, the new program
//! and `--allowNonRestoredState`. The session's timeline then starts at the restored job
//! (`engine::rescale`), so its steps, share links and files replay exactly.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::job_graph::JobSpec;
use crate::engine::program::rescale::Refusal;
use crate::engine::{Action, CheckpointId, ScenarioError, Sim};

use super::run_config::RunConfig;

/// `flink run -s PATH [-n]` with a changed program, after the run `before`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProgramChange {
    /// The restore the run before this one started from, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<Box<ProgramChange>>,
    /// The run before: action codes separated by spaces (see [`Action::code`]).
    pub before: String,
    /// The savepoint (or newest retained checkpoint) restored.
    pub from: u64,
    /// The new program.
    pub program: JobSpec,
    #[serde(default)]
    pub allow_non_restored_state: bool,
}

/// How many restores a saved run may chain.
pub const MAX_CHAINED: usize = 8;

impl ProgramChange {
    /// How many restores, this one included.
    pub fn depth(&self) -> usize {
        1 + self.prior.as_ref().map_or(0, |p| p.depth())
    }

    /// The restored job's first state: `config`'s job, the prior restores, the run before, then
    /// this restore. Refuses what the run before can't do or what the restore refuses.
    pub fn start(&self, config: &RunConfig) -> Result<Sim, ScenarioError> {
        if self.depth() > MAX_CHAINED {
            return Err(ScenarioError::Settings(format!("at most {MAX_CHAINED} restores can be chained")));
        }
        let mut sim = match &self.prior {
            Some(p) => p.start(config)?,
            None => config.scenario().sim()?,
        };
        let mut out = Vec::new();
        for (index, code) in self.before.split_whitespace().enumerate() {
            let a = Action::from_code(code)
                .ok_or_else(|| ScenarioError::Action { index, message: format!("unknown action code {code:?}") })?;
            sim.apply(a, &mut out).map_err(|e| ScenarioError::Action { index, message: e.to_string() })?;
        }
        let (new, _, _) = sim
            .restore_into(CheckpointId(self.from), &self.program, self.allow_non_restored_state)
            .map_err(|r: Refusal| ScenarioError::Action {
                index: self.before.split_whitespace().count(),
                message: r.message(),
            })?;
        Ok(new)
    }
}
