//! A restore into a changed program in a scenario file (`"restore"`), played without the page:
//! the scenario's script runs first (it takes a savepoint, or stops with one), then the program
//! is edited, and `flink run -s PATH [--allowNonRestoredState]` submits the edited program from
//! the snapshot (`Sim::restore_into`, after Flink's `Checkpoints.loadAndValidateCheckpoint` and
//! `StateAssignmentOperation`). The report is the restore's verdict (restored, or Flink's
//! refusal), the mapping by operator id, and the restored job's run after its own script.
//!
//! The edits are the Program & savepoints room's, spelled as words (`classroom::program_edit`):
//! `insert-filter`, `NAME=P` (parallelism), `uid NAME=UID` (`uid NAME=` clears it),
//! `max NAME=M` (`max NAME=` unsets it) and `remove NAME`.

use serde::{Deserialize, Serialize};

use crate::engine::core::dataflow::job_graph::JobSpec;
use crate::engine::core::error::ScenarioError;
use crate::engine::core::ids::CheckpointId;
use crate::engine::core::sim::Sim;
use crate::engine::program::rescale::MappingRow;
use crate::engine::runs::script::ScriptAction;

/// `"restore"` in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ScenarioRestore {
    /// The savepoint or retained checkpoint restored, by id; absent: the newest savepoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<u64>,
    /// The program edits, in order.
    #[serde(default)]
    pub edits: Vec<String>,
    /// `--allowNonRestoredState`.
    #[serde(default)]
    pub allow_non_restored_state: bool,
    /// The restored job's script.
    #[serde(default)]
    pub actions: Vec<ScriptAction>,
}

/// What the restore did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestoreReport {
    pub from: CheckpointId,
    /// The edited program.
    pub program: JobSpec,
    pub allow_non_restored_state: bool,
    /// The mapping by operator id (empty when refused).
    pub rows: Vec<MappingRow>,
    /// The refusal, as Flink (or, for its own limits, the simulator) words it.
    pub refused: Option<String>,
}

impl ScenarioRestore {
    /// The edited program: `spec` with every edit applied in order.
    pub fn program(&self, spec: &JobSpec, keys: &[String]) -> Result<JobSpec, String> {
        use crate::engine::program::program_edit::{apply, Edit};
        let mut spec = spec.clone();
        for word in &self.edits {
            let e = Edit::parse(&spec, word)?;
            spec = apply(&spec, &e, keys);
        }
        Ok(spec)
    }

    /// Restores `sim` (stopped, after the scenario's script) into the edited program. `index` is
    /// the script line the errors name (the one after the scenario's last). A refusal is a
    /// report, not an error; the returned sim is then `sim` unchanged.
    pub fn play(
        &self,
        sim: Sim,
        index: usize,
    ) -> Result<(Sim, RestoreReport, Vec<crate::engine::Event>), ScenarioError> {
        let err = |message: String| ScenarioError::Action { index, message: format!("restore: {message}") };
        let from = match self.from {
            Some(id) => CheckpointId(id),
            None => sim
                .savepoints()
                .last()
                .map(|s| s.checkpoint.id)
                .ok_or_else(|| err("the run took no savepoint; name a retained checkpoint with \"from\"".into()))?,
        };
        let program = self.program(&sim.graph.spec, &sim.graph.keys).map_err(err)?;
        let mut report = RestoreReport {
            from,
            program: program.clone(),
            allow_non_restored_state: self.allow_non_restored_state,
            rows: Vec::new(),
            refused: None,
        };
        match sim.restore_into(from, &program, self.allow_non_restored_state) {
            Ok((new, plan, events)) => {
                report.rows = plan.rows;
                Ok((new, report, events))
            }
            Err(crate::engine::program::rescale::Refusal::Action(e)) => Err(err(e.to_string())),
            Err(r) => {
                report.refused = Some(r.message());
                Ok((sim, report, Vec::new()))
            }
        }
    }
}
