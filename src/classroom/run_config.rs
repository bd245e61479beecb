//! A run configuration: everything that defines a run besides its actions (a built-in job, its
//! settings, the seed, and optionally generated input). A lesson names the configuration of each
//! of its steps; the session runs one; a saved run stores one.

use serde::{Deserialize, Serialize};

use crate::engine::{builtin, generated_input, OperatorKind};
use crate::engine::{Scenario, Settings, Strategy};

/// At most this many generated records per source partition.
pub const MAX_GENERATED: u32 = 5000;

/// Everything that defines a run besides its actions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunConfig {
    pub job: String,
    pub settings: Settings,
    pub seed: u64,
    /// Generated input with this many records per source partition; None: the job's own story.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<u32>,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig { job: "line".into(), settings: Settings::new(Strategy::Timers), seed: 1, records: None }
    }
}

impl RunConfig {
    pub fn scenario(&self) -> Scenario {
        let mut sc = Scenario::builtin(&self.job, self.settings.clone(), self.seed);
        if let (Some(n), Some(b)) = (self.records, builtin(&self.job)) {
            sc.input = Some(generated_input(&b.spec, n.min(MAX_GENERATED) as usize));
        }
        sc
    }
    pub fn has_sink(&self) -> bool {
        builtin(&self.job).is_some_and(|b| b.spec.operators.iter().any(|o| o.kind == OperatorKind::Sink))
    }
}
