#!/usr/bin/python3
# gen-volumes.py - write a GENERATED `aws ec2 describe-volumes` document
# with N volumes (default 100,000) for the scan benchmark.  Not AWS data:
# every volume carries the tag "Generated"="ebsize tests/perf/gen-volumes.py"
# and the top level a "Generated" comment member.  Deterministic (seeded).
# Shape follows formats.md section 3 (reference material) and the aws-cli example
# fixture, compact (one line), about 540 bytes per volume.
# usage: gen-volumes.py [N] > volumes.json
import json
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
rnd = random.Random(42)
azs = ["us-east-1a", "us-east-1b", "eu-west-1a", "eu-west-1c", "us-west-2b"]
teams = ["payments", "search", "ml", "web", "data"]
out = sys.stdout
# written volume by volume (1M volumes are 540 MB): the same bytes as
# json.dump of the whole document
out.write('{"Generated": %s, "Volumes": [' % json.dumps(
    "synthetic data from ebsize tests/perf/gen-volumes.py, not AWS output"))
chunk = []
for i in range(n):
    vid = "vol-%017x" % (0x0A000000000000000 + i)
    r = rnd.random()
    if r < 0.70:
        vt, size = "gp2", rnd.choice([8, 20, 50, 100, 200, 500, 1000, 2000, 3334])
        iops, tput = max(100, min(16000, 3 * size)), None
    elif r < 0.85:
        vt, size = "gp3", rnd.choice([20, 100, 500, 1000])
        iops, tput = rnd.choice([3000, 6000, 12000]), rnd.choice([125, 250, 500])
    elif r < 0.95:
        vt, size = rnd.choice(["io1", "io2"]), rnd.choice([100, 500, 1000])
        iops, tput = rnd.choice([2000, 10000, 20000]), None
    else:
        vt, size, iops, tput = "st1", 500, 500, None
    if vt in ("io1", "io2") and iops > 50 * size:
        iops = 50 * size
    avail = rnd.random() < 0.05
    az = rnd.choice(azs)
    v = {
        "AvailabilityZone": az,
        "Attachments": [] if avail else [{
            "AttachTime": "2024-05-01T10:00:00.000Z",
            "InstanceId": "i-%017x" % i,
            "VolumeId": vid,
            "State": "attached",
            "DeleteOnTermination": True,
            "Device": "/dev/xvdf",
        }],
        "Encrypted": True,
        "VolumeType": vt,
        "VolumeId": vid,
        "State": "available" if avail else "in-use",
        "Iops": iops,
        "SnapshotId": "",
        "CreateTime": "2024-05-01T10:00:00.000Z",
        "Size": size,
        "Tags": [
            {"Key": "Generated", "Value": "ebsize tests/perf/gen-volumes.py"},
            {"Key": "team", "Value": rnd.choice(teams)},
            {"Key": "Name", "Value": "gen-%d" % i},
        ],
    }
    if tput is not None:
        v["Throughput"] = tput
    chunk.append(json.dumps(v))
    if len(chunk) == 10000:
        out.write((", " if i >= 10000 else "") + ", ".join(chunk))
        chunk = []
if chunk:
    out.write((", " if n > len(chunk) else "") + ", ".join(chunk))
out.write("]}\n")
