//! The number fields of the Settings panel, as a learner types them. Each field has a range; a
//! value outside it is clamped to the nearest limit and the learner is told so ("9000 is above the
//! maximum 5000; using 5000"); a value that is no whole number is refused, and then nothing
//! changes. An empty field means what its label says (the story's input, by hand, off,
//! unbounded), or the smallest value where it has no such meaning. The words are in `wording.rs`.

use serde::{Deserialize, Serialize};

use super::run_config::{RunConfig, MAX_GENERATED};
use crate::engine::mechanisms::spark::settings::{SparkEdit, SparkSettings};
use crate::engine::mechanisms::storm::settings::{StormEdit, StormSettings};
use crate::engine::settings::{Edit, MAX_CHANNEL_CAPACITY, MAX_RECORD_COST, MAX_STEPS_SETTING};

/// A number field of the Settings panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettingField {
    /// Generated records per source partition (empty: the story's input).
    Records,
    Seed,
    /// Steps between triggered checkpoints (empty: by hand).
    CheckpointInterval,
    /// Steps of alignment before a checkpoint goes unaligned (empty: off).
    AlignmentTimeout,
    /// Items a channel holds before its producer is backpressured (empty: unbounded).
    ChannelCapacity,
    /// Steps a record of the slow task, 2 or more (empty: no task is slow).
    RecordCost,
    /// Buffer debloating's target in steps (empty: off).
    BufferDebloatTarget,
    TolerableFailedCheckpoints,
    /// Storm: steps before a tuple's tree that is not fully acked fails (empty: the default).
    MessageTimeout,
    /// Spark Streaming: steps between the batches the driver cuts (empty: the default).
    BatchInterval,
}

/// What a field did with a value it could not take as typed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FieldNote {
    /// `typed` was outside the range: the field uses `limit` instead.
    Clamped { field: SettingField, typed: String, limit: u64, above: bool },
    /// `typed` is not a whole number (None: the browser could not read a number at all); nothing
    /// changed.
    Refused { field: SettingField, typed: Option<String> },
}

impl FieldNote {
    pub fn field(&self) -> SettingField {
        match self {
            FieldNote::Clamped { field, .. } | FieldNote::Refused { field, .. } => *field,
        }
    }
    pub fn is_refusal(&self) -> bool {
        matches!(self, FieldNote::Refused { .. })
    }
}

impl SettingField {
    pub const ALL: [SettingField; 10] = [
        SettingField::Records,
        SettingField::Seed,
        SettingField::CheckpointInterval,
        SettingField::AlignmentTimeout,
        SettingField::ChannelCapacity,
        SettingField::RecordCost,
        SettingField::BufferDebloatTarget,
        SettingField::TolerableFailedCheckpoints,
        SettingField::MessageTimeout,
        SettingField::BatchInterval,
    ];

    /// The smallest and the largest value the field takes.
    pub fn range(self) -> (u64, u64) {
        match self {
            SettingField::Records => (1, MAX_GENERATED as u64),
            SettingField::Seed => (0, u64::MAX),
            SettingField::CheckpointInterval
            | SettingField::AlignmentTimeout
            | SettingField::MessageTimeout
            | SettingField::BatchInterval
            | SettingField::BufferDebloatTarget => (1, MAX_STEPS_SETTING),
            SettingField::RecordCost => (2, MAX_RECORD_COST as u64),
            SettingField::ChannelCapacity => (1, MAX_CHANNEL_CAPACITY as u64),
            SettingField::TolerableFailedCheckpoints => (0, MAX_STEPS_SETTING),
        }
    }

    /// The field's value in a configuration (None: empty).
    pub fn value(self, c: &RunConfig) -> Option<u64> {
        let s = &c.settings;
        match self {
            SettingField::Records => c.records.map(u64::from),
            SettingField::Seed => Some(c.seed),
            SettingField::CheckpointInterval => s.checkpoint_interval,
            SettingField::AlignmentTimeout => s.alignment_timeout_steps(),
            SettingField::ChannelCapacity => {
                s.channel_capacities.values().next().copied().or(s.channel_capacity).map(u64::from)
            }
            SettingField::RecordCost => s.record_cost.values().next().map(|c| u64::from(*c)),
            SettingField::BufferDebloatTarget => s.buffer_debloat_target.map(u64::from),
            SettingField::TolerableFailedCheckpoints => Some(s.tolerable_failed_checkpoints as u64),
            SettingField::MessageTimeout => Some(s.mechanism.storm.message_timeout),
            SettingField::BatchInterval => Some(s.mechanism.spark.batch_interval),
        }
    }

    /// What the field shows for a configuration.
    pub fn shown(self, c: &RunConfig) -> String {
        self.value(c).map(|v| v.to_string()).unwrap_or_default()
    }

