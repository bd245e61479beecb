#!/usr/bin/env bash
# Builds the book (docs/, mdBook) into dist/docs/, or into the folder given, so the page can link
# to it offline (its ? Help link opens "Using the page"; the service worker caches the book).
# trunk's post-build hook (scripts/post-build.mjs) runs this for every page build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
out="${1:-dist/docs}"
if ! command -v mdbook >/dev/null; then
  echo "error: mdbook is missing: bash scripts/setup.sh installs it" >&2
  exit 1
fi
mkdir -p "$out"
mdbook build docs --dest-dir "$(cd "$out" && pwd)" >/dev/null
echo "book: $(find "$out" -type f | wc -l) files in $out"
