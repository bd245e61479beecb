//! Operator ids, as Flink's `StreamGraphHasherV2` computes them. A savepoint stores each
//! operator's state under its operator id, and a restore finds the state's operator in the new
//! program by that id alone: not by name, not by class.
//!
//! - With `uid(s)`, the id is Guava's `Hashing.murmur3_128(0)` of the UTF-8 bytes of `s`: stable
//!   across any change to the rest of the program.
//! - Without one, the id is generated: the nodes are visited breadth first from the sources
//!   (sorted), a node only once all its inputs have their hash. Its hasher takes
//!   `putInt(hashes.size())`, its place in that traversal, once for itself and once more per
//!   chainable out-edge; the 16 bytes are then mixed with each input's hash,
//!   `h[j] = h[j] * 37 ^ in[j]`. Name, kind and parallelism are not hashed (only whether an
//!   out-edge chains). So inserting an operator shifts the ids of everything downstream of it.
//! - An edge chains (`isChainable`) when it is forward, both sides have the same parallelism and
//!   the target has one input. (Flink also asks for the same slot sharing group and chaining
//!   strategies that allow it; here every operator is in the default group and allows chaining.)

use crate::engine::core::dataflow::job_graph::{JobSpec, Partitioning};

/// Guava's `Hashing.murmur3_128(seed)` over `data`: the 16 bytes of `HashCode.asBytes()`
/// (h1 then h2, little-endian).
pub fn murmur3_128(data: &[u8], seed: u32) -> [u8; 16] {
    const C1: u64 = 0x87c3_7b91_1142_53d5;
    const C2: u64 = 0x4cf5_ad43_2745_937f;
    fn mix_k1(k: u64) -> u64 {
        k.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
    }
    fn mix_k2(k: u64) -> u64 {
        k.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
    }
    fn fmix64(mut k: u64) -> u64 {
        k ^= k >> 33;
        k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        k ^= k >> 33;
        k
    }
    let (mut h1, mut h2) = (seed as u64, seed as u64);
    let mut blocks = data.chunks_exact(16);
    for b in &mut blocks {
        let k1 = u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
        let k2 = u64::from_le_bytes(b[8..].try_into().expect("8 bytes"));
        h1 ^= mix_k1(k1);
        h1 = h1.rotate_left(27).wrapping_add(h2).wrapping_mul(5).wrapping_add(0x52dc_e729);
        h2 ^= mix_k2(k2);
        h2 = h2.rotate_left(31).wrapping_add(h1).wrapping_mul(5).wrapping_add(0x3849_5ab5);
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let (mut k1, mut k2) = (0u64, 0u64);
        for (i, &b) in tail.iter().enumerate() {
            if i < 8 {
                k1 |= (b as u64) << (8 * i);
            } else {
                k2 |= (b as u64) << (8 * (i - 8));
            }
        }
        h1 ^= mix_k1(k1);
        h2 ^= mix_k2(k2);
    }
    let len = data.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&h1.to_le_bytes());
    out[8..].copy_from_slice(&h2.to_le_bytes());
    out
}

/// An operator id: 16 bytes, shown as Flink shows an `OperatorID` (`byteToHexString`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct OperatorHash(pub [u8; 16]);

impl OperatorHash {
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl std::fmt::Display for OperatorHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.hex())
    }
}

/// `isChainable`, as far as this simulator's jobs can differ: forward, equal parallelism, and a
/// target with one input.
fn chainable(spec: &JobSpec, from: usize, to: usize, p: Partitioning) -> bool {
    let inputs = spec.edges.iter().filter(|e| e.to == spec.operators[to].name).count();
    p == Partitioning::Forward && inputs == 1 && spec.operators[from].parallelism == spec.operators[to].parallelism
}

