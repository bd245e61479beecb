#!/usr/bin/env bash
# The long fuzzing run of the decoders (tests/fuzz_decoders.rs): 250,000 generated inputs for each
# of eleven decoders (the scenario parser, the share link, the stored run, the comparison file, the
# lesson file, the #lesson= link, the batch scenario, the quiz's set link, the #room= links, the
# Program room's edits with their restore, and a scenario's restore into a changed program), in an
# optimized build, where any input slower than 100 ms counts as a hang. It prints each decoder's
# count, how many inputs it accepted, and its slowest input with that input's time.
# `FUZZ_INPUTS=N` changes the count per decoder; `cargo test` runs a short pass (3,000 each).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
FUZZ_INPUTS="${FUZZ_INPUTS:-250000}" cargo test --release --test fuzz_decoders -- --nocapture