    /// The configuration with the field set to `v` (in range; None: empty).
    fn set(self, c: &RunConfig, v: Option<u64>) -> RunConfig {
        let mut c = c.clone();
        let edit = match self {
            SettingField::Records => {
                c.records = v.map(|n| n as u32);
                return c;
            }
            SettingField::Seed => {
                c.seed = v.unwrap_or(0);
                return c;
            }
            SettingField::CheckpointInterval => Edit::CheckpointInterval(v),
            SettingField::AlignmentTimeout => Edit::AlignmentTimeout(v),
            SettingField::ChannelCapacity => Edit::ChannelCapacity(v),
            SettingField::RecordCost => Edit::RecordCost(v),
            SettingField::BufferDebloatTarget => Edit::BufferDebloatTarget(v),
            SettingField::TolerableFailedCheckpoints => Edit::TolerableFailedCheckpoints(v.unwrap_or(0)),
            SettingField::MessageTimeout => {
                Edit::from(StormEdit::MessageTimeout(v.unwrap_or(StormSettings::default().message_timeout)))
            }
            SettingField::BatchInterval => {
                Edit::from(SparkEdit::BatchInterval(v.unwrap_or(SparkSettings::default().batch_interval)))
            }
        };
        c.settings = c.settings.edited(edit);
        c
    }
}

/// A typed value as a number: Ok(Some(n)) a whole number (clamped to u64: the sign and the size
/// decide, the range check comes after), Ok(None) empty, Err(()) not a whole number.
fn parse(typed: &str) -> Result<Option<i128>, ()> {
    let t = typed.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // More digits than any limit: past it in the typed direction.
        let n = digits.trim_start_matches('0');
        let magnitude = if n.len() > 30 { i128::MAX / 2 } else { n.parse::<i128>().unwrap_or(0) };
        return Ok(Some(if t.starts_with('-') { -magnitude } else { magnitude }));
    }
    // A number field also gives "1e3" or "2.0": whole numbers written otherwise.
    scientific(t).map(Some).ok_or(())
}

