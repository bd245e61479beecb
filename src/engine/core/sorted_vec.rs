//! Small ordered maps and sets kept as sorted vectors.
//!
//! A run's bookkeeping maps are small (a few dozen entries) and must iterate in key order, for
//! determinism. `BTreeMap` does that, but every key and value type it holds brings its own copy of
//! the B-tree's node code into the WebAssembly module, kilobytes each. [`SortedMap`] and
//! [`SortedSet`] keep the same order and the part of the API the engine uses, over one `Vec`
//! searched by bisection: a little code per type, and fast for the sizes a lesson reaches.

use serde::{Deserialize, Serialize};

/// A map ordered by key, as a vector of pairs sorted by key with no two keys equal.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(from = "Vec<(K, V)>", bound(deserialize = "K: Deserialize<'de> + Ord, V: Deserialize<'de>"))]
pub struct SortedMap<K, V> {
    pairs: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap { pairs: Vec::new() }
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    fn find(&self, k: &K) -> Result<usize, usize> {
        self.pairs.binary_search_by(|(x, _)| x.cmp(k))
    }

    /// Puts `v` under `k`; returns the value it replaced.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.find(&k) {
            Ok(i) => Some(std::mem::replace(&mut self.pairs[i].1, v)),
            Err(i) => {
                self.pairs.insert(i, (k, v));
                None
            }
        }
    }

    pub fn get(&self, k: &K) -> Option<&V> {
        self.find(k).ok().map(|i| &self.pairs[i].1)
    }

    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        self.find(k).ok().map(|i| &mut self.pairs[i].1)
    }

    /// The value under `k`, put there first by `make` if there was none (`entry().or_insert_with`).
    pub fn get_or_insert_with(&mut self, k: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&k) {
            Ok(i) => i,
            Err(i) => {
                self.pairs.insert(i, (k, make()));
                i
            }
        };
        &mut self.pairs[i].1
    }

    pub fn remove(&mut self, k: &K) -> Option<V> {
        self.find(k).ok().map(|i| self.pairs.remove(i).1)
    }

    pub fn contains_key(&self, k: &K) -> bool {
        self.find(k).is_ok()
    }
}

impl<K, V> SortedMap<K, V> {
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.pairs.iter().map(|(k, v)| (k, v))
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.pairs.iter().map(|(_, v)| v)
    }

    /// The values in key order, by value.
    pub fn into_values(self) -> impl Iterator<Item = V> {
        self.pairs.into_iter().map(|(_, v)| v)
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.pairs.into_iter()
    }
}

impl<K: Ord, V> From<Vec<(K, V)>> for SortedMap<K, V> {
    /// Pairs in any order; a later pair for the same key wins, as in `BTreeMap::from_iter`.
    fn from(pairs: Vec<(K, V)>) -> Self {
        let mut m = SortedMap::new();
        for (k, v) in pairs {
            m.insert(k, v);
        }
        m
    }
}

/// As a sequence of pairs in key order.
impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(&self.pairs)
    }
}

/// A set ordered by value, as a sorted vector with no two values equal.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(from = "Vec<T>", bound(deserialize = "T: Deserialize<'de> + Ord"))]
pub struct SortedSet<T> {
    items: Vec<T>,
}

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        SortedSet { items: Vec::new() }
    }
}

impl<T: Ord> SortedSet<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `x`; false if it was there already.
    pub fn insert(&mut self, x: T) -> bool {
        match self.items.binary_search(&x) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, x);
                true
            }
        }
    }

    /// Removes `x`; false if it was not there.
    pub fn remove(&mut self, x: &T) -> bool {
        match self.items.binary_search(x) {
            Ok(i) => {
                self.items.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    pub fn contains(&self, x: &T) -> bool {
        self.items.binary_search(x).is_ok()
    }

    /// Keeps only the values `keep` accepts.
    pub fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.items.retain(keep);
    }
}

impl<T> SortedSet<T> {
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The smallest value.
    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    /// The values in order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }
}

impl<'a, T> IntoIterator for &'a SortedSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<T> IntoIterator for SortedSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<T: Ord> From<Vec<T>> for SortedSet<T> {
    fn from(items: Vec<T>) -> Self {
        let mut s = SortedSet::new();
        for x in items {
            s.insert(x);
        }
        s
    }
}

/// As a sequence in order.
impl<T: Serialize> Serialize for SortedSet<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(&self.items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// Against the model, `BTreeMap` and `BTreeSet`: the same contents, in the same order, after
    /// the same pseudo-random inserts and removes.
    #[test]
    fn behaves_as_the_btree_collections() {
        let mut seed = 11u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 58) as u8
        };
        let (mut m, mut want_m) = (SortedMap::new(), BTreeMap::new());
        let (mut s, mut want_s) = (SortedSet::new(), BTreeSet::new());
        for i in 0..5000u32 {
            let (op, k) = (next() % 4, next());
            match op {
                0 | 1 => {
                    assert_eq!(m.insert(k, i), want_m.insert(k, i));
                    assert_eq!(s.insert(k), want_s.insert(k));
                }
                2 => {
                    assert_eq!(m.remove(&k), want_m.remove(&k));
                    assert_eq!(s.remove(&k), want_s.remove(&k));
                }
                _ => {
                    *m.get_or_insert_with(k, || 0) += 1;
                    *want_m.entry(k).or_insert(0) += 1;
                    assert_eq!(s.contains(&k), want_s.contains(&k));
                }
            }
            assert!(m.iter().eq(want_m.iter()) && s.iter().eq(want_s.iter()));
            assert_eq!((m.len(), s.first()), (want_m.len(), want_s.first()));
        }
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<SortedMap<u8, u32>>(&json).unwrap(), m, "a round trip");
    }
}
