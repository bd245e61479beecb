#!/usr/bin/env bash
# The test layers, each timed: `bash scripts/test.sh` (the README's test command) and `.ci/run` run
# them through this script. Installs whatever is missing, then runs every test layer:
#   1. native: the unit, story, property, runner and determinism tests (cargo nextest, which runs
#      the test binaries side by side, or cargo test where nextest is missing), the doc tests, and
#      the API docs with no broken or private link (cargo doc, warnings as errors)
#   2. browser: wasm-bindgen-test in headless Chromium (the real app, clicked through)
#   3. build: trunk build --release (its post-build hook also builds the book: mdbook build docs)
#   4. end to end: the built page served on 127.0.0.1, driven in headless Chromium (e2e/e2e.mjs,
#      e2e/rooms.mjs, e2e/stage.mjs: presenter mode, the clicker, a phone, a screen reader; and
#      e2e/prerender.mjs, the first screen before the wasm, where the repository has it; and
#      e2e/host.mjs, the page served with a static host's headers by scripts/host.mjs)
# `bash scripts/test-layers.sh native browser` runs only the layers named (native, browser, build, e2e);
# the end to end layer needs a page built by the build layer. At the end, and on a failure, it
# prints how long each step took.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(native browser build e2e)
for l in "${layers[@]}"; do
  case "$l" in native | browser | build | e2e) ;; *) echo "unknown layer: $l (native, browser, build, e2e)" >&2; exit 2 ;; esac
done
wants() { [[ " ${layers[*]} " == *" $1 "* ]]; }

# Each step's time, printed at the end (and on a failure, up to the step that failed).
times=()
step_start=$SECONDS
step() {
  local name="$1"
  shift
  echo "== $name"
  step_start=$SECONDS
  "$@"
  times+=("$(printf '%-52s %5d s' "$name" $((SECONDS - step_start)))")
}
report() {
  local rc=$?
  [ $rc -eq 0 ] || times+=("$(printf '%-52s %5d s (failed)' "${current:-?}" $((SECONDS - step_start)))")
  echo "== time per step (scripts/test-layers.sh ${layers[*]})"
  printf '   %s\n' "${times[@]}"
  printf '   %-52s %5d s\n' "in all" "$SECONDS"
}
trap report EXIT
current="setup: the tools (scripts/setup.sh)"
step "$current" bash scripts/setup.sh
export PATH="$PWD/scripts/bin:$HOME/.cargo/bin:${BARRIERSCOPE_TOOLS:-$HOME/.local/share/barrierscope-tools}/node_modules/.bin:$PATH"
source scripts/remap.sh

# The native tests and the runner are built with opt-level 1 (Cargo's dev profile, through its
# environment variable, for these commands only, so that a hand-run `cargo test` and the browser
# tests' wasm keep their defaults):
# the explorer's brute-force check and the property tests run about five times faster for about
# a minute more of compiling (issue 56: the native layer's tests 160 to 390 s at opt-level 0, 37 s
# at 1, on this machine). Debug assertions and overflow checks stay on. scripts/groundtruth.sh
# builds the runner the same way, beside these tests, so the two share one build.
o1=(env CARGO_PROFILE_DEV_OPT_LEVEL="${CARGO_PROFILE_DEV_OPT_LEVEL:-1}")
native() {
  if cargo nextest --version >/dev/null 2>&1; then
    "${o1[@]}" cargo nextest run --no-fail-fast
    "${o1[@]}" cargo test --doc
  else
    "${o1[@]}" cargo test
  fi
}
browser() {
  CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}" cargo test --target wasm32-unknown-unknown --test browser --test browser_sharing --test browser_compare --test browser_batch --test browser_spacetime --test browser_explorer --test browser_program
}
docs() { "${o1[@]}" RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib --quiet; }

if wants native; then
  current="1/4 native tests: cargo nextest run, the doc tests"
  step "$current" native
  current="1/4 the API docs: cargo doc, warnings as errors"
  step "$current" docs
fi
if wants browser; then
  current="2/4 browser tests: wasm-bindgen-test in Chromium"
  step "$current" browser
fi
if wants build; then
  current="3/4 build: trunk build --release, with the book"
  step "$current" trunk build --release
fi
if wants e2e; then
  current="4/4 end to end: node e2e/e2e.mjs"
  step "$current" node e2e/e2e.mjs
  current="4/4 end to end: node e2e/rooms.mjs"
  step "$current" node e2e/rooms.mjs
  current="4/4 end to end: node e2e/stage.mjs"
  step "$current" node e2e/stage.mjs
  if [ -f e2e/prerender.mjs ]; then
    current="4/4 end to end: node e2e/prerender.mjs"
    step "$current" node e2e/prerender.mjs
  fi
  current="4/4 end to end: node e2e/host.mjs"
  step "$current" node e2e/host.mjs
fi
