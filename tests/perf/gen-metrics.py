#!/usr/bin/python3
# gen-metrics.py - write a GENERATED `aws cloudwatch get-metric-data` result
# for the volumes of gen-volumes.py (the same ids), about SIZE_MB large:
# for every volume the read and write operation sums and the BurstBalance
# minimum (query ids `rops_300_vol_<hex>`, `wops_300_vol_<hex>`,
# `burst_300_vol_<hex>`, as `ebsize scan --metric-queries` names them),
# points every 5 minutes from 2026-11-01, as many as the size needs.  Not
# AWS data: the top level has a "Generated" member saying so, every label
# says "generated".  Deterministic (seeded).
# usage: gen-metrics.py N_VOLUMES SIZE_MB > metrics.json
import datetime
import json
import random
import sys

n = int(sys.argv[1])
size = float(sys.argv[2]) * 1e6
rnd = random.Random(7)
# one point: a timestamp of 27 bytes and a value of about 7, in 3 series
points = max(1, int(size / (n * 3 * 36)))
t0 = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)
ts = json.dumps([(t0 + datetime.timedelta(seconds=300 * k)).isoformat()
                 for k in range(points)])
out = sys.stdout
out.write('{"Generated": "synthetic data from ebsize tests/perf/gen-metrics.py, not AWS output",'
          ' "MetricDataResults": [')
for i in range(n):
    hexid = "%017x" % (0x0A000000000000000 + i)
    level = rnd.choice([50, 300, 1500, 2800])
    series = []
    for metric, base in (("rops", level * 300), ("wops", level * 100), ("burst", None)):
        if base is None:
            vals = [round(100 - 40 * rnd.random(), 1) for _ in range(points)]
        else:
            vals = [float(int(base * (0.5 + rnd.random()))) for _ in range(points)]
        series.append('{"Id": "%s_300_vol_%s", "Label": "generated", "Timestamps": %s,'
                      ' "Values": %s, "StatusCode": "Complete"}'
                      % (metric, hexid, ts, json.dumps(vals)))
    out.write((", " if i else "") + ", ".join(series))
out.write('], "Messages": []}\n')
