#!/usr/bin/env bash
# Installs whatever is missing to build, serve and test Barrierscope on Debian with rustup.
# Idempotent: every step checks first and is skipped fast when already done.
set -euo pipefail

TRUNK_VERSION=0.21.14
WASM_SPLIT_VERSION=0.2.4
MDBOOK_VERSION=0.5.4
BINARYEN_VERSION=132
AXE_VERSION=4.11.0
TERSER_VERSION=5.51.4
TOOLS="${BARRIERSCOPE_TOOLS:-$HOME/.local/share/barrierscope-tools}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The wasm-bindgen CLI must match the library version pinned in Cargo.toml exactly.
WASM_BINDGEN_VERSION="$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p' "$ROOT/Cargo.toml")"
# The instruction-counting benchmarks (benches/instructions.rs): the runner must match the
# iai-callgrind version pinned in Cargo.toml exactly.
IAI_CALLGRIND_VERSION="$(sed -n 's/^iai-callgrind = "=\([0-9.]*\)".*/\1/p' "$ROOT/Cargo.toml")"

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
export PATH="$HOME/.cargo/bin:$TOOLS/node_modules/.bin:$PATH"

if ! rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# trunk and mdbook are built without optimisation (--debug): about 2 minutes and 1 instead of 11
# and 4 on 2 cores. Their own speed does not show: trunk drives cargo, wasm-bindgen and wasm-opt
# (a page build took 2 min 24 s against 2 min 18 s with a release trunk, 2026-12-04), and mdbook
# writes the same book in a tenth of a second. The tools that process the wasm themselves
# (wasm-bindgen, wasm-split-cli) are built optimised.
if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (about 2 minutes on 2 cores)"
  cargo install --locked --debug "trunk@$TRUNK_VERSION"
fi

if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# wasm-split-cli: splits the page into rooms (scripts/bin/wasm-bindgen runs it). It has no
# --version: cargo's list of installed packages tells.
if ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:" || ! command -v wasm-split-cli >/dev/null; then
  say "installing wasm-split-cli (wasm_split_cli_support $WASM_SPLIT_VERSION, about 5 minutes on 2 cores)"
  cargo install --locked "wasm_split_cli_support@$WASM_SPLIT_VERSION" --features build-binary
fi

# mdbook: the book in docs/ (scripts/docs.sh; trunk's post-build hook builds it into the page).
if [ "$(mdbook --version 2>/dev/null || true)" != "mdbook v$MDBOOK_VERSION" ]; then
  say "installing mdbook $MDBOOK_VERSION (about 1 minute on 2 cores)"
  cargo install --locked --debug "mdbook@$MDBOOK_VERSION"
fi

# valgrind and iai-callgrind-runner: the instruction counts (cargo bench --bench instructions).
if ! command -v valgrind >/dev/null; then
  say "installing Debian valgrind"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y valgrind
fi
# It has no --version of its own: cargo's list of installed packages tells.
if ! cargo install --list | grep -qx "iai-callgrind-runner v$IAI_CALLGRIND_VERSION:" || ! command -v iai-callgrind-runner >/dev/null; then
  say "installing iai-callgrind-runner $IAI_CALLGRIND_VERSION (about 2 minutes on 2 cores)"
  cargo install --locked "iai-callgrind-runner@$IAI_CALLGRIND_VERSION"
fi

if [ ! -x "$TOOLS/node_modules/.bin/wasm-opt" ]; then
  say "installing wasm-opt (npm binaryen@$BINARYEN_VERSION) into $TOOLS"
  command -v npm >/dev/null || { apt-get update && apt-get install -y nodejs npm; }
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && npm install --no-audit --no-fund --silent "binaryen@$BINARYEN_VERSION" "playwright-core@1.64" "axe-core@$AXE_VERSION")
fi
if [ ! -d "$TOOLS/node_modules/playwright-core" ]; then
  say "installing playwright-core into $TOOLS"
  (cd "$TOOLS" && npm install --no-audit --no-fund --silent "playwright-core@1.64")
fi
# terser: the release build minifies the page's JS (its wasm-bindgen glue and the split loader,
# both fetched on the first visit) in scripts/bin/wasm-bindgen.
if [ "$(node -p "require('$TOOLS/node_modules/terser/package.json').version" 2>/dev/null || true)" != "$TERSER_VERSION" ]; then
  say "installing terser@$TERSER_VERSION into $TOOLS"
  (cd "$TOOLS" && npm install --no-audit --no-fund --silent "terser@$TERSER_VERSION")
fi
# axe-core: the accessibility audit in the end-to-end test.
if [ "$(node -p "require('$TOOLS/node_modules/axe-core/package.json').version" 2>/dev/null || true)" != "$AXE_VERSION" ]; then
  say "installing axe-core@$AXE_VERSION into $TOOLS"
  (cd "$TOOLS" && npm install --no-audit --no-fund --silent "axe-core@$AXE_VERSION")
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing Debian chromium and chromium-driver"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium chromium-driver
fi

# Fonts with CJK glyphs, so screenshots of the Chinese interface show real characters.
if ! fc-list : family 2>/dev/null | grep "Noto Sans CJK" >/dev/null; then
  say "installing fonts-noto-cjk for the Chinese interface in screenshots"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y fonts-noto-cjk
fi

say "toolchain ready: $(trunk --version), $(wasm-bindgen --version), wasm-split-cli $WASM_SPLIT_VERSION, $(mdbook --version), wasm-opt $(wasm-opt --version | awk '{print $3}'), $(chromium --version 2>/dev/null)"
