//! The data every batch job here computes: a word count. A record is a key and a number; lines
//! become words, words become (word, 1), and a reduce sums the numbers of each word. The hash that
//! sends a word to its reduce partition is FNV-1a, fixed so that the same input lands in the same
//! partitions natively and in wasm (Hadoop's `HashPartitioner` and Spark's `HashPartitioner` do
//! the same with the key's `hashCode`).

use serde::{Deserialize, Serialize};

/// One record: a key (a line or a word) and a number (1 for a line or a fresh word, a count after
/// a reduce).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Rec {
    pub key: String,
    pub n: u64,
}

impl Rec {
    pub fn new(key: impl Into<String>, n: u64) -> Rec {
        Rec { key: key.into(), n }
    }
}

/// The reduce partition of a key, out of `parts` (FNV-1a of its bytes, modulo).
pub fn partition_of(key: &str, parts: usize) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for b in key.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    (h as usize) % parts.max(1)
}

/// Lines as records, one per line.
pub fn lines(text: &[String]) -> Vec<Rec> {
    text.iter().map(|l| Rec::new(l.clone(), 1)).collect()
}

/// Each line split into its words, lower-cased, punctuation dropped: (word, 1) per word.
pub fn words(recs: &[Rec]) -> Vec<Rec> {
    recs.iter()
        .flat_map(|r| r.key.split_whitespace())
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
        .filter(|w| !w.is_empty())
        .map(|w| Rec::new(w, 1))
        .collect()
}

/// Keeps the words of at least three letters.
pub fn drop_short(recs: &[Rec]) -> Vec<Rec> {
    recs.iter().filter(|r| r.key.chars().count() >= 3).cloned().collect()
}

/// Sums the numbers of each key; the result sorted by key.
pub fn sum_by_key(recs: impl IntoIterator<Item = Rec>) -> Vec<Rec> {
    let mut m: crate::engine::core::sorted_vec::SortedMap<String, u64> = Default::default();
    for r in recs {
        *m.get_or_insert_with(r.key, || 0) += r.n;
    }
    m.into_iter().map(|(key, n)| Rec { key, n }).collect()
}

/// Splits records into `parts` buckets by the key's partition.
pub fn buckets(recs: &[Rec], parts: usize) -> Vec<Vec<Rec>> {
    let mut out = vec![Vec::new(); parts.max(1)];
    for r in recs {
        out[partition_of(&r.key, parts)].push(r.clone());
    }
    out
}

/// Cuts `items` into `parts` contiguous chunks, as evenly as possible (the first ones one longer).
pub fn chunks<T: Clone>(items: &[T], parts: usize) -> Vec<Vec<T>> {
    let parts = parts.max(1);
    let (q, r) = (items.len() / parts, items.len() % parts);
    let mut out = Vec::with_capacity(parts);
    let mut at = 0;
    for i in 0..parts {
        let n = q + usize::from(i < r);
        out.push(items[at..at + n].to_vec());
        at += n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_counted() {
        let text = vec!["The cat, the hat.".to_string()];
        let counts = sum_by_key(words(&lines(&text)));
        assert_eq!(counts, vec![Rec::new("cat", 1), Rec::new("hat", 1), Rec::new("the", 2)]);
    }

    #[test]
    fn chunks_cover_everything() {
        let c = chunks(&[1, 2, 3, 4, 5], 2);
        assert_eq!(c, vec![vec![1, 2, 3], vec![4, 5]]);
    }
}
