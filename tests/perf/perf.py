#!/usr/bin/python3
"""perf.py - `make perf`: the cases of issue 14 in one table.

Each case runs ebsize, its floor (what the job cannot go below: a
libc-only program, the solver alone in process, cJSON parsing the file
alone, reading the file) and its peers (a Python script, jq, a Python
brute-force solver) on the same GENERATED input, in the same run, and
prints the median wall time of whole processes, the peak RSS and the
ratio to the case's reference, with the issue's target and whether it is
met.  Runs are interleaved (A B A B ...) by tests/perf/spawn.c so that a
machine getting busier weighs on all contenders alike.  Inputs are made
by the generators beside this file (gen-volumes.py, gen-metrics.py,
gen-whatifs.py, ../lib/offer_gen.py), all labelled GENERATED, in a
temporary directory removed at the end.

Environment (set by `make perf`): EBSIZE_BIN, PERF_SPAWN, PERF_FLOOR,
PERF_CJSON, BENCH_SOLVER.  PERF_QUICK=1 shrinks every input tenfold (a
look, not the figures); PERF_RUNS scales the run counts.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

E = os.environ["EBSIZE_BIN"]
SPAWN = os.environ["PERF_SPAWN"]
FLOOR = os.environ["PERF_FLOOR"]
CJSON = os.environ["PERF_CJSON"]
SOLVER = os.environ["BENCH_SOLVER"]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PY = "/usr/bin/python3"
QUICK = os.environ.get("PERF_QUICK") == "1"
SCALE = float(os.environ.get("PERF_RUNS", "1"))
TMP = tempfile.mkdtemp(prefix="ebsize-perf-")
DB = os.path.join(TMP, "perf.db")
ROWS = []
NOTES = []
START = time.time()


def runs(n):
    return max(1, int(round(n * SCALE)))


def sized(n):
    return max(1, n // 10) if QUICK else n


def path(name):
    return os.path.join(TMP, name)


def spawn(k, *cmds):
    """Median seconds, max RSS (KiB) and status of each command, k runs
    each, interleaved.  A command is an argv list, or (argv, stdin, stdout)."""
    argv = [SPAWN, str(k)]
    for i, c in enumerate(cmds):
        if i:
            argv.append("--")
        if isinstance(c, tuple):
            c, fin, fout = c
            if fin:
                argv += ["-i", fin]
            if fout:
                argv += ["-o", fout]
        argv += c
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout.split("\n")
    res = []
    for line in out[:len(cmds)]:
        t, rss, st = line.split()
        res.append((float(t), int(rss), int(st)))
    return res


def gen(script, args, out):
    with open(out, "w") as f:
        subprocess.run([PY, script] + [str(a) for a in args], stdout=f, check=True)
    return os.path.getsize(out)


def row(case, who, secs, n, rss, ref=None, target=None, met=None, rate=None, status=0):
    ROWS.append(dict(case=case, who=who, secs=secs, n=n, rss=rss, ref=ref, target=target,
                     met=met, rate=rate, status=status))


def fmt_time(s):
    if s is None:
        return "-"
    if s < 1:
        return "%.2f ms" % (s * 1000) if s < 0.1 else "%.0f ms" % (s * 1000)
    return "%.2f s" % s


def fmt_rss(kib):
    return "-" if kib is None else "%.1f MiB" % (kib / 1024)


# ------------------------------------------------------------ start-up

def startup():
    subprocess.run([E, "--db", DB, "db", "check"], stdout=subprocess.DEVNULL, check=True)
    k = runs(101)
    cmds = [
        ("libc-only program (floor)", [FLOOR]),
        ("ebsize version", [E, "version"]),
        ("ebsize cost --type gp3 --size 100", [E, "--db", DB, "cost", "--type", "gp3", "--size", "100"]),
        ("ebsize cheapest ... --instance m6i.2xlarge",
         [E, "--db", DB, "cheapest", "--iops", "20000", "--throughput", "500", "--size", "200",
          "--instance", "m6i.2xlarge"]),
        ("ebsize cheapest (no --instance: 30 families)",
         [E, "--db", DB, "cheapest", "--iops", "20000", "--throughput", "500", "--size", "200"]),
    ]
    res = spawn(k, *[c for _, c in cmds])
    floor = res[0][0]
    for (name, _), (t, rss, st) in zip(cmds, res):
        target = "<= 3x" if name.startswith(("ebsize cost", "ebsize cheapest ... --inst")) else None
        row("start-up (whole process)", name, t, k, rss, t / floor, target,
            (t / floor <= 3) if target else None, status=st)
    kp = runs(11)
    (t, rss, st), = spawn(kp, [PY, os.path.join(HERE, "bruteforce.py"), "20000", "500", "200"])
    row("start-up (whole process)", "python3 bruteforce.py (peer)", t, kp, rss, t / floor, status=st)


# ------------------------------------------------------------ what-ifs

def whatifs():
    n = sized(10000)
    f = path("whatifs.jsonl")
    gen(os.path.join(HERE, "gen-whatifs.py"), [n], f)
    case = "%d cheapest what-ifs" % n
    # the floor: the solver alone, in process (its own generated needs)
    out = subprocess.run([SOLVER, DB, str(n)], capture_output=True, text=True).stdout
    solver = float(out.split(" in ")[1].split(" s")[0]) if " in " in out else None
    k = runs(5)
    (t, rss, st), = spawn(k, [E, "--db", DB, "cheapest", "--batch", f])
    row(case, "solver alone, in process (floor)", solver, 1, None, 1.0)
    row(case, "ebsize cheapest --batch (one process)", t, k, rss, t / solver if solver else None,
        "<= 1 s", t <= 1.0 * n / 10000, rate="%.0f/s" % (n / t), status=1 if st not in (0, 1) else 0)
    # one process each: a sample, scaled
    m = sized(300)
    reqs = [json.loads(line) for line in open(f)][:m]
    cmds = []
    for r in reqs:
        argv = [E, "--db", DB]
        if "region" in r:
            argv += ["--region", r["region"]]
        argv.append("cheapest")
        for key, v in r.items():
            if key not in ("id", "region"):
                argv += ["--" + key, str(v)]
        cmds.append(argv)
    t0 = time.perf_counter()
    for c in cmds:
        subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    each = (time.perf_counter() - t0) / m * n
    row(case, "ebsize cheapest, one process each (peer)", each, 1, None,
        each / solver if solver else None, rate="%.0f/s" % (n / each))
    NOTES.append("one process each: %d of the %d requests run, the time scaled to %d" % (m, n, n))
    # the Python brute force: a sample, scaled
    pm = sized(1000)
    pf = path("whatifs-py.jsonl")
    with open(f) as src, open(pf, "w") as dst:
        for i, line in enumerate(src):
            if i == pm:
                break
            dst.write(line)
    (pt, prss, st), = spawn(1, [PY, os.path.join(HERE, "bruteforce.py"), "--batch", pf])
    pt = pt / pm * n
    row(case, "python3 bruteforce.py (peer)", pt, 1, prss, pt / solver if solver else None,
        rate="%.0f/s" % (n / pt), status=st)
    NOTES.append("Python brute force: %d of the %d requests in one process, the time scaled" % (pm, n))


# ------------------------------------------------------------ scan + metrics

JQ = ('[.Volumes[] | select(.VolumeType == "gp2" and .State == "in-use") | .Size as $s'
      ' | ([3000, ([16000, ([100, 3 * $s] | max)] | min)] | max) as $iops'
      ' | $s * 0.10 - ($s * 0.08 + ($iops - 3000) * 0.005'
      ' + (if $s > 170 then 125 * 0.04 else 0 end))'
      ' | select(. > 0)] | [length, add]')


def scan_metrics():
    n = sized(10000)
    vols, m1, m2 = path("vols10k.json"), path("metrics.json"), path("metrics2x.json")
    gen(os.path.join(HERE, "gen-volumes.py"), [n], vols)
    mb = 37 * n / 10000
    s1 = gen(os.path.join(HERE, "gen-metrics.py"), [n, mb], m1)
    s2 = gen(os.path.join(HERE, "gen-metrics.py"), [n, 2 * mb], m2)
    case = "scan %d volumes + CloudWatch" % n
    k = runs(5)
    scan = [E, "--db", DB, "-q", "scan", vols]
    res = spawn(k, scan, scan + ["--metrics", m1], scan + ["--metrics", m2],
                [PY, os.path.join(HERE, "gp2-savings.py"), vols], ["jq", JQ, vols])
    base = res[0][0]
    row(case, "ebsize scan, no metrics (reference)", base, k, res[0][1], 1.0, status=res[0][2])
    row(case, "ebsize scan --metrics (%.0f MB)" % (s1 / 1e6), res[1][0], k, res[1][1],
        res[1][0] / base, "<= 1.5x", res[1][0] / base <= 1.5, status=res[1][2])
    row(case, "ebsize scan --metrics (%.0f MB: RSS flat?)" % (s2 / 1e6), res[2][0], k, res[2][1],
        res[2][0] / base, "RSS = above", res[2][1] <= res[1][1] * 1.1, status=res[2][2])
    row(case, "python3 gp2-savings.py, no metrics (peer)", res[3][0], k, res[3][1],
        res[3][0] / base, status=res[3][2])
    row(case, "jq, no metrics (peer)", res[4][0], k, res[4][1], res[4][0] / base, status=res[4][2])


# ------------------------------------------------------------ scan 1M

def scan_million():
    n = sized(1000000)
    vols = path("vols1m.json")
    size = gen(os.path.join(HERE, "gen-volumes.py"), [n], vols)
    case = "scan %s volumes (%.0f MB)" % ("{:,}".format(n), size / 1e6)
    k = runs(3)
    res = spawn(k, [CJSON, vols], [E, "--db", DB, "-q", "scan", vols])
    base = res[0][0]
    row(case, "cJSON_Parse of the file alone (floor)", base, k, res[0][1], 1.0, status=res[0][2])
    row(case, "ebsize scan (table: top findings + totals)", res[1][0], k, res[1][1],
        res[1][0] / base, "<= 1.2x, <= 100 MiB",
        res[1][0] / base <= 1.2 and res[1][1] <= 100 * 1024, rate="%.0f MB/s" % (size / 1e6 / res[1][0]),
        status=res[1][2])
    peers = spawn(1, [PY, os.path.join(HERE, "gp2-savings.py"), vols], ["jq", JQ, vols])
    row(case, "python3 gp2-savings.py (peer)", peers[0][0], 1, peers[0][1], peers[0][0] / base,
        status=peers[0][2])
    row(case, "jq (peer)", peers[1][0], 1, peers[1][1], peers[1][0] / base, status=peers[1][2])
    NOTES.append("scan of %s volumes: %d runs each of cJSON and ebsize, 1 of the peers" % (
        "{:,}".format(n), k))
    os.unlink(vols)


# ------------------------------------------------------------ offer file

def offer():
    mb = sized(1000)
    f = path("offer.json")
    with open(f, "w") as out:
        subprocess.run([PY, os.path.join(ROOT, "tests", "lib", "offer_gen.py"), "us-west-2",
                        str(mb * 1000000)], stdout=out, check=True)
    size = os.path.getsize(f)
    case = "pricing import (%.0f MB offer file)" % (size / 1e6)
    k = runs(3)
    idb = path("import.db")
    subprocess.run([E, "--db", idb, "db", "check"], stdout=subprocess.DEVNULL, check=True)
    res = spawn(k, ["cat", f], [E, "--db", idb, "-q", "pricing", "import", "--accept-changes", f])
    row(case, "cat FILE > /dev/null (floor: reading it)", res[0][0], k, res[0][1], 1.0,
        rate="%.0f MB/s" % (size / 1e6 / res[0][0]), status=res[0][2])
    rate = size / 1e6 / res[1][0]
    row(case, "ebsize pricing import", res[1][0], k, res[1][1], res[1][0] / res[0][0],
        ">= 50 MB/s, <= 64 MiB", rate >= 50 and res[1][1] <= 64 * 1024,
        rate="%.0f MB/s" % rate, status=res[1][2])
    os.unlink(f)
    small = path("offer100.json")
    with open(small, "w") as out:
        subprocess.run([PY, os.path.join(ROOT, "tests", "lib", "offer_gen.py"), "us-west-2",
                        str(sized(100) * 1000000)], stdout=out, check=True)
    ssize = os.path.getsize(small)
    (t, rss, st), = spawn(1, [PY, "-c", "import json, sys; json.load(open(sys.argv[1]))", small])
    row(case, "python3 json.load, %.0f MB (peer)" % (ssize / 1e6), t, 1, rss, None,
        rate="%.0f MB/s" % (ssize / 1e6 / t), status=st)
    NOTES.append("pricing import: %d runs (1 GB each); Python's json.load on a %.0f MB file "
                 "(it holds the whole document: %.1f GiB for it), 1 run" % (
                     k, ssize / 1e6, rss / 1024 / 1024))


# ------------------------------------------------------------ table

def table():
    head = ("case", "contender", "median", "runs", "peak RSS", "ratio", "rate", "target", "met")
    lines = []
    last = None
    for r in ROWS:
        case = r["case"] if r["case"] != last else ""
        last = r["case"]
        met = "-" if r["met"] is None else ("yes" if r["met"] else "NO")
        who = r["who"] + ("  [exit %d]" % r["status"] if r["status"] else "")
        lines.append((case, who, fmt_time(r["secs"]), str(r["n"]), fmt_rss(r["rss"]),
                      "-" if r["ref"] is None else "%.2fx" % r["ref"], r["rate"] or "-",
                      r["target"] or "-", met))
    w = [max(len(x[i]) for x in lines + [head]) for i in range(len(head))]
    right = {2, 3, 4, 5, 6}

    def fmt(x):
        return "  ".join(x[i].rjust(w[i]) if i in right else x[i].ljust(w[i])
                         for i in range(len(x))).rstrip()

    print(fmt(head))
    print("  ".join("-" * w[i] for i in range(len(head))))
    for x in lines:
        print(fmt(x))
    print()
    load = os.getloadavg()
    print("median wall time of whole processes, interleaved runs; ratio: to the case's "
          "first row; peak RSS: the largest of the runs")
    for note in NOTES:
        print("note: " + note)
    print("inputs GENERATED by tests/perf/gen-*.py and tests/lib/offer_gen.py%s; "
          "load average at the end %.2f %.2f %.2f on %d CPUs; %.0f s in all"
          % (" (PERF_QUICK: a tenth of the sizes)" if QUICK else "", load[0], load[1], load[2],
             os.cpu_count(), time.time() - START))


def main():
    try:
        for part in (startup, whatifs, scan_metrics, scan_million, offer):
            part()
            sys.stderr.write("perf: %s done (%.0f s)\n" % (part.__name__, time.time() - START))
    finally:
        table()
        shutil.rmtree(TMP, ignore_errors=True)


main()
