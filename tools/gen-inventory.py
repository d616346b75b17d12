#!/usr/bin/python3
# gen-inventory.py - a GENERATED fleet for the example report (`make
# reports`, tools/make-reports.sh): not AWS output, no real account.
# Writes into DIR:
#   generated-inventory.json  aws ec2 describe-volumes shape (formats.md 3),
#                             1,200 volumes in four regions, every one
#                             tagged Generated=... and team=...
#   generated-metrics.json    aws cloudwatch get-metric-data shape: a week's
#                             peaks for some volumes (busy gp2, idle io1/io2/gp3)
#   generated-usage.csv       volume_id,used_gib for some large gp2
# Deterministic (fixed seed, fixed order): the same files every run.
# usage: gen-inventory.py DIR
import json
import os
import random
import sys

out = sys.argv[1]
rnd = random.Random(2026)
N = 1200
REGIONS = [("us-east-1", "abc"), ("us-west-2", "ab"), ("eu-west-1", "abc"),
           ("ap-northeast-1", "ac")]
TEAMS = ["payments", "search", "analytics", "web", "platform"]
T0 = "2026-11-01T00:00:00Z"

vols, series, usage = [], [], []


def stamp(h):
    return "2026-11-%02dT%02d:00:00Z" % (1 + h // 24, h % 24)


def metric(mid, values):
    """One MetricDataResults element: an hourly value for 7 days."""
    series.append({"Id": mid, "Label": mid, "StatusCode": "Complete",
                   "Timestamps": [stamp(h) for h in range(len(values))],
                   "Values": values})


for i in range(N):
    vid = "vol-0feed%012x" % (i + 1)
    hexid = vid[4:]
    region, zones = REGIONS[rnd.randrange(len(REGIONS))] if i % 7 else REGIONS[0]
    az = region + rnd.choice(zones)
    r = rnd.random()
    iops = tput = None
    if r < 0.62:
        vt = "gp2"
        size = rnd.choice([8, 20, 50, 100, 100, 200, 300, 500, 1000, 1000, 2000, 3334])
        iops = max(100, min(16000, 3 * size))
    elif r < 0.80:
        vt = "gp3"
        size = rnd.choice([50, 100, 200, 500, 1000])
        iops = rnd.choice([3000, 3000, 6000, 12000])
        tput = rnd.choice([125, 125, 250, 500])
        iops = min(iops, 500 * size)
    elif r < 0.92:
        vt = rnd.choice(["io1", "io2"])
        size = rnd.choice([100, 500, 1000])
        iops = min(rnd.choice([3000, 10000, 20000]), 50 * size)
    else:
        vt = rnd.choice(["st1", "sc1"])
        size = rnd.choice([500, 1000, 2000])
    available = rnd.random() < 0.06
    v = {"VolumeId": vid, "VolumeType": vt, "Size": size, "AvailabilityZone": az,
         "State": "available" if available else "in-use",
         "CreateTime": "2025-03-01T10:00:00.000Z", "Encrypted": True,
         "SnapshotId": "", "MultiAttachEnabled": False,
         "Attachments": [] if available else [{
             "AttachTime": "2025-03-01T10:00:00.000Z", "Device": "/dev/xvdf",
             "InstanceId": "i-0feed%012x" % (i + 1), "State": "attached",
             "VolumeId": vid, "DeleteOnTermination": False}],
         "Tags": [{"Key": "Generated", "Value": "ebsize tools/gen-inventory.py"},
                  {"Key": "team", "Value": TEAMS[i % len(TEAMS)]},
                  {"Key": "Name", "Value": "gen-%s-%d" % (TEAMS[i % len(TEAMS)], i + 1)}]}
    if iops is not None and vt != "gp2":
        v["Iops"] = iops
    elif vt == "gp2":
        v["Iops"] = iops
    if tput is not None:
        v["Throughput"] = tput
    vols.append(v)
    if available:
        continue
    # a week of hourly peaks (Sum of ops / bytes over 3,600 s) for some
    if vt == "gp2" and size < 1000 and i % 5 == 0:
        busy = rnd.choice([1.5, 2.5, 6.0])   # times the baseline
        base = max(100, 3 * size)
        metric("rops_3600_vol_" + hexid,
               [round(min(3000, base * busy) * 3600 * (0.6 if h % 24 else 1.0))
                for h in range(168)])
    elif vt in ("io1", "io2", "gp3") and i % 3 == 0:
        used = rnd.choice([0.05, 0.1, 0.3])
        metric("rops_3600_vol_" + hexid,
               [round(iops * used * 3600 * (0.5 if h % 24 else 1.0)) for h in range(168)])
        metric("rbytes_3600_vol_" + hexid,
               [round(40 * 1048576 * 3600 * (0.5 if h % 24 else 1.0)) for h in range(168)])
    if vt == "gp2" and size >= 1000 and i % 4 == 0:
        usage.append("%s,%d" % (vid, round(size * rnd.choice([0.05, 0.1, 0.2]))))

os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "generated-inventory.json"), "w") as f:
    json.dump({"Generated": "synthetic data from ebsize tools/gen-inventory.py, not AWS output",
               "Volumes": vols}, f, indent=1)
    f.write("\n")
with open(os.path.join(out, "generated-metrics.json"), "w") as f:
    json.dump({"Generated": "synthetic data from ebsize tools/gen-inventory.py, not AWS output",
               "MetricDataResults": series, "Messages": []}, f)
    f.write("\n")
with open(os.path.join(out, "generated-usage.csv"), "w") as f:
    f.write("volume_id,used_gib\n")
    f.write("\n".join(usage) + "\n")
