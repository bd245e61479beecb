#!/usr/bin/env bash
# Ground truth: the scenarios in scenarios/groundtruth/ on a real Apache Flink, compared with the
# simulator (scripts/groundtruth.py). Installs what is missing, skipping each step when it is done:
#   - Java (Debian's openjdk-17-jre-headless; PyFlink's runtime is Flink's JVM);
#   - PyFlink 2.3.0 in a project-local virtual environment, .venv-flink (git-ignored);
#   - the runner, target/debug/barrierscope.
# Then it runs every scenario, prints a table and exits non-zero on a disagreement.
# Arguments go to groundtruth.py (--only NAME runs the matching scenarios).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
FLINK_VERSION=2.3.0
VENV=.venv-flink

if ! command -v java >/dev/null 2>&1; then
    echo "== installing Java: openjdk-17-jre-headless"
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless
    elif command -v sudo >/dev/null 2>&1; then
        sudo apt-get update -qq && sudo apt-get install -y -qq openjdk-17-jre-headless
    else
        echo "error: PyFlink needs Java 11 or later; install openjdk-17-jre-headless" >&2
        exit 2
    fi
fi
java_major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
if [ "${java_major:-0}" -lt 11 ]; then
    echo "error: PyFlink $FLINK_VERSION needs Java 11 or later; found $(java -version 2>&1 | head -1)" >&2
    exit 2
fi

if "$VENV/bin/python" -c "import pyflink.version, sys; sys.exit(pyflink.version.__version__ != '$FLINK_VERSION')" 2>/dev/null; then
    echo "== PyFlink $FLINK_VERSION: already in $VENV"
else
    echo "== installing PyFlink $FLINK_VERSION into $VENV (the runtime wheel is about 330 MB)"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "apache-flink==$FLINK_VERSION"
fi

echo "== building the runner"
cargo build --quiet --bin barrierscope

"$VENV/bin/python" scripts/groundtruth.py --runner target/debug/barrierscope "$@"
