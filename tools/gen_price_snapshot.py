#!/usr/bin/env python3
"""Generate pricing/snapshot.csv and sql/seed/10_regions.sql from the
project's sourced price table, pricing/sources/ebs-prices-all-regions.csv.

One snapshot row per price found: every region x every field whose value
the table gives (an empty value is a price no reachable source had: it is
left out, never guessed).  Values are copied as published; nothing is
recomputed.  Each row keeps its source and its vintage (the date goes to
`as_of`, any remark after it to the source text).

Every value is checked against the raw sources kept beside the table
(pricing/sources/raw/): the AWS Price List extract of 2022-02-10 [CK] for
the volume prices (gp3 throughput per MiB/s = the extract's per-GiBps
price / 1024, magnetic I/O per million = the per-request price x 10^6)
and AWS's EBS calculator file of 2021-05-13 [LG] for snapshot storage.
Any disagreement aborts without writing.

The regions seed gets all regions of the table: the Price List `location`
from the extract (the regions it lacks get NULL: no source gave one), the
usage-type prefix where a source gives it (PREFIXES below; NULL for the
rest), and the currency of the table.

Usage: tools/gen_price_snapshot.py [PRICES_CSV [OUT_CSV [OUT_REGIONS_SQL]]]
"""

import csv
import io
import json
import os
import re
import sys
from decimal import Decimal

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC_DIR = os.path.join(ROOT, "pricing", "sources")
DEFAULT_IN = os.path.join(SRC_DIR, "ebs-prices-all-regions.csv")
EXTRACT = os.path.join(SRC_DIR, "raw", "ebs-pricing-price-list-extract-2022-02-10.json")
CALCULATOR = os.path.join(SRC_DIR, "raw", "ebs-calculator-2021-05-13.json")
DEFAULT_OUT = os.path.join(ROOT, "pricing", "snapshot.csv")
DEFAULT_REGIONS = os.path.join(ROOT, "sql", "seed", "10_regions.sql")

CSV_HEADER = ["region", "volume_type", "dimension", "unit", "currency",
              "price_per_unit", "begin_range", "end_range", "usagetype",
              "as_of", "source"]
UNITS = {"storage": "GiB-month", "iops": "IOPS-month",
         "throughput": "MiBps-month", "io": "per-1M-IO"}

# Table field -> (volume_type, dimension, begin, end, usage type after the
# prefix (ebs-facts.md T10), the extract's key, the factor from the
# extract's unit to ours).  The gp3 per-GiBps field is only checked.
FIELDS = {
    "gp2_storage": ("gp2", "storage", "0", "", "EBS:VolumeUsage.gp2",
                    ("gp2", "pricePerGBMonth"), 1),
    "gp3_storage": ("gp3", "storage", "0", "", "EBS:VolumeUsage.gp3",
                    ("gp3", "pricePerGBMonth"), 1),
    "gp3_iops_above_3000": ("gp3", "iops", "3000", "", "EBS:VolumeP-IOPS.gp3",
                            ("gp3", "pricePerIOPSMonth"), 1),
    "gp3_throughput_above_125": ("gp3", "throughput", "125", "",
                                 "EBS:VolumeP-Throughput.gp3",
                                 ("gp3", "pricePerGiBpsMonth"), Decimal(1) / 1024),
    "gp3_throughput_above_125_gibps": None,
    "io1_storage": ("io1", "storage", "0", "", "EBS:VolumeUsage.piops",
                    ("io1", "pricePerGBMonth"), 1),
    "io1_iops": ("io1", "iops", "0", "", "EBS:VolumeP-IOPS.piops",
                 ("io1", "pricePerIOPSMonth"), 1),
    "io2_storage": ("io2", "storage", "0", "", "EBS:VolumeUsage.io2",
                    ("io2", "pricePerGBMonth"), 1),
    "io2_iops_tier1_le_32000": ("io2", "iops", "0", "32000", "EBS:VolumeP-IOPS.io2",
                                ("io2", "pricePerTier1IOPSMonth"), 1),
    "io2_iops_tier2_32001_64000": ("io2", "iops", "32000", "64000",
                                   "EBS:VolumeP-IOPS.io2.tier2",
                                   ("io2", "pricePerTier2IOPSMonth"), 1),
    "io2_iops_tier3_gt_64000": ("io2", "iops", "64000", "", "EBS:VolumeP-IOPS.io2.tier3",
                                ("io2", "pricePerTier3IOPSMonth"), 1),
    "st1_storage": ("st1", "storage", "0", "", "EBS:VolumeUsage.st1",
                    ("st1", "pricePerGBMonth"), 1),
    "sc1_storage": ("sc1", "storage", "0", "", "EBS:VolumeUsage.sc1",
                    ("sc1", "pricePerGBMonth"), 1),
    "standard_storage": ("standard", "storage", "0", "", "EBS:VolumeUsage",
                         ("standard", "pricePerGBMonth"), 1),
    "standard_io_per_million": ("standard", "io", "0", "", "EBS:VolumeIOUsage",
                                ("standard", "pricePerIOs"), 1000000),
    # snapshot storage, standard tier (ebs-facts.md T8, T10 EBS:SnapshotUsage)
    "snapshot_standard": ("snapshot", "storage", "0", "", "EBS:SnapshotUsage",
                          None, 1),
}

