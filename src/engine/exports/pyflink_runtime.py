# ---------------------------------------------------------------------------------------------
# The runtime of an exported job: the same in every export (barrierscope's
# src/engine/exports/pyflink_runtime.py). The job above it (RECORDS, EXPECTED, CRASH, SETTINGS and
# build_job) is what the exporter wrote for this scenario.
# ---------------------------------------------------------------------------------------------
import argparse
import glob
import json
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
import urllib.request

from pyflink.common import Configuration, Encoder, Types, WatermarkStrategy
from pyflink.datastream import (FilterFunction, KeyedProcessFunction, MapFunction, ProcessFunction,
                                RuntimeContext, StreamExecutionEnvironment)
from pyflink.datastream.connectors.file_system import FileSink, OutputFileConfig, RollingPolicy
from pyflink.datastream.connectors.number_seq import NumberSequenceSource
from pyflink.datastream.state import ValueStateDescriptor

# A record on the wire, as in the simulator: (label, key, value). A count or a sum sends the
# record on with its new count or sum as the value.
RECORD = Types.TUPLE([Types.STRING(), Types.STRING(), Types.LONG()])
INDEX = {label: i for i, (label, _key, _value) in enumerate(RECORDS)}
# Where this run keeps its files: set by main().
WORK = None


def key_of(record):
    return record[1]


# The key a keyed operator is keyed by: the pair (key, pin), not the string (see KEY_PIN above).
PINNED_KEY = Types.TUPLE([Types.STRING(), Types.INT()])


def pinned_key(record):
    return (record[1], KEY_PIN[record[1]])


def checkpoint_progress():
    """(the latest completed checkpoint's id or None, whether a newer one is pending).

    The JobManager makes chk-<id>/ in checkpoint storage when it triggers a checkpoint, before any
    barrier is sent, and writes chk-<id>/_metadata when the checkpoint completes; so a task sees
    both in storage, without a CheckpointListener (PyFlink's functions have none).
    """
    started, completed = [], []
    for folder in glob.glob(os.path.join(WORK, "checkpoints", "*", "chk-*")):
        try:
            cid = int(os.path.basename(folder)[len("chk-"):])
        except ValueError:
            continue
        started.append(cid)
        if os.path.exists(os.path.join(folder, "_metadata")):
            completed.append(cid)
    latest = max(completed) if completed else None
    newer = any(c not in completed and (latest is None or c > latest) for c in started)
    return latest, newer


def is_crash_record(number):
    """A record the crash points had not seen when the simulator crashed: CRASH["next"] holds,
    per source partition, the first such record number."""
    for (first, last), next_number in zip(PARTITIONS, CRASH["next"]):
        if first <= number <= last:
            return number >= next_number
    return False


class InjectedCrash(Exception):
    """The deterministic failure the scenario asks for."""


class CrashPoint(object):
    """The operator that fails once: the first time it sees the crash record or a later one of its
    source partition (is_crash_record), after a completed checkpoint (or before any, as the
    scenario says), once at least CRASH["effects"] records have taken effect here since this task
    saw that checkpoint complete. A marker file remembers the crash, so the restarted attempt
    passes.

    Why this holds whatever the schedule: a record that takes effect here after the checkpoint
    completed came after this task's barrier, so it is not in the checkpoint and will be replayed.
    And the restore is from the checkpoint this task saw: no newer one is pending when it raises
    (none was triggered, so no newer barrier passed this task), and one triggered now cannot
    complete, since this task will never acknowledge it.
    """

    def open_crash_point(self, ctx: RuntimeContext, name):
        self.crash_name = "%s[%d]" % (name, ctx.get_index_of_this_subtask())
        self.crash_here = CRASH is not None and name in CRASH["at"]
        self.seen_checkpoint = None
        self.effects_since = 0
        self.effects_in_attempt = 0

    def before(self, record):
        if not self.crash_here:
            return
        latest, newer = checkpoint_progress()
        if latest != self.seen_checkpoint:
            self.seen_checkpoint = latest
            self.effects_since = 0
        marker = os.path.join(WORK, "crash.json")
        if os.path.exists(marker) or not is_crash_record(INDEX[record[0]]):
            return
        if CRASH["after_checkpoint"]:
            if latest is None or newer or self.effects_since < CRASH["effects"]:
                return
        elif self.effects_in_attempt < CRASH["effects"]:
            return
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return  # another crash point got there first
        with os.fdopen(fd, "w") as f:
            json.dump({"record": record[0], "at": self.crash_name, "checkpoint": latest,
                       "effects_since_checkpoint": self.effects_since,
                       "effects_in_attempt": self.effects_in_attempt}, f)
        raise InjectedCrash("barrierscope: injected crash at %s on record %s (latest completed "
                            "checkpoint: %s)" % (self.crash_name, record[0], latest))

    def took_effect(self):
        self.effects_since += 1
        self.effects_in_attempt += 1


