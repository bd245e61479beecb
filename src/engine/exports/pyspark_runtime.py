# ---- The runtime every PySpark export shares (src/engine/exports/pyspark_runtime.py) ----
import argparse
import glob
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid

PLAN = json.loads(json_plan)
LINE = "rec:%s|%s|%s"


def ms(t):
    """A DStream batch time (a datetime) in epoch milliseconds."""
    return int(round(t.timestamp() * 1000))


def atomic_write(path, text):
    tmp = "%s.%s.tmp" % (path, uuid.uuid4().hex)
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, path)


# ---- Spark Streaming: the driver (a process of its own, killed and restarted) ----

def driver(work, port):
    from pyspark import SparkConf, SparkContext
    from pyspark.streaming import StreamingContext
    chk = os.path.join(work, "checkpoint")
    batch_log = os.path.join(work, "batches.jsonl")
    state_file = os.path.join(work, "state.json")
    sink_file = os.path.join(work, "sink.txt")
    txn_dir = os.path.join(work, "committed")

    def update(new, old):
        out = list(old or [])
        for labels in new:
            out.extend(labels)
        return out

    def write_state(t, rdd):
        atomic_write(state_file, json.dumps({"time": ms(t), "state": dict(rdd.collect())}))

    def output(t, rdd):
        """The sink and the batch log in one job: each partition's task writes its rows (appending,
        or committing the key (batch time, partition) unless it was committed before), and the
        driver logs the batch's records once the job is done."""
        batch, sink = ms(t), PLAN["sink"]

        def part(i, it):
            rows = [r[0] for r in it]
            if sink == "append":
                with open(sink_file, "a") as f:
                    f.write("".join(l + "\n" for l in rows))
            elif sink == "transactional":
                key = os.path.join(txn_dir, "%d-%d" % (batch, i))
                if not os.path.exists(key):  # committed before: skipped
                    atomic_write(key, "".join(l + "\n" for l in rows))
            return rows
        labels = rdd.mapPartitionsWithIndex(part).collect()
        with open(batch_log, "a") as f:
            f.write(json.dumps({"time": batch, "labels": labels, "done": time.time()}) + "\n")

    def create():
        conf = (SparkConf().setMaster("local[2]").setAppName("barrierscope")
                .set("spark.streaming.receiver.writeAheadLog.enable", "true" if PLAN["write_ahead_log"] else "false")
                .set("spark.streaming.blockInterval", "100ms")
                .set("spark.default.parallelism", "1")
                .set("spark.locality.wait", "0")
                .set("spark.ui.enabled", "false"))
        sc = SparkContext(conf=conf)
        sc.setLogLevel("ERROR")
        ssc = StreamingContext(sc, PLAN["batch_seconds"])
        ssc.checkpoint(chk)
        recs = ssc.socketTextStream("127.0.0.1", port).map(lambda l: l[len("rec:"):].split("|"))
        for keep in PLAN["filters"]:
            recs = recs.filter(lambda r, keep=keep: r[1] in keep)
        if PLAN["state"]:
            state = recs.map(lambda r: (r[1], [r[0]])).updateStateByKey(update)
            state.checkpoint(PLAN["batch_seconds"] * PLAN["checkpoint_interval"])
            state.foreachRDD(write_state)
        recs.foreachRDD(output)
        return ssc

    os.makedirs(txn_dir, exist_ok=True)
    ssc = StreamingContext.getOrCreate(chk, create)
    ssc.sparkContext.setLogLevel("ERROR")
    ssc.start()
    ssc.awaitTermination()


# ---- Spark Streaming: the source server and the script around the driver ----

