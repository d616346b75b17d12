#!/usr/bin/python3
# bench-scan.py - runs the scan benchmark (see scan.sh).  Generates the
# file into a temporary directory (removed afterwards), then times each
# contender RUNS times, reporting the median wall time and the peak RSS
# (ru_maxrss of the child, from wait4).
# usage: bench-scan.py N RUNS [NAME-PREFIX...]: only the contenders whose
# name starts with one of the prefixes (scan-1m.sh: ebsize's table and
# the plain cJSON parse), then the ratios issue 14 sets targets for.
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

n = int(sys.argv[1])
runs = int(sys.argv[2])
only = sys.argv[3:]
ebsize = os.environ["EBSIZE_BIN"]
here = os.path.dirname(os.path.abspath(__file__))
tmp = tempfile.mkdtemp(prefix="ebsize-perf-")


# gp2 -> gp3 in place at us-east-1 rates (ebs-facts.md T6), as jq
JQ = ('[.Volumes[] | select(.VolumeType == "gp2" and .State == "in-use") | .Size as $s'
      ' | ([3000, ([16000, ([100, 3 * $s] | max)] | min)] | max) as $iops'
      ' | $s * 0.10 - ($s * 0.08 + ($iops - 3000) * 0.005'
      ' + (if $s > 170 then 125 * 0.04 else 0 end))'
      ' | select(. > 0)] | [length, add]')


def measure(argv):
    """Median seconds and max RSS (KiB) of argv over `runs` runs."""
    times, rss = [], 0
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        times.append(time.perf_counter() - t0)
        if os.waitstatus_to_exitcode(status) != 0:
            return None, None
        rss = max(rss, ru.ru_maxrss)
    return statistics.median(times), rss


try:
    vols = os.path.join(tmp, "generated-volumes.json")
    with open(vols, "w") as out:
        subprocess.run(["/usr/bin/python3", os.path.join(here, "gen-volumes.py"), str(n)],
                       stdout=out, check=True)
    size = os.path.getsize(vols)
    db = os.path.join(tmp, "ebsize.db")
    subprocess.run([ebsize, "--db", db, "db", "path"], stdout=subprocess.DEVNULL, check=True)
    parse = os.path.join(tmp, "cjson-parse")
    cflags = subprocess.run(["pkg-config", "--cflags", "--libs", "libcjson"],
                            capture_output=True, text=True).stdout.split()
    built = subprocess.run(["cc", "-O2", "-o", parse, os.path.join(here, "cjson-parse.c")] + cflags).returncode == 0
    print("generated describe-volumes: %d volumes, %.1f MB (GENERATED data, tests/perf/gen-volumes.py)"
          % (n, size / 1e6))
    print("%-44s %9s %10s %8s" % ("contender", "median s", "peak RSS", "x file"))
    rows = [
        ("ebsize scan (table, top 50 + totals)", [ebsize, "--db", db, "scan", vols]),
        ("ebsize scan --format json (all findings)", [ebsize, "--db", db, "--format", "json", "scan", vols]),
        ("ebsize scan --format csv (all findings)", [ebsize, "--db", db, "--format", "csv", "scan", vols]),
        ("python3 gp2-savings.py (json module)", ["/usr/bin/python3", os.path.join(here, "gp2-savings.py"), vols]),
        ("jq gp2 -> gp3 savings (us-east-1 rates)", ["jq", JQ, vols]),
    ]
    if built:
        rows.append(("cJSON_Parse whole file (parse only)", [parse, vols]))
    if only:
        rows = [r for r in rows if any(r[0].startswith(p) for p in only)]
    got = {}
    for name, argv in rows:
        if shutil.which(argv[0]) is None and not os.path.exists(argv[0]):
            print("%-44s %9s" % (name, "missing"))
            continue
        secs, rss = measure(argv)
        if secs is None:
            print("%-44s %9s" % (name, "failed"))
            continue
        got[name] = (secs, rss)
        print("%-44s %9.3f %7.1f MB %7.2fx" % (name, secs, rss / 1024.0, rss * 1024.0 / size))
    table = got.get("ebsize scan (table, top 50 + totals)")
    floor = got.get("cJSON_Parse whole file (parse only)")
    if table and floor:
        print("ebsize scan (table) / cJSON parse: %.2fx the time (target <= 1.2x)" %
              (table[0] / floor[0]))
    if table:
        print("ebsize scan (table) peak RSS: %.1f MiB (target <= 100 MiB at 1M volumes)" %
              (table[1] / 1024.0))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
