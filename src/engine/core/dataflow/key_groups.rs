//! Key groups, after Flink's `KeyGroupRangeAssignment` and `MathUtils.murmurHash`. The max
//! parallelism of a keyed operator fixes how many key groups its keyed state is cut into; every
//! key hashes to one key group for good (`assignToKeyGroup`: the murmur hash of the key's
//! `hashCode`, modulo the max parallelism), and each parallel subtask owns one contiguous range of
//! key groups (`computeKeyGroupRangeForOperatorIndex`). Rescaling changes only which subtask owns
//! which range; whole key groups move, and a key never changes its key group. Changing the max
//! parallelism would move keys between key groups, which is why Flink refuses it.
//!
//! Keys here are strings, hashed as Java's `String.hashCode` hashes them, so a key lands in the
//! key group a Flink job keyed by that string would put it in.

/// `KeyGroupRangeAssignment.DEFAULT_LOWER_BOUND_MAX_PARALLELISM`: 1 << 7.
pub const DEFAULT_LOWER_BOUND_MAX_PARALLELISM: u16 = 1 << 7;
/// `Transformation.UPPER_BOUND_MAX_PARALLELISM`: 1 << 15.
pub const UPPER_BOUND_MAX_PARALLELISM: u16 = 1 << 15;

/// Java's `String.hashCode`: `s[0]*31^(n-1) + ... + s[n-1]` over UTF-16 code units, wrapping.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// Murmur3's 32-bit finalizer (`MathUtils.bitMix`).
fn bit_mix(mut h: i32) -> i32 {
    h ^= ((h as u32) >> 16) as i32;
    h = h.wrapping_mul(0x85eb_ca6b_u32 as i32);
    h ^= ((h as u32) >> 13) as i32;
    h = h.wrapping_mul(0xc2b2_ae35_u32 as i32);
    h ^= ((h as u32) >> 16) as i32;
    h
}

/// `MathUtils.murmurHash(int)`: one murmur3 round over a single int, then the finalizer, made
/// non-negative (`Integer.MIN_VALUE` becomes 0).
pub fn murmur_hash(code: i32) -> i32 {
    let mut c = code.wrapping_mul(0xcc9e_2d51_u32 as i32);
    c = c.rotate_left(15);
    c = c.wrapping_mul(0x1b87_3593);
    c = c.rotate_left(13);
    c = c.wrapping_mul(5).wrapping_add(0xe654_6b64_u32 as i32);
    c ^= 4;
    c = bit_mix(c);
    if c >= 0 {
        c
    } else if c != i32::MIN {
        -c
    } else {
        0
    }
}

/// `computeKeyGroupForKeyHash`: `murmurHash(keyHash) % maxParallelism`.
pub fn key_group_for_hash(key_hash: i32, max_parallelism: u16) -> u16 {
    (murmur_hash(key_hash) % max_parallelism as i32) as u16
}

/// `assignToKeyGroup` for a string key.
pub fn assign_to_key_group(key: &str, max_parallelism: u16) -> u16 {
    key_group_for_hash(java_string_hash(key), max_parallelism)
}

/// An inclusive range of key groups (`KeyGroupRange`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KeyGroupRange {
    pub start: u16,
    pub end: u16,
}

impl KeyGroupRange {
    pub fn contains(&self, kg: u16) -> bool {
        self.start <= kg && kg <= self.end
    }
    pub fn len(&self) -> u16 {
        if self.end < self.start {
            0
        } else {
            self.end - self.start + 1
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `computeKeyGroupRangeForOperatorIndex`: subtask `index` of `parallelism` owns
/// `[(index*maxP + p - 1)/p, ((index+1)*maxP - 1)/p]`. Needs `maxP >= p`.
pub fn key_group_range(max_parallelism: u16, parallelism: u16, index: u16) -> KeyGroupRange {
    assert!(parallelism > 0 && max_parallelism >= parallelism && index < parallelism);
    let (m, p, i) = (max_parallelism as u32, parallelism as u32, index as u32);
    KeyGroupRange { start: ((i * m + p - 1) / p) as u16, end: (((i + 1) * m - 1) / p) as u16 }
}

/// `computeOperatorIndexForKeyGroup`: `keyGroup * p / maxP`.
pub fn operator_index_for_key_group(max_parallelism: u16, parallelism: u16, key_group: u16) -> u16 {
    (key_group as u32 * parallelism as u32 / max_parallelism as u32) as u16
}

/// `assignKeyToParallelOperator`: the subtask a key is routed to.
pub fn subtask_for_key(key: &str, max_parallelism: u16, parallelism: u16) -> u16 {
    operator_index_for_key_group(max_parallelism, parallelism, assign_to_key_group(key, max_parallelism))
}

/// `MathUtils.roundUpToPowerOfTwo`.
fn round_up_to_power_of_two(x: u32) -> u32 {
    x.max(1).next_power_of_two()
}

/// `computeDefaultMaxParallelism`: `min(max(roundUpToPowerOfTwo(p + p/2), 128), 32768)`.
pub fn default_max_parallelism(parallelism: u16) -> u16 {
    let p = parallelism as u32;
    round_up_to_power_of_two(p + p / 2)
        .max(DEFAULT_LOWER_BOUND_MAX_PARALLELISM as u32)
        .min(UPPER_BOUND_MAX_PARALLELISM as u32) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values printed by the Java formulas (`"x".hashCode()`, `MathUtils.murmurHash`), see
    /// `tests/changed_program.rs` for the full table.
    #[test]
    fn string_hash_is_javas() {
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("x"), 120);
        assert_eq!(java_string_hash("hello"), 99_162_322);
        // Wraps like Java's int: "polygenelubricants".hashCode() == Integer.MIN_VALUE.
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
    }

    #[test]
    fn ranges_cover_every_key_group_once() {
        for m in [1u16, 2, 3, 7, 128, 129] {
            for p in 1..=m.min(9) {
                let mut next = 0;
                for i in 0..p {
                    let r = key_group_range(m, p, i);
                    assert_eq!(r.start, next, "m {m} p {p} i {i}");
                    for kg in r.start..=r.end {
                        assert_eq!(operator_index_for_key_group(m, p, kg), i);
                    }
                    next = r.end + 1;
                }
                assert_eq!(next, m);
            }
        }
        assert_eq!(key_group_range(128, 3, 0), KeyGroupRange { start: 0, end: 42 });
        assert_eq!(key_group_range(128, 3, 1), KeyGroupRange { start: 43, end: 85 });
        assert_eq!(key_group_range(128, 3, 2), KeyGroupRange { start: 86, end: 127 });
    }

    #[test]
    fn default_max_parallelism_rule() {
        assert_eq!(default_max_parallelism(1), 128);
        assert_eq!(default_max_parallelism(85), 128);
        assert_eq!(default_max_parallelism(86), 256);
        assert_eq!(default_max_parallelism(171), 256);
        assert_eq!(default_max_parallelism(172), 512);
        assert_eq!(default_max_parallelism(30000), 32768);
    }
}
