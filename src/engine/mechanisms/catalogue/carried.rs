//! What the core carries for a mechanism that keeps books of its own. A run's [`Event`], a refused
//! action's [`ActionError`], a restart's [`RestoreFrom`] and a run's [`Settings`] (with their
//! [`Edit`]s) are the core's types, and most of
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
//! A mechanism's own settings ([`MechanismSettings`]: Storm's `message-timeout`, `ackers` and
//! unanchored edges, Spark Streaming's `batch-interval` and `write-ahead-log`, Structured Streaming's
//! `max-offsets-per-trigger` and `output-sink`) are written flat in a
//! scenario's `settings`, beside Flink's keys, as each system's configuration writes them; the
//! reader here hands each key to the mechanism that owns it, and the settings refuse any key no
//! one owns.
//!
//! [`Event`]: crate::engine::core::event::Event
//! [`ActionError`]: crate::engine::core::error::ActionError
//! [`RestoreFrom`]: crate::engine::core::event_terms::RestoreFrom
//! [`Settings`]: crate::engine::settings::Settings
//! [`Edit`]: crate::engine::settings::Edit

use std::fmt;

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::engine::core::lang::Lang;
use crate::engine::mechanisms::spark::events::{SparkRestore, SparkStreamingEvent};
use crate::engine::mechanisms::spark::refusals::SparkRefusal;
use crate::engine::mechanisms::spark::settings::{SparkEdit, SparkSettings};
use crate::engine::mechanisms::storm::events::{StormEvent, StormRestore};
use crate::engine::mechanisms::storm::refusals::StormRefusal;
use crate::engine::mechanisms::storm::settings::{StormEdit, StormSettings};
use crate::engine::mechanisms::structured::events::{StructuredEvent, StructuredRestore};
use crate::engine::mechanisms::structured::refusals::StructuredRefusal;
use crate::engine::mechanisms::structured::settings::{StructuredEdit, StructuredSettings};

/// A mechanism's own event, as `Event::Mechanism` carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MechanismEvent {
    /// Storm's acker, spouts, bolts, Nimbus and supervisors.
    Storm(StormEvent),
    /// Spark Streaming's receivers, driver and executors.
    Spark(SparkStreamingEvent),
    /// Structured Streaming's driver: its offset log, commit log, state stores and sink.
    Structured(StructuredEvent),
}

/// Why a mechanism refused an action, in its own words, as `ActionError::Mechanism` carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MechanismRefusal {
    /// Refused by Storm's acker.
    Storm(StormRefusal),
    /// Refused by Spark Streaming.
    Spark(SparkRefusal),
    /// Refused by Structured Streaming.
    Structured(StructuredRefusal),
}

impl MechanismRefusal {
    /// Why the action was refused, in one clause: the mechanism's own.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            MechanismRefusal::Storm(r) => r.message(lang),
            MechanismRefusal::Spark(r) => r.message(lang),
            MechanismRefusal::Structured(r) => r.message(lang),
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
    /// Structured Streaming's query, from its checkpoint location.
    Structured(StructuredRestore),
}

/// The mechanisms' own settings, as `Settings::mechanism` carries them: every mechanism's, with
/// its defaults where the run's strategy is another (each mechanism refuses a change to its own
/// under another strategy).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MechanismSettings {
    /// Storm's acker.
    #[serde(flatten)]
    pub storm: StormSettings,
    /// Spark Streaming.
    #[serde(flatten)]
    pub spark: SparkSettings,
    /// Structured Streaming.
    #[serde(flatten)]
    pub structured: StructuredSettings,
}

/// One change to a mechanism's own settings, as `Edit::Mechanism` carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MechanismEdit {
    Storm(StormEdit),
    Spark(SparkEdit),
    Structured(StructuredEdit),
}

/// Every key a mechanism's own settings are written under.
pub const KEYS: [&str; 7] = {
    let (s, p, q) = (StormSettings::KEYS, SparkSettings::KEYS, StructuredSettings::KEYS);
    [s[0], s[1], s[2], p[0], p[1], q[0], q[1]]
};

