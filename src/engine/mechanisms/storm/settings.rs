//! Storm's own settings: `message-timeout` (Storm's `topology.message.timeout.secs`, in steps),
//! `ackers` (`topology.acker.executors`: 0 turns tracking off, 1 is the one acker here) and the
//! unanchored edges (a bolt that emits without anchoring). A run's `Settings` carries them
//! (`settings.mechanism.storm`), and a scenario file writes them flat beside Flink's keys, as
//! Storm's own configuration does. How an edit changes them, and which the run refuses, is in
//! `settings_rules.rs`.

use serde::de::MapAccess;
use serde::Serialize;

/// Storm's settings, as a topology's configuration holds them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct StormSettings {
    /// Steps before a tuple's tree that is not fully acked fails (Storm's
    /// `topology.message.timeout.secs`, default 30 seconds; the spout and the acker rotate their
    /// pending maps once per timeout, so a tuple fails between 1 and 2 timeouts after it was
    /// emitted). The default, 100 steps, is long enough that no built-in job's failure-free run
    /// times out (30 would: a second is far longer than a record's processing, a step is not).
    pub message_timeout: u64,
    /// Acker tasks (`topology.acker.executors`): 1, or 0 to turn tracking off (the spout acks
    /// every tuple as it emits it: at most once).
    pub ackers: u32,
    /// Edges ("From->To", operator names) whose tuples bolts emit unanchored: not tracked, never
    /// replayed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unanchored: Vec<String>,
}

impl Default for StormSettings {
    fn default() -> Self {
        StormSettings { message_timeout: 100, ackers: 1, unanchored: vec![] }
    }
}

/// One change a person makes to Storm's settings (the settings form's fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StormEdit {
    /// `topology.message.timeout.secs`, in steps (1 or more; more than [`MAX_STEPS_SETTING`](crate::engine::settings::MAX_STEPS_SETTING) is
    /// taken as the limit).
    MessageTimeout(u64),
    /// `topology.acker.executors`: 0 turns tracking off, 1 is the one acker here.
    Ackers(u32),
    /// Anchor (true) or not the tuples a bolt emits on the `index`-th edge of the job.
    Anchoring { edge: u16, anchored: bool },
}

impl StormSettings {
    /// The keys a scenario file writes them under.
    pub const KEYS: [&'static str; 3] = ["message-timeout", "ackers", "unanchored"];

    /// Reads the value of `key` if it is one of Storm's; false if it is not.
    pub fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "message-timeout" => self.message_timeout = map.next_value()?,
            "ackers" => self.ackers = map.next_value()?,
            "unanchored" => self.unanchored = map.next_value()?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}
