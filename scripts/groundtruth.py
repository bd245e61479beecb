"""Ground truth: the scenarios in scenarios/groundtruth/ on a real Apache Flink against the simulator.

For each scenario it runs `barrierscope run --json` (the simulator's verdict), exports the scenario
with `barrierscope export-pyflink`, runs the exported job on PyFlink's local mini-cluster, and
compares the verdicts, in state and in the output: exactly once, duplicated or lost. It prints a
table and exits 1 on a disagreement, on a crash that did not come where the scenario put it, or on
a run that failed. Run it through scripts/groundtruth.sh, which installs what it needs.

Where real Flink's scheduling makes a verdict depend on timing, only what holds for every schedule
is asserted (see `checks`).
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The field names of Flink's REST API (GET /jobs/<id>/checkpoints, .../details/<id> and
# .../details/<id>/subtasks/<vertex>) that the README's vocabulary table maps to the simulator's
# Checkpoints tab. The suite fails if Flink stops giving one of them.
VOCABULARY = {
    "counts": ["total", "in_progress", "completed", "failed", "restored"],
    "checkpoint": ["id", "status", "num_acknowledged_subtasks", "num_subtasks", "trigger_timestamp",
                   "latest_ack_timestamp", "end_to_end_duration", "checkpointed_size", "state_size",
                   "processed_data", "persisted_data"],
    "subtask": ["index", "ack_timestamp", "start_delay", "alignment.duration", "alignment.persisted",
                "alignment.processed", "unaligned_checkpoint", "checkpointed_size", "state_size",
                "checkpoint.sync", "checkpoint.async"],
}


def checks(sim, wanted_crash):
    """How to compare each verdict: "exact" (the same word) or "not-lost" (neither side lost a
    record), with the reason when it is the weaker one."""
    state = ("exact", "")
    if sim["strategy"] == "at-least-once":
        state = ("not-lost", "at-least-once: whether a record that reached a task with two inputs after "
                             "its barrier on one input is counted in the snapshot depends on when the other "
                             "barrier arrives, so duplicates depend on the schedule; nothing is lost in any")
    output = ("exact", "")
    if sim["sink"] == "append" and wanted_crash and wanted_crash["effects"] == 0:
        output = ("not-lost", "no record took effect at the sink between the checkpoint and the crash in the "
                              "simulator; in Flink some may, between the sink's barrier and the completion")
    return {"state": state, "external": output}


def agree(how, sim, flink):
    if how == "exact":
        return sim == flink
    return sim != "lost" and flink != "lost"


def dig(obj, dotted):
    for part in dotted.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj


def vocabulary(stats):
    """The field names missing from a completed checkpoint's statistics (empty: all there)."""
    missing = []
    overview = stats["overview"]
    missing += ["counts." + f for f in VOCABULARY["counts"] if f not in overview.get("counts", {})]
    missing += ["checkpoint." + f for f in VOCABULARY["checkpoint"] if f not in stats["details"]]
    subtasks = [s for vertex in stats["subtasks"].values() for s in vertex.get("subtasks", [])]
    if not subtasks:
        missing.append("subtasks")
    for f in VOCABULARY["subtask"]:
        if subtasks and dig(subtasks[0], f) is None:
            missing.append("subtask." + f)
    return missing


def first_completed(history, duration, persisted):
    """The first completed checkpoint of a history, as (id, duration, persisted in-flight data), and
    how many completed; (None, None, None, 0) when none did."""
    done = sorted((c for c in history if duration(c) is not None), key=lambda c: c["id"])
    if not done:
        return None, None, None, 0
    return done[0]["id"], duration(done[0]), persisted(done[0]), len(done)


def sim_checkpoints(sim):
    """The simulator's checkpoints: steps from trigger to the last acknowledgement, and records
    persisted in flight (`barrierscope run --json`, checkpoints.history)."""
    return first_completed(sim["checkpoints"]["history"],
                           lambda c: c["end_tick"] - c["trigger_tick"] if c["status"]["status"] == "completed" else None,
                           lambda c: c["in_flight"])


