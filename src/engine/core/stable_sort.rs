//! One stable sort for the whole program.
//!
//! The standard library's `sort_by` is generic: every element type it sorts carries its own copy
//! of driftsort, about 5 KB of WebAssembly each. [`sort_stable_by`] sorts a permutation of
//! indices through one comparator behind `dyn` instead, so the sorting code exists once. The
//! result is `sort_by`'s: sorted, with equal elements in their original order, so a run sorts the
//! same way natively and in wasm.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, keeping equal elements in their original order.
pub fn sort_stable_by<T>(v: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let order = permutation(v.len(), &mut |a, b| cmp(&v[a], &v[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    *v = order.into_iter().filter_map(|i| slots[i].take()).collect();
}

/// Sorts `v` by `key`, keeping equal keys in their original order.
pub fn sort_stable_by_key<T, K: Ord>(v: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    sort_stable_by(v, |a, b| key(a).cmp(&key(b)));
}

/// The indices `0..n` in the order `cmp` gives them, ties broken by index.
#[inline(never)]
fn permutation(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_unstable_by(|a, b| cmp(*a, *b).then(a.cmp(b)));
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the model: the standard library's stable sort, on inputs full of ties.
    #[test]
    fn agrees_with_the_standard_stable_sort() {
        let mut seed = 7u64;
        for n in 0..200usize {
            let v: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|e| e.0);
            let mut got = v;
            sort_stable_by_key(&mut got, |e| e.0);
            assert_eq!(got, want, "n = {n}");
        }
    }
}
