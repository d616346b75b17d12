#!/usr/bin/env python3
"""Generate pricing/snapshot.csv from ebs-facts.md tables T6, T7 and T9.

One CSV row per price: every region of T6 x every volume type x every
billed dimension.  Prices are copied as published in T6 (the "$" dropped);
nothing is recomputed.  The gp3 throughput price is T6's per-MiB/s value; the
bracketed Price List per-GiBps value is only used to check it (value/1024).
Usage-type prefixes come from T9 and are checked against T6's Prefix column.
T7 (2026 spot checks) is parsed to say in each row's source whether that
value was re-checked in 2026, and every spot-checked value is compared with T6.

Usage: tools/gen_price_snapshot.py [FACTS_MD [OUT_CSV]]
"""

import os
import re
import sys
from decimal import Decimal

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_IN = os.path.join(ROOT, "..", "shared", "ebs-facts.md")
DEFAULT_OUT = os.path.join(ROOT, "pricing", "snapshot.csv")

AS_OF = "2022-02-10"  # T6 "Data vintage": 2022-02-10 dump [P1]
CSV_HEADER = ("region,volume_type,dimension,unit,currency,price_per_unit,"
              "begin_range,end_range,usagetype,as_of,source")
UNITS = {"storage": "GiB-month", "iops": "IOPS-month",
         "throughput": "MiBps-month", "io": "per-1M-IO"}

# T6 column (by header text) -> (volume_type, dimension, begin, end, usage type).
# Usage types after the prefix: ebs-facts.md T10.
T6_COLUMNS = [
    ("gp2 GB-mo", "gp2", "storage", "0", "", "EBS:VolumeUsage.gp2"),
    ("gp3 GB-mo", "gp3", "storage", "0", "", "EBS:VolumeUsage.gp3"),
    ("gp3 IOPS-mo (>3,000)", "gp3", "iops", "3000", "", "EBS:VolumeP-IOPS.gp3"),
    ("gp3 MiB/s-mo (>125) [API: GiBps-mo]", "gp3", "throughput", "125", "",
     "EBS:VolumeP-Throughput.gp3"),
    ("io1 GB-mo", "io1", "storage", "0", "", "EBS:VolumeUsage.piops"),
    ("io1 IOPS-mo", "io1", "iops", "0", "", "EBS:VolumeP-IOPS.piops"),
    ("io2 GB-mo", "io2", "storage", "0", "", "EBS:VolumeUsage.io2"),
    ("io2 IOPS ≤32k", "io2", "iops", "0", "32000", "EBS:VolumeP-IOPS.io2"),
    ("io2 IOPS 32,001–64k", "io2", "iops", "32000", "64000",
     "EBS:VolumeP-IOPS.io2.tier2"),
    ("io2 IOPS >64k", "io2", "iops", "64000", "", "EBS:VolumeP-IOPS.io2.tier3"),
    ("st1 GB-mo", "st1", "storage", "0", "", "EBS:VolumeUsage.st1"),
    ("sc1 GB-mo", "sc1", "storage", "0", "", "EBS:VolumeUsage.sc1"),
    ("standard GB-mo", "standard", "storage", "0", "", "EBS:VolumeUsage"),
    ("standard per 1M I/O", "standard", "io", "0", "", "EBS:VolumeIOUsage"),
]

# T7 "Item" text -> the T6 prices it lists, in order.  "GiBps" values are
# Price List per-GiBps-month figures (compared after dividing by 1024).
T7_ITEMS = {
    "gp3 GB / IOPS / GiBps": [("gp3", "storage", "0"), ("gp3", "iops", "3000"),
                              ("gp3", "throughput", "125", "GiBps")],
    "io2 GB / tier1 / tier2 / tier3": [("io2", "storage", "0"), ("io2", "iops", "0"),
                                       ("io2", "iops", "32000"),
                                       ("io2", "iops", "64000")],
    "gp2 / gp3 / gp3 IOPS / io2 tier1": [("gp2", "storage", "0"),
                                         ("gp3", "storage", "0"),
                                         ("gp3", "iops", "3000"),
                                         ("io2", "iops", "0")],
    "gp3 GB": [("gp3", "storage", "0")],
}

PRICE_RE = re.compile(r"^\$(\d+(\.\d+)?)$")
THRU_RE = re.compile(r"^\$(\d+(\.\d+)?) \[\$(\d+(\.\d+)?)\]$")


def die(msg):
    sys.stderr.write("gen_price_snapshot: %s\n" % msg)
    sys.exit(1)


def cells(line):
    line = line.strip()
    if not (line.startswith("|") and line.endswith("|")):
        return None
    return [c.strip() for c in line[1:-1].split("|")]


def section_lines(text, heading):
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            if inside:
                break
            inside = line.startswith("## " + heading)
            continue
        if inside:
            out.append(line)
    if not out:
        die("section '%s' not found" % heading)
    return out