def flink_checkpoints(flink):
    """Flink's checkpoints, from the REST API's history (GET /jobs/<id>/checkpoints): the end-to-end
    duration in ms, and the persisted in-flight data in bytes."""
    history = flink.get("checkpoint_statistics", {}).get("overview", {}).get("history", [])
    return first_completed(history,
                           lambda c: c["end_to_end_duration"] if c["status"] == "COMPLETED" else None,
                           lambda c: c.get("persisted_data", 0))


def trends(results):
    """Backpressure's trend, for each pair of scenarios NAME-aligned and NAME-unaligned with
    "backpressure" in the name (a slow operator behind a faster source): under aligned checkpoints
    the barrier waits behind the slow task's queue, so the first completed checkpoint takes longer
    than under unaligned ones, persists no in-flight data (unaligned ones persist some), and fewer
    checkpoints complete in the run. Each system is held to this in its own units (steps and records
    in the simulator; ms and bytes in Flink): a trend, not the times. Returns (rows, problems)."""
    rows, problems = [], []
    for name in sorted(results):
        if "backpressure" not in name or not name.endswith("-aligned"):
            continue
        # "11-backpressure-aligned" goes with "12-backpressure-unaligned": the number is dropped.
        stem = name.split("-", 1)[1][:-len("aligned")] + "unaligned"
        pair = next((n for n in results if n.split("-", 1)[1] == stem), None)
        if pair is None:
            problems.append("%s: no unaligned scenario to compare with" % name)
            continue
        for system, read in (("simulator", lambda r: sim_checkpoints(r[0])), ("Flink", lambda r: flink_checkpoints(r[1]))):
            a, u = read(results[name]), read(results[pair])
            rows.append((name, pair, system, a, u))
            if a[0] is None or u[0] is None:
                problems.append("%s: %s completed no checkpoint under %s" % (name, system, "aligned" if a[0] is None else "unaligned"))
                continue
            if not a[1] > u[1]:
                problems.append("%s: the first aligned checkpoint (%s) is not longer than the unaligned one (%s)" % (system, a[1], u[1]))
            if a[2] != 0 or not u[2] > 0:
                problems.append("%s: persisted in flight %s aligned, %s unaligned (want 0 and more than 0)" % (system, a[2], u[2]))
            if not a[3] < u[3]:
                problems.append("%s: %d checkpoints completed aligned, %d unaligned (want fewer aligned)" % (system, a[3], u[3]))
    return rows, problems


def taskmanagers_lost(log_folder):
    """How many TaskManagers of the mini-cluster died (Flink logs "TaskManager #n failed")."""
    lost = set()
    for path in glob.glob(os.path.join(log_folder, "*.log")):
        with open(path, errors="replace") as f:
            for line in f:
                if "MiniCluster" in line and "TaskManager #" in line and "failed" in line:
                    lost.add(line.split("TaskManager #")[1].split()[0])
    return len(lost)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def run_twice(job, folder, result_path, timeout, system):
    """Runs an exported job (`job --work folder/work --result result_path`) and, if it fails, once
    more from a clean work folder. Returns the last exit code (or "timeout"), the log's name by
    attempt, and the first attempt's code when it failed (else None)."""
    log_name = lambda attempt: os.path.join(folder, "%s-%d.log" % (system, attempt))
    first = None
    for attempt in (1, 2):
        shutil.rmtree(os.path.join(folder, "work"), ignore_errors=True)
        if os.path.exists(result_path):
            os.remove(result_path)
        with open(log_name(attempt), "w") as log:
            try:
                code = subprocess.run([sys.executable, job, "--work", os.path.join(folder, "work"), "--result",
                                       result_path], stdout=subprocess.DEVNULL, stderr=log, timeout=timeout).returncode
            except subprocess.TimeoutExpired:
                code = "timeout"
        if code == 0 and os.path.exists(result_path):
            return code, log_name, first
        if attempt == 1:
            first = code
    return code, log_name, first


def crash_missed(result_path):
    """Whether a finished run's result says a crash was wanted and none was injected."""
    with open(result_path) as f:
        crash = json.load(f)["crash"]
    return bool(crash["wanted"]) and not crash["injected"]