def slow_down(name):
    """A slow operator (the simulator's record-cost) spends SLOW_MS on each record."""
    ms = SLOW_MS.get(name, 0)
    if ms:
        time.sleep(ms / 1000.0)


class SourceRecords(MapFunction, CrashPoint):
    """NumberSequenceSource gives each record's number; this turns it into the record. It also
    paces the source (PACE_MS per record), so checkpoints fall between records as they would
    with a source that waits for its input, and in a job without a sink it is the crash point."""

    def __init__(self, name):
        self.name = name

    def open(self, ctx: RuntimeContext):
        self.open_crash_point(ctx, self.name)

    def map(self, number):
        time.sleep(PACE_MS / 1000.0)
        slow_down(self.name)
        record = RECORDS[number]
        self.before(record)
        self.took_effect()
        return record


class PassOn(MapFunction):
    """The simulator's map: passes every record on unchanged."""

    def __init__(self, name):
        self.name = name

    def map(self, record):
        slow_down(self.name)
        return record


class KeepKeys(FilterFunction):
    """The simulator's filter: passes on the records whose key is kept."""

    def __init__(self, name, keep):
        self.name = name
        self.keep = set(keep)

    def filter(self, record):
        slow_down(self.name)
        return record[1] in self.keep


class KeyedCount(KeyedProcessFunction):
    """Keyed count or sum. As in the simulator, the state keeps the records that contributed, so
    the verdict can say which records the state reflects; Flink's own count would keep a number.
    At the end of the input the final watermark fires a timer per key that writes the key's state
    to WORK/state: that is the state the job ends with, after every restore."""

    END_OF_INPUT = 2 ** 62

    def __init__(self, name, kind):
        self.name = name
        self.kind = kind

    def open(self, ctx: RuntimeContext):
        self.state = ctx.get_state(ValueStateDescriptor("contributors", Types.PICKLED_BYTE_ARRAY()))
        self.subtask = ctx.get_index_of_this_subtask()

    def process_element(self, record, ctx):
        slow_down(self.name)
        contributors, total = self.state.value() or ([], 0)
        contributors = contributors + [record[0]]
        total += record[2]
        self.state.update((contributors, total))
        ctx.timer_service().register_event_time_timer(self.END_OF_INPUT)
        yield (record[0], record[1], len(contributors) if self.kind == "count" else total)

    def on_timer(self, timestamp, ctx):
        contributors, _total = self.state.value() or ([], 0)
        folder = os.path.join(WORK, "state", self.name)
        os.makedirs(folder, exist_ok=True)
        key = ctx.get_current_key()[0]
        path = os.path.join(folder, "key-%s.json" % key.encode("utf-8").hex())
        with open(path + ".tmp", "w") as f:
            json.dump({"key": key, "subtask": self.subtask, "contributors": contributors}, f)
        os.replace(path + ".tmp", path)
        return []


class AppendSink(ProcessFunction, CrashPoint):
    """A plain sink: every record is appended to a file at once, as a non-transactional sink
    writes to an external system. A replayed record is appended again."""

    def __init__(self, name):
        self.name = name

    def open(self, ctx: RuntimeContext):
        self.open_crash_point(ctx, self.name)
        folder = os.path.join(WORK, "external", self.name)
        os.makedirs(folder, exist_ok=True)
        self.path = os.path.join(folder, "subtask-%d.txt" % ctx.get_index_of_this_subtask())

    def process_element(self, record, ctx):
        slow_down(self.name)
        self.before(record)
        with open(self.path, "a") as f:
            f.write(record[0] + "\n")
        self.took_effect()
        return []


class UpsertSink(AppendSink):
    """An idempotent sink: one row per record, which a replay overwrites."""

    def process_element(self, record, ctx):
        slow_down(self.name)
        self.before(record)
        row = os.path.join(os.path.dirname(self.path), "row-%d" % INDEX[record[0]])
        with open(row, "w") as f:
            f.write(record[0] + "\n")
        self.took_effect()
        return []


class BeforeFileSink(MapFunction, CrashPoint):
    """The crash point in front of a FileSink: passes each record's label on to be written."""

    def __init__(self, name):
        self.name = name

    def open(self, ctx: RuntimeContext):
        self.open_crash_point(ctx, self.name)

    def map(self, record):
        slow_down(self.name)
        self.before(record)
        self.took_effect()
        return record[0]


