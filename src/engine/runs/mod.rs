//! Runs as data: a scenario file, the script that drives it, and a run replayed or travelled
//! in time. A run is (scenario, seed, actions), and the simulation is deterministic.
//!
//! - [`scenario`]: a scenario file (job, input, settings, script) and its fingerprint.
//! - [`script`]: actions written in words, the one interpreter of them; [`script_json`], a line as
//!   a scenario file writes it.
//! - [`timeline`], [`replay`]: time travel, by keyframes and replay.
//! - [`run_alignment`]: two runs of one input aligned by what happened ("Compare with").
//! - [`workload`]: the fixed workload the benchmarks measure.
//! - [`base64url`]: how a run travels in a link's address.

pub mod base64url;
pub mod replay;
pub mod run_alignment;
pub mod scenario;
pub mod script;
pub mod script_json;
pub mod timeline;
pub mod workload;
