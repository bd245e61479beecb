//! Where an exported PyFlink job puts each key: on the subtask the simulator puts it on.
//!
//! The simulator routes a `hash` edge as a Java job keyed by the key string does: Flink's
//! `KeyGroupStreamPartitioner` takes the key's `hashCode`, `KeyGroupRangeAssignment`
//! murmur-hashes it into one of the max parallelism's key groups, and the subtask owning that key
//! group gets the record (`crate::engine::core::dataflow::key_groups`). PyFlink's `DataStream.key_by` routes on
//! the Java side too, but not by the string: it adds the key to each record in Python and keys
//! the Java stream with `KeyByKeySelector`, whose key is a `Row` holding the Python key (key type
//! `Types.ROW([key_type])`). Measured on PyFlink 2.3 (`tests/fixtures/pyflink_placement/`), the
//! `hashCode` Flink hashes is then the key's own Java `hashCode` plus [`ROW_KEY_OFFSET`] (62), so
//! a job keyed by the string would put some keys on another subtask (of the lessons' keys with
//! two subtasks: y and u).
//!
//! The export therefore keys by a pair, `(key, pin)` typed `Types.TUPLE([STRING, INT])`, which
//! Java holds as a `Tuple2` (`hashCode` = `31 * key.hashCode() + pin`). With
//! `pin = -30 * key.hashCode() - 62` in Java's wrapping int arithmetic ([`pin`]), the `hashCode`
//! Flink hashes is `key.hashCode()` itself: every key goes to the key group, and the subtask, that
//! a Java job keyed by the string gives it, which is the simulator's. The pin is a function of the
//! key, so distinct strings stay distinct keys even when their `hashCode`s collide ("Aa", "BB").
//! The keyed operator's max parallelism is set as the simulator's graph has it
//! (`set_max_parallelism`). An operator without keyed state behind a hash edge is pinned with
//! `partition_custom` and the simulator's subtask per key ([`subtask_table`]).

use crate::engine::core::dataflow::job_graph::JobGraph;
use crate::engine::core::dataflow::key_groups::{
    java_string_hash, key_group_for_hash, operator_index_for_key_group, subtask_for_key,
};
use crate::engine::core::ids::OperatorId;

/// What PyFlink's `KeyByKeySelector` adds to a key's Java `hashCode` by wrapping it in its `Row`
/// (measured: every key of the fixture, at three parallelism settings).
pub const ROW_KEY_OFFSET: i32 = 62;

/// The pin that makes the pair `(key, pin)` hash, through PyFlink's `Row`, as `key` does in Java.
pub fn pin(key: &str) -> i32 {
    java_string_hash(key).wrapping_mul(-30).wrapping_sub(ROW_KEY_OFFSET)
}

/// The `hashCode` Flink's partitioner sees for PyFlink's `key_by` on the string `key`.
pub fn string_key_hash(key: &str) -> i32 {
    java_string_hash(key).wrapping_add(ROW_KEY_OFFSET)
}

/// The `hashCode` Flink's partitioner sees for PyFlink's `key_by` on the pair `(key, pin)`:
/// `Tuple2.hashCode` (`31 * f0.hashCode() + f1.hashCode()`) in the `Row`.
pub fn pair_key_hash(key: &str, pin: i32) -> i32 {
    java_string_hash(key).wrapping_mul(31).wrapping_add(pin).wrapping_add(ROW_KEY_OFFSET)
}

/// The subtask PyFlink's partitioner picks for a key whose `hashCode` it sees as `hash`.
pub fn subtask_for_hash(hash: i32, max_parallelism: u16, parallelism: u16) -> u16 {
    operator_index_for_key_group(max_parallelism, parallelism, key_group_for_hash(hash, max_parallelism))
}

/// The simulator's subtask of operator `op` for every key of the run, in key order: what the
/// export pins (a keyed operator through [`pin`], any other through `partition_custom`).
pub fn subtask_table(g: &JobGraph, op: OperatorId) -> Vec<(&str, u16)> {
    let (max, p) = (g.max_parallelism[op.index()], g.spec.operators[op.index()].parallelism);
    g.keys.iter().map(|k| (k.as_str(), subtask_for_key(k, max, p))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pair's hash is the string's Java hash, for any key, colliding hashCodes included; the
    /// string's own PyFlink hash is not.
    #[test]
    fn the_pin_gives_the_strings_java_hash() {
        for k in ["x", "y", "z", "u", "Aa", "BB", "hello", "polygenelubricants", "键", ""] {
            assert_eq!(pair_key_hash(k, pin(k)), java_string_hash(k), "{k}");
            assert_ne!(string_key_hash(k), java_string_hash(k), "{k}");
        }
        assert_eq!(pin("Aa"), pin("BB"));
        assert_eq!(pin("x"), -3662);
    }
}