class Server:
    """A socket source on 127.0.0.1: sends each record to whoever is connected, once."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.conn, self.connections, self.sent = None, 0, []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            c, _ = self.sock.accept()
            self.conn, self.connections = c, self.connections + 1

    def drop(self):
        if self.conn:
            self.conn.close()
        self.conn = None

    def send(self, labels):
        by_label = {r["label"]: r for r in PLAN["records"]}
        for label in labels:
            r = by_label[label]
            delivered = False
            if self.conn:
                try:
                    self.conn.sendall((LINE % (r["label"], r["key"], r["value"]) + "\n").encode())
                    delivered = True
                except OSError:
                    self.conn = None
            self.sent.append({"label": label, "at": time.time(), "delivered": delivered})


def until(what, cond, timeout):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return
        time.sleep(0.05)
    raise TimeoutError("waited %d s for %s" % (timeout, what))


def batches(work):
    try:
        with open(os.path.join(work, "batches.jsonl")) as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def seen(work):
    return {label for b in batches(work) for label in b["labels"]}


def checkpoints(work):
    names = glob.glob(os.path.join(work, "checkpoint", "checkpoint-*"))
    return sorted(int(m.group(1)) for m in (re.search(r"checkpoint-(\d+)$", n) for n in names) if m)


def in_log(work, labels):
    """Whether every record is in the receiver's write-ahead log (the blocks are stored
    uncompressed, so each line's bytes are there)."""
    data = b""
    for p in glob.glob(os.path.join(work, "checkpoint", "receivedData", "*", "log-*")):
        with open(p, "rb") as f:
            data += f.read()
    by_label = {r["label"]: r for r in PLAN["records"]}
    return all((LINE % (l, by_label[l]["key"], by_label[l]["value"])).encode() in data for l in labels)


def reported(work):
    """How many blocks the driver's ReceivedBlockTracker has logged (each `BlockAdditionEvent` is
    serialized on its own in `receivedBlockMetadata/`, its class name with it)."""
    n = 0
    for p in glob.glob(os.path.join(work, "checkpoint", "receivedBlockMetadata", "log-*")):
        with open(p, "rb") as f:
            n += f.read().count(b"BlockAdditionEvent")
    return n


def after_boundary(zero=None, batch=None):
    """Sleeps until just after the next batch boundary (batch times are multiples of the interval).
    With `zero` (the driver's zero time, one interval before its first batch) and `batch` (the
    group's place among the simulator's batches with records), the next boundary whose batch has
    the same place in the state checkpoint interval as the simulator's."""
    period = PLAN["batch_seconds"]
    now = time.time()
    boundary = int(now / period) + 1
    if zero is not None and batch is not None:
        every = PLAN["checkpoint_interval"]
        while (boundary + 1 - int(round(zero / period))) % every != batch % every:
            boundary += 1
    time.sleep(boundary * period - now + 0.2)


def streaming(args):
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    server = Server()
    t0 = time.time()
    timings, problems = {}, []

    drivers = []

    def start(n):
        log = open(os.path.join(work, "driver-%d.log" % n), "w")
        p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--driver", "--work", work,
                              "--port", str(server.port)], stdout=log, stderr=log, start_new_session=True)
        drivers.append(p)
        before = server.connections
        until("the receiver to connect", lambda: server.connections > before, 180)
        timings["driver %d connected" % n] = round(time.time() - t0, 1)
        return p

    def kill(p):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        server.drop()

    try:
        return run_streaming(work, server, t0, timings, problems, start, kill)
    finally:
        for p in drivers:  # a run that failed leaves no driver behind
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)


