#!/usr/bin/env bash
# The long fuzzing run of the decoders: 1,000,000 generated inputs in all (250,000 for each of
# the scenario parser, the share-link decoder, the stored-run loader and the comparison parser),
# in an optimized build,
# where any input slower than 100 ms counts as a hang. `cargo test` runs a short pass of the same.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
FUZZ_INPUTS="${FUZZ_INPUTS:-250000}" cargo test --release --test fuzz_decoders -- --nocapture
