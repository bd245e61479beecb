#!/usr/bin/env bash
# Ground truth: the scenarios in scenarios/groundtruth/ on a real Apache Flink, then those in
# scenarios/groundtruth-spark/ on a real Apache Spark, compared with the simulator
# (scripts/groundtruth.py, scripts/groundtruth_spark.py). Installs what is missing, skipping each
# step when it is done:
#   - Java (Debian's openjdk-17-jre-headless; PyFlink's and PySpark's runtimes are JVMs);
#   - PyFlink 2.3.0 in a virtual environment in the tools folder that scripts/setup.sh fills
#     ($BARRIERSCOPE_TOOLS, by default ~/.local/share/barrierscope-tools): venv-flink-2.3.0;
#   - PySpark 4.3.0 in another there, venv-spark-4.3.0;
#   (kept there, not in the checkout, so that a fresh clone on the same machine, as CI makes,
#   finds them installed: about two minutes of unpacking and byte-compiling saved a run);
#   - the runner, target/debug/barrierscope.
# Then it runs every scenario, prints a table per system and exits non-zero on a disagreement.
# `--flink` or `--spark` first runs one system only; the other arguments go to both scripts
# (--only NAME runs the matching scenarios).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
TOOLS="${BARRIERSCOPE_TOOLS:-$HOME/.local/share/barrierscope-tools}"
FLINK_VERSION=2.3.0
VENV="$TOOLS/venv-flink-$FLINK_VERSION"
SPARK_VERSION=4.3.0
SPARK_VENV="$TOOLS/venv-spark-$SPARK_VERSION"
systems="flink spark"
case "${1:-}" in
    --flink) systems=flink; shift ;;
    --spark) systems=spark; shift ;;
esac

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

# install_once NAME VENV CHECK PACKAGE WHY: installs PACKAGE into VENV unless VENV's Python passes
# the CHECK (a Python expression that is true when the right version is there).
install_once() {
    if "$2/bin/python" -c "import sys; sys.exit(not ($3))" 2>/dev/null; then
        echo "== $1: already in $2"
    else
        echo "== installing $1 into $2 ($5)"
        mkdir -p "$(dirname "$2")"
        python3 -m venv "$2"
        "$2/bin/pip" install --quiet --disable-pip-version-check "$4"
    fi
}
if [[ $systems == *flink* ]]; then
    install_once "PyFlink $FLINK_VERSION" "$VENV" \
        "__import__('pyflink.version').version.__version__ == '$FLINK_VERSION'" "apache-flink==$FLINK_VERSION" \
        "the runtime wheel is about 330 MB"
fi
if [[ $systems == *spark* ]]; then
    install_once "PySpark $SPARK_VERSION" "$SPARK_VENV" "__import__('pyspark').__version__ == '$SPARK_VERSION'" \
        "pyspark==$SPARK_VERSION" "PyPI has a source archive with Spark's jars; pip builds a 457 MB wheel once and caches it"
fi

echo "== building the runner"
CARGO_PROFILE_DEV_OPT_LEVEL="${CARGO_PROFILE_DEV_OPT_LEVEL:-1}" cargo build --quiet --bin barrierscope

status=0
if [[ $systems == *flink* ]]; then
    "$VENV/bin/python" scripts/groundtruth.py --runner "${CARGO_TARGET_DIR:-target}/debug/barrierscope" "$@" || status=1
fi
if [[ $systems == *spark* ]]; then
    "$SPARK_VENV/bin/python" scripts/groundtruth_spark.py --runner "${CARGO_TARGET_DIR:-target}/debug/barrierscope" "$@" || status=1
fi
exit $status