# Usage-type prefixes a source gives ('' = us-east-1, no prefix).  The
# Price List uses them when a product has no `location`; a region whose
# prefix no source gives gets NULL and is matched by location only.
PREFIXES = {
    "us-east-1": ("", "ebs-facts.md T9 [B2 B3 P1 P3]"),
    "us-west-2": ("USW2", "ebs-facts.md T9 [B2 P1]"),
    "eu-west-1": ("EU", "ebs-facts.md T9 [B2 B3 P1 P6]"),
    "eu-central-1": ("EUC1", "ebs-facts.md T9 [B2 B4 P1]"),
    "ap-northeast-1": ("APN1", "ebs-facts.md T9 [B2 P1]"),
    "ap-northeast-2": ("APN2", "ebs-facts.md T9 [B2 P1]"),
    "ap-southeast-1": ("APS1", "ebs-facts.md T9 [B2 P1]"),
    "eu-west-2": ("EUW2", "ebs-facts.md T9 reference row [B2 B3]"),
    "eu-west-3": ("EUW3", "ebs-facts.md T9 reference row [B2 B3]"),
    "cn-northwest-1": ("CNW1", "tests/fixtures/pricing-offer-fragment-cnnw1-gp3-cny-opencost.json"
                       " (usagetype CNW1-EBS:VolumeUsage.gp3)"),
}

# The calculator names regions by location; GovCloud (US-West) is its
# "AWS GovCloud (US)".
CALC_LOCATION = {"us-gov-west-1": "AWS GovCloud (US)"}
CALC_SNAPSHOT = "Storage Snapshot Amazon S3 GB Mo"

DATE_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(; (.+))?$")
REGION_RE = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d$")


def die(msg):
    sys.stderr.write("gen_price_snapshot: %s\n" % msg)
    sys.exit(1)


def load_extract():
    with open(EXTRACT, encoding="utf-8") as f:
        data = json.load(f)
    out = {}
    for e in data:
        if e.get("rzType") == "region":
            out[e["rzCode"]] = e
    return out


def load_calculator():
    with open(CALCULATOR, encoding="utf-8") as f:
        return json.load(f)["regions"]


def extract_value(ext, region, key, currency, where):
    e = ext.get(region)
    if e is None:
        die("%s: region not in the Price List extract" % where)
    try:
        return Decimal(e["ebs_prices"][key[0]][key[1]][currency])
    except KeyError:
        die("%s: no %s.%s %s price in the Price List extract" % (where, key[0], key[1], currency))


def check_value(row, spec, value, ext, calc, where):
    """Compare a table value with the raw source it names."""
    src = row["source"]
    if src.startswith("cloudkeep-io/ebs-pricing@"):
        key, factor = spec[5], spec[6]
        if key is None:
            die("%s: a Price List source for a field the extract lacks" % where)
        raw = extract_value(ext, row["region"], key, row["currency"], where)
        if raw * Decimal(factor) != value:
            die("%s: %s != extract %s x %s" % (where, value, raw, factor))
    elif src.startswith("ligoj/plugin-prov-aws@"):
        if spec[0] != "snapshot":
            die("%s: calculator source for a volume price" % where)
        loc = CALC_LOCATION.get(row["region"]) or ext[row["region"]]["location"]
        try:
            raw = Decimal(calc[loc][CALC_SNAPSHOT]["price"])
        except KeyError:
            die("%s: no snapshot price for %r in the calculator file" % (where, loc))
        if raw != value:
            die("%s: %s != calculator %s" % (where, value, raw))
    else:
        die("%s: unknown source %r" % (where, src))


def sql_str(s):
    return "NULL" if s is None else "'" + s.replace("'", "''") + "'"


