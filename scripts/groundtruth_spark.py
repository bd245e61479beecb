"""Ground truth: the scenarios in scenarios/groundtruth-spark/ on a real Apache Spark against the simulator.

Spark Streaming scenarios (s*.json): `barrierscope run --json` gives the simulator's verdict;
`barrierscope export-pyspark` writes the job; the job runs the driver on PySpark's local mode, a
socket server on 127.0.0.1 feeds it, the driver is killed (SIGKILL) and restarted from its
checkpoint as a new process. RDD batch files (b*.json): `barrierscope batch --json` against the
exported job's output, partitions computed again, and `toDebugString`'s stages. It prints a table
in the Flink suite's format and exits 1 on a disagreement or a run that failed. Run it through
scripts/groundtruth.sh, which installs what it needs.

A streaming run whose real schedule missed the scenario's moment (say, the kill came after the
next batch was cut) exits 3 and is run once more; the table says so. Every verdict compared holds
for every schedule that meets the scenario's moments, which the exported job checks.
"""
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from groundtruth import run, run_twice, start_suite  # noqa: E402  (the Flink suite's helpers)


def main():
    args, files, work = start_suite(__doc__.splitlines()[0], "Spark", "groundtruth-spark",
                                    "barrierscope-groundtruth-spark-", "Apache Spark (PySpark, local mode)")
    rows, notes, failures = [], [], 0
    started = time.time()
    for path in files:
        name = os.path.basename(path)[:-len(".json")]
        folder = os.path.join(work, name)
        os.makedirs(folder)
        batch = name.startswith("b")
        sim = json.loads(run([args.runner, "batch" if batch else "run", "--json", path]).stdout)
        job = os.path.join(folder, "job.py")
        run([args.runner, "export-pyspark", path, "-o", job])
        with open(job) as f:
            plan = json.loads(f.read().split("r'''", 1)[1].split("'''", 1)[0])
        result_path = os.path.join(folder, "result.json")
        t0 = time.time()
        code, log_name, first = run_twice(job, folder, result_path, args.timeout, "spark")
        if first is not None:
            why = "its schedule missed the scenario's moment" if first == 3 else "it did not finish (%s)" % first
            notes.append("%s: the first run failed: %s (see %s); it ran again." % (name, why, log_name(1)))
            print("  %-48s first run: %s; once more" % (name, why), flush=True)
        seconds = time.time() - t0
        if code != 0 or not os.path.exists(result_path):
            failures += 1
            rows.append((name, words(sim, batch, plan), "-", "RUN FAILED (%s; see %s)" % (code, log_name(2))))
            print("  %-48s run failed (%s), %.0f s" % (name, code, seconds), flush=True)
            continue
        with open(result_path) as f:
            spark = json.load(f)
        problems = []
        if batch:
            s_words, k_words = batch_words(sim, plan), batch_words(spark, plan)
            if sim["exactly_once"] != spark["exactly_once"]:
                problems.append("output: simulator %s, Spark %s" % (sim["exactly_once"], spark["exactly_once"]))
            if sorted(sim["reran"]) != sorted(spark["reran"]):
                problems.append("ran again: simulator [%s], Spark [%s]" % (" ".join(sorted(sim["reran"])),
                                                                          " ".join(sorted(spark["reran"]))))
            stages = [p for p, _ in plan["stages"]]
            if stages != spark["stages"]:
                problems.append("stages: simulator %s, Spark %s" % (stages, spark["stages"]))
            if plan["lineage_cut"] != spark["lineage_cut"]:
                problems.append("lineage cut: simulator %s, Spark %s" % (plan["lineage_cut"], spark["lineage_cut"]))
            # Job by job (the action's, the checkpoint job, a second action's): the partitions
            # each computed, and how many times.
            sim_jobs = [(j["job"], dict(j["computed"])) for j in plan["jobs"]]
            spark_jobs = [(j["job"], j["computed"]) for j in spark["jobs"]]
            if sim_jobs != spark_jobs:
                problems.append("computed, job by job: simulator %s, Spark %s" % (jobs_words(sim_jobs),
                                                                                 jobs_words(spark_jobs)))
            if len(spark_jobs) > 1 or spark.get("computed_by_checkpoint_job"):
                notes.append("%s: %s (Spark; the simulator: %s)%s." % (
                    name, jobs_words(spark_jobs), jobs_words(sim_jobs),
                    "".join("; the simulator's %s read %s from the checkpoint" % (j["job"], " ".join(j["read_checkpoint"]))
                            for j in plan["jobs"] if j["read_checkpoint"])))
            print("  %-48s %.0f s" % (name, seconds), flush=True)
        else:
            s_words, k_words = stream_words(sim["verdict"]), stream_words(spark["verdict"])
            for part in ("state", "external"):
                word = "state" if part == "state" else "output"
                if sim["verdict"][part] != spark["verdict"][part]:
                    problems.append("%s: simulator %s, Spark %s" % (word, sim["verdict"][part], spark["verdict"][part]))
                # Record by record, too.
                theirs = {r["label"]: r.get(part + "_verdict") for r in spark["ledger"]}
                differ = [r["label"] for r in sim["ledger"] if sim["verdict"][part] is not None
                          and r[part + "_verdict"] != theirs.get(r["label"])]
                if differ:
                    problems.append("%s of %s: simulator %s, Spark %s" % (
                        word, " ".join(differ), " ".join(str(next(r[part] for r in sim["ledger"] if r["label"] == l))
                                                         for l in differ),
                        " ".join(str(next(r.get(part) for r in spark["ledger"] if r["label"] == l)) for l in differ)))
            t = spark["timings"]
            print("  %-48s %s, %.0f s" % (name, ", ".join("%s at %s s" % kv for kv in sorted(t.items(), key=lambda kv: kv[1])),
                                          seconds), flush=True)
        if problems:
            failures += 1
        rows.append((name, s_words, k_words, "yes" if not problems else "NO: " + "; ".join(problems), seconds))
    print()
    print("| scenario | simulator | Spark | agree? |")
    print("|---|---|---|---|")
    for row in rows:
        print("| %s | %s | %s | %s |" % row[:4])
    print()
    for n in notes:
        print("Note: " + n)
    print("Total: %d scenarios, %d failed, %.0f s" % (len(rows), failures, time.time() - started))
    sys.exit(1 if failures else 0)


def stream_words(v):
    return "%s / %s" % (v["state"] or "(no state)", v["external"] or "(no sink)")


def batch_words(v, plan):
    stages = v.get("stages") or [p for p, _ in plan["stages"]]
    cut = v["lineage_cut"] if "lineage_cut" in v else plan["lineage_cut"]
    return "%s; ran again: %s; stages %s%s" % (
        "exactly once" if v["exactly_once"] else "NOT exactly once",
        " ".join(sorted(v["reran"])) or "nothing", "/".join(map(str, stages)), "; lineage cut" if cut else "")


def jobs_words(jobs):
    """[("action 1", {"L0": 2, "W0": 1})] as "action 1 computed L0 x2 W0"."""
    return "; ".join("%s computed %s" % (job, " ".join(k + (" x%d" % n if n > 1 else "") for k, n in sorted(c.items()))
                                         or "nothing") for job, c in jobs)


def words(sim, batch, plan):
    return batch_words(sim, plan) if batch else stream_words(sim["verdict"])


if __name__ == "__main__":
    main()