/// Read from the flat `settings` object: serde hands this reader the keys in [`KEYS`] only, and
/// each goes to the mechanism that owns it. Written by hand because serde's derived reader for
/// nested flattened fields would leave their keys for `Settings` to refuse as unknown.
impl<'de> Deserialize<'de> for MechanismSettings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = MechanismSettings;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mechanism's own settings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MechanismSettings, A::Error> {
                let mut m = MechanismSettings::default();
                while let Some(key) = map.next_key::<String>()? {
                    if !(m.storm.read(&key, &mut map)?
                        || m.spark.read(&key, &mut map)?
                        || m.structured.read(&key, &mut map)?)
                    {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(m)
            }
        }
        d.deserialize_struct("MechanismSettings", &KEYS, Keys)
    }
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
        let structured = StructuredEvent::SinkCommitted {
            batch: 1,
            sink: crate::engine::mechanisms::structured::settings::OutputSink::File,
            rows: 2,
            skipped: true,
        };
        for (event, own) in [
            (Event::from(storm), serde_json::to_string(&storm).unwrap()),
            (Event::from(spark), serde_json::to_string(&spark).unwrap()),
            (Event::from(structured), serde_json::to_string(&structured).unwrap()),
        ] {
            let written = serde_json::to_string(&event).unwrap();
            assert_eq!(written, own);
            assert_eq!(serde_json::from_str::<Event>(&written).unwrap(), event);
        }
        let committed = StormRestore::Committed;
        let metadata = SparkRestore::MetadataCheckpoint { state: Some(3), recompute: 1, rerun: 2, again: 1, since: 8 };
        let location = StructuredRestore::CheckpointLocation { batch: 3, rerun: true, version: 3 };
        for (from, own) in [
            (RestoreFrom::from(committed), serde_json::to_string(&committed).unwrap()),
            (RestoreFrom::from(metadata), serde_json::to_string(&metadata).unwrap()),
            (RestoreFrom::from(location), serde_json::to_string(&location).unwrap()),
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

    /// A mechanism's own settings are read from the flat `settings` object and written back into
    /// it, key for key: Storm's after `failover-strategy`, where they always were, Spark
    /// Streaming's beside them. A key no one owns is still refused by name, and a bad value names
    /// its type. Model: the flat object written by hand, and the fields set one by one.
    #[test]
    fn a_mechanisms_own_settings_read_and_write_flat() {
        use crate::engine::settings::{Settings, Strategy};
        let flat = r#"{"strategy":"storm-acker","failover-strategy":"region","message-timeout":7,"ackers":0,"unanchored":["Count->Sink"],"batch-interval":3,"write-ahead-log":true,"high-availability":"standby"}"#;
        let s: Settings = serde_json::from_str(flat).unwrap();
        let mut want = Settings::new(Strategy::StormAcker);
        want.mechanism.storm = StormSettings { message_timeout: 7, ackers: 0, unanchored: vec!["Count->Sink".into()] };
        want.mechanism.spark = SparkSettings { batch_interval: 3, write_ahead_log: true };
        assert_eq!(s, want);
        let written = serde_json::to_string(&s).unwrap();
        let at = |key: &str| written.find(&format!("\"{key}\"")).unwrap();
        assert!(at("failover-strategy") < at("message-timeout"), "{written}");
        assert!(at("message-timeout") < at("ackers") && at("ackers") < at("unanchored"), "{written}");
        assert!(
            at("unanchored") < at("batch-interval") && at("write-ahead-log") < at("high-availability"),
            "{written}"
        );
        assert_eq!(serde_json::from_str::<Settings>(&written).unwrap(), s);
        // The defaults: Storm's two always written, Spark's left out.
        let plain = serde_json::to_string(&Settings::new(Strategy::Aligned)).unwrap();
        assert!(plain.contains(r#""message-timeout":100,"ackers":1"#) && !plain.contains("batch-interval"), "{plain}");
        assert_eq!(serde_json::from_str::<Settings>(r#"{}"#).unwrap(), Settings::new(Strategy::Aligned));
        // A key no one owns is refused by name, with every key there is, as serde refuses one.
        let unknown = serde_json::from_str::<Settings>(r#"{"ackers":1,"acker":2}"#).unwrap_err().to_string();
        assert!(unknown.starts_with("unknown field `acker`, expected one of `strategy`, "), "{unknown}");
        assert!(
            unknown
                .contains("`handler`, `message-timeout`, `ackers`, `unanchored`, `batch-interval`, `write-ahead-log`"),
            "{unknown}"
        );
        // The keys listed are every key a settings object is written with, and no other: one
        // with every field set writes them all, and each reads back.
        let mut all = Settings::new(Strategy::SparkStreaming);
        all.mechanism.storm.unanchored = vec!["Map->Count".into()];
        all.mechanism.spark = SparkSettings { batch_interval: 3, write_ahead_log: true };
        all.mechanism.structured = StructuredSettings {
            max_offsets_per_trigger: 3,
            output_sink: Some(crate::engine::mechanisms::structured::settings::OutputSink::File),
        };
        all.source = crate::engine::settings::SourceKind::Socket;
        all.handler = Some(crate::engine::settings::handler::Handler::TRACKER);
        all.record_cost.insert("Count".into(), 3);
        all.channel_capacities.insert("Map->Count".into(), 2);
        all.buffer_debloat_target = Some(10);
        all.kafka = Some(crate::engine::settings::kafka::KafkaSettings::default());
        let v = serde_json::to_value(&all).unwrap();
        let mut written: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        let mut listed = crate::engine::settings::KEYS.to_vec();
        written.sort();
        listed.sort();
        assert_eq!(written, listed);
        let bad = serde_json::from_str::<Settings>(r#"{"ackers":"one"}"#).unwrap_err().to_string();
        assert!(bad.contains("invalid type: string \"one\", expected u32"), "{bad}");
    }
}
