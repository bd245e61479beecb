//! What the core carries for a mechanism that keeps books of its own. A run's [`Event`], a refused
//! action's [`ActionError`] and a restart's [`RestoreFrom`] are the core's types, and most of
//! their variants are the core's words (a record read, a checkpoint completed, a task restored
//! from checkpoint 3). Storm's acker and Spark Streaming's driver say things no core variant
//! says: a tree XORed to 0, a block stored, a restart from the spouts' committed offsets or from
//! the driver's metadata checkpoint. Each writes those in its own folder (`storm/events.rs`,
//! `storm/refusals.rs`, `spark/events.rs`, `spark/refusals.rs`), and the core holds them through
//! the three sum types here, one variant per mechanism: this file lists which mechanism has which,
//! as the catalogue lists rows, and no file of the core names a mechanism.
//!
//! In a log and a fingerprint each is written as the mechanism's own value (`{"event":
//! "acker-updated",...}`, `{"from":"committed"}`): the sum types are untagged, so they add
//! nothing to what a saved run holds. Their words are the mechanisms' own, asked through the
//! catalogue (`MechanismEvent::narrate`, `MechanismRestore::words`).
//!
//! [`Event`]: crate::engine::core::event::Event
//! [`ActionError`]: crate::engine::core::error::ActionError
//! [`RestoreFrom`]: crate::engine::core::event_terms::RestoreFrom

use serde::{Deserialize, Serialize};

use crate::engine::core::lang::Lang;
use crate::engine::mechanisms::spark::events::{SparkRestore, SparkStreamingEvent};
use crate::engine::mechanisms::spark::refusals::SparkRefusal;
use crate::engine::mechanisms::storm::events::{StormEvent, StormRestore};
use crate::engine::mechanisms::storm::refusals::StormRefusal;

/// A mechanism's own event, as `Event::Mechanism` carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MechanismEvent {
    /// Storm's acker, spouts, bolts, Nimbus and supervisors.
    Storm(StormEvent),
    /// Spark Streaming's receivers, driver and executors.
    Spark(SparkStreamingEvent),
}

/// Why a mechanism refused an action, in its own words, as `ActionError::Mechanism` carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MechanismRefusal {
    /// Refused by Storm's acker.
    Storm(StormRefusal),
    /// Refused by Spark Streaming.
    Spark(SparkRefusal),
}

impl MechanismRefusal {
    /// Why the action was refused, in one clause: the mechanism's own.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            MechanismRefusal::Storm(r) => r.message(lang),
            MechanismRefusal::Spark(r) => r.message(lang),
        }
    }
}

/// Where a mechanism's own restart came from, as `RestoreFrom::Mechanism` carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MechanismRestore {
    /// Storm's worker, from the spouts' committed offsets.
    Storm(StormRestore),
    /// Spark Streaming's driver, from its metadata checkpoint.
    Spark(SparkRestore),
}