/// `traverseStreamGraphAndGenerateHashes`: every operator's id, in the spec's operator order.
/// The stream node ids Flink sorts the sources by are the operators' places in the spec (the
/// order a program creates its transformations). The spec must be a valid, acyclic job.
pub fn operator_ids(spec: &JobSpec) -> Vec<OperatorHash> {
    let n = spec.operators.len();
    let index = |name: &str| spec.operators.iter().position(|o| o.name == name);
    // Edges by index, in spec order (a node's out-edges and in-edges in the order they were added).
    let edges: Vec<(usize, usize, Partitioning)> =
        spec.edges.iter().filter_map(|e| Some((index(&e.from)?, index(&e.to)?, e.partitioning))).collect();
    let mut hashes: Vec<Option<[u8; 16]>> = vec![None; n];
    let mut computed = 0usize;
    let mut visited = vec![false; n];
    let mut remaining = std::collections::VecDeque::new();
    for (i, _) in spec.operators.iter().enumerate().filter(|(i, _)| !edges.iter().any(|e| e.1 == *i)) {
        remaining.push_back(i);
        visited[i] = true;
    }
    // A malformed spec could loop forever; each node is hashed once, so n*n+n polls suffice.
    let mut budget = n * n + n + 1;
    while let Some(node) = remaining.pop_front() {
        budget -= 1;
        if budget == 0 {
            break;
        }
        let hash = match &spec.operators[node].uid {
            Some(uid) => Some(murmur3_128(uid.as_bytes(), 0)),
            None if edges.iter().filter(|e| e.1 == node).all(|e| hashes[e.0].is_some()) => {
                // generateDeterministicHash
                let mut bytes = Vec::new();
                bytes.extend_from_slice(&(computed as i32).to_le_bytes());
                for e in edges.iter().filter(|e| e.0 == node) {
                    if chainable(spec, e.0, e.1, e.2) {
                        bytes.extend_from_slice(&(computed as i32).to_le_bytes());
                    }
                }
                let mut h = murmur3_128(&bytes, 0);
                for e in edges.iter().filter(|e| e.1 == node) {
                    let other = hashes[e.0].expect("inputs hashed");
                    for j in 0..16 {
                        h[j] = (h[j] as i8 as i32 * 37 ^ other[j] as i8 as i32) as u8;
                    }
                }
                Some(h)
            }
            None => None,
        };
        match hash {
            Some(h) => {
                hashes[node] = Some(h);
                computed += 1;
                for e in edges.iter().filter(|e| e.0 == node) {
                    if !visited[e.1] {
                        remaining.push_back(e.1);
                        visited[e.1] = true;
                    }
                }
            }
            // "We will revisit this later."
            None => visited[node] = false,
        }
    }
    hashes.into_iter().map(|h| OperatorHash(h.unwrap_or([0; 16]))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Guava's `Murmur3Hash128Test.testKnownValues` (and its Python smhasher cross-check).
    #[test]
    fn guava_known_values() {
        let cases: [(u32, u64, u64, &str); 8] = [
            (0, 0x6299_4269_3e10_f867, 0x92db_0b82_baeb_5347, "hell"),
            (1, 0xa78d_dff5_adae_8d10, 0x1289_00ef_2090_0135, "hello"),
            (2, 0x8a48_6b23_f422_e826, 0xf962_a2c5_8947_765f, "hello "),
            (3, 0x2ea5_9f46_6f6b_ed8c, 0xc610_990a_cc42_8a17, "hello w"),
            (4, 0x79f6_305a_386c_572c, 0x4630_5aed_3483_b94e, "hello wo"),
            (5, 0xc221_9d21_3ec1_f1b5, 0xa1d8_e2e0_a527_85bd, "hello wor"),
            (0, 0xe34b_bc7b_bc07_1b6c, 0x7a43_3ca9_c49a_9347, "The quick brown fox jumps over the lazy dog"),
            (0, 0x658c_a970_ff85_269a, 0x43fe_e3ea_a68e_5c3e, "The quick brown fox jumps over the lazy cog"),
        ];
        for (seed, h1, h2, s) in cases {
            let h = murmur3_128(s.as_bytes(), seed);
            assert_eq!(u64::from_le_bytes(h[..8].try_into().unwrap()), h1, "{s:?}");
            assert_eq!(u64::from_le_bytes(h[8..].try_into().unwrap()), h2, "{s:?}");
        }
        let fox = murmur3_128(b"The quick brown fox jumps over the lazy dog", 0);
        assert_eq!(OperatorHash(fox).hex(), "6c1b07bc7bbc4be347939ac4a93c437a");
    }
}