def start_suite(description, system, folder, prefix, header):
    """What both suites (Flink's here, Spark's in groundtruth_spark.py) begin with: the options
    (--runner, --only, --timeout), the scenario files of scenarios/FOLDER/ the --only filter keeps,
    a fresh work folder, and the suite's header line. Returns (args, files, work)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runner", default=os.path.join(ROOT, "target", "debug", "barrierscope"))
    parser.add_argument("--only", default="", help="run only the scenarios whose file name contains this")
    parser.add_argument("--timeout", type=int, default=300, help="seconds one %s run may take" % system)
    args = parser.parse_args()

    files = sorted(glob.glob(os.path.join(ROOT, "scenarios", folder, "*.json")))
    files = [f for f in files if args.only in os.path.basename(f)]
    work = tempfile.mkdtemp(prefix=prefix)
    print("Ground truth: %d scenarios on %s; work files in %s" % (len(files), header, work), flush=True)
    return args, files, work


def main():
    args, files, work = start_suite(__doc__.splitlines()[0], "Flink", "groundtruth", "barrierscope-groundtruth-",
                                    "Apache Flink (PyFlink, local mini-cluster)")
    rows, failures, notes, vocab, died, placed, results = [], 0, [], None, [], [], {}
    started = time.time()
    for path in files:
        name = os.path.basename(path)[:-len(".json")]
        folder = os.path.join(work, name)
        os.makedirs(folder)
        sim = json.loads(run([args.runner, "run", "--json", path]).stdout)
        job = os.path.join(folder, "job.py")
        run([args.runner, "export-pyflink", path, "-o", job])
        result_path = os.path.join(folder, "result.json")
        t0 = time.time()
        # A run that fails to finish (not one that finishes with another verdict) is tried once
        # more from a clean work folder: PyFlink's Beam runner sometimes takes a TaskManager down
        # with the injected crash, and if the spare dies too the run cannot finish. The table
        # says when a second attempt was needed.
        #
        # A run that finished without the crash it was told to inject (every record went by before
        # a checkpoint completed, which a loaded machine can make happen) proves nothing either
        # way: it runs again, at most twice more, and the notes say so. A run whose crash came
        # at the wrong moment is not run again; that is a failure.
        for extra in range(3):
            code, log_name, first = run_twice(job, folder, result_path, args.timeout, "flink")
            if first is not None:
                notes.append("%s: the first run did not finish (%s; see %s); it ran again." % (name, first, log_name(1)))
                print("  %-48s run did not finish (%s); once more" % (name, first), flush=True)
            if extra == 2 or code != 0 or not os.path.exists(result_path) or not crash_missed(result_path):
                break
            kept = os.path.join(folder, "no-crash-%d.json" % (extra + 1))
            shutil.copy(result_path, kept)
            notes.append("%s: run %d finished without the crash it was to inject (see %s); it ran again."
                         % (name, extra + 1, kept))
            print("  %-48s the crash was not injected; once more" % name, flush=True)
        seconds = time.time() - t0
        if code != 0 or not os.path.exists(result_path):
            failures += 1
            rows.append((name, sim["verdict"], None, "RUN FAILED (%s; see %s)" % (code, log_name(2)), seconds))
            print("  %-48s run failed (%s), %.0f s" % (name, code, seconds), flush=True)
            continue
        with open(result_path) as f:
            flink = json.load(f)
        results[name] = (sim, flink)
        wanted, injected = flink["crash"]["wanted"], flink["crash"]["injected"]
        problems = []
        if wanted and not injected:
            problems.append("the crash was never injected")
        if wanted and injected:
            if wanted["after_checkpoint"] and injected["checkpoint"] is None:
                problems.append("the crash came before any checkpoint completed")
            if not wanted["after_checkpoint"] and injected["checkpoint"] is not None:
                problems.append("the crash came after checkpoint %d; the scenario wants it before any"
                                % injected["checkpoint"])
        verdicts = []
        for part in ("state", "external"):
            how, why = checks(sim, wanted)[part]
            s, fl = sim["verdict"][part], flink["verdict"][part]
            if s is None and fl is None:
                continue
            ok = agree(how, s, fl)
            verdicts.append((part, how, ok))
            if not ok:
                problems.append("%s: simulator %s, Flink %s" % (part, s, fl))
            if how != "exact" and why:
                notes.append("%s, %s: only nothing lost is asserted: %s." % (name, "state" if part == "state" else "output", why))
        # Keyed state per subtask: each key's state must be on the subtask the simulator put it on
        # (the export pins the key, src/engine/exports/pyflink_placement.rs).
        placement = flink["placement"]
        for op, key, simulator, flink_subtask in placement["elsewhere"]:
            problems.append("%s's state of key %s is on subtask %d in Flink, %d in the simulator"
                            % (op, key, flink_subtask, simulator))
        placed.append((name, placement["checked"], len(placement["elsewhere"])))
        stats = flink.get("checkpoint_statistics", {})
        if vocab is None and "subtasks" in stats:
            vocab = (name, stats["rest"], vocabulary(stats))
        elif vocab is None and "unavailable" in stats:
            notes.append("%s: checkpoint statistics unavailable: %s" % (name, stats["unavailable"]))
        if problems:
            failures += 1
        status = "yes" if not problems else "NO: " + "; ".join(problems)
        weaker = [p for p, how, _ in verdicts if how != "exact"]
        if not problems and weaker:
            status = "yes (nothing lost, %s)" % ", ".join("state" if p == "state" else "output" for p in weaker)
        rows.append((name, sim["verdict"], flink["verdict"], status, seconds))
        crash = ("crash at %s on %s after checkpoint %s" % (injected["at"], injected["record"], injected["checkpoint"])
                 if injected else "no crash")
        if taskmanagers_lost(os.path.join(folder, "work", "log")):
            crash += "; a TaskManager died with it, the spare took over"
            died.append(name)
        print("  %-48s %s, %.0f s" % (name, crash, seconds), flush=True)

    def words(v):
        if v is None:
            return "-"
        return "%s / %s" % (v["state"], v["external"] or "(no sink)")

    print()
    print("| scenario | simulator: state / output | Flink: state / output | agree? |")
    print("|---|---|---|---|")
    for name, s, fl, status, _ in rows:
        print("| %s | %s | %s | %s |" % (name, words(s), words(fl), status))
    print()
    for n in notes:
        print("Note: " + n)
    if died:
        print("Note: in %s, the injected crash also killed a TaskManager (Beam released a Python worker's "
              "environment twice: \"Reference count must not be negative\"); the spare TaskManager took the "
              "restarted tasks." % ", ".join(died))
    keys = sum(n for _, n, _ in placed)
    if keys:
        print("Keyed state per subtask: %d keys in %d scenarios compared, %d on another subtask than the simulator's (%s)."
              % (keys, sum(1 for _, n, _ in placed if n), sum(e for _, _, e in placed),
                 ", ".join("%s %d" % (name, n) for name, n, _ in placed if n)))
    if vocab:
        name, rest, missing = vocab
        if missing:
            failures += 1
            print("Checkpoint statistics (%s, %s): MISSING fields %s" % (name, rest, ", ".join(missing)))
        else:
            print("Checkpoint statistics (REST API at %s, scenario %s): every field the README maps is there."
                  % (rest, name))
    trend_rows, trend_problems = trends(results)
    if trend_rows or trend_problems:
        print()
        print("Backpressure's trend: the first completed checkpoint, aligned against unaligned")
        print("| scenarios | system | first checkpoint's duration | persisted in flight | checkpoints completed |")
        print("|---|---|---|---|---|")
        unit = {"simulator": ("steps", "records"), "Flink": ("ms", "bytes")}
        for name, pair, system, a, u in trend_rows:
            d, p = unit[system]
            print("| %s / %s | %s | %s %s / %s %s | %s / %s %s | %s / %s |"
                  % (name, pair, system, a[1], d, u[1], d, a[2], u[2], p, a[3], u[3]))
        for problem in trend_problems:
            print("TREND NOT FOLLOWED: " + problem)
        if trend_problems:
            failures += 1
        else:
            print("Both systems follow the trend.")
    print("Total: %d scenarios, %d failed, %.0f s" % (len(rows), failures, time.time() - started))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