def first_table(lines, first_header_cell):
    """(header, rows) of the first table whose header starts with the cell."""
    header, rows = None, []
    for line in lines:
        c = cells(line)
        if header is None:
            if c and c[0] == first_header_cell:
                header = c
            continue
        if c is None:
            break
        if all(re.match(r"^:?-+:?$", x) for x in c):
            continue
        if len(c) != len(header):
            die("row %r: %d cells, expected %d" % (line, len(c), len(header)))
        rows.append(c)
    if header is None:
        die("table starting with '%s' not found" % first_header_cell)
    return header, rows


def parse_prefixes(text):
    """T9: region -> usage-type prefix ('' for '(none)')."""
    header, rows = first_table(section_lines(text, "T9."), "Region")
    col = header.index("Price List usage-type prefix")
    out = {}
    for r in rows:
        if not re.match(r"^[a-z]{2}-[a-z]+-\d$", r[0]):
            continue  # Local Zone / reference rows
        p = r[col]
        out[r[0]] = "" if p == "(none)" else p
    return out


def parse_spot_checks(text):
    """T7: {(region, vt, dim, begin): source key} for values equal to T6."""
    header, rows = first_table(section_lines(text, "T7."), "Region")
    checks = {}
    for region, item, value, same, src in rows:
        if same != "yes" or item not in T7_ITEMS:
            continue  # unverified rows and the "brief seed" rows
        keys = T7_ITEMS[item]
        vals = [v.strip() for v in value.split("/")]
        if len(vals) != len(keys):
            die("T7 %s %r: %d values for %d items" % (region, item, len(vals), len(keys)))
        for k, v in zip(keys, vals):
            checks[(region,) + k[:3]] = (src, Decimal(v) / (1024 if len(k) > 3 else 1))
    return checks


def price(cell, where):
    m = PRICE_RE.match(cell)
    if not m:
        die("%s: price %r not understood" % (where, cell))
    return m.group(1)


def throughput_price(cell, where):
    m = THRU_RE.match(cell)
    if not m:
        die("%s: throughput price %r not understood" % (where, cell))
    per_mib, per_gib = m.group(1), m.group(3)
    if Decimal(per_gib) / 1024 != Decimal(per_mib):
        die("%s: %s per GiBps / 1024 != %s per MiB/s" % (where, per_gib, per_mib))
    return per_mib


def source_for(region, key, checks):
    s = "ebs-facts.md T6 [P1]"
    if key in checks:
        return s + "; T7 spot-checked 2026 identical [%s]" % checks[key][0]
    if region == "us-west-2":
        return s + "; T7 no 2026 data point for us-west-2 (unverified)"
    return s + "; T7 2026 spot checks all identical (this value not among them)"


def main(argv):
    src = argv[1] if len(argv) > 1 else DEFAULT_IN
    dst = argv[2] if len(argv) > 2 else DEFAULT_OUT
    with open(src, encoding="utf-8") as f:
        text = f.read()
    prefixes = parse_prefixes(text)
    checks = parse_spot_checks(text)
    header, rows = first_table(section_lines(text, "T6."), "Region")
    idx = {}
    for name, *_ in T6_COLUMNS:
        if name not in header:
            die("T6 column %r not found" % name)
        idx[name] = header.index(name)
    if set(header) - set(idx) != {"Region", "Prefix", "Source"}:
        die("T6 has unexpected columns: %r" % (set(header) - set(idx)))

    out, used_checks, regions = [CSV_HEADER], set(), set()
    for r in rows:
        region = r[0]
        if region in regions:
            die("duplicate region %s" % region)
        regions.add(region)
        if region not in prefixes:
            die("%s: no usage-type prefix in T9" % region)
        prefix = prefixes[region]
        t6p = r[header.index("Prefix")]
        if (prefix or "(none)") not in [p.strip() for p in t6p.split("/")]:
            die("%s: T9 prefix %r disagrees with T6 %r" % (region, prefix, t6p))
        if r[header.index("Source")] != "[P1]":
            die("%s: unexpected T6 source %r" % (region, r[-1]))
        for name, vt, dim, begin, end, ut in T6_COLUMNS:
            where = "T6 %s %s" % (region, name)
            if dim == "throughput":
                p = throughput_price(r[idx[name]], where)
            else:
                p = price(r[idx[name]], where)
            key = (region, vt, dim, begin)
            if key in checks:
                if checks[key][1] != Decimal(p):
                    die("%s: T7 2026 value %s != T6 %s" % (where, checks[key][1], p))
                used_checks.add(key)
            usagetype = (prefix + "-" if prefix else "") + ut
            fields = [region, vt, dim, UNITS[dim], "USD", p, begin, end,
                      usagetype, AS_OF, source_for(region, key, checks)]
            for fld in fields:
                if "," in fld or '"' in fld or "\n" in fld:
                    die("%s: field %r needs quoting" % (where, fld))
            out.append(",".join(fields))
    if set(checks) - used_checks:
        die("T7 checks not matched to T6: %r" % sorted(set(checks) - used_checks))
    tmp = dst + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, dst)
    sys.stderr.write("gen_price_snapshot: %d regions, %d prices (%d spot-checked) -> %s\n"
                     % (len(regions), len(out) - 1, len(used_checks), dst))


if __name__ == "__main__":
    main(sys.argv)