def main(argv):
    src = argv[1] if len(argv) > 1 else DEFAULT_IN
    dst = argv[2] if len(argv) > 2 else DEFAULT_OUT
    dst_regions = argv[3] if len(argv) > 3 else DEFAULT_REGIONS
    ext = load_extract()
    calc = load_calculator()
    with open(src, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))

    regions = {}          # code -> currency, in table order
    fields_seen = {}
    out = []
    gibps = {}
    for n, r in enumerate(rows, start=2):
        where = "%s line %d (%s %s)" % (os.path.basename(src), n, r["region"], r["field"])
        region, field, value = r["region"], r["field"], r["value"]
        if not REGION_RE.match(region):
            die("%s: bad region code" % where)
        if r["currency"] not in ("USD", "CNY"):
            die("%s: unexpected currency %r" % (where, r["currency"]))
        if regions.setdefault(region, r["currency"]) != r["currency"]:
            die("%s: a second currency for the region" % where)
        if field not in FIELDS:
            die("%s: unknown field" % where)
        if (region, field) in fields_seen:
            die("%s: duplicate" % where)
        fields_seen[(region, field)] = 1
        if value == "":
            if not r["source"].startswith("NOT FOUND"):
                die("%s: empty value with a source" % where)
            continue
        v = Decimal(value)
        if v <= 0:
            die("%s: price %s is not positive" % (where, value))
        m = DATE_RE.match(r["vintage"])
        if not m:
            die("%s: vintage %r does not start with a date" % (where, r["vintage"]))
        if not r["unit"].startswith(r["currency"] + " per "):
            die("%s: unit %r is not in %s" % (where, r["unit"], r["currency"]))
        spec = FIELDS[field]
        if spec is None:
            gibps[region] = v
            continue
        check_value(r, spec, v, ext, calc, where)
        vt, dim, begin, end, ut = spec[:5]
        prefix = PREFIXES.get(region, (None,))[0]
        usagetype = "" if prefix is None else (prefix + "-" if prefix else "") + ut
        source = r["source"]
        if m.group(3):
            source += "; " + m.group(3)
        out.append([region, vt, dim, UNITS[dim], r["currency"], value, begin, end,
                    usagetype, m.group(1), source])

    # the per-GiBps field is the Price List unit of the per-MiB/s one
    for region, v in gibps.items():
        mib = [o for o in out if o[0] == region and o[1] == "gp3" and o[2] == "throughput"]
        if len(mib) != 1 or Decimal(mib[0][5]) * 1024 != v:
            die("%s: gp3 throughput per GiBps %s != 1024 x per MiB/s" % (region, v))
    for code in PREFIXES:
        if code not in regions:
            die("prefix for %s, a region the table lacks" % code)

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for o in out:
        w.writerow(o)
    tmp = dst + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(buf.getvalue())

    lines = ["-- GENERATED by tools/gen_price_snapshot.py from",
             "-- pricing/sources/ebs-prices-all-regions.csv (see pricing/sources/SOURCES.md);",
             "-- edit the generator or the source table, not this file.",
             "-- Every region the table knows (%d), priced or not.  location = Price List" % len(regions),
             "-- `location` from the 2022-02-10 Price List extract [CK] (NULL: no source",
             "-- gave one); usagetype_prefix = Price List usage-type prefix where a",
             "-- source gives it ('' = us-east-1, NULL = unknown); currency as quoted.",
             "",
             "INSERT INTO regions (code, location, usagetype_prefix, currency, source) VALUES"]
    vals = []
    for code in sorted(regions):
        e = ext.get(code)
        loc = e["location"] if e else None
        prefix, psrc = PREFIXES.get(code, (None, None))
        srcs = []
        if loc:
            srcs.append("location: Price List extract 2022-02-10 [CK]")
        else:
            srcs.append("location: not found")
        srcs.append("prefix: " + (psrc if psrc else "not found"))
        srcs.append("currency: pricing/sources/ebs-prices-all-regions.csv")
        vals.append("\t(%s, %s, %s, %s, %s)" % (sql_str(code), sql_str(loc), sql_str(prefix),
                                               sql_str(regions[code]), sql_str("; ".join(srcs))))
    lines.append(",\n".join(vals) + ";")
    tmp_r = dst_regions + ".tmp"
    with open(tmp_r, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, dst)
    os.replace(tmp_r, dst_regions)
    priced = sorted({o[0] for o in out if o[1] != "snapshot"})
    sys.stderr.write("gen_price_snapshot: %d regions (%d priced), %d prices -> %s, %s\n"
                     % (len(regions), len(priced), len(out), dst, dst_regions))


if __name__ == "__main__":
    main(sys.argv)