def run_streaming(work, server, t0, timings, problems, start, kill):
    """The scenario's moments, in real time (see the module's note in exports/pyspark_export.rs)."""

    def batch_after(moment):
        return any(b["time"] / 1000.0 > moment for b in batches(work))

    p = start(1)
    started = time.time()
    until("the first batch", lambda: batch_after(started), 120)
    period = PLAN["batch_seconds"]
    done = None  # when the last processed group's batch wrote its output (the driver's clock)
    zero = min(b["time"] for b in batches(work)) / 1000.0 - period
    for group, number in zip(PLAN["processed"], PLAN["processed_batches"]):
        after_boundary(zero, number)
        server.send(group)
        until("batch of %s" % group, lambda: set(group) <= seen(work), 60)
        done = max(b["done"] for b in batches(work) if set(b["labels"]) & set(group))
    if PLAN["crash"]:
        if done is not None and not PLAN["kill_before_next_cut"]:
            # The simulator cut a batch after the last processed one: so must Spark.
            time.sleep(max(0.0, (int(done / period) + 1) * period - time.time()) + 0.5)
        if PLAN["stored"]:
            if done is None or not PLAN["kill_before_next_cut"]:
                after_boundary()
            before = reported(work)
            server.send(PLAN["stored"])
            if PLAN["write_ahead_log"]:
                # Stored, as Spark means it: the block is in the receiver's log and the driver has
                # logged it (ReceiverSupervisorImpl.pushAndReportBlock: store, then AddBlock). A
                # block in the log that the driver has not logged is lost on a restart: the new
                # driver's ReceivedBlockTracker knows only what its own log says.
                until("the write-ahead log to hold %s" % PLAN["stored"], lambda: in_log(work, PLAN["stored"]), 30)
                until("the driver to log the blocks", lambda: reported(work) > before, 30)
                while True:  # a second block (the records may straddle two) is reported soon after
                    n = reported(work)
                    time.sleep(0.5)
                    if reported(work) == n:
                        break
            # With the log off, the records are lost wherever they are at the kill (a block in
            # memory, the block generator's buffer, the socket's buffer): no wait.
        kill(p)
        killed = time.time()
        timings["driver killed"] = round(killed - t0, 1)
        if done is not None and PLAN["kill_before_next_cut"] and int(done / period) != int(killed / period):
            problems.append("a batch was cut between the output of the last processed batch and the kill; "
                            "the scenario wants the kill before the next cut")
        early = set(PLAN["stored"]) & seen(work)
        if early:
            problems.append("%s were processed before the kill; the scenario wants them only stored" % sorted(early))
        server.send(PLAN["while_down"])
        p = start(2)
    time.sleep(0.2)
    server.send(PLAN["after"])
    keys = {r["label"]: r["key"] for r in PLAN["records"]}
    wanted = {l for l in PLAN["after"] if all(keys[l] in keep for keep in PLAN["filters"])}
    # The state DStream's output runs before the batch log's in each batch: once the last records
    # are logged, the state file holds the state they made.
    until("the batches of the last records", lambda: wanted <= seen(work), 120)
    kill(p)
    timings["end"] = round(time.time() - t0, 1)
    return verdicts(work, timings, problems, server)


def judge(counts, expected):
    rows = []
    for label, n in counts.items():
        e = expected[label]
        rows.append("lost" if n < e else "duplicated" if n > e else "exactly-once")
    return "lost" if "lost" in rows else "duplicated" if "duplicated" in rows else "exactly-once"


def verdicts(work, timings, problems, server):
    records = PLAN["records"]
    state = None
    if PLAN["state"]:
        state = {r["label"]: 0 for r in records}
        try:
            with open(os.path.join(work, "state.json")) as f:
                for labels in json.load(f)["state"].values():
                    for l in labels:
                        state[l] += 1
        except FileNotFoundError:
            pass
    external = None
    if PLAN["sink"]:
        external = {r["label"]: 0 for r in records}
        lines = []
        if PLAN["sink"] == "append" and os.path.exists(os.path.join(work, "sink.txt")):
            with open(os.path.join(work, "sink.txt")) as f:
                lines = f.read().split()
        for p in glob.glob(os.path.join(work, "committed", "*-*")):
            if not p.endswith(".tmp"):
                with open(p) as f:
                    lines += f.read().split()
        for l in lines:
            external[l] += 1
    ledger = []
    for r in records:
        row = {"label": r["label"], "key": r["key"]}
        if state is not None:
            row.update(state=state[r["label"]], expected_state=r["expected_state"],
                       state_verdict=judge({r["label"]: state[r["label"]]}, {r["label"]: r["expected_state"]}))
        if external is not None:
            row.update(external=external[r["label"]], expected_external=r["expected_external"],
                       external_verdict=judge({r["label"]: external[r["label"]]}, {r["label"]: r["expected_external"]}))
        ledger.append(row)
    return {
        "name": PLAN["name"],
        "verdict": {
            "state": judge(state, {r["label"]: r["expected_state"] for r in records}) if state is not None else None,
            "external": judge(external, {r["label"]: r["expected_external"] for r in records}) if external is not None else None,
        },
        "ledger": ledger,
        "timings": timings,
        "schedule": problems,
        "batches": batches(work),
        "checkpoints": checkpoints(work),
        "sent": server.sent,
    }