def file_sink(name):
    """Flink's FileSink, row format: a part file is pending when the checkpoint's barrier passes
    and is committed (renamed to its visible name) when the checkpoint completes; a restore
    commits the pending files of the restored checkpoint and drops the rest. A reader sees
    committed part files only: two-phase commit."""
    return (FileSink.for_row_format(os.path.join(WORK, "external", name), Encoder.simple_string_encoder())
            .with_output_file_config(OutputFileConfig.builder().with_part_prefix("part").build())
            .with_rolling_policy(RollingPolicy.on_checkpoint_rolling_policy())
            .build())


def source(env, name, first, last, parallelism):
    """A replayable, checkpointed source: NumberSequenceSource reads record numbers; its split
    position is in every checkpoint, and a restore reads again from there."""
    stream = env.from_source(NumberSequenceSource(first, last), WatermarkStrategy.no_watermarks(), name)
    stream = stream.set_parallelism(parallelism)
    return stream.map(SourceRecords(name), output_type=RECORD).name(name + " records").set_parallelism(parallelism)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CheckpointStatistics(object):
    """Polls the mini-cluster's REST API (the web UI's Checkpoints tab) while the job runs, and
    keeps the latest answer that has a completed checkpoint, with its per-task and per-subtask
    details."""

    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        self.job = None
        self.latest = None
        self.error = None
        self.done = threading.Event()

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=2) as answer:
            return json.load(answer)

    def poll(self):
        while not self.done.is_set():
            try:
                overview = self.get("/jobs/%s/checkpoints" % self.job)
                completed = overview.get("latest", {}).get("completed")
                if completed:
                    seen = {"rest": self.base, "overview": overview}
                    if self.latest is None:
                        self.latest = seen
                    cid = completed["id"]
                    seen["details"] = self.get("/jobs/%s/checkpoints/details/%d" % (self.job, cid))
                    seen["subtasks"] = {vertex: self.get("/jobs/%s/checkpoints/details/%d/subtasks/%s" % (self.job, cid, vertex))
                                        for vertex in seen["details"].get("tasks", {})}
                    self.latest = seen
            except Exception as e:  # the cluster restarts tasks or shuts down: keep the last answer
                self.error = "%s: %s" % (type(e).__name__, e)
            self.done.wait(0.2)

    def start(self, job_id):
        self.job = job_id
        threading.Thread(target=self.poll, daemon=True).start()

    def result(self):
        self.done.set()
        if self.latest is None:
            return {"unavailable": "no completed checkpoint was seen at %s (last error: %s)" % (self.base, self.error)}
        return self.latest


def verdict(count, expected):
    if count > expected:
        return "duplicated"
    if count < expected:
        return "lost"
    return "exactly-once"


def headline(tally):
    for v in ("lost", "duplicated"):
        if tally[v] > 0:
            return v
    return "exactly-once"


def read_state():
    """Each record's count in the state the job ended with, and which subtask held each key's
    state, per keyed operator: {operator: {key: subtask}}."""
    counts, placement = [0] * len(RECORDS), {}
    for path in glob.glob(os.path.join(WORK, "state", "*", "key-*.json")):
        with open(path) as f:
            entry = json.load(f)
        for label in entry["contributors"]:
            counts[INDEX[label]] += 1
        placement.setdefault(os.path.basename(os.path.dirname(path)), {})[entry["key"]] = entry["subtask"]
    return counts, placement


def compare_placement(placement):
    """The keys of the operators in SUBTASK whose state Flink kept on another subtask than the
    simulator: {"checked": how many keys were compared, "elsewhere": [[operator, key, simulator's,
    Flink's], ...]}."""
    checked, elsewhere = 0, []
    for op, keys in sorted(placement.items()):
        if op not in SUBTASK:
            continue
        for key, subtask in sorted(keys.items()):
            checked += 1
            if SUBTASK[op][key] != subtask:
                elsewhere.append([op, key, SUBTASK[op][key], subtask])
    return {"checked": checked, "elsewhere": elsewhere}


def read_output():
    """What a reader of the external system sees: appended lines, upserted rows, and the lines of
    committed part files (in-progress and pending files start with a dot)."""
    counts = [0] * len(RECORDS)
    for root, _dirs, files in os.walk(os.path.join(WORK, "external")):
        for name in files:
            if name.startswith("."):
                continue
            with open(os.path.join(root, name)) as f:
                for line in f:
                    if line.strip():
                        counts[INDEX[line.strip()]] += 1
    return counts


