//! Storm's `RotatingMap` (`storm-client/src/jvm/org/apache/storm/utils/RotatingMap.java`): a map
//! split into buckets by age. New entries go into the newest bucket; every `rotate` drops the
//! oldest bucket whole and starts a new, empty one. Storm expires tuples this way instead of
//! keeping a deadline per entry: the spout keeps its pending tuples in a `RotatingMap` of 2
//! buckets, the acker its pending trees in one of 3, and both rotate once per message timeout.
//! So an entry lives between `(n-1)` and `n` rotation periods: "between expirationSecs and
//! expirationSecs*(1+1/(numBuckets-1))", as the class comment says.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::engine::core::sorted_vec::SortedMap;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RotatingMap<K: Ord, V> {
    /// Newest bucket first.
    buckets: VecDeque<SortedMap<K, V>>,
}

impl<K: Ord + Copy, V> RotatingMap<K, V> {
    /// A map of `n` buckets (Storm needs at least 2).
    pub fn new(n: usize) -> Self {
        assert!(n >= 2, "a RotatingMap needs at least two buckets");
        RotatingMap { buckets: (0..n).map(|_| SortedMap::new()).collect() }
    }

    /// Puts `k` in the newest bucket, removing it from any older one.
    pub fn put(&mut self, k: K, v: V) {
        for b in self.buckets.iter_mut().skip(1) {
            b.remove(&k);
        }
        self.buckets[0].insert(k, v);
    }

    pub fn get(&self, k: &K) -> Option<&V> {
        self.buckets.iter().find_map(|b| b.get(k))
    }

    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        self.buckets.iter_mut().find_map(|b| b.get_mut(k))
    }

    pub fn remove(&mut self, k: &K) -> Option<V> {
        self.buckets.iter_mut().find_map(|b| b.remove(k))
    }

    /// Drops the oldest bucket and returns what was in it (the expired entries); a new, empty
    /// bucket becomes the newest.
    pub fn rotate(&mut self) -> SortedMap<K, V> {
        let dead = self.buckets.pop_back().unwrap_or_default();
        self.buckets.push_front(SortedMap::new());
        dead
    }

    pub fn len(&self) -> usize {
        self.buckets.iter().map(SortedMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.buckets.iter().all(SortedMap::is_empty)
    }

    /// Every entry, in key order.
    pub fn entries(&self) -> Vec<(K, &V)> {
        let mut v: Vec<(K, &V)> = self.buckets.iter().flat_map(|b| b.iter().map(|(k, v)| (*k, v))).collect();
        crate::engine::core::stable_sort::sort_stable_by_key(&mut v, |e| e.0);
        v
    }

    /// How many rotations an entry has left before it expires (1: the next one drops it).
    pub fn rotations_left(&self, k: &K) -> Option<usize> {
        let n = self.buckets.len();
        self.buckets.iter().position(|b| b.contains_key(k)).map(|i| n - i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_lives_between_n_minus_one_and_n_rotations() {
        for n in 2..5 {
            let mut m = RotatingMap::new(n);
            m.put(1u32, "a");
            for _ in 0..n - 1 {
                assert!(m.rotate().is_empty());
            }
            assert_eq!(m.rotate().into_iter().collect::<Vec<_>>(), vec![(1, "a")], "{n} buckets");
            // Put again just before a rotation: it survives n-1 more.
            m.put(2, "b");
            assert_eq!(m.rotations_left(&2), Some(n));
            m.rotate();
            m.put(2, "b2");
            assert_eq!(m.rotations_left(&2), Some(n), "put moves it to the newest bucket");
            assert_eq!(m.len(), 1);
        }
    }

    #[test]
    fn remove_and_get_see_every_bucket() {
        let mut m = RotatingMap::new(3);
        m.put(7u64, 1);
        m.rotate();
        m.put(8, 2);
        assert_eq!(m.get(&7), Some(&1));
        *m.get_mut(&7).unwrap() += 1;
        assert_eq!(m.entries(), vec![(7, &2), (8, &2)]);
        assert_eq!(m.remove(&7), Some(2));
        assert_eq!(m.remove(&7), None);
        assert!(!m.is_empty());
    }
}
