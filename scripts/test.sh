#!/usr/bin/env bash
# Installs whatever is missing, then runs every test layer:
#   1. native: cargo test (unit, scenario stories, property tests, runner, determinism), and the
#      API docs with no broken or private link (cargo doc, warnings as errors)
#   2. browser: wasm-bindgen-test in headless Chromium (the real app, clicked through)
#   3. build: trunk build --release (its post-build hook also builds the book: mdbook build docs)
#   4. end to end: the built page served on 127.0.0.1, driven in headless Chromium (e2e/e2e.mjs, and
#      e2e/stage.mjs: presenter mode, the clicker, a phone, a screen reader; e2e/prerender.mjs: the
#      first screen before the wasm, with JavaScript off, and on slow networks)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
export PATH="$PWD/scripts/bin:$HOME/.cargo/bin:${BARRIERSCOPE_TOOLS:-$HOME/.local/share/barrierscope-tools}/node_modules/.bin:$PATH"
source scripts/remap.sh

echo "== 1/4 native tests: cargo test"
cargo test
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib --quiet
echo "== 2/4 browser tests: wasm-bindgen-test in headless Chromium"
CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}" cargo test --target wasm32-unknown-unknown --test browser --test browser_sharing --test browser_compare --test browser_batch --test browser_spacetime --test browser_explorer --test browser_program
echo "== 3/4 build: trunk build --release, with the book (mdbook build docs)"
trunk build --release
echo "== 4/4 end to end: node e2e/e2e.mjs"
node e2e/e2e.mjs
node e2e/rooms.mjs
node e2e/stage.mjs
node e2e/prerender.mjs