def configuration():
    config = Configuration()
    for key, value in SETTINGS.items():
        config.set_string(key, value)
    config.set_string("execution.checkpointing.dir", "file://" + os.path.join(WORK, "checkpoints"))
    # The Python workers are processes that run `python` from PATH unless told otherwise: they
    # run this interpreter, which has PyFlink.
    config.set_string("python.executable", sys.executable)
    # When a Python function raises, Beam may release a worker's environment twice ("Reference
    # count must not be negative"), which kills the whole TaskManager, so the restart finds no
    # slot. A spare TaskManager, as a real cluster has, takes the restarted tasks (each has slots
    # for the whole job: taskmanager.numberOfTaskSlots); a job that still finds none (both died)
    # fails after a minute, not five. (A third would make the job slower to start: its tasks spread
    # over more slots, each with its Python worker.)
    config.set_string("minicluster.number-of-taskmanagers", "2")
    config.set_string("slot.request.timeout", "60 s")
    return config


def main(build_job):
    global WORK
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--work", help="folder for checkpoints, state and the external system (emptied first)")
    parser.add_argument("--result", help="also write the JSON result to this file")
    args = parser.parse_args()
    WORK = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="barrierscope-flink-")
    for part in ("checkpoints", "state", "external", "log", "crash.json"):
        path = os.path.join(WORK, part)
        if os.path.isdir(path):
            shutil.rmtree(path)
        elif os.path.exists(path):
            os.remove(path)
    os.makedirs(WORK, exist_ok=True)
    # Flink's own log goes with the run (the gateway starts with the first Configuration).
    os.environ["FLINK_LOG_DIR"] = os.path.join(WORK, "log")
    # Workers started as processes find this interpreter's bin folder first.
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    port = free_port()
    config = configuration()
    config.set_string("rest.port", str(port))
    config.set_string("rest.address", "127.0.0.1")
    config.set_string("rest.bind-address", "127.0.0.1")
    env = StreamExecutionEnvironment.get_execution_environment(config)
    build_job(env)
    started = time.time()
    statistics = CheckpointStatistics(port)
    client = env.execute_async(NAME or "barrierscope export")
    statistics.start(str(client.get_job_id()))
    client.get_job_execution_result().result()
    wall = time.time() - started

    (state, placement), output = read_state(), read_output()
    has_sink = any(EXPECTED[i][1] is not None for i in range(len(RECORDS)))
    ledger, tallies = [], {"state": dict.fromkeys(("exactly_once", "lost", "duplicated", "pending"), 0),
                           "external": dict.fromkeys(("exactly_once", "lost", "duplicated", "pending"), 0)}
    for i, (label, key, _value) in enumerate(RECORDS):
        expected_state, expected_output = EXPECTED[i]
        row = {"record": i, "label": label, "key": key,
               "state": state[i], "expected_state": expected_state,
               "state_verdict": verdict(state[i], expected_state),
               "external": output[i], "expected_external": expected_output or 0,
               "external_verdict": verdict(output[i], expected_output) if has_sink else None}
        tallies["state"][row["state_verdict"].replace("-", "_")] += 1
        if has_sink:
            tallies["external"][row["external_verdict"].replace("-", "_")] += 1
        ledger.append(row)
    crash = None
    marker = os.path.join(WORK, "crash.json")
    if os.path.exists(marker):
        with open(marker) as f:
            crash = json.load(f)
    short = lambda t: {k.replace("_", "-"): v for k, v in t.items()}
    result = {
        "engine": "Apache Flink (PyFlink %s, local mini-cluster)" % flink_version(),
        "name": NAME,
        "strategy": STRATEGY,
        "sink": SINK,
        "verdict": {"state": headline(short(tallies["state"])),
                    "external": headline(short(tallies["external"])) if has_sink else None},
        "tally": {"state": tallies["state"], "external": tallies["external"] if has_sink else None},
        "ledger": ledger,
        "crash": {"wanted": CRASH, "injected": crash},
        "placement": dict(compare_placement(placement), flink=placement),
        "checkpoint_statistics": statistics.result(),
        "work": WORK,
        "wall_seconds": round(wall, 1),
    }
    text = json.dumps(result, indent=2, sort_keys=True)
    if args.result:
        with open(args.result, "w") as f:
            f.write(text + "\n")
    print(text)


def flink_version():
    try:
        from pyflink.version import __version__
        return __version__
    except ImportError:
        return "?"
