#!/usr/bin/env bash
# Installs whatever is missing, then runs every test layer (scripts/test-layers.sh, which times
# each step and prints the times at the end):
#   1. native: the unit, story, property, runner and determinism tests (cargo nextest, or cargo
#      test where nextest is missing), the doc tests, and the API docs with no broken or private
#      link (cargo doc, warnings as errors)
#   2. browser: wasm-bindgen-test in headless Chromium (the real app, clicked through)
#   3. build: trunk build --release (its post-build hook also builds the book: mdbook build docs)
#   4. end to end: the built page served on 127.0.0.1, driven in headless Chromium (e2e/e2e.mjs,
#      e2e/rooms.mjs, e2e/stage.mjs: presenter mode, the clicker, a phone, a screen reader; and
#      e2e/prerender.mjs: the first screen before the wasm, with JavaScript off, and on slow
#      networks; e2e/host.mjs: the page served with a static host's headers, scripts/host.mjs)
# `bash scripts/test.sh native browser` runs only the layers named (native, browser, build, e2e).
exec bash "$(dirname "${BASH_SOURCE[0]}")/test-layers.sh" "$@"
