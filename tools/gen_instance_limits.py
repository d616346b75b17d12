#!/usr/bin/env python3
"""Generate sql/seed/30_instance_limits.sql from the project's sourced
instance table, sql/seed/sources/instance-ebs-limits.csv, and the verbatim
DescribeInstanceTypes dump beside it (sql/seed/sources/raw/).

One INSERT row per instance type:
  - the 1,376 EBS-optimized types of the table, values copied as published
    (nothing recomputed: MB/s is not re-derived from Mbps), with
    `ebs_optimized` default/supported, NVMe support, and the dump's
    `MaximumEbsAttachments` (NULL for the 22 types only the 2023 AWS
    document lists: the dump does not have them);
  - the types the dump marks `EbsOptimizedSupport: unsupported` (t2.*,
    m1.small, ...): no EBS limit is published for them, so the six numbers
    are NULL; they can attach volumes, whose traffic shares the network.
`burst` is 1 where a maximum is above its baseline (the maximum holds 30
minutes per 24 hours, ebs-facts.md T11).  Every value of the table is
checked against the dump where the dump has the type; anything unexpected
aborts without writing.

Usage: tools/gen_instance_limits.py [LIMITS_CSV [DUMP_JSON [OUT_SQL]]]
"""

import csv
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC_DIR = os.path.join(ROOT, "sql", "seed", "sources")
DEFAULT_IN = os.path.join(SRC_DIR, "instance-ebs-limits.csv")
DEFAULT_DUMP = os.path.join(SRC_DIR, "raw", "describe-instance-types-dump-2026-08-02.json")
DEFAULT_OUT = os.path.join(ROOT, "sql", "seed", "30_instance_limits.sql")

DUMP_SOURCE = ("getmoto/moto@34d6cad5abbb7b91c97578f3249b39a7e2df1ed5:"
               "moto/ec2/resources/instance_types.json (DescribeInstanceTypes dump)")
DUMP_AS_OF = "2026-08-02"
NUMS = ["baseline_mbps", "max_mbps", "baseline_mbs", "max_mbs",
        "baseline_iops", "max_iops"]
DUMP_KEYS = ["BaselineBandwidthInMbps", "MaximumBandwidthInMbps",
             "BaselineThroughputInMBps", "MaximumThroughputInMBps",
             "BaselineIops", "MaximumIops"]
NUM_RE = re.compile(r"^\d+(\.\d+)?$")
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]*\.[a-z0-9-]+$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SUPPORT = ("default", "supported")
NVME = ("required", "supported", "unsupported", "")
ROWS_PER_INSERT = 100
COLS = ("INSERT INTO instance_limits (instance_type, burst, baseline_mbps, max_mbps,\n"
        "\tbaseline_mbytes_per_s, max_mbytes_per_s, baseline_iops, max_iops,\n"
        "\tebs_optimized, max_ebs_attachments, nvme, source, as_of) VALUES")


def die(msg):
    sys.stderr.write("gen_instance_limits: %s\n" % msg)
    sys.exit(1)


