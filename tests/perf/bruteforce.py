#!/usr/bin/python3
# bruteforce.py - the peer of `ebsize cheapest` in `make perf` (issue 14):
# what a scripting user would write.  For every volume type, every stripe
# width up to 8 and every whole size per volume from what the need asks
# up to the type's largest, the cheapest provisioning that meets N IOPS,
# M MiB/s and C GiB, priced at the us-east-1 rates of ebs-facts.md T6 with
# the volume rules of T1-T4 (no credits, no instance limits).  Prints the
# cheapest set per type.
#   bruteforce.py IOPS MIBPS GIB          one request
#   bruteforce.py --batch FILE            one per line of JSON Lines
#                                         (iops, throughput, size)
import json
import math
import sys

P = {  # T6 us-east-1
    "gp2": 0.10, "gp3": 0.08, "gp3_iops": 0.005, "gp3_mibps": 0.04,
    "io1": 0.125, "io1_iops": 0.065, "io2": 0.125,
    "io2_iops": (0.065, 0.0455, 0.03185), "st1": 0.045, "sc1": 0.015,
}


def io2_iops_cost(i):
    t1, t2, t3 = P["io2_iops"]
    return min(i, 32000) * t1 + min(max(i - 32000, 0), 32000) * t2 + max(i - 64000, 0) * t3


def one_volume(t, s, iops, mibps):
    """The cheapest (cost, iops, mibps) of one volume of type t and size s
    GiB that delivers iops and mibps, or None."""
    if t == "gp2":
        base = min(max(3 * s, 100), 16000)
        tput = 128 if s <= 170 else 250
        return (s * P["gp2"], base, tput) if base >= iops and tput >= mibps else None
    if t == "gp3":
        pi = max(3000, iops)
        pm = max(125, mibps)
        if pi > min(80000, 500 * s) or pm > min(2000, pi / 4):
            return None
        return (s * P["gp3"] + (pi - 3000) * P["gp3_iops"] + (pm - 125) * P["gp3_mibps"], pi, pm)
    if t in ("io1", "io2"):
        pi = max(100, iops)
        cap = 64000 if t == "io1" else 256000
        per_gib = 50 if t == "io1" else 1000
        tput = min(pi * 0.256 if t == "io2" else pi / 4, 1000 if t == "io1" else 4000)
        if s < 4 or pi > min(cap, per_gib * s) or tput < mibps:
            return None
        c = s * P[t] + (pi * P["io1_iops"] if t == "io1" else io2_iops_cost(pi))
        return (c, pi, tput)
    if t in ("st1", "sc1"):
        if s < 125:
            return None
        tib = s / 1024
        base = min(40 * tib, 500) if t == "st1" else min(12 * tib, 192)
        # I/O in 1 MiB units: IOPS cost MiB/s of credit
        return (s * P[t], base, base) if base >= max(mibps, iops) else None
    return None


def solve(iops, mibps, gib):
    best = {}
    for t, top in (("gp2", 16384), ("gp3", 16384), ("io1", 16384), ("io2", 65536),
                   ("st1", 16384), ("sc1", 16384)):
        for k in range(1, 9):
            need_i, need_m = math.ceil(iops / k), math.ceil(mibps / k)
            if not one_volume(t, top, need_i, need_m):
                continue    # not even the largest volume carries it
            for s in range(max(1, math.ceil(gib / k)), top + 1):
                v = one_volume(t, s, need_i, need_m)
                if v and (t not in best or k * v[0] < best[t][0]):
                    best[t] = (k * v[0], k, s, v[1], v[2])
                if v:
                    break   # a larger volume of this width costs more
    return best


def main():
    if sys.argv[1] == "--batch":
        n = 0
        for line in open(sys.argv[2]):
            r = json.loads(line)
            solve(float(r.get("iops", 0)), float(r.get("throughput", 0)), float(r.get("size", 1)))
            n += 1
        print("%d requests" % n)
        return
    best = solve(float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]))
    for t, (c, k, s, i, m) in sorted(best.items(), key=lambda x: x[1][0]):
        print("%-4s %d x %d GiB, %g IOPS, %g MiB/s: $%.2f a month" % (t, k, s, i, m, c))


main()
