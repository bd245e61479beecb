#!/usr/bin/env bash
# Installs whatever is missing, builds the page (trunk build --release) and serves dist/ at
# http://127.0.0.1:8080 as a static host should (scripts/host.mjs: content-hashed files cached for
# a year, index.html, sw.js and the rest revalidated, Brotli or gzip; see the book's "Hosting the
# page"), so the page you open is the one a host would send.
#   bash scripts/serve.sh                 build, then serve dist/ (after an edit, run it again)
#   bash scripts/serve.sh --port 9000     the same on another port (also: --address ADDR, --log)
#   bash scripts/serve.sh --no-build      serve dist/ as it is, without building
#   bash scripts/serve.sh --dev [ARGS]    trunk serve ARGS: a development build that rebuilds and
#                                         reloads on every change (no per-file cache headers)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode=release
case "${1:-}" in
  --dev) mode=dev; shift ;;
  --no-build) mode=as-is; shift ;;
esac
bash scripts/setup.sh
export PATH="$PWD/scripts/bin:$HOME/.cargo/bin:${BARRIERSCOPE_TOOLS:-$HOME/.local/share/barrierscope-tools}/node_modules/.bin:$PATH"
source scripts/remap.sh
case "$mode" in
  dev) exec trunk serve "$@" ;;
  release) trunk build --release ;;
esac
exec node scripts/host.mjs dist "$@"
