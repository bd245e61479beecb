//! The records that contributed to one key's count or sum, in the order the operator took them:
//! an append-only list whose full chunks the running state shares with every snapshot taken of
//! it. A snapshot then copies a few pointers and the last, partial chunk, not the whole list,
//! and a run that checkpoints every hundred records does not copy its state over and over.
//!
//! Flink's heap state backend snapshots the same way: its `CopyOnWriteStateMap` shares its
//! entries with a snapshot and copies an entry only when it is written again. Here a chunk once
//! full is never written again, so nothing is ever copied back. What the list holds, and how it
//! compares, prints and serializes, is exactly a `Vec`'s.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::core::ids::RecordId;

/// How many records a chunk holds once full.
const CHUNK: usize = 128;

/// One key's contributors, oldest first.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Contributors {
    /// Full chunks, shared with the snapshots; never written again.
    full: Vec<Arc<[RecordId]>>,
    /// The last chunk, not yet full: the running state's own.
    tail: Vec<RecordId>,
}

impl Contributors {
    #[inline]
    pub fn push(&mut self, r: RecordId) {
        self.tail.push(r);
        if self.tail.len() == CHUNK {
            self.full.push(Arc::from(std::mem::take(&mut self.tail)));
        }
    }
    pub fn len(&self) -> usize {
        self.full.len() * CHUNK + self.tail.len()
    }
    pub fn is_empty(&self) -> bool {
        self.full.is_empty() && self.tail.is_empty()
    }
    /// Oldest first.
    pub fn iter(&self) -> Iter<'_> {
        Iter { full: self.full.iter(), chunk: [].iter(), tail: &self.tail }
    }
}

impl FromIterator<RecordId> for Contributors {
    fn from_iter<I: IntoIterator<Item = RecordId>>(iter: I) -> Contributors {
        let mut list = Contributors::default();
        for r in iter {
            list.push(r);
        }
        list
    }
}

/// The contributors, oldest first: the full chunks', then the last one's. (Written out, not a
/// `flat_map(..).chain(..)`: the page's build optimises for size, and this is a third as large.)
pub struct Iter<'a> {
    full: std::slice::Iter<'a, Arc<[RecordId]>>,
    chunk: std::slice::Iter<'a, RecordId>,
    tail: &'a [RecordId],
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a RecordId;
    fn next(&mut self) -> Option<&'a RecordId> {
        loop {
            if let Some(r) = self.chunk.next() {
                return Some(r);
            }
            self.chunk = match self.full.next() {
                Some(c) => c.iter(),
                None if !self.tail.is_empty() => std::mem::take(&mut self.tail).iter(),
                None => return None,
            };
        }
    }
}

impl<'a> IntoIterator for &'a Contributors {
    type Item = &'a RecordId;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl IntoIterator for Contributors {
    type Item = RecordId;
    type IntoIter = std::vec::IntoIter<RecordId>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter().copied().collect::<Vec<_>>().into_iter()
    }
}

impl From<Vec<RecordId>> for Contributors {
    fn from(v: Vec<RecordId>) -> Contributors {
        v.into_iter().collect()
    }
}

impl fmt::Debug for Contributors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Contributors {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Contributors {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Contributors, D::Error> {
        Vec::<RecordId>::deserialize(d).map(Contributors::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the model, a `Vec`: every length across two chunk boundaries, a snapshot (clone)
    /// taken at each, and the snapshot unchanged by what the running list takes after it.
    #[test]
    fn contributors_behave_as_a_vec_and_snapshots_stay_put() {
        let mut list = Contributors::default();
        let mut model: Vec<RecordId> = Vec::new();
        let mut snapshots = Vec::new();
        for i in 0..(2 * CHUNK as u32 + 7) {
            snapshots.push((list.clone(), model.clone()));
            list.push(RecordId(i));
            model.push(RecordId(i));
            assert_eq!(list.len(), model.len());
            assert!(list.iter().eq(model.iter()));
            assert_eq!(format!("{list:?}"), format!("{model:?}"));
        }
        for (snap, m) in &snapshots {
            assert_eq!(snap.len(), m.len());
            assert!(snap.iter().eq(m.iter()));
            assert_eq!(snap, &Contributors::from(m.clone()), "equal to the same list built afresh");
        }
        let json = serde_json::to_string(&list).unwrap();
        assert_eq!(json, serde_json::to_string(&model).unwrap());
        assert_eq!(serde_json::from_str::<Contributors>(&json).unwrap(), list);
        assert!(list.clone().into_iter().eq(model.iter().copied()));
    }
}