# ---- RDD batch jobs ----

def fnv1a(key):
    h = 0x811C9DC5
    for b in key.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def words(line):
    out = []
    for w in line.split():
        w = re.sub(r"^[\W_]+|[\W_]+$", "", w).lower()
        if w:
            out.append((w, 1))
    return out


def chunks(items, parts):
    q, r = divmod(len(items), parts)
    out, at = [], 0
    for i in range(parts):
        n = q + (1 if i < r else 0)
        out.append(items[at:at + n])
        at += n
    return out


def stages_of(debug):
    """Partitions per stage in toDebugString, from the result stage up: one "(n)" per stage."""
    return [int(m.group(1)) for m in re.finditer(r"^[\s|]*(?:\+-)?\((\d+)\)", debug, re.M)]


def batch(args):
    from pyspark import SparkConf, SparkContext, StorageLevel, TaskContext
    work = os.path.abspath(args.work)
    runs = os.path.join(work, "runs")
    os.makedirs(runs, exist_ok=True)
    t0 = time.time()
    spec = PLAN["spec"]
    # local[2,2]: two task threads, and a task may fail once (spark.task.maxFailures 2).
    sc = SparkContext(conf=SparkConf().setMaster("local[2,2]").setAppName("barrierscope-batch")
                      .set("spark.ui.enabled", "false"))
    sc.setLogLevel("FATAL")
    sc.setCheckpointDir(os.path.join(work, "rdd-checkpoints"))
    fail = PLAN["fail"]

    def first_time():
        """True once a run: the failing task fails in the first job that computes its partition
        (the first action's), not again in a later job's first attempt."""
        try:
            os.close(os.open(os.path.join(work, "failed-once"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            return True
        except FileExistsError:
            return False

    def mark(label, fails_here):
        def f(i, it):
            data = list(it)
            tc = TaskContext.get()
            if fails_here is not None and i == fails_here and tc.attemptNumber() == 0 and first_time():
                raise RuntimeError("barrierscope: the task for partition %d fails on its first attempt" % i)
            open(os.path.join(runs, "%s%d.%d.%d.%s" % (label, i, tc.stageId(), tc.attemptNumber(),
                                                       uuid.uuid4().hex)), "w").close()
            return iter(data)
        return f

    rdd = None
    checkpointed = []
    for r in spec["rdds"]:
        fails_here = fail[1] if fail and fail[2] == r["label"] else None
        if r["op"] == "input":
            split = chunks(spec["input"], r["partitions"])
            rdd = sc.parallelize(range(len(split)), len(split)).flatMap(lambda i, s=split: [(l, 1) for l in s[i]])
        elif r["op"] == "words":
            rdd = rdd.flatMap(lambda rec: words(rec[0]))
        elif r["op"] == "drop-short":
            rdd = rdd.filter(lambda rec: len(rec[0]) >= 3)
        elif r["op"] == "count-by-key":
            rdd = rdd.reduceByKey(lambda a, b: a + b, r["partitions"], fnv1a)
        rdd = rdd.mapPartitionsWithIndex(mark(r["label"], fails_here), preservesPartitioning=True)
        if r.get("keep") == "persist":
            rdd = rdd.persist(StorageLevel.MEMORY_ONLY)
        elif r.get("keep") == "checkpoint":
            rdd.checkpoint()
            checkpointed.append(rdd)
    def summed(pairs):
        out = {}
        for k, n in pairs:
            out[k] = out.get(k, 0) + n
        return out

    def stage_ids(group, jobs):
        """The stage ids of each job in a job group, in job order (from the status tracker, which
        the listener bus fills a moment after the jobs start)."""
        tracker = sc.statusTracker()
        for _ in range(200):
            ids = sorted(tracker.getJobIdsForGroup(group))
            infos = [tracker.getJobInfo(j) for j in ids]
            if len(ids) >= jobs and all(i is not None for i in infos):
                return [set(i.stageIds) for i in infos]
            time.sleep(0.05)
        raise RuntimeError("the status tracker did not list the %d jobs of %s" % (jobs, group))

    before = rdd.toDebugString().decode()
    sc.setJobGroup("action-1", "the first action")
    out = summed(rdd.collect())
    after = rdd.toDebugString().decode()
    # The action's job comes first; a checkpoint() is written afterwards by a job of its own
    # (ReliableRDDCheckpointData), in the same job group; a second action is a job of its own.
    names = ["action 1"] + (["checkpoint"] if checkpointed else [])
    stages = stage_ids("action-1", len(names))
    if spec.get("actions", 1) > 1:
        sc.setJobGroup("action-2", "the second action")
        out = summed(rdd.collect())
        names.append("action 2")
        stages += stage_ids("action-2", 1)
    jobs = [{"job": n, "computed": {}} for n in names]
    for p in os.listdir(runs):
        name, stage = p.split(".")[0], int(p.split(".")[1])
        into = jobs[next(i for i, s in enumerate(stages) if stage in s)]["computed"]
        into[name] = into.get(name, 0) + 1
    computed = jobs[0]["computed"]
    by_checkpoint_job = jobs[1]["computed"] if checkpointed else {}
    expected = summed(PLAN["expected"])
    rows = [{"key": k, "expected": n, "got": out.get(k, 0),
             "verdict": "exactly-once" if out.get(k, 0) == n else ("lost" if out.get(k, 0) < n else "duplicated")}
            for k, n in sorted(expected.items())]
    rows += [{"key": k, "expected": 0, "got": n, "verdict": "duplicated"} for k, n in out.items() if k not in expected]
    result = {
        "name": PLAN["name"],
        "exactly_once": all(r["verdict"] == "exactly-once" for r in rows),
        "reran": sorted({k for j in jobs for k, n in j["computed"].items() if n > 1}),
        "jobs": jobs,
        "computed": computed,
        "computed_by_checkpoint_job": sorted(by_checkpoint_job),
        "stages": stages_of(before)[::-1],
        "stages_after": stages_of(after)[::-1],
        "lineage_cut": bool(checkpointed) and "ReliableCheckpointRDD" in after and "ParallelCollectionRDD" not in after,
        "checkpointed": [c.isCheckpointed() for c in checkpointed],
        "debug_before": before,
        "debug_after": after,
        "ledger": rows,
        "timings": {"end": round(time.time() - t0, 1)},
        "schedule": [],
    }
    sc.stop()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", default="barrierscope-spark-work")
    parser.add_argument("--result")
    parser.add_argument("--driver", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.driver:
        return driver(os.path.abspath(args.work), args.port)
    result = batch(args) if KIND == "batch" else streaming(args)
    text = json.dumps(result, indent=2, sort_keys=True)
    if args.result:
        with open(args.result, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    sys.exit(3 if result["schedule"] else 0)


if __name__ == "__main__":
    main()