def sql_str(s):
    return "NULL" if s is None or s == "" else "'" + s.replace("'", "''") + "'"


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def from_table(r, dump):
    name = r["instance_type"]
    if not NAME_RE.match(name):
        die("bad instance type %r" % name)
    if r["family"] != name.split(".")[0]:
        die("%s: family %r" % (name, r["family"]))
    for k in NUMS:
        if not NUM_RE.match(r[k]):
            die("%s: %s %r is not a number" % (name, k, r[k]))
    for k in ("baseline_iops", "max_iops"):
        if "." in r[k]:
            die("%s: %s %r is not an integer" % (name, k, r[k]))
    v = [float(r[k]) for k in NUMS]
    if v[0] > v[1] or v[2] > v[3] or v[4] > v[5]:
        die("%s: a baseline is above its maximum" % name)
    if r["ebs_optimized_default"] not in SUPPORT:
        die("%s: ebs_optimized_default %r" % (name, r["ebs_optimized_default"]))
    if r["nvme_support"] not in NVME:
        die("%s: nvme_support %r" % (name, r["nvme_support"]))
    if not DATE_RE.match(r["vintage"]) or not r["source"]:
        die("%s: no source or vintage" % name)
    attach = None
    d = dump.get(name)
    if d is not None:
        e = d["EbsInfo"]
        o = e.get("EbsOptimizedInfo")
        if not o or any(not close(float(o[dk]), x) for dk, x in zip(DUMP_KEYS, v)):
            die("%s: the table disagrees with the dump" % name)
        if e["EbsOptimizedSupport"] != r["ebs_optimized_default"] or \
           e.get("NvmeSupport", "") != r["nvme_support"]:
            die("%s: EBS-optimized or NVMe support disagrees with the dump" % name)
        attach = str(int(e["MaximumEbsAttachments"]))
    elif r["source"].startswith("getmoto/"):
        die("%s: sourced from the dump but not in it" % name)
    burst = 1 if v[0] < v[1] or v[4] < v[5] else 0
    source = r["source"] + ("; " + r["notes"] if r["notes"] else "")
    return "(%s, %d, %s, %s, %s, %s, %s, %s)" % (
        sql_str(name), burst, ", ".join(r[k] for k in NUMS),
        sql_str(r["ebs_optimized_default"]), attach or "NULL",
        sql_str(r["nvme_support"]), sql_str(source), sql_str(r["vintage"]))


def unsupported(name, d):
    e = d["EbsInfo"]
    if "EbsOptimizedInfo" in e:
        die("%s: unsupported yet has EbsOptimizedInfo" % name)
    nvme = e.get("NvmeSupport", "")
    if nvme not in NVME:
        die("%s: NvmeSupport %r" % (name, nvme))
    return "(%s, 0, NULL, NULL, NULL, NULL, NULL, NULL, 'unsupported', %d, %s, %s, %s)" % (
        sql_str(name), int(e["MaximumEbsAttachments"]), sql_str(nvme),
        sql_str(DUMP_SOURCE + "; EbsOptimizedSupport unsupported: no EBS limit published"),
        sql_str(DUMP_AS_OF))


def main(argv):
    src = argv[1] if len(argv) > 1 else DEFAULT_IN
    dump_path = argv[2] if len(argv) > 2 else DEFAULT_DUMP
    dst = argv[3] if len(argv) > 3 else DEFAULT_OUT
    with open(src, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(dump_path, encoding="utf-8") as f:
        dump = json.load(f)
    seen, values = set(), []
    for r in rows:
        if r["instance_type"] in seen:
            die("duplicate instance type %r" % r["instance_type"])
        seen.add(r["instance_type"])
        values.append(from_table(r, dump))
    n_table = len(values)
    n_unsup = 0
    for name in sorted(dump):
        e = dump[name]["EbsInfo"]
        if e["EbsOptimizedSupport"] == "unsupported":
            if name in seen:
                die("%s: unsupported yet in the table" % name)
            values.append(unsupported(name, dump[name]))
            n_unsup += 1
        elif name not in seen:
            die("%s: in the dump but not in the table" % name)

    out = ["-- GENERATED by tools/gen_instance_limits.py from",
           "-- sql/seed/sources/instance-ebs-limits.csv and the DescribeInstanceTypes",
           "-- dump in sql/seed/sources/raw/ (see sql/seed/sources/SOURCES.md);",
           "-- edit the generator or the source table, not this file.",
           "-- %d EBS-optimized instance types, values as published, and %d types"
           % (n_table, n_unsup),
           "-- that are not EBS-optimizable (no EBS limit published: NULL limits).",
           "-- burst = 1 where a maximum is above its baseline.", ""]
    for i in range(0, len(values), ROWS_PER_INSERT):
        out.append(COLS)
        out.append(",\n".join("\t" + v for v in values[i:i + ROWS_PER_INSERT]) + ";")
    tmp = dst + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, dst)
    sys.stderr.write("gen_instance_limits: %d EBS-optimized + %d unsupported -> %s\n"
                     % (n_table, n_unsup, dst))


if __name__ == "__main__":
    main(sys.argv)
