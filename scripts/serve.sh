#!/usr/bin/env bash
# Installs whatever is missing, then serves the app at http://127.0.0.1:8080 with `trunk serve`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
export PATH="$PWD/scripts/bin:$HOME/.cargo/bin:${BARRIERSCOPE_TOOLS:-$HOME/.local/share/barrierscope-tools}/node_modules/.bin:$PATH"
source scripts/remap.sh
exec trunk serve "$@"
