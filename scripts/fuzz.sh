#!/usr/bin/env bash
# The long fuzzing run of the decoders: 1,000,000 generated inputs in all (333,334 for each of
# the scenario parser, the share-link decoder and the stored-run loader), in an optimized build,
# where any input slower than 100 ms counts as a hang. `cargo test` runs a short pass of the same.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
FUZZ_INPUTS="${FUZZ_INPUTS:-333334}" cargo test --release --test fuzz_decoders -- --nocapture