/// A whole number written with a fraction or an exponent ("2.0", "1e3", "-1.5E2"), read exactly
/// with integers (no floating point: its parser's tables would cost the page more than this does);
/// None if it is not one, or not whole ("2.5", "1e-3"). Beyond 10^30 the magnitude is held there.
fn scientific(t: &str) -> Option<i128> {
    const CAP: i128 = 1_000_000_000_000_000_000_000_000_000_000;
    let (negative, body) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digit = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !digit(int) || !digit(frac) {
        return None;
    }
    let exp: i64 = match exponent {
        None => 0,
        Some(e) => {
            let d = e.strip_prefix(['+', '-']).unwrap_or(e);
            if d.is_empty() || !digit(d) {
                return None;
            }
            let v = d.trim_start_matches('0');
            let v: i64 = if v.len() > 6 { 1_000_000 } else { v.parse().unwrap_or(0) };
            if e.starts_with('-') {
                -v
            } else {
                v
            }
        }
    };
    // The digits, and where the decimal point sits: value = digits × 10^scale.
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    let mut scale = exp - frac.len() as i64;
    let mut digits = digits.to_string();
    while scale < 0 && digits.ends_with('0') {
        digits.pop();
        scale += 1;
    }
    if digits.is_empty() {
        return Some(0);
    }
    if scale < 0 {
        return None;
    }
    let magnitude = if digits.len() as i64 + scale > 31 {
        CAP
    } else {
        let mut v: i128 = digits.parse().ok()?;
        for _ in 0..scale {
            v *= 10;
        }
        v.min(CAP)
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// What typing `typed` into `field` makes of `config` (`typed` None: the browser could not read a
/// number): the new configuration, with a note if the value was clamped; or, if it is no whole
/// number, the note that refuses it (the configuration stays as it was).
///
/// ```
/// use barrierscope::classroom::{edit_field, FieldNote, RunConfig, SettingField};
///
/// let c = RunConfig::default();
/// let (d, note) = edit_field(&c, SettingField::Records, Some("9000")).unwrap();
/// assert_eq!(d.records, Some(5000));
/// assert!(matches!(note, Some(FieldNote::Clamped { limit: 5000, above: true, .. })));
/// assert!(edit_field(&c, SettingField::Seed, Some("2.5")).is_err());
/// ```
pub fn edit_field(
    config: &RunConfig,
    field: SettingField,
    typed: Option<&str>,
) -> Result<(RunConfig, Option<FieldNote>), FieldNote> {
    let refused = || FieldNote::Refused { field, typed: typed.map(|t| t.trim().to_string()) };
    let n = parse(typed.ok_or_else(refused)?).map_err(|()| refused())?;
    let (min, max) = field.range();
    let Some(n) = n else {
        return Ok((field.set(config, None), None));
    };
    let clamped = n.clamp(min as i128, max as i128) as u64;
    let note = (clamped as i128 != n).then(|| FieldNote::Clamped {
        field,
        typed: typed.unwrap_or_default().trim().to_string(),
        limit: clamped,
        above: n > max as i128,
    });
    Ok((field.set(config, Some(clamped)), note))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Settings, Strategy};

    /// The integer reading of "2.0" or "1e3" agrees with the floating-point one on whole numbers
    /// and refuses what is not whole.
    #[test]
    fn whole_numbers_with_a_fraction_or_an_exponent_read_as_floats_would() {
        for t in
            ["2.0", "1e3", "1E3", "-1.5e2", "+12.000", "0.0", "5.", ".5e1", "1e+2", "120e-1", "0e5", "007.0", "1e15"]
        {
            let f: f64 = t.parse().unwrap();
            assert_eq!(scientific(t), Some(f.clamp(-1e30, 1e30) as i128), "{t}");
        }
        // Beyond 10^30 the magnitude is held there (exactly; the float's 1e30 is a little above).
        assert_eq!(scientific("3e40"), Some(10i128.pow(30)));
        assert_eq!(scientific("-3e40"), Some(-(10i128.pow(30))));
        for t in ["2.5", "1e-3", "abc", "1e", "e3", ".", "-", "1.2.3", "1e3.0", "inf", "NaN", "1,0", "12e-1"] {
            assert!(t.parse::<f64>().map_or(true, |f| !f.is_finite() || f.fract() != 0.0), "{t} is not whole");
            assert_eq!(scientific(t), None, "{t}");
        }
    }

    fn aligned() -> RunConfig {
        RunConfig { settings: Settings::new(Strategy::Aligned), ..RunConfig::default() }
    }

    /// The model: a whole number in range is taken as is; out of range, the nearest limit, said;
    /// empty, the field's empty meaning; anything else refused.
    #[test]
    fn every_field_takes_its_range_clamps_outside_and_refuses_the_rest() {
        for field in SettingField::ALL {
            // Each field on a strategy that takes it.
            let c = if field == SettingField::MessageTimeout {
                RunConfig { settings: Settings::new(Strategy::StormAcker), ..RunConfig::default() }
            } else if field == SettingField::BatchInterval {
                RunConfig { settings: Settings::new(Strategy::SparkStreaming), ..RunConfig::default() }
            } else if field == SettingField::RecordCost {
                // The slow task's steps: a task is slow.
                let mut c = aligned();
                c.settings.record_cost.insert("Count".into(), 4);
                c
            } else {
                aligned()
            };
            let (min, max) = field.range();
            for v in [min, min + 1, max / 2, max - 1, max] {
                let (d, note) = edit_field(&c, field, Some(&v.to_string())).unwrap();
                assert_eq!((field.value(&d), note), (Some(v), None), "{field:?} {v}");
                assert_eq!(d.scenario().sim().map(drop), Ok(()), "{field:?} {v}: a valid run");
            }
            let above = format!("{}0", max);
            let (d, note) = edit_field(&c, field, Some(&above)).unwrap();
            assert_eq!(field.value(&d), Some(max));
            assert_eq!(note, Some(FieldNote::Clamped { field, typed: above, limit: max, above: true }));
            let below = if min == 0 { "-3".to_string() } else { (min - 1).to_string() };
            let (d, note) = edit_field(&c, field, Some(&below)).unwrap();
            assert_eq!(field.value(&d), Some(min));
            assert_eq!(note, Some(FieldNote::Clamped { field, typed: below, limit: min, above: false }));
            for bad in ["2.5", "abc", "1,000", "--1", "+"] {
                assert_eq!(
                    edit_field(&c, field, Some(bad)),
                    Err(FieldNote::Refused { field, typed: Some(bad.into()) }),
                    "{field:?} {bad:?}"
                );
            }
            assert_eq!(edit_field(&c, field, None), Err(FieldNote::Refused { field, typed: None }));
            assert_eq!(edit_field(&c, field, Some("1e1")).unwrap().0, field.set(&c, Some(10)), "{field:?}");
        }
    }

    #[test]
    fn an_empty_field_means_what_its_label_says() {
        let mut c = aligned();
        c.records = Some(10);
        c.settings.checkpoint_interval = Some(4);
        c.settings.channel_capacity = Some(2);
        c.settings.alignment_timeout = Some(3);
        c.settings.tolerable_failed_checkpoints = 2;
        c.seed = 7;
        for field in SettingField::ALL {
            let (d, note) = edit_field(&c, field, Some("  ")).unwrap();
            assert_eq!(note, None);
            let want = match field {
                SettingField::Seed | SettingField::TolerableFailedCheckpoints => Some(0),
                // Storm's timeout has no "off": empty is its default.
                SettingField::MessageTimeout => Some(StormSettings::default().message_timeout),
                // Nor has Spark's batch interval.
                SettingField::BatchInterval => Some(SparkSettings::default().batch_interval),
                _ => None,
            };
            assert_eq!(field.value(&d), want, "{field:?}");
            for other in SettingField::ALL.into_iter().filter(|o| *o != field) {
                assert_eq!(other.value(&d), other.value(&c), "{field:?} keeps {other:?}");
            }
        }
    }
}
