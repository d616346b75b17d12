#!/usr/bin/python3
# gen-whatifs.py - write N GENERATED `cheapest` requests as JSON Lines for
# `ebsize cheapest --batch` (issue 14: thousands of what-if questions):
# IOPS, MiB/s and GiB from the ranges people ask about, half of them in
# another region than the default (USD and CNY prices), a third checked
# against an instance, some with a larger I/O size.  Made up, seeded: the
# same N gives the same file.
# usage: gen-whatifs.py N > whatifs.jsonl
import json
import random
import sys

n = int(sys.argv[1])
rnd = random.Random(14)
regions = ["eu-west-1", "ap-northeast-1", "us-west-2", "cn-north-1"]
instances = ["m6i.2xlarge", "r6i.large", "c7i.4xlarge", "m5.xlarge", "m7g.medium"]
out = sys.stdout
for i in range(n):
    r = {"id": "whatif-%d" % i,
         "iops": rnd.choice([3000, 6000, 12000, 16000, 20000, 40000, 64000]),
         "throughput": rnd.choice([125, 250, 500, 1000]),
         "size": rnd.choice([50, 100, 400, 1000, 4000])}
    if rnd.random() < 0.5:
        r["region"] = rnd.choice(regions)
    if rnd.random() < 0.33:
        r["instance"] = rnd.choice(instances)
    if rnd.random() < 0.2:
        r["io-size"] = rnd.choice([64, 256])
    out.write(json.dumps(r) + "\n")
