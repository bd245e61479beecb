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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::action::{Event, RestoreFrom};
    use crate::engine::core::ids::{RecordId, TaskId};

    /// A carried value is written as the mechanism's own value, with nothing of the sum types
    /// around it, and reads back as what was written. Model: the mechanism's value serialized on
    /// its own.
    #[test]
    fn a_carried_value_is_written_as_its_own_and_reads_back() {
        let storm = StormEvent::AckerUpdated { from: TaskId(1), record: RecordId(2), root: 3, val: 4 };
        let spark = SparkStreamingEvent::BatchGenerated { batch: 2, blocks: 3 };
        for (event, own) in [
            (Event::from(storm), serde_json::to_string(&storm).unwrap()),
            (Event::from(spark), serde_json::to_string(&spark).unwrap()),
        ] {
            let written = serde_json::to_string(&event).unwrap();
            assert_eq!(written, own);
            assert_eq!(serde_json::from_str::<Event>(&written).unwrap(), event);
        }
        let committed = StormRestore::Committed;
        let metadata = SparkRestore::MetadataCheckpoint { state: Some(3), recompute: 1, rerun: 2, again: 1, since: 8 };
        for (from, own) in [
            (RestoreFrom::from(committed), serde_json::to_string(&committed).unwrap()),
            (RestoreFrom::from(metadata), serde_json::to_string(&metadata).unwrap()),
        ] {
            let event = Event::Restored { from };
            let written = serde_json::to_string(&event).unwrap();
            assert_eq!(written, format!("{{\"event\":\"restored\",\"from\":{own}}}"));
            assert_eq!(serde_json::from_str::<Event>(&written).unwrap(), event);
        }
        assert_eq!(serde_json::to_string(&committed).unwrap(), r#"{"from":"committed"}"#);
        // A saved run written before the sum types, with the defaults it could leave out, reads.
        let old = r#"{"event":"restored","from":{"from":"metadata-checkpoint","state":null,"recompute":0,"rerun":1}}"#;
        assert_eq!(
            serde_json::from_str::<Event>(old).unwrap(),
            Event::Restored {
                from: RestoreFrom::from(SparkRestore::MetadataCheckpoint {
                    state: None,
                    recompute: 0,
                    rerun: 1,
                    again: 0,
                    since: 0
                })
            }
        );
    }
}
